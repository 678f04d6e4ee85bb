"""Cutting for the first deal, as Cribbage, All Fives, Fifteen and Le Quinze do it (RULES.md C13,
F12, N13, Q8): each seat shows a card; the one card that ranks best by the game's ``key`` deals;
a tie for the best means everyone cuts again.

In dealer mode the cuts come from a seeded shuffle (:func:`seeded_cuts`); at a table each seat's
card comes in as a "cut" action (:func:`take_cut`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import IllegalAction
from engine.game import Action, GameState, Step, one_card, shuffled
from engine.wording import who


@dataclass(frozen=True)
class CutForDealState(GameState):
    """The fields of a game that cuts for the first deal and keeps a score per seat (or side);
    each game's state adds its own after them."""

    scores: tuple[int, ...]
    phase: str = "cut"
    dealer: int = 0
    cuts: tuple = ()                    # cards cut for the first deal, by seat


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


def take_cut(step: Step, action: Action, key: Callable, *, verb: str = "cut", done: str = "cut") -> int | None:
    """One seat's cut at a table; returns the dealer once every seat has cut and one card alone
    decides, else ``None`` (a tie clears the cuts for a new round).

    :raises IllegalAction: for anything but one card, or a card already cut.
    """
    card = one_card(action)
    if card in step.state.cuts:
        raise IllegalAction(f"the {card.name} was already {done}; {verb} again", seat=action.seat, card=card)
    cuts = step.state.cuts + (card,)
    step.update(cuts=cuts)
    step.say("cut", action.seat, f"{who(action.seat)} {verb}s the {card.name}", cards=(card,))
    if len(cuts) < step.state.players:
        return None
    dealer = cut_winner(cuts, key)
    if dealer is None:
        step.say("cut", None, f"A tie decides nothing: everyone {verb}s again")
        step.update(cuts=())
        return None
    step.say("dealer", dealer, f"{who(dealer)} deals")
    return dealer
