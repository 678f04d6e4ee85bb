"""The simulated table: bots play, and their moves become what real devices would report.

:func:`table_moves` turns a whole bot game (played in dealer mode, mirrored in table mode by
:func:`engine.simulate.play_at_table`) into the physical moves of people at a table: a card laid
in a zone, a button pressed, and the face-up cards that stop being part of the game's public view
(a finished count or trick, the cards of a capture, the cuts once the deal starts) picked up. The demo and the
tests feed these moves to the simulated devices (the synthetic camera, the microcontroller twin,
mock button pins), so the table sees exactly what it would see at a real table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from engine.bots import GreedyBot, StrongBot
from engine.decks import PhysicalCard, get_deck
from engine.game import Action, Game
from engine.simulate import play_at_table
from vision import table_layout

@dataclass(frozen=True)
class Move:
    """``place`` a card in a zone, ``take`` one off the table (a capture, card by card), ``press``
    a button, or ``gather`` several ``cards`` at once."""

    kind: str
    card: PhysicalCard | None = None
    zone: str = ""
    button: str = ""
    cards: tuple[PhysicalCard, ...] = ()


def physical(deck_name: str, faces, on_table: dict[str, PhysicalCard], *, lying: bool = False) -> list[PhysicalCard]:
    """Physical cards showing ``faces``: ones not on the table yet (added to ``on_table``), or,
    with ``lying``, ones that lie there (taken off it)."""
    deck = get_deck(deck_name)
    chosen = []
    for face in faces:
        if isinstance(face, PhysicalCard):
            card = face
        elif isinstance(face, str) and face in deck:      # a physical card named by its id
            card = deck.card(face)
        else:
            card = next(c for c in deck.cards if c.face == face and (c.id in on_table) == lying)
        if lying:
            on_table.pop(card.id, None)
        else:
            on_table[card.id] = card
        chosen.append(card)
    return chosen


def moves_for(game: Game, action: Action, prompt, seat_zones, on_table: dict[str, PhysicalCard],
              buttons=frozenset(), swipe: bool = False) -> list[Move]:
    """The physical moves that make ``action`` at a table with the named ``buttons``.

    A decision with its own button is one press; any other shown choice is highlighted with
    "right" and confirmed with "ok"; a decision with no choices is "ok".
    """
    slot = game.card_actions.get(action.kind)
    if slot is not None and slot.taken and action.cards:
        taken = {str(c) for c in action.cards}
        # the action may name the played card too: the label is the set of table cards it takes
        label = next((c for c in prompt.choices if set(c.split()) <= taken
                      and len(taken - set(c.split())) <= 1), None)
        if swipe and label is not None:                   # readers see no card leave: a button says it
            return _press(replace(action, choice=label, cards=()), prompt, buttons)
        return [Move("take", card) for card in physical(game.deck, action.cards, on_table, lying=True)]
    if slot is not None and action.cards:
        zone = seat_zones[action.seat] if slot.zone == "seat" else slot.zone
        return [Move("place", card, zone) for card in physical(game.deck, action.cards, on_table)]
    moves = []
    if action.cards:
        # a decision that carries cards (an It's 15 bet): lay them where the prompt takes cards first
        carrier = next((game.card_actions[k] for k in prompt.kinds if k in game.card_actions), None)
        if carrier is not None:
            zone = seat_zones[action.seat] if carrier.zone == "seat" else carrier.zone
            moves = [Move("place", card, zone) for card in physical(game.deck, action.cards, on_table)]
    return moves + _press(action, prompt, buttons)


def _press(action: Action, prompt, buttons) -> list[Move]:
    choice = action.choice if isinstance(action.choice, str) else action.kind
    if choice in buttons:
        return [Move("press", button=choice)]
    if choice in prompt.choices:
        steps = prompt.choices.index(choice) + 1
        return [Move("press", button="right")] * steps + [Move("press", button="ok")]
    return [Move("press", button="ok")]


def table_moves(game: Game, players: int, *, seed: int = 0, options: dict | None = None,
                seat_zones=None, buttons=frozenset(), swipe: bool = False) -> tuple[list[Move], object]:
    """Every move of a whole bot game, and the dealer-mode final state to check the result by."""
    seat_zones = seat_zones or table_layout.seat_zones(players)
    bots = [(GreedyBot if n % 2 else StrongBot)(random.Random(seed * 7 + n)) for n in range(players)]
    run = play_at_table(game, players, bots, seed=seed, options=options)
    table = game.new_game(players, options=options, mode="table", seed=seed)
    moves: list[Move] = []
    on_table: dict[str, PhysicalCard] = {}
    for step in run.steps:
        moves += moves_for(game, step.table_action, game.prompt(table), seat_zones, on_table, buttons, swipe)
        table = step.table_state
        public = game.public_view(table)
        visible = {str(card) for card in public.centre_cards + public.play_cards}
        gone = tuple(card for card in on_table.values() if str(card.face) not in visible)
        if gone:
            moves.append(Move("gather", cards=gone))
            for card in gone:
                del on_table[card.id]
    return moves, run.dealer_state
