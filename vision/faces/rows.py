"""Enrolment from the camera with the deck laid out in rows, a batch of rows at a time.

The user lays the first card still to enrol at the top left of the table; its size in the
picture says how many cards fit across and how many rows fit down (:func:`fit_grid`, leaving a
finger's width between cards). The cards still missing are then planned in rows, each suit in
deck order, left to right (:func:`plan_rows`: 4 rows of 13 when the camera sees that much, else a
suit over two or more rows), and a batch is as many rows as fit. For each batch the tool says
which card goes where; once the table has lain still it finds every card outline
(:func:`vision.faces.finder.card_outlines`), sorts them into rows and places by position
(:func:`assign_slots`), and says each slot that is empty, holds cards touching each other or
shows no clear outline, naming the card that goes there. When every slot holds one card, each
card is checked against the cards already enrolled and the rest of the batch (not alike, in
either orientation), and the batch is enrolled and saved together, so an interruption loses
nothing. A half-filled enrolment resumes with the cards still missing.

Each card is stored as its upright view as it lay in the picture (top towards the top of the
picture, :func:`vision.faces.enrol.table_outline`), or turned round when that way it looks more
like the cards of its rank already enrolled (:func:`vision.faces.enrol.same_way_round`): the
matcher reads every seen card both ways round against references that lie one way round, so a
card laid upside down enrols and reads as the same card. What cannot be seen is a card laid in
another card's place: the order the user lays the cards in is trusted.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

import cv2
import numpy as np

from engine.decks import PhysicalCard
from engine.errors import InvalidInput
from vision.faces.enrol import CLEAR, DONE, LAY_AGAIN, WAIT, checked_view, cut_out, guide, table_outline
from vision.faces.features import Features, order_quad
from vision.faces.finder import MIN_AREA, card_outlines, shape_of
from vision.faces.store import Enrolment
from vision.frames import Frame

#: Card pitch across, in card widths, and down, in card heights, when fitting the grid to the
#: picture: a card, a finger's width beside it, and room for the perspective (the near rows
#: look larger than the first card, laid at the far top left).
PITCH = (1.6, 1.35)
#: The share of the picture's width and height the rows may fill.
FILL = 0.92
#: Empty places said one by one; more are said together, as the cards still to lay.
SAY_MISSING = 3


@dataclass(frozen=True)
class Blob:
    """Something on the table that was not there before: its bounding ``box`` (x, y, w, h,
    picture pixels) and ``quad``, the card outline, when it is shaped like one card."""

    box: tuple[int, int, int, int]
    quad: np.ndarray | None

    @property
    def centre(self) -> np.ndarray:
        x, y, w, h = self.box
        return np.float32([x + w / 2, y + h / 2])


def find_blobs(mask: np.ndarray) -> list[Blob]:
    """The patches of ``mask`` (what differs from the empty table) large enough to be a card."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blobs = []
    for contour in contours:
        if cv2.contourArea(contour) < MIN_AREA:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        alone = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(alone, [contour - [x - 1, y - 1]], -1, 1, -1)
        quads = card_outlines(alone)
        blobs.append(Blob((x, y, w, h), quads[0] + np.float32([x - 1, y - 1]) if len(quads) == 1 else None))
    return blobs


def card_size(quad: np.ndarray) -> tuple[float, float]:
    """(short side, long side) of a card outline, pixels."""
    quad = order_quad(quad)
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(sides[0] + sides[2]) / 2, float(sides[1] + sides[3]) / 2


def fit_grid(frame_size: tuple[int, int], quad: np.ndarray) -> tuple[int, int]:
    """(columns, rows) of cards that fit in a picture of ``frame_size`` (width, height), from
    the outline of one card laid at its top left."""
    width, height = card_size(quad)
    columns = int(FILL * frame_size[0] / (PITCH[0] * width))
    rows = int(FILL * frame_size[1] / (PITCH[1] * height))
    return max(columns, 1), max(rows, 1)


def plan_rows(cards: list[PhysicalCard], columns: int) -> list[list[str]]:
    """The rows to lay ``cards`` in (card ids, left to right): each suit in deck order, in rows
    of at most ``columns`` cards, a suit too long for one row split evenly over several."""
    suits = [[card.id for card in run] for _, run in groupby(cards, key=lambda card: getattr(card.face, "suit", None))]
    rows = []
    for run in suits:
        parts = -(-len(run) // columns)
        size, extra = divmod(len(run), parts)
        start = 0
        for part in range(parts):
            end = start + size + (part < extra)
            rows.append(run[start:end])
            start = end
    return rows


def layout_rows(deck) -> list[list[str]]:
    """The rows a whole ``deck`` is laid out in for one photo: each suit in a row, in deck order
    (the standard pack: spades, hearts, diamonds, clubs, each from the ace to the king)."""
    return plan_rows(list(deck.cards), max(len(list(run)) for _, run in
                                           groupby(deck.cards, key=lambda card: getattr(card.face, "suit", None))))


def _places(row: list[str], slots: list[int]) -> str:
    cards = " and ".join(row[s] for s in slots)
    where = f"place {slots[0] + 1}" if len(slots) == 1 else f"places {slots[0] + 1}-{slots[-1] + 1}"
    return f"{where} ({cards})"


def _row_groups(blobs: list[Blob], height: float) -> list[list[Blob]]:
    """``blobs`` in rows, top to bottom (a new row where the centres step down by more than
    half a card), each left to right."""
    groups: list[list[Blob]] = []
    for blob in sorted(blobs, key=lambda b: b.centre[1]):
        if groups and blob.centre[1] - groups[-1][-1].centre[1] < 0.5 * height:
            groups[-1].append(blob)
        else:
            groups.append([blob])
    return [sorted(group, key=lambda b: b.centre[0]) for group in groups]


def _spans(group: list[Blob], width: float) -> list[int]:
    """How many places each blob of a row covers: one for a card, more for cards touching."""
    widths = [card_size(b.quad)[0] for b in group if b.quad is not None]
    width = float(np.median(widths)) if widths else width
    # A card laid askew is at most about 1.3 cards wide; wider is cards touching side by side.
    return [max(1, round(b.box[2] / width)) if b.quad is None or b.box[2] > 1.6 * width else 1 for b in group]


def _first_place(group: list[Blob], span: int, placed: dict[tuple[int, int], Blob], n: int) -> int:
    """The place of a row's leftmost blob: the column of the complete rows' cards nearest it
    (rows start under each other), or the first when no row is complete."""
    y, x = float(group[0].centre[1]), group[0].box[0] + group[0].box[2] / (2 * span)
    best, best_dx = 0, np.inf
    for column in range(n):
        points = [(float(b.centre[1]), float(b.centre[0])) for (_, c), b in placed.items() if c == column and b.quad is not None]
        if not points:
            continue
        ys, xs = np.array(points).T
        at = float(np.polyval(np.polyfit(ys, xs, 1), y)) if len(set(ys)) > 1 else float(xs.mean())
        if abs(at - x) < best_dx:
            best, best_dx = column, abs(at - x)
    return best


def assign_slots(blobs: list[Blob], rows: list[list[str]]) -> tuple[dict[tuple[int, int], Blob], list[str]]:
    """Which blob lies in which place (row, column) of ``rows``, and what is wrong, in
    sentences naming the card expected in each place that is not one clear card."""
    sizes = [card_size(b.quad) for b in blobs if b.quad is not None]
    if not sizes:
        return {}, ["I can't see the outline of any card: lay the cards face up, a finger's width apart"]
    card = np.median(np.float32(sizes), axis=0)
    groups = _row_groups(blobs, float(card[1]))
    if len(groups) != len(rows):
        laid = "; ".join(f"row {r + 1}: {' '.join(row)}" for r, row in enumerate(rows))
        return {}, [f"I see {len(groups)} row{'s' * (len(groups) != 1)} of cards, but {len(rows)} go here ({laid})"]
    spans = [_spans(group, float(card[0])) for group in groups]
    placed: dict[tuple[int, int], Blob] = {}
    covered: dict[tuple[int, int], tuple[Blob, int]] = {}
    complete = [r for r, row in enumerate(rows) if sum(spans[r]) == len(row)]
    later = [r for r in range(len(rows)) if r not in complete]
    problems, muddled = [], set()
    # The usual gap between neighbours, over the whole batch (a row with holes has few).
    usual = float(np.median([b.box[0] - (a.box[0] + a.box[2]) for group in groups for a, b in zip(group, group[1:])]
                            or [0.0]))
    for r in complete + later:
        group, row = groups[r], rows[r]
        if sum(spans[r]) > len(row):
            problems.append(f"row {r + 1}: I see {sum(spans[r])} cards, but {len(row)} go here ({' '.join(row)})")
            muddled.add(r)
            continue
        gaps = [b.box[0] - (a.box[0] + a.box[2]) for a, b in zip(group, group[1:])]
        width = float(np.median([b.box[2] / s for b, s in zip(group, spans[r])]))
        place = 0 if r in complete else _first_place(group, spans[r][0], placed, len(row))
        for i, (blob, span) in enumerate(zip(group, spans[r])):
            if i and r not in complete:
                place += max(0, round((gaps[i - 1] - usual) / max(width + max(usual, 0.0), 1.0)))
            for k in range(span):
                covered[(r, place + k)] = (blob, span)
            if span == 1:
                placed[(r, place)] = blob
            place += span
        if place > len(row):
            muddled.add(r)
            problems.append(f"row {r + 1}: the cards are not where {len(row)} cards go ({' '.join(row)}): "
                            f"lay them left to right, each under the row above")
    missing = [(r, column) for r, row in enumerate(rows) for column in range(len(row))
               if r not in muddled and (r, column) not in covered]
    if len(missing) > SAY_MISSING:  # still being laid out: what is left, in one sentence
        left = "; ".join(f"row {r + 1}: {' '.join(rows[r][c] for _, c in group)}"
                         for r, group in groupby(missing, key=lambda place: place[0]))
        problems.append(f"{len(missing)} of the {sum(map(len, rows))} cards are still to lay ({left})")
    for r, row in enumerate(rows):
        column = 0
        while column < len(row) and r not in muddled:
            blob, span = covered.get((r, column), (None, 1))
            slots = list(range(column, min(column + span, len(row))))
            if blob is None:
                if len(missing) <= SAY_MISSING:
                    problems.append(f"row {r + 1}, {_places(row, slots)}: the card is missing")
            elif span > 1:
                problems.append(f"row {r + 1}, {_places(row, slots)}: the cards touch; leave a finger's width between them")
            elif blob.quad is None:
                problems.append(f"row {r + 1}, {_places(row, slots)}: I can't see the card's outline; "
                                f"lay it straight, apart from the others")
            column += len(slots)
    return placed, problems


class RowsEnrolment:
    """Enrolment from the camera with the deck laid out in rows (see the module docstring).

    :param enrolment: a new or half-filled enrolment (resuming with the cards still missing).
    :param grid: (columns, rows) that fit in the picture, when known; else measured from the
        first card laid (:meth:`measure`).
    """

    def __init__(self, enrolment: Enrolment, grid: tuple[int, int] | None = None) -> None:
        self.enrolment, self.grid = enrolment, grid

    @property
    def progress(self) -> tuple[int, int]:
        return len(self.enrolment.cards), len(self.enrolment.deck.cards)

    @property
    def batch(self) -> list[list[str]]:
        """The rows of the batch to lay now (card ids, left to right); empty when done."""
        missing = [self.enrolment.deck.card(card_id) for card_id in self.enrolment.missing]
        if not missing:
            return []
        if self.grid is None:
            return [[missing[0].id]]
        return plan_rows(missing, self.grid[0])[:self.grid[1]]

    def measure(self, frame_size: tuple[int, int], quad: np.ndarray) -> None:
        """Fit the grid to the picture from the outline of the first card, laid at its top left."""
        self.grid = fit_grid(frame_size, quad)

    def prompt(self) -> str:
        done, total = self.progress
        batch = self.batch
        if not batch:
            return f"all {total} cards are enrolled"
        first = self.enrolment.deck.card(batch[0][0])
        if self.grid is None:
            return (f"({done}/{total} enrolled) lay the {first.face.name} ({first.id}) face up at the top left "
                    f"of the table, the right way up as you look at it: it shows how many cards fit")
        rows = "; ".join(f"row {r + 1}: {' '.join(row)}" for r, row in enumerate(batch))
        count = sum(len(row) for row in batch)
        return (f"({done}/{total} enrolled) lay these {count} cards face up in {len(batch)} "
                f"row{'s' * (len(batch) != 1)}, each row left to right from the {first.id} at the top left, "
                f"a finger's width apart: {rows}")

    def offer(self, frame: Frame, blobs: list[Blob]) -> list[str]:
        """Enrol the batch laid out in ``frame`` (``blobs``: what lies on the table, each card
        outline on the card's edge); returns the sentences saying what is wrong, naming the
        card expected in each place (nothing is enrolled then; each card is checked as
        :func:`vision.faces.enrol.cut_out` checks it), or an empty list when the whole batch is
        enrolled."""
        batch = self.batch
        placed, problems = assign_slots(blobs, batch)
        if problems:
            return problems
        trial = Enrolment(self.enrolment.deck, self.enrolment.name, dict(self.enrolment.cards))
        seen: dict[str, Features] = {}
        views: dict[str, np.ndarray] = {}
        shapes: dict[str, float] = {}
        for (r, column), blob in sorted(placed.items()):
            card_id = batch[r][column]
            try:
                views[card_id] = cut_out(frame.colour(), blob.quad, "", LAY_AGAIN)
                seen[card_id] = trial.cards[card_id] = checked_view(trial, card_id, views[card_id])
                shapes[card_id] = shape_of(blob.quad)
            except InvalidInput as err:
                problems.append(f"row {r + 1}, place {column + 1}, where the {card_id} goes: {err}")
        if not problems:
            self.enrolment.cards.update(seen)
            self.enrolment.views.update(views)
            self.enrolment.shapes.update(shapes)
        return problems


def enrol_rows(frames, walk: RowsEnrolment, say, *, steady: int = 10, save=None) -> None:
    """Guide an enrolment in rows from camera frames: the first frame is the empty table; the
    first card is measured once it has lain still for ``steady`` frames (a third of a second at
    30 frames a second: a user laying cards one by one pauses), then each batch is
    read once the table has lain still again: enrolled and saved (``save`` is called after each
    batch), or what is wrong is said; the next batch is asked for once the table is clear.

    :param frames: an iterable of frames (:class:`vision.frames.Frame` or BGR arrays).
    :param say: called with each sentence for the user.
    """
    def read(frame: Frame, blobs: list[Blob]) -> str:
        blobs = [Blob(b.box, None if b.quad is None else table_outline(frame, b.quad)) for b in blobs]
        if walk.grid is None:
            if len(blobs) == 1 and blobs[0].quad is not None:
                walk.measure(frame.size, blobs[0].quad)
                say(walk.prompt())
            else:
                say(f"lay the {walk.batch[0][0]} alone at the top left of the table")
            return WAIT
        problems = walk.offer(frame, blobs)
        for problem in problems:
            say(problem)
        if problems:
            return WAIT
        if save is not None:
            save()
        done, total = walk.progress
        if done == total:
            say(f"({done}/{total} enrolled) all cards are enrolled")
            return DONE
        say(f"({done}/{total} enrolled) saved; take the cards away")
        return CLEAR

    guide(frames, walk.prompt, say, steady=steady, read=read, find=lambda mask: [(b.centre, b) for b in find_blobs(mask)])
