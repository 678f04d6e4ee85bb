"""The bridge the application uses: a link to the reader board, turned into table events.

Reader changes become :class:`engine.table_events.TableEvent` values (``source="rfid"``, the
reader's zone from the mapping the application passes in, ``reader0``, ``reader1``... by
default) when the registry knows the tag; a tag it does not know becomes an :class:`UnknownTag`,
never a card. Link changes (:class:`LinkChange`) and the board's health and error reports pass
through as they are, for the tools that watch the board (``cardtable bridge monitor``).

The table hears the readers as it hears every input, as :data:`engine.table_events.TableInput`:
given ``on_input``, the bridge hands it the cards' events and, as
:class:`~engine.table_events.Notice` sentences, an unknown tag laid and the link coming up, going
down or being refused (:func:`table_input`); what a person at the table need not hear (a
snapshot reconciled, a reader's health) goes no further.

>>> with Bridge(twin.port, registry, zones=["seat1", "seat2"]) as bridge:  # doctest: +SKIP
...     event = bridge.get(timeout=2)
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.table_events import REMOVED, Notice, TableEvent, TableInput
from firmware_bridge.link import Link
from firmware_bridge.readers import ReaderChange
from firmware_bridge.registry import TagRegistry
from firmware_bridge.host import DOWN, REFUSED, UP, LinkChange

SOURCE = "rfid"
_LINK_WORDS = {UP: "The card readers are connected", DOWN: "The card readers are not answering: {}",
               REFUSED: "The card readers were refused: {}"}


@dataclass(frozen=True)
class UnknownTag:
    """A tag the registry does not know was placed on, removed from or moved to a reader."""

    kind: str
    reader: int
    zone: str
    uid: str
    time: float

    def __str__(self) -> str:
        return (f"a card the table does not know is on {self.zone} (tag {self.uid}): take it off, "
                "or enrol it with 'cardtable enroll rfid'")

    def to_json(self) -> dict:
        return {"type": "unknown_tag", "change": self.kind, "reader": self.reader, "zone": self.zone,
                "uid": self.uid, "time": round(self.time, 4)}


class Zones:
    """Reader number → zone name: a list, a dict, or nothing for ``reader0``, ``reader1``, ...

    >>> Zones(["seat1", "seat2"])(1), Zones()(3)
    ('seat2', 'reader3')
    """

    def __init__(self, zones: Sequence[str] | Mapping[int, str] | None = None) -> None:
        self._zones = dict(enumerate(zones)) if isinstance(zones, Sequence) else dict(zones or {})

    def __call__(self, reader: int) -> str:
        return self._zones.get(reader, f"reader{reader}")


def to_table_event(change: ReaderChange, registry: TagRegistry | None, zones: Zones) -> TableEvent | UnknownTag:
    """The event a reader change means: a TableEvent for an enrolled tag, else an UnknownTag."""
    card = registry.card_for(change.uid) if registry is not None else None
    zone = zones(change.reader)
    if card is None:
        return UnknownTag(change.kind, change.reader, zone, change.uid, change.time)
    from_zone = zones(change.from_reader) if change.from_reader is not None else None
    return TableEvent(change.kind, card, zone, change.time, SOURCE, from_zone)


def table_input(output: object) -> TableInput | None:
    """What one of the bridge's outputs is to the table: a card's event as it is, a sentence for
    an unknown tag laid (said when it arrives, not when it leaves) or a link that came up, went
    down or was refused; ``None`` for what the table need not hear."""
    if isinstance(output, TableEvent):
        return output
    if isinstance(output, LinkChange):
        words = _LINK_WORDS.get(output.state)
        return None if words is None else Notice(words.format(output.reason), SOURCE)
    if isinstance(output, UnknownTag) and output.kind != REMOVED:
        text = str(output)
        return Notice(text[:1].upper() + text[1:], SOURCE)
    return None


class Bridge:
    """A started :class:`Link` whose outputs are translated into events.

    Given ``on_input``, what the table hears (:func:`table_input`) goes there; else every output,
    translated as far as cards go, goes to ``on_event`` or, without it, to :attr:`events`, a
    :class:`queue.Queue` read with :meth:`get`. Both are called from the link's thread. Extra
    keyword arguments go to :class:`Link` (``host``, ``opener``, ``backoff``, ``clock``).

    :raises TypeError: given both ``on_event`` and ``on_input``.
    """

    def __init__(self, port: str, registry: TagRegistry | None = None, *,
                 zones: Sequence[str] | Mapping[int, str] | None = None,
                 on_event: Callable[[object], None] | None = None,
                 on_input: Callable[[TableInput], None] | None = None, **link_options) -> None:
        if on_event is not None and on_input is not None:
            raise TypeError("a bridge hands its outputs to on_event or to on_input, not to both")
        self.registry = registry
        self.zones = Zones(zones)
        self.events: queue.Queue = queue.Queue()
        self._deliver = on_event or (self._for_table(on_input) if on_input else self.events.put)
        self.link = Link(port, on_output=self._translate, **link_options)

    @staticmethod
    def _for_table(on_input: Callable[[TableInput], None]) -> Callable[[object], None]:
        def deliver(output: object) -> None:
            item = table_input(output)
            if item is not None:
                on_input(item)
        return deliver

    def __repr__(self) -> str:
        return f"<Bridge {self.link!r}>"

    def _translate(self, output: object) -> None:
        if isinstance(output, ReaderChange):
            output = to_table_event(output, self.registry, self.zones)
        self._deliver(output)

    def get(self, timeout: float | None = None):
        """The next event, or None when ``timeout`` seconds pass without one."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def is_alive(self) -> bool:
        """True while the link's thread runs."""
        return self.link.is_alive()

    def start(self) -> Bridge:
        """Start the link.

        :raises LinkClosed: after :meth:`close`.
        """
        self.link.start()
        return self

    def close(self) -> None:
        """Stop the link. Safe to call more than once."""
        self.link.close()

    def __enter__(self) -> Bridge:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()
