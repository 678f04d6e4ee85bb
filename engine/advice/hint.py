"""What the shared display may say: a public hint for anyone, and hand advice in teaching mode.

:func:`public_hint` uses only what everyone at the table knows (the count, the suit led, the cards
face up, the rules): never a card from a hand. :func:`teaching_advice` is advice about the hand of
the seat to act, for a table whose configuration says it is in teaching mode, where the players
have agreed to see it on the shared display; elsewhere hand advice belongs only where that player
alone sees it (the command line, or the player's own page). Both return ``None`` when there is
nothing to say.
"""

from __future__ import annotations

from engine.advice.its15 import its15_advice
from engine.advice.play import strong_choice
from engine.cards import SUIT_NAMES, Card
from engine.game import DEALER, Game
from engine.games.quinze import captures
from engine.wording import who, words


def public_hint(game: Game, state) -> str | None:
    """The rule that decides which cards may be played now, from public knowledge only.

    >>> from engine.game import get_game
    >>> crib = get_game("cribbage")
    >>> public_hint(crib, crib.new_game(2, seed=1)) is None
    True
    """
    if game.is_terminal(state):
        return None
    phase = getattr(state, "phase", "")
    if game.name == "cribbage" and phase == "play":
        room = 31 - state.count
        return f"Count {state.count}: any card worth {room} or less fits; with none, say go"
    if game.name in ("allfives", "fifteen") and phase == "play" and state.tricks:
        trump = SUIT_NAMES[state.tricks.trump]
        if not state.tricks.led:
            return f"Lead any card; trumps are {trump}"
        led = SUIT_NAMES[state.tricks.led]
        return f"{led.capitalize()} led: follow {led} if you can, else any card; trumps are {trump}"
    if game.name == "quinze" and phase == "play":
        takers = [v for v in range(1, 11) if any(captures(state.table, c) for c in _quinze_cards(v, state.table))]
        if not takers:
            return "No card can take anything: the card played stays on the table"
        return f"A card worth {', '.join(map(str, takers))} can take from the table (J 8, Q 9, K 10)"
    return None


def _quinze_cards(worth: int, table) -> list[Card]:
    """The cards of a Le Quinze value that are not on the table (only their value matters here)."""
    rank = worth if worth <= 7 else worth + 3
    return [card for card in (Card(rank, suit) for suit in "SHDC") if card not in table][:1]


def teaching_advice(game: Game, state, seat: int) -> str | None:
    """Advice about ``seat``'s own hand, in words, for the shared display in teaching mode only.

    Dealer mode only (the engine must hold the hand); ``None`` where there is no advice.
    """
    if state.mode != DEALER or game.is_terminal(state):
        return None
    if game.name == "its15" and state.phase == "extra":
        others = [state.held[s] for s in range(state.players) if s != seat and not state.folded[s]]
        return its15_advice([c.value for c in state.hands[seat]], state.centre.value, others).say()
    action = strong_choice(game, state, seat)
    if action is None:
        return None
    if action.kind == "discard":
        return words(f"{who(seat)}: lay away {' '.join(map(str, action.cards))}")
    if action.kind == "play" and game.name == "quinze" and len(action.cards) > 1:
        return words(f"{who(seat)}: play {action.cards[0]} and take {' '.join(map(str, action.cards[1:]))}")
    if action.kind == "play":
        return words(f"{who(seat)}: play {action.cards[0]}")
    return words(f"{who(seat)}: {action.kind}")


__all__ = ["public_hint", "teaching_advice"]
