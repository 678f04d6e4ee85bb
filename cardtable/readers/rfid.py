"""The RFID readers as a reader kind: ``[input] kind = "rfid"`` reads ``[rfid]``. Each reader
watches a zone of its own; cards are swiped past them (none is seen leaving); ``cardtable doctor``
looks for the reader board; the cards are enrolled in a tag registry; its twin is the simulated
microcontroller on a pseudo-terminal.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cardtable.config.app_sections import GAME
from cardtable.config.doctor import check_board
from cardtable.readers.kinds import Needed, ReaderKind, Wiring, unwatched
from firmware_bridge.config import RFID

if TYPE_CHECKING:
    from cardtable.config.check import TableConfig


def start(wiring: Wiring):
    """The reader board's bridge, with the registry checking loaded; in compatibility mode, one
    bridge per stock single-reader board (``ports``), each reporting for its own zone.

    :raises BoardNotFound: with ``port = "auto"``, when no board answers.
    """
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.compat import CompatHost
    from firmware_bridge.detect import find_board

    config, put = wiring.config, wiring.put
    rfid, registry = config[RFID], config.registry
    zones = list(config.reader_zones)
    if rfid.compat:
        return [("card readers", lambda port=port, zone=zone: Bridge(
            port, registry, zones=[zone], on_input=put,
            host=CompatHost(removal_after=rfid.remove_after, known=registry.knows),
        ).start()) for port, zone in zip(rfid.ports or (rfid.port,), zones)]
    port = rfid.port
    if port == "auto":
        port, _hello = find_board()
    return [("card readers", lambda: Bridge(port, registry, zones=zones, on_input=put).start())]


def check_zones(config: TableConfig, needed: Needed, problems: list[str]) -> None:
    """Every zone the game needs has a reader (``[rfid] readers``, one per seat by default)."""
    unwatched(config.reader_zones, needed, "rfid.readers", "reader", problems)


def enrolment(config: TableConfig) -> str:
    """How many of the deck's cards have a tag."""
    from engine.decks import get_deck
    from firmware_bridge.registry import TagRegistry

    deck = get_deck(config[GAME].deck)
    path = config[RFID].registry
    if not Path(path).exists():
        return f"No card has a tag yet ({path} does not exist): enrol them with 'cardtable enroll rfid'."
    registry = TagRegistry.load(path, deck=deck.name)
    missing = registry.missing()
    text = f"{len(registry)} of {len(deck.cards)} cards have a tag."
    return text + (f" Still to enrol: {' '.join(c.id for c in missing)}" if missing else " Every card is enrolled.")


def twin(deck: str, zones: list[str], **options):
    """The microcontroller twin with a reader per zone, on a pseudo-terminal."""
    from cardtable.sim.devices import SimReaders

    return SimReaders(deck, zones)


RFID_READERS = ReaderKind("rfid", "RFID readers", start, check_zones, enrolment, section=RFID, swipe=True,
                          doctor=(("reader board", check_board),), twin=twin)
