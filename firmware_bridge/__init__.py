"""RFID readers over USB serial: the CT1 protocol, the link, compat parsers, the tag registry,
the microcontroller twin and the reference MicroPython firmware (``firmware_bridge/firmware``).

The application needs little more than this::

    from firmware_bridge import Bridge, TagRegistry, Twin

    registry = TagRegistry.load("rfid-standard.json")
    with Twin(readers=4) as twin, Bridge(twin.port, registry, zones=["seat1", "seat2"]) as bridge:
        twin.place(0, registry.uid_for("7H"))
        event = bridge.get(timeout=2)   # TableEvent(kind='placed', card=7H, zone='seat1', ...)

Imports ``engine`` and pyserial only; never vision or hardware.
"""

from firmware_bridge.bridge import Bridge, UnknownTag, Zones, to_table_event
from firmware_bridge.compat import CompatHost, parse_compat_line
from firmware_bridge.detect import BoardNotFound, find_board
from firmware_bridge.link import Backoff, Link, LinkClosed
from firmware_bridge.protocol import FrameError, ReaderHealth, McuError
from firmware_bridge.readers import ReaderChange
from firmware_bridge.registry import TagRegistry
from firmware_bridge.host import Ct1Host, LinkChange
from firmware_bridge.twin import Twin

__all__ = [
    "Backoff", "BoardNotFound", "Bridge", "CompatHost", "FrameError", "Link", "LinkChange",
    "LinkClosed", "McuError", "ReaderChange", "ReaderHealth", "Ct1Host", "TagRegistry", "Twin",
    "UnknownTag", "Zones", "find_board", "parse_compat_line", "to_table_event",
]
