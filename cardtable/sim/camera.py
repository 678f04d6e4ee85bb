"""The camera twin for the demo: bots' cards drawn by the synthetic camera, read by the real
vision pipeline.

Time is simulated: each frame is taken 1/fps later than the last, and a move waits for the
pipeline's event about it. The zones are the default layout for the number of seats and the game's
shared zones (:func:`vision.table_layout.default_layout`), and the pipeline is calibrated with the synthetic
camera's own homography, as ``cardtable calibrate`` would find it from the mat.
"""

from __future__ import annotations

import time

import numpy as np

from engine.decks import PhysicalCard, get_deck
from engine.table_events import TableEvent
from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.pipeline import Pipeline
from vision.script import Place, Remove
from vision.synthetic import Effects, SyntheticCamera, table_homography
from vision.table_layout import Polygon, default_layout, seat_zones


def table_layout(zones: list[str]) -> dict[str, Polygon]:
    """Zone polygons in table mm for ``zones`` (the seats' and the shared ones): the default layout."""
    seats = [z for z in zones if z in seat_zones(len(zones))]
    return default_layout(len(seats), [z for z in zones if z not in seats])


class SimCamera:
    """An overhead camera over the simulated table; each move returns the events it caused."""

    swipe = False

    def __init__(self, deck: str, zones: list[str], *, marker: str = "qr", resolution: str = "1080p",
                 fps: float = 30.0, effects: Effects = Effects(hands=False), seed: int = 0, timeout: float = 3.0,
                 design: str | None = None) -> None:
        layout = table_layout(zones)
        decoder = card_image = None
        if design is not None:  # an unmarked deck of a real design, enrolled from its images
            from vision.faces.designs import DesignArt, cache_dir, write_deck_images
            from vision.faces.decoder import FaceDecoder
            from vision.faces.enrol import enrol_from_images

            card_image = DesignArt(design)
            scans = write_deck_images(design, cache_dir() / design / "scans", get_deck(deck).faces)
            decoder = FaceDecoder(enrol_from_images(scans, get_deck(deck), design))
        self.camera = SyntheticCamera(deck, marker, (), resolution=resolution, zones=layout,
                                      effects=effects, seed=seed, card_image=card_image)
        size = self.camera.resolution
        calibration = Calibration(np.linalg.inv(table_homography(size)), size, 0.0)
        config = VisionConfig(deck=deck, marker=marker, zones=layout, zone_units="mm", fps=fps)
        self.pipeline = Pipeline(config, calibration=calibration, decoder=decoder)
        self.fps, self.timeout = fps, timeout
        self.now = 0.0
        self.on_table: dict[str, PhysicalCard] = {}
        self.frame_seconds: list[float] = []        # wall time the pipeline took on each frame
        self.notices: list[str] = []
        self._step(lambda e: False, 2 / fps)        # the empty table is the first reference

    def _step(self, done, limit: float) -> list[TableEvent]:
        events, end = [], self.now + limit
        while self.now < end:
            self.now += 1 / self.fps
            frame = self.camera.frame_at(self.now)
            start = time.perf_counter()
            got = self.pipeline.process(frame, self.now)
            self.frame_seconds.append(time.perf_counter() - start)
            events += got
            if any(done(e) for e in got):
                break
        return events

    def place(self, card: PhysicalCard, zone: str) -> list[TableEvent]:
        self.camera.add(Place(self.now + 0.5 / self.fps, card.id, zone))
        self.on_table[card.id] = card
        return self._step(lambda e: e.card.id == card.id and e.kind == "placed", self.timeout)

    def take(self, card: PhysicalCard) -> list[TableEvent]:
        self.camera.add(Remove(self.now + 0.5 / self.fps, card.id))
        self.on_table.pop(card.id, None)
        return self._step(lambda e: e.card.id == card.id and e.kind == "removed", self.timeout)

    def gather(self, cards) -> list[TableEvent]:
        """Pick ``cards`` up together; returns when the pipeline has seen them all go."""
        waiting = {card.id for card in cards if card.id in self.on_table}
        for card_id in sorted(waiting):
            self.camera.add(Remove(self.now + 0.5 / self.fps, card_id))
            del self.on_table[card_id]

        def done(event):
            waiting.discard(event.card.id if event.kind == "removed" else None)
            return not waiting

        return self._step(done, self.timeout) if waiting else []

    def close(self) -> None:
        self.notices = list(self.pipeline.warnings)
