"""Reader kinds: the registry that ``[input] kind = "..."`` is looked up in.

A reader kind (the camera, the RFID readers, a code scanner ...) is a :class:`ReaderKind` declared
in its own module: its name, the config section it reads, the traits the application asks about
instead of comparing names (does it see a card leave; how its zones are checked against those the
game needs; what ``cardtable doctor`` looks at for it; how far the cards are enrolled for it; does
it recognise cards in pictures), how it is started at a table, and its simulated twin for the
demo. :func:`register_reader_kind` adds one. The shipped kinds are registered in
:func:`_load_shipped` the first time the registry is used, not when this module loads: their
modules name the doctor's checks, and the doctor reads the config, which asks this registry.
docs/adding_a_reader.md says how to add one.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import InvalidInput

if TYPE_CHECKING:
    from cardtable.config.check import TableConfig
    from cardtable.config.doctor import Finding
    from cardtable.table.loop import Running
    from config_kit.section import Section
    from engine.table_events import TableInput

#: zones the game needs, each with why ("crib", ", which Cribbage needs"), as a kind's zone check gets them
Needed = Sequence[tuple[str, str]]

_KINDS: dict[str, ReaderKind] = {}


def _untapped(source, pipeline):
    return source


@dataclass(frozen=True)
class Wiring:
    """What a reader is started with at a running table (``cardtable run``): the checked config,
    the table queue's ``put``, the event that stops the table, and ``tap`` (``tap(source,
    pipeline)`` returns a camera's frame source with its latest frame kept for the owner's page)."""

    config: TableConfig
    put: Callable[[TableInput], None]
    stop: threading.Event
    tap: Callable[[Any, Any], Any] = _untapped


@dataclass(frozen=True)
class ReaderKind:
    """One kind of reader, as the application sees it.

    :param name: what ``[input] kind`` says.
    :param described: what the table reads cards through, as a person reads it: "the camera".
    :param start: ``start(wiring)``: the inputs to keep running, each as ``(name, start)`` for
        :meth:`cardtable.table.loop.Supervisor.watch` (the name is said when it stops: "the camera
        stopped ..."); whatever must be found once (a board on an automatic port) is found here.
    :param check_zones: ``check_zones(config, needed, problems)``: says each zone the game needs
        that the reader does not watch, where its zones come from (the camera's calibrated
        polygons, the readers' own zones).
    :param enrolment: ``enrolment(config)``: how far the cards are enrolled for it, for the owner's page.
    :param section: the config section it reads (``[vision]``, ``[rfid]``), if any; a table of
        another kind does not look for that section's files.
    :param swipe: it sees cards pass, never leave: taking a card off takes nothing back.
    :param doctor: ``cardtable doctor``'s checks for it, each ``(name, check)``, ``check(config or
        None) -> Finding``; a table of another kind says it reads cards through that kind instead.
    :param twin: ``twin(deck, zones, **options)``: its simulated twin, for ``cardtable demo --input``.
    :param recognises: it recognises cards in pictures (marked or by their faces), and a card it
        cannot read is laid again; a reader names each card outright.
    """

    name: str
    described: str
    start: Callable[[Wiring], Sequence[tuple[str, Callable[[], Running]]]]
    check_zones: Callable[[TableConfig, Needed, list[str]], None]
    enrolment: Callable[[TableConfig], str]
    section: Section | None = None
    swipe: bool = False
    doctor: tuple[tuple[str, Callable[[TableConfig | None], Finding]], ...] = ()
    twin: Callable[..., Any] | None = None
    recognises: bool = False


def unwatched(watched: Collection[str], needed: Needed, key: str, reader: str, problems: list[str]) -> None:
    """The zone check of a kind whose readers each watch a zone of their own: each needed zone
    without one is said as "key: no READER for zone 'crib', which Cribbage needs"."""
    for zone, why in needed:
        if zone not in watched:
            problems.append(f"{key}: no {reader} for zone {zone!r}{why}")


def register_reader_kind(kind: ReaderKind) -> ReaderKind:
    """Make ``kind`` a choice of ``[input] kind`` (the one line that adds a reader kind).

    :raises TypeError: the kind has no name, or the name is another kind's.
    """
    _load_shipped()
    return _add(kind)


def _add(kind: ReaderKind) -> ReaderKind:
    if not kind.name or _KINDS.get(kind.name, kind) is not kind:
        raise TypeError(f"reader kind {kind.name!r} has no name or is already registered")
    _KINDS[kind.name] = kind
    return kind


def reader_kinds() -> dict[str, ReaderKind]:
    """Every registered kind by name, in the order registered."""
    _load_shipped()
    return dict(_KINDS)


def reader_kind(name: str) -> ReaderKind:
    """The kind called ``name``.

    :raises InvalidInput: naming the kinds there are.
    """
    kinds = reader_kinds()
    if name not in kinds:
        raise InvalidInput(f"no reader kind called {name!r}: choose one of {', '.join(kinds)}")
    return kinds[name]


@functools.cache
def _load_shipped() -> None:
    """Register the kinds that come with the table, in this order (two threads loading them at once
    both add the same kinds, which is no mistake)."""
    from cardtable.readers.camera import CAMERA
    from cardtable.readers.rfid import RFID_READERS

    for kind in (CAMERA, RFID_READERS):
        _add(kind)
