"""Golden playthroughs: recorded games replayed move by move, every event, score and prompt checked.

Each file under ``tests/engine/golden/`` is one game in JSON lines: a header (game, players, mode,
seed, options), then one line per action with what the engine answered: every event (kind, seat,
points, cards, text, breakdown, detail), the scores after it, the next prompt, and at the end the
outcome. Dealer-mode games are played by seeded bots; table-mode games are the table side of
:func:`engine.simulate.play_at_table` (each action as the table shows it). Replaying only applies
the recorded actions, so the bots may change without touching these files; the rules may not.

Regenerate after a deliberate change of behaviour (and read the diff):
``.venv/bin/python tests/engine/test_golden.py --update``
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from engine.bots import GreedyBot, RandomBot, play_game
from engine.game import DEALER, TABLE
from engine.games import get_game
from engine.serialize import dumps, loads, to_data
from engine.simulate import play_at_table

GOLDEN = Path(__file__).parent / "golden"

#: (game, players, mode, seed, options): every game and player count in both modes, short targets
CASES = [
    ("cribbage", 2, DEALER, 1, {"target": 61}),
    ("cribbage", 2, DEALER, 2, {"target": 61, "muggins": True}),
    ("cribbage", 3, DEALER, 3, {"target": 61}),
    ("cribbage", 4, DEALER, 4, {"target": 61}),
    ("cribbage", 2, TABLE, 5, {"target": 61}),
    ("cribbage", 3, TABLE, 6, {"target": 61}),
    ("cribbage", 4, TABLE, 7, {"target": 61}),
    ("allfives", 2, DEALER, 1, {"target": 31}),
    ("allfives", 3, DEALER, 2, {"target": 31, "discard_to_six": True}),
    ("allfives", 2, TABLE, 3, {"target": 31}),
    ("allfives", 3, TABLE, 4, {"target": 31, "revoke_penalty": "others_gain"}),
    ("allfives", 2, TABLE, 5, {"target": 31, "reader_deal": True}),
    ("fifteen", 2, DEALER, 1, {}),
    ("fifteen", 2, TABLE, 2, {}),
    ("fifteen", 2, TABLE, 3, {"reader_deal": True}),
    ("quinze", 2, DEALER, 1, {"target": 6}),
    ("quinze", 3, DEALER, 2, {"target": 6, "capture_optional": True}),
    ("quinze", 4, DEALER, 3, {"target": 6, "partnerships": True}),
    ("quinze", 2, TABLE, 4, {"target": 6, "escoba_de_mano": True}),
    ("quinze", 3, TABLE, 5, {"target": 6}),
    ("quinze", 4, TABLE, 6, {"target": 6}),
    ("its15", 2, DEALER, 1, {"rounds": 3}),
    ("its15", 3, DEALER, 2, {"rounds": 3}),
    ("its15", 4, DEALER, 3, {"rounds": 3}),
    ("its15", 5, DEALER, 4, {"rounds": 3}),
    ("its15", 2, TABLE, 5, {"rounds": 3}),
    ("its15", 3, TABLE, 6, {"rounds": 3}),
    ("its15", 4, TABLE, 7, {"rounds": 3}),
    ("its15", 5, TABLE, 8, {"rounds": 3}),
]


def _file(game: str, players: int, mode: str, seed: int) -> Path:
    return GOLDEN / f"{game}-{players}p-{mode}-{seed}.jsonl"


def _bots(players: int, seed: int):
    return [(GreedyBot if (seed + i) % 2 else RandomBot)(random.Random(seed * 31 + i)) for i in range(players)]


def _event(event) -> dict:
    return {
        "kind": event.kind, "seat": event.seat, "points": event.points,
        "cards": [str(c) for c in event.cards], "text": event.text,
        "breakdown": [[i.category, i.points, [str(c) for c in i.cards], i.label] for i in event.breakdown],
        "detail": to_data(event.detail),
    }


def _line(game, action, events, state) -> dict:
    prompt = game.prompt(state)
    line = {
        "action": json.loads(dumps(action)), "events": [_event(e) for e in events],
        "scores": list(game.scores(state)),
        "prompt": [prompt.seat, list(prompt.kinds), prompt.text, list(prompt.choices)],
    }
    outcome = game.outcome(state)
    if outcome is not None:
        line["outcome"] = [list(outcome.winners), list(outcome.scores), outcome.text]
    return line


def record(name: str, players: int, mode: str, seed: int, options: dict) -> list[dict]:
    """Play the case with seeded bots and return its lines (header first)."""
    game = get_game(name)
    lines = [{"game": name, "players": players, "mode": mode, "seed": seed, "options": options}]
    if mode == DEALER:
        state = game.new_game(players, options=options, mode=mode, seed=seed)
        states = []
        play_game(game, state, _bots(players, seed), on_step=lambda a, ev, s: states.append((a, ev, s)))
    else:
        run = play_at_table(game, players, _bots(players, seed), options=options, seed=seed)
        states = [(step.table_action, step.events, step.table_state) for step in run.steps]
    lines += [_line(game, action, events, state) for action, events, state in states]
    return lines


def _read(path: Path) -> list[dict]:
    return [json.loads(row) for row in path.read_text().splitlines()]


@pytest.mark.parametrize("case", CASES, ids=lambda c: _file(*c[:4]).stem)
def test_a_recorded_game_replays_event_for_event(case):
    header, *rows = _read(_file(*case[:4]))
    assert header == dict(zip(("game", "players", "mode", "seed", "options"), case))
    game = get_game(header["game"])
    state = game.new_game(header["players"], options=header["options"], mode=header["mode"], seed=header["seed"])
    for number, row in enumerate(rows, 1):
        action = loads(json.dumps(row["action"]))
        state, events = game.apply(state, action)
        assert _line(game, action, events, state) == row, f"move {number}: {action}"
    assert game.is_terminal(state)


def test_every_golden_file_is_a_case():
    assert sorted(GOLDEN.glob("*.jsonl")) == sorted(_file(*case[:4]) for case in CASES)


def main(argv: list[str]) -> int:
    """``--update``: record every case again."""
    if argv != ["--update"]:
        print("usage: test_golden.py --update", file=sys.stderr)
        return 2
    GOLDEN.mkdir(exist_ok=True)
    for old in GOLDEN.glob("*.jsonl"):
        old.unlink()
    for case in CASES:
        lines = record(*case)
        _file(*case[:4]).write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
