"""The table's short scoring log, and the buttons that page back through it.

Every change of a score is one sentence with its breakdown (:func:`cardtable.table.view.score_lines`),
kept newest last, the last ``size`` of them. The sentences the last move made are shown on every
display until the next move, and the newest that fit after that, so a sentence stays on the table
while the next moves are made. To check an earlier one, a person
pages back with the buttons the game does not need at that moment: ``left`` (older) and
``right`` (newer) when no choice is pending, or a dedicated ``log`` button at any time (each press
one entry older; after the oldest, back to the newest). A page is held while new scores come in;
it ends when the person pages forward past the newest entry, or ``hold`` seconds after their last
press (looked at whenever the table is shown next).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from cardtable.table.view import score_lines
from engine.game import Event

LOG, LEFT, RIGHT = "log", "left", "right"


class ScoreLog:
    """The last ``size`` scoring sentences and the entry paged to (``None``: the newest)."""

    def __init__(self, size: int = 16, *, hold: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.size = size
        self.hold = hold
        self._clock = clock
        self.entries: list[str] = []
        self.count = 0                  # entries logged since the game (re)started, dropped ones too
        self.fresh = 0                  # entries the last accepted action made
        self._page: int | None = None
        self._pressed_at = 0.0

    def add(self, events: Iterable[Event]) -> list[str]:
        """Log the score changes among ``events``; returns the new entries."""
        lines = score_lines(events)
        self.entries += lines
        self.count += len(lines)
        self.fresh = len(lines)
        dropped = max(0, len(self.entries) - self.size)
        del self.entries[:dropped]
        if self._page is not None:
            self._page = max(0, self._page - dropped)
        return lines

    def restart(self, events: Iterable[Event] = ()) -> None:
        """Start again from ``events`` (a new game, a resumed or undone one)."""
        self.entries = []
        self.count = 0
        self._page = None
        self.add(events)
        self.fresh = 0

    def page(self) -> int | None:
        """The entry paged to, or ``None`` when following the newest (also once the hold is over)."""
        if self._page is not None and self._clock() - self._pressed_at > self.hold:
            self._page = None
        return self._page

    def press(self, name: str, *, choices_pending: bool) -> bool:
        """Page with button ``name`` if it pages the log now; True when it did."""
        if not self.entries or not (name == LOG or name in (LEFT, RIGHT) and not choices_pending):
            return False
        page, newest = self.page(), len(self.entries) - 1
        if name == RIGHT:
            page = None if page is None or page == newest else page + 1
        elif page is None:
            page = newest
        elif page > 0:
            page -= 1
        elif name == LOG:
            page = None
        self._page = page
        self._pressed_at = self._clock()
        return True
