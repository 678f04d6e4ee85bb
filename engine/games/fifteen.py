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
from itertools import combinations

from engine.cards import SUIT_NAMES, Card, parse_card, parse_cards
from engine.errors import IllegalAction
from engine.game import DEALER, Action, CardSlot, Event, Outcome, Prompt, ScoreItem, Termination, register
from engine.games.tricks import (
    CUT, DEAL, GIFT, PLAY, TURN_UP, TrickGame, TrickGameState, add_at, check_play, power, replace_at, start_tricks,
)
from engine.wording import number_words, plural

__all__ = ["Fifteen", "FifteenState", "card_points", "legal_gives"]

DISCARD, CHOOSE, ANSWER, CRIB = "discard", "choose", "answer", "crib"
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


@register
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
    def _new_game(self, players, options, mode, seed):
        state = FifteenState(players, options, mode, seed, scores=(0,) * players)
        return self._cut_for_deal(state) if mode == DEALER else state

    def cut_key(self, card: Card) -> int:
        return -card.rank

    def _pone(self, state) -> int:
        """The non-dealer."""
        return 1 - state.dealer

    def _reset_deal(self, state):
        state = replace(state, discarded=(False, False), crib=(), crib_size=0, upcard=None, choice="")
        state = self._deal(state, 7)
        return (state, []) if state.phase == DEAL else self._dealt(state)

    def _dealt(self, state):
        return replace(state, phase=DISCARD), []

    def _turned(self, state, card: Card):
        state, event = self._record_turn_up(state, card)
        state = replace(state, upcard=card)
        if state.choice == "switch":
            return self._begin_play(state, state.dealer), [event]
        return replace(state, phase=CHOOSE), [event]

    # -- the prompt ---------------------------------------------------------------------------
    def _hand_prompt(self, state: FifteenState) -> Prompt | None:
        if state.phase == DISCARD:
            seat = self._discard_seat(state)
            return Prompt(seat, ("discard",), f"Seat {seat + 1}: lay two cards away to seat {state.dealer + 1}'s crib")
        if state.phase == TURN_UP:
            if state.choice == "switch":
                return Prompt(None, ("turn_up",), "Turn up the next card of the stock as the new up-card")
            return Prompt(None, ("turn_up",), "Turn up the top card of the stock: trumps and the scoring rank")
        pone, dealer = self._pone(state), state.dealer
        if state.phase == CHOOSE:
            return Prompt(pone, ("accept", "beg", "switch"),
                          f"Seat {pone + 1}: accept the {state.upcard.name}, beg, or switch hands with the crib",
                          ("accept", "beg", "switch"))
        if state.phase == ANSWER:
            kinds = ("take_one", "give") if self._may_give(state) else ("take_one",)
            text = (f"Seat {dealer + 1}: take one, or give: lay a card of another suit and rank than the "
                    f"{state.upcard.name} face up" if len(kinds) == 2 else
                    f"Seat {dealer + 1}: no card differs from the {state.upcard.name}: take one")
            return Prompt(dealer, kinds, text, kinds)
        if state.phase == CRIB:
            return Prompt(dealer, ("crib",), f"Seat {dealer + 1}: lay the crib out face up to count it")
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
    def _do_discard(self, state, action):
        seat = action.seat
        cards = tuple(parse_card(c) for c in action.cards)
        if len(cards) != 2 and (cards or self.knows_hands(state)):
            raise IllegalAction("lay exactly two cards away (show them to the reader)", seat=seat)
        hands, crib = state.hands, state.crib
        if cards:
            if self.knows_hands(state):
                missing = [c for c in cards if c not in state.hands[seat]]
                if missing:
                    raise IllegalAction("you do not hold that card", seat=seat, card=missing[0])
                hands = replace_at(hands, seat, tuple(c for c in hands[seat] if c not in cards))
            else:
                self._check_unseen(state, cards, action)
            crib = crib + cards
        state = replace(
            state, hands=hands, crib=crib, crib_size=state.crib_size + 2, held=add_at(state.held, seat, -2),
            discarded=replace_at(state.discarded, seat, True),
        )
        events = [Event("discard", seat, text=f"Seat {seat + 1} lays two cards away")]
        if not all(state.discarded):
            return state, events
        state, more = self._turn_up(state)
        return state, events + more

    def _do_accept(self, state, action):
        events = [Event("accept", action.seat, text=f"Seat {action.seat + 1} accepts the {state.upcard.name}")]
        return self._begin_play(replace(state, choice="accept"), action.seat), events

    def _do_beg(self, state, action):
        events = [Event("beg", action.seat, text=f"Seat {action.seat + 1} begs")]
        return replace(state, phase=ANSWER, choice="beg"), events

    def _do_switch(self, state, action):
        """The crib and the up-card become the hand, the old hand a five-card crib (N6)."""
        pone = action.seat
        state = replace(
            state, hands=replace_at(state.hands, pone, state.crib + (state.upcard,)),
            held=replace_at(state.held, pone, state.crib_size + 1), crib=state.hands[pone],
            crib_size=state.held[pone], upcard=None, choice="switch",
        )
        events = [Event("switch", pone, text=f"Seat {pone + 1} switches: the crib and the up-card are the new hand")]
        state, more = self._turn_up(state)
        return state, events + more

    def _do_take_one(self, state, action):
        pone = self._pone(state)
        events = [Event("take_one", action.seat, text=f"Seat {action.seat + 1} says take one")]
        state, more = self._score(state, pone, (GIFT,), "gift")
        events += more
        if state.outcome:
            return state, events
        return self._begin_play(state, state.dealer), events

    def _do_give(self, state, action):
        """The dealer's card becomes the up-card; the old up-card goes into his hand (N3)."""
        dealer, card, old = state.dealer, self._one_card(action), state.upcard
        if not legal_gives((card,), old):
            raise IllegalAction(f"the new up-card must differ from the {old.name} in suit and in rank",
                                seat=dealer, card=card)
        check_play(state.hands[dealer], state.held[dealer], card, None, dealer)
        if card not in state.hands[dealer]:
            self._check_unseen(state, (card,), action)
        hand = tuple(c for c in state.hands[dealer] if c != card) + (old,)
        state = replace(state, hands=replace_at(state.hands, dealer, hand), upcard=card)
        events = [Event("give", dealer, cards=(card,),
                        text=f"Seat {dealer + 1} gives: the {card.name} is the new up-card, "
                             f"{SUIT_NAMES[card.suit]} are trumps")]
        return self._begin_play(state, dealer), events

    def _begin_play(self, state, leader: int):
        return replace(state, phase=PLAY, tricks=start_tricks(2, state.upcard.suit, leader))

    # -- the count ----------------------------------------------------------------------------
    def _items(self, state, cards, category: str) -> tuple[ScoreItem, ...]:
        return tuple(ScoreItem(category, 1, (c,), f"the {c.name}") for c in cards if _scores_with(c, state.upcard))

    def _end_play(self, state):
        """Count the non-dealer's tricks, the dealer's, then the crib (N9-N11)."""
        events = []
        for seat in (self._pone(state), state.dealer):
            items = self._items(state, state.tricks.won[seat], "tricks")
            if items:
                state, more = self._score(state, seat, items, "tricks")
                events += more
                if state.outcome:
                    return state, events
        if len(state.crib) < state.crib_size:
            return replace(state, phase=CRIB), events
        state, more = self._count_crib(state)
        return state, events + more

    def _do_crib(self, state, action):
        cards = tuple(parse_card(c) for c in action.cards)
        if len(cards) != state.crib_size:
            raise IllegalAction(f"the crib has {number_words(state.crib_size)} cards: lay them all out face up",
                                seat=action.seat)
        missing = [c for c in state.crib if c not in cards]
        if missing:
            raise IllegalAction(f"the {missing[0].name} went into the crib: lay out the whole crib",
                                seat=action.seat)
        self._check_unseen(replace(state, crib=()), cards, action)
        return self._count_crib(replace(state, crib=cards))

    def _count_crib(self, state):
        """The crib is the dealer's, but it can never win: at 15 or more he stops at 14 (N10)."""
        dealer = state.dealer
        items = self._items(state, state.crib, "crib")
        events = [Event("show", dealer, cards=state.crib, text=f"Seat {dealer + 1}'s crib: {' '.join(map(str, state.crib))}")]
        points = sum(item.points for item in items)
        if state.scores[dealer] + points >= TARGET:
            capped = TARGET - 1 - state.scores[dealer]
            items = (ScoreItem("crib", capped, state.crib, "the crib, which cannot win"),)
        if items:
            state, more = self._score(state, dealer, items, "crib")
            events += more
        events.append(Event("hand_over", None, text=f"Hand {state.hand_no + 1} is over"))
        events.append(Event("dealer", self._pone(state), text=f"Seat {self._pone(state) + 1} deals"))
        state, more = self._start_hand(state, self._pone(state), state.hand_no + 1)
        return state, events + more

    def _score(self, state, seat: int, items: tuple[ScoreItem, ...], reason: str):
        """Add points; reaching 15 wins at once, except for a player who revoked this hand."""
        points = sum(item.points for item in items)
        if seat in state.revokers and state.scores[seat] + points >= TARGET:
            items += (ScoreItem("revoke", TARGET - 1 - state.scores[seat] - points, (), "no win after a revoke"),)
            points = TARGET - 1 - state.scores[seat]
        state = replace(state, scores=add_at(state.scores, seat, points))
        text = f"Seat {seat + 1} {'scores' if points >= 0 else 'loses'} {plural(abs(points), 'point')}: " + ", ".join(
            item.label for item in items)
        events = [Event("score", seat, points, text=text, breakdown=items, detail=(("reason", reason),))]
        if state.scores[seat] >= TARGET:
            text = f"Seat {seat + 1} wins {state.scores[seat]} to {state.scores[1 - seat]}"
            state = replace(state, outcome=Outcome(Termination.TARGET_REACHED, (seat,), state.scores, text))
            events.append(Event("game_over", seat, text=text))
        return state, events

    def _centre(self, state) -> tuple[str, tuple]:
        if not state.upcard:
            return "", ()
        return f"Up-card (trumps {SUIT_NAMES[state.upcard.suit]})", (state.upcard,)

    def _target(self, state) -> int:
        return TARGET

    # -- knowledge, bots and simulation -------------------------------------------------------
    def _seen(self, state) -> set:
        return super()._seen(state) | set(state.crib) | ({state.upcard} if state.upcard else set())

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
