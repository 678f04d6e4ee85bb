"""The camera twin for the demo: bots' cards drawn by the synthetic camera, read by the real
vision pipeline.

Time is simulated: each frame is taken 1/fps later than the last, and a move waits for the
pipeline's event about it. The zones are the default layout for the number of seats and the game's
shared zones (:func:`vision.table_layout.default_layout`), and the pipeline is calibrated with the synthetic
camera's own homography, as ``cardtable calibrate`` would find it from the mat.

The pipeline's sentences for the table ("I can't read the card in front of Seat 2: lift it and
lay it again") are handed to the table as :class:`~engine.table_events.Notice` inputs, as the
camera thread does. A player whose card the camera did not read lifts it and lays it again a
little moved, as people at a table do, up to :attr:`SimCamera.lay_again` times.

With a ``design`` the cards are an unmarked deck of a real design (:mod:`vision.faces.designs`),
enrolled from its rendered images and loaded through the config, as a user's deck is:
``cardtable enroll faces --from-images DIR`` then ``[vision] recognition = "faces"``.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np

from engine.cards import Card
from engine.decks import PhysicalCard, get_deck
from engine.errors import InvalidInput
from engine.table_events import PLACED, REMOVED, Notice, TableEvent, TableInput
from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.pipeline import Pipeline
from vision.sim.script import Place, Remove
from vision.sim.synthetic import Effects, SyntheticCamera, table_homography
from vision.table_layout import Polygon, default_layout, seat_zones

#: How far (mm) a card laid again lies from where it was first laid, and how much it turns (degrees).
AGAIN_SHIFT, AGAIN_TURN = (12.0, 22.0), 6.0
#: Which way each try moves it, in degrees from straight away from the nearest other card: tries
#: at least AGAIN_SHIFT[0] apart, so none is taken for the one before.
AGAIN_SIDES = (0.0, 90.0, -90.0)
#: Seconds a card lifted to be laid again is off the table.
LIFTED = 0.5


def table_layout(zones: list[str]) -> dict[str, Polygon]:
    """Zone polygons in table mm for ``zones`` (the seats' and the shared ones): the default layout."""
    seats = [z for z in zones if z in seat_zones(len(zones))]
    return default_layout(len(seats), [z for z in zones if z not in seats])


def enrolled_faces(deck_name: str, design: str) -> Path:
    """The enrolment file of ``design``'s cards of ``deck_name``, made from the design's rendered
    images as ``cardtable enroll faces --from-images`` makes it from a user's scans.

    :raises InvalidInput: for a deck whose cards are not playing cards (It's 15).
    :raises OSError: when the design is not installed or cannot be drawn.
    """
    from vision.faces.designs import cache_dir, write_deck_images
    from vision.faces.enrol import enrol_from_images

    deck = get_deck(deck_name)
    if not all(isinstance(face, Card) for face in deck.faces):
        raise InvalidInput(f"the {design} design draws playing cards, not the {deck.title}: "
                           "play a game of playing cards with --recognition faces")
    folder = cache_dir() / design
    scans = write_deck_images(design, folder / f"scans-{deck.name}", deck.faces)
    return enrol_from_images(scans, deck, design).save(folder / f"{deck.name}.npz")


class SimCamera:
    """An overhead camera over the simulated table; each move returns the inputs it caused.

    :param design: draw an unmarked deck of this design (see :mod:`vision.faces.designs`),
        recognised by its faces; ``None``: the printable marked cards.
    :param lay_again: how many times a player lays again a card the camera did not read.
    :raises InvalidInput: a deck no design draws.
    :raises OSError: the design is not installed.
    """

    def __init__(self, deck: str, zones: list[str], *, marker: str = "qr", resolution: str = "1080p",
                 fps: float = 30.0, effects: Effects = Effects(hands=False), seed: int = 0, timeout: float = 3.0,
                 design: str | None = None, lay_again: int = 3) -> None:
        layout = table_layout(zones)
        config = VisionConfig(deck=deck, marker=marker, zones=layout, zone_units="mm", fps=fps)
        card_image = None
        if design is not None:
            from vision.faces.designs import DesignArt

            card_image = DesignArt(design)
            config = VisionConfig(deck=deck, zones=layout, zone_units="mm", fps=fps, recognition="faces",
                                  faces=enrolled_faces(deck, design))
        self.camera = SyntheticCamera(deck, marker, (), resolution=resolution, zones=layout,
                                      effects=effects, seed=seed, card_image=card_image)
        size = self.camera.resolution
        calibration = Calibration(np.linalg.inv(table_homography(size)), size, 0.0)
        self.pipeline = Pipeline(config, calibration=calibration)
        self.fps, self.timeout, self.lay_again = fps, timeout, lay_again
        self.now = 0.0
        self.on_table: dict[str, PhysicalCard] = {}
        self.frame_seconds: list[float] = []        # wall time the pipeline took on each frame
        self.notices: list[str] = []                # every sentence the pipeline had for the table
        self.laid_again: list[int] = []             # for each card laid again: how many times
        self.unread: list[str] = []                 # cards still unread when their player gave up
        self.wrong: list[str] = []                  # cards the camera placed that were not on the table
        self._rng = random.Random(seed)
        self._step(lambda item: False, 2 / fps)     # the empty table is the first reference

    def _step(self, done, limit: float) -> list[TableInput]:
        inputs, end = [], self.now + limit
        while self.now < end:
            self.now += 1 / self.fps
            frame = self.camera.frame_at(self.now)
            start = time.perf_counter()
            got: list[TableInput] = [*self.pipeline.process(frame, self.now)]
            self.frame_seconds.append(time.perf_counter() - start)
            lying = self.camera.cards_at(self.now)
            self.wrong += [e.card.id for e in got
                           if isinstance(e, TableEvent) and e.kind != REMOVED and e.card.id not in lying]
            self.notices += [item.text for item in got if isinstance(item, Notice)]
            inputs += got
            if any(done(item) for item in got):
                break
        return inputs

    @staticmethod
    def _placed(card: PhysicalCard, item: TableInput) -> bool:
        return isinstance(item, TableEvent) and item.card.id == card.id and item.kind == PLACED

    def _laid(self, card: PhysicalCard) -> list[TableInput]:
        """Frames until ``card`` is placed, or the table says it cannot read a card."""
        return self._step(lambda item: isinstance(item, Notice) or self._placed(card, item), self.timeout)

    def place(self, card: PhysicalCard, zone: str) -> list[TableInput]:
        """Lay ``card`` in ``zone``; lay it again, a little moved, while the camera has not said it
        was placed (unread, unseen, or taken for a card that was still lying elsewhere)."""
        self.camera.add(Place(self.now + 0.5 / self.fps, card.id, zone))
        self.on_table[card.id] = card
        inputs = self._laid(card)
        first, times = self.camera.pose_at(card.id, self.now), 0
        while not any(self._placed(card, item) for item in inputs) and times < self.lay_again:
            self.camera.add(Remove(self.now + 0.5 / self.fps, card.id))
            inputs += self._step(lambda item: False, LIFTED)
            self.camera.add(Place(self.now + 0.5 / self.fps, card.id, zone, *self._moved(first, zone, times)))
            times += 1
            inputs += self._laid(card)
        self.laid_again += [times] if times else []
        self.unread += [] if any(self._placed(card, item) for item in inputs) else [card.id]
        return inputs

    def _moved(self, pose, zone: str, tries: int) -> tuple[float, float, float]:
        """Where a hand lays a card again for the ``tries``-th time, a little moved from ``pose``
        and still in ``zone`` (x, y and angle): first away from the nearest other card (cards laid
        touching are hard to tell apart), then to either side of that, each try somewhere new."""
        others = [(pose.x - p.x, pose.y - p.y) for p in self.camera.cards_at(self.now).values()]
        away = np.array(min(others, key=lambda d: np.hypot(*d), default=(0.0, -1.0)), float)
        turn = np.radians(AGAIN_SIDES[tries % len(AGAIN_SIDES)])
        step = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]]) @ away
        step *= self._rng.uniform(*AGAIN_SHIFT) / (np.hypot(*step) or 1.0)
        for sign in (1, -1):
            x, y = pose.x + sign * step[0], pose.y + sign * step[1]
            if self.camera.zone_of(x, y) == zone:
                break
        return float(x), float(y), pose.angle + self._rng.uniform(-AGAIN_TURN, AGAIN_TURN)

    def take(self, card: PhysicalCard) -> list[TableInput]:
        self.camera.add(Remove(self.now + 0.5 / self.fps, card.id))
        self.on_table.pop(card.id, None)
        return self._step(lambda item: isinstance(item, TableEvent) and item.card.id == card.id and item.kind == REMOVED,
                          self.timeout)

    def gather(self, cards) -> list[TableInput]:
        """Pick ``cards`` up together; returns when the pipeline has seen them all go."""
        waiting = {card.id for card in cards if card.id in self.on_table}
        for card_id in sorted(waiting):
            self.camera.add(Remove(self.now + 0.5 / self.fps, card_id))
            del self.on_table[card_id]

        def done(item):
            if isinstance(item, TableEvent) and item.kind == REMOVED:
                waiting.discard(item.card.id)
            return not waiting

        return self._step(done, self.timeout) if waiting else []

    def close(self) -> None:
        """Nothing to close: the synthetic camera holds no device, and each frame's sentences
        were collected with its events."""
