"""What the trick games share (All Fives, Fifteen): the cut, the deal, following suit, trumps,
the trick winner (ace high), who leads next, and the record that proves a revoke at a table.

The pure rules are functions (:func:`trick_winner`, :func:`power`, :func:`legal_plays`); the
trick being played is a value, :class:`TrickPlay`, that :func:`play_card` advances. It keeps the
record of who showed out of which suit on which trick (:class:`ShowOut`): a player who later
plays that suit in the same hand held it when they showed out, so they revoked (:class:`Revoke`).
In a trick game every card held is played, so every revoke is proven by the end of the hand.

:class:`TrickGame` is the base of both games: it owns the cut for the first deal, dealing
(by the engine in dealer mode, counted or scanned through a reader in table mode), turning up,
card play with follow-suit refused at once where the hand is known, revoke penalties, the
greedy bot's measure of a card play, and :meth:`~engine.game.Game.observe` for simulation.

>>> trick_winner(["10H", "AH", "2S"], "S")
2
>>> trick_winner(["10H", "AH", "KS"], "D")
1
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine.cards import SUIT_NAMES, SUITS, Card, parse_card, parse_cards, standard_52
from engine.errors import IllegalAction, InvalidInput
from engine.game import (
    DEALER, TABLE, Action, CardSlot, Event, Game, Option, Prompt, PublicView, ScoreItem, Step,
    add_at, handles, one_card, set_at, shuffled,
)
from engine.games.cutting import CutForDealState, seeded_cuts, take_cut
from engine.wording import plural, who


#: the phases every trick game has; each game adds its own between the deal and the play
TrickPhase = StrEnum("TrickPhase", "CUT DEAL TURN_UP PLAY", module=__name__)
CUT, DEAL, TURN_UP, PLAY = TrickPhase
REVOKER_LOSES, OTHERS_GAIN, NO_PENALTY = "revoker_loses", "others_gain", "none"


# -- pure rules ------------------------------------------------------------------------------------
def power(card: Card) -> int:
    """A card's strength in a trick: 2 low ... king 13, ace 14 (ace high)."""
    return 14 if card.rank == 1 else card.rank


def check_suit(trump: str) -> str:
    """:raises InvalidInput: unless ``trump`` is a suit letter S, H, D or C."""
    suit = trump.strip().upper() if isinstance(trump, str) else trump
    if suit not in SUITS:
        raise InvalidInput(f"trump must be a suit letter S, H, D or C, not {trump!r}")
    return suit


def trick_winner(cards_in_play_order, trump: str) -> int:
    """The index of the card that wins the trick: the highest trump if any trump was played,
    else the highest card of the suit led (ace high).

    :raises InvalidInput: for no cards, a card given twice, unreadable card text or a bad suit.
    """
    cards = parse_cards(cards_in_play_order)
    trump = check_suit(trump)
    if not cards:
        raise InvalidInput("a trick needs at least one card")
    if len(set(cards)) != len(cards):
        raise InvalidInput("a card cannot be played twice to one trick")
    led = cards[0].suit
    return max(range(len(cards)), key=lambda i: (cards[i].suit == trump, cards[i].suit == led, power(cards[i])))


def legal_plays(hand, led: str | None) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to a trick led in suit ``led`` (``None``: leading)."""
    hand = parse_cards(hand)
    following = tuple(card for card in hand if card.suit == led)
    return following or hand


# -- the trick being played ------------------------------------------------------------------------
@dataclass(frozen=True)
class ShowOut:
    """``seat`` played ``card`` on trick ``trick`` (1-based) when ``suit`` was led: a claim to
    hold no card of ``suit`` that the rest of the hand may disprove."""

    seat: int
    suit: str
    trick: int
    card: Card


@dataclass(frozen=True)
class Revoke:
    """A proven revoke: ``seat`` showed out of ``suit`` on ``trick`` (playing ``card``) and later
    played ``evidence`` of that suit on ``evidence_trick``."""

    seat: int
    suit: str
    trick: int
    card: Card
    evidence: Card
    evidence_trick: int

    def event(self) -> Event:
        text = (
            f"Revoke: {who(self.seat, 'seat')} played the {self.card.name} on trick {self.trick} "
            f"when {SUIT_NAMES[self.suit]} were led, but held the {self.evidence.name} "
            f"(played on trick {self.evidence_trick})"
        )
        detail = (("trick", self.trick), ("evidence", self.evidence), ("suit", self.suit),
                  ("evidence_trick", self.evidence_trick), ("card", self.card))
        return Event("revoke", self.seat, cards=(self.evidence, self.card), text=text, detail=detail)


@dataclass(frozen=True)
class TrickPlay:
    """The tricks of one hand: who leads, the cards of the trick on the table, what each seat
    has won, and the show-out record."""

    players: int
    trump: str
    leader: int
    trick_no: int = 1
    current: tuple = ()
    won: tuple = ()
    showouts: tuple = ()
    revokes: tuple = ()

    @property
    def turn(self) -> int:
        return (self.leader + len(self.current)) % self.players

    @property
    def led(self) -> str | None:
        return self.current[0].suit if self.current else None


@dataclass(frozen=True)
class TrickGameState(CutForDealState):
    """The fields every trick game's state has; each game's state adds its own after them."""

    hand_no: int = 0
    deal_no: int = 0                    # redeals of this hand
    hands: tuple = ()                   # the cards known to be in each hand (all of it, when known)
    held: tuple[int, ...] = ()          # how many cards each hand has
    owed: tuple[int, ...] = ()          # reader deal: cards each seat is still to be dealt
    undealt: int = 52                   # cards left in the stock
    stock: tuple = ()                   # dealer mode: the stock, top first
    shown: tuple = ()                   # the deals and turn-ups of this hand, in order
    tricks: TrickPlay | None = None
    revokers: tuple[int, ...] = ()      # seats proven to have revoked this hand


def start_tricks(players: int, trump: str, leader: int) -> TrickPlay:
    return TrickPlay(players, trump, leader, won=((),) * players)


def play_card(tricks: TrickPlay, seat: int, card: Card) -> tuple[TrickPlay, list[Event]]:
    """Add ``card`` by ``seat`` to the trick; prove revokes from the show-out record; settle the
    trick when everyone has played. Legality (holding the card, following suit where the hand is
    known) is the caller's business, see :func:`check_play`.
    """
    events = [Event("play", seat, cards=(card,), text=f"{who(seat)} plays the {card.name}")]
    showouts, proven = [], list(tricks.revokes)
    for out in tricks.showouts:
        if out.seat == seat and out.suit == card.suit:
            revoke = Revoke(seat, out.suit, out.trick, out.card, card, tricks.trick_no)
            proven.append(revoke)
            events.append(revoke.event())
        else:
            showouts.append(out)
    if tricks.led and card.suit != tricks.led:
        showouts.append(ShowOut(seat, tricks.led, tricks.trick_no, card))
    current = tricks.current + (card,)
    tricks = replace(tricks, current=current, showouts=tuple(showouts), revokes=tuple(proven))
    if len(current) < tricks.players:
        return tricks, events
    winner = (tricks.leader + trick_winner(current, tricks.trump)) % tricks.players
    won = set_at(tricks.won, winner, tricks.won[winner] + current)
    best = current[(winner - tricks.leader) % tricks.players]
    events.append(Event(
        "trick", winner, cards=current, detail=(("trick", tricks.trick_no),),
        text=f"{who(winner)} wins trick {tricks.trick_no} with the {best.name}",
    ))
    return replace(tricks, leader=winner, trick_no=tricks.trick_no + 1, current=(), won=won), events


def check_play(known: tuple, held: int, card: Card, led: str | None, seat: int) -> None:
    """Refuse a card the engine knows the seat cannot play.

    ``known`` are the cards known to be in the seat's hand (all of it in dealer mode or when
    dealt through a reader; in table mode a card seen going into the hand, like Fifteen's old
    up-card), ``held`` how many cards the hand has.

    :raises IllegalAction: "you must follow hearts", "you do not hold ...".
    """
    if held == 0:
        raise IllegalAction("you have played all your cards this hand", seat=seat, card=card)
    if card not in known and held <= len(known):
        raise IllegalAction("you do not hold that card", seat=seat, card=card)
    if led and card.suit != led and any(c.suit == led for c in known):
        raise IllegalAction(f"you must follow {SUIT_NAMES[led]}", seat=seat, card=card)


#: "take one": the dealer gives the other side a point instead of running the cards or giving
GIFT = ScoreItem("gift", 1, (), "the dealer's gift")


# -- the base of the trick games -------------------------------------------------------------------
class TrickGame(Game):
    """Shared phases and hooks of All Fives and Fifteen.

    States extend :class:`TrickGameState`. ``hands`` are the cards known to be in each hand,
    ``held`` how many each hand has; ``shown`` records the deals and turn-ups of the hand in order
    (simulation reads a dealer-mode twin's record to show a table-mode engine the same cards).

    Subclasses provide ``_dealt`` (what follows a complete deal), ``_turned`` (what a turn-up
    does), ``_seen`` (the cards face up or played this hand), ``_end_play`` (scoring after the
    last trick), ``_score`` and ``_card_points`` (what a won card is worth, for the bots).
    """

    deck = "standard"
    card_actions = {"cut": CardSlot(1), "play": CardSlot(1), "deal": CardSlot(1), "turn_up": CardSlot(1, "starter")}
    dealt_kinds = frozenset({"deal"})
    reader_option = Option(
        "reader_deal", False,
        "table mode: each dealt card is scanned to its seat, so follow-suit is enforced at once")
    penalty_option = Option(
        "revoke_penalty", REVOKER_LOSES,
        "a proven revoke: the revoker loses 3, or every other player gains 3, or no penalty",
        (REVOKER_LOSES, OTHERS_GAIN, NO_PENALTY))
    REVOKE_POINTS = 3

    # -- knowledge -----------------------------------------------------------------------------
    def knows_hands(self, state) -> bool:
        """Dealer mode, or table mode with every dealt card scanned to its seat."""
        return state.mode == DEALER or state.options["reader_deal"]

    def conceal(self, action: Action, state=None) -> Action:
        """With a reader deal the discards are scanned too: the engine keeps knowing the hands."""
        if state is not None and state.options["reader_deal"]:
            return action
        return super().conceal(action, state)

    # -- the cut for the first deal ------------------------------------------------------------
    def cut_key(self, card: Card) -> int:
        """How a cut card ranks; the highest key deals (override to make the lowest deal)."""
        raise NotImplementedError

    def _new_game(self, players, options, mode, seed):
        state = self.state_type(players, options, mode, seed, scores=(0,) * players)
        if mode == TABLE:
            return state
        cuts, dealer = seeded_cuts(players, seed, standard_52(), self.cut_key)
        step = Step(replace(state, cuts=cuts))
        self._start_hand(step, dealer, 0)
        return step.state

    @handles("cut")
    def _cut(self, step: Step, action: Action) -> None:
        dealer = take_cut(step, action, self.cut_key)
        if dealer is not None:
            self._start_hand(step, dealer, 0)

    def _prompt(self, state) -> Prompt:
        if state.phase == CUT:
            seat = len(state.cuts)
            return Prompt(seat, ("cut",), f"{who(seat)}: cut the pack and show a card; {self.cut_rule}")
        if state.phase == DEAL:
            owed = ", ".join(f"{who(s, 'seat')} {o}" for s, o in enumerate(state.owed) if o)
            return Prompt(None, ("deal",), f"{who(state.dealer)} deals (cards still owed: {owed})")
        return self._hand_prompt(state) or self._play_prompt(state)

    def _hand_prompt(self, state) -> Prompt | None:
        """The game's own phases between the deal and the play (``None``: the play is on)."""
        return None

    cut_rule = ""

    # -- dealing -------------------------------------------------------------------------------
    def _start_hand(self, step: Step, dealer: int, hand_no: int) -> None:
        step.update(dealer=dealer, hand_no=hand_no, deal_no=-1, shown=(), revokers=())
        self._new_deal(step)

    def _new_deal(self, step: Step) -> None:
        """A fresh pack for the hand (or a redeal of it): empty hands, nothing turned up."""
        state = step.state
        n = state.players
        deal_no = state.deal_no + 1
        stock = shuffled(standard_52(), state.seed, f"hand{state.hand_no}.{deal_no}") if state.mode == DEALER else ()
        step.update(deal_no=deal_no, hands=((),) * n, held=(0,) * n, owed=(0,) * n, undealt=52, stock=stock,
                    tricks=None)
        self._reset_deal(step)

    def _reset_deal(self, step: Step) -> None:
        """The game's own fields for a new deal, and the deal itself."""
        raise NotImplementedError

    def _deal(self, step: Step, batch: int, rounds: int = 1) -> None:
        """Deal ``rounds`` batches of ``batch`` cards to each seat from the dealer's left, then go
        on with :meth:`_dealt` once the cards are in the hands.

        Dealer mode deals from the stock and records it; table mode counts the cards into unseen
        hands, or, with a reader, waits for each seat's cards to be scanned (phase ``deal``).
        """
        state = step.state
        n = state.players
        order = [(state.dealer + 1 + i) % n for i in range(n)]
        step.update(undealt=state.undealt - batch * rounds * n)
        if state.mode == TABLE:
            if state.options["reader_deal"]:
                step.update(owed=tuple(o + batch * rounds for o in state.owed), phase=DEAL)
                return
            step.update(held=tuple(h + batch * rounds for h in state.held))
        else:
            hands, stock, shown = list(state.hands), state.stock, state.shown
            for _ in range(rounds):
                for seat in order:
                    cards, stock = stock[:batch], stock[batch:]
                    hands[seat] += cards
                    shown += (Action("deal", seat, cards),)
            step.update(hands=tuple(hands), held=tuple(len(h) for h in hands), stock=stock, shown=shown)
        self._dealt(step)

    @handles("deal")
    def _deal_cards(self, step: Step, action: Action) -> None:
        state, seat = step.state, action.seat
        if seat is None or not 0 <= seat < state.players:
            raise IllegalAction("say which seat the dealt cards went to")
        cards = tuple(parse_card(c) for c in action.cards)
        if not cards or len(cards) > state.owed[seat]:
            owed = state.owed[seat]
            raise IllegalAction(f"{who(seat, 'seat')} is owed {plural(owed, 'card')} in this deal, not {len(cards)}",
                                seat=seat)
        self._check_unseen(state, cards, action)
        step.update(
            hands=set_at(state.hands, seat, state.hands[seat] + cards),
            held=add_at(state.held, seat, len(cards)), owed=add_at(state.owed, seat, -len(cards)),
            shown=state.shown + (Action("deal", seat, cards),),
        )
        step.say("deal", seat, f"{who(seat)} is dealt {plural(len(cards), 'card')}")
        if not any(step.state.owed):
            self._dealt(step)

    def _dealt(self, step: Step) -> None:
        """What follows a complete deal."""
        raise NotImplementedError

    def _turn_up(self, step: Step) -> None:
        """Dealer mode turns the top card of the stock; table mode asks the table to show it."""
        if step.state.mode == TABLE:
            step.update(phase=TURN_UP)
        else:
            self._turned(step, step.draw())

    @handles("turn_up")
    def _turn_up_card(self, step: Step, action: Action) -> None:
        card = one_card(action)
        self._check_unseen(step.state, (card,), action)
        self._turned(step, card)

    def _turned(self, step: Step, card: Card) -> None:
        """What a turned-up card does; it starts with :meth:`_record_turn_up`."""
        raise NotImplementedError

    def _record_turn_up(self, step: Step, card: Card) -> None:
        """Count the turned card out of the stock and note it for the table's twin."""
        state = step.state
        step.update(undealt=state.undealt - 1, shown=state.shown + (Action("turn_up", None, (card,)),))
        step.say("turn_up", None, f"Turned up: the {card.name}", cards=(card,))

    # -- card play -----------------------------------------------------------------------------
    @handles("play")
    def _play(self, step: Step, action: Action) -> None:
        state, seat, card = step.state, action.seat, one_card(action)
        check_play(state.hands[seat], state.held[seat], card, state.tricks.led, seat)
        if card not in state.hands[seat]:
            self._check_unseen(state, (card,), action)
        tricks, events = play_card(state.tricks, seat, card)
        step.events += events
        step.update(
            tricks=tricks, held=add_at(state.held, seat, -1),
            hands=set_at(state.hands, seat, tuple(c for c in state.hands[seat] if c != card)),
        )
        for revoke in tricks.revokes[len(state.tricks.revokes):]:
            self._penalise(step, revoke)
            if step.over:
                return
        if not any(step.state.held):
            self._end_play(step)

    def _penalise(self, step: Step, revoke: Revoke) -> None:
        """Apply the revoke penalty (RULES.md F10) and remember that the revoker cannot win."""
        step.update(revokers=tuple(sorted(set(step.state.revokers) | {revoke.seat})))
        rule, points = step.state.options["revoke_penalty"], self.REVOKE_POINTS
        item = ScoreItem("revoke", points, (revoke.evidence,), f"a revoke by {who(revoke.seat, 'seat')}")
        if rule == REVOKER_LOSES:
            self._score(step, revoke.seat, (replace(item, points=-points),), "revoke")
        elif rule == OTHERS_GAIN:
            for seat in range(step.state.players):
                if seat != revoke.seat and not step.over:
                    self._score(step, seat, (item,), "revoke")

    def _score(self, step: Step, seat: int, items: tuple[ScoreItem, ...], reason: str) -> None:
        """Add the points of ``items`` to ``seat``, saying why (``reason``)."""
        raise NotImplementedError

    def _end_play(self, step: Step) -> None:
        """Scoring after the last trick."""
        raise NotImplementedError

    def _play_prompt(self, state) -> Prompt:
        tricks = state.tricks
        seat = tricks.turn
        if tricks.led:
            text = f"{who(seat)} to play to trick {tricks.trick_no} ({SUIT_NAMES[tricks.led]} led)"
        else:
            text = f"{who(seat)} to lead trick {tricks.trick_no}"
        return Prompt(seat, ("play",), f"{text}; trumps are {SUIT_NAMES[tricks.trump]}")

    def _play_actions(self, state) -> list[Action]:
        seat = state.tricks.turn
        if not self.knows_hands(state):
            return []
        return [Action("play", seat, (c,)) for c in sorted(legal_plays(state.hands[seat], state.tricks.led))]

    # -- helpers -------------------------------------------------------------------------------
    def _seen(self, state) -> set:
        """Every card face up or played this hand (and, where hands are known, in them)."""
        seen = {card for hand in state.hands for card in hand}
        if state.tricks:
            seen |= {card for won in state.tricks.won for card in won} | set(state.tricks.current)
        return seen

    def _check_unseen(self, state, cards, action: Action) -> None:
        """A card the engine already knows the place of cannot appear again.

        :raises IllegalAction: naming the card.
        """
        seen = self._seen(state)
        for i, card in enumerate(cards):
            if card in seen or card in cards[:i]:
                raise IllegalAction(f"the {card.name} has already been seen this hand", seat=action.seat, card=card)

    def scores(self, state) -> tuple[int, ...]:
        return state.scores

    # -- bots ----------------------------------------------------------------------------------
    def _card_points(self, state, card: Card) -> int:
        """What ``card`` is worth to whoever wins it (the greedy bot's measure)."""
        raise NotImplementedError

    def _play_value(self, state, seat: int, card: Card) -> float:
        """Win the points on the table cheaply; do not throw points to a trick already lost."""
        tricks = state.tricks
        cards = tricks.current + (card,)
        winning = (tricks.leader + trick_winner(cards, tricks.trump)) % state.players == seat
        at_stake = sum(self._card_points(state, c) for c in cards)
        cost = power(card) / 100 + (self._card_points(state, card) if card.suit == tricks.trump else 0) / 10
        if len(cards) == state.players:
            return (at_stake if winning else -at_stake) - cost
        if not tricks.current:              # leading: keep the point cards back for a sure trick
            return -self._card_points(state, card) - cost
        return (at_stake / 2 if winning else -self._card_points(state, card)) - cost

    # -- the display ---------------------------------------------------------------------------
    def public_hint(self, state) -> str | None:
        """In the play: what the suit led asks of the next card, and the trumps."""
        if state.phase != PLAY or not state.tricks:
            return None
        trump = SUIT_NAMES[state.tricks.trump]
        if not state.tricks.led:
            return f"Lead any card; trumps are {trump}"
        led = SUIT_NAMES[state.tricks.led]
        return f"{led.capitalize()} led: follow {led} if you can, else any card; trumps are {trump}"

    def public_view(self, state) -> PublicView:
        """Scores aside, what the table shows: the turn-up(s), the trick on the table, the dealer
        and who has been caught revoking this hand."""
        notes = tuple(
            ", ".join(word for word, yes in (("deals", seat == state.dealer and state.phase != CUT),
                                             ("revoked", seat in state.revokers)) if yes)
            for seat in range(state.players)
        )
        status = f"Hand {state.hand_no + 1}, game to {self._target(state)}"
        if state.phase == CUT:
            return PublicView(f"Cut for deal, game to {self._target(state)}", "Cuts", state.cuts, notes=notes)
        label, cards = self._centre(state)
        if state.tricks and state.phase == PLAY:
            return PublicView(status, label, cards, f"Trick {state.tricks.trick_no}", state.tricks.current, notes)
        return PublicView(status, label, cards, notes=notes)

    def _centre(self, state) -> tuple[str, tuple]:
        """The label and cards of what sets the hand (turn-ups, the up-card)."""
        raise NotImplementedError

    def _target(self, state) -> int:
        raise NotImplementedError

    def target(self, state) -> int:
        return self._target(state)

    # -- simulation ----------------------------------------------------------------------------
    def observe(self, table_state, dealer_states) -> Action | None:
        kinds = self.prompt(table_state).kinds
        if "cut" in kinds:
            return Action("cut", len(table_state.cuts), (dealer_states[-1].cuts[len(table_state.cuts)],))
        twins = [s for s in dealer_states if s.hand_no == table_state.hand_no] or [dealer_states[-1]]
        twin = max(twins, key=lambda s: len(s.shown))
        if "deal" in kinds or "turn_up" in kinds:
            wanted = {"deal", "turn_up"} if table_state.options["reader_deal"] else {"turn_up"}
            shown = [a for a in twin.shown if a.kind in wanted]
            return shown[len(table_state.shown)]
        return self._observe_more(table_state, twin, kinds)

    def _observe_more(self, table_state, twin, kinds) -> Action | None:
        return None
