"""Synthetic photographs of real cards, as users take them, for the tests and the benchmark of
enrolment and of the still-photo reader: card images (:mod:`vision.faces.designs`) laid, with
rounded corners and a soft shadow, on a desk, wood, patterned cloth or felt, anywhere in the
picture, turned any way, seen in perspective (a phone held up to 30 degrees off vertical),
among other things (a mug, a pen, a phone, coins), under uneven light, with lens blur, sensor
noise and JPEG compression. Also scans with a margin, crops cut roughly by hand around a card,
and one photograph of a whole deck laid out in rows.

Everything is drawn from a seed (:class:`numpy.random.Generator`); each function returns the
picture and where the cards lie in it (corner points, top-left of the card first, clockwise).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Backgrounds a card may lie on.
BACKGROUNDS = ("desk", "wood", "cloth", "felt")


@dataclass(frozen=True)
class Placed:
    """A card drawn in a picture: its ``quad`` (picture px: the card's top left, top right,
    bottom right and bottom left corners as printed)."""

    quad: np.ndarray


def background(rng: np.random.Generator, size: tuple[int, int], kind: str) -> np.ndarray:
    """A ``kind`` (see :data:`BACKGROUNDS`) surface of ``size`` (width, height), BGR."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    scale = max(w, h) / 1000
    if kind == "desk":
        base = rng.uniform(40, 200, 3) if rng.random() < 0.7 else rng.uniform(20, 70, 1).repeat(3)
        image = np.broadcast_to(base, (h, w, 3)).astype(np.float32)
    elif kind == "wood":
        angle = rng.uniform(0, np.pi)
        u = (xx * np.cos(angle) + yy * np.sin(angle)) / scale
        v = (-xx * np.sin(angle) + yy * np.cos(angle)) / scale
        grain = np.sin(u / rng.uniform(6, 14) + 3 * np.sin(v / rng.uniform(60, 160)))
        base = np.float32([40, 80, 140]) * rng.uniform(0.6, 1.3)
        image = base[None, None, :] * (1 + 0.25 * grain[:, :, None])
        plank = rng.uniform(120, 260) * scale
        image[(np.mod(u * scale, plank) < 2.5 * scale)] *= 0.5
    elif kind == "cloth":
        period = rng.uniform(20, 60) * scale
        a, b = rng.uniform(30, 230, 3), rng.uniform(30, 230, 3)
        stripes_x = (np.mod(xx, period) < period / 2)[:, :, None]
        stripes_y = (np.mod(yy, period) < period / 3)[:, :, None]
        image = np.where(stripes_x ^ stripes_y, a, b).astype(np.float32)
        weave = np.sin(xx / (1.5 * scale)) * np.sin(yy / (1.5 * scale))
        image *= (1 + 0.08 * weave)[:, :, None]
    elif kind == "felt":
        base = np.float32([40, 110, 40]) * rng.uniform(0.7, 1.2) if rng.random() < 0.8 else np.float32([110, 40, 30])
        image = np.broadcast_to(base, (h, w, 3)).astype(np.uint8).copy()
        if rng.random() < 0.5:  # casino felt: a printed line and words
            cy = rng.uniform(0.2, 0.8) * h
            cv2.ellipse(image, (int(w / 2), int(cy - h)), (int(0.8 * w), int(h)), 0, 0, 180,
                        (200, 220, 200), max(2, int(4 * scale)))
            cv2.putText(image, "DEALER MUST DRAW TO 16", (int(0.1 * w), int(cy + 60 * scale)),
                        cv2.FONT_HERSHEY_SIMPLEX, 1.2 * scale, (190, 210, 190), max(1, int(2 * scale)))
        image = image.astype(np.float32)
    else:
        raise ValueError(f"no background {kind!r}: one of {', '.join(BACKGROUNDS)}")
    texture = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.5 * scale)
    image = image * (1 + 0.06 * texture[:, :, None] / max(float(texture.std()), 1e-6))
    return np.clip(image, 0, 255).astype(np.float32)


def _lighting(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    direction = rng.normal(0, 1, 2)
    ramp = (xx / w - 0.5) * direction[0] + (yy / h - 0.5) * direction[1]
    return (rng.uniform(0.8, 1.05) + 0.25 * ramp).astype(np.float32)


def rounded_mask(card: np.ndarray) -> np.ndarray:
    """The card's own pixels: its image with the corners rounded (3 mm of 63)."""
    h, w = card.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    r = max(2, round(w * 3 / 63))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (w - 1 - r, h - 1 - r), (r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return mask


def card_quad_at(rng: np.random.Generator, centre, long_side: float, shape: float, *, angle: float | None = None,
                 tilt: float = 0.0) -> np.ndarray:
    """The corners of a card ``long_side`` px long at ``centre``, of ``shape`` (its short side
    over its long side), turned by ``angle`` degrees (random when None) and seen ``tilt``
    degrees off vertical (the far side foreshortened, towards a random direction)."""
    angle = rng.uniform(0, 360) if angle is None else angle
    half = np.float32([[-shape, -1], [shape, -1], [shape, 1], [-shape, 1]]) * (long_side / 2)
    theta = np.radians(angle)
    rot = np.float32([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    points = half @ rot.T
    if tilt:
        towards = rng.normal(0, 1, 2)
        towards /= np.linalg.norm(towards)
        # The camera about twice the card's length away: the far end looks a little smaller.
        depth = 1 + np.sin(np.radians(tilt)) * (points @ towards) / (2 * long_side)
        points = points / depth[:, None]
    return (points + np.float32(centre)).astype(np.float32)


def shape_of_image(card: np.ndarray) -> float:
    """A card image's width over its height: the card's own shape (a bridge card is narrower)."""
    return card.shape[1] / card.shape[0]


def lay(image: np.ndarray, card: np.ndarray, quad: np.ndarray, *, shadow: bool = True) -> None:
    """Draw ``card`` (BGR) into ``image`` (float BGR, in place) at ``quad``."""
    h, w = card.shape[:2]
    s = max(image.shape[:2]) / 1500
    pad = int(8 * s) + 4
    x0, y0 = np.maximum(np.floor(np.float32(quad).min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(np.float32(quad).max(axis=0)).astype(int) + pad, (image.shape[1], image.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return
    region = image[y0:y1, x0:x1]
    src = np.float32([(0, 0), (w, 0), (w, h), (0, h)])
    matrix = cv2.getPerspectiveTransform(src, np.float32(quad) - np.float32([x0, y0]))
    size = (x1 - x0, y1 - y0)
    alpha = cv2.warpPerspective(rounded_mask(card), matrix, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    if shadow:
        dark = cv2.GaussianBlur(cv2.warpAffine(alpha, np.float32([[1, 0, 3 * s], [0, 1, 4 * s]]), size), (0, 0), 2.5 * s)
        region *= (1 - 0.35 * dark)[:, :, None]
    face = cv2.warpPerspective(card, matrix, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    region *= (1 - alpha)[:, :, None]
    region += face * alpha[:, :, None]


def clutter(rng: np.random.Generator, image: np.ndarray, keep_clear: list[np.ndarray], count: int) -> None:
    """Draw ``count`` things that are not cards (a mug seen from above, coins, a pen, a phone)
    into ``image``, outside the ``keep_clear`` outlines."""
    h, w = image.shape[:2]
    clear = np.zeros((h, w), np.uint8)
    for quad in keep_clear:
        cv2.fillConvexPoly(clear, np.int32(quad), 1)
    clear = cv2.dilate(clear, np.ones((15, 15), np.uint8))
    scale = max(w, h) / 1000
    for _ in range(count):
        for _try in range(20):
            thing = np.zeros((h, w), np.uint8)
            kind = rng.choice(["mug", "coin", "pen", "phone"])
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if kind == "mug":
                cv2.circle(thing, (int(cx), int(cy)), int(rng.uniform(60, 90) * scale), 1, -1)
            elif kind == "coin":
                cv2.circle(thing, (int(cx), int(cy)), int(rng.uniform(12, 22) * scale), 1, -1)
            elif kind == "pen":
                a = rng.uniform(0, np.pi)
                d = np.float32([np.cos(a), np.sin(a)]) * 140 * scale
                cv2.line(thing, (int(cx - d[0]), int(cy - d[1])), (int(cx + d[0]), int(cy + d[1])), 1, int(9 * scale))
            else:
                box = cv2.boxPoints(((cx, cy), (150 * scale, 72 * scale), rng.uniform(0, 180)))
                cv2.fillConvexPoly(thing, np.int32(box), 1)
            if not (thing & clear).any():
                break
        else:
            continue
        colour = {"phone": rng.uniform(10, 40, 3), "coin": rng.uniform(90, 190, 1).repeat(3) * [0.7, 0.9, 1.0]}.get(
            kind, rng.uniform(20, 240, 3))
        # Softened within a few pixels of the thing: drawn there alone (the same picture, at a
        # fraction of the cost of the whole one).
        x, y, bw, bh = cv2.boundingRect(thing)
        x0, y0, x1, y1 = max(x - 10, 0), max(y - 10, 0), min(x + bw + 10, w), min(y + bh + 10, h)
        soft = cv2.GaussianBlur(thing[y0:y1, x0:x1].astype(np.float32), (0, 0), 1.0)[:, :, None]
        region = image[y0:y1, x0:x1]
        region *= 1 - soft
        region += soft * np.float32(colour)


def finish(rng: np.random.Generator, image: np.ndarray, *, blur: float, noise: float, quality: int,
           even: bool = False) -> np.ndarray:
    """A float picture as a camera gives it: lit unevenly (unless ``even``, as a scanner lights),
    lens blur (sigma px), sensor noise (grey levels), JPEG at ``quality``; BGR uint8."""
    h, w = image.shape[:2]
    if not even:
        image = image * _lighting(rng, (w, h))[:, :, None]
    if blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    image = image + rng.normal(0, noise, image.shape).astype(np.float32)
    ok, data = cv2.imencode(".jpg", np.clip(image, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def photo_of_card(rng: np.random.Generator, card: np.ndarray, *, size=(900, 1200), kind: str | None = None,
                  fill: tuple[float, float] = (0.45, 0.75), tilt: float = 30.0, things: int = 3,
                  angle: float | None = None) -> tuple[np.ndarray, Placed]:
    """A phone photo (``size``: width, height; portrait 3:4 by default) of one ``card`` on a
    ``kind`` of background (random when None), its long side ``fill`` of the picture's short
    side, anywhere, turned any way (or by ``angle`` degrees), up to ``tilt`` degrees off
    vertical, with ``things`` around."""
    kind = kind or str(rng.choice(BACKGROUNDS))
    w, h = size
    image = background(rng, size, kind)
    long_side = rng.uniform(*fill) * min(w, h)
    for _ in range(50):
        quad = card_quad_at(rng, (rng.uniform(0, w), rng.uniform(0, h)), long_side, shape_of_image(card),
                            angle=angle, tilt=rng.uniform(0, tilt))
        if quad[:, 0].min() > 0.03 * w and quad[:, 0].max() < 0.97 * w and \
                quad[:, 1].min() > 0.03 * h and quad[:, 1].max() < 0.97 * h:
            break
    else:
        quad = card_quad_at(rng, (w / 2, h / 2), long_side, shape_of_image(card), angle=0)
    lay(image, card, quad)
    clutter(rng, image, [quad], things)
    picture = finish(rng, image, blur=rng.uniform(0.3, 1.2) * max(w, h) / 1200,
                     noise=rng.uniform(1, 5), quality=int(rng.integers(60, 92)))
    return picture, Placed(quad)


def scan_of_card(rng: np.random.Generator, card: np.ndarray) -> tuple[np.ndarray, Placed]:
    """A flatbed scan of ``card``: straight or a little askew, on the scanner's light grey lid,
    with a margin of 5-30 % of the card's size on each side."""
    h, w = card.shape[:2]
    margins = rng.uniform(0.05, 0.3, 4) * [w, h, w, h]
    size = (int(w + margins[0] + margins[2]), int(h + margins[1] + margins[3]))
    image = np.full((size[1], size[0], 3), rng.uniform(200, 240), np.float32)
    quad = card_quad_at(rng, (margins[0] + w / 2, margins[1] + h / 2), h * 1.0, shape_of_image(card), angle=rng.uniform(-3, 3))
    lay(image, card, quad, shadow=False)
    return finish(rng, image, blur=0.4, noise=1.0, quality=92, even=True), Placed(quad)


def rough_crop(rng: np.random.Generator, card: np.ndarray) -> tuple[np.ndarray, Placed]:
    """A photo of ``card`` cut roughly around it by hand: 2-12 % of the card's size left around
    it on each side, the card a little askew and in perspective."""
    picture, placed = photo_of_card(rng, card, size=(1200, 1200), fill=(0.5, 0.6), tilt=15, things=0)
    lo, hi = placed.quad.min(axis=0), placed.quad.max(axis=0)
    span = hi - lo
    x0, y0 = np.maximum(lo - rng.uniform(0.02, 0.12, 2) * span, 0).astype(int)
    x1, y1 = np.minimum(hi + rng.uniform(0.02, 0.12, 2) * span, picture.shape[1::-1]).astype(int)
    return picture[y0:y1, x0:x1].copy(), Placed(placed.quad - np.float32([x0, y0]))


def photo_of_layout(rng: np.random.Generator, cards: list[list[np.ndarray]], *, size=(4000, 3000),
                    kind: str | None = None, tilt: float = 15.0, jitter: float = 0.04) -> tuple[np.ndarray, list[list[Placed]]]:
    """A photo (``size``, landscape) of cards laid out in rows (``cards[row][column]``), a
    finger's width apart, each a little askew (``jitter`` of a card's width), the whole layout
    seen up to ``tilt`` degrees off vertical."""
    kind = kind or str(rng.choice(BACKGROUNDS))
    w, h = size
    image = background(rng, size, kind)
    across, down = 1.25, 1.2  # card pitch, in card widths and card lengths: a finger's width apart
    towards = rng.normal(0, 1, 2)
    towards /= np.linalg.norm(towards)
    # One grid for the whole deck, as a person lays it: pitched by its widest card, so a design
    # whose court images are squatter than its others is not spaced card by card onto its neighbour.
    pitch = across * 88 * max(shape_of_image(card) for row in cards for card in row)
    quads = []
    for r, row in enumerate(cards):
        for c in range(len(row)):
            shape = shape_of_image(row[c])
            at = np.float32([c * pitch, r * down * 88]) + rng.normal(0, jitter * 88 * shape, 2)
            quads.append(card_quad_at(rng, at, 88.0, shape, angle=rng.normal(0, 3)))
    points = np.concatenate(quads)
    centre = (points.min(axis=0) + points.max(axis=0)) / 2
    span = float(np.linalg.norm(points.max(axis=0) - points.min(axis=0)))
    quads = [(q - centre) / (1 + np.sin(np.radians(tilt)) * ((q - centre) @ towards) / span)[:, None] for q in quads]
    points = np.concatenate(quads)
    low, high = points.min(axis=0), points.max(axis=0)
    scale = min(0.94 * w / (high[0] - low[0]), 0.94 * h / (high[1] - low[1]))
    offset = np.float32([w, h]) / 2 - scale * (low + high) / 2
    placed: list[list[Placed]] = []
    at = iter(quads)
    for row in cards:
        placed.append([])
        for card in row:
            quad = (next(at) * scale + offset).astype(np.float32)
            lay(image, card, quad)
            placed[-1].append(Placed(quad))
    picture = finish(rng, image, blur=rng.uniform(0.5, 1.5) * max(w, h) / 2000, noise=rng.uniform(1, 4),
                     quality=int(rng.integers(70, 92)))
    return picture, placed


#: How a user's card images may have been made (see :func:`write_photos`).
IMAGE_KINDS = ("clean", "scan", "crop", "photo")


def picture_of(rng: np.random.Generator, card: np.ndarray, kind: str, *, size=(900, 1200)) -> np.ndarray:
    """One picture of ``card`` of a ``kind`` (see :data:`IMAGE_KINDS`): the image itself, a
    scan, a rough crop, or a phone photo of ``size`` on a random background."""
    if kind == "clean":
        return card
    if kind == "scan":
        return scan_of_card(rng, card)[0]
    if kind == "crop":
        return rough_crop(rng, card)[0]
    if kind == "photo":
        return photo_of_card(rng, card, size=size)[0]
    raise ValueError(f"no kind of picture {kind!r}: one of {', '.join(IMAGE_KINDS)}")


def write_photos(design: str, folder, cards, kind: str, seed: int, *, size=(900, 1200), back: bool = False):
    """Write a picture (``kind``, see :func:`picture_of`) of each of ``cards`` (faces) of
    ``design`` into ``folder`` as ``10H.jpg`` ..., and with ``back`` one of its back as
    ``BACK.jpg``, as a user would; returns the folder."""
    from pathlib import Path

    from vision.faces.designs import element_id, render_card

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for card in cards:
        picture = picture_of(rng, render_card(design, element_id(card)), kind, size=size)
        cv2.imwrite(str(folder / f"{card}.jpg"), picture, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if back:
        picture = picture_of(rng, render_card(design, "back"), kind, size=size)
        cv2.imwrite(str(folder / "BACK.jpg"), picture, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return folder


def photo_of_table(rng: np.random.Generator, cards: list[np.ndarray], *, size=(4000, 3000), kind: str | None = None,
                   tilt: float = 20.0, things: int = 3) -> tuple[np.ndarray, list[Placed]]:
    """A photo (``size``) of ``cards`` lying face up apart from each other on a table, anywhere,
    turned any way, a card's length about a ninth of the picture's height, up to ``tilt``
    degrees off vertical, with ``things`` around."""
    kind = kind or str(rng.choice(BACKGROUNDS))
    w, h = size
    image = background(rng, size, kind)
    long_side = h / rng.uniform(7, 10)
    placed: list[Placed] = []
    taken = np.zeros((h, w), np.uint8)
    for card in cards:
        for _ in range(100):
            quad = card_quad_at(rng, (rng.uniform(0.08, 0.92) * w, rng.uniform(0.1, 0.9) * h), long_side,
                                shape_of_image(card), tilt=rng.uniform(0, tilt))
            room = np.zeros((h, w), np.uint8)  # the card and a finger's width around it
            cv2.fillConvexPoly(room, np.int32((quad - quad.mean(axis=0)) * 1.2 + quad.mean(axis=0)), 1)
            if not (room & taken).any():
                break
        else:
            continue
        taken |= room
        lay(image, card, quad)
        placed.append(Placed(quad))
    clutter(rng, image, [p.quad for p in placed], things)
    picture = finish(rng, image, blur=rng.uniform(0.5, 1.5) * max(w, h) / 2000, noise=rng.uniform(1, 4),
                     quality=int(rng.integers(75, 93)))
    return picture, placed
