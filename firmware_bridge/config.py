"""The ``[rfid]`` section of the table config: the reader board's port, the tag registry, the zone
of each reader, and compatibility mode for stock single-reader sketches. Its defaults live here
and only here; :data:`RFID` is the section as the table config runs it (checking, on this machine,
that the tag registry exists and is of the game's deck, and keeping the registry it loaded).

    [rfid]
    port = "auto"              # auto (find the board by USB id), or /dev/serial/by-id/usb-...
    registry = "~/.config/cardtable/rfid-standard.json"   # written by: cardtable enroll rfid
    readers = ["seat1", "seat2", "starter", "crib"]       # the zone of reader 0, 1, ...
    compat = false             # true: boards running a stock example sketch, one reader each
    ports = ["/dev/ttyUSB0"]   # compat only: one port per board, in the order of readers
    remove_after = 1.5         # compat only: seconds without a report that count as a removal
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from config_kit.reads import file_path, flag, seconds, text, text_list, unknown_keys
from config_kit.section import Context, Section
from engine.errors import InvalidInput
from firmware_bridge.compat import REMOVAL_AFTER
from firmware_bridge.registry import TagRegistry, default_path

_KEYS = ("port", "ports", "registry", "readers", "compat", "remove_after")
#: a removal in compatibility mode: seconds a tag must go unreported (stock sketches repeat ~1/s)
REMOVE_AFTER = (REMOVAL_AFTER, 0.0, 60.0)


@dataclass(frozen=True)
class RfidSpec:
    """The checked ``[rfid]`` settings; ``readers`` empty means one reader per seat zone."""

    registry: Path
    port: str = "auto"
    ports: tuple[str, ...] = ()
    readers: tuple[str, ...] = ()
    compat: bool = False
    remove_after: float = REMOVE_AFTER[0]


def parse_rfid(section: Mapping[str, object], problems: list[str], *, base_dir: Path, deck: str) -> RfidSpec:
    """Check an ``[rfid]`` table; each mistake is appended to ``problems`` as "rfid.key: ...".

    :param base_dir: the config file's folder (a relative registry path is taken from there).
    :param deck: the game's deck: the registry defaults to where ``enroll rfid --deck`` writes it.
    """
    unknown_keys(section, _KEYS, "rfid", problems)
    compat = flag(section.get("compat", False), "rfid.compat", problems) or False
    port = text(section.get("port", "auto"), "rfid.port", problems, "a serial port such as /dev/ttyACM0 or auto",
                longest=4096) or "auto"
    remove_after = seconds(section.get("remove_after", REMOVE_AFTER[0]), "rfid.remove_after", problems,
                           *REMOVE_AFTER[1:]) or REMOVE_AFTER[0]
    readers = ()
    if "readers" in section:
        readers = text_list(section["readers"], "rfid.readers", problems, "zone name") or ()
    ports: tuple[str, ...] = ()
    if "ports" in section:
        ports = text_list(section["ports"], "rfid.ports", problems, "serial port", longest=4096, alike=str) or ()
        if not compat:
            problems.append("rfid.ports: only for compat = true (one stock single-reader board per port); "
                            "the cardtable firmware serves all readers on one port")
        elif not ports and isinstance(section["ports"], list):
            problems.append("rfid.ports: expected at least one serial port")
        elif readers and len(ports) > len(readers):
            problems.append("rfid.ports: more ports than rfid.readers zones; name the zone of each board's reader")
    elif compat and port == "auto":
        problems.append("rfid.port: compat mode needs the board's port (or ports = [...]), it cannot be found by itself")
    registry = (file_path(section["registry"], "rfid.registry", problems, base_dir) if "registry" in section
                else default_path(deck))
    return RfidSpec(registry=registry or default_path(deck), port=port, ports=ports, readers=readers,
                    compat=compat, remove_after=remove_after)


def check_registry(spec: RfidSpec, problems: list[str], steps: list[str], context: Context) -> TagRegistry | None:
    """The tag registry, loaded: it exists (else enrolling is a step still to do) and is a registry
    of the game's deck (else a problem)."""
    registry, deck = spec.registry, context.deck
    if not registry.exists():
        option = "" if registry == default_path(deck) else f" --registry {registry}"
        steps.append(f"rfid.registry: {registry.name} does not exist yet: "
                     f"run cardtable enroll rfid --deck {deck}{option}")
        return None
    try:
        return TagRegistry.load(registry, deck=deck)
    except (InvalidInput, OSError) as err:
        problems.append(f"rfid.registry: {err}")
        return None


RFID = Section("rfid", RfidSpec, lambda section, problems, context: parse_rfid(
    section, problems, base_dir=context.base_dir, deck=context.deck), check=check_registry)
