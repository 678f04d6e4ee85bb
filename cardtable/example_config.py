"""``cardtable config example``: a commented starting configuration for a game.

The zones it writes are rectangles in table millimetres around the calibration mat's centre:
one play area in front of each seat, and one shared area for each zone the game's card actions
use (the starter, the crib, the centre ...).
"""

from __future__ import annotations

from pathlib import Path

from cardtable.config import shared_zones
from engine.errors import InvalidInput
from engine.game import Game
from firmware_bridge.registry import default_path

# seat play areas for 2-5 seats: (x0, y0, x1, y1) in mm, y growing towards seat 1
_SEATS = {
    2: [(-200, 110, 200, 250), (-200, -250, 200, -110)],
    3: [(-200, 110, 200, 250), (-420, -250, -120, -110), (120, -250, 420, -110)],
    4: [(-200, 110, 200, 250), (-420, -100, -230, 100), (-200, -250, 200, -110), (230, -100, 420, 100)],
    5: [(-200, 110, 200, 250), (-420, -60, -230, 100), (-420, -250, -120, -110), (120, -250, 420, -110),
        (230, -60, 420, 100)],
}


def _polygon(box) -> str:
    x0, y0, x1, y1 = box
    return f"[[{x0}, {y0}], [{x1}, {y0}], [{x1}, {y1}], [{x0}, {y1}]]"


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
    shared = shared_zones(game)
    seats = _SEATS[players]
    width = 160 // max(1, len(shared)) if shared else 0
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
    names = ", ".join(f'"Seat {n + 1}"' for n in range(players))
    zones = ", ".join(f'"seat{n + 1}"' for n in range(players))
    lines += [
        "",
        "[table]",
        f"names = [{names}]          # in seat order, clockwise",
        f"seat_zones = [{zones}]     # the zone in front of each seat",
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
    lines += [f"seat{n + 1} = {_polygon(box)}" for n, box in enumerate(seats[:players])]
    for i, zone in enumerate(shared):
        x0 = -80 + i * width
        lines.append(f"{zone} = {_polygon((x0, -90, x0 + width - 10, 90))}")
    readers = ", ".join([f'"seat{n + 1}"' for n in range(players)] + [f'"{z}"' for z in shared])
    lines += [
        "",
        "[rfid]",
        'port = "auto"            # auto, or /dev/serial/by-id/usb-...',
        f'registry = "{_home_relative(default_path(game.deck))}"   # written by: cardtable enroll rfid --deck {game.deck}',
        f"readers = [{readers}]   # the zone of reader 0, 1, ...",
        "",
        "[gpio]                   # BCM numbers; see docs/hardware.md for the wiring",
        "buttons = { ok = 5, left = 6, right = 13, undo = 19, go = 26 }",
        f"seat_leds = [{', '.join(str(p) for p in (17, 27, 22, 23, 24)[:players])}]",
        "buzzer = 12",
        "",
        "[[display]]",
        'kind = "terminal"        # terminal | luma | hdmi | png',
        "",
        "[journal]",
        'path = "journal.sqlite"  # beside this file: every accepted action; a restart resumes the game',
        "",
    ]
    return "\n".join(lines)
