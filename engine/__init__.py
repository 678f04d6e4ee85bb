"""cardtable's rules engine: cards, decks, the game protocol, the five games and bots.

Pure Python, standard library only: no devices, no application code (DESIGN.md), and no I/O but
:mod:`engine.outside_files`, the one safe reader of files from outside that ``vision``,
``firmware_bridge`` and ``cardtable`` all share (docs/controller.md says why it lives here).
"""

from engine.cards import Card, parse_card, parse_cards
from engine.decks import Deck, PhysicalCard, get_deck
from engine.errors import CardtableError, IllegalAction, InvalidInput
from engine.game import DEALER, TABLE, Action, Event, Game, Outcome, Prompt
from engine.games import all_games, get_game

__all__ = [
    "Action", "Card", "CardtableError", "DEALER", "Deck", "Event", "Game", "IllegalAction",
    "InvalidInput", "Outcome", "PhysicalCard", "Prompt", "TABLE", "all_games", "get_deck",
    "get_game", "parse_card", "parse_cards",
]
