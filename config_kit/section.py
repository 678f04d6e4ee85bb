"""The one shape of a table-config section. The package that owns a part of the table exports its
section as one :class:`Section` (its TOML name, the typed spec it reads, how to read it, and what
this machine must hold for it); the application lists the sections once and runs them all, so a
new section is its module plus one line in that list (``cardtable/config/sections.py``).

Reading a section takes the table exactly as TOML gave it (any types at all), appends one sentence
per mistake to ``problems`` as "name.key: what is wrong" (every one, never only the first), never
raises for a bad value, and returns a frozen spec with its defaults filled in. Checking it here
(:attr:`Section.check`) says what this machine still lacks, as a problem or as a *step* still to
do ("calibration.json does not exist yet: run ..."), and returns what it loaded so that nothing is
read twice: the calibration, the tag registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from config_kit.reads import table

S = TypeVar("S")


@dataclass(frozen=True)
class Context:
    """What a section is read in the light of: the config file (a relative path in it is taken
    from its folder; a step names it), the game's deck, and the specs of the sections read before
    this one (the button panel avoids the pins the displays took)."""

    path: Path = Path("table.toml")
    deck: str = "standard"
    specs: Mapping[str, object] = field(default_factory=dict)

    @property
    def base_dir(self) -> Path:
        return self.path.parent

    def spec(self, section: Section[S]) -> S | None:
        """An earlier section's spec (None when it was not read before this one)."""
        return self.specs.get(section.name)


@dataclass(frozen=True)
class Section(Generic[S]):
    """One ``[name]`` of the table configuration, as the package that owns it reads it.

    :param name: its TOML name, ``[name]`` (or ``[[name]]`` when ``repeated``).
    :param spec: the type of what ``parse`` returns.
    :param parse: ``parse(section, problems, context) -> spec``: the section's table as TOML gave it
        (for ``repeated``, the value as given: one table or a list of them).
    :param check: ``check(spec, problems, steps, context) -> loaded``: what this machine must hold
        for it; returns what it loaded for the table to use, or None. Pure sections have none.
    :param optional: an absent section's spec is None (no such part at the table) instead of the
        spec of an empty table.
    :param repeated: ``[[name]]``, one table or more.
    """

    name: str
    spec: type
    parse: Callable[[Any, list[str], Context], S]
    check: Callable[[S, list[str], list[str], Context], object] | None = None
    optional: bool = False
    repeated: bool = False

    def read(self, document: Mapping[str, object], problems: list[str], context: Context) -> S | None:
        """This section of a whole config document (an absent one read as an empty table)."""
        if self.optional and self.name not in document:
            return None
        if self.repeated:
            return self.parse(document.get(self.name, []), problems, context)
        return self.parse(table(document.get(self.name, {}), self.name, problems), problems, context)

    def check_here(self, spec: S, problems: list[str], steps: list[str], context: Context) -> object:
        """What this machine lacks for ``spec`` (said in ``problems`` and ``steps``), and what was loaded."""
        if self.check is None or spec is None:
            return None
        return self.check(spec, problems, steps, context)
