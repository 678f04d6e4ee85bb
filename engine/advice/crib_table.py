"""The expected crib for the cards a player lays away, read from the shipped crib table.

``crib_table.json`` is built by ``tools/build_crib_table.py`` by simulating deals with a stated
opponent model (the table's ``model`` field and docs/advice.md): every other player lays away the
cards that leave them the best exact expected hand (crib ignored), and the starter is averaged
exactly over the cards not dealt. The table holds, for each number of players and each kind of
discard (ranks, and for two cards whether they are of one suit), the mean crib and its standard
error. Suits beyond that only matter through flushes and nobs, which the table averages.

>>> crib_key(parse_cards("5H 5D"))
'5-5'
>>> crib_key(parse_cards("JH 5H"))
'5-J suited'
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files

from engine.cards import RANK_TEXT, Card, parse_cards
from engine.errors import InvalidInput

TABLE_FILE = "crib_table.json"


def _rank(card: Card) -> str:
    return RANK_TEXT.get(card.rank, str(card.rank))


def crib_key(discard: tuple[Card, ...]) -> str:
    """The table's name for a discard: "5", "5-5", "A-5", "5-J suited" (lower rank first)."""
    cards = sorted(discard)
    if len(cards) == 1:
        return _rank(cards[0])
    low, high = cards
    suited = low.rank != high.rank and low.suit == high.suit
    return f"{_rank(low)}-{_rank(high)}" + (" suited" if suited else "")


@lru_cache(maxsize=1)
def load_table() -> dict:
    """The whole table: ``model``, ``deals`` and, under ``players`` ("2", "3", "4"), each key's
    ``[mean, standard_error]``."""
    return json.loads(files("engine.advice").joinpath(TABLE_FILE).read_text(encoding="utf-8"))


def crib_ev(discard, players: int) -> float:
    """The expected crib (all its points, whoever owns it) when this player lays away ``discard``.

    >>> 6 < crib_ev(parse_cards("5H 5D"), 2) < 10
    True

    :raises InvalidInput: for a discard that is not what ``players`` lay away (2 cards with 2
        players, 1 with 3 or 4).
    """
    cards = tuple(parse_cards(discard))
    wanted = 2 if players == 2 else 1
    if len(cards) != wanted:
        raise InvalidInput(f"with {players} players each lays {wanted} card{'s' * (wanted > 1)} away, not {len(cards)}")
    return load_table()["players"][str(players)][crib_key(cards)][0]
