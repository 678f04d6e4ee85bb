"""The strong bot's choices: the advice applied to a game in progress, from one seat's view.

Cribbage discards and plays by :mod:`~engine.advice.discards` and :mod:`~engine.advice.pegging`;
trick plays by :func:`~engine.advice.tricks.suggest`; Le Quinze plays by the best-ranked capture;
It's 15: take another card when that raises the exact chance of ending closest, and bet to
maximise the expected value cards won (that chance times the pot and every other player's match)
less the cards placed and a penalty for the bet's size.

:func:`strong_choice` returns the action the advice recommends for ``seat``, or ``None`` where it
has no advice (cutting, claiming, bidding ...), leaving the choice to the greedy bot. It reads only
what the seat may know: its own hand and the cards face up or already played.
"""

from __future__ import annotations

from engine.advice.discards import discard_advice
from engine.advice.its15 import closest_chance, its15_advice
from engine.advice.pegging import pegging_advice
from engine.advice.quinze import capture_advice
from engine.advice.tricks import points_rule, suggest
from engine.cards import standard_52
from engine.decks import parse_its_face
from engine.game import DEALER, Action, Game


def _cribbage(game: Game, state, seat: int) -> Action | None:
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


def _tricks(game: Game, state, seat: int) -> Action | None:
    if state.phase != "play" or not state.tricks:
        return None
    tricks = state.tricks
    seen = set(state.hands[seat]) | set(tricks.current) | {c for won in tricks.won for c in won}
    seen |= set(getattr(state, "turn_ups", ())) | {getattr(state, "upcard", None)}
    unseen = [c for c in standard_52() if c not in seen]
    rule = points_rule(game.name, tricks.trump, getattr(state, "upcard", None))
    card, _ = suggest(state.hands[seat], tricks.current, trump=tricks.trump, players=state.players,
                      points=rule, unseen=unseen)
    return Action("play", seat, (card,))


def _quinze(game: Game, state, seat: int) -> Action | None:
    if state.phase != "play":
        return None
    best = capture_advice(state.table, state.hands[seat])[0]
    return Action("play", seat, (best.card, *best.taken))


def _its15(game: Game, state, seat: int) -> Action | None:
    others = [state.held[s] for s in range(state.players) if s != seat and not state.folded[s]]
    mine = [c.value for c in state.hands[seat]]
    if state.phase == "extra":
        advice = its15_advice(mine, state.centre.value, others)
        return Action("take" if (advice.chance_if_take or 0) > advice.chance else "stand", seat)
    if state.phase != "bidding":
        return None
    chance = closest_chance(mine, state.centre.value, others)
    pot = sum(map(_worth, state.pot))

    def gain(action: Action) -> float:
        """Expected value cards won less those placed, if every other player still in matches."""
        amount = sum(map(_worth, action.cards)) if action.kind in ("bid", "match", "raise") else 0
        return chance * (pot + amount * (1 + len(others))) - amount - RISK * amount * amount

    actions = [a for a in game.legal_actions(state) if a.seat == seat]
    return max(actions, key=gain) if actions else None


def _worth(card_id: str) -> int:
    """What an It's 15 value card is worth, from its id ("V2R-1" is worth 2)."""
    return parse_its_face(str(card_id).split("-")[0]).value


_CHOOSERS = {
    "cribbage": _cribbage,
    "allfives": _tricks,
    "fifteen": _tricks,
    "quinze": _quinze,
    "its15": _its15,
}
#: It's 15 betting: how much a bet's size is held against it (value cards are the score); 0.3 won
#: most often against the greedy bot of 0.05, 0.1, 0.2, 0.3 and 0.5 over 300 games (seeds 0-299)
RISK = 0.3


def strong_choice(game: Game, state, seat: int) -> Action | None:
    """The advised action for ``seat``, or ``None`` where the advice has nothing to say.

    Only in dealer mode, where the engine holds the seat's hand.
    """
    chooser = _CHOOSERS.get(game.name)
    if chooser is None or state.mode != DEALER:
        return None
    return chooser(game, state, seat)
