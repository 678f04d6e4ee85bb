"""The ``[vision]`` section of the table config: every key's type and range, checked in one pass.

The application owns the TOML file and hands :func:`parse_vision` its ``[vision]`` table exactly
as TOML gave it, with the list that collects the config's problems::

    [vision]
    deck = "standard"            # standard | french40 | its15 (default: the game's deck)
    marker = "qr"                # qr | aruco
    decoder = "zxing"            # zxing | pyzbar | opencv (QR decks); ArUco decks always use aruco
    calibration = "calibration.json"   # from 'cardtable calibrate'; relative to the config file
    zone_units = "mm"            # mm (table millimetres, needs calibration) | px (image pixels)
    place_after = 0.0            # seconds a card must be seen lying still before it is placed
    remove_after = 30.0          # last resort: seconds a card may stay covered before it is removed
    camera = "usb:0"             # usb:N | picamera | a video file | a folder of frames | synthetic
    resolution = [1920, 1080]
    fps = 30
    recognition = "markers"      # markers | faces (unmarked cards, by their printed faces)
    faces = "standard"           # the enrolled deck: a name from 'cardtable enroll faces', or a file
    [vision.zones]
    seat1 = [[-220, 120], [220, 120], [220, 258], [-220, 258]]

Checking here is pure (no file is opened), so ``cardtable calibrate`` can read a config whose
calibration does not exist yet; the application checks the files themselves.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from engine.decks import DECKS
from engine.errors import InvalidInput
from vision.decoders import DECODER_NAMES
from vision.faces.store import enrolment_path
from vision.markers import MARKER_KINDS
from vision.zones import ZONE_UNITS

_KEYS = ("deck", "marker", "decoder", "calibration", "zone_units", "zones", "place_after",
         "remove_after", "camera", "resolution", "fps", "recognition", "faces")
RECOGNITIONS = ("markers", "faces")
#: key -> (default, low, high, whether ``low`` itself is allowed)
_TIMES = {"place_after": (0.0, 0, 60, True), "remove_after": (30.0, 0, 600, False), "fps": (30.0, 0, 240, False)}
_MAX_POINTS = 64
_MAX_PIXELS = 16384


@dataclass(frozen=True)
class VisionConfig:
    """The checked ``[vision]`` settings (see the module docstring for each key)."""

    deck: str = "standard"
    marker: str = "qr"
    decoder: str = "zxing"
    calibration: Path | None = None
    zone_units: str = "mm"
    zones: dict = field(default_factory=dict)
    place_after: float = 0.0
    remove_after: float = 30.0
    camera: str = "usb:0"
    resolution: tuple[int, int] = (1920, 1080)
    fps: float = 30.0
    recognition: str = "markers"
    faces: Path | None = None

    @property
    def effective_decoder(self) -> str:
        """The decoder actually used: "faces" for unmarked cards, ArUco decks always use "aruco"."""
        if self.recognition == "faces":
            return "faces"
        return "aruco" if self.marker == "aruco" else self.decoder


def _shown(value: object) -> str:
    text = f"the text {value!r}" if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _choice(section: Mapping, key: str, choices, default: str, problems: list[str]) -> str:
    value = section.get(key, default)
    if value not in choices or not isinstance(value, str):
        problems.append(f"vision.{key}: expected one of {', '.join(choices)}, got {_shown(value)}")
        return default
    return value


def _time(section: Mapping, key: str, problems: list[str]) -> float:
    default, low, high, low_allowed = _TIMES[key]
    value = section.get(key, default)
    if not _number(value) or not (low <= value if low_allowed else low < value) or value > high:
        unit = "frames a second" if key == "fps" else "seconds"
        frm = f"{low}" if low_allowed else f"more than {low}"
        problems.append(f"vision.{key}: expected {unit} from {frm} to {high}, got {_shown(value)}")
        return default
    return float(value)


def _polygon(value: object) -> tuple[tuple[float, float], ...] | None:
    """The points of a zone polygon, or None when they are not at least three finite [x, y]."""
    if not isinstance(value, list) or not 3 <= len(value) <= _MAX_POINTS:
        return None
    if not all(isinstance(p, list) and len(p) == 2 and all(map(_number, p)) for p in value):
        return None
    return tuple((float(x), float(y)) for x, y in value)


def _area(points: tuple[tuple[float, float], ...]) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))) / 2


def _zones(value: object, problems: list[str]) -> dict[str, tuple[tuple[float, float], ...]]:
    if not isinstance(value, Mapping):
        problems.append("vision.zones: expected a [vision.zones] table of zone name = [[x, y], ...] polygons")
        return {}
    zones = {}
    for name, polygon in value.items():
        points = _polygon(polygon)
        if points is None:
            problems.append(f"vision.zones.{name}: expected a list of at least three [x, y] points "
                            f"(at most {_MAX_POINTS}), got {_shown(polygon)}")
        elif _area(points) <= 0:
            problems.append(f"vision.zones.{name}: the points enclose no area (they lie on one line)")
        elif not name.isprintable() or not name.strip():
            problems.append(f"vision.zones: {name!r} is not a usable zone name")
        else:
            zones[name] = points
    return zones


def _calibration(section: Mapping, base_dir: Path, problems: list[str]) -> Path | None:
    value = section.get("calibration")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        problems.append(f"vision.calibration: expected the calibration file's name, got {_shown(value)}")
        return None
    try:
        path = Path(value).expanduser()
    except RuntimeError as err:           # ~someone who has no home here
        problems.append(f"vision.calibration: {value!r} cannot be found: {err}")
        return None
    return path if path.is_absolute() else base_dir / path


def _faces(section: Mapping, deck: str, base_dir: Path, problems: list[str]) -> Path | None:
    """The enrolment file ``faces`` names (an enrolment's name, or a file)."""
    value = section.get("faces", section.get("deck", deck))
    if not isinstance(value, str) or not value.strip() or not value.isprintable():
        problems.append(f"vision.faces: expected the name of an enrolled deck or its file, got {_shown(value)}")
        return None
    try:
        return enrolment_path(value, base_dir)
    except RuntimeError as err:           # ~someone who has no home here
        problems.append(f"vision.faces: {value!r} cannot be found: {err}")
        return None


def _resolution(section: Mapping, problems: list[str]) -> tuple[int, int]:
    value = section.get("resolution", [1920, 1080])
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and 16 <= v <= _MAX_PIXELS for v in value)):
        problems.append(f"vision.resolution: expected [width, height] in pixels (16 to {_MAX_PIXELS}), "
                        f"got {_shown(value)}")
        return (1920, 1080)
    return (value[0], value[1])


def parse_vision(section: Mapping[str, object], problems: list[str], *, base_dir: str | Path = ".",
                 deck: str = "standard") -> VisionConfig:
    """Check a ``[vision]`` table and fill in defaults; each mistake is appended to ``problems``
    as "vision.key: what is wrong", and a wrong value is replaced by its default.

    :param base_dir: the config file's folder: a relative calibration path is taken from there.
    :param deck: the deck when the section names none (the game's).
    """
    if not isinstance(section, Mapping):
        problems.append("vision: expected a [vision] table")
        section = {}
    for key in sorted(set(section) - set(_KEYS)):
        close = difflib.get_close_matches(key, _KEYS, n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"the settings are {', '.join(_KEYS)}"
        problems.append(f"vision.{key}: unknown key ({hint})")
    place_after, remove_after = _time(section, "place_after", problems), _time(section, "remove_after", problems)
    if remove_after <= place_after:
        problems.append("vision.remove_after: must be longer than place_after")
    camera = section.get("camera", "usb:0")
    if not isinstance(camera, str) or not camera.strip() or not camera.isprintable():
        problems.append(f"vision.camera: expected text such as 'usb:0', got {_shown(camera)}")
        camera = "usb:0"
    config = VisionConfig(
        deck=_choice(section, "deck", tuple(DECKS), deck, problems),
        marker=_choice(section, "marker", MARKER_KINDS, "qr", problems),
        decoder=_choice(section, "decoder", DECODER_NAMES, "zxing", problems),
        calibration=_calibration(section, Path(base_dir), problems),
        zone_units=_choice(section, "zone_units", ZONE_UNITS, "mm", problems),
        zones=_zones(section.get("zones", {}), problems),
        place_after=place_after,
        remove_after=remove_after,
        camera=camera,
        resolution=_resolution(section, problems),
        fps=_time(section, "fps", problems),
        recognition=_choice(section, "recognition", RECOGNITIONS, "markers", problems),
        faces=_faces(section, deck, Path(base_dir), problems),
    )
    if config.zones and config.zone_units == "mm" and "calibration" not in section:
        problems.append('vision.calibration: the zones are in table millimetres, which needs a calibration: '
                        'add calibration = "calibration.json" and run cardtable calibrate --config THIS_FILE '
                        '(or give the zones in image pixels: zone_units = "px")')
    return config


def load_vision_config(section: Mapping[str, object] | None, base_dir: str | Path = ".") -> VisionConfig:
    """:func:`parse_vision` for a ``[vision]`` table on its own (the vision commands).

    :raises InvalidInput: naming every key that is wrong and what it should be.
    """
    problems: list[str] = []
    config = parse_vision(section or {}, problems, base_dir=base_dir)
    if problems:
        raise InvalidInput("\n".join(problems))
    return config
