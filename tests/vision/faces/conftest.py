"""Real deck designs rendered once (cached outside the repository by vision.faces.designs) and
enrolled from their images, as a user would with ``cardtable enroll faces --from-images``: once
a test run, whichever pytest-xdist worker asks first (:func:`once_a_run`)."""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
from pathlib import Path

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
def upright_views(deck):
    """design -> its cards' clean upright views (card id -> BGR, at the size the matcher
    describes), rendered once a session: the cards as a perfect cut of a perfect picture."""
    import cv2

    from vision.faces.designs import element_id, render_card
    from vision.faces.features import UPRIGHT

    made: dict = {}

    def views(design: str) -> dict:
        if design not in made:
            made[design] = {card.id: cv2.resize(render_card(design, element_id(card.face)), UPRIGHT, interpolation=cv2.INTER_AREA)
                            for card in deck.cards}
        return made[design]
    return views


@pytest.fixture(scope="session")
def images(tmp_path_factory, deck):
    """design -> a folder of its 52 card images named by face (AS.png, 10H.png, ...)."""
    root = tmp_path_factory.mktemp("scans")
    return {design: write_deck_images(design, root / design, deck.faces) for design in DESIGNS}


def once_a_run(folder: Path, name: str, make):
    """What ``make()`` returns, made once in a test run: kept in ``folder`` (the run's, which
    every worker shares) by the first worker to ask, under a lock the others wait on, and read
    there by the rest. An enrolment takes seconds, and every worker asks for the same ones."""
    kept = folder / f"{name}.pickle"
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            return pickle.loads(kept.read_bytes())
        made = make()
        kept.with_suffix(".part").write_bytes(pickle.dumps(made))
        os.replace(kept.with_suffix(".part"), kept)
        return made


@pytest.fixture(scope="session")
def run_folder(tmp_path_factory) -> Path:
    """A folder every worker of this test run shares."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def enrolments(images, deck, run_folder):
    """design -> its enrolment from its images."""
    return {design: once_a_run(run_folder, f"enrolment-{design}", lambda: enrol_from_images(folder, deck, design))
            for design, folder in images.items()}


@pytest.fixture(scope="session", autouse=True)
def bench_enrolments_once_a_run(run_folder):
    """``faces_bench.enrolled`` (the enrolments its scenes replay, which tests replay too) made
    once a run, not once a worker."""
    import faces_bench as bench  # benchmarks/, on the tests' path

    made = bench.enrolled

    def enrolled(design: str, kind: str = "clean"):
        if (design, kind) not in bench._ENROLLED:
            bench._ENROLLED[(design, kind)] = once_a_run(run_folder, f"bench-{design}-{kind}", lambda: made(design, kind))
        return bench._ENROLLED[(design, kind)]

    bench.enrolled = enrolled
    yield
    bench.enrolled = made


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
