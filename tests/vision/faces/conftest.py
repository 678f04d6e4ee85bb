"""Real deck designs rendered once (cached outside the repository by vision.faces.designs) and
enrolled from their images, as a user would with ``cardtable enroll faces --from-images``."""

from __future__ import annotations

import shutil

import pytest

from engine.decks import get_deck
from vision.faces.designs import CARDDECKS, DESIGNS, write_deck_images
from vision.faces.enrol import enrol_from_images

if shutil.which("rsvg-convert") is None or not CARDDECKS.is_dir():
    pytest.skip("needs rsvg-convert (librsvg2-bin) and the card designs (kdegames-card-data, -kf5 on bookworm)",
                allow_module_level=True)


@pytest.fixture(scope="session")
def deck():
    return get_deck("standard")


@pytest.fixture(scope="session")
def images(tmp_path_factory, deck):
    """design -> a folder of its 52 card images named by face (AS.png, 10H.png, ...)."""
    root = tmp_path_factory.mktemp("scans")
    return {design: write_deck_images(design, root / design, deck.faces) for design in DESIGNS}


@pytest.fixture(scope="session")
def enrolments(images, deck):
    """design -> its enrolment from its images."""
    return {design: enrol_from_images(folder, deck, design) for design, folder in images.items()}


@pytest.fixture
def recorded(tmp_path):
    """``recorded(camera, enrolment, frames)``: ``frames`` frames of the synthetic ``camera``
    (10 a second) saved as JPEG, as a camera records them, and a table config naming
    ``enrolment``; returns the folder of frames and the config file."""
    import cv2

    def record(camera, enrolment, frames: int):
        folder = tmp_path / "frames"
        folder.mkdir()
        for i in range(frames):
            cv2.imwrite(str(folder / f"{i:04d}.jpg"), camera.frame_at(i / 10), [cv2.IMWRITE_JPEG_QUALITY, 80])
        enrolment.save(tmp_path / "deck.npz")
        config = tmp_path / "table.toml"
        config.write_text('[vision]\nrecognition = "faces"\nfaces = "deck.npz"\nzone_units = "px"\n')
        return folder, config

    return record
