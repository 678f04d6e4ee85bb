"""What is compared when a card is recognised, computed the same way for an enrolled image and
for a card seen by the camera.

A card is first warped to an upright view (:data:`UPRIGHT` pixels, about 2 px/mm, short side
across; its outline onto the view's outer pixel edges, :data:`UPRIGHT_OUTLINE`, so that a card
turned round is its view turned round), then described by:

- ``corners``: the four corner patches (where the indices are printed: rank and suit, in any
  corner a design puts them), blurred a little, each without its mean, joined and scaled to
  unit length: a dot product of two of them is their normalised correlation, and a blank corner
  weighs nothing;
- ``face``: the whole face shrunk to :data:`FACE` pixels (pips, court art), without the plane
  that fits it best (its mean and the light's slope across it: :func:`unlit`), scaled to unit
  length;
- ``detail``: the whole face at :data:`DETAIL`, likewise: where two cards differ by the shape of
  their pips alone (a spade or a club), what tells them apart (at :data:`FACE` a pip is four
  pixels wide);
- ``redness``: the share of the corner print that is red (colour only; None from a grey image);
- ``tint``: the face's colour (CIE Lab a and b) shrunk to :data:`FACE` (colour only): what
  tells one card back from another that is alike in grey.

A card seen upside down is the upright view turned 180 degrees (:func:`turned`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import cv2
import numpy as np

#: The upright view of a card, (width, height) pixels.
UPRIGHT = (126, 176)

#: The upright view's outline, where a card's outline is warped to: its four corners, top left
#: first, clockwise, where its outer pixels end (a pixel's middle lies at whole coordinates, its
#: edges half a pixel either side), so that the view keeps its middle at the card's. Warped onto
#: (0, 0) and (width, height), the view lay half a pixel off the card's middle, and a card lying
#: upside down was seen a pixel shifted from its upright view turned round (oxygen's 2S fitted
#: its own reference 0.91 so).
UPRIGHT_OUTLINE = np.float32([(-0.5, -0.5), (UPRIGHT[0] - 0.5, -0.5), (UPRIGHT[0] - 0.5, UPRIGHT[1] - 0.5),
                              (-0.5, UPRIGHT[1] - 0.5)])
#: A corner patch: this share of the card's width and height from each corner.
CORNER_SHARE = (0.25, 0.30)
#: A corner patch hidden by less than this share of it is in view (:func:`corner_masks`).
HIDDEN_MOST = 0.25
#: Pixels of the upright view left out along the edge: the card's printed border, its rounded
#: corners and whatever the outline's last pixel caught of the table.
INSET = 5
#: The middle of a face, where a back's plainness is measured (:func:`middle_grey`): inside this
#: share of each side of the inset view (a back's border, often white, is no pattern).
MIDDLE = 0.1
#: How far (px of the upright view) the edge of a card lying on a fanned card may lean across
#: its corner patch, from where its end side stops showing (:func:`shown_part`): a fan's cards
#: lie turned a few degrees from one another.
SLANT = 5.0
#: A fanned card's corner is compared on the part that shows when that is this share of its
#: patch at least (its index, by the card's edge, takes two thirds of it).
PART_LEAST = 0.5
#: The next card's edge across a fanned card's corner patch (:func:`edge_down`) is looked for
#: from EDGE_FROM px of the patch on (the card's own edge lies nearer, when its outline is a
#: pixel or two off), and steps EDGE_DOWN times as much as a line down the patch does in the
#: median, and EDGE_LEAST grey levels at least.
EDGE_FROM, EDGE_DOWN, EDGE_LEAST = 4, 4.0, 15.0
#: A corner patch that varies less than this (grey levels of the blurred view, standard
#: deviation about its best plane) is blank (:func:`corner_vector`): a design's pale ornament
#: (oxygen-air's, 3.3), a slope of light and the camera's noise; an index varies by 12 or more.
FAINT_CORNER = 6.0
#: The whole face, shrunk.
FACE = (32, 45)
#: The whole face at half the upright view's size (its pips eight pixels wide or more).
DETAIL = (58, 83)
_BLUR = 1.2
#: Print is this share of the way from a corner's lightest part to its darkest, or darker, when
#: the two differ by :data:`INK_CONTRAST` grey levels at least (else the corner is plain).
INK_DEPTH, INK_CONTRAST = 0.4, 40
#: Red print takes of the red light at most this share of what it takes of the green, and of the
#: green at least this share of the blue; black print takes of the red at least this share of the
#: most it takes of the others (:func:`redness`; a pale crimson, blurred, takes 0.19 of the red
#: light, 0.40 of the green and 0.33 of the blue; a gold ornament 0.05, 0.11 and 0.35) ...
HUE_SHARE = 0.6
#: ... and a tenth of the green at least.
TAKES_LEAST = 0.1


@dataclass(frozen=True)
class Features:
    """One card's description (see the module docstring); vectors have unit length."""

    corners: np.ndarray
    face: np.ndarray
    redness: float | None
    soft: np.ndarray | None = None  # the blurred grey upright view (a seen card only, not stored)
    detail: np.ndarray | None = None  # None: enrolled before the detail was kept
    tint: np.ndarray | None = None  # the face's colour (Lab a, b) shrunk to FACE; None from a grey image


def order_quad(quad: np.ndarray) -> np.ndarray:
    """The corners of a card outline in order: top-left, top-right, bottom-right, bottom-left of
    the card held upright (short side first), starting from the corner nearest the image's top
    left. Either of the two upright readings is returned; :func:`turned` gives the other."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # clockwise in image coordinates (y down)
    if np.linalg.norm(quad[1] - quad[0]) > np.linalg.norm(quad[2] - quad[1]):
        quad = np.roll(quad, -1, axis=0)  # start so that the first side is a short one
    start = int(np.argmin([quad[0].sum(), quad[2].sum()])) * 2
    return np.roll(quad, -start, axis=0)


def warp_upright(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card inside ``quad`` (ordered as :func:`order_quad` gives) as an upright image of
    :data:`UPRIGHT` pixels, grey or colour as ``image`` is."""
    matrix = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), UPRIGHT_OUTLINE)
    return cv2.warpPerspective(image, matrix, UPRIGHT, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def corner_view(image: np.ndarray, quad: np.ndarray, corner: int, reach: int = 0) -> np.ndarray:
    """Corner ``corner`` (:data:`CORNERS`: 0 top left, 1 top right, 2 bottom left, 3 bottom
    right) of the card inside ``quad`` (ordered as :func:`order_quad` gives), ``reach`` px of
    the upright view wider on every side, exactly as :func:`warp_upright` would show it, but
    warped alone: a card of which only that corner shows is read there at a tenth of the cost
    (:func:`vision.faces.finder.shown_corners` finds such cards, a guess at every corner)."""
    rows, cols = CORNERS[corner]
    x0, y0 = cols.start - reach, rows.start - reach
    size = (cols.stop - cols.start + 2 * reach, rows.stop - rows.start + 2 * reach)
    matrix = np.float64([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ cv2.getPerspectiveTransform(
        np.asarray(quad, np.float32), UPRIGHT_OUTLINE)
    return cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def corner_features(image: np.ndarray, quad: np.ndarray, corner: int) -> np.ndarray:
    """The corner patch ``corner`` of the card inside ``quad`` as :func:`describe` makes it
    (blurred, without its mean, unit length), from that corner alone (:func:`corner_view`)."""
    view = corner_view(image, quad, corner, 2 * round(3 * _BLUR))
    grey = view if view.ndim == 2 else cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    inner = 2 * round(3 * _BLUR)
    patch = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), _BLUR)[inner:-inner, inner:-inner]
    return _unit(corner_vector(patch))


def turned(upright: np.ndarray) -> np.ndarray:
    """The upright view of the same card laid the other way round."""
    return cv2.rotate(upright, cv2.ROTATE_180)


def turned_features(features: Features) -> Features:
    """``features`` of the same card laid the other way round: each vector reversed (a turned
    view's pixels in reverse order; the corner patches, alike in shape, swap places, see
    :data:`CORNERS`)."""
    return replace(features, corners=features.corners[::-1].copy(), face=features.face[::-1].copy(),
                   soft=None if features.soft is None else turned(features.soft),
                   detail=None if features.detail is None else features.detail[::-1].copy(),
                   tint=None if features.tint is None else features.tint[::-1, ::-1].copy())


def middle_grey(soft: np.ndarray, shown: np.ndarray | None = None) -> tuple[float, float] | None:
    """The grey of the middle of a card's face (``soft``, a blurred upright view, inside its
    border by :data:`MIDDLE` of each side) over the pixels ``shown`` (a :data:`FACE` mask,
    default all): its mean and how much it varies once the light's slope across it is taken
    out (the standard deviation, grey levels, about the plane that fits it best: a lamp to one
    side, a glare across the card); None when under a tenth of the middle shows. A plain back
    varies by the camera's noise alone (oxygen-air's black back, lit from one side on felt: 12.9
    levels as it is, 2.7 about its plane); every face's print varies by 20 levels or more."""
    inner = soft[INSET:-INSET, INSET:-INSET]
    h, w = inner.shape
    keep = np.zeros((h, w), bool)
    keep[int(h * MIDDLE):int(h * (1 - MIDDLE)), int(w * MIDDLE):int(w * (1 - MIDDLE))] = True
    middle = int(keep.sum())
    if shown is not None:
        keep &= cv2.resize(shown.reshape(FACE[1], FACE[0]).astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST) > 0
    if keep.sum() < 0.1 * middle:
        return None
    grey = inner[keep].astype(np.float64)
    plane = plane_basis(keep.shape, keep.ravel())
    return float(grey.mean()), float((grey - plane @ (plane.T @ grey)).std())


def unlit(image: np.ndarray) -> np.ndarray:
    """``image`` (grey, 2-D) in a row without the plane that fits it best: its mean, and its
    slopes across and down. In a photo the light falls across a card (a lamp or a window to one
    side, the phone's own shade), and on the table; a slope of light is no print. Kept, it
    outweighed a pale design's print (oxygen-air's 2S enrolled from a phone photo matched its
    own image at 0.83, now 0.99). A design's own shading across its face is left out alike on
    both sides of the comparison. Not for the corner patches: an index lies to one side of its
    patch, and much of it is a plane there."""
    plane = plane_basis(image.shape)
    vector = np.asarray(image, np.float32).ravel()
    return vector - plane @ (plane.T @ vector)


def plane_basis(shape: tuple[int, int], shown: np.ndarray | None = None) -> np.ndarray:
    """Orthonormal columns (float32) spanning the planes over the pixels ``shown`` (a flat
    mask, default all) of an image of ``shape`` (height, width): a vector ``v`` over those
    pixels less ``basis @ (basis.T @ v)`` is ``v`` without the plane that fits it best."""
    if shown is None:
        return _whole_plane_basis(tuple(shape))
    ys, xs = np.divmod(np.flatnonzero(shown), shape[1])
    return _orthonormal_plane(xs, ys)


@functools.lru_cache(maxsize=16)
def _whole_plane_basis(shape: tuple[int, int]) -> np.ndarray:
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]]
    return _orthonormal_plane(xx.ravel(), yy.ravel())


def _orthonormal_plane(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    plane = np.column_stack([np.ones(len(xs)), xs, ys]).astype(np.float64)
    return np.linalg.qr(plane)[0].astype(np.float32)


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 1e-6 else vector


def corner_vector(patch: np.ndarray) -> np.ndarray:
    """A corner patch (grey, blurred) in a row, as compared: without its mean, or, when it is
    blank (under :data:`FAINT_CORNER` grey levels about the plane that fits it best), without
    that plane (:func:`unlit`): a slope of light across a blank corner is no index. Kept, it
    weighed in a card enrolled from a photo as the print of three inked corners where the design
    prints one (oxygen-air's 2S and 2C read as none against their own clean images)."""
    flat = unlit(patch)
    return flat if float(flat.std()) < FAINT_CORNER else np.asarray(patch, np.float32).ravel() - float(patch.mean())


def as_compared(features: Features) -> Features:
    """Stored ``features`` as :func:`describe` makes them now: files enrolled before the light's
    slope was taken out of the face (:func:`unlit`) hold the same vectors with it in. Their
    blank corners keep it (the grey levels of a stored corner are not known): they weigh
    little, as before."""
    face = _unit(unlit(features.face.reshape(FACE[1], FACE[0])))
    detail = None if features.detail is None else _unit(unlit(features.detail.reshape(DETAIL[1], DETAIL[0])))
    return replace(features, face=face, detail=detail)


def _corner_slices() -> list[tuple[slice, slice]]:
    w, h = UPRIGHT
    cw, ch, m = round(CORNER_SHARE[0] * w), round(CORNER_SHARE[1] * h), INSET
    return [(slice(m, ch), slice(m, cw)), (slice(m, ch), slice(w - cw, w - m)),
            (slice(h - ch, h - m), slice(m, cw)), (slice(h - ch, h - m), slice(w - cw, w - m))]


CORNERS = _corner_slices()


def corner_masks(hidden: np.ndarray | None) -> np.ndarray:
    """Which corners of the upright view are visible (four booleans), given a mask of the
    hidden pixels of that view (None: all visible)."""
    if hidden is None:
        return np.ones(4, bool)
    return np.array([hidden[rows, cols].mean() < HIDDEN_MOST for rows, cols in CORNERS])


def shown_part(quad: np.ndarray, corner: int, end: np.ndarray, patch: np.ndarray | None = None,
               slant: float = SLANT) -> np.ndarray:
    """The pixels of corner patch ``corner`` of the card in ``quad`` (ordered) that show, when
    its end side (the short one) running from that corner shows up to ``end`` (frame px)
    alone: a fanned card's, whose next card lies on it from there. The columns nearer the
    corner than ``end``, less ``slant`` px of the upright view (the next card lies turned a
    little, so its edge leans across the patch); the whole patch when that leaves less than
    :data:`PART_LEAST` of it, or when ``end`` lies along the long side. With the corner
    ``patch`` in grey (upright), no nearer to the corner than the next card's edge where it
    shows across the patch (:func:`edge_down`): the outline may follow the next card's end side
    on, where it lies a little higher."""
    across, along = _end_from_corner(quad, corner, end)
    rows, cols = CORNERS[corner]
    cx = 0 if corner in (0, 2) else UPRIGHT[0]
    ys, xs = np.mgrid[rows, cols]
    away = np.abs(xs + 0.5 - cx)  # px from the card's long side
    part = away < across - slant
    # Along the long side the outline leaves the card where the card it lies on goes on (a
    # fan's cards lie on the one before): nothing says the card stops showing there. Too little
    # left says nothing either (the next card's edge may lean away, more showing lower down).
    if across < along or part.mean() < PART_LEAST:
        part = np.ones(xs.shape, bool)
    edge = None if patch is None else edge_down(patch if cx == 0 else patch[:, ::-1])
    if edge is not None:
        before = away < INSET + edge[:, None]
        if before.mean() >= PART_LEAST:
            part &= before
    return part


def shows_whole(quad: np.ndarray, corner: int, end: np.ndarray, patch: np.ndarray) -> bool:
    """Whether all of corner patch ``corner`` (grey, upright) of a fanned card, whose end side
    shows up to ``end`` (as :func:`shown_part`), shows: the next card's edge lies beyond the
    patch by :data:`SLANT` px at least, and none runs down it (:func:`edge_down`)."""
    across, along = _end_from_corner(quad, corner, end)
    cols = CORNERS[corner][1]
    width = cols.stop if corner in (0, 2) else UPRIGHT[0] - cols.start
    return along <= across and across - SLANT >= width and edge_down(patch if corner in (0, 2) else patch[:, ::-1]) is None


def _end_from_corner(quad: np.ndarray, corner: int, end: np.ndarray) -> tuple[float, float]:
    """How far ``end`` (frame px) lies from corner ``corner`` of the card in ``quad`` (ordered),
    across the card and along it, in px of the upright view."""
    to_upright = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), UPRIGHT_OUTLINE)
    x, y = cv2.perspectiveTransform(np.float32(end).reshape(1, 1, 2), to_upright).ravel()
    corner_x, corner_y = UPRIGHT_OUTLINE[(0, 1, 3, 2)[corner]]
    return abs(float(x - corner_x)), abs(float(y - corner_y))


def edge_down(patch: np.ndarray) -> np.ndarray | None:
    """Where a straight edge runs all down a corner ``patch`` (grey, upright, its columns from
    the card's long side out), nearest that side but from :data:`EDGE_FROM` px on: for each
    row, its column; None when there is none. The edge of the next card of a fan lying on this
    one crosses the patch so, leaning up to :data:`SLANT` px; an index's strokes are shorter,
    the card's own edge nearer. An edge steps, on three rows in four, :data:`EDGE_DOWN` times
    as much as a line down the patch does in the median, and :data:`EDGE_LEAST` grey levels,
    and more than the lines beside it (a blurred edge's tail is no edge)."""
    grey = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), 1.0)
    step = np.abs(np.diff(grey, axis=1))
    rows, cols = step.shape
    lines = _lines_down(rows, cols)
    strength = np.partition(step.ravel()[lines], rows // 4, axis=2)[:, :, rows // 4]  # on three rows in four
    least = max(EDGE_DOWN * float(np.median(strength)), EDGE_LEAST)
    best = strength.max(axis=1)
    for start in range(EDGE_FROM, cols):
        if best[start] >= least and best[start] >= best[max(start - 1, 0)] and best[start] >= best[min(start + 1, cols - 1)]:
            return lines[start, int(np.argmax(strength[start]))] % cols + 1.0
    return None


@functools.lru_cache(maxsize=8)
def _lines_down(rows: int, cols: int) -> np.ndarray:
    """The straight lines down a patch of ``rows`` by ``cols`` leaning up to :data:`SLANT` px,
    by the column each starts from (in the middle row) and its lean: the flat index of its
    pixel on each row."""
    lean = (np.arange(rows) - (rows - 1) / 2) / max(rows - 1, 1)
    columns = np.clip(np.round(np.arange(cols)[:, None, None] + np.linspace(-SLANT, SLANT, 9)[None, :, None] * lean), 0, cols - 1)
    return (np.arange(rows) * cols + columns).astype(np.intp)


def face_shown(hidden: np.ndarray) -> np.ndarray:
    """Which pixels of the whole face (:data:`FACE`, as :func:`describe` shrinks it) are shown,
    given a mask of the hidden pixels of the upright view."""
    inner = (~hidden[INSET:-INSET, INSET:-INSET]).astype(np.float32)
    return cv2.resize(inner, FACE, interpolation=cv2.INTER_AREA) > 0.5


def describe(upright: np.ndarray, visible: np.ndarray | None = None) -> Features:
    """The features of an upright card view (grey or BGR); the ink's colour is taken in the
    ``visible`` corners only (four booleans, default all: a hidden corner may show the card on
    top)."""
    grey = upright if upright.ndim == 2 else cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY)
    soft = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), _BLUR)
    corners = _unit(np.concatenate([corner_vector(soft[rows, cols]) for rows, cols in CORNERS]))
    inner = soft[INSET:-INSET, INSET:-INSET]
    face = _unit(unlit(cv2.resize(inner, FACE, interpolation=cv2.INTER_AREA)))
    detail = _unit(unlit(cv2.resize(inner, DETAIL, interpolation=cv2.INTER_AREA)))
    tint = None
    if upright.ndim == 3:
        lab = cv2.cvtColor(upright[INSET:-INSET, INSET:-INSET], cv2.COLOR_BGR2LAB).astype(np.float32)
        tint = cv2.resize(lab[:, :, 1:], FACE, interpolation=cv2.INTER_AREA)
    return Features(corners, face, redness(upright, visible) if upright.ndim == 3 else None, soft, detail, tint)


def corner_patch(features: Features, corner: int) -> np.ndarray:
    """Corner ``corner`` (0 top left, 1 top right, 2 bottom left, 3 bottom right) of stored
    features, as an image (without its mean)."""
    rows, cols = CORNERS[corner]
    shape = (rows.stop - rows.start, cols.stop - cols.start)
    size = shape[0] * shape[1]
    return features.corners[corner * size:(corner + 1) * size].reshape(shape)


def corner_search(features: Features, corner: int, reach: int) -> np.ndarray:
    """Corner ``corner`` of a seen card's view, ``reach`` pixels wider on every side, to find
    where an enrolled corner fits best (the outline may be a pixel or two off)."""
    rows, cols = CORNERS[corner]
    h, w = features.soft.shape
    return features.soft[max(rows.start - reach, 0):min(rows.stop + reach, h),
                         max(cols.start - reach, 0):min(cols.stop + reach, w)]


def redness(upright_bgr: np.ndarray, visible: np.ndarray | None = None) -> float | None:
    """The share of the print in the (``visible``) corner patches that is red, or None when a card
    shows almost no print there; measured at the blur the corners are compared at (:data:`_BLUR`:
    a sharp enrolled image and the camera's softer view alike, their thin strokes mixed with
    the paper). Each channel's print is the share of the paper's light there (the patch's
    lightest part, channel by channel: the light's colour is taken out) that it takes:

    - red print takes much more of the green light than of the red (:data:`HUE_SHARE`), and of
      the green about as much as of the blue: a clearly red pixel, or one printed
      (:data:`INK_DEPTH` of the way to the darkest green) that takes so (a pale crimson);
    - black print is printed (in grey) and takes of the red light nearly as much as of the
      others: a gold, green or blue ornament is neither, and says nothing.

    On a card printed light on a dark ground (oxygen's) the print is the ground, which carries
    its colour."""
    soft = cv2.GaussianBlur(upright_bgr, (0, 0), _BLUR)
    inks = []
    for (rows, cols), shown in zip(CORNERS, np.ones(4, bool) if visible is None else visible):
        if not shown:
            continue
        patch = soft[rows, cols].astype(np.float32)
        b, g, r = np.moveaxis(patch, 2, 0)
        other = np.maximum(g, b)
        takes_b, takes_g, takes_r = np.moveaxis(1 - patch / np.maximum(np.percentile(patch.reshape(-1, 3), 95, axis=0), 1), 2, 0)
        red = ((r - other > 25) & (r > 1.3 * other)) | (
            _printed(g) & (takes_g >= TAKES_LEAST) & (takes_r <= HUE_SHARE * takes_g) & (takes_g >= HUE_SHARE * takes_b))
        black = _printed(patch.mean(axis=2)) & ~red & (takes_r >= HUE_SHARE * np.maximum(takes_g, takes_b))
        ink = red | black
        if ink.sum() >= 12:
            inks.append(red[ink])
    if not inks:
        return None
    return float(np.concatenate(inks).mean())


def _printed(channel: np.ndarray) -> np.ndarray:
    """The pixels of a corner patch's ``channel`` that are print: :data:`INK_DEPTH` of the way from
    its lightest part to its darkest, or darker, when the two differ by :data:`INK_CONTRAST`
    levels at least (else none: the corner is plain)."""
    light, dark = np.percentile(channel, (95, 1))
    if light - dark < INK_CONTRAST:
        return np.zeros(channel.shape, bool)
    return channel < light - INK_DEPTH * (light - dark)
