"""All Fives for 2 or 3 players, each for himself, in dealer mode and table mode (RULES.md F1-F13).

The hand: cut for the first deal (highest deals, ace high, F12), six cards each in batches of
three, the turn-up proposes trumps. Eldest stands or begs (F4); to a beg the dealer answers
"take one" (eldest scores 1 at once, which can win the game, F5) or runs the cards: the turn-up is
set aside, three more cards go to each player and the next card is turned, again while it shows
the first turn-up's suit; when the pack cannot supply another round it is shuffled and the same
dealer deals again (F6). Every card held is played (F7; option ``discard_to_six``). Eldest leads,
the trick winner leads next, everyone must follow suit if able (F1, F8). At the end of the hand
each player scores the trumps in the tricks they won: ace 4, king 3, queen 2, jack 1, ten 10,
five 5 (F2, F3). After a hand anyone at 61 or more ends the game; the highest total wins, and a
tie at the top plays another hand (F9).

Revokes (F10): where the engine knows the hand (dealer mode, or the deal scanned through a
reader) a card that fails to follow is refused. At a table with unknown hands the engine keeps
the show-out record (:mod:`engine.games.tricks`); the moment a player plays a suit they showed
out of, the revoke is reported and penalised (revoker loses 3, or option: everyone else gains 3),
and the revoker's total is held at 60 at the end of that hand: they cannot win on it.

Public and stable: :func:`trick_winner` and :func:`trump_points`.

>>> trump_points(["AH", "10H", "5S", "JH"], "H")
15
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.advice.trick_choice import strong_trick_play
from engine.cards import SUIT_NAMES, Card, parse_card, parse_cards
from engine.errors import IllegalAction
from engine.game import Action, Option, Outcome, Prompt, ScoreItem, Step, Termination, add_at, handles, set_at
from engine.games.tricks import (
    CUT, DEAL, GIFT, PLAY, TURN_UP, TrickGame, TrickGameState, check_suit, power, start_tricks, trick_winner,
)
from engine.wording import join_words, number_words, plural, who, won

__all__ = ["AllFives", "AllFivesState", "trick_winner", "trump_points"]

#: All Fives' own phases, between the deal and the play (the shared ones: ``TrickPhase``)
Phase = StrEnum("Phase", "BEG ANSWER DISCARD", module=__name__)
BEG, ANSWER, DISCARD = Phase
#: Points of the trumps won in tricks (F2).
POINTS = {1: 4, 13: 3, 12: 2, 11: 1, 10: 10, 5: 5}


def _trump_items(cards, trump: str) -> tuple[ScoreItem, ...]:
    return tuple(
        ScoreItem("trumps", POINTS[card.rank], (card,), f"the {card.name}")
        for card in sorted(cards, key=power, reverse=True)
        if card.suit == trump and card.rank in POINTS
    )


def trump_points(won_cards, trump: str) -> int:
    """Points for the trumps among ``won_cards``: ace 4, king 3, queen 2, jack 1, ten 10, five 5.

    :raises InvalidInput: for unreadable card text or a trump that is not a suit letter.
    """
    return sum(item.points for item in _trump_items(parse_cards(won_cards), check_suit(trump)))


@dataclass(frozen=True)
class AllFivesState(TrickGameState):
    """An All Fives game: the shared trick-game fields plus the turn-ups, trumps and discards."""

    turn_ups: tuple = ()                # this deal's turn-ups; they never belong to anyone (F13)
    trump: str = ""
    discards: tuple = ()                # discard_to_six: the cards known to be laid away


class AllFives(TrickGame):
    name = "allfives"
    title = "All Fives"
    aliases = ("all-fives", "all5s")
    players = (2, 3)
    state_type = AllFivesState
    hidden_kinds = frozenset({"discard"})
    cut_rule = "highest deals (ace high)"
    options = (
        Option("target", 61, "points to win"),
        TrickGame.penalty_option,
        Option("no_gift_game_point", False, "the dealer may not take one when that point would win for eldest"),
        Option("discard_to_six", False, "after running the cards each player discards down to six"),
        TrickGame.reader_option,
    )

    # -- construction -------------------------------------------------------------------------
    def cut_key(self, card: Card) -> int:
        return power(card)

    def _eldest(self, state) -> int:
        return (state.dealer + 1) % state.players

    def _reset_deal(self, step: Step) -> None:
        step.update(turn_ups=(), trump="", discards=())
        self._deal(step, 3, rounds=2)

    def _dealt(self, step: Step) -> None:
        self._turn_up(step)

    def _turned(self, step: Step, card: Card) -> None:
        self._record_turn_up(step, card)
        turn_ups = step.state.turn_ups + (card,)
        step.update(turn_ups=turn_ups)
        if len(turn_ups) == 1:
            step.update(phase=BEG, trump=card.suit)
        elif card.suit == turn_ups[0].suit:
            self._run(step)
        else:
            step.update(trump=card.suit)
            step.say("trump", None, f"Trumps are {SUIT_NAMES[card.suit]}", cards=(card,))
            self._begin_play(step)

    @handles("run")
    def _run_cards(self, step: Step, action: Action) -> None:
        step.say("run", action.seat, f"{who(action.seat)} runs the cards")
        self._run(step)

    def _run(self, step: Step) -> None:
        """Three more cards each and a new turn-up, or a redeal when the pack runs out (F6)."""
        state = step.state
        if state.undealt < 3 * state.players + 1:
            step.say("redeal", state.dealer,
                     f"The pack ran out before a new trump suit: {who(state.dealer, 'seat')} shuffles and deals again")
            self._new_deal(step)
        else:
            self._deal(step, 3)

    # -- the prompt ---------------------------------------------------------------------------
    def _hand_prompt(self, state: AllFivesState) -> Prompt | None:
        if state.phase == TURN_UP:
            if state.turn_ups:
                return Prompt(None, ("turn_up",), "Deal three more cards to each player and turn up the next card")
            return Prompt(None, ("turn_up",), "Turn up the next card: it proposes trumps")
        if state.phase == BEG:
            eldest = self._eldest(state)
            suit = SUIT_NAMES[state.trump]
            return Prompt(eldest, ("stand", "beg"), f"{who(eldest)}: stand ({suit} are trumps) or beg",
                          ("stand", "beg"))
        if state.phase == ANSWER:
            kinds = ("run",) if self._no_gift(state) else ("take_one", "run")
            return Prompt(state.dealer, kinds,
                          f"{who(state.dealer)}: take one ({who(self._eldest(state), 'seat')} scores 1) or run the cards",
                          kinds)
        if state.phase == DISCARD:
            seat = self._discard_seat(state)
            extra = state.held[seat] - 6
            buttons = () if self.knows_hands(state) else ("discard",)
            return Prompt(seat, ("discard",), f"{who(seat)}: discard {plural(extra, 'card')} face down to keep six",
                          buttons)
        return None

    def _no_gift(self, state) -> bool:
        return state.options["no_gift_game_point"] and state.scores[self._eldest(state)] + 1 >= state.options["target"]

    def _discard_seat(self, state) -> int | None:
        for i in range(state.players):
            seat = (state.dealer + 1 + i) % state.players
            if state.held[seat] > 6:
                return seat
        return None

    def legal_actions(self, state: AllFivesState) -> list[Action]:
        if state.outcome or state.phase in (CUT, DEAL, TURN_UP):
            return []
        prompt = self.prompt(state)
        if state.phase in (BEG, ANSWER):
            return [Action(kind, prompt.seat) for kind in prompt.kinds]
        if state.phase == DISCARD:
            if not self.knows_hands(state):
                return [Action("discard", prompt.seat)]
            return [Action("discard", prompt.seat, (c,)) for c in sorted(state.hands[prompt.seat])]
        return self._play_actions(state)

    # -- decisions ----------------------------------------------------------------------------
    @handles("stand")
    def _stand(self, step: Step, action: Action) -> None:
        step.say("stand", action.seat, f"{who(action.seat)} stands: {SUIT_NAMES[step.state.trump]} are trumps")
        self._begin_play(step)

    @handles("beg")
    def _beg(self, step: Step, action: Action) -> None:
        step.say("beg", action.seat, f"{who(action.seat)} begs")
        step.update(phase=ANSWER)

    @handles("take_one")
    def _take_one(self, step: Step, action: Action) -> None:
        eldest = self._eldest(step.state)
        if self._no_gift(step.state):
            raise IllegalAction(f"one point would put {who(eldest, 'seat')} out: run the cards", seat=action.seat)
        step.say("take_one", action.seat, f"{who(action.seat)} says take one")
        self._score(step, eldest, (GIFT,), "gift")
        scores = step.state.scores
        others = max(s for seat, s in enumerate(scores) if seat != eldest)
        if scores[eldest] >= step.state.options["target"] and scores[eldest] > others:   # F5, F9
            step.finish(self._outcome(step.state, eldest), eldest)
        else:
            self._begin_play(step)

    @handles("discard")
    def _discard(self, step: Step, action: Action) -> None:
        state, seat = step.state, action.seat
        cards = tuple(parse_card(c) for c in action.cards)
        if len(cards) > 1 or (self.knows_hands(state) and not cards):
            raise IllegalAction("discard one card at a time, and show it to the reader", seat=seat)
        if cards:
            card = cards[0]
            if card in state.hands[seat]:
                step.update(hands=set_at(state.hands, seat, tuple(c for c in state.hands[seat] if c != card)))
            elif self.knows_hands(state):
                raise IllegalAction("you do not hold that card", seat=seat, card=card)
            else:
                self._check_unseen(state, cards, action)
            step.update(discards=state.discards + cards)
        step.update(held=add_at(state.held, seat, -1))
        step.say("discard", seat, f"{who(seat)} discards a card")
        if self._discard_seat(step.state) is None:
            self._begin_play(step)

    def _begin_play(self, step: Step) -> None:
        state = step.state
        if state.options["discard_to_six"] and max(state.held) > 6:
            step.update(phase=DISCARD)
        else:
            step.update(phase=PLAY, tricks=start_tricks(state.players, state.trump, self._eldest(state)))

    # -- the end of the hand ------------------------------------------------------------------
    def _end_play(self, step: Step) -> None:
        """Score the trumps won (F2, F3), hold revokers at 60 (F10), then decide (F9)."""
        state = step.state
        step.say("hand_over", None, f"Hand {state.hand_no + 1} is over")
        for i in range(state.players):
            seat = (state.dealer + 1 + i) % state.players
            items = _trump_items(state.tricks.won[seat], state.trump)
            if items:
                self._score(step, seat, items, "tricks")
        target = state.options["target"]
        for seat in state.revokers:
            if step.state.scores[seat] >= target:
                item = ScoreItem("revoke", target - 1 - step.state.scores[seat], (), "no win on a hand with a revoke")
                self._score(step, seat, (item,), "revoke")
        scores = step.state.scores
        top = max(scores)
        if top >= target:
            leaders = [seat for seat, score in enumerate(scores) if score == top]
            if len(leaders) == 1:
                step.finish(self._outcome(step.state, leaders[0]), leaders[0])
                return
            step.say("tie", None, f"A tie at {top}: another hand decides")
        dealer = (state.dealer + 1) % state.players
        step.say("dealer", dealer, f"{who(dealer)} deals")
        self._start_hand(step, dealer, state.hand_no + 1)

    def _score(self, step: Step, seat: int, items: tuple[ScoreItem, ...], reason: str) -> None:
        points = sum(item.points for item in items)
        step.add_points(seat, points)
        # a card's worth is said after it ("the ace of spades four"); an item without cards (the
        # dealer's gift, a revoke's cap) says itself, its points lead the log line
        said = join_words([f"{item.label} {number_words(item.points) if item.points >= 0 else item.points}"
                           if item.cards else item.label for item in items])
        text = f"{who(seat)}: {said}"           # the scoring log leads it with the points ("+15 Seat 1: ...")
        step.say("score", seat, text, points=points, breakdown=items, detail=(("reason", reason),))

    def _outcome(self, state, winner: int) -> Outcome:
        others = [s for i, s in enumerate(state.scores) if i != winner]
        return Outcome(Termination.TARGET_REACHED, (winner,), state.scores,
                       won((winner,), state.scores[winner], others))

    def _centre(self, state) -> tuple[str, tuple]:
        if not state.turn_ups:
            return "", ()
        label = f"Trumps: {SUIT_NAMES[state.trump]}" if state.trump else "Turned up"
        return label, state.turn_ups

    def _target(self, state) -> int:
        return state.options["target"]

    # -- knowledge and bots -------------------------------------------------------------------
    def _seen(self, state) -> set:
        return super()._seen(state) | set(state.turn_ups) | set(state.discards)

    def strong_choice(self, state, seat: int) -> Action | None:
        return strong_trick_play(state, seat, points=lambda card: self._card_points(state, card),
                                 face_up=state.turn_ups)

    def _card_points(self, state, card: Card) -> int:
        return POINTS.get(card.rank, 0) if card.suit == state.trump else 0

    def _strength(self, state, seat: int, trump: str) -> float:
        """How well a hand holds up with ``trump``: its trumps, the high ones counting more."""
        return sum(power(c) / 7 for c in state.hands[seat] if c.suit == trump)

    def heuristic(self, state, action: Action, seat: int) -> float:
        if action.kind == "play":
            return self._play_value(state, seat, action.card)
        if action.kind in ("stand", "take_one"):
            return self._strength(state, seat, state.trump) - (action.kind == "take_one")
        if action.kind in ("beg", "run"):
            return 2.0
        if action.kind == "discard":
            card = action.card
            return -power(card) - (20 if card.suit == state.trump else 0) - self._card_points(state, card)
        return super().heuristic(state, action, seat)
