"""Real deck designs rendered once (cached outside the repository by vision.faces.designs) and
enrolled from their images, as a user would with ``cardtable enroll faces --from-images``."""

from __future__ import annotations

import shutil

import pytest

from engine.decks import get_deck
from vision.faces.designs import CARDDECKS, DESIGNS, write_deck_images
from vision.faces.enrol import enrol_from_images

if shutil.which("rsvg-convert") is None or not CARDDECKS.is_dir():
    pytest.skip("needs rsvg-convert (librsvg2-bin) and the card designs (kdegames-card-data-kf5)",
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
