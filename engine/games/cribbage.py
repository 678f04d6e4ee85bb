"""Cribbage for 2, 3 or 4 players (4 as partnerships), in dealer mode and table mode.

The hand: cut for first deal (lowest deals, RULES.md C13), deal (2p six each; 3p five each plus one
to the crib; 4p five each), discards to the crib, the starter with his heels (C8), the play (C1-C6,
C12) and the show in order: players from the dealer's left, the dealer, then the crib (C7, C9).
The game stops the moment a side reaches the target (121, option 61); skunks are reported (C10).

In table mode the engine never sees a hand being dealt: it learns the cut cards, the starter and
each card as it is played; since every card of a hand is played, each hand is known by the show,
and only the crib has to be laid out face up ("crib" action). "go" is a claim, taken only where the
count makes it possible (22 or more: at 21 every card fits, so the go is refused at once); a player
who later plays a card that would have fitted under 31 at the moment of the claim made a false go,
which is reported with the evidence card and penalised (``false_go_penalty`` points to the other
side). "One for the go" needs a card in the current count.

Public and stable: :func:`score_hand` and :func:`score_pegging` (from
:mod:`engine.games.cribbage_scoring`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from engine.cards import Card, parse_card, standard_52
from engine.errors import IllegalAction
from engine.game import (
    DEALER, TABLE, Action, CardSlot, Event, Game, Option, Outcome, Prompt, PublicView, ScoreItem,
    Termination, register, shuffled,
)
from engine.games.cutting import seeded_cuts, take_cut
from engine.games.cribbage_scoring import Breakdown, score_combinations, score_hand, score_pegging, value
from engine.wording import number_words

__all__ = ["Cribbage", "CribbageState", "score_hand", "score_pegging"]

CUT, DISCARD, STARTER, PLAY, SHOW = "cut", "discard", "starter", "play", "show"


@dataclass(frozen=True)
class CribbageState:
    players: int
    options: dict
    mode: str
    seed: int
    scores: tuple[int, ...]
    phase: str = CUT
    dealer: int = 0
    hand_no: int = 0
    cuts: tuple = ()                    # cards cut for the first deal, by seat
    hands: tuple = ()                   # dealer mode: the cards each seat still holds
    held: tuple[int, ...] = ()          # how many cards each seat still holds
    discarded: tuple[bool, ...] = ()    # who has laid away to the crib
    crib: tuple = ()                    # dealer mode: the crib; table mode: once laid out
    stock: tuple = ()                   # dealer mode: the undealt cards, top first
    starter: Card | None = None
    turn: int = 0
    count: int = 0
    pile: tuple = ()                    # cards of the current count, in order
    played: tuple = ()                  # per seat, the cards it played this hand
    passed: tuple[bool, ...] = ()       # who has said go in the current count
    last_player: int | None = None
    claims: tuple = ()                  # table mode: (seat, count) of each go not yet proven
    show_step: int = 0
    outcome: Outcome | None = None


#: by target, the score a loser must reach to avoid a skunk and a double skunk (C10: the ACC's
#: lines for 121; a 61-point game has the skunk line 30 below the target and no double skunk)
SKUNK_LINES = {121: (91, 61), 61: (31, None)}


def _go_possible(state: CribbageState) -> bool:
    """A go is a claim only when some card could fail to fit: at 21 or less every card fits."""
    return state.count + 10 > 31


def _side(state: CribbageState, seat: int) -> int:
    return seat % 2 if state.players == 4 else seat


def _next(state: CribbageState, seat: int) -> int:
    return (seat + 1) % state.players


def _deal_size(players: int) -> tuple[int, int]:
    """Cards dealt to each seat and cards each lays away."""
    return (6, 2) if players == 2 else (5, 1)


@register
class Cribbage(Game):
    name = "cribbage"
    title = "Cribbage"
    aliases = ("crib",)
    deck = "standard"
    players = (2, 3, 4)
    state_type = CribbageState
    hidden_kinds = frozenset({"discard"})
    card_actions = {"cut": CardSlot(1), "play": CardSlot(1), "starter": CardSlot(1, "starter"),
                    "crib": CardSlot(4, "crib")}
    options = (
        Option("target", 121, "points to win: 121 (a loser below 91 is skunked, below 61 double skunked), "
                              "or 61 for a short game (a loser below 31 is skunked; no double skunk)", (121, 61)),
        Option("muggins", False, "players claim their show; points they overlook go to the opponent"),
        Option("false_go_penalty", 2, "table mode: points the other side pegs for a proven false go"),
    )

    # -- construction -----------------------------------------------------------------------
    def _new_game(self, players, options, mode, seed):
        sides = 2 if players == 4 else players
        state = CribbageState(players, options, mode, seed, scores=(0,) * sides)
        return self._cut_for_deal(state) if mode == DEALER else state

    def _cut_for_deal(self, state: CribbageState) -> CribbageState:
        """Dealer mode: each seat cuts from a seeded pack; the lowest card deals (C13)."""
        cuts, dealer = seeded_cuts(state.players, state.seed, standard_52(), _cut_key)
        return self._start_hand(replace(state, cuts=cuts), dealer)

    def _start_hand(self, state: CribbageState, dealer: int, hand_no: int = 0) -> CribbageState:
        n = state.players
        size, _ = _deal_size(n)
        common = dict(
            phase=DISCARD, dealer=dealer, hand_no=hand_no, held=(size,) * n,
            discarded=(False,) * n, starter=None, count=0, pile=(),
            played=((),) * n, passed=(False,) * n, last_player=None, claims=(), show_step=0,
        )
        if state.mode == TABLE:
            return replace(state, hands=(), stock=(), crib=(), turn=_next(state, dealer), **common)
        pack = shuffled(standard_52(), state.seed, f"hand{hand_no}")
        hands = tuple(tuple(sorted(pack[i * size:(i + 1) * size])) for i in range(n))
        rest = pack[n * size:]
        crib, stock = ((rest[0],), rest[1:]) if n == 3 else ((), rest)
        return replace(state, hands=hands, stock=stock, turn=_next(state, dealer), **common, crib=crib)

    # -- the prompt ---------------------------------------------------------------------------
    def _prompt(self, state: CribbageState) -> Prompt:
        if state.phase == CUT:
            seat = len(state.cuts)
            return Prompt(seat, ("cut",), f"Seat {seat + 1}: cut the pack and show a card; lowest deals")
        if state.phase == DISCARD:
            seat = self._discard_seat(state)
            k = _deal_size(state.players)[1]
            cards = "a card" if k == 1 else f"{number_words(k)} cards"
            return Prompt(seat, ("discard",), f"Seat {seat + 1}: lay {cards} away to seat {state.dealer + 1}'s crib")
        if state.phase == STARTER:
            return Prompt(None, ("starter",), "Cut and turn up the starter")
        if state.phase == PLAY:
            seat = state.turn
            if not _go_possible(state):                 # "go" is refused with its reason, not offered
                return Prompt(seat, ("play", "go"), f"Seat {seat + 1} to play (count {state.count})")
            return Prompt(seat, ("play", "go"), f"Seat {seat + 1} to play (count {state.count}), or say go",
                          ("go",))
        owner, is_crib = self._show_owner(state)
        if is_crib and not state.crib:
            return Prompt(owner, ("crib",), f"Seat {owner + 1}: lay the crib out face up")
        whose = "crib" if is_crib else "hand"
        return Prompt(owner, ("claim",), f"Seat {owner + 1}: claim your {whose}", ("claim",))

    def _discard_seat(self, state: CribbageState) -> int:
        seat = _next(state, state.dealer)
        while state.discarded[seat]:
            seat = _next(state, seat)
        return seat

    def _show_owner(self, state: CribbageState) -> tuple[int, bool]:
        """Whose hand is counted at this step of the show: seats from the dealer's left, then the crib."""
        if state.show_step >= state.players:
            return state.dealer, True
        return (state.dealer + 1 + state.show_step) % state.players, False

    # -- legal actions ------------------------------------------------------------------------
    def legal_actions(self, state: CribbageState) -> list[Action]:
        if state.outcome or state.mode == TABLE and state.phase in (CUT, STARTER):
            return []
        p = self.prompt(state)
        seat = p.seat
        if state.phase == DISCARD:
            if state.mode == TABLE:
                return [Action("discard", seat)]
            k = _deal_size(state.players)[1]
            return [Action("discard", seat, combo) for combo in combinations(state.hands[seat], k)]
        if state.phase == PLAY:
            if state.mode == TABLE:
                return [Action("go", seat)] if _go_possible(state) else []
            plays = [Action("play", seat, (c,)) for c in state.hands[seat] if state.count + value(c) <= 31]
            return plays or [Action("go", seat)]
        if "claim" in p.kinds:
            actual = self._show_breakdown(state).total
            return [Action("claim", seat, choice=n) for n in range(actual + 1)]
        return []

    # -- applying -----------------------------------------------------------------------------
    def _apply(self, state: CribbageState, action: Action):
        handler = getattr(self, f"_do_{action.kind}")
        return handler(state, action)

    def _do_cut(self, state, action):
        state, events, dealer = take_cut(state, action, _cut_key)
        return (state, events) if dealer is None else (self._start_hand(state, dealer), events)

    def _do_discard(self, state, action):
        seat = action.seat
        k = _deal_size(state.players)[1]
        hands, crib = state.hands, state.crib
        if state.mode == DEALER or action.cards:
            cards = tuple(parse_card(c) for c in action.cards)
            if len(cards) != k or len(set(cards)) != k:
                raise IllegalAction(f"lay away exactly {number_words(k)} different card{'s' * (k > 1)}", seat=seat)
            if state.mode == DEALER:
                missing = [c for c in cards if c not in state.hands[seat]]
                if missing:
                    raise IllegalAction(f"you do not hold {missing[0]}", seat=seat, card=missing[0])
                hands = _with(state.hands, seat, tuple(c for c in state.hands[seat] if c not in cards))
                crib = crib + cards
        held = _with(state.held, seat, state.held[seat] - k)
        discarded = _with(state.discarded, seat, True)
        state = replace(state, hands=hands, crib=crib, held=held, discarded=discarded)
        events = [Event("discard", seat, text=f"Seat {seat + 1} lays away to the crib")]
        if all(discarded):
            state = replace(state, phase=STARTER)
            if state.mode == DEALER:
                starter, stock = state.stock[0], state.stock[1:]
                state, more = self._turn_starter(replace(state, stock=stock), starter)
                events += more
        return state, events

    def _do_starter(self, state, action):
        card = self._one_card(action)
        self._check_unseen(state, card, action)
        return self._turn_starter(state, card)

    def _turn_starter(self, state, card):
        state = replace(state, starter=card, phase=PLAY, turn=_next(state, state.dealer))
        events = [Event("starter", None, cards=(card,), text=f"The starter is the {card.name}")]
        if card.rank == 11:
            item = ScoreItem("heels", 2, (card,), "two for his heels")
            state, more = self._peg(state, state.dealer, Breakdown((item,)), "heels")
            events += more
        return state, events

    def _do_play(self, state, action):
        seat, card = action.seat, self._one_card(action)
        if state.mode == DEALER and card not in state.hands[seat]:
            raise IllegalAction("you do not hold that card", seat=seat, card=card)
        if state.mode == TABLE:
            self._check_unseen(state, card, action)
            if state.held[seat] == 0:
                raise IllegalAction("you have played all your cards this hand", seat=seat, card=card)
        if state.count + value(card) > 31:
            raise IllegalAction(f"it would take the count past 31 (the count is {state.count})", seat=seat, card=card)
        events = []
        if state.mode == TABLE:
            state, events = self._check_claims(state, seat, card)
        hands = _with(state.hands, seat, tuple(c for c in state.hands[seat] if c != card)) if state.hands else ()
        state = replace(
            state, hands=hands, held=_with(state.held, seat, state.held[seat] - 1),
            count=state.count + value(card), pile=state.pile + (card,),
            played=_with(state.played, seat, state.played[seat] + (card,)), last_player=seat,
        )
        events.append(Event("play", seat, cards=(card,), text=f"Seat {seat + 1} plays {card}: {state.count}"))
        breakdown = score_pegging(state.pile)
        if breakdown.items:
            state, more = self._peg(state, seat, breakdown, "play")
            events += more
        if state.outcome:
            return state, events
        return self._after_turn(state, seat, events)

    def _do_go(self, state, action):
        seat = action.seat
        if state.mode == DEALER and any(state.count + value(c) <= 31 for c in state.hands[seat]):
            raise IllegalAction("you can still play a card without passing 31", seat=seat)
        if not _go_possible(state):
            raise IllegalAction(f"every card fits under 31 at a count of {state.count}: play a card", seat=seat)
        claims = state.claims + ((seat, state.count),) if state.mode == TABLE else state.claims
        state = replace(state, passed=_with(state.passed, seat, True), claims=claims)
        events = [Event("go", seat, text=f"Seat {seat + 1} says go")]
        return self._after_turn(state, seat, events)

    def _after_turn(self, state, seat, events):
        """Find who plays next; end the count (go, 31, last card) or the play when nobody can."""
        if state.count < 31:
            nxt = _next(state, seat)
            for _ in range(state.players):
                if state.held[nxt] and not state.passed[nxt]:
                    return replace(state, turn=nxt), events
                nxt = _next(state, nxt)
        last = state.last_player
        if state.count < 31 and last is not None and state.pile:    # a go point needs a card in this count
            label = "one for last card" if not any(state.held) else "one for the go"
            item = ScoreItem("last card" if not any(state.held) else "go", 1, (), label)
            state, more = self._peg(state, last, Breakdown((item,)), "play")
            events += more
            if state.outcome:
                return state, events
        state = replace(state, count=0, pile=(), passed=(False,) * state.players)
        if not any(state.held):
            return self._show(replace(state, phase=SHOW, show_step=0), events)
        leader = _next(state, last if last is not None else seat)
        while not state.held[leader]:
            leader = _next(state, leader)
        events.append(Event("reset", None, text=f"The count starts again; seat {leader + 1} leads"))
        return replace(state, turn=leader), events

    def _check_claims(self, state, seat, card):
        """Table mode: a card that fitted under 31 when its player said go proves a false go."""
        events, kept = [], []
        for claim_seat, claim_count in state.claims:
            if claim_seat == seat and claim_count + value(card) <= 31:
                events.append(Event(
                    "false_go", seat, cards=(card,), detail=(("count", claim_count),),
                    text=f"False go: seat {seat + 1} said go at {claim_count} but held the {card.name}",
                ))
                penalty = state.options["false_go_penalty"]
                if penalty:
                    other = (seat + 1) % state.players
                    item = ScoreItem("penalty", penalty, (card,), "a false go")
                    state, more = self._peg(state, other, Breakdown((item,)), "penalty")
                    events += more
            else:
                kept.append((claim_seat, claim_count))
        return replace(state, claims=tuple(kept)), events

    # -- the show -----------------------------------------------------------------------------
    def _show_cards(self, state) -> tuple[tuple, bool]:
        owner, is_crib = self._show_owner(state)
        return (state.crib if is_crib else state.played[owner]), is_crib

    def _show_breakdown(self, state) -> Breakdown:
        cards, is_crib = self._show_cards(state)
        return score_hand(cards, state.starter, crib=is_crib)

    def _show(self, state, events):
        """Count hands in order until a claim or the crib's cards are needed, or the hand ends."""
        while not state.outcome:
            if state.show_step > state.players:
                return self._next_hand(state, events)
            owner, is_crib = self._show_owner(state)
            if is_crib and not state.crib or state.options["muggins"]:
                return state, events
            state, more = self._count_show(state, self._show_breakdown(state).total)
            events += more
        return state, events

    def _count_show(self, state, claimed: int):
        owner, is_crib = self._show_owner(state)
        breakdown = self._show_breakdown(state)
        whose = "crib" if is_crib else "hand"
        cards, _ = self._show_cards(state)
        events = [Event("show", owner, cards=cards, text=f"Seat {owner + 1}'s {whose}: {' '.join(map(str, cards))}")]
        if claimed < breakdown.total:
            kept = _claimed_part(breakdown, claimed)
            state, more = self._peg(state, owner, kept, whose)
            events += more
            thief = (owner + 1) % state.players
            overlooked = ScoreItem("muggins", breakdown.total - claimed, cards, "muggins")
            if not state.outcome:
                state, more = self._peg(state, thief, Breakdown((overlooked,)), "muggins")
                events += more
        else:
            state, more = self._peg(state, owner, breakdown, whose)
            events += more
        return replace(state, show_step=state.show_step + 1), events

    def _do_claim(self, state, action):
        actual = self._show_breakdown(state).total
        claimed = action.choice
        if not isinstance(claimed, int) or claimed < 0:
            raise IllegalAction("claim a number of points", seat=action.seat)
        if claimed > actual:
            raise IllegalAction(f"that counts less than {claimed}; count again", seat=action.seat)
        state, events = self._count_show(state, claimed)
        return self._show(state, events)

    def _do_crib(self, state, action):
        cards = tuple(parse_card(c) for c in action.cards)
        if len(cards) != 4 or len(set(cards)) != 4:
            raise IllegalAction("the crib has four cards: lay all four out face up", seat=action.seat)
        for card in cards:
            self._check_unseen(state, card, action)
        return self._show(replace(state, crib=cards), [])

    def _next_hand(self, state, events):
        events.append(Event("hand_over", None, text=f"Hand {state.hand_no + 1} is over"))
        dealer = _next(state, state.dealer)
        events.append(Event("dealer", dealer, text=f"Seat {dealer + 1} deals"))
        return self._start_hand(state, dealer, state.hand_no + 1), events

    # -- scoring ------------------------------------------------------------------------------
    def _peg(self, state, seat: int, breakdown: Breakdown, reason: str):
        side = _side(state, seat)
        scores = _with(state.scores, side, state.scores[side] + breakdown.total)
        state = replace(state, scores=scores)
        text = f"Seat {seat + 1}: {breakdown.say()}"
        events = [Event("score", seat, breakdown.total, text=text, breakdown=breakdown.items, detail=(("reason", reason),))]
        target = state.options["target"]
        if scores[side] >= target:
            state = replace(state, outcome=self._outcome(state, side, target))
            events.append(Event("game_over", seat, text=state.outcome.text))
        return state, events

    def _outcome(self, state, side: int, target: int) -> Outcome:
        loser_best = max(s for i, s in enumerate(state.scores) if i != side)
        skunk_line, double_line = SKUNK_LINES[target]
        if double_line is not None and loser_best < double_line:
            margin = ": a double skunk"
        elif loser_best < skunk_line:
            margin = ": a skunk"
        else:
            margin = ""
        winners = tuple(seat for seat in range(state.players) if _side(state, seat) == side)
        names = " and ".join(f"Seat {s + 1}" for s in winners)
        text = f"{names} win{'s' * (len(winners) == 1)} {state.scores[side]} to {loser_best}{margin}"
        return Outcome(Termination.TARGET_REACHED, winners, state.scores, text)

    def scores(self, state) -> tuple[int, ...]:
        return tuple(state.scores[_side(state, seat)] for seat in range(state.players))

    # -- helpers ------------------------------------------------------------------------------
    def _one_card(self, action: Action) -> Card:
        if len(action.cards) != 1:
            raise IllegalAction("show exactly one card", seat=action.seat)
        return parse_card(action.cards[0])

    def _check_unseen(self, state, card: Card, action: Action) -> None:
        """Table mode: a card the engine has already seen this hand cannot appear again."""
        seen = {c for cards in state.played for c in cards} | set(state.crib)
        if state.starter:
            seen.add(state.starter)
        if card in seen:
            raise IllegalAction(f"the {card.name} has already been seen this hand", seat=action.seat, card=card)

    def public_view(self, state) -> PublicView:
        target = state.options["target"]
        status = f"Hand {state.hand_no + 1}, game to {target}" if state.phase != CUT else f"Cut for deal, game to {target}"
        notes = tuple("go" if state.phase == PLAY and state.passed[s] else "" for s in range(state.players))
        if state.phase == CUT:
            return PublicView(status, "Cuts", state.cuts, notes=notes)
        centre = ("Starter", (state.starter,)) if state.starter else ("", ())
        if state.phase == PLAY:
            return PublicView(status, *centre, f"Count {state.count}", state.pile, notes)
        if state.phase == SHOW and not state.outcome:
            cards, is_crib = self._show_cards(state)
            owner, _ = self._show_owner(state)
            label = f"Seat {owner + 1}'s {'crib' if is_crib else 'hand'}"
            return PublicView(status, *centre, label, cards, notes)
        return PublicView(status, *centre, notes=notes)

    def heuristic(self, state, action: Action, seat: int) -> float:
        if action.kind == "discard":
            keep = tuple(c for c in state.hands[seat] if c not in action.cards)
            return _expected_hand(keep) + (1 if seat == state.dealer else -1) * _crib_value(action.cards)
        if action.kind == "claim":
            return action.choice
        return super().heuristic(state, action, seat)

    def observe(self, table_state, dealer_states) -> Action | None:
        kinds = self.prompt(table_state).kinds
        twin = next((s for s in reversed(dealer_states) if s.hand_no == table_state.hand_no), dealer_states[-1])
        if "cut" in kinds:
            seat = len(table_state.cuts)
            return Action("cut", seat, (twin.cuts[seat],))
        if "starter" in kinds:
            return Action("starter", None, (twin.starter,))
        if "crib" in kinds:
            return Action("crib", table_state.dealer, twin.crib)
        return None


def _cut_key(card: Card) -> int:
    """The lowest card deals, ace low."""
    return -card.rank


def _with(values: tuple, index: int, item) -> tuple:
    return values[:index] + (item,) + values[index + 1:]


def _claimed_part(breakdown: Breakdown, claimed: int) -> Breakdown:
    """The items a player found, in calling order, up to what they claimed."""
    items, total = [], 0
    for item in breakdown.items:
        if total + item.points <= claimed:
            items.append(item)
            total += item.points
    if total < claimed:
        items.append(ScoreItem("claimed", claimed - total, (), "the rest"))
    return Breakdown(tuple(items))


def _expected_hand(keep: tuple) -> float:
    """What a kept hand scores before the starter, plus a little for the starter's chances."""
    return score_combinations(keep).total + 0.1 * sum(1 for c in keep if value(c) == 5)


def _crib_value(cards: tuple) -> float:
    points = 2 if sum(map(value, cards)) == 15 else 0
    if len(cards) == 2 and cards[0].rank == cards[1].rank:
        points += 2
    return points + sum(0.5 for c in cards if c.rank == 5)
