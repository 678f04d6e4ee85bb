"""The strong bot's choices: the advice applied to a game in progress, from one seat's view.

:func:`strong_choice` returns the action the advice recommends for ``seat``, or ``None`` where it
has no advice (cutting, claiming, bidding ...), leaving the choice to the greedy bot. It reads only
what the seat may know: its own hand and the cards face up or already played.
"""

from __future__ import annotations

from engine.advice.discards import discard_advice
from engine.advice.its15 import its15_advice
from engine.advice.pegging import pegging_advice
from engine.advice.quinze import capture_advice
from engine.advice.tricks import points_rule, suggest
from engine.cards import standard_52
from engine.game import DEALER, Action, Game


def _cribbage(state, seat: int) -> Action | None:
    if state.phase == "discard":
        same_side = seat % 2 == state.dealer % 2 if state.players == 4 else seat == state.dealer
        best = discard_advice(state.hands[seat], dealer=same_side, players=state.players)[0]
        return Action("discard", seat, best.discard)
    if state.phase == "play":
        seen = {card for cards in state.played for card in cards} - set(state.pile) | {state.starter}
        nxt = (seat + 1) % state.players
        advice = pegging_advice(state.hands[seat], state.pile, seen=seen, their_cards=state.held[nxt])
        return Action("play", seat, (advice[0].card,)) if advice else Action("go", seat)
    return None


def _tricks(state, seat: int, rule) -> Action | None:
    if state.phase != "play" or not state.tricks:
        return None
    tricks = state.tricks
    seen = set(state.hands[seat]) | set(tricks.current) | {c for won in tricks.won for c in won}
    seen |= set(getattr(state, "turn_ups", ())) | {getattr(state, "upcard", None)}
    unseen = [c for c in standard_52() if c not in seen]
    card, _ = suggest(state.hands[seat], tricks.current, trump=tricks.trump, players=state.players,
                      points=rule(state), unseen=unseen)
    return Action("play", seat, (card,))


def _quinze(state, seat: int) -> Action | None:
    if state.phase != "play":
        return None
    best = capture_advice(state.table, state.hands[seat])[0]
    return Action("play", seat, (best.card, *best.taken))


def _its15(state, seat: int) -> Action | None:
    if state.phase != "extra":
        return None
    others = [state.held[s] for s in range(state.players) if s != seat and not state.folded[s]]
    advice = its15_advice([c.value for c in state.hands[seat]], state.centre.value, others)
    return Action("take" if (advice.chance_if_take or 0) > advice.chance else "stand", seat)


_CHOOSERS = {
    "cribbage": _cribbage,
    "allfives": lambda state, seat: _tricks(state, seat, lambda s: points_rule("allfives", s.tricks.trump, None)),
    "fifteen": lambda state, seat: _tricks(state, seat, lambda s: points_rule("fifteen", s.tricks.trump, s.upcard)),
    "quinze": _quinze,
    "its15": _its15,
}


def strong_choice(game: Game, state, seat: int) -> Action | None:
    """The advised action for ``seat``, or ``None`` where the advice has nothing to say.

    Only in dealer mode, where the engine holds the seat's hand.
    """
    chooser = _CHOOSERS.get(game.name)
    if chooser is None or state.mode != DEALER:
        return None
    return chooser(state, seat)
