"""Table mode driven by a dealer-mode twin: the same deal, seen only as a physical table shows it.

:func:`play_at_table` lets bots play a dealer-mode game (which knows every card) and feeds a
table-mode engine what a camera or reader would see: each action concealed as the table shows it
(:meth:`~engine.game.Game.conceal`), and whatever the table-mode engine asks to be shown (a cut, a
turn-up, a crib laid out) read from the twin (:meth:`~engine.game.Game.observe`). Tests use it to
prove both modes agree; the demo uses it to know what the simulated devices must show next.
:class:`RevokePlan` makes a trick game's table run show a real revoke, to test how it is caught.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.cards import Card
from engine.game import DEALER, TABLE, Action, Event, Game
from engine.games.tricks import trick_winner


@dataclass
class TableStep:
    """One step: the twin's action (``None`` for something only the table needed shown), the
    action the table-mode engine received, and the table engine's events."""

    dealer_action: Action | None
    table_action: Action
    events: list[Event]
    table_state: object


@dataclass
class TableRun:
    dealer_state: object
    table_state: object
    steps: list[TableStep] = field(default_factory=list)


def new_twins(game: Game, players: int, *, options: dict | None = None, seed: int = 0):
    """A dealer-mode game and its table-mode twin for the same seed and options."""
    return (
        game.new_game(players, options=options, mode=DEALER, seed=seed),
        game.new_game(players, options=options, mode=TABLE, seed=seed),
    )


def show_table(game: Game, dealer_states, table_state, steps: list[TableStep]):
    """Apply to the table engine everything it asks to be shown, until it waits for a seat.

    ``dealer_states`` are the twin's states around the last action, oldest first: the twin may
    already be in the next hand while the table still waits for this hand's crib.
    """
    while not game.is_terminal(table_state):
        shown = game.observe(table_state, dealer_states)
        if shown is None:
            break
        table_state, events = game.apply(table_state, shown)
        steps.append(TableStep(None, shown, events, table_state))
    return table_state


def play_at_table(game: Game, players: int, bots, *, options: dict | None = None, seed: int = 0,
                  tamper=None, max_actions: int = 100_000) -> TableRun:
    """Play a whole game with ``bots`` and mirror it on a table-mode engine.

    ``tamper(action, dealer_state) -> Action`` may replace the action the table engine receives
    (to inject a revoke or a false claim in tests); by default the concealed action is sent.
    """
    dealer, table = new_twins(game, players, options=options, seed=seed)
    run = TableRun(dealer, table)
    table = show_table(game, (dealer,), table, run.steps)
    for _ in range(max_actions):
        if game.is_terminal(dealer) or game.is_terminal(table):
            break
        seat = game.prompt(dealer).seat
        action = bots[seat].choose(game, dealer, seat)
        sent = tamper(action, dealer) if tamper else game.conceal(action, dealer)
        before = dealer
        dealer, _ = game.apply(dealer, action)
        table, events = game.apply(table, sent)
        run.steps.append(TableStep(action, sent, events, table))
        table = show_table(game, (before, dealer), table, run.steps)
    else:
        raise RuntimeError(f"{game.name}: no end after {max_actions} actions")
    run.dealer_state, run.table_state = dealer, table
    return run


# -- a revoke made on purpose, for the trick games ---------------------------------------------------
@dataclass(frozen=True)
class RevokePlan:
    """Two plays of one seat in one hand to exchange at the table: on trick ``trick`` the seat
    followed ``suit`` with ``kept`` but the table is shown ``shown`` (of another suit) instead; on
    ``evidence_trick`` the seat played ``shown`` and the table sees ``kept``. The table's story is
    a real revoke (the seat held ``kept`` when it showed out), and both tricks keep their winners,
    so the rest of the game runs on. ``first``/``second`` count the twin's seat actions."""

    hand_no: int
    seat: int
    suit: str
    trick: int
    evidence_trick: int
    kept: Card
    shown: Card
    first: int
    second: int

    def tamper(self, game: Game):
        """A ``tamper`` for :func:`engine.simulate.play_at_table` that makes the exchange."""
        calls = iter(range(10**9))
        swap = {self.first: self.shown, self.second: self.kept}

        def tamper(action: Action, _dealer_state) -> Action:
            index = next(calls)
            if index in swap:
                return replace(action, cards=(swap[index],))
            return game.conceal(action, _dealer_state)

        return tamper


def plan_revokes(steps) -> list[RevokePlan]:
    """Every exchange of two plays that :class:`RevokePlan` can make in a table run's ``steps``
    (:class:`engine.simulate.TableStep`, from a run without tampering)."""
    plays, before, index = [], None, -1
    for step in steps:
        index += step.dealer_action is not None
        if step.table_action.kind == "play" and before is not None and before.tricks:
            tricks = before.tricks
            seat, card = step.table_action.seat, step.table_action.card
            bound = any(c.suit == tricks.led for c in before.hands[seat])     # known to hold the suit led
            plays.append((before.hand_no, before.deal_no, tricks.trick_no, tricks.trump, seat, card, index, bound))
        before = step.table_state
    tricks: dict[tuple, list] = {}
    for hand, deal, no, trump, seat, card, i, bound in plays:
        tricks.setdefault((hand, deal, no), []).append((seat, card, i, bound, trump))
    plans = []
    for (hand, deal, no), first in tricks.items():
        led = first[0][1].suit
        for pos, (seat, kept, i, bound, trump) in enumerate(first):
            if pos == 0 or kept.suit != led or bound:
                continue                    # the table would refuse it: it knows a card of the suit led
            for (hand2, deal2, no2), second in tricks.items():
                if (hand2, deal2) != (hand, deal) or no2 <= no:
                    continue
                for pos2, (seat2, shown, j, _, _) in enumerate(second):
                    if seat2 != seat or pos2 == 0 or shown.suit == led:
                        continue
                    if shown.suit == second[0][1].suit != led:
                        continue            # the table would see a show-out that is not one
                    if _same_winner(first, pos, shown, trump) and _same_winner(second, pos2, kept, trump):
                        plans.append(RevokePlan(hand, seat, led, no, no2, kept, shown, i, j))
    return plans


def _same_winner(trick: list, pos: int, card: Card, trump: str) -> bool:
    cards = [c for _, c, *_ in trick]
    changed = cards[:pos] + [card] + cards[pos + 1:]
    return trick_winner(cards, trump) == trick_winner(changed, trump)
