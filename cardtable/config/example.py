"""``cardtable config example``: a commented starting configuration for a game.

The zones it writes are the default layout (:func:`vision.table_layout.default_layout`):
rectangles in table millimetres around the calibration mat's centre, one play area in front of
each seat, and one shared area for each zone the game's card actions use (the starter, the crib,
the centre ...).
"""

from __future__ import annotations

from pathlib import Path

from engine.errors import InvalidInput
from engine.game import Game
from engine.wording import default_names
from firmware_bridge.registry import default_path
from vision.table_layout import Polygon, default_layout, seat_zones, shared_zones


def _polygon(points: Polygon) -> str:
    return "[" + ", ".join(f"[{x:g}, {y:g}]" for x, y in points) + "]"


def _names(items) -> str:
    return ", ".join(f'"{item}"' for item in items)


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return repr(value)


def _home_relative(path: Path) -> str:
    """``path`` written with ``~`` for the home folder, as a person would type it."""
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def example_config(game: Game, players: int | None = None) -> str:
    """The text of a configuration for ``game`` that ``cardtable config check`` accepts once the
    files its tools write exist (the calibration; the tag registry for readers).

    :raises InvalidInput: when the game is not for ``players`` players.
    """
    players = game.players[0] if players is None else players
    if players not in game.players:
        raise InvalidInput(f"{game.title} is for {', '.join(map(str, game.players))} players, not {players}")
    seats, shared = seat_zones(players), shared_zones(game)
    lines = [
        f"# cardtable table configuration: {game.title} for {players} players.",
        "# Check it with: cardtable config check THIS_FILE",
        "",
        "[game]",
        f'name = "{game.name}"',
        f"players = {players}            # {game.title}: {', '.join(map(str, game.players))} players",
        'mode = "table"         # table: real cards dealt by hand; dealer: the engine deals (simulation)',
        "",
        "[game.options]",
    ]
    for option in game.options:
        choices = f" ({' | '.join(map(str, option.choices))})" if option.choices else ""
        lines.append(f"{option.name} = {_toml(option.default)}    # {option.help}{choices}")
    names = ", ".join(f'"{name}"' for name in default_names(players))
    lines += [
        "",
        "[table]",
        f"names = [{names}]          # in seat order, clockwise",
        f"seat_zones = [{_names(seats)}]     # the zone in front of each seat",
        "",
        "[input]",
        'kind = "camera"          # camera | rfid',
        "",
        "[vision]",
        'deck = "' + game.deck + '"',
        'marker = "qr"            # qr | aruco (print the deck with: cardtable print-deck)',
        'decoder = "zxing"        # zxing | pyzbar | opencv',
        'camera = "usb:0"         # usb:N | picamera | a video file | a folder of frames | synthetic',
        "resolution = [1920, 1080]",
        'calibration = "calibration.json"   # beside this file; written by: cardtable calibrate --config THIS_FILE',
        'zone_units = "mm"',
        "",
        "[vision.zones]",
    ]
    lines += [f"{zone} = {_polygon(polygon)}" for zone, polygon in default_layout(players, shared).items()]
    lines += [
        "",
        "[rfid]",
        'port = "auto"            # auto, or /dev/serial/by-id/usb-...',
        f'registry = "{_home_relative(default_path(game.deck))}"   # written by: cardtable enroll rfid --deck {game.deck}',
        f"readers = [{_names(seats + shared)}]   # the zone of reader 0, 1, ...",
        "",
        "[gpio]                   # BCM numbers; see docs/hardware.md for the wiring",
        "buttons = { ok = 5, left = 6, right = 13, undo = 19, go = 26, say = 16 }   # say: with [speech]",
        f"seat_leds = [{', '.join(str(p) for p in (17, 27, 22, 23, 24)[:players])}]",
        "buzzer = 12",
        "",
        "[[display]]",
        'kind = "terminal"        # terminal | luma | hdmi | png',
        "",
        "[speech]                 # the table says plays, scores, prompts and refusals aloud (docs/speech.md)",
        "enabled = false          # needs espeak-ng and a sound device: cardtable doctor checks both",
        'voice = "en"             # an espeak-ng voice: en-gb, en-us ... (espeak-ng --voices lists them)',
        "rate = 160               # words a minute (80 to 450)",
        "volume = 100             # espeak-ng's amplitude (0 to 200)",
        "# plays = false          # each kind of sentence can be switched off: plays, scores, prompts, warnings, ends",
        "",
        "[journal]",
        'path = "journal.sqlite"  # beside this file: every accepted action; a restart resumes the game',
        "",
    ]
    return "\n".join(lines)
