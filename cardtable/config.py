"""The table configuration: one TOML file describes a table, and every mistake in it is named.

Sections: ``[game]`` (which game, players, mode, options), ``[table]`` (player names, the zone of
each seat), ``[input]`` (camera or rfid), ``[vision]`` (checked by :mod:`vision.config`), ``[rfid]``
(port, tag registry, the zone of each reader), ``[gpio]`` (buttons, seat LEDs, buzzer; checked by
:mod:`hardware.pins`), ``[[display]]`` (one table per display; checked by
:mod:`hardware.display.config`) and ``[journal]``. :func:`check_config` collects every problem as
"key: what is wrong"; :func:`load_config` raises :class:`ConfigError` listing them all.
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import InvalidInput
from engine.game import MODES, get_game

SECTIONS = ("game", "table", "input", "vision", "rfid", "gpio", "display", "journal", "web", "club")
INPUT_KINDS = ("camera", "rfid")
DEFAULT_JOURNAL = "~/.local/share/cardtable/journal.sqlite"
_KEYS = {
    "game": {"name", "players", "mode", "seed", "options"},
    "table": {"names", "seat_zones"},
    "input": {"kind"},
    "rfid": {"port", "ports", "registry", "readers", "compat", "remove_after"},
    "journal": {"path"},
}


class ConfigError(InvalidInput):
    """A table configuration with mistakes; ``problems`` lists each as "key: what is wrong"."""

    def __init__(self, path: str, problems: list[str]) -> None:
        self.problems = problems
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{path} has {len(problems)} problem{'s' * (len(problems) != 1)}:\n{lines}")


@dataclass
class TableConfig:
    """A checked configuration: the parts each package needs, with defaults filled in."""

    path: Path
    game: str
    players: int
    mode: str = "table"
    seed: int = 0
    options: dict = field(default_factory=dict)
    names: tuple[str, ...] = ()
    seat_zones: tuple[str, ...] = ()
    input: str = "camera"
    vision: dict = field(default_factory=dict)
    rfid: dict = field(default_factory=dict)
    gpio: dict = field(default_factory=dict)
    displays: list[dict] = field(default_factory=list)
    journal: Path = Path(DEFAULT_JOURNAL).expanduser()
    web: object = None          # cardtable.web.spec.WebSpec, from [web]
    club: object = None         # cardtable.club.spec.ClubSpec, from [club]
    web: object = None          # cardtable.web.spec.WebSpec
    club: object = None         # cardtable.club.spec.ClubSpec

    def relative(self, name: str) -> Path:
        """A path from the config, taken relative to the config file's folder."""
        path = Path(name).expanduser()
        return path if path.is_absolute() else self.path.parent / path


def _unknown(section: str, keys, known, problems: list[str]) -> None:
    for key in sorted(set(keys) - known):
        close = difflib.get_close_matches(key, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else f"; expected one of {', '.join(sorted(known))}"
        problems.append(f"{section}.{key}: unknown key{hint}")


def _expect(value, kind, key: str, problems: list[str], what: str):
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        problems.append(f"{key}: expected {what}, got {value!r}")
        return None
    return value


def check_config(data: dict, path: Path) -> tuple[TableConfig | None, list[str]]:
    """Check parsed TOML; returns the config (when usable) and every problem found."""
    problems: list[str] = []
    _unknown("config", data, set(SECTIONS), problems)
    sections = {}
    for name in SECTIONS:
        value = data.get(name, [] if name == "display" else {})
        if name == "display" and isinstance(value, dict):
            value = [value]
        if name == "display":
            if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                problems.append("display: expected [display] or [[display]] tables")
                value = []
        elif not isinstance(value, dict):
            problems.append(f"{name}: expected a [{name}] table")
            value = {}
        sections[name] = value
        if name in _KEYS:
            _unknown(name, value, _KEYS[name], problems)

    game_section = sections["game"]
    game = None
    if "name" not in game_section:
        problems.append("game.name: missing; name the game, e.g. name = \"cribbage\" (see 'cardtable games')")
    else:
        try:
            game = get_game(str(game_section["name"]))
        except InvalidInput as err:
            problems.append(f"game.name: {err}")
    players = _expect(game_section.get("players", game.players[0] if game else 2), int, "game.players",
                      problems, "a whole number of players")
    if game and players is not None and players not in game.players:
        problems.append(f"game.players: {game.title} is for {', '.join(map(str, game.players))} players, not {players}")
    mode = game_section.get("mode", "table")
    if mode not in MODES:
        problems.append(f"game.mode: expected one of {', '.join(MODES)}, got {mode!r}")
    seed = _expect(game_section.get("seed", 0), int, "game.seed", problems, "a whole number") or 0
    options = _expect(game_section.get("options", {}), dict, "game.options", problems, "a [game.options] table") or {}
    if game:
        try:
            options = game.resolve_options(options)
        except InvalidInput as err:
            problems.append(f"game.options: {err}")
    players = players or 2

    table = sections["table"]
    names = tuple(table.get("names", [f"Seat {n + 1}" for n in range(players)]))
    if len(names) != players:
        problems.append(f"table.names: {len(names)} names for {players} players")
    seat_zones = tuple(table.get("seat_zones", [f"seat{n + 1}" for n in range(players)]))
    if len(seat_zones) != players:
        problems.append(f"table.seat_zones: {len(seat_zones)} zones for {players} players")
    elif len(set(seat_zones)) != len(seat_zones):
        problems.append("table.seat_zones: two seats share a zone")

    kind = sections["input"].get("kind", "camera")
    if kind not in INPUT_KINDS:
        problems.append(f"input.kind: expected one of {', '.join(INPUT_KINDS)}, got {kind!r}")

    problems += _check_parts(sections, path, seat_zones if kind == "camera" else None)

    journal = Path(str(sections["journal"].get("path", DEFAULT_JOURNAL))).expanduser()
    from cardtable.club.spec import parse_club
    from cardtable.web.spec import parse_web

    web, club = parse_web(sections["web"], problems), parse_club(sections["club"], problems)
    config = TableConfig(
        path=path, game=game.name if game else "", players=players, mode=mode, seed=seed,
        options=options, names=names, seat_zones=seat_zones, input=kind, vision=sections["vision"],
        rfid=sections["rfid"], gpio=sections["gpio"], displays=sections["display"],
        journal=journal if journal.is_absolute() else path.parent / journal, web=web, club=club,
    )
    return (config if not problems else None), problems


def _check_parts(sections: dict, path: Path, seat_zones) -> list[str]:
    """The sections that belong to other packages, checked by those packages."""
    from hardware.display.config import parse_display_config, reserved_pins
    from hardware.pins import parse_panel_config
    from vision.config import load_vision_config

    problems: list[str] = []

    def check(part, *args, **kwargs):
        try:
            return part(*args, **kwargs)
        except InvalidInput as err:
            problems.extend(line.strip(" -") for line in str(err).splitlines() if line.strip(" -"))
            return None

    if sections["vision"]:
        check(load_vision_config, sections["vision"], path.parent)
    reserved: dict[int, str] = {}
    for i, display in enumerate(sections["display"]):
        prefix = "display" if len(sections["display"]) == 1 else f"display[{i}]"
        spec = check(parse_display_config, display, prefix=prefix)
        if spec is not None:
            reserved.update(reserved_pins(spec))
    if sections["gpio"]:
        check(parse_panel_config, sections["gpio"], prefix="gpio", reserved=reserved)
    compat = sections["rfid"].get("compat", False)
    if not isinstance(compat, bool):
        problems.append("rfid.compat: expected true (one reader running a stock example sketch) or false")
    remove_after = sections["rfid"].get("remove_after", 1.5)
    if isinstance(remove_after, bool) or not isinstance(remove_after, (int, float)) or remove_after <= 0:
        problems.append(f"rfid.remove_after: expected seconds greater than 0, got {remove_after!r}")
    ports = sections["rfid"].get("ports")
    if ports is not None:
        if not compat:
            problems.append("rfid.ports: only for compat = true (one stock single-reader board per port); "
                            "the cardtable firmware serves all readers on one port")
        elif not (isinstance(ports, list) and ports and all(isinstance(p, str) for p in ports)):
            problems.append("rfid.ports: expected a list of serial ports, one per reader board")
        elif len(ports) > len(sections["rfid"].get("readers") or ports):
            problems.append("rfid.ports: more ports than rfid.readers zones; name the zone of each board's reader")
    elif compat and "port" not in sections["rfid"]:
        problems.append("rfid.port: compat mode needs the board's port (or ports = [...]), it cannot be found by itself")
    readers = sections["rfid"].get("readers")
    if readers is not None and not (isinstance(readers, list) and all(isinstance(r, str) for r in readers)):
        problems.append("rfid.readers: expected a list of zone names, one per reader, e.g. [\"seat1\", \"seat2\"]")
    return problems


def load_config(path: str | Path) -> TableConfig:
    """Read and check a table configuration.

    :raises ConfigError: listing every problem, each as "key: what is wrong".
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(str(path), ["the file does not exist; 'cardtable config example' writes one"]) from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(str(path), [f"not valid TOML: {err}"]) from None
    config, problems = check_config(data, path)
    if problems:
        raise ConfigError(str(path), problems)
    return config
