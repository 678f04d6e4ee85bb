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

from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from engine.advice.discards import discard_advice
from engine.advice.pegging import pegging_advice
from engine.cards import Card, parse_card, standard_52
from engine.errors import IllegalAction
from engine.game import (
    DEALER, TABLE, Action, CardSlot, Game, Margin, Option, Outcome, Prompt, PublicView, ScoreItem, Step,
    Termination, add_at, handles, one_card, set_at, shuffled, twin_at,
)
from engine.games.cutting import CutForDealState, seeded_cuts, take_cut
from engine.games.cribbage_scoring import Breakdown, score_combinations, score_hand, score_pegging, value
from engine.wording import number_words, who, won

__all__ = ["Cribbage", "CribbageState", "score_hand", "score_pegging"]


#: the phases of a game, each named by its value ("cut" ...)
Phase = StrEnum("Phase", "CUT DISCARD STARTER PLAY SHOW", module=__name__)
CUT, DISCARD, STARTER, PLAY, SHOW = Phase


@dataclass(frozen=True)
class CribbageState(CutForDealState):
    hand_no: int = 0
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
        if mode == TABLE:
            return state
        cuts, dealer = seeded_cuts(players, seed, standard_52(), _cut_key)       # C13
        step = Step(state)
        step.update(cuts=cuts)
        self._start_hand(step, dealer)
        return step.state

    def _start_hand(self, step: Step, dealer: int, hand_no: int = 0) -> None:
        state = step.state
        n = state.players
        size, _ = _deal_size(n)
        step.update(
            phase=DISCARD, dealer=dealer, hand_no=hand_no, held=(size,) * n, turn=_next(state, dealer),
            discarded=(False,) * n, starter=None, count=0, pile=(),
            played=((),) * n, passed=(False,) * n, last_player=None, claims=(), show_step=0,
            hands=(), stock=(), crib=(),
        )
        if state.mode == DEALER:
            pack = shuffled(standard_52(), state.seed, f"hand{hand_no}")
            hands = tuple(tuple(sorted(pack[i * size:(i + 1) * size])) for i in range(n))
            rest = pack[n * size:]
            crib, stock = ((rest[0],), rest[1:]) if n == 3 else ((), rest)
            step.update(hands=hands, stock=stock, crib=crib)

    # -- the prompt ---------------------------------------------------------------------------
    def _prompt(self, state: CribbageState) -> Prompt:
        if state.phase == CUT:
            seat = len(state.cuts)
            return Prompt(seat, ("cut",), f"{who(seat)}: cut the pack and show a card; lowest deals")
        if state.phase == DISCARD:
            seat = self._discard_seat(state)
            k = _deal_size(state.players)[1]
            cards = "a card" if k == 1 else f"{number_words(k)} cards"
            return Prompt(seat, ("discard",), f"{who(seat)}: lay {cards} away to {who(state.dealer, 'seat')}'s crib")
        if state.phase == STARTER:
            return Prompt(None, ("starter",), "Cut and turn up the starter")
        if state.phase == PLAY:
            seat = state.turn
            if not _go_possible(state):                 # "go" is refused with its reason, not offered
                return Prompt(seat, ("play", "go"), f"{who(seat)} to play (count {state.count})")
            return Prompt(seat, ("play", "go"), f"{who(seat)} to play (count {state.count}), or say go",
                          ("go",))
        owner, is_crib = self._show_owner(state)
        if is_crib and not state.crib:
            return Prompt(owner, ("crib",), f"{who(owner)}: lay the crib out face up")
        whose = "crib" if is_crib else "hand"
        return Prompt(owner, ("claim",), f"{who(owner)}: claim your {whose}", ("claim",))

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
    @handles("cut")
    def _cut(self, step: Step, action: Action) -> None:
        dealer = take_cut(step, action, _cut_key)
        if dealer is not None:
            self._start_hand(step, dealer)

    @handles("discard")
    def _discard(self, step: Step, action: Action) -> None:
        state, seat = step.state, action.seat
        k = _deal_size(state.players)[1]
        if state.mode == DEALER or action.cards:
            cards = tuple(parse_card(c) for c in action.cards)
            if len(cards) != k or len(set(cards)) != k:
                raise IllegalAction(f"lay away exactly {number_words(k)} different card{'s' * (k > 1)}", seat=seat)
            if state.mode == DEALER:
                missing = [c for c in cards if c not in state.hands[seat]]
                if missing:
                    raise IllegalAction(f"you do not hold {missing[0]}", seat=seat, card=missing[0])
                step.update(hands=set_at(state.hands, seat, tuple(c for c in state.hands[seat] if c not in cards)),
                            crib=state.crib + cards)
        step.update(held=add_at(state.held, seat, -k), discarded=set_at(state.discarded, seat, True))
        step.say("discard", seat, f"{who(seat)} lays away to the crib")
        if all(step.state.discarded):
            step.update(phase=STARTER)
            if state.mode == DEALER:
                self._turn_starter(step, step.draw())

    @handles("starter")
    def _starter(self, step: Step, action: Action) -> None:
        card = one_card(action)
        self._check_unseen(step.state, card, action)
        self._turn_starter(step, card)

    def _turn_starter(self, step: Step, card: Card) -> None:
        step.update(starter=card, phase=PLAY, turn=_next(step.state, step.state.dealer))
        step.say("starter", None, f"The starter is the {card.name}", cards=(card,))
        if card.rank == 11:
            item = ScoreItem("heels", 2, (card,), "two for his heels")
            self._peg(step, step.state.dealer, Breakdown((item,)), "heels")

    @handles("play")
    def _play(self, step: Step, action: Action) -> None:
        state, seat, card = step.state, action.seat, one_card(action)
        if state.mode == DEALER and card not in state.hands[seat]:
            raise IllegalAction("you do not hold that card", seat=seat, card=card)
        if state.mode == TABLE:
            self._check_unseen(state, card, action)
            if state.held[seat] == 0:
                raise IllegalAction("you have played all your cards this hand", seat=seat, card=card)
        if state.count + value(card) > 31:
            raise IllegalAction(f"it would take the count past 31 (the count is {state.count})", seat=seat, card=card)
        if state.mode == TABLE:
            self._check_claims(step, seat, card)
        state = step.state
        hands = set_at(state.hands, seat, tuple(c for c in state.hands[seat] if c != card)) if state.hands else ()
        step.update(
            hands=hands, held=add_at(state.held, seat, -1), count=state.count + value(card),
            pile=state.pile + (card,), played=set_at(state.played, seat, state.played[seat] + (card,)),
            last_player=seat,
        )
        step.say("play", seat, f"{who(seat)} plays {card}: {step.state.count}", cards=(card,))
        breakdown = score_pegging(step.state.pile)
        if breakdown.items:
            self._peg(step, seat, breakdown, "play")
        if not step.over:
            self._after_turn(step, seat)

    @handles("go")
    def _go(self, step: Step, action: Action) -> None:
        state, seat = step.state, action.seat
        if state.mode == DEALER and any(state.count + value(c) <= 31 for c in state.hands[seat]):
            raise IllegalAction("you can still play a card without passing 31", seat=seat)
        if not _go_possible(state):
            raise IllegalAction(f"every card fits under 31 at a count of {state.count}: play a card", seat=seat)
        claims = state.claims + ((seat, state.count),) if state.mode == TABLE else state.claims
        step.update(passed=set_at(state.passed, seat, True), claims=claims)
        step.say("go", seat, f"{who(seat)} says go")
        self._after_turn(step, seat)

    def _after_turn(self, step: Step, seat: int) -> None:
        """Find who plays next; end the count (go, 31, last card) or the play when nobody can."""
        state = step.state
        if state.count < 31:
            nxt = _next(state, seat)
            for _ in range(state.players):
                if state.held[nxt] and not state.passed[nxt]:
                    step.update(turn=nxt)
                    return
                nxt = _next(state, nxt)
        last = state.last_player
        if state.count < 31 and last is not None and state.pile:    # a go point needs a card in this count
            label = "one for last card" if not any(state.held) else "one for the go"
            item = ScoreItem("last card" if not any(state.held) else "go", 1, (), label)
            self._peg(step, last, Breakdown((item,)), "play")
            if step.over:
                return
        step.update(count=0, pile=(), passed=(False,) * state.players)
        if not any(state.held):
            step.update(phase=SHOW, show_step=0)
            self._show(step)
            return
        leader = _next(state, last if last is not None else seat)
        while not state.held[leader]:
            leader = _next(state, leader)
        step.say("reset", None, f"The count starts again; {who(leader, 'seat')} leads")
        step.update(turn=leader)

    def _check_claims(self, step: Step, seat: int, card: Card) -> None:
        """Table mode: a card that fitted under 31 when its player said go proves a false go."""
        kept = []
        for claim_seat, claim_count in step.state.claims:
            if claim_seat == seat and claim_count + value(card) <= 31:
                step.say("false_go", seat, f"False go: {who(seat, 'seat')} said go at {claim_count} but held the {card.name}",
                         cards=(card,), detail=(("count", claim_count),))
                penalty = step.state.options["false_go_penalty"]
                if penalty:
                    other = (seat + 1) % step.state.players
                    item = ScoreItem("penalty", penalty, (card,), "a false go")
                    self._peg(step, other, Breakdown((item,)), "penalty")
            else:
                kept.append((claim_seat, claim_count))
        step.update(claims=tuple(kept))

    # -- the show -----------------------------------------------------------------------------
    def _show_cards(self, state) -> tuple[tuple, bool]:
        owner, is_crib = self._show_owner(state)
        return (state.crib if is_crib else state.played[owner]), is_crib

    def _show_breakdown(self, state) -> Breakdown:
        cards, is_crib = self._show_cards(state)
        return score_hand(cards, state.starter, crib=is_crib)

    def _show(self, step: Step) -> None:
        """Count hands in order until a claim or the crib's cards are needed, or the hand ends."""
        while not step.over:
            state = step.state
            if state.show_step > state.players:
                self._next_hand(step)
                return
            _, is_crib = self._show_owner(state)
            if is_crib and not state.crib or state.options["muggins"]:
                return
            self._count_show(step, self._show_breakdown(state).total)

    def _count_show(self, step: Step, claimed: int) -> None:
        state = step.state
        owner, is_crib = self._show_owner(state)
        breakdown = self._show_breakdown(state)
        whose = "crib" if is_crib else "hand"
        cards, _ = self._show_cards(state)
        step.say("show", owner, f"{who(owner)}'s {whose}: {' '.join(map(str, cards))}", cards=cards)
        if claimed < breakdown.total:
            self._peg(step, owner, _claimed_part(breakdown, claimed), whose)
            thief = (owner + 1) % state.players
            overlooked = ScoreItem("muggins", breakdown.total - claimed, cards, "muggins")
            if not step.over:
                self._peg(step, thief, Breakdown((overlooked,)), "muggins")
        else:
            self._peg(step, owner, breakdown, whose)
        step.update(show_step=state.show_step + 1)

    @handles("claim")
    def _claim(self, step: Step, action: Action) -> None:
        actual = self._show_breakdown(step.state).total
        claimed = action.choice
        if not isinstance(claimed, int) or claimed < 0:
            raise IllegalAction("claim a number of points", seat=action.seat)
        if claimed > actual:
            raise IllegalAction(f"that counts less than {claimed}; count again", seat=action.seat)
        self._count_show(step, claimed)
        self._show(step)

    @handles("crib")
    def _crib(self, step: Step, action: Action) -> None:
        cards = tuple(parse_card(c) for c in action.cards)
        if len(cards) != 4 or len(set(cards)) != 4:
            raise IllegalAction("the crib has four cards: lay all four out face up", seat=action.seat)
        for card in cards:
            self._check_unseen(step.state, card, action)
        step.update(crib=cards)
        self._show(step)

    def _next_hand(self, step: Step) -> None:
        state = step.state
        step.say("hand_over", None, f"Hand {state.hand_no + 1} is over")
        dealer = _next(state, state.dealer)
        step.say("dealer", dealer, f"{who(dealer)} deals")
        self._start_hand(step, dealer, state.hand_no + 1)

    # -- scoring ------------------------------------------------------------------------------
    def _peg(self, step: Step, seat: int, breakdown: Breakdown, reason: str) -> None:
        side = _side(step.state, seat)
        target = step.state.options["target"]
        # C9: the game ends the moment a side reaches the target, so the peg stops in the game
        # hole: the whole count is said, but what it holds beyond the target is never pegged
        # ("+4 Seat 1: ... is twelve, out at 121", then "Seat 1 wins 121 to 98").
        pegged = min(breakdown.total, target - step.state.scores[side])
        out = f", out at {target}" if pegged < breakdown.total else ""
        step.add_points(side, pegged)
        step.say("score", seat, f"{who(seat)}: {breakdown.say()}{out}", points=pegged,
                 breakdown=breakdown.items, detail=(("reason", reason),))
        if step.state.scores[side] >= target:
            step.finish(self._outcome(step.state, side, target), seat)

    def _outcome(self, state, side: int, target: int) -> Outcome:
        loser_best = max(s for i, s in enumerate(state.scores) if i != side)
        skunk_line, double_line = SKUNK_LINES[target]
        if double_line is not None and loser_best < double_line:
            margin = Margin.DOUBLE_SKUNK
        elif loser_best < skunk_line:
            margin = Margin.SKUNK
        else:
            margin = Margin.WIN
        winners = tuple(seat for seat in range(state.players) if _side(state, seat) == side)
        said = "" if margin is Margin.WIN else f"a {margin}"
        text = won(winners, state.scores[side], (loser_best,), said)
        return Outcome(Termination.TARGET_REACHED, winners, state.scores, text, margin)

    def scores(self, state) -> tuple[int, ...]:
        return tuple(state.scores[_side(state, seat)] for seat in range(state.players))

    # -- helpers ------------------------------------------------------------------------------
    def _check_unseen(self, state, card: Card, action: Action) -> None:
        """Table mode: a card the engine has already seen this hand cannot appear again."""
        seen = {c for cards in state.played for c in cards} | set(state.crib)
        if state.starter:
            seen.add(state.starter)
        if card in seen:
            raise IllegalAction(f"the {card.name} has already been seen this hand", seat=action.seat, card=card)

    def public_hint(self, state) -> str | None:
        if state.phase != PLAY:
            return None
        return f"Count {state.count}: any card worth {31 - state.count} or less fits; with none, say go"

    def strong_choice(self, state, seat: int) -> Action | None:
        """Discard by expected net points; peg by what a play scores and the risk it leaves."""
        if state.phase == DISCARD:
            same_side = seat % 2 == state.dealer % 2 if state.players == 4 else seat == state.dealer
            best = discard_advice(state.hands[seat], dealer=same_side, players=state.players)[0]
            return Action("discard", seat, best.discard)
        if state.phase == PLAY:
            seen = {card for cards in state.played for card in cards} - set(state.pile) | {state.starter}
            nxt = (seat + 1) % state.players
            advice = pegging_advice(state.hands[seat], state.pile, seen=seen, their_cards=state.held[nxt])
            return Action("play", seat, (advice[0].card,)) if advice else Action("go", seat)
        return None

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
            label = f"{who(owner)}'s {'crib' if is_crib else 'hand'}"
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
        twin = twin_at(table_state, dealer_states, "hand_no")
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
