"""Cards in one still picture with no empty table to compare with: a photo or scan of one card
(enrolment), a photo of the deck laid out in rows, a photo of a table.

A card is a convex four-cornered shape of a card's proportions (:data:`ASPECT`, wide enough for
a phone held 30 degrees off vertical) whose colour steps clearly across its sides
(:data:`STEP`): the card's edge against what it lies on. Outlines are looked for in three
ways, since no one way works on every surface (:func:`candidate_masks`): the closed edges of the
picture, what is lighter and less coloured than its surroundings (a card's white face on
wood, felt or cloth), and what differs from the colour of the picture's border (a scan's lid,
a plain desk; on a light grey lid, by any more than the lid's own spread). Where none finds the
one card of a picture of one card, its closed edge filled is looked at (:func:`rings_mask`). A
card is seen nearly as a parallelogram (:func:`seen_as_card`). An outline inside another card's outline is that card's print (a court card's
frame), not a card. A picture shaped like a card may be the card itself, cut to its edge (a scan
cropped to the card, a rendered card image): it is taken whole when its opposite corners look
alike turned round (a card's indices), more so than those of any outline in it (a court card's
frame), or when no clear outline lies in it and its edges are a card's plain stock, see
:func:`whole_card`.

Everything is looked for at :data:`WORK` pixels at most across, then each card again in its own
part of the picture, its outline moved onto the card's edge at full resolution
(:func:`to_full`, :func:`on_edge`) and checked to follow it (:func:`edge_followed`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.faces.features import CORNERS, UPRIGHT_OUTLINE, order_quad, warp_upright
from vision.frames import Frame
from vision.faces.finder import BACKGROUND_STEPS, STANDS_OUT, outward_sides, refine_quad, sides_meet

#: The longest side, in pixels, cards are looked for at; and each card's own part of the
#: picture, where its outline is found again (see :func:`to_full`).
WORK, CLOSE = 1000, 600
#: Long side over short side of a card outline as seen: a poker card (1.40) or a bridge card
#: (1.54), foreshortened up to 30 degrees either way.
ASPECT = (1.1, 1.85)
#: The width, in pixels of the working copy, a card needs for a gap of a few millimetres (a
#: twentieth of its width) beside it to outlast the masks' closing (5 px, see
#: :func:`candidate_masks`): cards laid close by hand are then found apart (see :func:`work_across`).
CARD_PX = 100
#: Where a picture's border is a light grey lid (lightness :data:`PAPER_GREY` at least, CIE
#: Lab a and b within LID_COLOUR of grey: a scanner's), what differs from it by PLAIN times the
#: border's own spread (its 90th percentile), and PLAIN_LEAST at least (CIE Lab doubled, as
#: :func:`candidate_masks` measures it), may be a card: a white card on a scanner's light lid
#: differs from it by 5-10 (not looked at in a picture of a back, see :func:`candidate_masks`).
PLAIN, PLAIN_LEAST, LID_COLOUR = 3.0, 8.0, 8.0
#: Things thinner than these (px of the working copy) joined to a card's edge are the
#: background's, each size one way of looking (see :func:`rings_mask`): an edge found is 3-5
#: px wide, the letters printed on a casino's felt 10-15, the smallest card looked for 100.
THIN = (9, 21, 41)
#: A card lying on a cloth patterned finer than its print is looked for by its paper, smooth where
#: the cloth is not (see :func:`smooth_masks`): how much the colours vary within a few pixels
#: (CIE Lab, its spread about the mean of a Gaussian window of each sigma here, px of the
#: working copy: the finest cloth's squares are 4-8 px), and what is smooth, SMOOTHER times the
#: border's at its median or less; not looked at where the border varies less than ROUGH_LEAST
#: in the smallest window (at its median, in phone photos: a desk, wood or felt 1.6-5.9, a
#: checked cloth 8-22).
ROUGHNESS, SMOOTHER, ROUGH_LEAST = (2.0, 4.0), 0.5, 7.0
#: A hole closed by a picture's edges is the table when its colour lies within UNLIKE (CIE Lab,
#: 0-255 scale) of TABLE_LIKE of the picture's border or more (a cloth's checks of two colours,
#: wood's planks, felt; a card lying on the border is a small share of it).
UNLIKE, TABLE_LIKE = 15.0, 0.05
#: Share of its four-cornered outline a card's shape fills (rounded corners, a little blur).
FILL = 0.85
#: A card seen up to 30 degrees off vertical from a card's length away or more: each corner
#: within SKEW degrees of square, each side at most FORESHORTEN times as long as the one
#: opposite (a camera twice a card's length away at 30 degrees: 9 degrees and 1.3 times). A
#: shape of the background joined to a card's side (a cloth's checks, a table's edge) is none.
SKEW, FORESHORTEN = 25.0, 1.6
#: The smallest card, as a share of the picture's area (a card of a deck laid out in 4 rows of
#: 13 fills about 0.8 %).
LEAST_SHARE = 0.003
#: Colour distance (CIE Lab, 0-255 scale) across a card's side, at the median of its samples,
#: that is a card's edge; three sides must step this much, the fourth half as much (a side
#: beyond the picture's edge, of a card cut by it, is not counted; two must be seen).
STEP = 10.0
#: Opposite corners of a card's upright view, one turned round, correlate this well at least
#: (see :func:`symmetry`): an index is printed in opposite corners.
SYMMETRIC = 0.5
#: A side stepping less than this is doubtful: of two outlines of one card, the outer is
#: taken unless a side of it is doubtful and no side of the inner one (see :func:`_outermost`).
DOUBTFUL = 2 * STEP
#: How far inside and outside a card's side its colour is compared, in short sides (see
#: :func:`side_steps`); how near an outline the card's edge must run (see :func:`edge_followed`).
ACROSS, ON_EDGE = 0.04, 0.015
#: Share of each side of a card found along which its edge must step (see :func:`edge_followed`).
FOLLOWED = 0.95
#: How far an outline's side may be moved onto the card's edge, in short sides (a card's shadow
#: taken with it, a dark line printed along its edge left out, see :func:`on_edge`).
REACH = 0.08
#: Grey-level spread of a corner of the upright view that holds print (a card's index).
INKED = 12.0


@dataclass(frozen=True)
class Outline:
    """A card outline found in a picture: its ``quad`` (picture px, ordered as
    :func:`vision.faces.features.order_quad` orders), its ``step``, the colour step across its
    weakest side seen."""

    quad: np.ndarray
    step: float

    @property
    def area(self) -> float:
        return float(cv2.contourArea(self.quad))


def working_copy(image: np.ndarray, work: int = WORK) -> tuple[np.ndarray, float]:
    """``image`` shrunk to ``work`` pixels at most across, and the scale it was shrunk by."""
    scale = min(1.0, work / max(image.shape[:2]))
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return image, scale


def work_across(cards: int) -> int:
    """The working size to look for cards at in a picture that holds ``cards`` side by side
    across it, a finger's width apart (one photo of a deck laid out in rows): each card
    :data:`CARD_PX` wide at least, never less than :data:`WORK`."""
    return max(WORK, round(cards * 1.4 * CARD_PX))


def picture_edges(image: np.ndarray, hsv: np.ndarray | None = None) -> np.ndarray:
    """The edges of a picture (BGR; ``hsv``, the same in HSV where at hand), of its brightness
    and of its colourfulness, 3 px wide."""
    soft = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (0, 0), 1.2)
    level = float(np.median(soft))
    edges = cv2.Canny(soft, 0.5 * level + 10, level + 30)
    saturation = (cv2.cvtColor(image, cv2.COLOR_BGR2HSV) if hsv is None else hsv)[:, :, 1]
    edges |= cv2.Canny(cv2.GaussianBlur(saturation, (0, 0), 1.2), 40, 90)
    return cv2.dilate(edges, np.ones((3, 3), np.uint8))


def lengths(vectors: np.ndarray) -> np.ndarray:
    """The length of each vector along ``vectors``' last axis: ``np.linalg.norm(vectors,
    axis=-1)`` to the bit (the squares summed in the same order), in well under half its time
    over a picture's colours (a 1000 px picture: 25 ms against 10)."""
    squares = np.square(vectors)
    total = squares[..., 0].copy()
    for k in range(1, squares.shape[-1]):
        total += squares[..., k]
    return np.sqrt(total)


def distances(lab: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """The colour distance of each pixel of ``lab`` (a picture's CIE Lab colours, 8 bits a
    channel) from ``colour`` (float32): ``lengths(lab.astype(np.float32) - colour)`` to the bit,
    each channel's square looked up for its 256 levels and the squares summed in the same order,
    in under half its time (no float copies of the picture: a 1000 px picture, 4 ms against 9)."""
    levels = np.arange(256, dtype=np.float32)[:, None]
    squares = cv2.LUT(lab, np.square(levels - np.float32(colour)).reshape(256, 1, 3))
    total = squares[..., 0] + squares[..., 1]
    total += squares[..., 2]
    return np.sqrt(total)


def candidate_masks(image: np.ndarray, *, lid: bool = True) -> list[tuple[np.ndarray, int]]:
    """Binary pictures whose shapes may be cards, each with how to follow its contours
    (``cv2.RETR_LIST`` for closed edges, where a card is the hole inside its edge); with
    ``lid``, on a light grey border, what differs from it at all (:data:`PLAIN`: not for a
    picture of a back, which may be the back cut to its edge, a panel printed inside a grey
    margin)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    edges = picture_edges(image, hsv)
    light = cv2.GaussianBlur(hsv[:, :, 2].astype(np.int16) - hsv[:, :, 1], (0, 0), 1.5)
    light = np.clip(light, 0, 255).astype(np.uint8)
    _, pale = cv2.threshold(light, 0, 1, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    middle = np.median(np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]]).astype(np.float32), axis=0)
    apart = distances(lab, middle)
    apart = cv2.GaussianBlur(np.clip(apart * 2, 0, 255).astype(np.uint8), (0, 0), 1.5)
    _, unlike = cv2.threshold(apart, 0, 1, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    masks = [pale, unlike, (apart > 30).astype(np.uint8)]
    if lid and middle[0] >= PAPER_GREY and np.abs(middle[1:] - 128).max() <= LID_COLOUR:
        # On a light grey lid (a scanner's) a white card differs from it by a few levels only:
        # anything beyond the lid's own spread stands out.
        spread = float(np.percentile(np.concatenate([apart[0], apart[-1], apart[:, 0], apart[:, -1]]), 90))
        masks.append((apart > max(PLAIN * spread, PLAIN_LEAST)).astype(np.uint8))
    kernel = np.ones((5, 5), np.uint8)
    opened = [cv2.morphologyEx(cv2.morphologyEx(m, cv2.MORPH_OPEN, kernel), cv2.MORPH_CLOSE, kernel) for m in masks]
    return [(edges, cv2.RETR_LIST)] + [(m, cv2.RETR_EXTERNAL) for m in opened]


def rings_mask(image: np.ndarray) -> list[tuple[np.ndarray, int]]:
    """More ways of looking for the one card of a picture where :func:`candidate_masks` find
    none (see :func:`find_card`): its closed edge filled (:func:`_rings_filled`), with the thin
    things that touch it opened away, at each size of :data:`THIN` (a plank line, a pen, a
    casino's printed arc and words). Not among them: a card's print closes rings too, and
    filled, a figure turned on a card cut to its edge would look like a card lying in the
    picture."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    filled = _rings_filled(picture_edges(image), lab)
    return [(cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((size, size), np.uint8)), cv2.RETR_EXTERNAL)
            for size in THIN]


def smooth_masks(image: np.ndarray) -> list[tuple[np.ndarray, int]]:
    """The last way of looking for the one card of a picture, where neither
    :func:`candidate_masks` nor :func:`rings_mask` find one (see :func:`find_card`): what is
    smooth (:data:`ROUGHNESS`) in a picture whose border is not, at each window size. On a
    cloth of fine squares every other way sees the cloth joined to the card (its edges
    everywhere, its pale squares as pale as the paper, its colours as far from the border's
    middle one as the card's); the card's paper alone is smooth, all round its print."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    masks = []
    for sigma in ROUGHNESS:
        mean = cv2.GaussianBlur(lab, (0, 0), sigma)
        rough = np.sqrt(np.maximum(cv2.GaussianBlur(lab * lab, (0, 0), sigma) - mean * mean, 0).sum(axis=2))
        level = float(np.median(np.concatenate([rough[0], rough[-1], rough[:, 0], rough[:, -1]])))
        if sigma == ROUGHNESS[0] and level < ROUGH_LEAST:
            return []   # a plain border: nothing is smoother than it
        smooth = (rough < SMOOTHER * level).astype(np.uint8)
        smooth = cv2.morphologyEx(cv2.morphologyEx(smooth, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)),
                                  cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
        masks.append((smooth, cv2.RETR_EXTERNAL))
    return masks


def _rings_filled(edges: np.ndarray, lab: np.ndarray) -> np.ndarray:
    """The closed edges of a picture (``lab``: its colours) with the holes they close filled,
    but those of a colour the picture's border shows (:data:`TABLE_LIKE`): a card's edge,
    joined to its print inside and to a plank line, a pen or a cloth's stripe outside, is a
    ring whose inside is no one hole (the print splits it) and whose outside is no card's
    shape; a patch of the table closed by the card's edge, a pen and a plank line, or a square
    of a checked cloth, is the table's colour."""
    count, labels = cv2.connectedComponents((edges == 0).astype(np.uint8), connectivity=4)
    sizes = np.maximum(np.bincount(labels.ravel(), minlength=count), 1)
    colours = np.stack([np.bincount(labels.ravel(), weights=lab[:, :, k].ravel(), minlength=count) / sizes
                        for k in range(3)], axis=1)
    border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    border = border[:: max(1, len(border) // 400)]
    near = (lengths(colours[:, None, :] - border[None, :, :]) < UNLIKE).mean(axis=1)
    fill = near < TABLE_LIKE
    fill[np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))] = False
    return ((edges > 0) | fill[labels]).astype(np.uint8)


def four_corners(contour: np.ndarray) -> np.ndarray | None:
    """The four corners of a card's shape (a card in perspective, its corners rounded), or None
    when its hull has not four clear corners: the hull simplified to four points, then each
    side fitted to the shape's points along its middle and the sides met, so a rounded corner
    does not pull its corner in."""
    hull = cv2.convexHull(contour)
    length = cv2.arcLength(hull, True)
    for share in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, share * length, True)
        if len(approx) == 4:
            break
    else:
        return None
    rough = approx.reshape(4, 2).astype(np.float32)
    points = contour.reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = rough[i], rough[(i + 1) % 4]
        along = b - a
        size = float(np.linalg.norm(along))
        t = (points - a) @ along / max(size * size, 1e-6)
        rel = points - a
        off = np.abs(along[0] * rel[:, 1] - along[1] * rel[:, 0]) / max(size, 1e-6)
        near = points[(t > 0.15) & (t < 0.85) & (off < max(3.0, 0.03 * size))]
        if len(near) < 5:
            return rough
        vx, vy, x, y = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.float32([x, y]), np.float32([vx, vy])))
    corners = sides_meet(lines)
    return corners if corners is not None and np.abs(corners - rough).max() < 0.1 * length / 4 else rough


def _profiles(lab: np.ndarray, quad: np.ndarray, count: int, reach: float) -> list[np.ndarray | None]:
    """The colour across each side of ``quad`` at ``count`` points along its middle, from
    ``reach`` px inside to ``reach`` px outside, a pixel apart (count x offsets x 3; None for
    a side whose outside lies beyond the picture). The four sides are sampled in one remap: each
    sample depends on its own point alone, so the values are those of a remap a side, in two
    thirds of the time (each call costs more than its few samples)."""
    h, w = lab.shape[:2]
    offsets = np.arange(-np.ceil(reach), np.ceil(reach) + 1, dtype=np.float32)
    offsets[[0, -1]] = -reach, reach
    starts, alongs, normals = (np.stack(part)[:, None] for part in zip(*outward_sides(quad)))  # side x 1 x 2
    points = starts + np.linspace(0.15, 0.85, count, dtype=np.float32)[:, None] * alongs
    outside = points + reach * normals
    beyond = (outside < 0).any(axis=(1, 2)) | (outside[..., 0] > w - 1).any(axis=1) | (outside[..., 1] > h - 1).any(axis=1)
    xs = points[..., 0:1] + offsets * normals[..., 0:1]
    ys = points[..., 1:2] + offsets * normals[..., 1:2]
    sampled = cv2.remap(lab, xs.reshape(4 * count, -1), ys.reshape(4 * count, -1), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE).reshape(4, count, len(offsets), -1)
    return [None if off else profile for off, profile in zip(beyond, sampled)]


def _short(quad: np.ndarray) -> float:
    return float(min(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


def side_steps(lab: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The colour step across each side of ``quad`` (four values: the distance between the
    colour :data:`ACROSS` short sides inside and outside, median over the side; NaN for a
    side whose outside lies beyond the picture), or on a plain surface, where more, the line
    printed along the card's edge (:func:`_edge_line`)."""
    short = _short(quad)
    return np.float32([np.nan if p is None else max(float(np.median(np.linalg.norm(p[:, 0] - p[:, -1], axis=1))),
                                                    _edge_line(p, max(2.0, ON_EDGE * short)))
                       for p in _profiles(lab, quad, 16, max(2.0, ACROSS * short))])


def _edge_line(profile: np.ndarray, near: float) -> float:
    """How clearly a line runs along a side (its colour ``profile`` across, from inside out,
    :func:`_profiles`) within ``near`` px of it, against a plain surface outside (a scanner's
    lid, a plain desk: its colour spread under :data:`STEP` / 2): the distance from the outside's
    colour of the colour, at the median over the side, at the offset where it differs most; 0
    where the outside is not plain. A card whose paper is as light as a scanner's lid, or
    shaded to it at the edge, shows its edge by the line printed along it."""
    offsets = np.arange(profile.shape[1], dtype=np.float32) - (profile.shape[1] - 1) / 2
    outside = profile[:, offsets > near + 1].reshape(-1, 3)
    if not len(outside) or float(np.linalg.norm(outside.std(axis=0))) >= STEP / 2:
        return 0.0
    along = np.median(profile[:, np.abs(offsets) <= near], axis=0)
    return float(np.linalg.norm(along - np.median(outside, axis=0), axis=1).max())


def edge_followed(image: np.ndarray, quad: np.ndarray) -> float:
    """The least share, over the sides of ``quad`` in ``image`` (BGR) whose outside is in the
    picture, of its length along which the card's edge runs on it: across the side, from
    twice :data:`ACROSS` short sides inside to just outside (farther out, a background's own
    pattern steps; 3 px beyond :data:`ON_EDGE` at least, so that a small card has a background
    to compare with), a clear colour step (a quarter of the strongest, or :data:`STANDS_OUT`
    times nearly all of the background's own steps beyond, and :data:`STEP` / 2 at least: on
    dark felt a dark line printed inside the edge steps more than the edge, and on dark wood a
    card's black edge line steps a quarter as much as the line against the paper inside it) lies
    within :data:`ON_EDGE` short sides (2 px at least) of it. 1 for an outline on the card's
    edge all round; less when a side runs partly over the background or the card (a card
    found askew, or with its shadow, or cut off a corner); 0 when a side runs over a pattern
    (:func:`_over_pattern`). 1 when no side can be seen across (a picture cut to the card)."""
    quad = np.float32(quad)
    short = _short(quad)
    near = max(2.0, ON_EDGE * short)
    reach = max(near + 3, 2 * ACROSS * short)  # a step beyond near + 1 px, however small the card
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - reach - 3), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0) + reach + 3), (w, h)).astype(int)
    lab = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    shares = []
    for profile in _profiles(lab, quad - np.float32([x0, y0]), 24, reach):
        if profile is None:
            continue
        if _over_pattern(profile, near):
            shares.append(0.0)
            continue
        offsets = np.arange(profile.shape[1] - 2, dtype=np.float32) - (profile.shape[1] - 3) / 2
        steps = lengths(profile[:, 2:] - profile[:, :-2])
        texture = np.percentile(steps[:, offsets > near + 1], BACKGROUND_STEPS)
        step = steps * (offsets <= near + 1)
        clear = ((step >= 0.25 * step.max(axis=1, keepdims=True)) | (step >= STANDS_OUT * texture)) & (step >= STEP / 2)
        shares.append(float((clear & (np.abs(offsets) <= near)).any(axis=1).mean()))
    return min(shares, default=1.0)


def _on_pattern(lab: np.ndarray, quad: np.ndarray) -> bool:
    """Whether a side of ``quad`` runs over a patterned background (:func:`_over_pattern`): a
    shape of a checked cloth's squares joined together, its outline crossing the cloth."""
    short = _short(quad)
    near = max(2.0, ON_EDGE * short)
    return any(profile is not None and _over_pattern(profile, near)
               for profile in _profiles(lab, quad, 16, max(4.0, 2 * ACROSS * short)))


def _over_pattern(profile: np.ndarray, near: float) -> bool:
    """Whether a side (its colour ``profile`` across, :func:`_profiles`) runs over a patterned
    background: the same colours on average inside it as outside, and outside a pattern (a
    checked cloth steps everywhere, so a step lies near any line drawn on it; the card lies
    farther in). A white card on a scanner's white lid is alike on both sides too, but plain."""
    offsets = np.arange(profile.shape[1], dtype=np.float32) - (profile.shape[1] - 1) / 2
    inside, outside = (profile[:, part].reshape(-1, 3) for part in (offsets < -near, offsets > near))
    return bool(len(inside) and len(outside) and np.linalg.norm(inside.mean(axis=0) - outside.mean(axis=0)) < STEP
                <= np.linalg.norm(outside.std(axis=0)))


def outlines_in(image: np.ndarray, *, least_share: float = LEAST_SHARE, masks=None) -> list[Outline]:
    """Every card outline of ``image`` (a working copy, see :func:`working_copy`) filling
    ``least_share`` of it at least, largest first, none inside another (:func:`_outermost`)."""
    return _outermost(card_shapes(image, least_share=least_share, masks=masks), *image.shape[1::-1])


def card_shapes(image: np.ndarray, *, least_share: float = LEAST_SHARE, masks=None) -> list[Outline]:
    """Every card-shaped outline of ``image`` filling ``least_share`` of it at least, as each
    way of looking finds it (``masks``, by default :func:`candidate_masks`): one card may give
    several, nested."""
    h, w = image.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.0), cv2.COLOR_BGR2LAB).astype(np.float32)
    found: list[Outline] = []
    cut: list[Outline] = []  # two sides beyond the picture: taken only when no card shows three
    for mask, mode in candidate_masks(image) if masks is None else masks:
        contours, _ = cv2.findContours(mask, mode, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if area < least_share * w * h or area > 0.98 * w * h:
                continue
            quad = four_corners(contour)
            if quad is None or not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
                continue
            sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
            short, long = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
            if short < 8 or not ASPECT[0] <= long / short <= ASPECT[1] or area < FILL * cv2.contourArea(quad) \
                    or not seen_as_card(quad):
                continue
            steps = side_steps(lab, quad)
            known = np.sort(steps[~np.isnan(steps)])[::-1]
            if len(known) < 2 or known[min(2, len(known) - 1)] < STEP or known[-1] < STEP / 2 or _on_pattern(lab, quad):
                continue
            outline = Outline(order_quad(quad), float(known[-1]))
            (found if len(known) > 2 else cut).append(outline)
    return found or cut


def seen_as_card(quad: np.ndarray) -> bool:
    """Whether a four-cornered outline is a card as a camera sees it (:data:`SKEW`,
    :data:`FORESHORTEN`): a card is small beside its distance, so it is seen nearly as a
    parallelogram."""
    sides = np.roll(quad, -1, axis=0) - quad
    lengths = np.linalg.norm(sides, axis=1)
    unit = sides / np.maximum(lengths[:, None], 1e-6)
    square = np.abs(np.sum(unit * np.roll(unit, 1, axis=0), axis=1)) <= np.sin(np.radians(SKEW))
    opposite = np.maximum(lengths[:2], lengths[2:]) <= FORESHORTEN * np.minimum(lengths[:2], lengths[2:])
    return bool(square.all() and opposite.all())


def _outermost(outlines: list[Outline], w: int, h: int) -> list[Outline]:
    """``outlines`` (of a ``w`` x ``h`` picture) without those inside another (a card's print)
    or holding several (:func:`_several`), largest first. Of two outlines of one card found in
    several ways (the inner at least three quarters of the outer), the outer, unless one of its
    sides hardly steps (:data:`DOUBTFUL`: a strip of the card's shadow taken with it, a side cut
    across the card's face) and none of the inner one's, and the inner runs the outer's way
    (within :data:`SQUARE_TO`, :func:`_turned_from`: a court's art filling most of a face shaded
    to a lid's grey steps more than the card's sides, and its shape is turned from the card's):
    an edge line printed along a card's edge steps more than the edge, but is not it. Of an
    outline that runs to the picture's edge
    (:func:`_to_the_edge`) and a card lying in it (:func:`lies_in`), the card: the larger shape is the card joined to
    what lies beyond it (the table's light where it differs from the picture's border)."""
    outlines = [o for o in outlines if not _several(o, outlines)]
    kept: list[Outline] = []
    for outline in sorted(outlines, key=lambda o: -o.area):
        around = [i for i, other in enumerate(kept) if _inside(other, outline)]
        if not around:
            kept.append(outline)
        elif (outline.area > 0.75 * kept[around[0]].area and kept[around[0]].step < DOUBTFUL <= outline.step
              and _turned_from(kept[around[0]].quad, outline.quad) <= SQUARE_TO) or \
                (_to_the_edge(kept[around[0]].quad, w, h) and lies_in(outline, w, h)):
            kept[around[0]] = outline
    return sorted(kept, key=lambda o: -o.area)


def _turned_from(quad: np.ndarray, other: np.ndarray) -> float:
    """How far (degrees) the sides of outline ``other`` are turned from those of ``quad``, both
    in :func:`vision.faces.features.order_quad` order: the median over the four sides."""
    def angles(corners: np.ndarray) -> np.ndarray:
        sides = np.roll(corners, -1, axis=0) - corners
        return np.degrees(np.arctan2(sides[:, 1], sides[:, 0]))
    apart = np.abs((angles(np.float32(other)) - angles(np.float32(quad)) + 180) % 360 - 180)
    return float(np.median(apart))


def _inside(outline: Outline, other: Outline) -> bool:
    """Whether the centre of ``other`` lies inside ``outline``."""
    centre = tuple(float(v) for v in other.quad.mean(axis=0))
    return cv2.pointPolygonTest(outline.quad.reshape(-1, 1, 2), centre, False) >= 0


def _several(outline: Outline, outlines: list[Outline]) -> bool:
    """Whether ``outline`` holds two or more card outlines apart from each other, each a
    sixth to two thirds of it: cards touching, side by side or two by two, whose joint shape
    is card-shaped too (two cards across are 1.4 times as wide as long)."""
    parts: list[np.ndarray] = []
    for other in outlines:
        if 0.15 * outline.area <= other.area <= 0.67 * outline.area and _inside(outline, other):
            centre = other.quad.mean(axis=0)
            if all(np.linalg.norm(centre - c) > 0.3 * np.sqrt(other.area) for c in parts):
                parts.append(centre)
    return len(parts) >= 2


def inked_corners(upright: np.ndarray) -> int:
    """How many corners of an upright card view hold print (a card's index)."""
    grey = upright if upright.ndim == 2 else cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY)
    return sum(float(grey[rows, cols].std()) >= INKED for rows, cols in CORNERS)


def corner_ink(upright: np.ndarray, quad: np.ndarray) -> list[tuple[float, float]]:
    """Where the print of each corner of an upright card view that holds print lies (the middle
    of its pixels darker than the corner's paper), in the pixels of the picture ``quad`` was
    warped from. A card lying in a picture holds them all; a shape printed on a card (a court
    card's portrait, a box in its art) leaves the indices outside it."""
    grey = upright if upright.ndim == 2 else cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY)
    back = cv2.getPerspectiveTransform(UPRIGHT_OUTLINE, np.asarray(quad, np.float32))
    points = []
    for rows, cols in CORNERS:
        patch = grey[rows, cols].astype(np.float32)
        if patch.std() < INKED:
            continue
        ys, xs = np.nonzero(patch < np.median(patch) - 2 * INKED)
        if len(xs):
            middle = np.float32([[[xs.mean() + cols.start, ys.mean() + rows.start]]])
            points.append(tuple(float(v) for v in cv2.perspectiveTransform(middle, back)[0, 0]))
    return points


def symmetry(upright: np.ndarray) -> float:
    """How alike the opposite corners of an upright card view are, one turned 180 degrees onto
    the other (a card's index is printed so, and every card of a deck is turned alike): the
    best correlation of the top-left corner with the bottom-right, or of the top-right with
    the bottom-left, among those that hold print; 0 when none do."""
    grey = upright if upright.ndim == 2 else cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY)
    grey = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 1.5)
    patches = [grey[rows, cols] for rows, cols in CORNERS]
    best = 0.0
    for a, b in ((0, 3), (1, 2)):
        one, other = patches[a], cv2.rotate(patches[b], cv2.ROTATE_180)
        if min(one.std(), other.std()) < INKED:
            continue
        best = max(best, float(cv2.matchTemplate(one, other, cv2.TM_CCOEFF_NORMED).max()))
    return best


def whole_card(image: np.ndarray, outlines: list[Outline], *, face: bool = True) -> np.ndarray | None:
    """The whole picture as a card outline (:func:`vision.faces.features.order_quad` order) when
    it is the card cut to its edge: shaped like a card, print in a corner at least, and
    either its opposite corners alike turned round (:func:`symmetry`, :data:`SYMMETRIC`), more
    so than those of the largest outline in it (which is then the card's printed frame, not a
    card lying on an even surface), or no card outline in it that is clear (:data:`DOUBTFUL`: a
    shape printed on the face steps little) or fills :data:`CARD_ITSELF` of it (a card scanned
    on a light lid steps little too), and edged all round with plain paper
    (:func:`paper_edged`: a design whose opposite corners differ, the rank in one and the suit
    in the other, or a shaded face); else None. An outline that leaves print of the picture's
    corners outside it (:func:`corner_ink`) is a shape printed on the card, not a card in the
    picture."""
    h, w = image.shape[:2]
    if not ASPECT[0] <= max(w, h) / min(w, h) <= ASPECT[1]:
        return None
    quad = order_quad(np.float32([(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)]))
    view = warp_upright(image, quad)
    if inked_corners(view) < 1 or (face and not paper_edged(image)):
        return None   # a card's face cut to its edge is edged with its paper (a back may be printed to the edge)
    lying = [o for o in outlines if lies_in(o, w, h) and not printed_border(o.quad, w, h)]
    if any(turned_from_sides(o.quad) > TURNED or lies_across(o.quad, w, h) or (not face and o.area < PANEL_LEAST * w * h)
           for o in lying):
        # What a card prints runs along its edges: a card's outline turned, or across, is a card
        # lying in the picture; so is a clear outline in a picture of a back that fills less of
        # it than a back's printed panel fills of the card (a picture of the back's corners then
        # shows the table: wood, cloth, nothing a back's corners print).
        return None
    ink = corner_ink(view, quad)
    near = INK_NEAR * min(w, h)   # an outline found a little inside the card's edge still holds its index
    outlines = [o for o in outlines if all(cv2.pointPolygonTest(o.quad, point, True) >= -near for point in ink)
                and not printed_border(o.quad, w, h)]
    alike = symmetry(view)
    if alike < SYMMETRIC:
        # A card on a light scanner lid steps little but fills most of the picture.
        return None if any(o.step >= DOUBTFUL or o.area >= CARD_ITSELF * w * h for o in outlines) else quad
    if outlines and symmetry(warp_upright(image, outlines[0].quad)) > alike + 0.1:
        return None
    return quad


#: How far outside an outline (share of the picture's short side) the print of the picture's
#: corners may lie and be the card's in it (see :func:`whole_card`): an outline found a
#: few pixels inside a card scanned on a light lid, its index's last stroke beyond it.
INK_NEAR = 0.03
#: Degrees a clear outline in a picture may be turned from the picture's sides and still be
#: printed on the card the picture is cut to (a card cut by hand, or a scan a little askew).
TURNED = 5.0
#: Share of a back that a panel printed inside its margin fills at least (inside a margin of a
#: tenth of its width on every side: 0.64; the installed backs' panels 0.67-0.95): a clear
#: outline filling less of a picture of a back is a card lying in it (see :func:`whole_card`).
PANEL_LEAST = 0.5
#: Share of a picture a card lying in it fills at least (a pip or an index printed on a card
#: cut to its edge fills a few hundredths).
CARD_LEAST = 0.1
#: Degrees two outlines of one card, or of a card and its printed frame, are turned from each
#: other at most (the median over their sides): what a card prints is square to it; a court's
#: art, outlined by its colour, is not (see :func:`_outermost`).
SQUARE_TO = 2.5
#: A side both of whose ends lie within this share of a picture's short side of one of its
#: edges runs along it (see :func:`_to_the_edge`).
ALONG = 0.02
#: Degrees from square a corner of a card lying in a picture may be (perspective).
SQUARE_WITHIN = 15.0


def lies_in(outline: Outline, w: int, h: int) -> bool:
    """Whether ``outline`` may be a card lying in a ``w`` x ``h`` picture: its edge clear
    (:data:`DOUBTFUL`), filling :data:`CARD_LEAST` of the picture at least, its corners square
    within :data:`SQUARE_WITHIN` and clear of the picture's edge (a shape printed on a card
    cut to its edge, a court card's figure or a frame running off it, is none of these)."""
    quad = outline.quad
    sides = np.roll(quad, -1, axis=0) - quad
    unit = sides / np.maximum(np.linalg.norm(sides, axis=1, keepdims=True), 1e-6)
    square = np.abs(np.sum(unit * np.roll(unit, 1, axis=0), axis=1)) <= np.sin(np.radians(SQUARE_WITHIN))
    return outline.step >= DOUBTFUL and outline.area >= CARD_LEAST * w * h and bool(square.all()) and _clear_of_edge(quad, w, h)


def _clear_of_edge(quad: np.ndarray, w: int, h: int) -> bool:
    """Whether every corner of ``quad`` lies inside a ``w`` x ``h`` picture, a hundredth of
    its short side from its edge at least."""
    margin = 0.01 * min(w, h)
    return bool((quad[:, 0] >= margin).all() and (quad[:, 0] <= w - 1 - margin).all() and
                (quad[:, 1] >= margin).all() and (quad[:, 1] <= h - 1 - margin).all())


def _to_the_edge(quad: np.ndarray, w: int, h: int) -> bool:
    """Whether ``quad`` runs to the edge of a ``w`` x ``h`` picture: a corner at its edge
    (:func:`_clear_of_edge`), or a side along it, both its ends within :data:`ALONG` of the
    picture's short side of it. No card's edge is seen there, but the picture's: a strip of
    what lies beyond the card is taken with it (a card cut roughly from a photo, its corner
    near the cut)."""
    if not _clear_of_edge(quad, w, h):
        return True
    near = ALONG * min(w, h)
    ends = np.stack([quad, np.roll(quad, -1, axis=0)], axis=1)   # each side's two ends
    return bool(((ends[..., 0] <= near).all(axis=1) | (ends[..., 0] >= w - 1 - near).all(axis=1) |
                 (ends[..., 1] <= near).all(axis=1) | (ends[..., 1] >= h - 1 - near).all(axis=1)).any())


def turned_from_sides(quad: np.ndarray) -> float:
    """How far (degrees, 0-45) an outline's sides are turned from a picture's, at the least
    turned of its four sides (perspective turns the others more)."""
    sides = np.roll(quad, -1, axis=0) - quad
    angles = np.degrees(np.arctan2(sides[:, 1], sides[:, 0])) % 90
    return float(np.minimum(angles, 90 - angles).min())


def lies_across(quad: np.ndarray, w: int, h: int) -> bool:
    """Whether a card-shaped outline lies across a ``w`` x ``h`` picture shaped like a card: its
    long side along the picture's short side (a card lying there; a frame or a panel printed
    on a card runs the card's way)."""
    sides = np.roll(quad, -1, axis=0) - quad
    longest = sides[int(np.argmax(np.linalg.norm(sides, axis=1)))]
    return bool(abs(longest[0]) > abs(longest[1])) != (w > h)


#: A card's border: a band along its edge, as wide on every side (within :data:`EVEN` of the
#: card's short side), at most :data:`BORDER` of it (see :func:`printed_border`).
BORDER, EVEN = 0.1, 0.025


def printed_border(quad: np.ndarray, w: int, h: int) -> bool:
    """Whether an outline in a ``w`` x ``h`` picture shaped like a card is framed by a band as
    wide on every side, and narrow, running to the picture's edge all round: the border a
    card's face is printed inside (a dark panel framed by light stock), the picture being the
    card cut to its edge. A card lying on a background in a picture is rarely framed so
    evenly by it: a scan's or a photo's margins differ from side to side, and a card lies a
    little askew in them."""
    quad = order_quad(np.float32(quad))
    margins = np.concatenate([quad[[0, 3], 0], quad[[0, 1], 1], w - 1 - quad[[1, 2], 0], h - 1 - quad[[2, 3], 1]])
    short = min(w, h)
    return bool(margins.min() >= 0 and margins.max() <= BORDER * short and np.ptp(margins) <= EVEN * short)


#: Share of a picture an outline in it fills that may be a card lying on it, however little
#: its edge steps (see :func:`whole_card`).
CARD_ITSELF = 0.4
#: The band along a picture's edge (share of its short side) and what it holds when the
#: picture is a card cut to its edge, on each side: light (grey level, median), not strongly
#: coloured (saturation, median: white, grey or cream card stock) and smooth along the side (grey levels a pixel apart differ by this
#: much at the median, across the band's median: a card's face may be shaded, a desk's wood,
#: felt or cloth is grained).
EDGE_BAND, PAPER_GREY, PAPER_COLOUR, PAPER_SMOOTH = 0.04, 170, 80, 2.0


def paper_edged(image: np.ndarray) -> bool:
    """Whether a picture is edged on each side with a card's plain paper (:data:`EDGE_BAND`),
    the corners left out (a card's rounded corners show what it was cut from): a card cut to
    its edge, not a photo of wood, cloth or felt."""
    h, w = image.shape[:2]
    band = max(2, round(EDGE_BAND * min(w, h)))
    line = band // 2   # a line printed along the card's edge is left out
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    sides = (hsv[line:line + band, band:w - band], hsv[h - band - line:h - line, band:w - band],
             hsv[band:h - band, line:line + band].transpose(1, 0, 2), hsv[band:h - band, w - band - line:w - line].transpose(1, 0, 2))
    for side in sides:
        along = np.median(side[:, :, 2].astype(np.float32), axis=0)
        if np.median(along) < PAPER_GREY or np.median(side[:, :, 1]) > PAPER_COLOUR or \
                np.median(np.abs(np.diff(along))) > PAPER_SMOOTH:
            return False
    return True


def to_full(image: np.ndarray, quad: np.ndarray, scale: float, *, grey: np.ndarray | None = None) -> np.ndarray:
    """An outline found at the working ``scale``, in ``image``'s pixels: looked for again in
    the card's own part of the full picture (shrunk to :data:`CLOSE` pixels at most, so a card
    of a 12-megapixel photo is found to a pixel or two, not to the four of a shrunk picture;
    in a picture small enough to be looked at whole too, where the card's part, with less of
    the background around it, gives an outline turned off the card by a cloth's checks a
    truer one), each side moved onto the card's edge (:func:`on_edge`). Of the card's outlines
    there, largest first (those running to the picture's edge last, :func:`_to_the_edge`), the
    first that then follows the card's edge all round (:func:`edge_followed`): a card's outline with its shadow is moved onto its edge, but one
    that took in a strip of a neighbour is not; else the outline as found, moved onto its
    edge. ``grey``: ``image`` in grey levels, where at hand."""
    quad = np.float32(quad) / scale
    grey = Frame.of(image).grey() if grey is None else grey
    h, w = image.shape[:2]
    margin = 0.15 * (quad.max(axis=0) - quad.min(axis=0))
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - margin), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0) + margin), (w, h)).astype(int)
    if x1 <= x0 or y1 <= y0 or image.ndim != 3:
        return on_edge(grey, quad, scale)
    near = image[y0:y1, x0:x1]
    part, closer = working_copy(near, CLOSE)
    centre = tuple(float(v) for v in (quad.mean(axis=0) - (x0, y0)) * closer)
    # An outline running to the picture's edge has a strip beyond the card in it: last.
    again = sorted((o for o in card_shapes(part, least_share=0.2) if cv2.pointPolygonTest(o.quad.reshape(-1, 1, 2), centre, False) >= 0),
                   key=lambda o: (_to_the_edge(o.quad / closer + np.float32([x0, y0]), w, h), -o.area))
    for outline in again:
        moved = on_edge(grey, outline.quad / closer + np.float32([x0, y0]), closer)
        if edge_followed(image, moved) >= FOLLOWED:
            return moved
    return on_edge(grey, quad, scale)


def on_edge(grey: np.ndarray, quad: np.ndarray, scale: float) -> np.ndarray:
    """``quad`` (found at ``scale``, given in ``grey``'s pixels) with each side moved, or
    turned, onto the card's edge (:func:`vision.faces.finder.refine_quad`), from as far inside
    or outside as a card's shadow or a dark line printed along its edge reach (:data:`REACH`),
    or the pixels of the scale it was found at."""
    for _ in range(2):  # a side found inside a dark line printed along the edge reaches its outside next
        short = _short(quad)
        quad = refine_quad(grey, quad, reach=max(8, round(2 / scale), round(REACH * short)), turn=True,
                           outside=max(3, round(ACROSS * short)), still=True)
    return order_quad(quad)


def find_card(image: np.ndarray, *, face: bool = True) -> np.ndarray | None:
    """The outline of the one card of a photo or scan of a card's ``face`` or back, in
    ``image``'s pixels: the whole picture when it is the card cut to its edge (see
    :func:`whole_card`), else the largest card outline of the first way of looking that finds
    one which follows the card's edge all round (:func:`edge_followed`: what an enrolment
    checks), the ways tried in turn (:func:`candidate_masks`; the closed edge filled,
    :func:`rings_mask`; the smooth paper, :func:`smooth_masks`); where none does, the first
    outline found (the enrolment says what is wrong with it); None when there is none."""
    work, scale = working_copy(image)
    outlines = outlines_in(work, least_share=0.02, masks=candidate_masks(work, lid=face))
    whole = whole_card(work, outlines, face=face)
    if whole is not None:
        return order_quad(whole / scale)
    first = None
    for more in (None, rings_mask, smooth_masks):
        if more is not None:
            outlines = outlines_in(work, least_share=0.02, masks=more(work))
        if outlines:
            quad = to_full(image, outlines[0].quad, scale)
            if edge_followed(image, quad) >= FOLLOWED:
                return quad
            first = quad if first is None else first
    return first


def find_cards(image: np.ndarray, *, work: int = WORK) -> list[np.ndarray]:
    """The outlines of all the cards of a picture, none inside another, largest first, in
    ``image``'s pixels (looked for at ``work`` pixels across at most)."""
    small, scale = working_copy(image, work)
    grey = Frame.of(image).grey()   # once for every card: 8 ms of CPU a card in a 12-megapixel photo
    return [to_full(image, outline.quad, scale, grey=grey) for outline in outlines_in(small)]


def read_cards(image: np.ndarray, matcher, *, work: int = WORK) -> list[tuple[np.ndarray, object]]:
    """Every card of a picture, read: (outline in ``image``'s pixels, the
    :class:`vision.faces.matcher.Reading` of its upright view both ways round), largest first
    (cards looked for at ``work`` pixels across at most, see :func:`find_cards`). ``matcher``: an
    enrolled deck's :class:`vision.faces.matcher.Matcher`, or for a deck nobody enrolled the
    corner index model's :class:`vision.faces.index_reader.IndexReader`."""
    colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    found = []
    for quad in find_cards(colour, work=work):
        view = warp_upright(colour, quad)
        found.append((quad, matcher.read_view(view)))
    return found
