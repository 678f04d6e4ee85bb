"""Le Quinze for 2, 3 or 4 players with the French 40-card pack, in dealer mode and table mode.

A deal (RULES.md Q1-Q12): draw for first deal, lowest deals (Q8); three cards each and four face up
in the centre (Q6 option ``escoba_de_mano``); play passes counter-clockwise, to the right, starting
at the dealer's right (Q8). A played card takes any set of table cards that makes 15 with it
(A-7 face value, J 8, Q 9, K 10; Q2); taking is compulsory when possible and the player chooses the
set (Q3, option ``capture_optional``); otherwise the card stays on the table, also on an empty
table (Q12). Clearing the table is a scopa, one point, also on the last play by default (Q4).
When everyone has played three cards, three more each until the 40 cards are used (Q7); the cards
left go to the last player who took (Q5). End-of-deal points: most cards, most clubs, the seven
of clubs, most sevens, a tie for the most scoring nobody (Q9). After each deal, a side with 11
or more and the highest total wins; a tie at the top plays another deal (Q10, option
``tie_break``). Four players play alone, or in partnerships of opposite seats as an option (Q11).

Seats are numbered clockwise, as in every game here, so "to the right" is the seat before.

In table mode the engine learns the cards drawn for the deal, the four cards turned up and each
card as it is played; hands are never seen. A capture is named by the cards that leave the table:
a ``play`` action carries the played card followed by the cards it takes. A ``play`` with the card
alone (what a camera sees first) takes the only possible set, stays on the table when nothing can
be taken, and otherwise waits for a ``capture`` action carrying the cards that left the table, or
the choice of a set by its label: the prompt's choices list the possible sets ("2H 6S"), plus
"leave" when taking is optional. Every card of the pack is seen by the end of a deal.

Public and stable: :func:`captures` and :func:`value`.

>>> [sorted(map(str, s)) for s in captures("6S 2H JD 4C", "7C")]
[['JD'], ['2H', '6S']]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine.advice.quinze import capture_advice
from engine.cards import Card, french_40, parse_card
from engine.errors import IllegalAction, InvalidInput
from engine.game import (
    DEALER, TABLE, Action, CardSlot, Game, Option, Outcome, Prompt, PublicView, ScoreItem, Step,
    Termination, add_at, handles, set_at, shuffled, twin_at,
)
from engine.games.cutting import CutForDealState, seeded_cuts, take_cut
from engine.games.quinze_captures import SEVEN_OF_CLUBS, captures, value
from engine.wording import join_words, number_words, plural, who, won, words

__all__ = ["LeQuinze", "QuinzeState", "captures", "value"]

#: the phases of a game, each named by its value ("cut" ...)
Phase = StrEnum("Phase", "CUT TURN_UP PLAY CAPTURE", module=__name__)
CUT, TURN_UP, PLAY, CAPTURE = Phase
LEAVE = "leave"
PACK_SIZE, TABLE_CARDS, HAND_SIZE = 40, 4, 3
#: End-of-deal categories in the order Parlett's tie-break counts them (Q10 option "count order").
COUNT_ORDER = ("cards", "clubs", "seven of clubs", "sevens", "scopa")
#: What each end-of-deal point counts in a side's cards (Q9).
_CATEGORIES = {
    "cards": lambda card: True,
    "clubs": lambda card: card.suit == "C",
    "seven of clubs": lambda card: card == SEVEN_OF_CLUBS,
    "sevens": lambda card: card.rank == 7,
}


def _unseen_card(worth: int, table) -> list[Card]:
    """A card of a Le Quinze value that is not on the table (only its value matters to a hint)."""
    rank = worth if worth <= 7 else worth + 3
    return [card for card in (Card(rank, suit) for suit in "SHDC") if card not in table][:1]


def _draw_key(card: Card) -> int:
    """The lowest card deals (Q8), by its Le Quinze value."""
    return -value(card)


def _label(cards) -> str:
    """A capture as the display and the prompt's choices write it: "2H 6S"."""
    return " ".join(map(str, sorted(cards)))


@dataclass(frozen=True)
class QuinzeState(CutForDealState):
    deal_no: int = 0
    round_no: int = 0                   # which three-card round of the deal (Q7)
    hands: tuple = ()                   # dealer mode: the cards each seat holds
    stock: tuple = ()                   # dealer mode: the undealt cards, top first
    held: tuple[int, ...] = ()          # how many cards each seat holds
    turned: tuple = ()                  # the cards turned up in the centre at the start of the deal
    table: tuple = ()                   # the cards on the table now
    taken: tuple = ()                   # per side, the cards it has taken this deal
    scopas: tuple[int, ...] = ()        # per side, scopas this deal
    played: tuple = ()                  # every card played this deal, in order
    last_taker: int | None = None       # the seat that took last (Q5)
    turn: int = 0
    pending: Card | None = None         # a played card waiting for the choice of its capture
    last_capture: tuple = ()            # the latest capture: the card played, then the cards it took
    deal_start: tuple[int, ...] = ()    # scores when the deal began (Q10 tie-break)


def _sides(players: int, options: dict) -> int:
    return 2 if players == 4 and options["partnerships"] else players


def _side(state: QuinzeState, seat: int) -> int:
    return seat % _sides(state.players, state.options)


def _right(state: QuinzeState, seat: int) -> int:
    """The next player counter-clockwise (Q8)."""
    return (seat - 1) % state.players


def _rounds(players: int) -> int:
    return (PACK_SIZE - TABLE_CARDS) // (HAND_SIZE * players)


class LeQuinze(Game):
    name = "quinze"
    title = "Le Quinze"
    aliases = ("le quinze", "lequinze", "scopa15")
    deck = "french40"
    players = (2, 3, 4)
    state_type = QuinzeState
    card_actions = {"cut": CardSlot(1), "turn_up": CardSlot(1, "centre"), "play": CardSlot(1, "centre"),
                    "capture": CardSlot(1, "centre", taken=True)}
    options = (
        Option("target", 11, "points to win, totalled after each deal"),                    # Q10
        Option("capture_optional", False, "a card that can take may stay on the table instead"),   # Q3
        Option("escoba_de_mano", False, "four turned-up cards making 15 (or two 15s) go to the dealer as scopas"),  # Q6
        Option("partnerships", False, "four players: opposite seats pool their cards and points"),  # Q11
        Option("tie_break", "another deal", "a tie at the top after a deal: play another deal, or count the "
               "last deal's points in the order cards, clubs, seven of clubs, sevens, scopas",
               ("another deal", "count order")),                                             # Q10
    )

    # -- construction -----------------------------------------------------------------------
    def _new_game(self, players, options, mode, seed):
        if options["partnerships"] and players != 4:
            raise InvalidInput("partnerships need four players")
        if options["target"] < 1:
            raise InvalidInput("the target must be at least one point")
        state = QuinzeState(players, options, mode, seed, scores=(0,) * _sides(players, options))
        if mode == TABLE:
            return state
        cuts, dealer = seeded_cuts(players, seed, french_40(), _draw_key)        # Q8: the lowest deals
        step = Step(replace(state, cuts=cuts))
        self._start_deal(step, dealer, 0)
        return step.state

    def _start_deal(self, step: Step, dealer: int, deal_no: int) -> None:
        """A new deal; dealer mode deals and turns up the four cards."""
        state = step.state
        n, sides = state.players, len(state.scores)
        step.update(
            phase=TURN_UP, dealer=dealer, deal_no=deal_no, round_no=0, held=(HAND_SIZE,) * n,
            turned=(), table=(), taken=((),) * sides, scopas=(0,) * sides, played=(), last_taker=None,
            turn=_right(state, dealer), pending=None, deal_start=state.scores, hands=(), stock=(),
        )
        if state.mode == DEALER:
            pack = shuffled(french_40(), state.seed, f"deal{deal_no}")
            hands = tuple(tuple(sorted(pack[i * HAND_SIZE:(i + 1) * HAND_SIZE])) for i in range(n))
            step.update(hands=hands, stock=pack[n * HAND_SIZE + TABLE_CARDS:])
            self._lay_out(step, pack[n * HAND_SIZE:n * HAND_SIZE + TABLE_CARDS])

    def _lay_out(self, step: Step, turned: tuple) -> None:
        """The four cards are face up: play begins (after the dealer's escoba de mano, Q6)."""
        step.update(turned=turned, table=turned, phase=PLAY)
        step.say("turn_up", None, f"On the table: {_label(turned)}", cards=turned)
        total = sum(map(value, turned))
        # Two 15s: some part holding the first card makes 15, so the rest makes the other 15.
        doubles = total == 30 and bool(captures(turned[1:], turned[0]))
        if not step.state.options["escoba_de_mano"] or not (total == 15 or doubles):
            return
        count = 1 if total == 15 else 2
        state = step.state
        side = _side(state, state.dealer)
        step.update(table=(), taken=set_at(state.taken, side, state.taken[side] + turned),
                    last_taker=state.dealer, scopas=add_at(state.scopas, side, count))
        self._score(step, state.dealer, (ScoreItem("scopa", count, turned, f"{plural(count, 'scopa')} de mano"),))

    # -- the prompt ---------------------------------------------------------------------------
    def _prompt(self, state: QuinzeState) -> Prompt:
        if state.phase == CUT:
            seat = len(state.cuts)
            return Prompt(seat, ("cut",), f"{who(seat)}: draw a card and show it; the lowest deals")
        if state.phase == TURN_UP:
            left = TABLE_CARDS - len(state.turned)
            return Prompt(None, ("turn_up",), f"{who(state.dealer)}: deal three cards each and turn "
                                              f"{number_words(left)} card{'s' * (left > 1)} up in the centre")
        if state.phase == PLAY:     # the table's cards are shown beside the prompt: it says what they add up to
            count = len(state.table)
            on_table = (f"{plural(count, 'card')} on the table, worth {sum(map(value, state.table))}" if count
                        else "the table is empty")
            return Prompt(state.turn, ("play",), f"{who(state.turn)} to play: {on_table}")
        labels = tuple(_label(s) for s in captures(state.table, state.pending))
        choices = labels + ((LEAVE,) if state.options["capture_optional"] else ())
        return Prompt(state.turn, ("capture",),
                      f"{who(state.turn)}: take {' or '.join(labels)} with the {state.pending}", choices)

    # -- legal actions ------------------------------------------------------------------------
    def legal_actions(self, state: QuinzeState) -> list[Action]:
        if state.outcome or state.phase in (CUT, TURN_UP):
            return []
        seat = state.turn
        if state.phase == CAPTURE:
            return self._card_actions("capture", seat, state.pending, state)
        if state.mode == TABLE:
            return []
        return [a for card in state.hands[seat] for a in self._card_actions("play", seat, card, state)]

    def _card_actions(self, kind: str, seat: int, card: Card, state: QuinzeState) -> list[Action]:
        sets = captures(state.table, card)
        actions = [Action(kind, seat, (card, *sorted(s))) for s in sets]
        if not sets:
            actions.append(Action(kind, seat, (card,)))
        elif state.options["capture_optional"]:
            actions.append(Action(kind, seat, (card,), LEAVE))
        return actions

    # -- applying -----------------------------------------------------------------------------
    @handles("cut")
    def _cut(self, step: Step, action: Action) -> None:
        dealer = take_cut(step, action, _draw_key, verb="draw", done="drawn")
        if dealer is not None:
            self._start_deal(step, dealer, 0)

    @handles("turn_up")
    def _turn_up(self, step: Step, action: Action) -> None:
        state = step.state
        cards = self._cards(action, 1, TABLE_CARDS - len(state.turned))
        for card in cards:
            self._check_unseen(state, card, action)
        turned = state.turned + cards
        if len(turned) < TABLE_CARDS:
            step.update(turned=turned)
            step.say("turn_up", None, f"Turned up: {_label(cards)}", cards=cards)
        else:
            self._lay_out(step, turned)

    @handles("play")
    def _play(self, step: Step, action: Action) -> None:
        state, seat = step.state, action.seat
        cards = self._cards(action, 1, PACK_SIZE)
        card, wanted = cards[0], cards[1:]
        if state.mode == DEALER and card not in state.hands[seat]:
            raise IllegalAction("you do not hold that card", seat=seat, card=card)
        if state.mode == TABLE:
            self._check_unseen(state, card, action)
            if not state.held[seat]:
                raise IllegalAction("you have played all your cards this round", seat=seat, card=card)
        chosen = self._chosen_set(state, action, card, wanted, captures(state.table, card))
        hands = set_at(state.hands, seat, tuple(c for c in state.hands[seat] if c != card)) if state.hands else ()
        step.update(hands=hands, held=add_at(state.held, seat, -1), played=state.played + (card,))
        if chosen is None:
            step.update(phase=CAPTURE, pending=card)
            step.say("play", seat, f"{who(seat)} plays the {card.name}", cards=(card,))
        else:
            self._resolve(step, seat, card, chosen)

    @handles("capture")
    def _capture(self, step: Step, action: Action) -> None:
        state = step.state
        card = state.pending
        wanted = tuple(c for c in self._cards(action, 0, PACK_SIZE) if c != card)
        sets = captures(state.table, card)
        if not wanted and isinstance(action.choice, str) and action.choice != LEAVE:
            by_label = {_label(s): s for s in sets}
            if action.choice not in by_label:
                raise IllegalAction(f"choose one of: {', '.join(self.prompt(state).choices)}", seat=action.seat)
            wanted = tuple(by_label[action.choice])
        chosen = self._chosen_set(state, action, card, wanted, sets)
        if chosen is None:
            raise IllegalAction(f"say which cards the {card} takes: {' or '.join(map(_label, sets))}",
                                seat=action.seat, card=card)
        step.update(phase=PLAY, pending=None)
        self._resolve(step, action.seat, card, chosen)

    def _chosen_set(self, state, action, card, wanted, sets) -> frozenset | None:
        """The set the action takes (empty: the card stays), or ``None`` while the choice is open."""
        seat = action.seat
        if wanted:
            chosen = frozenset(wanted)
            if len(chosen) != len(wanted):
                raise IllegalAction("a card cannot be taken twice", seat=seat, card=card)
            missing = [c for c in wanted if c not in state.table]
            if missing:
                raise IllegalAction(f"the {missing[0].name} is not on the table", seat=seat, card=card)
            if chosen not in sets:
                total = value(card) + sum(map(value, chosen))
                raise IllegalAction(f"{_label(chosen)} with it makes {total}, not 15", seat=seat, card=card)
            return chosen
        if not sets:
            return frozenset()
        if action.choice == LEAVE:
            if not state.options["capture_optional"]:
                raise IllegalAction(f"it takes {' or '.join(map(_label, sets))}, and taking is compulsory",
                                    seat=seat, card=card)
            return frozenset()
        if len(sets) == 1 and not state.options["capture_optional"]:
            return sets[0]
        return None

    def _resolve(self, step: Step, seat: int, card: Card, chosen: frozenset) -> None:
        """The played card takes ``chosen`` (or stays on the table when it is empty)."""
        state = step.state
        if not chosen:
            step.update(table=state.table + (card,))
            step.say("play", seat, f"{who(seat)} plays the {card.name}: it stays on the table", cards=(card,))
        else:
            side = _side(state, seat)
            pile = (card, *sorted(chosen))
            table = tuple(c for c in state.table if c not in chosen)
            step.update(table=table, taken=set_at(state.taken, side, state.taken[side] + pile), last_taker=seat,
                        last_capture=pile)
            step.say("capture", seat, f"{who(seat)} takes {_label(chosen)} with the {card.name}", cards=pile)
            # (the deal's last card never clears the table: captures take 15 a time of a pack worth 220)
            if not table:
                step.update(scopas=add_at(state.scopas, side, 1))
                self._score(step, seat, (ScoreItem("scopa", 1, pile, "a scopa"),))
        self._after_play(step, seat)

    def _after_play(self, step: Step, seat: int) -> None:
        if any(step.state.held):
            step.update(turn=_right(step.state, seat))
        elif self._undealt(step.state):
            self._deal_round(step)
        else:
            self._end_deal(step)

    def _undealt(self, state) -> int:
        return PACK_SIZE - TABLE_CARDS - HAND_SIZE * state.players * (state.round_no + 1)

    def _deal_round(self, step: Step) -> None:
        """Three more cards each, no new table cards (Q7)."""
        state = step.state
        n = state.players
        if state.mode == DEALER:
            hands = tuple(tuple(sorted(state.stock[i * HAND_SIZE:(i + 1) * HAND_SIZE])) for i in range(n))
            step.update(hands=hands, stock=state.stock[n * HAND_SIZE:])
        step.update(round_no=state.round_no + 1, held=(HAND_SIZE,) * n, turn=_right(state, state.dealer))
        step.say("deal", state.dealer, f"{who(state.dealer)} deals three more cards each")

    def _end_deal(self, step: Step) -> None:
        state = step.state
        if state.table and state.last_taker is not None:
            side = _side(state, state.last_taker)
            step.say("remainder", state.last_taker, f"{who(state.last_taker)} takes the cards left: "
                                                    f"{_label(state.table)}", cards=state.table)
            step.update(taken=set_at(state.taken, side, state.taken[side] + state.table), table=())
        awards = self._deal_awards(step.state)
        for side in range(len(state.scores)):
            items = tuple(item for item_side, item in awards if item_side == side)
            if items:
                self._score(step, side, items)        # (the side's lowest seat speaks for it)
        step.say("deal_over", None, f"Deal {state.deal_no + 1} is over: {', '.join(map(str, step.state.scores))}")
        winner = self._winner(step.state, awards)
        if winner is not None:
            step.finish(self._outcome(step.state, winner), winner)
            return
        dealer = _right(state, state.dealer)
        step.say("dealer", dealer, f"{who(dealer)} deals")
        self._start_deal(step, dealer, state.deal_no + 1)

    def _deal_awards(self, state) -> list[tuple[int, ScoreItem]]:
        """The end-of-deal points (Q9): one each for most cards, most clubs, the seven of clubs
        and most sevens; a tie for the most scores nobody."""
        awards = []
        for category, counts in _CATEGORIES.items():
            per_side = [sum(map(counts, pile)) for pile in state.taken]
            best = max(per_side)
            if best and per_side.count(best) == 1:
                side = per_side.index(best)
                label = "the seven of clubs" if category == "seven of clubs" else f"most {category} ({best})"
                awards.append((side, ScoreItem(category, 1, tuple(filter(counts, state.taken[side])), label)))
        return awards

    def _winner(self, state, awards) -> int | None:
        """The side that wins after this deal (Q10), or ``None`` to play on."""
        target, scores = state.options["target"], state.scores
        best = max(scores)
        if best < target:
            return None
        leaders = [side for side, score in enumerate(scores) if score == best]
        if len(leaders) == 1:
            return leaders[0]
        if state.options["tie_break"] != "count order":
            return None
        running = list(state.deal_start)
        for category in COUNT_ORDER:
            if category == "scopa":
                for side, count in enumerate(state.scopas):
                    running[side] += count
            for side, item in awards:
                running[side] += item.points if item.category == category else 0
            over = [side for side, score in enumerate(running) if score >= target]
            if over:
                return over[0] if len(over) == 1 else None
        return None

    # -- scoring ------------------------------------------------------------------------------
    def _score(self, step: Step, seat: int, items: tuple[ScoreItem, ...]) -> None:
        points = sum(item.points for item in items)
        step.add_points(_side(step.state, seat), points)
        step.say("score", seat, f"{who(seat)}: {join_words([item.label for item in items])} for "
                                f"{plural(points, 'point')}", points=points, breakdown=items)

    def _outcome(self, state, side: int) -> Outcome:
        winners = tuple(seat for seat in range(state.players) if _side(state, seat) == side)
        others = max(score for i, score in enumerate(state.scores) if i != side)
        return Outcome(Termination.TARGET_REACHED, winners, self.scores(state),
                       won(winners, state.scores[side], (others,)))

    def scores(self, state) -> tuple[int, ...]:
        return tuple(state.scores[_side(state, seat)] for seat in range(state.players))

    # -- helpers ------------------------------------------------------------------------------
    def _cards(self, action: Action, least: int, most: int) -> tuple[Card, ...]:
        if not least <= len(action.cards) <= most:
            wanted = number_words(least) if least == most else f"{number_words(least)} to {number_words(most)}"
            raise IllegalAction(f"show {wanted} card{'s' * (most > 1)}", seat=action.seat)
        try:
            cards = tuple(parse_card(c) for c in action.cards)
            for card in cards:
                value(card)
        except InvalidInput as err:
            raise IllegalAction(str(err), seat=action.seat) from None
        return cards

    def _check_unseen(self, state, card: Card, action: Action) -> None:
        """Table mode: a card already seen this deal cannot be turned up or played again."""
        if card in state.turned or card in state.played:
            raise IllegalAction(f"the {card.name} has already been seen this deal", seat=action.seat, card=card)

    # -- the table ---------------------------------------------------------------------------------
    def action_for_choice(self, state, choice: str) -> Action:
        """A capture chosen by its button: the set's label ("2H 6S") or "leave"."""
        if state.phase == CAPTURE:
            return Action("capture", state.turn, choice=choice)
        return super().action_for_choice(state, choice)

    def public_view(self, state) -> PublicView:
        """The cards on the table, the card waiting for its capture, and per seat: the dealer, the
        cards taken and the scopas made this deal (all in plain sight)."""
        target = state.options["target"]
        if state.phase == CUT:
            return PublicView(f"Draw for deal, game to {target}", "Drawn", state.cuts)
        notes = []
        for seat in range(state.players):
            side = _side(state, seat)
            said = ["deals"] * (seat == state.dealer)
            said += [f"{len(state.taken[side])} taken"] * bool(state.taken[side])
            said += [plural(state.scopas[side], "scopa")] * bool(state.scopas[side])
            notes.append(", ".join(said))
        status = (f"Deal {state.deal_no + 1}, round {state.round_no + 1} of {_rounds(state.players)}, "
                  f"game to {target}")
        played = ("Played", (state.pending,)) if state.pending else ("", ())
        return PublicView(status, "Table", state.table or state.turned * (state.phase == TURN_UP), *played,
                          tuple(notes))

    def public_hint(self, state) -> str | None:
        if state.phase != PLAY:
            return None
        takers = [v for v in range(1, 11) if any(captures(state.table, c) for c in _unseen_card(v, state.table))]
        if not takers:
            return "No card can take anything: the card played stays on the table"
        return f"A card worth {', '.join(map(str, takers))} can take from the table (J 8, Q 9, K 10)"

    def strong_choice(self, state, seat: int) -> Action | None:
        """Play the best-ranked capture (:func:`~engine.advice.quinze.capture_advice`)."""
        if state.phase != PLAY:
            return None
        best = capture_advice(state.table, state.hands[seat])[0]
        return Action("play", seat, (best.card, *best.taken))

    def advice_words(self, state, action: Action) -> str:
        if action.kind == "play" and len(action.cards) > 1:
            taken = " ".join(map(str, action.cards[1:]))
            return words(f"{who(action.seat)}: play {action.cards[0]} and take {taken}")
        return super().advice_words(state, action)

    def conceal(self, action: Action, state=None) -> Action:
        """At the table the played card is seen first; the cards it takes follow as they leave
        (:meth:`observe` supplies them when the engine asks)."""
        if action.kind == "play" and len(action.cards) > 1:
            return replace(action, cards=action.cards[:1])
        return action

    def heuristic(self, state, action: Action, seat: int) -> float:
        """Cards taken, weighted by what they score at the end of the deal, and scopas."""
        card = parse_card(action.cards[0]) if action.cards else state.pending
        pile = action.cards if len(action.cards) > 1 else ()
        if not pile:
            return -0.5 * (card.rank == 7) - 0.25 * (card.suit == "C") - 2 * (card == SEVEN_OF_CLUBS)
        sweep = len(pile) - 1 == len(state.table)
        return (len(pile) + 0.5 * sum(c.suit == "C" for c in pile) + sum(c.rank == 7 for c in pile)
                + 2 * (SEVEN_OF_CLUBS in pile) + 4 * sweep)

    def observe(self, table_state, dealer_states) -> Action | None:
        kinds = self.prompt(table_state).kinds
        if "cut" in kinds:
            seat = len(table_state.cuts)
            return Action("cut", seat, (dealer_states[0].cuts[seat],))
        if "turn_up" in kinds:
            twin = twin_at(table_state, dealer_states, "deal_no")
            return Action("turn_up", None, twin.turned[len(table_state.turned):])
        if "capture" in kinds:
            pile = dealer_states[-1].last_capture
            return Action("capture", table_state.turn, pile, _label(pile[1:]))
        return None
