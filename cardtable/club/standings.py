"""The evening's standings, one table of players per game played.

Cribbage uses club scoring: 2 match points for a win, 3 for a skunk or a double skunk (the
margin the game's outcome gives the win, carried in the record), none for a loss; ties are broken by games
won, then by the points spread (the winner's margin added, the loser's taken away). The other
games count wins, then the spread. A seat with a default name ("Seat 2") is told apart by its
table ("T3 seat 2").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.game import Margin

_DEFAULT = re.compile(r"^Seat (\d)$")


@dataclass
class Standing:
    player: str
    points: int = 0
    wins: int = 0
    played: int = 0
    spread: int = 0


def player_name(table: str, name: str, seat: int) -> str:
    name = name.strip()
    match = _DEFAULT.match(name) if name else None
    return f"{table} seat {match.group(1) if match else seat + 1}" if not name or match else name


def match_points(game: str, margin: str) -> int:
    """What a win is worth: cribbage club scoring by the margin the game gave the win (its
    outcome's :class:`~engine.game.Margin`, carried in the record), or one win in any other game."""
    if game != "cribbage":
        return 1
    return 3 if margin in (Margin.SKUNK, Margin.DOUBLE_SKUNK) else 2


def standings(games: list[dict]) -> list[dict]:
    """``games`` are finished game records with ``table``, ``game``, ``title``, ``names``,
    ``scores``, ``winners`` and ``margin``. Returns, per game played, its title and the players in order."""
    boards: dict[str, tuple[str, dict[str, Standing]]] = {}
    for g in games:
        scores, winners = g.get("scores") or [], g.get("winners") or []
        if not winners or not scores or any(w >= len(scores) for w in winners):
            continue
        title, board = boards.setdefault(g["game"], (g.get("title") or g["game"], {}))
        names = [player_name(g["table"], (g.get("names") or [])[i] if i < len(g.get("names") or []) else "", i)
                 for i in range(len(scores))]
        top = max(scores[w] for w in winners)
        losers = [s for i, s in enumerate(scores) if i not in winners]
        worth = match_points(g["game"], g.get("margin") or "")
        for seat, name in enumerate(names):
            row = board.setdefault(name, Standing(name))
            row.played += 1
            if seat in winners:
                row.wins += 1
                row.points += worth
                row.spread += sum(top - s for s in losers)
            else:
                row.spread -= top - scores[seat]
    return [
        {"game": game, "title": title,
         "rows": [vars(r) for r in sorted(board.values(), key=lambda r: (-r.points, -r.wins, -r.spread, r.player))]}
        for game, (title, board) in sorted(boards.items())
    ]
