"""Debouncing one reader: placed on a clean read, removed only after clean misses (MicroPython).

A poll ends in one of three ways: a UID was read, a clean timeout (no card answered), or an
error (CRC, parity, collision: a card *did* answer, garbled). Only clean timeouts count as misses
(ESPuino PR #448); a removal needs ``MISSES`` of them in a row, or ``BACKSTOP_MS`` without a good
read. After a declared removal the field must be cycled, so a card still lying there returns to
IDLE and is seen again instead of staying halted and invisible.
"""

OK, TIMEOUT, ERROR = 0, 1, 2
MISSES = 2
BACKSTOP_MS = 1500
CONFIRM_READS = 2


class Presence:
    """The debounced state of one reader: ``uid`` (hex text) or None."""

    def __init__(self):
        self.uid = None
        self._misses = 0
        self._last_good = 0
        self._candidate = None
        self._confirmations = 0

    def update(self, status, uid, now_ms):
        """Feed one poll result; returns a list of ``("PLACED"|"REMOVED", uid)`` edges and whether
        the field should be cycled now."""
        edges, cycle = [], False
        if status == OK:
            self._misses, self._last_good = 0, now_ms
            if uid == self.uid:
                self._candidate = None
            elif self.uid is None:
                self.uid = uid
                edges.append(("PLACED", uid))
            else:
                self._confirm_swap(uid, edges)
        elif self.uid is not None:
            if status == TIMEOUT:
                self._misses += 1
            if self._misses >= MISSES or now_ms - self._last_good >= BACKSTOP_MS:
                edges.append(("REMOVED", self.uid))
                self.uid, self._misses, cycle = None, 0, True
        return edges, cycle

    def _confirm_swap(self, uid, edges):
        """Another UID where a card lies: believe it only when read twice in a row (a garbled
        read from a neighbouring reader's card happens once)."""
        if uid != self._candidate:
            self._candidate, self._confirmations = uid, 1
            return
        self._confirmations += 1
        if self._confirmations >= CONFIRM_READS:
            edges.append(("REMOVED", self.uid))
            edges.append(("PLACED", uid))
            self.uid, self._candidate = uid, None
