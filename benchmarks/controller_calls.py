"""How much work the controller does per card: displays shown and engine prompts computed.

Plays whole bot games of every game (table mode, every player count) through
:class:`cardtable.table.table.Controller`, card by card and press by press as people would, and
prints, per card laid, how many times handling it showed the table (``Outputs.show``) and
computed the engine's prompt (``Game.prompt``, the view's own call included).

    .venv/bin/python benchmarks/controller_calls.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import NoOutputs, Table  # noqa: E402
from cardtable.journal import Journal  # noqa: E402
from cardtable.sim.simulation import table_moves  # noqa: E402
from engine.games import all_games  # noqa: E402
from engine.table_events import ButtonPress, TableEvent  # noqa: E402


class CountingOutputs(NoOutputs):
    """Outputs that count what they are asked to show."""

    def __init__(self) -> None:
        self.shown = 0

    def show(self, view) -> None:
        self.shown += 1

    def turn(self, seat) -> None:
        pass

    def refuse(self, seat) -> None:
        pass


def play(game, players: int, folder: Path) -> tuple[int, int, int, int]:
    """Over one whole game: (cards laid, table shown and prompts computed while handling a card
    laid, inputs handled)."""
    name = game.name
    moves, _ = table_moves(game, players, seed=players)
    kind = type(game)
    counted = {"prompt": 0}
    original = kind.prompt

    def prompt(self, state):
        counted["prompt"] += 1
        return original(self, state)

    outputs = CountingOutputs()
    with Journal(folder / f"{name}{players}.sqlite") as journal:
        controller = Table(TableSetup(name, players), journal, outputs, resume=False)
        kind.prompt = prompt
        cards = inputs = shown = prompts = 0
        on_table: dict = {}
        try:
            for move in moves:
                events = []
                if move.kind == "place":
                    cards += 1
                    events = [TableEvent("placed", move.card, move.zone, 0.0, "sim")]
                    on_table[move.card.id] = move
                elif move.kind == "press":
                    events = [ButtonPress(move.button, 0.0)]
                else:
                    gone = [move.card] if move.kind == "take" else list(move.cards)
                    events = [TableEvent("removed", c, on_table.pop(c.id).zone, 0.0, "sim")
                              for c in gone if c.id in on_table]
                for event in events:
                    before = (outputs.shown, counted["prompt"])
                    controller.handle(event)
                    inputs += 1
                    if move.kind == "place":
                        shown += outputs.shown - before[0]
                        prompts += counted["prompt"] - before[1]
        finally:
            kind.prompt = original
        assert controller.game.finished, (name, players)
    return cards, shown, prompts, inputs


def main() -> int:
    print(f"{'game':<10}{'players':>8}{'cards':>7}{'inputs':>8}{'shown/card':>12}{'prompts/card':>14}")
    totals = [0, 0, 0, 0]
    with tempfile.TemporaryDirectory() as tmp:
        for game in all_games():
            for players in game.players:
                cards, shown, prompts, inputs = play(game, players, Path(tmp))
                totals = [t + n for t, n in zip(totals, (cards, shown, prompts, inputs))]
                print(f"{game.name:<10}{players:>8}{cards:>7}{inputs:>8}{shown / cards:>12.2f}{prompts / cards:>14.2f}")
    cards, shown, prompts, inputs = totals
    print(f"{'all':<10}{'':>8}{cards:>7}{inputs:>8}{shown / cards:>12.2f}{prompts / cards:>14.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
