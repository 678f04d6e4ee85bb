"""Enrolment from the camera with the deck laid out in rows: a user lays each batch where the tool
says, on the synthetic camera's table drawing a real deck design; the enrolment then reads
cards as well as one made from images, and what goes wrong is said naming the card."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cli import main
from vision.faces.finder import new_patches
from vision.faces.matcher import Matcher
from vision.faces.rows import Blob, RowsEnrolment, assign_slots, enrol_rows, find_blobs, plan_rows
from vision.faces.store import Enrolment
from vision.frames import Frame
from vision.sim.script import Place, Remove
from vision.sim.synthetic import Effects, SyntheticCamera

#: Where the user lays the first card, and the step to the next place across and down (mm):
#: a finger's width (about 2 cm) between cards.
TOP_LEFT, STEP = (-400.0, -205.0), (84.0, 108.0)


class User:
    """Lays out each batch as the tool says, on a synthetic table, and takes it away again;
    ``frames`` is what the camera sees meanwhile. ``mistakes`` changes what is laid:
    card id -> another card id laid in its place, None to leave its place empty, or a number
    of millimetres to lay it that much to the left of its place."""

    def __init__(self, design: str, walk, *, mistakes: dict | None = None, seed: int = 0) -> None:
        from vision.faces.designs import DesignArt

        self.walk, self.mistakes = walk, dict(mistakes or {})
        self.camera = SyntheticCamera("standard", "qr", [], effects=Effects(hands=False), card_image=DesignArt(design),
                                      seed=seed)
        self.t, self.on_table, self.rng = 0.0, [], np.random.default_rng(seed)

    def _frames(self, count: int):
        for _ in range(count):
            self.t += 0.1
            yield self.camera.frame_at(self.t)

    def lay(self, card: str, row: int, column: int) -> None:
        mistake = self.mistakes.get(card, card)
        shift = mistake if isinstance(mistake, float) else 0.0
        card = card if shift else mistake
        if card is None or card in self.on_table:
            return
        x, y = TOP_LEFT[0] + column * STEP[0] - shift, TOP_LEFT[1] + row * STEP[1]
        # A little off the place and askew; every fifth card upside down.
        angle = float(self.rng.uniform(-4, 4)) + (180 if len(self.on_table) % 5 == 4 else 0)
        x, y = x + float(self.rng.uniform(-4, 4)), y + float(self.rng.uniform(-4, 4))
        self.camera.add(Place(self.t + 0.05, card, "centre", x=x, y=y, angle=angle))
        self.on_table.append(card)

    def _until(self, done, most: int):
        """Frames until ``done()`` (the tool has read the table), at most ``most`` of them."""
        for frame in self._frames(most):
            yield frame
            if done():
                return

    def frames(self, batches: int = 99):
        """Frames of the table: empty, the first card, then each batch laid out and taken away
        (``batches`` of them, then the user stops; also when a batch is refused)."""
        yield from self._frames(1)
        self.lay(self.walk.batch[0][0], 0, 0)
        yield from self._until(lambda: self.walk.grid is not None, 14)
        for _ in range(batches):
            if not self.walk.batch:
                return
            done = self.walk.progress[0]
            for r, row in enumerate(self.walk.batch):
                for column, card in enumerate(row):
                    self.lay(card, r, column)
            yield from self._until(lambda: self.walk.progress[0] != done, 14)
            if self.walk.progress[0] == done:
                return  # the batch was refused: the user reads what was said
            for card in self.on_table:
                self.camera.add(Remove(self.t + 0.05, card))
            self.on_table = []
            yield from self._frames(2)


@pytest.fixture(scope="module")
def rows_enrolment(deck, tmp_path_factory):
    """The nicu-white deck enrolled in rows, interrupted after its first batch and resumed."""
    path = tmp_path_factory.mktemp("rows") / "mine.npz"
    enrolment = Enrolment(deck, "mine")
    walk = RowsEnrolment(enrolment)
    said: list[str] = []
    enrol_rows(User("nicu-white", walk).frames(batches=1), walk, said.append, steady=2,
               save=lambda: enrolment.save(path))
    first = dict(progress=walk.progress, grid=walk.grid, said=said, half=shutil.copy(path, path.with_name("half.npz")))
    resumed = RowsEnrolment(Enrolment.load(path))
    said_after: list[str] = []
    enrol_rows(User("nicu-white", resumed, seed=1).frames(), resumed, said_after.append, steady=2,
               save=lambda: resumed.enrolment.save(path))
    return first, said_after, Enrolment.load(path)


@pytest.mark.slow
def test_the_whole_deck_enrols_in_rows_and_resumes_after_an_interruption(rows_enrolment):
    first, said_after, enrolment = rows_enrolment
    assert first["said"][0].startswith("(0/52 enrolled) lay the ace of spades (AS) face up at the top left")
    columns, rows = first["grid"]
    assert columns >= 7 and rows >= 2
    # The camera sees fewer than 13 across: each suit in two rows, as many rows as fit.
    assert "row 1: AS 2S 3S 4S 5S 6S 7S; row 2: 8S 9S 10S JS QS KS" in first["said"][1]
    done = first["progress"][0]
    assert done == 13 * (rows // 2) and f"({done}/52 enrolled) saved; take the cards away" in first["said"]
    assert said_after[0].startswith(f"({done}/52 enrolled) lay the ")
    assert said_after[-1] == "(52/52 enrolled) all cards are enrolled"
    assert enrolment.missing == [] and len(enrolment.cards) == 52


def test_plan_rows_splits_a_suit_evenly_when_13_do_not_fit(deck):
    assert plan_rows(list(deck.cards), 13)[1] == [card.id for card in deck.cards[13:26]]
    rows = plan_rows(list(deck.cards[3:]), 5)
    assert rows[:4] == [["4S", "5S", "6S", "7S", "8S"], ["9S", "10S", "JS", "QS", "KS"],
                        ["AH", "2H", "3H", "4H", "5H"], ["6H", "7H", "8H", "9H"]]
    assert sum(map(len, rows)) == 49


def _views(camera: SyntheticCamera, t: float):
    """(card id, upright view) of each card lying alone on the table at ``t``."""
    from vision.faces.enrol import table_outline
    from vision.faces.features import warp_upright

    frame = Frame.of(camera.frame_at(t))
    empty = cv2.GaussianBlur(cv2.cvtColor(camera.frame_at(0), cv2.COLOR_BGR2GRAY), (3, 3), 0)
    poses = camera.cards_at(t)
    views = []
    for blob in find_blobs(new_patches(frame.grey(), empty, np.ones(empty.shape, bool))):
        centre = cv2.perspectiveTransform(blob.centre.reshape(1, 1, 2), np.linalg.inv(camera.homography)).ravel()
        card = min(poses, key=lambda c: np.hypot(poses[c].x - centre[0], poses[c].y - centre[1]))
        views.append((card, warp_upright(frame.colour(), table_outline(frame, blob.quad))))
    return views


def compare(design: str, enrolments: dict[str, Enrolment], seeds) -> dict[str, tuple[int, int, int]]:
    """Cards laid anywhere under the camera's light, noise and blur, a third upside down (a
    scene per seed, every fourth card of the deck), read by each of ``enrolments``: name ->
    (read right, read wrong, cards)."""
    from vision.faces.designs import DesignArt
    from vision.faces.features import describe, turned

    deck = next(iter(enrolments.values())).deck
    views = []
    for seed in seeds:
        script = [Place(0.1, card.id, "centre", x=-330 + 110 * (i % 7), y=-170 + 120 * (i // 7),
                        angle=float(17 * i % 25 - 12 + 180 * (i % 3 == 0)))
                  for i, card in enumerate(deck.cards[seed % 4::4])]
        camera = SyntheticCamera("standard", "qr", script, effects=Effects(hands=False),
                                 card_image=DesignArt(design), seed=seed)
        seen = _views(camera, 0.5)
        assert len(seen) == len(script)
        views += seen
    counts = {}
    for name, enrolment in enrolments.items():
        matcher = Matcher(enrolment)
        named = [(card, matcher.read((describe(view), describe(turned(view)))).card) for card, view in views]
        counts[name] = (sum(got is not None and got.id == card for card, got in named),
                        sum(got is not None and got.id != card for card, got in named), len(views))
    return counts


@pytest.mark.slow
def test_the_rows_enrolment_reads_cards_as_well_as_one_from_images(rows_enrolment, enrolments):
    counts = compare("nicu-white", {"rows": rows_enrolment[2], "images": enrolments["nicu-white"]}, (3, 4))
    (rows, rows_wrong, cards), (images, images_wrong, _) = counts["rows"], counts["images"]
    assert rows_wrong == images_wrong == 0
    # Within a card of the scans' enrolment here (over 8 scenes and 4 designs, see docs/faces.md).
    assert rows >= images - 1 and rows >= 0.9 * cards


def _record(folder, frames) -> str:
    """Frames written as JPEG files, as a USB camera's MJPG recorded; returns the folder."""
    folder.mkdir()
    for i, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:04d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return str(folder)


def test_card_by_card_from_a_recorded_camera_through_the_command(tmp_path, capsys):
    """A camera hands over Frames (JPEG), not arrays: the one-card mode reads them."""
    from vision.faces.designs import DesignArt

    camera = SyntheticCamera("standard", "qr", [Place(0.05, "AS", "centre", angle=3)], effects=Effects(hands=False),
                             card_image=DesignArt("standard"))
    source = _record(tmp_path / "frames", [camera.frame_at(i / 10) for i in range(9)])
    out = tmp_path / "mine.npz"
    assert main(["enroll", "faces", "--source", source, "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "enrolled AS" in said and "1/52 cards enrolled" in said
    assert list(Enrolment.load(out).cards) == ["AS"]


def _second_batch(rows_enrolment, mistakes: dict, seed: int = 2) -> tuple[RowsEnrolment, list[str]]:
    """The second batch of the deck laid out with ``mistakes`` (see :class:`User`)."""
    walk = RowsEnrolment(Enrolment.load(rows_enrolment[0]["half"]))
    said: list[str] = []
    enrol_rows(User("nicu-white", walk, mistakes=mistakes, seed=seed).frames(batches=1), walk, said.append, steady=2)
    return walk, said


@pytest.mark.slow
def test_a_card_like_one_already_enrolled_is_refused_in_a_sentence(rows_enrolment):
    # The AS of the first batch laid again where it lay then (the same seed lays it the same way).
    walk, said = _second_batch(rows_enrolment, {"AD": "AS"}, seed=0)
    done = rows_enrolment[0]["progress"][0]
    assert walk.progress == (done, 52)
    assert "row 1, place 1, where the AD goes: the pictures of AD and AS look alike: is one of them " \
           "a second picture of the same card?" in said


def _problems(said: list[str]) -> list[str]:
    return [line for line in said if line.startswith("row ")]


def test_a_missing_card_is_named_by_its_place(rows_enrolment):
    """Missing at the start of a row (placed by the rows above), in the middle, at the end."""
    walk, said = _second_batch(rows_enrolment, {"8D": None, "10D": None, "KD": None})
    assert walk.progress[0] == rows_enrolment[0]["progress"][0]
    assert _problems(said) == ["row 2, place 1 (8D): the card is missing", "row 2, place 3 (10D): the card is missing",
                               "row 2, place 6 (KD): the card is missing"]


def test_cards_touching_are_named_and_nothing_is_enrolled(rows_enrolment):
    walk, said = _second_batch(rows_enrolment, {"JD": STEP[0] - 56.0})
    assert walk.progress[0] == rows_enrolment[0]["progress"][0]
    assert _problems(said) == ["row 2, places 3-4 (10D and JD): the cards touch; leave a finger's width between them"]


@pytest.mark.slow
def test_the_command_enrols_in_rows_from_a_recorded_camera(rows_enrolment, deck, tmp_path, capsys):
    """A user laying the first batch as told, recorded as JPEG frames and replayed through
    ``cardtable enroll faces --rows``: the batch is enrolled and saved; the rest is to come."""
    walk = RowsEnrolment(Enrolment(deck, "mine"))
    recorded = []

    def recording(frames):
        for frame in frames:
            recorded.append(frame)
            yield frame

    # The user waits, as a person would, for the tool to read the table (at the command's pace).
    enrol_rows(recording(User("nicu-white", walk).frames(batches=1)), walk, lambda text: None)
    source = _record(tmp_path / "frames", recorded)
    out = tmp_path / "mine.npz"
    assert main(["enroll", "faces", "--rows", "--source", source, "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "lay the ace of spades (AS) face up at the top left" in said
    done = rows_enrolment[0]["progress"][0]
    assert f"({done}/52 enrolled) saved; take the cards away" in said
    assert f"{done}/52 cards enrolled, saved in {out}; run the same command to carry on" in said
    assert len(Enrolment.load(out).cards) == done


if __name__ == "__main__":
    # The figures in docs/faces.md: python tests/vision/faces/test_enrol_rows.py [DESIGN ...]
    import sys
    import tempfile

    from engine.decks import get_deck
    from vision.faces.designs import write_deck_images
    from vision.faces.enrol import enrol_from_images

    standard = get_deck("standard")
    for design in sys.argv[1:] or ["nicu-white", "dondorf", "tigullio-international", "standard"]:
        walk = RowsEnrolment(Enrolment(standard, design))
        enrol_rows(User(design, walk).frames(), walk, lambda text: None, steady=2)
        with tempfile.TemporaryDirectory() as folder:
            scans = enrol_from_images(write_deck_images(design, folder, standard.faces), standard, design)
        counts = compare(design, {"rows": walk.enrolment, "images": scans}, range(3, 11))
        print(design, f"enrolled in rows {walk.progress[0]}/52;",
              "; ".join(f"{name}: {right} right, {wrong} wrong of {cards}" for name, (right, wrong, cards) in counts.items()))


def _blob(x: int, y: int, w: int, h: int, card: bool) -> Blob:
    quad = np.float32([(x, y), (x + w, y), (x + w, y + h), (x, y + h)]) if card else None
    return Blob((x, y, w, h), quad)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1900), st.integers(0, 1000), st.integers(20, 400), st.integers(20, 400),
                          st.booleans()), max_size=30),
       st.lists(st.integers(1, 13), min_size=1, max_size=5))
def test_whatever_lies_on_the_table_is_placed_or_said(boxes, lengths):
    rows = [[f"C{r}.{c}" for c in range(n)] for r, n in enumerate(lengths)]
    placed, problems = assign_slots([_blob(*box) for box in boxes], rows)
    assert all(isinstance(line, str) and line for line in problems)
    if not problems:
        assert sorted(placed) == [(r, c) for r, row in enumerate(rows) for c in range(len(row))]
        assert all(blob.quad is not None for blob in placed.values())
        assert len({id(blob) for blob in placed.values()}) == len(placed)


def test_a_grid_laid_out_exactly_is_placed_and_a_hole_is_named():
    rows = [["AS", "2S", "3S", "4S"], ["5S", "6S", "7S"]]
    grid = [_blob(100 + 150 * c, 100 + 200 * r, 110, 150, True) for r, row in enumerate(rows) for c in range(len(row))]
    placed, problems = assign_slots(grid, rows)
    assert problems == [] and placed[(1, 1)] is grid[5]
    placed, problems = assign_slots(grid[:4] + grid[5:], rows)
    assert problems == ["row 2, place 1 (5S): the card is missing"]
    placed, problems = assign_slots(grid[:1], rows)
    assert problems == ["I see 1 row of cards, but 2 go here (row 1: AS 2S 3S 4S; row 2: 5S 6S 7S)"]
    placed, problems = assign_slots(grid[:2] + grid[4:5], rows)
    assert problems == ["4 of the 7 cards are still to lay (row 1: 3S 4S; row 2: 6S 7S)"]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 51), st.integers(1, 20))
def test_plan_rows_lays_every_card_once_a_suit_to_a_row(deck, start, columns):
    cards = list(deck.cards[start:])
    rows = plan_rows(cards, columns)
    assert [card for row in rows for card in row] == [card.id for card in cards]
    assert all(1 <= len(row) <= columns and len({deck.card(c).face.suit for c in row}) == 1 for row in rows)
