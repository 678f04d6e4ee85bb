"""The camera as a reader kind: ``[input] kind = "camera"`` reads ``[vision]``. Its zones are the
calibrated polygons of ``[vision.zones]``; it sees a card leave; ``cardtable doctor`` looks for
the camera device; it recognises cards in pictures; its twin is the synthetic camera.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.config.doctor import check_camera
from cardtable.readers.kinds import Needed, ReaderKind, Wiring
from config_kit.reads import close_hint
from vision.config import VISION

if TYPE_CHECKING:
    from cardtable.config.check import TableConfig


def start(wiring: Wiring):
    """The camera, with a fresh source and pipeline each time the supervisor starts it, and the
    calibration checking loaded."""
    from cardtable.table.loop import CameraThread
    from vision.pipeline import Pipeline
    from vision.sources import open_configured

    config = wiring.config
    vision = config[VISION]

    def camera():
        pipeline = Pipeline(vision, calibration=config.calibration)
        source = wiring.tap(open_configured(vision), pipeline)
        return CameraThread(source, pipeline, wiring.put, wiring.stop).started()

    return [("camera", camera)]


def check_zones(config: TableConfig, needed: Needed, problems: list[str]) -> None:
    """Every zone the game needs has a polygon in ``[vision.zones]``."""
    zones = config[VISION].zones
    if not zones:
        problems.append(f"vision.zones: none given; the table needs a zone for each seat "
                        f"({', '.join(config.setup.seat_zones)}) and {', '.join(config.shared_zones())} "
                        "(see cardtable config example)")
        return
    for zone, why in needed:
        if zone not in zones:
            problems.append(f"vision.zones: no zone {zone!r}{why}{close_hint(zone, zones)}")


def enrolment(config: TableConfig) -> str:
    return "The camera reads the cards' printed codes: there is nothing to enrol."


def twin(deck: str, zones: list[str], **options):
    """The synthetic camera over the simulated table (``design``: an unmarked deck read by its faces)."""
    from cardtable.sim.camera import SimCamera

    return SimCamera(deck, zones, **options)


CAMERA = ReaderKind("camera", "the camera", start, check_zones, enrolment, section=VISION,
                    doctor=(("camera", check_camera),), twin=twin, recognises=True)
