"""The ``[vision]`` section of the table config, checked and with defaults.

The application owns the TOML file and hands this module its ``[vision]`` table as a dict::

    [vision]
    deck = "standard"            # standard | french40 | its15
    marker = "qr"                # qr | aruco
    decoder = "zxing"            # zxing | pyzbar | opencv (QR decks); ArUco decks always use aruco
    calibration = "calibration.json"   # from 'cardtable calibrate'; relative to the config file
    zone_units = "mm"            # mm (table millimetres, needs calibration) | px (image pixels)
    place_after = 0.25           # seconds a card must be seen steadily before it is placed
    remove_after = 3.0           # seconds a card must be missing before it is removed
    camera = "usb:0"             # usb:N | picamera | a video file | a folder of frames | synthetic
    resolution = [1920, 1080]
    recognition = "markers"      # markers | faces (unmarked cards, by their printed faces)
    faces = "standard"           # the enrolled deck: a name from 'cardtable enroll faces', or a file
    [vision.zones]
    seat1 = [[-220, 120], [220, 120], [220, 258], [-220, 258]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from engine.decks import DECKS
from engine.errors import InvalidInput
from vision.decoders import DECODER_NAMES
from vision.faces.store import enrolment_path
from vision.markers import MARKER_KINDS
from vision.zones import ZONE_UNITS

_KEYS = {"deck", "marker", "decoder", "calibration", "zone_units", "zones", "place_after",
         "remove_after", "camera", "resolution", "fps", "recognition", "faces"}
RECOGNITIONS = ("markers", "faces")


@dataclass(frozen=True)
class VisionConfig:
    """The checked ``[vision]`` settings (see the module docstring for each key)."""

    deck: str = "standard"
    marker: str = "qr"
    decoder: str = "zxing"
    calibration: Path | None = None
    zone_units: str = "mm"
    zones: dict = field(default_factory=dict)
    place_after: float = 0.25
    remove_after: float = 3.0
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


def _choice(section: dict, key: str, choices, default: str) -> str:
    value = section.get(key, default)
    if value not in choices:
        raise InvalidInput(f"[vision] {key} = {value!r} is not one of {', '.join(map(str, choices))}")
    return value


def _seconds(section: dict, key: str, default: float) -> float:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise InvalidInput(f"[vision] {key} must be a positive number of seconds, not {value!r}")
    return float(value)


def load_vision_config(section: dict | None, base_dir: str | Path = ".") -> VisionConfig:
    """Check the ``[vision]`` table of a parsed config and fill in defaults; relative paths are
    taken from ``base_dir`` (the config file's folder).

    :raises InvalidInput: naming the key that is wrong and what it should be.
    """
    section = dict(section or {})
    unknown = sorted(set(section) - _KEYS)
    if unknown:
        raise InvalidInput(f"unknown [vision] setting {unknown[0]!r}: the settings are {', '.join(sorted(_KEYS))}")
    place_after, remove_after = _seconds(section, "place_after", 0.25), _seconds(section, "remove_after", 3.0)
    if remove_after <= place_after:
        raise InvalidInput("[vision] remove_after must be longer than place_after")
    zones = section.get("zones", {})
    if not isinstance(zones, dict):
        raise InvalidInput("[vision.zones] must be a table of zone name = [[x, y], ...] polygons")
    calibration = section.get("calibration")
    if calibration is not None:
        calibration = Path(base_dir) / str(calibration)
    resolution = section.get("resolution", [1920, 1080])
    if (not isinstance(resolution, (list, tuple)) or len(resolution) != 2
            or not all(isinstance(v, int) and v > 0 for v in resolution)):
        raise InvalidInput(f"[vision] resolution must be [width, height] in pixels, not {resolution!r}")
    camera = section.get("camera", "usb:0")
    if not isinstance(camera, str) or not camera:
        raise InvalidInput(f"[vision] camera must be text such as 'usb:0', not {camera!r}")
    deck = _choice(section, "deck", tuple(DECKS), "standard")
    faces = section.get("faces", deck)
    if not isinstance(faces, str) or not faces:
        raise InvalidInput(f"[vision] faces must name an enrolled deck or its file, not {faces!r}")
    return VisionConfig(
        deck=deck,
        marker=_choice(section, "marker", MARKER_KINDS, "qr"),
        decoder=_choice(section, "decoder", DECODER_NAMES, "zxing"),
        calibration=calibration,
        zone_units=_choice(section, "zone_units", ZONE_UNITS, "mm"),
        zones=zones,
        place_after=place_after,
        remove_after=remove_after,
        camera=camera,
        resolution=(int(resolution[0]), int(resolution[1])),
        fps=_seconds(section, "fps", 30.0),
        recognition=_choice(section, "recognition", RECOGNITIONS, "markers"),
        faces=enrolment_path(faces, base_dir),
    )
