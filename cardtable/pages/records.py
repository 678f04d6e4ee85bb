"""The journal's games as the public may read them: the history page and the club both use
:func:`game_record`, and only it reads the journal, so the way a public record is made can be
changed in this one place.

A record holds the game's setup, its result, its scores and its public scoring events (their
sentences and breakdowns), never its actions: a dealer-mode journal holds the dealt hands, which
no spectator may see. An unfinished game is given as far as it has been played.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.journal import GameRecord, Journal
from cardtable.table.view import item_words, score_lines
from engine.game import Event
from engine.games import get_game
from engine.wording import named

#: event kinds that are said to the whole table (besides any event that moves points)
PUBLIC_KINDS = frozenset({"score", "revoke", "false_go", "game_over", "round_won", "deal_over", "hand_over"})


def game_key(record: GameRecord) -> str:
    """A name for the game that stays the same when the table republishes it, and differs between
    two journals (the game's number and when it started)."""
    return f"{record.id}-{int(record.started)}"


def event_data(event: Event, names: Sequence[str] = ()) -> dict:
    """One public event: its sentence, led by the change of score where it makes one ("+2 Seat 1:
    fifteen two"), and the cards that made its points in words ("a pair for 2: jack of diamonds and
    jack of hearts"; an item without cards, "one for the go", is the sentence's)."""
    return {"seat": event.seat, "points": event.points, "text": named((score_lines([event]) or [event.text])[0], names),
            "breakdown": [item_words(item) for item in event.breakdown if item.cards]}


def list_entry(record: GameRecord) -> dict:
    """A game as the history lists it: by the game's name ("It's 15"), not its internal one."""
    return {"id": record.id, "game": record.game, "title": get_game(record.game).title, "players": record.players,
            "mode": record.mode, "started": record.started, "finished": record.finished,
            "result": record.result or "", "actions": record.actions}


def game_record(journal: Journal, record: GameRecord, names: Sequence[str] = ()) -> dict:
    """The public record of one journalled game; its sentences say ``names`` for the seats when
    given (the journal keeps seat numbers only)."""
    game = get_game(record.game)
    replay = journal.replay(record.id)
    events = [event_data(e, names) for _, step in replay.steps for e in step
              if e.text and (e.points or e.kind in PUBLIC_KINDS)]
    outcome = game.outcome(replay.state) if game.is_terminal(replay.state) else None
    return {
        "key": game_key(record), "id": record.id, "game": record.game, "title": game.title,
        "players": record.players, "mode": record.mode, "started": record.started,
        "finished": record.finished, "result": record.result or "",
        "scores": list(game.scores(replay.state)),
        "winners": list(outcome.winners) if outcome else [],
        "margin": outcome.margin.value if outcome else "",
        "actions": record.actions, "events": events,
    }


def game_list(journal: Journal, *, since: float = 0.0) -> list[GameRecord]:
    """The journal's games started at or after ``since`` (seconds since the epoch), newest last."""
    return [r for r in journal.games() if r.started >= since]
