"""The owner's side of the table: requests from the owner's pages (start a game, undo, end the
game) run on the table's own thread, and the PIN that guards them.

:class:`TableSession` stands where the table loop expects its controller: inputs from the devices
go to the current :class:`~cardtable.controller.Controller`; an :class:`OwnerRequest` (a
:class:`~cardtable.table_loop.Request`) is carried out between them, so the controller and the
journal are only ever used from one thread.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from dataclasses import dataclass, field

from cardtable.controller import Controller, TableSetup
from cardtable.table_loop import Request
from engine.errors import CardtableError
from engine.table_events import TableInput
from vision.table_layout import seat_zones
from engine.game import get_game

log = logging.getLogger(__name__)

ENDED = "ended by the owner"


@dataclass(frozen=True)
class OwnerRequest(Request):
    """``kind`` is "undo", "end" or "start" (with ``game``, ``players``, ``names``, ``options``);
    ``answer`` gets the sentence that tells the owner what happened."""

    kind: str = ""
    game: str = ""
    players: int = 0
    names: tuple[str, ...] = ()
    options: dict = field(default_factory=dict)


class TableSession:
    """The table's current game and what the owner may do to it."""

    def __init__(self, controller: Controller) -> None:
        self.controller = controller

    def handle(self, item: TableInput | Request) -> None:
        """A device's input goes to the controller; an owner's request is carried out and answered."""
        if not isinstance(item, OwnerRequest):
            self.controller.handle(item)
            return
        try:
            item.answer.set_result(self._carry_out(item))
        except CardtableError as err:
            item.answer.set_result(f"Not done: {err}")
        except Exception as err:  # the table must go on whatever the owner's page sent
            log.exception("owner request %s failed", item.kind)
            item.answer.set_result(f"Not done: {err}")

    def _carry_out(self, request: OwnerRequest) -> str:
        c = self.controller
        if request.kind == "undo":
            return "The last action was taken back" if c.undo() else "Nothing to undo"
        if request.kind == "end":
            if c.finished:
                return "The game is already over"
            c.journal.finish(c.game_id, ENDED)
            c.new_game()
            return "The game was ended; a new one has started"
        if request.kind == "start":
            return self._start(request)
        return f"Not done: the table does not know the request {request.kind!r}"

    def _start(self, request: OwnerRequest) -> str:
        old = self.controller
        game = get_game(request.game)
        players = request.players or game.players[0]
        if players not in game.players:
            return f"Not done: {game.title} is for {' or '.join(map(str, game.players))} players"
        zones = old.setup.seat_zones
        if players > len(zones) and zones != seat_zones(len(zones)):
            return f"Not done: the table has zones for {len(zones)} seats; add zones for {players}"
        options = game.resolve_options(request.options)
        names = tuple(n.strip()[:24] or f"Seat {i + 1}" for i, n in enumerate(request.names[:players]))
        names += tuple(f"Seat {i + 1}" for i in range(len(names), players))
        if not old.finished:
            old.journal.finish(old.game_id, ENDED)
        setup = TableSetup(game.name, players, options, old.setup.mode, old.setup.seed + 1,
                           zones[:players] if players <= len(zones) else (), names, swipe=old.setup.swipe)
        self.controller = Controller(setup, old.journal, old.outputs, resume=False)
        return f"{game.title} for {players} has started"


class PinGate:
    """The owner's PIN and the sessions it opened. Wrong PINs slow down: after each of them the
    gate stays shut for a moment longer (up to ``max_wait`` seconds)."""

    def __init__(self, pin: str, *, clock=time.monotonic, max_wait: float = 30.0) -> None:
        self.pin = pin
        self.clock = clock
        self.max_wait = max_wait
        self._tokens: set[str] = set()
        self._failures = 0
        self._shut_until = 0.0

    @property
    def enabled(self) -> bool:
        return bool(self.pin)

    def login(self, pin: str) -> str | None:
        """A session token for the right PIN, else ``None``."""
        now = self.clock()
        if not self.enabled or now < self._shut_until:
            return None
        if hmac.compare_digest(pin.encode(), self.pin.encode()):
            self._failures = 0
            token = secrets.token_urlsafe(24)
            self._tokens.add(token)
            return token
        self._failures += 1
        self._shut_until = now + min(self.max_wait, 0.25 * 2 ** min(self._failures - 1, 8))
        return None

    def allows(self, token: str | None) -> bool:
        return bool(token) and token in self._tokens

    def logout(self, token: str | None) -> None:
        self._tokens.discard(token or "")
