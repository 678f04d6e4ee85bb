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
from dataclasses import dataclass
from enum import StrEnum
from statistics import mean

from engine.advice.its15 import closest_chance, its15_advice
from engine.decks import ITS15_COLOURS, ITS15_VALUE_CARDS, ItsFace, its15_value_cards, parse_its_face
from engine.errors import IllegalAction, InvalidInput
from engine.game import (
    DEALER, TABLE, Action, CardSlot, Game, GameState, Option, Outcome, Prompt, PublicView, Step,
    Termination, handles, set_at, shuffled, twin_at,
)
from engine.games.its15_showdown import TARGET, showdown
from engine.wording import plural, who, won_with

__all__ = ["Its15", "Its15State", "showdown"]

#: the phases of a game, each named by its value ("cut" ...)
Phase = StrEnum("Phase", "CENTRE EXTRA BIDDING REVEAL", module=__name__)
CENTRE, EXTRA, BIDDING, REVEAL = Phase
BROWNS = tuple(ItsFace("B", v) for v in range(1, 11))
GREENS = tuple(ItsFace("G", v) for v in range(1, 10))
COLOURS = tuple(ITS15_COLOURS)
#: the strong bot's betting: how much a bet's size is held against it (value cards are the score);
#: 0.3 won most often against the greedy bot of 0.05, 0.1, 0.2, 0.3 and 0.5 over 300 games (seeds 0-299)
RISK = 0.3


def _worth(card_id: str) -> int:
    """What a value card is worth, from its id ("V2R-1" is worth 2)."""
    return parse_its_face(card_id.split("-")[0]).value


def _others_held(state, seat: int) -> list[int]:
    """How many number cards each other player still in holds (public: dealt face down)."""
    return [state.held[s] for s in range(state.players) if s != seat and not state.folded[s]]


def _faces(cards) -> str:
    return " ".join(map(str, cards))


@dataclass(frozen=True)
class Its15State(GameState):
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


class Its15(Game):
    name = "its15"
    title = "It's 15"
    aliases = ("its 15", "it's 15", "it15")
    deck = "its15"
    players = (2, 3, 4, 5)
    state_type = Its15State
    card_actions = {"centre": CardSlot(1, "centre"), "stake": CardSlot(1, "pot"), "reveal": CardSlot(1)}
    options = (
        Option("rounds", 10, "rounds in a game"),                                          # seed text: 10
        Option("value_ones", ITS15_VALUE_CARDS[1], "value cards worth 1 each player starts with"),  # I1
        Option("value_twos", ITS15_VALUE_CARDS[2], "value cards worth 2 each player starts with"),  # I1
        Option("first_player", 1, "seat that starts round 1, the player whose age is closest to 15; "
                                  "0 for a seat the seed draws"),                                    # I10
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
        step = Step(Its15State(players, options, mode, seed, holdings))
        self._start_round(step, starter, 0)
        return step.state

    def _start_round(self, step: Step, starter: int, round_no: int) -> None:
        """A new round; dealer mode deals and turns up the centre card."""
        n = step.state.players
        step.update(
            phase=CENTRE, round_no=round_no, starter=starter, centre=None, hands=(), browns=(),
            held=(1,) * n, turn=starter, asked=0, opener=None, raiser=None, required=0,
            placed=(0,) * n, folded=(False,) * n, pot=(), staked=(), shown=((),) * n,
        )
        if step.state.mode == DEALER:
            browns = shuffled(BROWNS, step.state.seed, f"brown{round_no}")
            green = shuffled(GREENS, step.state.seed, f"green{round_no}")[0]
            step.update(hands=tuple((browns[s],) for s in range(n)), browns=browns[n:])
            self._turn_centre(step, green)

    def _turn_centre(self, step: Step, card: ItsFace) -> None:
        step.update(centre=card, phase=EXTRA, turn=step.state.starter)
        step.say("centre", None, f"Round {step.state.round_no + 1}: the centre card is {card.value}", cards=(card,))

    # -- the prompt ---------------------------------------------------------------------------
    def _prompt(self, state: Its15State) -> Prompt:
        seat, name = state.turn, who(state.turn)
        if state.phase == CENTRE:
            return Prompt(None, ("centre",), "Turn a green card up in the centre and deal each player "
                                             "a brown card face down")
        if state.phase == EXTRA:
            return Prompt(seat, ("take", "stand"), f"{name}: take another brown card, or stand", ("take", "stand"))
        if state.phase == REVEAL:
            return Prompt(seat, ("reveal",), f"{name}: turn your number cards face up")
        staked = sum(map(_worth, state.staked))
        laid = f" ({staked} laid in the pot)" if staked else ""
        if state.opener is None:
            return Prompt(seat, ("stake", "bid", "decline"), f"{name}: bid value cards, or decline{laid}",
                          ("bid", "decline"))
        need = state.required - state.placed[seat]
        choices = ("match", "pass") if state.raiser is not None else ("match", "raise", "pass")
        raise_text = ", raise" if "raise" in choices else ""
        # "raise" stays an accepted kind after the raise, so that a second one is refused in words.
        return Prompt(seat, ("stake", "match", "raise", "pass"), f"{name}: match with {need} more (the bid is "
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
    @handles("centre")
    def _centre(self, step: Step, action: Action) -> None:
        cards = self._number_cards(action, 1)
        if cards[0].kind != "G":
            raise IllegalAction(f"the centre card is a green one, not the {cards[0].name}")
        self._turn_centre(step, cards[0])

    @handles("take", "stand")
    def _extra_card(self, step: Step, action: Action) -> None:
        """Each player in turn from the starting player takes one more brown card, or stands (I3)."""
        state, seat = step.state, action.seat
        if action.kind == "take":
            if state.mode == DEALER:
                step.update(hands=set_at(state.hands, seat, state.hands[seat] + state.browns[:1]),
                            browns=state.browns[1:])
            step.update(held=set_at(state.held, seat, 2))
            step.say("take", seat, f"{who(seat)} takes another brown card")
        else:
            step.say("stand", seat, f"{who(seat)} stands")
        asked = state.asked + 1
        if asked < state.players:
            step.update(asked=asked, turn=(state.starter + asked) % state.players)
        else:
            step.update(phase=BIDDING, asked=0, turn=state.starter)

    @handles("stake")
    def _stake(self, step: Step, action: Action) -> None:
        """Value cards laid in the pot, one by one as a camera sees them; a button makes them a bet."""
        state, seat = step.state, action.seat
        cards, amount = self._value_cards(state, action, staked=False)
        holding = tuple(c for c in state.holdings[seat] if c not in cards)
        step.update(holdings=set_at(state.holdings, seat, holding), staked=state.staked + cards)
        step.say("stake", seat, f"{who(seat)} lays {amount} in the pot", points=amount, cards=cards)

    @handles("bid")
    def _bid(self, step: Step, action: Action) -> None:
        cards, amount = self._value_cards(step.state, action)
        step.update(opener=action.seat, required=amount)
        self._place(step, action.seat, cards)
        step.say("bid", action.seat, f"{who(action.seat)} bids {amount}", points=amount, cards=cards)
        self._next_bettor(step, action.seat)

    @handles("decline")
    def _decline(self, step: Step, action: Action) -> None:
        self._take_back(step, action.seat)
        step.say("decline", action.seat, f"{who(action.seat)} declines to bid")
        asked = step.state.asked + 1
        if asked == step.state.players:
            step.say("no_bid", None, "Nobody bids: the cards are turned up for nothing")
            self._reveal_or_settle(step)
        else:
            step.update(asked=asked, turn=(action.seat + 1) % step.state.players)

    @handles("match")
    def _match(self, step: Step, action: Action) -> None:
        seat = action.seat
        cards, amount = self._value_cards(step.state, action)
        need = step.state.required - step.state.placed[seat]
        if amount != need:
            raise IllegalAction(f"matching takes exactly {need}, not {amount}", seat=seat)
        self._place(step, seat, cards)
        step.say("match", seat, f"{who(seat)} matches", points=amount, cards=cards)
        self._next_bettor(step, seat)

    @handles("raise")
    def _raise(self, step: Step, action: Action) -> None:
        state, seat = step.state, action.seat
        if state.raiser is not None:
            raise IllegalAction(f"{who(state.raiser, 'seat')} has already raised; the bid is raised once a round", seat=seat)
        cards, amount = self._value_cards(state, action)
        need = state.required - state.placed[seat]
        if amount <= need:
            raise IllegalAction(f"a raise places more than the {need} that matching takes", seat=seat)
        self._place(step, seat, cards)
        step.update(raiser=seat, required=step.state.placed[seat])
        step.say("raise", seat, f"{who(seat)} raises the bid to {step.state.required}", points=amount, cards=cards)
        self._next_bettor(step, seat)

    @handles("pass")
    def _pass(self, step: Step, action: Action) -> None:
        seat = action.seat
        self._take_back(step, seat)
        step.update(folded=set_at(step.state.folded, seat, True))
        step.say("pass", seat, f"{who(seat)} passes")
        self._next_bettor(step, seat)

    def _place(self, step: Step, seat: int, cards: tuple) -> None:
        """``cards`` (the staked ones among them) become the seat's bet, in the pot."""
        state = step.state
        holding = tuple(c for c in state.holdings[seat] if c not in cards)
        step.update(holdings=set_at(state.holdings, seat, holding), pot=state.pot + cards, staked=(),
                    placed=set_at(state.placed, seat, state.placed[seat] + sum(map(_worth, cards))))

    def _take_back(self, step: Step, seat: int) -> None:
        """A player who declines or passes takes back the cards laid but not bet."""
        holding = tuple(sorted(step.state.holdings[seat] + step.state.staked))
        step.update(holdings=set_at(step.state.holdings, seat, holding), staked=())

    def _next_bettor(self, step: Step, seat: int) -> None:
        """The next player still in who has not placed the bid; the reveal when there is none."""
        state = step.state
        for offset in range(1, state.players + 1):
            other = (seat + offset) % state.players
            if not state.folded[other] and state.placed[other] < state.required:
                step.update(turn=other)
                return
        self._reveal_or_settle(step)

    # -- the reveal -------------------------------------------------------------------------
    def _active(self, state) -> list[int]:
        """Seats still in, from the starting player round."""
        order = [(state.starter + k) % state.players for k in range(state.players)]
        return [seat for seat in order if not state.folded[seat]]

    def _reveal_or_settle(self, step: Step) -> None:
        state = step.state
        active = self._active(state)
        if len(active) == 1:
            step.say("uncontested", active[0], f"Everyone else passed: {who(active[0], 'seat')} wins the round")
            self._settle(step, active[0])
        elif state.mode == TABLE:
            step.update(phase=REVEAL, turn=active[0])
        else:
            for seat in active:
                self._say_total(step, seat, state.hands[seat])
            self._settle(step, showdown({seat: [c.value for c in state.hands[seat]] for seat in active},
                                        state.centre.value))

    def _say_total(self, step: Step, seat: int, cards) -> None:
        """A seat's number cards shown, with what they make with the centre card."""
        centre = step.state.centre.value
        total = sum(c.value for c in cards) + centre
        step.say("reveal", seat, f"{who(seat)}: {_faces(cards)} and the centre {centre} make {total}",
                 cards=tuple(cards))

    @handles("reveal")
    def _reveal(self, step: Step, action: Action) -> None:
        state, seat = step.state, action.seat
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
        step.update(shown=set_at(state.shown, seat, shown))
        state = step.state
        if len(shown) < state.held[seat]:
            step.say("reveal", seat, f"{who(seat)} shows {_faces(cards)}", cards=cards)
            return
        self._say_total(step, seat, shown)
        waiting = [s for s in self._active(state) if len(state.shown[s]) < state.held[s]]
        if waiting:
            step.update(turn=waiting[0])
            return
        numbers = {s: [c.value for c in state.shown[s]] for s in self._active(state)}
        self._settle(step, showdown(numbers, state.centre.value))

    def _settle(self, step: Step, winner: int) -> None:
        """The winner takes the pot (I9); the next round, or the end after the last one."""
        state = step.state
        won = sum(map(_worth, state.pot))
        step.update(holdings=set_at(state.holdings, winner, tuple(sorted(state.holdings[winner] + state.pot))), pot=())
        step.say("round_won", winner, f"{who(winner)} wins round {state.round_no + 1} and {plural(won, 'point')}",
                 points=won)
        step.say("round_over", None, f"Round {state.round_no + 1} is over")
        if state.round_no + 1 < state.options["rounds"]:
            self._start_round(step, winner, state.round_no + 1)
            return
        scores = self.scores(step.state)
        best = max(scores)
        winners = tuple(seat for seat, score in enumerate(scores) if score == best)
        step.finish(Outcome(Termination.ROUNDS_PLAYED, winners, scores, won_with(winners, best)), winners[0])

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

    def strong_choice(self, state, seat: int) -> Action | None:
        """Take another card when that raises the exact chance of ending closest; bet to maximise
        the expected value cards won (that chance times the pot and every other player's match)
        less the cards placed and a penalty for the bet's size (:data:`RISK`)."""
        if state.phase not in (EXTRA, BIDDING):
            return None
        others = _others_held(state, seat)
        mine = [c.value for c in state.hands[seat]]
        if state.phase == EXTRA:
            advice = its15_advice(mine, state.centre.value, others)
            return Action("take" if (advice.chance_if_take or 0) > advice.chance else "stand", seat)
        chance = closest_chance(mine, state.centre.value, others)
        pot = sum(map(_worth, state.pot))

        def gain(action: Action) -> float:
            """Expected value cards won less those placed, if every other player still in matches."""
            amount = sum(map(_worth, action.cards)) if action.kind in ("bid", "match", "raise") else 0
            return chance * (pot + amount * (1 + len(others))) - amount - RISK * amount * amount

        actions = [a for a in self.legal_actions(state) if a.seat == seat]
        return max(actions, key=gain) if actions else None

    def advice_words(self, state, action: Action) -> str:
        """Before the bets, the chance of ending closest with and without another card."""
        if state.phase != EXTRA:
            return super().advice_words(state, action)
        mine = [c.value for c in state.hands[action.seat]]
        return its15_advice(mine, state.centre.value, _others_held(state, action.seat)).say()

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
        twin = twin_at(table_state, dealer_states, "round_no")
        if "centre" in kinds:
            return Action("centre", None, (twin.centre,))
        if "reveal" in kinds:
            return Action("reveal", table_state.turn, twin.hands[table_state.turn])
        return None
