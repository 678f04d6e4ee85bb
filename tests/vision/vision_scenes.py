"""Helpers of the vision tests: a scripted synthetic table recorded as webcam JPEG frames and read
by the pipeline with the product's defaults (real rendering, real JPEG, real decoder)."""

from __future__ import annotations

import cv2
import numpy as np

from engine.table_events import TableEvent
from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.frames import Frame
from vision.pipeline import Pipeline
from vision.sim.synthetic import DEFAULT_ZONES, Effects, SyntheticCamera

#: A hard table: a higher camera, wood, motion blur, flicker, webcam JPEG.
HARD = Effects(surface="wood", motion=0.03, flicker=0.06, noise=5.0, blur=0.9, glare=90.0, lighting=0.4)


def recorded(camera: SyntheticCamera, t: float, quality: int = 80) -> Frame:
    """The frame at ``t`` as the MJPG bytes a webcam sends."""
    return Frame(jpeg=cv2.imencode(".jpg", camera.frame_at(t), [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes())


class Table:
    """A scripted table, its camera and a pipeline with the product's defaults, played frame by frame."""

    def __init__(self, script: list, *, effects: Effects = HARD, seed: int = 3, view: float = 1.2,
                 fps: float = 15, start: float = 0.0, deck: str = "standard", marker: str = "qr",
                 resolution: str = "1080p", quality: int = 80) -> None:
        self.camera = SyntheticCamera(deck, marker, script, resolution=resolution, seed=seed, view=view, effects=effects)
        calibration = Calibration(np.linalg.inv(self.camera.homography), self.camera.resolution, 0.0)
        self.pipeline = Pipeline(VisionConfig(deck=deck, marker=marker, zones=DEFAULT_ZONES), calibration=calibration)
        self.fps, self.now, self.events, self.decodes, self.quality = fps, start, [], [], quality

    def run(self, until: float) -> list[tuple]:
        """Frames up to ``until`` seconds; every event so far as (kind, card, zone, from zone, time)."""
        while self.now < until - 1e-9:
            before = self.pipeline.stats.decodes
            self.events += self.pipeline.process(recorded(self.camera, self.now, self.quality), self.now)
            self.decodes.append(self.pipeline.stats.decodes - before)
            self.now += 1 / self.fps
        return [(e.kind, e.card.id, e.zone, e.from_zone, e.time) for e in self.events if isinstance(e, TableEvent)]


def kinds(events: list[tuple]) -> list[tuple]:
    return [e[:4] for e in events]
