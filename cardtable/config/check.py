"""Checking a table configuration: one TOML file describes a table, and checking it is the whole
truth about it. A config :func:`load_config` accepts starts; one it refuses is refused with every
problem at once, each as "key: what is wrong".

Every section is read the same way: the package that owns it exports a
:class:`config_kit.section.Section` and :mod:`cardtable.config.sections` lists them. Checking runs
in two stages: the values (:func:`check_values`, the same answer on any machine: every section
read in order, then what only the sections together can say: every zone the game needs is
watched, the game starts with these settings), then what this machine must hold for the table to
start (:func:`check_files`: each section's own check, for the input the table uses; a file still
to be made is a *step*, not a mistake, but the table cannot start before it is done). What the
second stage loaded (the calibration, the tag registry) stays in the :class:`TableConfig`, and
``cardtable run`` uses it: nothing is read twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

import cardtable.config.sections as sections
from cardtable.config.app_sections import GAME, INPUT, JOURNAL, TABLE
from cardtable.readers.kinds import ReaderKind, reader_kind, reader_kinds
from cardtable.table.journalled_game import TableSetup
from cardtable.os_errors import in_words
from config_kit.reads import close_hint, unknown_keys
from config_kit.section import Context, Section
from engine.errors import InvalidInput
from engine.outside_files import UnreadableFile, read_toml as read_toml_file
from firmware_bridge.config import RFID
from firmware_bridge.registry import TagRegistry
from vision import table_layout
from vision.calibration import Calibration
from vision.config import VISION

S = TypeVar("S")


class ConfigError(InvalidInput):
    """A table configuration that cannot start: ``problems`` are its mistakes and ``steps`` what
    is still to be done on this machine (a calibration, a tag registry), each as "key: sentence"."""

    def __init__(self, path: str, problems: list[str], steps: list[str] = ()) -> None:
        self.problems, self.steps = list(problems), list(steps)

        def listed(lines):
            return "".join(f"\n  - {line}" for line in lines)

        plural = "s" * (len(self.steps) != 1)
        todo = f"{len(self.steps)} step{plural} still to do before the table can start:{listed(self.steps)}"
        if not self.problems:
            super().__init__(f"{path} has no mistakes, but {todo}")
            return
        message = f"{path} has {len(self.problems)} problem{'s' * (len(self.problems) != 1)}:{listed(self.problems)}"
        super().__init__(message + (f"\nand {todo}" if self.steps else ""))


@dataclass(frozen=True)
class TableConfig:
    """A checked configuration: the game the table plays (``setup``, what the controller takes),
    each section's typed spec (``config[VISION]``), and what checking this machine loaded."""

    path: Path
    setup: TableSetup
    specs: Mapping[str, object] = field(default_factory=dict)
    #: section name -> what its check loaded (the calibration, the tag registry)
    loaded: Mapping[str, object] = field(default_factory=dict)

    def __getitem__(self, section: Section[S]) -> S:
        return self.specs[section.name]

    @property
    def calibration(self) -> Calibration | None:
        """The camera's calibration, loaded once by checking (None without one)."""
        return self.loaded.get(VISION.name)

    @property
    def registry(self) -> TagRegistry | None:
        """The readers' tag registry, loaded once by checking (None for a camera table)."""
        return self.loaded.get(RFID.name)

    @property
    def reader(self) -> ReaderKind:
        """The reader kind of ``[input] kind``."""
        return reader_kind(self[INPUT].kind)

    @property
    def reader_zones(self) -> tuple[str, ...]:
        """The zone of reader 0, 1, ... (one per seat unless ``[rfid] readers`` says otherwise); in
        compatibility mode, of the board on each port."""
        rfid = self[RFID]
        zones = rfid.readers or self.setup.seat_zones
        return zones[:len(rfid.ports) or 1] if rfid.compat else zones

    def shared_zones(self) -> tuple[str, ...]:
        return table_layout.shared_zones(self[GAME].game)


@dataclass
class ConfigCheck:
    """What checking found: the ``config`` (None unless it can start), ``problems`` and ``steps``."""

    config: TableConfig | None
    problems: list[str]
    steps: list[str]


def _zone_problems(config: TableConfig, problems: list[str]) -> None:
    """Every zone the game needs is watched, as the reader kind says (a camera's polygon, a
    reader); no reader watches a zone that means nothing."""
    game, seat_zones = config[GAME].game, config.setup.seat_zones
    shared = config.shared_zones()
    needed = [(zone, f" for seat {n + 1}") for n, zone in enumerate(seat_zones)]
    needed += [(zone, f", which {game.title} needs") for zone in shared]
    for i, zone in enumerate(config[RFID].readers):
        if zone not in seat_zones and zone not in shared:
            problems.append(f"rfid.readers[{i}]: {zone!r} is no seat's zone and not a zone {game.title} uses"
                            + (close_hint(zone, seat_zones + shared) or f" ({', '.join(shared)})"))
    config.reader.check_zones(config, needed, problems)


def _context(path: Path, specs: Mapping[str, object]) -> Context:
    game = specs.get(GAME.name)
    return Context(path=path, deck=game.deck if game else "standard", specs=specs)


def check_values(data: Mapping, path: Path, problems: list[str]) -> TableConfig | None:
    """Check every value of a parsed TOML document (pure). Returns the config as far as it could
    be built (a wrong value replaced by its default), or None without a game, a player count, a
    mode, a seed, an input or a journal; it is usable only when no problem was added."""
    read = sections.read_order()
    unknown_keys(data, [section.name for section in read], "config", problems)
    specs: dict[str, object] = {}
    for section in read:
        specs[section.name] = section.read(data, problems, _context(path, dict(specs)))
    game, vision = specs[GAME.name], specs[VISION.name]
    if game.game and vision.deck != game.deck:
        problems.append(f"vision.deck: {game.game.title} is played with the {game.deck} deck, not {vision.deck}")
    if None in (game.game, game.players, game.mode, game.seed, specs[INPUT.name].kind, specs[JOURNAL.name].path):
        return None
    table = specs[TABLE.name]
    setup = TableSetup(game.game.name, game.players, dict(game.options), game.mode, game.seed, table.seat_zones,
                       table.names, swipe=reader_kind(specs[INPUT.name].kind).swipe, teaching=table.teaching)
    config = TableConfig(path=path, setup=setup, specs=specs)
    _zone_problems(config, problems)
    try:
        game.game.new_game(game.players, options=dict(game.options), mode=game.mode, seed=game.seed)
    except Exception as err:  # noqa: BLE001 - whatever the rules say, it is said as a problem
        problems.append(f"game: {game.game.title} cannot start with these settings: {err}")
    return config


def check_files(config: TableConfig, problems: list[str], steps: list[str]) -> TableConfig:
    """What this machine must hold for the table to start, each section's own check (but none for
    the sections of the reader kinds the table does not use): the input's files, writable
    outputs, the web page's address, the club's certificate authority. Returns the config holding
    what was loaded."""
    context, used = _context(config.path, config.specs), config.reader.section
    idle = {kind.section.name for kind in reader_kinds().values() if kind.section and kind.section is not used}
    loaded = {section.name: section.check_here(config.specs[section.name], problems, steps, context)
              for section in sections.read_order() if section.name not in idle}
    return replace(config, loaded={name: thing for name, thing in loaded.items() if thing is not None})


def check_config(data: Mapping, path: Path) -> ConfigCheck:
    """Check a parsed TOML document: its values, then this machine's files for it."""
    problems: list[str] = []
    steps: list[str] = []
    config = check_values(data, path, problems)
    if config is not None:                  # with the values' mistakes, so that all are said at once
        config = check_files(config, problems, steps)
    return ConfigCheck(config if not problems and not steps else None, problems, steps)


def read_toml(path: Path) -> dict:
    """A TOML file's document, read the one safe way (:mod:`engine.outside_files`: a regular file
    of at most 1 MiB, UTF-8 with a leading byte-order mark allowed, nested at most 32 deep).

    :raises ConfigError: saying in words why it cannot be read.
    """
    try:
        return read_toml_file(path, "configuration")
    except FileNotFoundError:
        raise ConfigError(str(path), ["the file does not exist; cardtable config example --out FILE writes one"]) from None
    except PermissionError:
        raise ConfigError(str(path), ["this user may not read it (check its owner and permissions)"]) from None
    except UnreadableFile as err:
        raise ConfigError(str(path), [f"it {err.reason}"]) from None
    except OSError as err:
        raise ConfigError(str(path), [in_words(err)]) from None


def load_config(path: str | Path) -> TableConfig:
    """Read and check a table configuration.

    :raises ConfigError: listing every problem and every step still to do.
    """
    path = Path(path)
    found = check_config(read_toml(path), path)
    if found.config is None:
        raise ConfigError(str(path), found.problems, found.steps)
    return found.config
