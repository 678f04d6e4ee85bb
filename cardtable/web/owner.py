"""The owner's side of the table: requests from the owner's pages (start a game, undo, end the
game) run on the table's own thread, and the PIN that guards them.

:class:`TableSession` stands where the table loop expects its controller: inputs from the devices
go to the current :class:`~cardtable.table.table.Controller`; an :class:`OwnerRequest` (a
:class:`~cardtable.table.loop.Request`) is carried out between them, so the controller and the
journal are only ever used from one thread. A game is started only for as many seats as the
table has zones for, with names that are safe to show on every display (:func:`seat_names`).

:class:`PinGate` holds the PIN, the sessions it opened (a cookie and the token the owner's page
posts with), and the wait each client must keep after a wrong PIN.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field

from cardtable.config_values import spoken
from cardtable.table.table import Controller, TableSetup
from cardtable.table.loop import Request
from engine.errors import CardtableError, InvalidInput
from engine.games import get_game
from engine.table_events import TableInput

log = logging.getLogger(__name__)

ENDED = "ended by the owner"
MAX_NAME = 24


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

    def __init__(self, controller: Controller, *, seat_zones: tuple[str, ...] | None = None) -> None:
        self.controller = controller
        self.seat_zones = tuple(seat_zones or controller.setup.seat_zones)

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
        zones = self.seat_zones
        if players > len(zones):
            return (f"Not done: the table has zones for {len(zones)} seats, not {players}; give it zones for "
                    f"{players} seats in its configuration ([game] players, [table] seat_zones, [vision] zones) "
                    "and start it again")
        options = game.resolve_options(request.options)
        names = seat_names(request.names[:players], players)
        if not old.finished:
            old.journal.finish(old.game_id, ENDED)
        setup = TableSetup(game.name, players, options, old.setup.mode, old.setup.seed + 1,
                           zones[:players], names, swipe=old.setup.swipe)
        self.controller = Controller(setup, old.journal, old.outputs, resume=False)
        return f"{game.title} for {players} has started"


def seat_names(given: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The seats' names from the owner's form: spaces trimmed and runs of them made one, a blank
    seat named "Seat N".

    :raises InvalidInput: for a name with a control character (an escape sequence would reach the
        terminal's display), a name too long, or two seats with the same name ("Ann", "ann ").
    """
    names = []
    for n in range(players):
        name = " ".join(unicodedata.normalize("NFKC", given[n] if n < len(given) else "").split())
        if any(unicodedata.category(c).startswith("C") for c in name):
            raise InvalidInput(f"the name for seat {n + 1} holds a control character; use letters, digits, "
                               "spaces and punctuation")
        if len(name) > MAX_NAME:
            raise InvalidInput(f"the name for seat {n + 1} is longer than {MAX_NAME} letters")
        names.append(name or f"Seat {n + 1}")
    seen: dict[str, int] = {}
    for n, name in enumerate(names):
        first = seen.setdefault(spoken(name), n)
        if first != n:
            raise InvalidInput(f"seats {first + 1} and {n + 1} have the same name ({names[first]}); "
                               "give each player a name of their own")
    return tuple(names)


class PinGate:
    """The owner's PIN and the sessions it opened.

    A session is a cookie, and a token that the owner's page sends with every request it posts
    (another page cannot read it). Wrong PINs shut the gate for the client that sent them, for
    longer after each (up to ``max_wait`` seconds); other clients and sessions already open go on.
    At most ``clients`` clients are remembered (the longest unheard of is forgotten first)."""

    def __init__(self, pin: str, *, clock=time.monotonic, max_wait: float = 600.0, clients: int = 4096) -> None:
        self.pin = pin
        self.clock = clock
        self.max_wait = max_wait
        self.clients = clients
        self._sessions: dict[str, str] = {}                           # cookie -> token
        self._failures: OrderedDict[str, tuple[int, float]] = OrderedDict()  # client -> (wrong PINs, shut until)

    @property
    def enabled(self) -> bool:
        return bool(self.pin)

    def login(self, pin: str, client: str = "") -> str | None:
        """A session cookie for the right PIN from a client whose gate is open, else ``None``."""
        now = self.clock()
        failures, shut_until = self._failures.get(client, (0, 0.0))
        if not self.enabled or now < shut_until:
            return None
        if hmac.compare_digest(pin.encode(), self.pin.encode()):
            self._failures.pop(client, None)
            cookie = secrets.token_urlsafe(24)
            self._sessions[cookie] = secrets.token_urlsafe(24)
            return cookie
        failures += 1
        self._failures[client] = (failures, now + min(self.max_wait, 0.25 * 2 ** min(failures - 1, 16)))
        self._failures.move_to_end(client)
        while len(self._failures) > self.clients:
            self._failures.popitem(last=False)
        return None

    def wait(self, client: str = "") -> float:
        """Seconds before ``client`` may try a PIN again (0: now)."""
        return max(0.0, self._failures.get(client, (0, 0.0))[1] - self.clock())

    def allows(self, cookie: str | None) -> bool:
        return bool(cookie) and cookie in self._sessions

    def token(self, cookie: str | None) -> str | None:
        """The token the session's page must send with what it posts."""
        return self._sessions.get(cookie or "")

    def allows_post(self, cookie: str | None, token: str | None) -> bool:
        """Whether a request posted with ``cookie`` and ``token`` comes from the session's page."""
        expected = self.token(cookie)
        return expected is not None and hmac.compare_digest((token or "").encode(), expected.encode())

    def logout(self, cookie: str | None) -> None:
        self._sessions.pop(cookie or "", None)
