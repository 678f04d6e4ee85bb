"""Beggar-my-neighbour for two players: the sixth game of docs/adding_a_game.md, kept in the tests.

The pack is dealt out face down, half each. In turn each player lays the top card of their pile
face up on a common pile. A court card or an ace asks a penalty of the other player: one card for
a jack, two for a queen, three for a king, four for an ace, laid one by one. If a penalty card
shows among them, paying stops and the other player now pays for that one; if none shows, the
player who laid the last court card or ace takes the whole common pile under their own and leads.
A player who must lay a card and has none loses (the other takes the common pile first). Games can
run very long, so after ``limit`` cards laid the player holding more cards wins (a tie is shared).

In table mode the players deal themselves and the engine counts: it learns each card as it is laid
and refuses a card already lying on the common pile.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import standard_52
from engine.errors import IllegalAction
from engine.game import (
    DEALER, Action, CardSlot, Game, GameState, Option, Outcome, Prompt, PublicView, Step, Termination,
    add_at, handles, one_card, set_at, shuffled,
)
from engine.wording import who, won_with

#: the cards owed to a court card or an ace, by rank
PENALTIES = {11: 1, 12: 2, 13: 3, 1: 4}


@dataclass(frozen=True)
class BeggarState(GameState):
    held: tuple[int, ...] = (26, 26)    # cards in each player's face-down pile
    stocks: tuple = ()                  # dealer mode: each player's face-down pile, top first
    pile: tuple = ()                    # the common pile, face up, in the order laid
    turn: int = 0
    owed: int = 0                       # cards the player to lay still owes
    claimant: int | None = None         # who laid the court card or ace being paid for
    laid: int = 0                       # cards laid this game


class BeggarMyNeighbour(Game):
    name = "beggar"
    title = "Beggar-my-neighbour"
    aliases = ("beggar my neighbour", "strip jack naked")
    players = (2,)
    state_type = BeggarState
    card_actions = {"lay": CardSlot(1, "centre")}
    options = (Option("limit", 2000, "cards laid before the player holding more cards wins"),)

    def _new_game(self, players, options, mode, seed):
        state = BeggarState(players, options, mode, seed)
        if mode != DEALER:
            return state
        pack = shuffled(standard_52(), seed, "deal")
        return BeggarState(players, options, mode, seed, stocks=(pack[0::2], pack[1::2]))

    def _prompt(self, state: BeggarState) -> Prompt:
        seat = state.turn
        debt = f" ({state.owed} owed to {who(state.claimant, 'seat')})" if state.owed else ""
        return Prompt(seat, ("lay",), f"{who(seat)}: lay the top card of your pile{debt}")

    def legal_actions(self, state: BeggarState) -> list[Action]:
        if state.outcome or state.mode != DEALER:
            return []
        return [Action("lay", state.turn, state.stocks[state.turn][:1])]

    @handles("lay")
    def _lay(self, step: Step, action: Action) -> None:
        state, seat, card = step.state, action.seat, one_card(action)
        if state.mode == DEALER and card != state.stocks[seat][0]:
            raise IllegalAction("lay the top card of your pile, unseen", seat=seat, card=card)
        if card in state.pile:
            raise IllegalAction(f"the {card.name} is already on the pile", seat=seat, card=card)
        if state.stocks:
            step.update(stocks=set_at(state.stocks, seat, state.stocks[seat][1:]))
        step.update(held=add_at(state.held, seat, -1), pile=state.pile + (card,), laid=state.laid + 1)
        step.say("lay", seat, f"{who(seat)} lays the {card.name}", cards=(card,))
        other = 1 - seat
        if card.rank in PENALTIES:
            step.update(owed=PENALTIES[card.rank], claimant=seat, turn=other)
        elif state.claimant is None:
            step.update(turn=other)
        elif state.owed > 1:
            step.update(owed=state.owed - 1)
        else:
            self._take_pile(step)
        self._check_end(step)

    def _take_pile(self, step: Step) -> None:
        state = step.state
        taker = state.claimant
        stocks = set_at(state.stocks, taker, state.stocks[taker] + state.pile) if state.stocks else ()
        step.update(held=add_at(state.held, taker, len(state.pile)), stocks=stocks, pile=(), turn=taker,
                    owed=0, claimant=None)
        step.say("take", taker, f"{who(taker)} takes the pile", cards=state.pile)

    def _check_end(self, step: Step) -> None:
        state = step.state
        if not state.held[state.turn]:
            if state.claimant is not None:
                self._take_pile(step)
            winner = 1 - state.turn
            step.finish(Outcome(Termination.TARGET_REACHED, (winner,), self.scores(step.state),
                                won_with((winner,), 52)), winner)
        elif state.laid >= state.options["limit"]:
            scores = self.scores(state)
            winners = tuple(seat for seat, held in enumerate(scores) if held == max(scores))
            step.finish(Outcome(Termination.ROUNDS_PLAYED, winners, scores, won_with(winners, max(scores))),
                        winners[0])

    def scores(self, state: BeggarState) -> tuple[int, ...]:
        """The cards each player holds."""
        return state.held

    def public_view(self, state: BeggarState) -> PublicView:
        notes = tuple(f"owes {state.owed}" if state.owed and seat == state.turn else "" for seat in range(2))
        return PublicView(f"{state.laid} cards laid", play_label="Pile", play_cards=state.pile, notes=notes)
