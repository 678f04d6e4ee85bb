"""The table configuration: one TOML file describes a table, and checking it is the whole truth
about it. A config :func:`load_config` accepts starts; one it refuses is refused with every
problem at once, each as "key: what is wrong".

Sections: ``[game]`` (which game, players, mode, seed, options), ``[table]`` (player names, the
zone of each seat), ``[input]`` (camera or rfid), ``[vision]`` (:func:`vision.config.parse_vision`),
``[rfid]`` (:func:`cardtable.rfid_config.parse_rfid`), ``[gpio]`` (:func:`hardware.pins.parse_panel`),
``[[display]]`` (one table per display, :func:`hardware.display.config.parse_display`) and
``[journal]``.

**The shape of a section parser.** Every section is read by one function of this shape::

    def parse_x(section: Mapping[str, object], problems: list[str], **context) -> XSpec | None

It takes the section's table exactly as TOML gave it (any types at all: a text where a list
belongs, ``nan``, a huge number), appends one sentence per mistake to ``problems`` as
"x.key: what is wrong" (all of them, never only the first), never raises for a bad value, and
returns a typed, frozen spec with its defaults filled in (or None when nothing usable is left).
:mod:`cardtable.config_values` has the typed reads to build one from. A new section plugs in with
one line in :data:`PLUGGED_SECTIONS` (its name and ``"module:function"``, the function taking
``(section, problems)``); its spec is then ``config.sections[name]``, and ``config check`` names
its mistakes with all the others.

Checking runs in two stages: the values (the same answer on any machine), then what this machine
must hold for the table to start (the calibration and tag registry files, a journal folder it can
write and a journal that is a regular file, a web address it can listen on, the club's certificate
authority). Every file is read the one safe way, :mod:`engine.outside_files` (a regular file, a
size cap, UTF-8, bounded nesting), so a FIFO, ``/dev/zero`` or a huge file is a problem in words,
never a wait or a traceback. A file still to be made is a *step* ("calibration.json does not exist yet: run cardtable
calibrate --config table.toml"), not a mistake, but the table cannot start before it is done.
"""

from __future__ import annotations

import importlib
import ipaddress
import socket
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cardtable.config_values import (choice, flag, close_hint, file_path, is_whole, shown, text_list, unknown_keys, whole,
                                     writable_file, writable_folder)
from cardtable.rfid_config import RfidSpec, parse_rfid
from cardtable.os_errors import in_words
from engine.errors import InvalidInput
from engine.outside_files import UnreadableFile, read_bytes, read_toml as read_toml_file, special_kind
from engine.game import MODES, Game, Option
from engine.games import get_game
from engine.wording import default_names
from firmware_bridge.registry import TagRegistry, default_path
from hardware.display.config import DisplaySpec, parse_display, reserved_pins
from hardware.pins import PanelPins, parse_panel
from vision.calibration import load_calibration
from vision import table_layout
from vision.config import VisionConfig, parse_vision

#: Sections parsed by other parts of the application: name -> "module:function" (see above).
PLUGGED_SECTIONS: dict[str, str] = {"web": "cardtable.web.spec:parse_web", "club": "cardtable.club.spec:parse_club",
                                    "speech": "cardtable.speech.spec:parse_speech"}
SECTIONS = ("game", "table", "input", "vision", "rfid", "gpio", "display", "journal")
INPUT_KINDS = ("camera", "rfid")
DEFAULT_JOURNAL = "~/.local/share/cardtable/journal.sqlite"
#: A game's seed is journalled as an SQLite integer and grows by one with each new game.
MAX_SEED = 2**62
_KEYS = {"game": ("name", "players", "mode", "seed", "options"), "table": ("names", "seat_zones", "teaching"),
         "input": ("kind",), "journal": ("path",)}


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
    """A checked configuration: each package's typed spec, with defaults filled in."""

    path: Path
    game: str
    players: int
    mode: str = "table"
    seed: int = 0
    options: Mapping[str, object] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    seat_zones: tuple[str, ...] = ()
    teaching: bool = False      # the hint button also gives the acting seat advice (shared display)
    input: str = "camera"
    vision: VisionConfig = field(default_factory=VisionConfig)
    rfid: RfidSpec = field(default_factory=lambda: RfidSpec(registry=default_path("standard")))
    gpio: PanelPins | None = None
    displays: tuple[DisplaySpec, ...] = ()
    journal: Path = Path(DEFAULT_JOURNAL).expanduser()
    sections: Mapping[str, object] = field(default_factory=dict)

    @property
    def reader_zones(self) -> tuple[str, ...]:
        """The zone of reader 0, 1, ... (one per seat unless ``[rfid] readers`` says otherwise); in
        compatibility mode, of the board on each port."""
        zones = self.rfid.readers or self.seat_zones
        return zones[:len(self.rfid.ports) or 1] if self.rfid.compat else zones

    def shared_zones(self) -> tuple[str, ...]:
        return table_layout.shared_zones(get_game(self.game))


@dataclass
class ConfigCheck:
    """What checking found: the ``config`` (None unless it can start), ``problems`` and ``steps``."""

    config: TableConfig | None
    problems: list[str]
    steps: list[str]


def _table(data: Mapping, name: str, problems: list[str]) -> Mapping:
    value = data.get(name, {})
    if not isinstance(value, Mapping):
        problems.append(f"{name}: expected a [{name}] table, got {shown(value)}")
        return {}
    if name in _KEYS:
        unknown_keys(value, _KEYS[name], name, problems)
    return value


def _option(option: Option, value: object, problems: list[str]) -> bool:
    """Whether ``value`` suits ``option``, as the game says (if not, the problem is said)."""
    problem = option.problem(value)
    if problem is not None:
        problems.append(f"game.options.{option.name}: {problem}")
    return problem is None


def _parse_game(section: Mapping, problems: list[str]) -> tuple[Game | None, dict]:
    """The game and its checked settings (players, mode, seed, options)."""
    game = None
    if "name" not in section:
        problems.append('game.name: missing; name the game, e.g. name = "cribbage" (see cardtable games)')
    elif isinstance(section["name"], str):
        try:
            game = get_game(section["name"])
        except InvalidInput as err:
            problems.append(f"game.name: {err}")
    else:
        problems.append(f"game.name: expected the game's name, e.g. \"cribbage\", got {shown(section['name'])}")
    settings = {"players": None, "mode": None, "seed": None, "options": {}}
    players = section.get("players", game.players[0] if game else 2)
    if game is None or isinstance(players, str) or not is_whole(players):
        settings["players"] = whole(players, "game.players", problems, 1, 8)
    elif players not in game.players:
        problems.append(f"game.players: {game.title} is for {', '.join(map(str, game.players))} players, not {players}")
    else:
        settings["players"] = players
    settings["mode"] = choice(section.get("mode", "table"), "game.mode", problems, MODES)
    settings["seed"] = whole(section.get("seed", 0), "game.seed", problems, 0, MAX_SEED)
    options = section.get("options", {})
    if not isinstance(options, Mapping):
        problems.append(f"game.options: expected a [game.options] table, got {shown(options)}")
    elif game:
        known = {option.name: option for option in game.options}
        for name, value in options.items():
            if name not in known:
                problems.append(f"game.options.{name}: {game.title} has no such option"
                                + (close_hint(name, known) or f"; its options are {', '.join(known) or 'none'}"))
            elif _option(known[name], value, problems):
                settings["options"][name] = value
    return game, settings


def _zone_problems(config: TableConfig, problems: list[str]) -> None:
    """Every zone the game needs has a polygon (camera) or a reader (rfid); no reader watches a
    zone that means nothing."""
    game = get_game(config.game)
    shared = config.shared_zones()
    needed = [(zone, f" for seat {n + 1}") for n, zone in enumerate(config.seat_zones)]
    needed += [(zone, f", which {game.title} needs") for zone in shared]
    for i, zone in enumerate(config.rfid.readers):
        if zone not in config.seat_zones and zone not in shared:
            problems.append(f"rfid.readers[{i}]: {zone!r} is no seat's zone and not a zone {game.title} uses"
                            + (close_hint(zone, config.seat_zones + shared) or f" ({', '.join(shared)})"))
    if config.input == "camera":
        if not config.vision.zones:
            problems.append(f"vision.zones: none given; the table needs a zone for each seat "
                            f"({', '.join(config.seat_zones)}) and {', '.join(shared)} (see cardtable config example)")
            return
        for zone, why in needed:
            if zone not in config.vision.zones:
                problems.append(f"vision.zones: no zone {zone!r}{why}{close_hint(zone, config.vision.zones)}")
    else:
        for zone, why in needed:
            if zone not in config.reader_zones:
                problems.append(f"rfid.readers: no reader for zone {zone!r}{why}")


def check_values(data: Mapping, path: Path, problems: list[str]) -> TableConfig | None:
    """Check every value of a parsed TOML document (pure). Returns the config as far as it could
    be built (a wrong value replaced by its default), or None without a game, a player count, a
    mode, a seed, an input or a journal; it is usable only when no problem was added."""
    unknown_keys(data, SECTIONS + tuple(PLUGGED_SECTIONS), "config", problems)
    game, settings = _parse_game(_table(data, "game", problems), problems)
    players = settings["players"]
    table = _table(data, "table", problems)
    names = default_names(players or 0)
    seat_zones = table_layout.seat_zones(players or 0)
    if "names" in table:
        names = text_list(table["names"], "table.names", problems, "name", count=players) or names
    if "seat_zones" in table:
        seat_zones = text_list(table["seat_zones"], "table.seat_zones", problems, "zone name", count=players) or seat_zones
    teaching = flag(table.get("teaching", False), "table.teaching", problems) or False
    kind = choice(_table(data, "input", problems).get("kind", "camera"), "input.kind", problems, INPUT_KINDS)
    deck = game.deck if game else "standard"
    base = path.parent
    vision_section = _table(data, "vision", problems)
    vision = parse_vision(vision_section, problems, base_dir=base, deck=deck)
    if game and vision_section.get("deck", deck) != deck and isinstance(vision_section.get("deck"), str):
        problems.append(f"vision.deck: {game.title} is played with the {deck} deck, not {vision_section['deck']}")
    rfid = parse_rfid(_table(data, "rfid", problems), problems, base_dir=base, deck=deck)
    displays, reserved = _parse_displays(data.get("display", []), problems, base)
    gpio = parse_panel(_table(data, "gpio", problems), problems, reserved=reserved) if "gpio" in data else None
    journal = file_path(_table(data, "journal", problems).get("path", DEFAULT_JOURNAL), "journal.path", problems, base)
    sections = {name: _plugged(target, _table(data, name, problems), problems)
                for name, target in PLUGGED_SECTIONS.items()}
    if game is None or None in (players, kind, journal, *settings.values()):
        return None
    config = TableConfig(path=path, game=game.name, players=players, mode=settings["mode"], seed=settings["seed"],
                         options=game.resolve_options(settings["options"]), names=names, seat_zones=seat_zones,
                         teaching=teaching,
                         input=kind, vision=vision, rfid=rfid, gpio=gpio, displays=displays, journal=journal,
                         sections=sections)
    _zone_problems(config, problems)
    try:
        game.new_game(players, options=dict(config.options), mode=config.mode, seed=config.seed)
    except Exception as err:  # noqa: BLE001 - whatever the rules say, it is said as a problem
        problems.append(f"game: {game.title} cannot start with these settings: {err}")
    return config


def _parse_displays(value: object, problems: list[str], base: Path) -> tuple[tuple[DisplaySpec, ...], dict[int, str]]:
    """Every display table; a PNG display's folder is taken from the config file's folder."""
    tables = [value] if isinstance(value, Mapping) else value
    if not isinstance(tables, list):
        problems.append(f"display: expected [display] or [[display]] tables, got {shown(value)}")
        return (), {}
    specs, reserved = [], {}
    for i, table in enumerate(tables):
        prefix = "display" if len(tables) == 1 else f"display[{i}]"
        spec = parse_display(table, problems, prefix=prefix)
        if spec is not None and spec["kind"] == "png":
            spec["folder"] = file_path(spec["folder"], f"{prefix}.folder", problems, base)
        if spec is not None and spec.get("folder", "") is not None:
            specs.append(spec)
            reserved.update(reserved_pins(spec))
    return tuple(specs), reserved


def _plugged(target: str, section: Mapping, problems: list[str]) -> object:
    module, function = target.split(":")
    return getattr(importlib.import_module(module), function)(section, problems)


def check_files(config: TableConfig, problems: list[str], steps: list[str]) -> None:
    """What this machine must hold for the table to start: the input's files, writable outputs,
    the web page's address, the club's certificate authority."""
    writable_file(config.journal, "journal.path", problems)
    web, club = config.sections.get("web"), config.sections.get("club")
    if web is not None and (why := _not_bindable(web.host)):
        problems.append(f"web.host: {web.host!r} is not an address of this machine ({why}): "
                        f"\"0.0.0.0\" serves every network, \"127.0.0.1\" this machine only")
    if club is not None and club.broker is not None and club.broker.ca_file:
        _check_ca_file(Path(club.broker.ca_file), problems)
    for i, display in enumerate(config.displays):
        if display["kind"] == "png":
            prefix = "display" if len(config.displays) == 1 else f"display[{i}]"
            writable_folder(display["folder"], f"{prefix}.folder", problems)
    where = f"--config {config.path}"
    faces = config.vision.faces if config.input == "camera" and config.vision.recognition == "faces" else None
    if faces is not None and (kind := special_kind(faces)) is not None:
        problems.append(f"vision.faces: {faces} is not a regular file ({kind}); name the enrolled deck's file")
    elif faces is not None and not faces.exists():
        steps.append(f"vision.faces: {config.vision.faces.name} does not exist yet: run cardtable enroll faces "
                     f"--deck {config.vision.deck} (--from-images DIR, or with the camera)")
    if config.input == "camera" and config.vision.calibration is not None:
        calibration = config.vision.calibration
        if not calibration.exists():
            steps.append(f"vision.calibration: {calibration.name} does not exist yet: run cardtable calibrate {where}")
            return
        try:
            made = load_calibration(calibration)
        except (InvalidInput, OSError) as err:
            problems.append(f"vision.calibration: {err}")
            return
        if tuple(made.image_size) != config.vision.resolution:
            (w, h), (rw, rh) = made.image_size, config.vision.resolution
            problems.append(f"vision.resolution: {calibration.name} was made at {w}x{h}, not {rw}x{rh}: "
                            f"calibrate again ({where}) or set resolution = [{w}, {h}]")
    elif config.input == "rfid":
        registry, deck = config.rfid.registry, get_game(config.game).deck
        if not registry.exists():
            option = "" if registry == default_path(deck) else f" --registry {registry}"
            steps.append(f"rfid.registry: {registry.name} does not exist yet: "
                         f"run cardtable enroll rfid --deck {deck}{option}")
            return
        try:
            TagRegistry.load(registry, deck=deck)
        except (InvalidInput, OSError) as err:
            problems.append(f"rfid.registry: {err}")


def _not_bindable(host: str) -> str | None:
    """Why the web page could not listen on ``host`` here, or None (a numeric address is never
    looked up by name)."""
    numeric = all(part.isdigit() for part in host.split(".")) or ":" in host
    try:
        if numeric:
            ipaddress.ip_address(host)
        family, kind, _, _, address = socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM,
                                                         flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind) as probe:
            probe.bind(address)
    except ValueError:
        return "not a valid IP address"
    except OSError as err:
        return err.strerror or str(err)
    return None


def _check_ca_file(path: Path, problems: list[str]) -> None:
    """The club broker's certificate authority: a readable file holding a PEM certificate."""
    try:
        text = read_bytes(path, "certificate authority").decode("ascii", "replace")
    except InvalidInput as err:
        problems.append(f"club.ca_file: {err}")
        return
    except OSError as err:
        problems.append(f"club.ca_file: {in_words(err)}")
        return
    try:
        ssl.create_default_context(cadata=text)
    except (ssl.SSLError, ValueError):          # no PEM block at all, or a damaged one
        problems.append(f"club.ca_file: {path} holds no certificate (a PEM file, -----BEGIN CERTIFICATE-----)")


def check_config(data: Mapping, path: Path) -> ConfigCheck:
    """Check a parsed TOML document: its values, then this machine's files for it."""
    problems: list[str] = []
    steps: list[str] = []
    config = check_values(data, path, problems)
    if config is not None:                  # with the values' mistakes, so that all are said at once
        check_files(config, problems, steps)
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
