"""The owner's side of the table's page: the PIN that guards the owner's requests.

The requests themselves (start a game, undo, end the game) are
:class:`~engine.table_events.OwnerRequest` inputs the page puts on the table's queue; the table
carries them out on its own thread, as any input (:class:`cardtable.table.table.Table`).

:class:`PinGate` holds the PIN, the sessions it opened (a cookie and the token the owner's page
posts with), and the wait each client must keep after a wrong PIN.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections import OrderedDict


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
