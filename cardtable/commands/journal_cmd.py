"""``cardtable history``, ``cardtable replay GAME`` and ``cardtable export GAME``: the journal's games."""

from __future__ import annotations

import json
import time
from pathlib import Path

from cardtable.config import DEFAULT_JOURNAL
from cardtable.journal import Journal
from engine.serialize import to_data


def register(subparsers) -> None:
    for name, help_text, func in (
        ("history", "list the games in the journal", run_history),
        ("replay", "re-run a game from the journal and print its events", run_replay),
        ("export", "write a game from the journal as JSON", run_export),
    ):
        parser = subparsers.add_parser(name, help=help_text)
        parser.add_argument("--journal", default=DEFAULT_JOURNAL, help=f"journal file (default {DEFAULT_JOURNAL})")
        if name != "history":
            parser.add_argument("game_id", type=int, metavar="GAME", help="the game's number from 'cardtable history'")
        if name == "export":
            parser.add_argument("--out", help="file to write (default: print)")
        parser.set_defaults(func=func)


def _journal(args) -> Journal:
    path = Path(args.journal).expanduser()
    if not path.exists():
        raise FileNotFoundError(f"no journal at {path}: play a game first, or name one with --journal")
    return Journal(path)


def run_history(args) -> int:
    with _journal(args) as journal:
        games = journal.games()
        if not games:
            print("the journal has no games yet")
        for g in games:
            started = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.started))
            state = g.result or "unfinished"
            print(f"{g.id:4d}  {started}  {g.game:9s} {g.players}p {g.mode:6s} {g.actions:4d} actions  {state}")
    return 0


def run_replay(args) -> int:
    with _journal(args) as journal:
        replay = journal.replay(args.game_id)
        for n, (action, events) in enumerate(replay.steps, 1):
            print(f"{n:4d}. {action}")
            for event in events:
                if event.text:
                    print(f"        {event.text}")
        for problem in replay.problems:
            print(f"problem: {problem}")
        print(replay.record.result or "unfinished")
    return 0


def run_export(args) -> int:
    with _journal(args) as journal:
        replay = journal.replay(args.game_id)
        r = replay.record
        data = {
            "id": r.id, "game": r.game, "players": r.players, "options": r.options, "mode": r.mode,
            "seed": r.seed, "started": r.started, "finished": r.finished, "result": r.result,
            "actions": [
                {"action": to_data(action), "text": str(action),
                 "events": [{"kind": e.kind, "seat": e.seat, "points": e.points, "text": e.text} for e in events]}
                for action, events in replay.steps
            ],
            "problems": replay.problems,
        }
    text = json.dumps(data, indent=2)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
        print(f"wrote game {args.game_id} to {args.out}")
    else:
        print(text)
    return 0
