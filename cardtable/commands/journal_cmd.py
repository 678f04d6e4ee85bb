"""``cardtable history``, ``cardtable replay GAME`` and ``cardtable export GAME``: the journal's games.

Without ``--journal`` they read the newest of the table's journal and the one ``cardtable demo``
writes (``out/demo/journal.sqlite`` under the current folder or the checkout), and say which.
Until a game is over they show what the table has seen, as the display does: face-down cards
(discards to the crib, cards dealt through a reader) and the shuffle seed stay hidden; a finished
game, or ``--reveal``, shows the whole record. A damaged journal is read as far as it checks out
and the damage is said; these commands open the journal read-only: they never repair a file, set
it aside, seal or upgrade it (that is for `run`), and check its seals with the table's key beside
it (``journal.sqlite.key``: run them as the table's user).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import cardtable
from cardtable.config import DEFAULT_JOURNAL
from cardtable.journal import Journal, JournalError, Replay
from engine.game import Action
from engine.games import get_game
from engine.serialize import to_data

DEMO_JOURNAL = Path("out/demo/journal.sqlite")


def register(subparsers) -> None:
    for name, help_text, func in (
        ("history", "list the games in the journal", run_history),
        ("replay", "re-run a game from the journal and print its events", run_replay),
        ("export", "write a game from the journal as JSON", run_export),
    ):
        parser = subparsers.add_parser(name, help=help_text)
        parser.add_argument("--journal", help=f"journal file (default: the newest of {DEFAULT_JOURNAL} "
                                              f"and the demo's {DEMO_JOURNAL})")
        if name != "history":
            parser.add_argument("game_id", type=int, metavar="GAME", help="the game's number from 'cardtable history'")
            parser.add_argument("--reveal", action="store_true",
                                help="an unfinished game's hidden cards and seed too (by default only what the table saw)")
        if name == "export":
            parser.add_argument("--out", help="file to write (default: print)")
        parser.set_defaults(func=func)


def default_journals() -> list[Path]:
    """Where a journal may be without ``--journal``: the table's, then the demo's."""
    checkout = Path(cardtable.__file__).resolve().parents[1]
    return [Path(DEFAULT_JOURNAL).expanduser(), Path.cwd() / DEMO_JOURNAL, checkout / DEMO_JOURNAL]


def find_journal(named: str | None) -> Path:
    """The journal to read: the one named, or the newest existing default.

    :raises FileNotFoundError: saying where it looked and how to name one.
    """
    if named:
        path = Path(named).expanduser()
        if not path.is_file():
            raise FileNotFoundError(f"no journal at {path}: name an existing file with --journal")
        return path
    found = [p for p in dict.fromkeys(default_journals()) if p.is_file()]
    if not found:
        places = " or ".join(str(p) for p in default_journals()[:2])
        raise FileNotFoundError(f"no journal at {places}: play a game ('cardtable demo' or 'cardtable run'), "
                                f"or name one with --journal")
    return max(found, key=lambda p: p.stat().st_mtime)


def _open(args) -> Journal:
    path = find_journal(args.journal)
    if not args.journal:
        print(f"journal: {path} (another one: --journal FILE)", file=sys.stderr)
    try:
        journal = Journal(path, read_only=True)
    except JournalError as err:
        raise JournalError(f"{err}; 'cardtable run' keeps a damaged journal aside and starts a new one") from None
    for notice in journal.notices:
        print(f"note: {notice}", file=sys.stderr)
    return journal


def _when(seconds: float) -> str:
    """A game's start as the history lists it; a time no clock can show (a damaged journal's)
    is said unknown, padded to the column."""
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))
    except (OverflowError, OSError, ValueError):
        return f"{'time unknown':16s}"


def run_history(args) -> int:
    with _open(args) as journal:
        games = journal.games()
        if not games:
            print("the journal shows no game (see the problems below)" if journal.problems
                  else "the journal has no games yet")
        for g in games:
            started = _when(g.started)
            state = g.result or "unfinished"
            damage = f"  (damaged: {g.damage})" if g.damage else ""
            print(f"{g.id:4d}  {started}  {g.game:9s} {g.players}p {g.mode:6s} {g.actions:4d} actions  {state}{damage}")
        for problem in journal.problems:
            print(f"problem: {problem}")
    return 0


def _shown(replay: Replay, reveal: bool) -> list[tuple[Action, list]]:
    """The game's steps as the table saw them, or whole once it is over (or with ``reveal``)."""
    if reveal or replay.record.finished is not None:
        return replay.steps
    game = get_game(replay.record.game)
    return [(replace(action, cards=()) if game.is_secret(action.kind) else action, events)
            for action, events in replay.steps]


def run_replay(args) -> int:
    with _open(args) as journal:
        replay = journal.replay(args.game_id)
        for n, (action, events) in enumerate(_shown(replay, args.reveal), 1):
            print(f"{n:4d}. {action}")
            for event in events:
                if event.text:
                    print(f"        {event.text}")
        for problem in replay.problems:
            print(f"problem: {problem}")
        if replay.record.result:
            print(replay.record.result)
        else:
            print("unfinished" if args.reveal else "unfinished: face-down cards are not shown (--reveal shows them)")
    return 0


def run_export(args) -> int:
    with _open(args) as journal:
        replay = journal.replay(args.game_id)
        r = replay.record
        whole = args.reveal or r.finished is not None
        data = {
            "id": r.id, "game": r.game, "players": r.players, "options": r.options, "mode": r.mode,
            "seed": r.seed if whole else None, "started": r.started, "finished": r.finished, "result": r.result,
            "hidden": not whole,
            "actions": [
                {"action": to_data(action), "text": str(action),
                 "events": [{"kind": e.kind, "seat": e.seat, "points": e.points, "text": e.text} for e in events]}
                for action, events in _shown(replay, args.reveal)
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
