"""Fifteen for 2 players (Curtis Jones's game on pagat.com), in dealer mode and table mode
(RULES.md N1-N14).

The hand: cut for the first deal (lowest deals, ace low, N13; the deal then alternates), seven
cards each, each player lays two away to the dealer's crib, the next card is turned up: it gives
trumps and the scoring rank (N1). The non-dealer accepts, begs or switches, exactly one (N2). To a
beg the dealer says "take one" (the non-dealer scores 1 at once and can win by it, N5) or gives:
lays a card from his hand face up as the new up-card, differing from the old in suit and in rank,
and takes the old up-card into his hand (N3); with no such card, take one is forced (N4). A switch
takes the crib and the up-card as the new hand, leaves the old hand as a five-card crib and turns
a new up-card (N6). The dealer leads after a beg or a switch, else the non-dealer; five tricks,
follow suit, trumps win, ace high (N7, N8). Each card won that is a trump or of the up-card's rank
scores 1, once (N9). The non-dealer counts first, then the dealer's tricks, then the crib; the
first to reach 15 wins (N11, N12); the crib can never win: a crib that would take the dealer to
15 leaves him at 14 (N10).

Revokes are refused where the hand is known (dealer mode, a deal scanned through a reader, or a
card the engine saw going into a hand: the old up-card) and proven from the show-out record at a
table with unknown hands, with All Fives' penalty by default (option ``revoke_penalty``); a
revoker cannot reach 15 on that hand. In table mode the crib is laid out face up for the count.

Public and stable: :func:`card_points` and :func:`legal_gives`.

>>> card_points(["5D", "AS", "3S"], "5S")
3
>>> legal_gives(["5D", "KS", "QH", "2C"], "5S")
(Card('QH'), Card('2C'))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import combinations

from engine.advice.trick_choice import strong_trick_play
from engine.cards import SUIT_NAMES, Card, parse_card, parse_cards
from engine.errors import IllegalAction
from engine.game import (
    Action, CardSlot, Outcome, Prompt, ScoreItem, Step, Termination, add_at, handles, one_card, set_at,
)
from engine.games.tricks import CUT, DEAL, GIFT, PLAY, TURN_UP, TrickGame, TrickGameState, check_play, power, start_tricks
from engine.wording import number_words, who, won

__all__ = ["Fifteen", "FifteenState", "card_points", "legal_gives"]

#: Fifteen's own phases, between the deal and the play (the shared ones: ``TrickPhase``)
Phase = StrEnum("Phase", "DISCARD CHOOSE ANSWER CRIB", module=__name__)
DISCARD, CHOOSE, ANSWER, CRIB = Phase
TARGET = 15


def _scores_with(card: Card, upcard: Card) -> bool:
    return card.suit == upcard.suit or card.rank == upcard.rank


def card_points(won_cards, upcard) -> int:
    """One point for each card that is of the up-card's suit (trumps) or rank; a card that is
    both counts once (N9).

    :raises InvalidInput: for unreadable card text.
    """
    upcard = parse_card(upcard)
    return sum(1 for card in parse_cards(won_cards) if _scores_with(card, upcard))


def legal_gives(dealer_hand, upcard) -> tuple[Card, ...]:
    """The cards the dealer may give as the new up-card: those differing from ``upcard`` in suit
    and in rank (N3). Empty means "take one" is forced (N4).

    :raises InvalidInput: for unreadable card text.
    """
    upcard = parse_card(upcard)
    return tuple(card for card in parse_cards(dealer_hand) if card.suit != upcard.suit and card.rank != upcard.rank)


@dataclass(frozen=True)
class FifteenState(TrickGameState):
    """A Fifteen game: the shared trick-game fields plus the crib, the up-card and the choice."""

    discarded: tuple[bool, ...] = ()    # who has laid two away
    crib: tuple = ()                    # the crib cards known (dealer mode; table mode once seen)
    crib_size: int = 0
    upcard: Card | None = None
    choice: str = ""                    # the non-dealer's answer to the up-card


class Fifteen(TrickGame):
    name = "fifteen"
    title = "Fifteen"
    players = (2,)
    state_type = FifteenState
    hidden_kinds = frozenset({"discard"})
    card_actions = {**TrickGame.card_actions, "discard": CardSlot(2, "crib"), "give": CardSlot(1, "starter"),
                    "crib": CardSlot(4, "crib")}

    def cards_needed(self, state, kind: str) -> int:
        """The crib is four cards, or five after a switch (N6)."""
        return state.crib_size if kind == "crib" else super().cards_needed(state, kind)
    cut_rule = "lowest deals (ace low)"
    options = (TrickGame.penalty_option, TrickGame.reader_option)

    # -- construction -------------------------------------------------------------------------
    def cut_key(self, card: Card) -> int:
        return -card.rank

    def _pone(self, state) -> int:
        """The non-dealer."""
        return 1 - state.dealer

    def _reset_deal(self, step: Step) -> None:
        step.update(discarded=(False, False), crib=(), crib_size=0, upcard=None, choice="")
        self._deal(step, 7)

    def _dealt(self, step: Step) -> None:
        step.update(phase=DISCARD)

    def _turned(self, step: Step, card: Card) -> None:
        self._record_turn_up(step, card)
        step.update(upcard=card)
        if step.state.choice == "switch":
            self._begin_play(step, step.state.dealer)
        else:
            step.update(phase=CHOOSE)

    # -- the prompt ---------------------------------------------------------------------------
    def _hand_prompt(self, state: FifteenState) -> Prompt | None:
        if state.phase == DISCARD:
            seat = self._discard_seat(state)
            return Prompt(seat, ("discard",), f"{who(seat)}: lay two cards away to {who(state.dealer, 'seat')}'s crib")
        if state.phase == TURN_UP:
            if state.choice == "switch":
                return Prompt(None, ("turn_up",), "Turn up the next card of the stock as the new up-card")
            return Prompt(None, ("turn_up",), "Turn up the top card of the stock: trumps and the scoring rank")
        pone, dealer = self._pone(state), state.dealer
        if state.phase == CHOOSE:
            return Prompt(pone, ("accept", "beg", "switch"),
                          f"{who(pone)}: accept the {state.upcard.name}, beg, or switch hands with the crib",
                          ("accept", "beg", "switch"))
        if state.phase == ANSWER:
            kinds = ("take_one", "give") if self._may_give(state) else ("take_one",)
            text = (f"{who(dealer)}: take one, or give: lay a card of another suit and rank than the "
                    f"{state.upcard.name} face up" if len(kinds) == 2 else
                    f"{who(dealer)}: no card differs from the {state.upcard.name}: take one")
            return Prompt(dealer, kinds, text, kinds)
        if state.phase == CRIB:
            return Prompt(dealer, ("crib",), f"{who(dealer)}: lay the crib out face up to count it")
        return None

    def _discard_seat(self, state) -> int:
        return self._pone(state) if not state.discarded[self._pone(state)] else state.dealer

    def _may_give(self, state) -> bool:
        """Whether "give" is possible: always at a table that cannot see the dealer's hand."""
        return not self.knows_hands(state) or bool(legal_gives(state.hands[state.dealer], state.upcard))

    def legal_actions(self, state: FifteenState) -> list[Action]:
        if state.outcome or state.phase in (CUT, DEAL, TURN_UP, CRIB):
            return []
        prompt = self.prompt(state)
        seat = prompt.seat
        if state.phase == DISCARD:
            if not self.knows_hands(state):
                return [Action("discard", seat)]
            return [Action("discard", seat, pair) for pair in combinations(sorted(state.hands[seat]), 2)]
        if state.phase == CHOOSE:
            return [Action(kind, seat) for kind in prompt.kinds]
        if state.phase == ANSWER:
            if not self.knows_hands(state):
                return [Action("take_one", seat)]
            gives = [Action("give", seat, (c,)) for c in sorted(legal_gives(state.hands[seat], state.upcard))]
            return [Action("take_one", seat)] + gives
        return self._play_actions(state)

    # -- laying away, and the non-dealer's choice -------------------------------------------
    @handles("discard")
    def _discard(self, step: Step, action: Action) -> None:
        state, seat = step.state, action.seat
        cards = tuple(parse_card(c) for c in action.cards)
        if len(cards) != 2 and (cards or self.knows_hands(state)):
            raise IllegalAction("lay exactly two cards away (show them to the reader)", seat=seat)
        hands = state.hands
        if cards:
            if self.knows_hands(state):
                missing = [c for c in cards if c not in state.hands[seat]]
                if missing:
                    raise IllegalAction("you do not hold that card", seat=seat, card=missing[0])
                hands = set_at(hands, seat, tuple(c for c in hands[seat] if c not in cards))
            else:
                self._check_unseen(state, cards, action)
        step.update(
            hands=hands, crib=state.crib + cards, crib_size=state.crib_size + 2, held=add_at(state.held, seat, -2),
            discarded=set_at(state.discarded, seat, True),
        )
        step.say("discard", seat, f"{who(seat)} lays two cards away")
        if all(step.state.discarded):
            self._turn_up(step)

    @handles("accept")
    def _accept(self, step: Step, action: Action) -> None:
        step.say("accept", action.seat, f"{who(action.seat)} accepts the {step.state.upcard.name}")
        step.update(choice="accept")
        self._begin_play(step, action.seat)

    @handles("beg")
    def _beg(self, step: Step, action: Action) -> None:
        step.say("beg", action.seat, f"{who(action.seat)} begs")
        step.update(phase=ANSWER, choice="beg")

    @handles("switch")
    def _switch(self, step: Step, action: Action) -> None:
        """The crib and the up-card become the hand, the old hand a five-card crib (N6)."""
        state, pone = step.state, action.seat
        step.update(
            hands=set_at(state.hands, pone, state.crib + (state.upcard,)),
            held=set_at(state.held, pone, state.crib_size + 1), crib=state.hands[pone],
            crib_size=state.held[pone], upcard=None, choice="switch",
        )
        step.say("switch", pone, f"{who(pone)} switches: the crib and the up-card are the new hand")
        self._turn_up(step)

    @handles("take_one")
    def _take_one(self, step: Step, action: Action) -> None:
        step.say("take_one", action.seat, f"{who(action.seat)} says take one")
        self._score(step, self._pone(step.state), (GIFT,), "gift")
        if not step.over:
            self._begin_play(step, step.state.dealer)

    @handles("give")
    def _give(self, step: Step, action: Action) -> None:
        """The dealer's card becomes the up-card; the old up-card goes into his hand (N3)."""
        state = step.state
        dealer, card, old = state.dealer, one_card(action), state.upcard
        if not legal_gives((card,), old):
            raise IllegalAction(f"the new up-card must differ from the {old.name} in suit and in rank",
                                seat=dealer, card=card)
        check_play(state.hands[dealer], state.held[dealer], card, None, dealer)
        if card not in state.hands[dealer]:
            self._check_unseen(state, (card,), action)
        hand = tuple(c for c in state.hands[dealer] if c != card) + (old,)
        step.update(hands=set_at(state.hands, dealer, hand), upcard=card)
        step.say("give", dealer, f"{who(dealer)} gives: the {card.name} is the new up-card, "
                                 f"{SUIT_NAMES[card.suit]} are trumps", cards=(card,))
        self._begin_play(step, dealer)

    def _begin_play(self, step: Step, leader: int) -> None:
        step.update(phase=PLAY, tricks=start_tricks(2, step.state.upcard.suit, leader))

    # -- the count ----------------------------------------------------------------------------
    def _items(self, state, cards, category: str) -> tuple[ScoreItem, ...]:
        return tuple(ScoreItem(category, 1, (c,), f"the {c.name}") for c in cards if _scores_with(c, state.upcard))

    def _end_play(self, step: Step) -> None:
        """Count the non-dealer's tricks, the dealer's, then the crib (N9-N11)."""
        for seat in (self._pone(step.state), step.state.dealer):
            items = self._items(step.state, step.state.tricks.won[seat], "tricks")
            if items:
                self._score(step, seat, items, "tricks")
                if step.over:
                    return
        if len(step.state.crib) < step.state.crib_size:
            step.update(phase=CRIB)
        else:
            self._count_crib(step)

    @handles("crib")
    def _crib(self, step: Step, action: Action) -> None:
        state = step.state
        cards = tuple(parse_card(c) for c in action.cards)
        if len(cards) != state.crib_size:
            raise IllegalAction(f"the crib has {number_words(state.crib_size)} cards: lay them all out face up",
                                seat=action.seat)
        missing = [c for c in state.crib if c not in cards]
        if missing:
            raise IllegalAction(f"the {missing[0].name} went into the crib: lay out the whole crib",
                                seat=action.seat)
        self._check_unseen(replace(state, crib=()), cards, action)
        step.update(crib=cards)
        self._count_crib(step)

    def _count_crib(self, step: Step) -> None:
        """The crib is the dealer's, but it can never win: at 15 or more he stops at 14 (N10)."""
        state = step.state
        dealer = state.dealer
        items = self._items(state, state.crib, "crib")
        step.say("show", dealer, f"{who(dealer)}'s crib: {' '.join(map(str, state.crib))}", cards=state.crib)
        points = sum(item.points for item in items)
        if state.scores[dealer] + points >= TARGET:
            capped = TARGET - 1 - state.scores[dealer]
            items = (ScoreItem("crib", capped, state.crib, "the crib, which cannot win"),)
        if items:
            self._score(step, dealer, items, "crib")
        step.say("hand_over", None, f"Hand {state.hand_no + 1} is over")
        step.say("dealer", self._pone(state), f"{who(self._pone(state))} deals")
        self._start_hand(step, self._pone(state), state.hand_no + 1)

    def _score(self, step: Step, seat: int, items: tuple[ScoreItem, ...], reason: str) -> None:
        """Add points; reaching 15 wins at once, except for a player who revoked this hand."""
        state = step.state
        points = sum(item.points for item in items)
        if seat in state.revokers and state.scores[seat] + points >= TARGET:
            items += (ScoreItem("revoke", TARGET - 1 - state.scores[seat] - points, (), "no win after a revoke"),)
            points = TARGET - 1 - state.scores[seat]
        step.add_points(seat, points)
        text = f"{who(seat)}: " + ", ".join(item.label for item in items)    # the log leads it with the points
        step.say("score", seat, text, points=points, breakdown=items, detail=(("reason", reason),))
        scores = step.state.scores
        if scores[seat] >= TARGET:
            text = won((seat,), scores[seat], (scores[1 - seat],))
            step.finish(Outcome(Termination.TARGET_REACHED, (seat,), scores, text), seat)

    def _centre(self, state) -> tuple[str, tuple]:
        if not state.upcard:
            return "", ()
        return f"Up-card (trumps {SUIT_NAMES[state.upcard.suit]})", (state.upcard,)

    def _target(self, state) -> int:
        return TARGET

    # -- knowledge, bots and simulation -------------------------------------------------------
    def _seen(self, state) -> set:
        return super()._seen(state) | set(state.crib) | ({state.upcard} if state.upcard else set())

    def strong_choice(self, state, seat: int) -> Action | None:
        return strong_trick_play(state, seat, points=lambda card: self._card_points(state, card),
                                 face_up=(state.upcard,))

    def _card_points(self, state, card: Card) -> int:
        return int(_scores_with(card, state.upcard))

    def _strength(self, hand, upcard: Card) -> float:
        return sum(1 + (power(c) / 14 if c.suit == upcard.suit else 0) for c in hand if _scores_with(c, upcard))

    def heuristic(self, state, action: Action, seat: int) -> float:
        if action.kind == "play":
            return self._play_value(state, seat, action.card)
        if action.kind == "discard":
            return -sum(power(c) for c in action.cards)
        hand = state.hands[seat]
        if action.kind == "accept":
            return self._strength(hand, state.upcard)
        if action.kind == "beg":
            return 2.0
        if action.kind == "switch":
            return 1.5
        if action.kind == "take_one":
            return self._strength(hand, state.upcard) - 1
        if action.kind == "give":
            kept = tuple(c for c in hand if c != action.card) + (state.upcard,)
            return self._strength(kept, action.card)
        return super().heuristic(state, action, seat)

    def _observe_more(self, table_state, twin, kinds) -> Action | None:
        if "crib" in kinds:
            return Action("crib", table_state.dealer, twin.crib)
        return None
