"""Display kinds: the registry that ``[[display]] kind = "..."`` is looked up in.

A kind is a frozen dataclass of its checked settings (a subclass of :class:`DisplaySpec`): its
fields are the keys its table may hold, :meth:`DisplaySpec.read` fills them from a
:class:`DisplayTable` (saying each mistake), :meth:`DisplaySpec.open` opens the backend.
:func:`register_display_kind` adds one; the shipped kinds are registered in
:mod:`hardware.display.config`. docs/adding_a_display.md says how to add one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from config_kit.reads import choice, flag, text, whole
from hardware.display.base import Display
from hardware.display.layout import MODES

_KINDS: dict[str, type[DisplaySpec]] = {}


@dataclass(frozen=True)
class Injected:
    """What a caller hands a display instead of opening the real part (tests: a luma ``noop()``
    interface, a mock GPIO module, a rich console). A kind takes what it uses."""

    serial_interface: Any = None
    gpio: Any = None
    console: Any = None


class DisplayTable:
    """One ``[[display]]`` table being read: each read checks one key and says a mistake as
    "display.key: what is wrong", giving the default instead."""

    def __init__(self, table: Mapping[str, object], problems: list[str], prefix: str) -> None:
        self.table, self.problems, self.prefix = table, problems, prefix

    def get(self, key: str, default=None):
        return self.table.get(key, default)

    def problem(self, key: str, text: str) -> None:
        self.problems.append(f"{self.prefix}.{key}: {text}")

    def number(self, key: str, default, low: int, high: int, *, optional: bool = False):
        value = self.table.get(key, default)
        if optional and (value is None or value is False):   # TOML has no null: false means "not wired"
            return None
        return self._or_default(whole(value, self._key(key), self.problems, low, high), default)

    def text(self, key: str, default: str) -> str:
        return self._or_default(text(self.table.get(key, default), self._key(key), self.problems), default)

    def flag(self, key: str, default: bool | None) -> bool | None:
        value = self.table.get(key, default)
        return value if value is default else self._or_default(flag(value, self._key(key), self.problems), default)

    def choice(self, key: str, default: str, choices) -> str:
        return self._or_default(choice(self.table.get(key, default), self._key(key), self.problems, choices), default)

    def _key(self, key: str) -> str:
        return f"{self.prefix}.{key}"

    @staticmethod
    def _or_default(found, default):
        """A read said its mistake and gave None: the default stands in, so the rest is checked."""
        return default if found is None else found

    def mode(self, default: str) -> str:
        """The image mode the layout draws in (``"1"``, ``"RGB"`` ...)."""
        return self.choice("mode", default, MODES)


@dataclass(frozen=True)
class DisplaySpec:
    """A display table checked by :func:`~hardware.display.config.parse_display`, every default
    filled in: opening it needs no second check. Each kind subclasses it."""

    kind: ClassVar[str] = ""

    @classmethod
    def keys(cls) -> frozenset[str]:
        """The settings a table of this kind may hold (its fields)."""
        return frozenset(f.name for f in fields(cls))

    @classmethod
    def read(cls, table: DisplayTable) -> DisplaySpec | None:
        """The kind's settings from ``table``; ``None`` when a mistake leaves nothing to open."""
        raise NotImplementedError

    def reserved_pins(self) -> dict[int, str]:
        """The GPIOs the display occupies, each with what it is for (none unless the kind says)."""
        return {}

    def open(self, inject: Injected) -> Display:
        """The backend, opened.

        :raises DeviceUnavailable: the device or its library is missing.
        """
        raise NotImplementedError


def register_display_kind(spec: type[DisplaySpec]) -> type[DisplaySpec]:
    """Make ``spec.kind`` a display kind of the configuration (the one line that adds a kind).

    :raises TypeError: the kind has no name or the name is taken by another kind.
    """
    if not spec.kind or _KINDS.get(spec.kind, spec) is not spec:
        raise TypeError(f"display kind {spec.kind!r} has no name or is already registered")
    _KINDS[spec.kind] = spec
    return spec


def display_kinds() -> dict[str, type[DisplaySpec]]:
    """Every registered kind by name, in the order registered."""
    return dict(_KINDS)
