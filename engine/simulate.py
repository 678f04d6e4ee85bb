"""Table mode driven by a dealer-mode twin: the same deal, seen only as a physical table shows it.

:func:`play_at_table` lets bots play a dealer-mode game (which knows every card) and feeds a
table-mode engine what a camera or reader would see: each action concealed as the table shows it
(:meth:`~engine.game.Game.conceal`), and whatever the table-mode engine asks to be shown (a cut, a
turn-up, a crib laid out) read from the twin (:meth:`~engine.game.Game.observe`). Tests use it to
prove both modes agree; the demo uses it to know what the simulated devices must show next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.game import DEALER, TABLE, Action, Event, Game


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
