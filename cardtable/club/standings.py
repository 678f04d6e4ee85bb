"""The evening's standings, one table of players per game played.

Cribbage uses club scoring: 2 match points for a win, 3 for a skunk or a double skunk (the
margin the game's outcome gives the win, carried in the record), none for a loss; ties are broken by games
won, then by the points spread (the winner's margin added, the loser's taken away). The other
games count wins, then the spread. A seat with a default name ("Seat 2") is told apart by its
table ("T3 seat 2").

What one finished game adds is its :func:`contribution`; :class:`Standings` adds and takes back
contributions one game at a time (the club server), :func:`standings` counts a list of games at once.
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


#: what one finished game adds to the standings: (game, title, player, points, wins, played, spread) per seat
Contribution = tuple[tuple[str, str, str, int, int, int, int], ...]


def contribution(g: dict) -> Contribution:
    """What the finished game record ``g`` (with ``table``, ``game``, ``title``, ``names``,
    ``scores``, ``winners`` and ``margin``) adds to the standings; nothing for a game without a winner."""
    scores, winners = g.get("scores") or [], g.get("winners") or []
    if not winners or not scores or any(w >= len(scores) for w in winners):
        return ()
    given = g.get("names") or []
    names = [player_name(g["table"], given[i] if i < len(given) else "", i) for i in range(len(scores))]
    top = max(scores[w] for w in winners)
    losers = [s for i, s in enumerate(scores) if i not in winners]
    worth = match_points(g["game"], g.get("margin") or "")
    title = g.get("title") or g["game"]
    return tuple((g["game"], title, name, worth, 1, 1, sum(top - s for s in losers)) if seat in winners
                 else (g["game"], title, name, 0, 0, 1, scores[seat] - top)
                 for seat, name in enumerate(names))


class Standings:
    """The standings kept up to date game by game: adding or taking back one game's
    :func:`contribution` costs the same however many games were played before it."""

    def __init__(self) -> None:
        self._boards: dict[str, tuple[str, dict[str, Standing]]] = {}

    def add(self, part: Contribution, sign: int = 1) -> None:
        for game, title, player, points, wins, played, spread in part:
            title, board = self._boards.setdefault(game, (title, {}))
            row = board.setdefault(player, Standing(player))
            row.points += sign * points
            row.wins += sign * wins
            row.played += sign * played
            row.spread += sign * spread
            if row.played <= 0:
                del board[player]
            if not board:
                del self._boards[game]

    def remove(self, part: Contribution) -> None:
        self.add(part, -1)

    def rows(self) -> list[dict]:
        """Per game played, its title and the players in order."""
        return [
            {"game": game, "title": title,
             "rows": [vars(r).copy() for r in sorted(board.values(),
                                                     key=lambda r: (-r.points, -r.wins, -r.spread, r.player))]}
            for game, (title, board) in sorted(self._boards.items())
        ]


def standings(games: list[dict]) -> list[dict]:
    """The standings of the finished game records ``games`` (see :func:`contribution`), all at once."""
    table = Standings()
    for g in games:
        table.add(contribution(g))
    return table.rows()
