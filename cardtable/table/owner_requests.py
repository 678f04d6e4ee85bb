"""What the owner's requests ask of the table, checked: the setup of a game to start, the names
of its seats, the words a game ended by the owner is journalled with.

The table carries a request out (:class:`cardtable.table.table.Table`, on its own thread, as any
input); this module only reads it. A game is started only for as many seats as the table has
zones for, with names that are safe to show on every display (:func:`seat_names`).
"""

from __future__ import annotations

import unicodedata

from config_kit.reads import spoken
from cardtable.table.journalled_game import TableSetup
from engine.errors import InvalidInput
from engine.games import get_game
from engine.table_events import OwnerRequest
from engine.wording import seat_name

#: The result journalled for a game the owner ended (or replaced by another) before its end.
ENDED = "ended by the owner"
MAX_NAME = 24


def setup_to_start(request: OwnerRequest, current: TableSetup, seat_zones: tuple[str, ...]) -> TableSetup:
    """The setup of the game ``request`` starts at a table playing ``current`` with ``seat_zones``.

    :raises InvalidInput: an unknown game or option, a player count the game is not played by or
        the table has no zones for, a bad name (:func:`seat_names`), in words for the owner.
    """
    game = get_game(request.game)
    players = request.players or game.players[0]
    if players not in game.players:
        raise InvalidInput(f"{game.title} is for {' or '.join(map(str, game.players))} players")
    if players > len(seat_zones):
        raise InvalidInput(f"the table has zones for {len(seat_zones)} seats, not {players}; give it zones for "
                           f"{players} seats in its configuration ([game] players, [table] seat_zones, [vision] zones) "
                           "and start it again")
    options = game.resolve_options(request.options)
    names = seat_names(request.names[:players], players)
    return TableSetup(game.name, players, options, current.mode, current.seed + 1, seat_zones[:players], names,
                      swipe=current.swipe, teaching=current.teaching)


def seat_names(given: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The seats' names from the owner's form: spaces trimmed and runs of them made one, a blank
    seat named as a seat with no name is (:func:`engine.wording.seat_name`).

    :raises InvalidInput: for a name with a control character (an escape sequence would reach the
        terminal's display), a name too long, or two seats with the same name ("Ann", "ann ").
    """
    names = []
    for n in range(players):
        name = " ".join(unicodedata.normalize("NFKC", given[n] if n < len(given) else "").split())
        if any(unicodedata.category(c).startswith("C") for c in name):
            raise InvalidInput(f"the name for seat {n + 1} holds a control character; use letters, digits, "
                               "spaces and punctuation")
        if len(name) > MAX_NAME:
            raise InvalidInput(f"the name for seat {n + 1} is longer than {MAX_NAME} letters")
        names.append(name or seat_name(n))
    seen: dict[str, int] = {}
    for n, name in enumerate(names):
        first = seen.setdefault(spoken(name), n)
        if first != n:
            raise InvalidInput(f"seats {first + 1} and {n + 1} have the same name ({names[first]}); "
                               "give each player a name of their own")
    return tuple(names)
