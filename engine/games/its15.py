"""It's 15 for 2 to 5 players with its own card set, in dealer mode and table mode.

A round (RULES.md I1-I12): a green card face up in the centre; one brown card each, face down;
each player in turn from the starting player may take one more brown card (I3). Then the betting:
from the starting player each may bid (place value cards) or decline (I4); once someone has bid,
every player still in matches the bid or passes; one raise per round, by any player on their turn,
after which everyone still in tops up to the new amount or passes (I5). Bids are paid exactly with
value cards the player holds; cards placed by a player who later passes stay in the pot (I6). Then
the number cards are turned up: the total with the centre card closest to 15 wins, going over is
no bust (I7), a tie goes to the highest single brown card (I8); the winner takes every value card
in the pot. If nobody bids, the cards are turned up just the same and the winner wins nothing
(I4). The winner starts the next round (I10); number cards are reshuffled each round (I11). After
ten rounds the most points wins, points being the value cards held; a tie is a shared win (I9).

Value cards are physical cards: each seat starts with its colour's cards (seat 1 red, then blue,
yellow, purple, orange), every copy with its own id ("V1R-3"), and the game follows the ids, so a
bid names the very cards placed in the pot. Actions take those ids (or :class:`PhysicalCard`
values, or a face such as "V1R" meaning any copy the player holds).

In table mode the engine sees the centre card and the value cards placed in the pot; the number
cards stay face down until the reveal, when each player still in shows them ("reveal", one card
or all at once). Buttons name the decisions: take / stand, bid / decline, match / raise / pass.
A bid can carry its value cards, or the cards can first be laid in the pot one by one ("stake",
as the camera sees them) and the button then bets what lies there; a player who declines or passes
takes back cards laid but not bet.

Public and stable: :func:`showdown`.

>>> showdown({0: [9, 5], 1: [6]}, 4)      # 18 is closer to 15 than 10: going over is no bust
0
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from statistics import mean

from engine.decks import ITS15_COLOURS, ITS15_VALUE_CARDS, ItsFace, its15_value_cards, parse_its_face
from engine.errors import IllegalAction, InvalidInput
from engine.game import (
    DEALER, TABLE, Action, CardSlot, Event, Game, Option, Outcome, Prompt, PublicView, Termination,
    register, shuffled,
)
from engine.wording import join_words, plural

__all__ = ["Its15", "Its15State", "showdown"]

CENTRE, EXTRA, BIDDING, REVEAL = "centre", "extra", "bidding", "reveal"
TARGET = 15
BROWNS = tuple(ItsFace("B", v) for v in range(1, 11))
GREENS = tuple(ItsFace("G", v) for v in range(1, 10))
COLOURS = tuple(ITS15_COLOURS)


def showdown(number_cards: Mapping[int, Iterable[int]], center: int) -> int:
    """The seat that wins the reveal: its number cards plus ``center`` closest to 15, over or under
    (I7); a tie goes to the seat holding the highest single card (I8), then the next highest.

    >>> showdown({0: [8], 1: [3, 5], 2: [10]}, 7)
    0
    >>> showdown({0: [9], 1: [7]}, 7)
    0

    :raises InvalidInput: with no seats, a seat without number cards, a value that is not a whole
        number, or two seats whose cards cannot be told apart (brown cards are unique).
    """
    hands = {seat: sorted(values, reverse=True) for seat, values in number_cards.items()}
    if not hands:
        raise InvalidInput("a showdown needs at least one seat")
    for seat, values in hands.items():
        if not values or not all(isinstance(v, int) for v in values):
            raise InvalidInput(f"seat {seat + 1} must show whole-number cards, not {values!r}")

    def rank(seat: int) -> tuple:
        return abs(TARGET - center - sum(hands[seat])), [-v for v in hands[seat]]

    ranked = sorted(hands, key=rank)
    if len(ranked) > 1 and rank(ranked[0]) == rank(ranked[1]):
        raise InvalidInput(f"seats {ranked[0] + 1} and {ranked[1] + 1} show the same cards; brown cards are unique")
    return ranked[0]


def _worth(card_id: str) -> int:
    """What a value card is worth, from its id ("V2R-1" is worth 2)."""
    return parse_its_face(card_id.split("-")[0]).value


def _put(values: tuple, index: int, item) -> tuple:
    return values[:index] + (item,) + values[index + 1:]


def _faces(cards) -> str:
    return " ".join(map(str, cards))


@dataclass(frozen=True)
class Its15State:
    players: int
    options: dict
    mode: str
    seed: int
    holdings: tuple                     # per seat, the ids of the value cards it holds
    phase: str = CENTRE
    round_no: int = 0
    starter: int = 0
    centre: ItsFace | None = None
    hands: tuple = ()                   # dealer mode: each seat's number cards
    browns: tuple = ()                  # dealer mode: the brown pile, top first
    held: tuple[int, ...] = ()          # number cards each seat holds (1 or 2)
    turn: int = 0
    asked: int = 0                      # seats that chose about an extra card, or declined to open
    opener: int | None = None
    raiser: int | None = None
    required: int = 0                   # what each player still in must have placed
    placed: tuple[int, ...] = ()        # value placed in the pot this round, per seat
    folded: tuple[bool, ...] = ()
    pot: tuple = ()                     # ids of the value cards wagered this round
    staked: tuple = ()                  # ids laid in the pot by the seat to act, not yet a bet
    shown: tuple = ()                   # table mode: number cards turned up, per seat
    outcome: Outcome | None = None


@register
class Its15(Game):
    name = "its15"
    title = "It's 15"
    aliases = ("its 15", "it's 15", "it15")
    deck = "its15"
    players = (2, 3, 4, 5)
    state_type = Its15State
    card_actions = {"centre": CardSlot(1, "centre"), "stake": CardSlot(1, "pot"), "reveal": CardSlot(1)}
    options = (
        Option("rounds", 10, "rounds in a game (seed: 10)"),
        Option("value_ones", ITS15_VALUE_CARDS[1], "value cards worth 1 each player starts with (I1)"),
        Option("value_twos", ITS15_VALUE_CARDS[2], "value cards worth 2 each player starts with (I1)"),
        Option("first_player", 1, "seat that starts round 1, the player whose age is closest to 15; "
                                  "0 for a seat the seed draws (I10)"),
    )

    # -- construction -----------------------------------------------------------------------
    def _new_game(self, players, options, mode, seed):
        counts = {1: options["value_ones"], 2: options["value_twos"]}
        if min(counts.values()) < 0 or not sum(counts.values()):
            raise InvalidInput("each player needs at least one value card, and no count can be negative")
        if options["rounds"] < 1:
            raise InvalidInput("a game has at least one round")
        if not 0 <= options["first_player"] <= players:
            raise InvalidInput(f"first_player is a seat from 1 to {players}, or 0 for a drawn seat")
        holdings = tuple(tuple(c.id for c in its15_value_cards(COLOURS[s], counts)) for s in range(players))
        starter = options["first_player"] - 1
        if starter < 0:
            starter = random.Random(f"{seed}:first").randrange(players)
        return self._start_round(Its15State(players, options, mode, seed, holdings), starter, 0)[0]

    def _start_round(self, state: Its15State, starter: int, round_no: int):
        """A new round: ``(state, events)``; dealer mode deals and turns up the centre card."""
        n = state.players
        state = replace(
            state, phase=CENTRE, round_no=round_no, starter=starter, centre=None, hands=(), browns=(),
            held=(1,) * n, turn=starter, asked=0, opener=None, raiser=None, required=0,
            placed=(0,) * n, folded=(False,) * n, pot=(), staked=(), shown=((),) * n,
        )
        if state.mode == TABLE:
            return state, []
        browns = shuffled(BROWNS, state.seed, f"brown{round_no}")
        green = shuffled(GREENS, state.seed, f"green{round_no}")[0]
        state = replace(state, hands=tuple((browns[s],) for s in range(n)), browns=browns[n:])
        return self._turn_centre(state, green)

    def _turn_centre(self, state: Its15State, card: ItsFace):
        state = replace(state, centre=card, phase=EXTRA, turn=state.starter)
        return state, [Event("centre", None, cards=(card,), text=f"Round {state.round_no + 1}: the centre card is {card.value}")]

    # -- the prompt ---------------------------------------------------------------------------
    def _prompt(self, state: Its15State) -> Prompt:
        seat, who = state.turn, f"Seat {state.turn + 1}"
        if state.phase == CENTRE:
            return Prompt(None, ("centre",), "Turn a green card up in the centre and deal each player "
                                             "a brown card face down")
        if state.phase == EXTRA:
            return Prompt(seat, ("take", "stand"), f"{who}: take another brown card, or stand", ("take", "stand"))
        if state.phase == REVEAL:
            return Prompt(seat, ("reveal",), f"{who}: turn your number cards face up")
        staked = sum(map(_worth, state.staked))
        laid = f" ({staked} laid in the pot)" if staked else ""
        if state.opener is None:
            return Prompt(seat, ("stake", "bid", "decline"), f"{who}: bid value cards, or decline{laid}",
                          ("bid", "decline"))
        need = state.required - state.placed[seat]
        choices = ("match", "pass") if state.raiser is not None else ("match", "raise", "pass")
        raise_text = ", raise" if "raise" in choices else ""
        # "raise" stays an accepted kind after the raise, so that a second one is refused in words.
        return Prompt(seat, ("stake", "match", "raise", "pass"), f"{who}: match with {need} more (the bid is "
                                                                 f"{state.required}){raise_text}, or pass{laid}",
                      choices)

    # -- legal actions ------------------------------------------------------------------------
    def legal_actions(self, state: Its15State) -> list[Action]:
        if state.outcome or state.phase in (CENTRE, REVEAL):
            return []
        seat = state.turn
        if state.phase == EXTRA:
            return [Action("take", seat), Action("stand", seat)]
        staked = sum(map(_worth, state.staked))
        bets = [(cards, staked + sum(map(_worth, cards))) for cards in self._bets(state.holdings[seat])]
        bets = [(cards, amount) for cards, amount in bets if amount]
        if state.opener is None:
            return [Action("bid", seat, cards) for cards, _ in bets] + [Action("decline", seat)]
        need = state.required - state.placed[seat]
        actions = [Action("match", seat, cards) for cards, amount in bets if amount == need]
        if state.raiser is None:
            actions += [Action("raise", seat, cards) for cards, amount in bets if amount > need]
        return actions + [Action("pass", seat)]

    def _bets(self, holding: tuple) -> list[tuple]:
        """Every different set of value cards to add from ``holding``, none included (lowest
        copy numbers first). Laying cards one by one ("stake") reaches the same bets."""
        ones = [c for c in holding if _worth(c) == 1]
        twos = [c for c in holding if _worth(c) == 2]
        return [tuple(ones[:a] + twos[:b]) for a in range(len(ones) + 1) for b in range(len(twos) + 1)]

    # -- applying -----------------------------------------------------------------------------
    def _apply(self, state: Its15State, action: Action):
        return getattr(self, f"_do_{action.kind}")(state, action)

    def _do_centre(self, state, action):
        cards = self._number_cards(action, 1)
        if cards[0].kind != "G":
            raise IllegalAction(f"the centre card is a green one, not the {cards[0].name}")
        return self._turn_centre(state, cards[0])

    def _do_take(self, state, action):
        seat = action.seat
        if state.mode == DEALER:
            state = replace(state, hands=_put(state.hands, seat, state.hands[seat] + state.browns[:1]),
                            browns=state.browns[1:])
        state = replace(state, held=_put(state.held, seat, 2))
        return self._next_extra(state, [Event("take", seat, text=f"Seat {seat + 1} takes another brown card")])

    def _do_stand(self, state, action):
        return self._next_extra(state, [Event("stand", action.seat, text=f"Seat {action.seat + 1} stands")])

    def _next_extra(self, state, events):
        asked = state.asked + 1
        if asked < state.players:
            return replace(state, asked=asked, turn=(state.starter + asked) % state.players), events
        return replace(state, phase=BIDDING, asked=0, turn=state.starter), events

    def _do_stake(self, state, action):
        """Value cards laid in the pot, one by one as a camera sees them; a button makes them a bet."""
        cards, amount = self._value_cards(state, action, staked=False)
        holding = tuple(c for c in state.holdings[action.seat] if c not in cards)
        state = replace(state, holdings=_put(state.holdings, action.seat, holding), staked=state.staked + cards)
        return state, [Event("stake", action.seat, amount, cards, f"Seat {action.seat + 1} lays {amount} in the pot")]

    def _do_bid(self, state, action):
        cards, amount = self._value_cards(state, action)
        state = self._place(replace(state, opener=action.seat, required=amount), action.seat, cards)
        event = Event("bid", action.seat, amount, cards, f"Seat {action.seat + 1} bids {amount}")
        return self._next_bettor(state, action.seat, [event])

    def _do_decline(self, state, action):
        state = self._take_back(state, action.seat)
        events = [Event("decline", action.seat, text=f"Seat {action.seat + 1} declines to bid")]
        asked = state.asked + 1
        if asked == state.players:
            events.append(Event("no_bid", None, text="Nobody bids: the cards are turned up for nothing"))
            return self._reveal_or_settle(state, events)
        return replace(state, asked=asked, turn=(action.seat + 1) % state.players), events

    def _do_match(self, state, action):
        seat = action.seat
        cards, amount = self._value_cards(state, action)
        need = state.required - state.placed[seat]
        if amount != need:
            raise IllegalAction(f"matching takes exactly {need}, not {amount}", seat=seat)
        state = self._place(state, seat, cards)
        return self._next_bettor(state, seat, [Event("match", seat, amount, cards, f"Seat {seat + 1} matches")])

    def _do_raise(self, state, action):
        seat = action.seat
        if state.raiser is not None:
            raise IllegalAction(f"seat {state.raiser + 1} has already raised; the bid is raised once a round", seat=seat)
        cards, amount = self._value_cards(state, action)
        need = state.required - state.placed[seat]
        if amount <= need:
            raise IllegalAction(f"a raise places more than the {need} that matching takes", seat=seat)
        state = self._place(state, seat, cards)
        state = replace(state, raiser=seat, required=state.placed[seat])
        event = Event("raise", seat, amount, cards, f"Seat {seat + 1} raises the bid to {state.required}")
        return self._next_bettor(state, seat, [event])

    def _do_pass(self, state, action):
        seat = action.seat
        state = replace(self._take_back(state, seat), folded=_put(state.folded, seat, True))
        return self._next_bettor(state, seat, [Event("pass", seat, text=f"Seat {seat + 1} passes")])

    def _place(self, state, seat: int, cards: tuple) -> Its15State:
        """``cards`` (the staked ones among them) become the seat's bet, in the pot."""
        holding = tuple(c for c in state.holdings[seat] if c not in cards)
        return replace(state, holdings=_put(state.holdings, seat, holding), pot=state.pot + cards, staked=(),
                       placed=_put(state.placed, seat, state.placed[seat] + sum(map(_worth, cards))))

    def _take_back(self, state, seat: int) -> Its15State:
        """A player who declines or passes takes back the cards laid but not bet."""
        holding = tuple(sorted(state.holdings[seat] + state.staked))
        return replace(state, holdings=_put(state.holdings, seat, holding), staked=())

    def _next_bettor(self, state, seat: int, events):
        """The next player still in who has not placed the bid; the reveal when there is none."""
        for step in range(1, state.players + 1):
            other = (seat + step) % state.players
            if not state.folded[other] and state.placed[other] < state.required:
                return replace(state, turn=other), events
        return self._reveal_or_settle(state, events)

    # -- the reveal -------------------------------------------------------------------------
    def _active(self, state) -> list[int]:
        """Seats still in, from the starting player round."""
        order = [(state.starter + k) % state.players for k in range(state.players)]
        return [seat for seat in order if not state.folded[seat]]

    def _reveal_or_settle(self, state, events):
        active = self._active(state)
        if len(active) == 1:
            events.append(Event("uncontested", active[0], text=f"Everyone else passed: seat {active[0] + 1} wins the round"))
            return self._settle(state, active[0], events)
        if state.mode == TABLE:
            return replace(state, phase=REVEAL, turn=active[0]), events
        for seat in active:
            events.append(self._reveal_event(state, seat, state.hands[seat]))
        winner = showdown({seat: [c.value for c in state.hands[seat]] for seat in active}, state.centre.value)
        return self._settle(state, winner, events)

    def _reveal_event(self, state, seat: int, cards) -> Event:
        total = sum(c.value for c in cards) + state.centre.value
        return Event("reveal", seat, cards=tuple(cards),
                     text=f"Seat {seat + 1}: {_faces(cards)} and the centre {state.centre.value} make {total}")

    def _do_reveal(self, state, action):
        seat = action.seat
        cards = self._number_cards(action, state.held[seat] - len(state.shown[seat]))
        seen = {c for shown in state.shown for c in shown}
        for card in cards:
            if card.kind != "B":
                raise IllegalAction(f"number cards are brown; the {card.name} is not yours to show", seat=seat)
            if card in seen:
                raise IllegalAction(f"the {card.name} has already been shown", seat=seat)
        if len(set(cards)) != len(cards):
            raise IllegalAction("show each number card once", seat=seat)
        shown = state.shown[seat] + cards
        state = replace(state, shown=_put(state.shown, seat, shown))
        if len(shown) < state.held[seat]:
            return state, [Event("reveal", seat, cards=cards, text=f"Seat {seat + 1} shows {_faces(cards)}")]
        events = [self._reveal_event(state, seat, shown)]
        waiting = [s for s in self._active(state) if len(state.shown[s]) < state.held[s]]
        if waiting:
            return replace(state, turn=waiting[0]), events
        numbers = {s: [c.value for c in state.shown[s]] for s in self._active(state)}
        return self._settle(state, showdown(numbers, state.centre.value), events)

    def _settle(self, state, winner: int, events):
        """The winner takes the pot (I9); the next round, or the end after the last one."""
        holding = tuple(sorted(state.holdings[winner] + state.pot))
        won = sum(map(_worth, state.pot))
        state = replace(state, holdings=_put(state.holdings, winner, holding), pot=())
        events.append(Event("round_won", winner, won, text=f"Seat {winner + 1} wins round {state.round_no + 1}"
                                                            f" and {plural(won, 'point')}"))
        events.append(Event("round_over", None, text=f"Round {state.round_no + 1} is over"))
        if state.round_no + 1 < state.options["rounds"]:
            state, more = self._start_round(state, winner, state.round_no + 1)
            return state, events + more
        scores = self.scores(state)
        best = max(scores)
        winners = tuple(seat for seat, score in enumerate(scores) if score == best)
        if len(winners) == 1:
            text = f"Seat {winners[0] + 1} wins with {plural(best, 'point')}"
        else:
            text = f"Seats {join_words([str(s + 1) for s in winners])} share the win with {plural(best, 'point')}"
        state = replace(state, outcome=Outcome(Termination.ROUNDS_PLAYED, winners, scores, text))
        events.append(Event("game_over", winners[0], text=text))
        return state, events

    def scores(self, state) -> tuple[int, ...]:
        return tuple(sum(map(_worth, holding)) for holding in state.holdings)

    # -- helpers ------------------------------------------------------------------------------
    def _number_cards(self, action: Action, most: int) -> tuple[ItsFace, ...]:
        if not 1 <= len(action.cards) <= most:
            raise IllegalAction(f"show {'one card' if most == 1 else f'one to {most} cards'}", seat=action.seat)
        try:
            return tuple(parse_its_face(getattr(card, "face", card)) for card in action.cards)
        except InvalidInput as err:
            raise IllegalAction(str(err), seat=action.seat) from None

    def _value_cards(self, state, action: Action, staked: bool = True) -> tuple[tuple[str, ...], int]:
        """The ids of the value cards an action places (after those already laid in the pot,
        when ``staked``) and what they are worth.

        An item is an id ("V1R-3"), a :class:`PhysicalCard`, or a face ("V1R": any copy held).
        """
        seat, holding = action.seat, state.holdings[action.seat]
        chosen = list(state.staked) if staked else []
        for item in action.cards:
            text = str(getattr(item, "id", item)).strip().upper()
            free = [c for c in holding if c not in chosen and (c == text or c.split("-")[0] == text)]
            if not free:
                raise IllegalAction(f"you do not hold the value card {text}", seat=seat)
            chosen.append(free[0])
        if not chosen:
            raise IllegalAction("place value cards in the pot first", seat=seat)
        return tuple(chosen), sum(map(_worth, chosen))

    def public_view(self, state) -> PublicView:
        """The centre card, the pot (or the cards shown at the reveal) and each seat's part."""
        status = f"Round {state.round_no + 1} of {state.options['rounds']}"
        centre = ("Centre", (state.centre,)) if state.centre else ("", ())
        pot = tuple(parse_its_face(c.split("-")[0]) for c in state.pot + state.staked)
        if state.phase == REVEAL:
            play = ("Shown", tuple(c for shown in state.shown for c in shown))
        else:
            play = (f"Pot {sum(map(_worth, state.pot + state.staked))}", pot) if pot else ("", ())
        notes = []
        for seat in range(state.players):
            words = ["starts"] * (seat == state.starter) + ["two cards"] * (state.held[seat] == 2)
            words += ["passed"] if state.folded[seat] else [f"in for {state.placed[seat]}"] * bool(state.placed[seat])
            notes.append(", ".join(words))
        return PublicView(status, *centre, *play, tuple(notes))

    def heuristic(self, state, action: Action, seat: int) -> float:
        """Take a card when it brings the total closer on average; bet what the hand is worth."""
        own = [c.value for c in state.hands[seat]]
        total = sum(own) + state.centre.value
        distance = abs(TARGET - total)
        if action.kind in ("take", "stand"):
            after = mean(abs(TARGET - total - v) for v in range(1, 11) if v not in own)
            return distance - after if action.kind == "take" else 0.0
        if action.kind not in ("bid", "match", "raise"):
            return 0.0
        amount = sum(map(_worth, action.cards))
        chance = max(0.05, 1 - distance / 4) ** (state.players - 1)
        # Expected gain, less a little for risk, so that a strong hand bets a few cards, not all.
        return chance * (sum(map(_worth, state.pot)) + 2 * amount) - amount - amount * amount / 10

    def observe(self, table_state, dealer_states) -> Action | None:
        kinds = self.prompt(table_state).kinds
        twin = next((s for s in reversed(dealer_states) if s.round_no == table_state.round_no), dealer_states[-1])
        if "centre" in kinds:
            return Action("centre", None, (twin.centre,))
        if "reveal" in kinds:
            return Action("reveal", table_state.turn, twin.hands[table_state.turn])
        return None
