"""Cutting for the first deal, as Cribbage, All Fives, Fifteen and Le Quinze do it (RULES.md C13,
F12, N13, Q8): each seat shows a card; the one card that ranks best by the game's ``key`` deals;
a tie for the best means everyone cuts again.

In dealer mode the cuts come from a seeded shuffle (:func:`seeded_cuts`); at a table each seat's
card comes in as a "cut" action (:func:`take_cut`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.cards import parse_card
from engine.errors import IllegalAction
from engine.game import Action, Event, shuffled


def cut_winner(cuts, key: Callable) -> int | None:
    """The seat whose card alone has the highest ``key``; ``None`` on a tie for it."""
    keys = [key(card) for card in cuts]
    best = max(keys)
    return keys.index(best) if keys.count(best) == 1 else None


def seeded_cuts(players: int, seed: int, pack, key: Callable) -> tuple[tuple, int]:
    """Dealer mode: cut a seeded pack until one card alone decides; ``(cuts, dealer)``."""
    attempt = 0
    while True:
        cuts = shuffled(pack, seed, f"cut{attempt}")[:players]
        dealer = cut_winner(cuts, key)
        if dealer is not None:
            return cuts, dealer
        attempt += 1


def take_cut(state, action: Action, key: Callable, *, verb: str = "cut", done: str = "cut"):
    """One seat's cut at a table: ``(state, events, dealer)``, ``dealer`` being ``None`` until
    every seat has cut and one card alone decides (a tie clears the cuts for a new round).

    :raises IllegalAction: for anything but one card, or a card already cut.
    """
    if len(action.cards) != 1:
        raise IllegalAction("show exactly one card", seat=action.seat)
    card = parse_card(action.cards[0])
    if card in state.cuts:
        raise IllegalAction(f"the {card.name} was already {done}; {verb} again", seat=action.seat, card=card)
    cuts = state.cuts + (card,)
    events = [Event("cut", action.seat, cards=(card,), text=f"Seat {action.seat + 1} {verb}s the {card.name}")]
    if len(cuts) < state.players:
        return replace(state, cuts=cuts), events, None
    dealer = cut_winner(cuts, key)
    if dealer is None:
        events.append(Event("cut", text=f"A tie decides nothing: everyone {verb}s again"))
        return replace(state, cuts=()), events, None
    events.append(Event("dealer", dealer, text=f"Seat {dealer + 1} deals"))
    return replace(state, cuts=cuts), events, dealer
