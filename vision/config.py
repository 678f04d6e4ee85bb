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
    faces = "standard"           # the enrolled deck: a name from 'cardtable enroll faces', or a file;
                                 # "standard-index": a standard deck nobody enrolled, read by its corner indices
    [vision.zones]
    seat1 = [[-220, 120], [220, 120], [220, 258], [-220, 258]]

Reading it is pure (no file is opened), so ``cardtable calibrate`` can read a config whose
calibration does not exist yet; :data:`VISION`, the section as the table config runs it, then
checks this machine's files (:func:`check_here`: the calibration, the enrolled faces) and keeps the
calibration it loaded for the pipeline. Zones are checked
as a table has them: each within :data:`MAX_REACH_MM` of the mat's centre (mm) or inside the
picture (px), no two overlapping (a card there would be in both); numbers are finite and fit a
float; ``usb:N`` names a camera number.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from config_kit.reads import choice, is_number, shown, unknown_keys
from config_kit.section import Context, Section
from engine.decks import DECKS
from engine.errors import InvalidInput
from engine.outside_files import special_kind
from vision.calibration import Calibration, load_calibration
from vision.decoders import DECODER_NAMES
from vision.faces.index_reader import STANDARD_INDEX, reads_standard_index
from vision.faces.store import enrolment_path
from vision.markers import MARKER_KINDS
from vision.recognisers import recogniser_names
from vision.zones import ZONE_UNITS

_KEYS = ("deck", "marker", "decoder", "calibration", "zone_units", "zones", "place_after",
         "remove_after", "camera", "resolution", "fps", "recognition", "faces")
#: key -> (default, low, high, whether ``low`` itself is allowed)
_TIMES = {"place_after": (0.0, 0, 60, True), "remove_after": (30.0, 0, 600, False), "fps": (30.0, 0, 240, False)}
_MAX_POINTS = 64
_MAX_PIXELS = 16384
#: how far from the mat's centre a zone may reach, in table mm (a table 3 m across)
MAX_REACH_MM = 1500
#: the highest camera number of usb:N
_MAX_USB = 63


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


def _choice(section: Mapping, key: str, choices, default: str, problems: list[str]) -> str:
    return choice(section.get(key, default), f"vision.{key}", problems, choices) or default


def _time(section: Mapping, key: str, problems: list[str]) -> float:
    default, low, high, low_allowed = _TIMES[key]
    value = section.get(key, default)
    if not is_number(value) or not (low <= value if low_allowed else low < value) or value > high:
        unit = "frames a second" if key == "fps" else "seconds"
        frm = f"{low}" if low_allowed else f"more than {low}"
        problems.append(f"vision.{key}: expected {unit} from {frm} to {high}, got {shown(value)}")
        return default
    return float(value)


def _polygon(value: object) -> tuple[tuple[float, float], ...] | None:
    """The points of a zone polygon, or None when they are not at least three finite [x, y]."""
    if not isinstance(value, list) or not 3 <= len(value) <= _MAX_POINTS:
        return None
    if not all(isinstance(p, list) and len(p) == 2 and all(map(is_number, p)) for p in value):
        return None
    return tuple((float(x), float(y)) for x, y in value)


def _area(points: tuple[tuple[float, float], ...]) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))) / 2


def _zones(value: object, problems: list[str], units: str,
           resolution: tuple[int, int]) -> dict[str, tuple[tuple[float, float], ...]]:
    """The zone polygons; one that lies off the table or the image, or overlaps another, is said."""
    if not isinstance(value, Mapping):
        problems.append("vision.zones: expected a [vision.zones] table of zone name = [[x, y], ...] polygons")
        return {}
    zones = {}
    for name, polygon in value.items():
        points = _polygon(polygon)
        if points is None:
            problems.append(f"vision.zones.{name}: expected a list of at least three [x, y] points "
                            f"(at most {_MAX_POINTS}), got {shown(polygon)}")
        elif _area(points) <= 0:
            problems.append(f"vision.zones.{name}: the points enclose no area (they lie on one line)")
        elif not name.isprintable() or not name.strip():
            problems.append(f"vision.zones: {name!r} is not a usable zone name")
        elif (far := _beyond(points, units, resolution)) is not None:
            problems.append(f"vision.zones.{name}: {far}")
        else:
            zones[name] = points
    for (one, a), (other, b) in itertools.combinations(zones.items(), 2):
        shared = overlap(a, b)
        if shared > 0.01:
            problems.append(f"vision.zones: {one} and {other} overlap ({shared:.0%} of {other if _area(b) <= _area(a) else one}): "
                            f"a card there would be in both; draw them apart")
    return zones


def _beyond(points: tuple[tuple[float, float], ...], units: str, resolution: tuple[int, int]) -> str | None:
    """Why a zone lies where no card can be seen: off the table (mm) or off the image (px)."""
    for x, y in points:
        if units == "mm" and math.hypot(x, y) > MAX_REACH_MM:
            return (f"the point [{x:g}, {y:g}] is {math.hypot(x, y) / 1000:.1f} m from the mat's centre: zones are "
                    f"in table millimetres from the mat's centre, at most {MAX_REACH_MM} mm away")
        if units == "px" and not (0 <= x <= resolution[0] and 0 <= y <= resolution[1]):
            return (f"the point [{x:g}, {y:g}] is outside the {resolution[0]}x{resolution[1]} image: "
                    f"zones in pixels lie inside the camera's picture")
    return None


def overlap(a: tuple[tuple[float, float], ...], b: tuple[tuple[float, float], ...]) -> float:
    """The share of the smaller of two polygons that the other covers (0 to 1), drawn on a grid
    of a 400th of their joint extent (any polygon, convex or not); each is drawn a cell smaller
    all round, so zones that only touch do not overlap.

    >>> square = ((0, 0), (100, 0), (100, 100), (0, 100))
    >>> overlap(square, ((100, 0), (200, 0), (200, 100), (100, 100))), overlap(square, square)
    (0.0, 1.0)
    """
    points = np.float64(a + b)
    low, size = points.min(axis=0), np.ptp(points, axis=0).max() or 1.0
    scale = 399 / size
    inner = np.ones((3, 3), np.uint8)

    def mask(polygon) -> np.ndarray:
        image = np.zeros((400, 400), np.uint8)
        cv2.fillPoly(image, [np.round((np.float64(polygon) - low) * scale).astype(np.int32)], 1)
        return cv2.erode(image, inner, borderValue=0)

    first, second = mask(a), mask(b)
    smaller = min(int(first.sum()), int(second.sum())) or 1
    return int((first & second).sum()) / smaller


def _calibration(section: Mapping, base_dir: Path, problems: list[str]) -> Path | None:
    value = section.get("calibration")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        problems.append(f"vision.calibration: expected the calibration file's name, got {shown(value)}")
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
        problems.append(f"vision.faces: expected the name of an enrolled deck or its file, got {shown(value)}")
        return None
    if value == STANDARD_INDEX:           # a standard-index deck nobody enrolled: no file
        return Path(STANDARD_INDEX)
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
                        f"got {shown(value)}")
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
    unknown_keys(section, _KEYS, "vision", problems)
    place_after, remove_after = _time(section, "place_after", problems), _time(section, "remove_after", problems)
    if remove_after <= place_after:
        problems.append("vision.remove_after: must be longer than place_after")
    camera = section.get("camera", "usb:0")
    if not isinstance(camera, str) or not camera.strip() or not camera.isprintable():
        problems.append(f"vision.camera: expected text such as 'usb:0', got {shown(camera)}")
        camera = "usb:0"
    elif camera.startswith("usb:") and not (camera[4:].isdigit() and int(camera[4:]) <= _MAX_USB):
        problems.append(f"vision.camera: {camera!r} is no camera: write usb:0, usb:1, ... (the camera's number, "
                        f"0 to {_MAX_USB}; cardtable doctor lists them)")
        camera = "usb:0"
    units, resolution = _choice(section, "zone_units", ZONE_UNITS, "mm", problems), _resolution(section, problems)
    config = VisionConfig(
        deck=_choice(section, "deck", tuple(DECKS), deck, problems),
        marker=_choice(section, "marker", MARKER_KINDS, "qr", problems),
        decoder=_choice(section, "decoder", DECODER_NAMES, "zxing", problems),
        calibration=_calibration(section, Path(base_dir), problems),
        zone_units=units,
        zones=_zones(section.get("zones", {}), problems, units, resolution),
        place_after=place_after,
        remove_after=remove_after,
        camera=camera,
        resolution=resolution,
        fps=_time(section, "fps", problems),
        recognition=_choice(section, "recognition", recogniser_names(), "markers", problems),
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


def check_here(config: VisionConfig, problems: list[str], steps: list[str], context: Context) -> Calibration | None:
    """This machine's files for a camera table: the enrolled faces (when the cards are recognised
    by them) and the calibration, which is loaded, checked against the resolution and returned."""
    where = f"--config {context.path}"
    faces = config.faces if config.recognition == "faces" and not reads_standard_index(config.faces) else None
    if faces is not None and (kind := special_kind(faces)) is not None:
        problems.append(f"vision.faces: {faces} is not a regular file ({kind}); name the enrolled deck's file")
    elif faces is not None and not faces.exists():
        steps.append(f"vision.faces: {faces.name} does not exist yet: run cardtable enroll faces "
                     f"--deck {config.deck} (--from-images DIR, or with the camera)")
    calibration = config.calibration
    if calibration is None:
        return None
    if not calibration.exists():
        steps.append(f"vision.calibration: {calibration.name} does not exist yet: run cardtable calibrate {where}")
        return None
    try:
        made = load_calibration(calibration)
    except (InvalidInput, OSError) as err:
        problems.append(f"vision.calibration: {err}")
        return None
    if tuple(made.image_size) != config.resolution:
        (w, h), (rw, rh) = made.image_size, config.resolution
        problems.append(f"vision.resolution: {calibration.name} was made at {w}x{h}, not {rw}x{rh}: "
                        f"calibrate again ({where}) or set resolution = [{w}, {h}]")
        return None
    return made


VISION = Section("vision", VisionConfig, lambda section, problems, context: parse_vision(
    section, problems, base_dir=context.base_dir, deck=context.deck), check=check_here)
