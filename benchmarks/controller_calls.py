"""How much work the table does per input: displays shown and engine prompts worked out.

Plays whole bot games of every game (table mode, every player count) through
:class:`cardtable.table.table.Table`, card by card and press by press as people would, with a
device's sentence (a :class:`~engine.table_events.Notice`) every few inputs and, once the game is
over, the owner's requests (undo, end, start the next game). Every input walks one road,
:meth:`Table.handle`. Printed per kind of input: how many times handling it showed the table
(``Outputs.show``: once each), how many actions it got accepted, and how many times the engine
worked out a prompt (``Game._prompt``) per action accepted: with the engine's memory of the last
state's prompt (the table's road) and, in the same run, without it (each part of the table that
asks, the rules' check of the action, the turn light, the view, the buttons, works it out again).
The owner's undo rebuilds the game from the journal, whose replay has the rules check each action
again: its prompts are those of the actions replayed.

    .venv/bin/python benchmarks/controller_calls.py [--games cribbage,quinze]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardtable.journal import Journal  # noqa: E402
from cardtable.sim.simulation import table_moves  # noqa: E402
from cardtable.table.journalled_game import TableSetup  # noqa: E402
from cardtable.table.table import NoOutputs, Table  # noqa: E402
from engine.game import Game, Prompt  # noqa: E402
from engine.games import all_games  # noqa: E402
from engine.table_events import ButtonPress, Notice, OwnerRequest, TableEvent  # noqa: E402

KINDS = ("card", "button", "notice", "owner")
#: A device's sentence comes after every this many inputs.
NOTICE_EVERY = 7


class CountingOutputs(NoOutputs):
    """Outputs that count how many times they are asked to show the table."""

    def __init__(self) -> None:
        self.shown = 0

    def show(self, view) -> None:
        self.shown += 1


def forgetful_prompt(self: Game, state) -> Prompt:
    """The naive prompt: worked out again each time it is asked for."""
    return Prompt(None, (), self.outcome(state).text) if self.is_terminal(state) else self._prompt(state)


def inputs_of(game, players: int):
    """(kind, input) for a whole bot game laid on the table, then the owner's requests."""
    moves, _ = table_moves(game, players, seed=players)
    on_table: dict = {}
    count = 0
    for move in moves:
        if move.kind == "place":
            on_table[move.card.id] = move
            items = [("card", TableEvent("placed", move.card, move.zone, 0.0, "sim"))]
        elif move.kind == "press":
            items = [("button", ButtonPress(move.button, 0.0))]
        else:
            gone = [move.card] if move.kind == "take" else list(move.cards)
            items = [("card", TableEvent("removed", c, on_table.pop(c.id).zone, 0.0, "sim"))
                     for c in gone if c.id in on_table]
        for item in items:
            count += 1
            yield item
            if count % NOTICE_EVERY == 0:
                yield "notice", Notice("The card readers are connected", "rfid")
    for request in (OwnerRequest("undo"), OwnerRequest("end"), OwnerRequest("start", game=game.name, players=players)):
        yield "owner", request


def play(game, players: int, folder: Path, *, memory: bool) -> tuple[Counter, Counter, Counter, Counter]:
    """Over one whole game: per kind of input, (inputs, table shown, actions accepted, prompts
    worked out)."""
    kind = type(game)
    counted = Counter()
    original_prompt, original_compute = Game.prompt, kind._prompt

    def compute(self, state):
        counted["prompts"] += 1
        return original_compute(self, state)

    outputs = CountingOutputs()
    inputs, shown, accepted, prompts = Counter(), Counter(), Counter(), Counter()
    with Journal(folder / f"{game.name}{players}{memory}.sqlite") as journal:
        table = Table(TableSetup(game.name, players), journal, outputs, resume=False)
        kind._prompt = compute
        if not memory:
            Game.prompt = forgetful_prompt
        try:
            for what, item in inputs_of(game, players):
                before = (outputs.shown, counted["prompts"], table.game.state)
                table.handle(item)
                inputs[what] += 1
                shown[what] += outputs.shown - before[0]
                prompts[what] += counted["prompts"] - before[1]
                accepted[what] += table.game.state is not before[2]   # a new state: an action, undone, a game
        finally:
            kind._prompt, Game.prompt = original_compute, original_prompt
        assert table.game.rules.name == game.name and not table.game.finished, (game.name, players)
    return inputs, shown, accepted, prompts


def _row(label: str, inputs: int, shown: int, accepted: int, prompts: int, naive: int) -> str:
    def per(n: int) -> str:
        return f"{n / accepted:.2f}" if accepted else "-"
    return (f"{label:<14}{inputs:>8}{shown / inputs:>13.2f}{accepted:>10}{prompts:>9}{per(prompts):>10}"
            f"{naive:>9}{per(naive):>10}")


HEADER = (f"{'':<14}{'inputs':>8}{'shown/input':>13}{'accepted':>10}{'prompts':>9}{'/accepted':>10}"
          f"{'naive':>9}{'/accepted':>10}")
PLAY = ("card", "button", "notice")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", help="the games to play, separated by commas (all by default)")
    args = parser.parse_args(argv)
    chosen = set(args.games.split(",")) if args.games else None
    print("The play (cards, buttons, notices), per game:")
    print(HEADER)
    totals = {memory: [Counter(), Counter(), Counter(), Counter()] for memory in (True, False)}
    with tempfile.TemporaryDirectory() as tmp:
        for game in all_games():
            if chosen is not None and game.name not in chosen:
                continue
            for players in game.players:
                runs = {memory: play(game, players, Path(tmp), memory=memory) for memory in (True, False)}
                for memory, counts in runs.items():
                    for total, count in zip(totals[memory], counts):
                        total.update(count)
                inputs, shown, accepted, prompts = (sum(c[k] for k in PLAY) for c in runs[True])
                print(_row(f"{game.name} {players}", inputs, shown, accepted, prompts,
                           sum(runs[False][3][k] for k in PLAY)))
    print("\nEach kind of input, all games:")
    print(HEADER)
    (inputs, shown, accepted, prompts), naive = totals[True], totals[False][3]
    for what in KINDS:
        print(_row(what, inputs[what], shown[what], accepted[what], prompts[what], naive[what]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
