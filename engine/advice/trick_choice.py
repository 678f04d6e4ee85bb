"""The strong trick bot's card (All Fives, Fifteen), for the advice and for the games' own strong
choice: :func:`suggest` picks a card from a hand, counting the cards not yet seen;
:func:`strong_trick_play` applies it to a game in progress from one seat's view.

It reads the trick rules (:mod:`engine.games.tricks`) and never a game module, so each trick game
can ask it for its :meth:`~engine.game.Game.strong_choice`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.cards import Card, standard_52
from engine.game import Action
from engine.games.tricks import PLAY, legal_plays, power, trick_winner


def _strength(card: Card, led: str, trump: str) -> tuple:
    """How a card ranks in a trick led in ``led`` (as :func:`trick_winner` orders them)."""
    return card.suit == trump, card.suit == led, power(card)


def suggest(hand, trick, *, trump: str, players: int, points, unseen) -> tuple[Card, str]:
    """The strong trick bot's card for ``hand`` with ``trick`` on the table (see the module text).

    ``points(card)`` is what a card won scores; ``unseen`` the cards this player has not seen.
    """
    legal = legal_plays(hand, trick[0].suit if trick else None)
    led = trick[0].suit if trick else None

    def wins_now(card: Card) -> bool:
        return trick_winner(trick + (card,), trump) == len(trick)

    def sure(card: Card) -> bool:
        suit = led or card.suit
        mine = _strength(card, suit, trump)
        return wins_now(card) and not any(_strength(other, suit, trump) > mine for other in unseen)

    def cheap(card: Card) -> tuple:
        return (points(card), card.suit == trump, power(card))

    at_stake = sum(map(points, trick))
    if len(trick) == players - 1:
        winners = [c for c in legal if wins_now(c)]
        if winners and at_stake + min(map(points, winners)) > 0:
            return min(winners, key=cheap), "takes the points on the table as cheaply as possible"
        return min(legal, key=cheap), "the trick holds nothing worth taking: throw the cheapest card"
    if not trick:
        sure_leads = [c for c in legal if sure(c)]
        if sure_leads:
            return max(sure_leads, key=lambda c: (points(c), power(c))), "no unseen card can beat it: bank it"
        return min(legal, key=cheap), "lead low and keep the point cards back"
    winners = [c for c in legal if sure(c)]
    if winners and (at_stake or any(points(c) for c in winners)):
        return min(winners, key=cheap), "no unseen card can beat it, and there are points in it"
    return min(legal, key=cheap), "nothing sure to win here: play low"


def strong_trick_play(state, seat: int, *, points: Callable[[Card], int], face_up: Iterable[Card]) -> Action | None:
    """The card :func:`suggest` plays for ``seat`` in the play, knowing its own hand, the tricks
    played and the cards ``face_up`` (turn-ups); ``points`` is what a card won scores."""
    if state.phase != PLAY or not state.tricks:
        return None
    tricks = state.tricks
    seen = set(state.hands[seat]) | set(tricks.current) | {c for won in tricks.won for c in won} | set(face_up)
    unseen = [c for c in standard_52() if c not in seen]
    card, _ = suggest(state.hands[seat], tricks.current, trump=tricks.trump, players=state.players,
                      points=points, unseen=unseen)
    return Action("play", seat, (card,))
