"""The application's own sections of the table config: ``[game]`` (which game, players, mode, seed,
options: the game checks its own options), ``[table]`` (the players' names, the zone of each seat,
teaching), ``[input]`` (the reader kind that reads the cards, :mod:`cardtable.readers.kinds`)
and ``[journal]`` (where the accepted actions are kept). Each is a
:class:`config_kit.section.Section`, read like every other package's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cardtable.readers.kinds import reader_kinds
from config_kit.reads import choice, close_hint, file_path, flag, is_whole, shown, text_list, unknown_keys, whole, \
    writable_file
from config_kit.section import Context, Section
from engine.errors import InvalidInput
from engine.game import MODES, Game, Option
from engine.games import get_game

DEFAULT_JOURNAL = "~/.local/share/cardtable/journal.sqlite"
#: A game's seed is journalled as an SQLite integer and grows by one with each new game.
MAX_SEED = 2**62


@dataclass(frozen=True)
class GameSpec:
    """The checked ``[game]``: each part None when it was wrong (the config then cannot start)."""

    game: Game | None = None
    players: int | None = None
    mode: str | None = "table"
    seed: int | None = 0
    options: Mapping[str, object] = field(default_factory=dict)

    @property
    def deck(self) -> str:
        return self.game.deck if self.game else "standard"


@dataclass(frozen=True)
class TableSpec:
    """The checked ``[table]``; names and seat zones empty when not given (the seats' defaults)."""

    names: tuple[str, ...] = ()
    seat_zones: tuple[str, ...] = ()
    teaching: bool = False      # the hint button also gives the acting seat advice (shared display)


@dataclass(frozen=True)
class InputSpec:
    """The checked ``[input]``: the name of the reader kind that reads the cards (None when it was wrong)."""

    kind: str | None = "camera"


@dataclass(frozen=True)
class JournalSpec:
    """The checked ``[journal]``: the file (None when it was wrong)."""

    path: Path | None = Path(DEFAULT_JOURNAL).expanduser()


def _option(option: Option, value: object, problems: list[str]) -> bool:
    """Whether ``value`` suits ``option``, as the game says (if not, the problem is said)."""
    problem = option.problem(value)
    if problem is not None:
        problems.append(f"game.options.{option.name}: {problem}")
    return problem is None


def _game(section: Mapping) -> tuple[Game | None, list[str]]:
    if "name" not in section:
        return None, ['game.name: missing; name the game, e.g. name = "cribbage" (see cardtable games)']
    if not isinstance(section["name"], str):
        return None, [f"game.name: expected the game's name, e.g. \"cribbage\", got {shown(section['name'])}"]
    try:
        return get_game(section["name"]), []
    except InvalidInput as err:
        return None, [f"game.name: {err}"]


def parse_game(section: Mapping, problems: list[str], context: Context) -> GameSpec:
    """The game and its checked settings (players, mode, seed, options)."""
    unknown_keys(section, ("name", "players", "mode", "seed", "options"), "game", problems)
    game, said = _game(section)
    problems += said
    players = section.get("players", game.players[0] if game else 2)
    if game is None or isinstance(players, str) or not is_whole(players):
        players = whole(players, "game.players", problems, 1, 8)
    elif players not in game.players:
        problems.append(f"game.players: {game.title} is for {', '.join(map(str, game.players))} players, not {players}")
        players = None
    mode = choice(section.get("mode", "table"), "game.mode", problems, MODES)
    seed = whole(section.get("seed", 0), "game.seed", problems, 0, MAX_SEED)
    options, chosen = section.get("options", {}), {}
    if not isinstance(options, Mapping):
        problems.append(f"game.options: expected a [game.options] table, got {shown(options)}")
    elif game:
        known = {option.name: option for option in game.options}
        for name, value in options.items():
            if name not in known:
                problems.append(f"game.options.{name}: {game.title} has no such option"
                                + (close_hint(name, known) or f"; its options are {', '.join(known) or 'none'}"))
            elif _option(known[name], value, problems):
                chosen[name] = value
    return GameSpec(game, players, mode, seed, game.resolve_options(chosen) if game else {})


def parse_table(section: Mapping, problems: list[str], context: Context) -> TableSpec:
    """The players' names and seat zones (one per player of ``[game]``), and whether it teaches."""
    unknown_keys(section, ("names", "seat_zones", "teaching"), "table", problems)
    players = context.spec(GAME).players
    names = seat_zones = ()
    if "names" in section:
        names = text_list(section["names"], "table.names", problems, "name", count=players) or ()
    if "seat_zones" in section:
        seat_zones = text_list(section["seat_zones"], "table.seat_zones", problems, "zone name", count=players) or ()
    teaching = flag(section.get("teaching", False), "table.teaching", problems) or False
    return TableSpec(names, seat_zones, teaching)


def parse_input(section: Mapping, problems: list[str], context: Context) -> InputSpec:
    """The reader kind, one of those registered (:func:`cardtable.readers.kinds.reader_kinds`)."""
    unknown_keys(section, ("kind",), "input", problems)
    return InputSpec(choice(section.get("kind", "camera"), "input.kind", problems, reader_kinds()))


def parse_journal(section: Mapping, problems: list[str], context: Context) -> JournalSpec:
    """The journal's file: ``~`` is the home folder, a relative path is taken from the config's folder."""
    unknown_keys(section, ("path",), "journal", problems)
    return JournalSpec(file_path(section.get("path", DEFAULT_JOURNAL), "journal.path", problems, context.base_dir))


def check_journal(spec: JournalSpec, problems: list[str], steps: list[str], context: Context) -> None:
    """The journal's folder can be made and written, and the journal is a regular file."""
    writable_file(spec.path, "journal.path", problems)


GAME = Section("game", GameSpec, parse_game)
TABLE = Section("table", TableSpec, parse_table)
INPUT = Section("input", InputSpec, parse_input)
JOURNAL = Section("journal", JournalSpec, parse_journal, check=check_journal)
