"""The synthetic table's scene: what lies where, and when, with no drawing.

A :class:`Scene` follows a script of moves (:mod:`vision.sim.script`) on a table of zones: where each
card lands (the free slots of a zone, with a little jitter), where it lies at any time (key frames,
with slides in between), where the hands that bring, slide, take or hover over cards are, which
markers they cover, and which events a perfect tracker reports (:func:`expected_events`). Table
coordinates are millimetres with the origin at the table centre, x to the right and y towards
seat 1. :class:`vision.sim.synthetic.SyntheticCamera` renders a scene into frames.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from engine.decks import Deck
from engine.errors import InvalidInput
from vision.render import CARD_MARKER_MM, CARD_MM
from vision.sim.script import OFF_TABLE, Hand, Move, Place, Remove
from vision.table_layout import default_layout

#: The part of the table the synthetic camera sees, in millimetres, centred on the origin.
TABLE_MM = (900.0, 520.0)
#: The zones of the synthetic table, in mm: four seats and a centre (see :mod:`vision.table_layout`).
DEFAULT_ZONES = default_layout(4, ("centre",))
_SLOT_STEP = 66.0   # mm between the centres of cards laid side by side in a zone
_HAND_TRAVEL = 0.25
#: A hand resting on the table is never quite still: it trembles by this share of a hovering
#: hand's wobble (under a millimetre).
_TREMOR = 0.12
#: mm from a hand's palm centre to its sides, fingertips and wrist (the renderer draws it so).
HAND_HALF_WIDTH, HAND_FINGERS, HAND_PALM = 52.0, 108.0, 62.0


@dataclass(frozen=True)
class Pose:
    """Where a card lies: centre (x, y) in table mm and rotation in degrees."""

    x: float
    y: float
    angle: float

    def towards(self, other: "Pose", f: float) -> "Pose":
        return Pose(self.x + (other.x - self.x) * f, self.y + (other.y - self.y) * f,
                    self.angle + (other.angle - self.angle) * f)


@dataclass(frozen=True)
class _Key:
    t: float
    pose: Pose | None
    glide: bool = False


@dataclass(frozen=True)
class _HandPass:
    t0: float
    t1: float
    start: tuple[float, float]
    points: tuple[tuple[float, float, float, float], ...]  # (t, x, y, wobble) waypoints
    shade: int


def zone_centre(polygon) -> tuple[float, float]:
    """The centre of a zone polygon (the mean of its corners)."""
    pts = np.asarray(polygon, dtype=float)
    return float(pts[:, 0].mean()), float(pts[:, 1].mean())


#: What is seen at one instant: cards as ((came to rest at, first laid at), card id, x, y, angle),
#: bottom to top, and hands as (shade, x, y); rounded, so that an unchanged table gives an equal
#: snapshot.
Snapshot = tuple[tuple[tuple[tuple[float, float], str, float, float, float], ...], tuple[tuple[int, float, float], ...]]


class Scene:
    """The cards and hands on a table of ``zones`` as ``script`` happens.

    :param zones: zone name to polygon in table mm (default :data:`DEFAULT_ZONES`).
    :param script: the moves (see :func:`vision.sim.script.parse_script`).
    :param deck: the deck the script's cards must belong to.
    :param jitter: cards land off-centre and rotated.
    :param hands: hands bring, slide and take cards.
    :param seed: varies jitter and hands.
    :param view: how much table the camera sees, in multiples of :data:`TABLE_MM` (a card swept
        off the table goes past the edge of that view).
    :raises InvalidInput: for an unknown card or zone, or an impossible script (removing a card
        that is not on the table, placing one that already is).
    """

    def __init__(self, zones: dict | None = None, script: list[Move] | tuple = (), *, deck: Deck,
                 jitter: bool = True, hands: bool = True, seed: int = 0, view: float = 1.0) -> None:
        self.zones = dict(DEFAULT_ZONES if zones is None else zones)
        self.deck, self.jitter, self.hands, self.view = deck, jitter, hands, view
        self._keys: dict[str, list[_Key]] = {}
        self._hands: list[_HandPass] = []
        self._rng = random.Random(seed)
        for move in sorted(script, key=lambda m: m.t):
            self.add(move)

    # -- the script -------------------------------------------------------------------------

    def _pose_now(self, card: str) -> Pose | None:
        keys = self._keys.get(card)
        return keys[-1].pose if keys else None

    def _slots(self, zone: str) -> list[tuple[float, float]]:
        """Where cards land in ``zone``, as offsets from its centre: the middle first, then outwards,
        in as many columns (and rows, when the zone is tall enough) as fit without overlapping."""
        pts = np.asarray(self.zones[zone], dtype=float)
        half_w = (pts[:, 0].max() - pts[:, 0].min()) / 2
        half_h = (pts[:, 1].max() - pts[:, 1].min()) / 2
        side = max(0, int((half_w - 36) // _SLOT_STEP))
        columns = [0.0] + [sign * _SLOT_STEP * k for k in range(1, side + 1) for sign in (1, -1)]
        rows = (-48.0, 48.0) if half_h >= 96 else (0.0,)
        return sorted(((dx, dy) for dy in rows for dx in columns), key=lambda o: (abs(o[0]), o[1]))

    def _free_slot(self, zone: str) -> tuple[float, float]:
        """The offset from ``zone``'s centre where the next card lands: its first free slot, or
        when every slot is taken, the spot of the zone farthest from the cards there (never on
        a card exactly: a card laid wholly over another hides it from any camera)."""
        slots = self._slots(zone)
        taken, lying = set(), []
        for keys in self._keys.values():
            pose = keys[-1].pose
            if pose is not None and self.zone_of(pose.x, pose.y) == zone:
                taken.add(self._slot_of(zone, pose, slots))
                lying.append(pose)
        free = next((i for i in range(len(slots)) if i not in taken), None)
        return slots[free] if free is not None else self._least_crowded(zone, lying)

    def _least_crowded(self, zone: str, lying: list[Pose]) -> tuple[float, float]:
        """The offset from ``zone``'s centre, on a grid of 6 mm, of a card lying inside the
        zone's bounds that overlaps the cards ``lying`` there least (the farthest from its
        nearest, in card widths and lengths)."""
        pts = np.asarray(self.zones[zone], dtype=float)
        cx, cy = zone_centre(self.zones[zone])
        half_w = max(0.0, (pts[:, 0].max() - pts[:, 0].min() - CARD_MM[0]) / 2)
        half_h = max(0.0, (pts[:, 1].max() - pts[:, 1].min() - CARD_MM[1]) / 2)
        best, spot = -1.0, (0.0, 0.0)
        for dx in np.arange(-half_w, half_w + 1e-9, 6.0):
            for dy in np.arange(-half_h, half_h + 1e-9, 6.0):
                apart = min(max(abs(cx + dx - p.x) / CARD_MM[0], abs(cy + dy - p.y) / CARD_MM[1]) for p in lying)
                if apart > best + 1e-9:
                    best, spot = apart, (float(dx), float(dy))
        return spot

    def _slot_of(self, zone: str, pose: Pose, slots) -> int:
        cx, cy = zone_centre(self.zones[zone])
        return min(range(len(slots)), key=lambda i: abs(cx + slots[i][0] - pose.x) + abs(cy + slots[i][1] - pose.y))

    def _landing(self, zone: str, x=None, y=None, angle=None) -> Pose:
        if zone not in self.zones:
            raise InvalidInput(f"the script names zone {zone!r}, but the table has {', '.join(self.zones)}")
        cx, cy = zone_centre(self.zones[zone])
        dx, dy = self._free_slot(zone) if x is None or y is None else (0.0, 0.0)
        if x is None:
            x = cx + dx + (self._rng.uniform(-6, 6) if self.jitter else 0)
        if y is None:
            y = cy + dy + (self._rng.uniform(-8, 8) if self.jitter else 0)
        if angle is None:
            angle = self._rng.uniform(-10, 10) if self.jitter else 0.0
        return Pose(x, y, angle)

    def add(self, move: Move) -> None:
        """Add one move to the script (moves may keep coming while frames are taken, in time order).

        :raises InvalidInput: for a move that cannot happen (see the class docstring).
        """
        if isinstance(move, Hand):
            self._add_hand(move.t, move.t + move.duration, self._target(move.target, move.t), hover=True,
                           still=move.still)
            return
        self.deck.card(move.card)
        current = self._pose_now(move.card)
        if isinstance(move, Place):
            if current is not None:
                raise InvalidInput(f"the script places {move.card} at {move.t:g} s, but it is already on the table")
            pose = self._landing(move.zone, move.x, move.y, move.angle)
            self._keys.setdefault(move.card, []).append(_Key(move.t, pose))
            self._add_hand(move.t - _HAND_TRAVEL, move.t + _HAND_TRAVEL, (pose.x, pose.y))
            return
        if current is None:
            raise InvalidInput(f"the script moves {move.card} at {move.t:g} s, but it is not on the table")
        if isinstance(move, Remove):
            self._keys[move.card].append(_Key(move.t, None))
            self._add_hand(move.t - _HAND_TRAVEL, move.t + _HAND_TRAVEL, (current.x, current.y))
        else:
            target = self._off_table(current) if move.zone == OFF_TABLE else self._landing(move.zone, move.x, move.y, move.angle)
            self._keys[move.card][-1:] = [self._keys[move.card][-1], _Key(move.t, current, glide=True)]
            self._keys[move.card].append(_Key(move.t + move.duration, target))
            self._add_hand(move.t - _HAND_TRAVEL, move.t + move.duration + _HAND_TRAVEL,
                           (current.x, current.y), glide_to=(move.t, move.t + move.duration, (target.x, target.y)),
                           over=move.covered)

    def _off_table(self, pose: Pose) -> Pose:
        """Where a card swept off the table from ``pose`` ends: past the nearest edge of the view."""
        half_w, half_h = self.view * TABLE_MM[0] / 2 + CARD_MM[1], self.view * TABLE_MM[1] / 2 + CARD_MM[1]
        edges = [Pose(pose.x, half_h, pose.angle), Pose(pose.x, -half_h, pose.angle),
                 Pose(-half_w, pose.y, pose.angle), Pose(half_w, pose.y, pose.angle)]
        return min(edges, key=lambda e: math.hypot(e.x - pose.x, e.y - pose.y))

    def _target(self, target: str, t: float) -> tuple[float, float]:
        if target in self.zones:
            return zone_centre(self.zones[target])
        pose = self.pose_at(target.upper(), t)
        if pose is None:
            raise InvalidInput(f"the script passes a hand over {target!r}, which is neither a zone nor a card on the table")
        return pose.x, pose.y

    def _add_hand(self, t0: float, t1: float, at: tuple[float, float], *, hover: bool = False,
                  still: bool = False, glide_to: tuple | None = None, over: bool = False) -> None:
        if not self.hands:
            return
        x, y = at
        half_w, half_h = TABLE_MM[0] / 2, TABLE_MM[1] / 2
        edges = [(x, half_h + 150), (x, -half_h - 150), (-half_w - 150, y), (half_w + 150, y)]
        start = min(edges, key=lambda e: math.hypot(e[0] - x, e[1] - y))
        # A hand holding a card covers its edge nearest the player; a hovering hand, or one
        # pushing the card along flat (``over``), covers it all.
        offset = 0.0 if hover or over else 45.0
        norm = math.hypot(start[0] - x, start[1] - y) or 1.0
        ox, oy = (start[0] - x) / norm * offset, (start[1] - y) / norm * offset
        travel = min(_HAND_TRAVEL, (t1 - t0) / 3)
        points = [(t0 + travel, x + ox, y + oy, _TREMOR if still else 1.0)]
        if glide_to is not None:
            g0, g1, (tx, ty) = glide_to
            points = [(g0, x + ox, y + oy, 0.0), (g1, tx + ox, ty + oy, 0.0)]
        points.append((t1 - travel, points[-1][1], points[-1][2], _TREMOR if still else 1.0 if hover else 0.3))
        self._hands.append(_HandPass(t0, t1, start, tuple(points), self._rng.randint(-25, 25)))

    # -- what is where ----------------------------------------------------------------------

    def pose_at(self, card: str, t: float) -> Pose | None:
        """Where ``card`` lies at time ``t``, or None when it is not on the table."""
        keys = self._keys.get(card, ())
        pose = None
        for i, key in enumerate(keys):
            if key.t > t:
                break
            pose = key.pose
            if key.glide and i + 1 < len(keys) and t < keys[i + 1].t:
                nxt = keys[i + 1]
                return pose.towards(nxt.pose, (t - key.t) / (nxt.t - key.t))
        return pose

    def cards_at(self, t: float) -> dict[str, Pose]:
        """Every card on the table at time ``t`` with its pose."""
        poses = {card: self.pose_at(card, t) for card in self._keys}
        return {card: pose for card, pose in poses.items() if pose is not None}

    def zone_of(self, x: float, y: float) -> str | None:
        """The zone containing the table point (x, y) mm, or None."""
        for name, polygon in self.zones.items():
            if cv2.pointPolygonTest(np.float32(polygon), (float(x), float(y)), False) >= 0:
                return name
        return None

    def hands_at(self, t: float) -> list[tuple[int, float, float]]:
        """The hands over the table at time ``t``: (shade, x, y) with (x, y) the palm centre in mm."""
        return [(hand.shade, *at) for hand in self._hands if (at := self._hand_at(hand, t)) is not None]

    def _hand_at(self, hand: _HandPass, t: float) -> tuple[float, float] | None:
        if not hand.t0 <= t <= hand.t1:
            return None
        track = [(hand.t0, *hand.start, 0.0), *hand.points, (hand.t1, *hand.start, 0.0)]
        for (ta, xa, ya, wa), (tb, xb, yb, _) in zip(track, track[1:]):
            if ta <= t <= tb:
                f = 0.0 if tb == ta else (t - ta) / (tb - ta)
                wobble = 6.0 * wa * math.sin(19.0 * t + hand.shade)
                return xa + (xb - xa) * f + wobble, ya + (yb - ya) * f + 0.6 * wobble
        return None

    def hidden(self, card: str, t: float) -> bool:
        """True when a hand covers part of ``card``'s marker at time ``t`` (the hand taken as
        its bounding box: palm and fingers)."""
        pose = self.pose_at(card, t)
        return pose is not None and self.covers(pose, t)

    def covers(self, pose: Pose, t: float) -> bool:
        """True when a hand covers part of the marker of a card lying at ``pose`` at time ``t``."""
        a = math.radians(pose.angle)
        reach = CARD_MARKER_MM / 2 * (abs(math.cos(a)) + abs(math.sin(a)))
        return any(abs(x - pose.x) < reach + HAND_HALF_WIDTH and y - HAND_FINGERS - reach < pose.y < y + HAND_PALM + reach
                   for _, x, y in self.hands_at(t))

    def in_clear_view(self, card: str, t: float, hold: float = 0.5) -> float:
        """The first time from ``t`` when ``card`` lies on the table with no hand over its marker
        for ``hold`` seconds (the time a tracker can first be asked to have seen it), or
        infinity if that never happens within ten seconds."""
        step, start = 0.05, t
        for i in range(int(10 / step)):
            now = t + i * step
            if self.pose_at(card, now) is None or self.hidden(card, now):
                start = now + step
            elif now - start >= hold:
                return start
        return math.inf

    def snapshot(self, t: float) -> Snapshot:
        """What is seen at time ``t`` (see :data:`Snapshot`): equal snapshots look the same."""
        cards = tuple(sorted(
            ((self._laid_at(card, t), card, round(p.x, 2), round(p.y, 2), round(p.angle, 2))
             for card, p in self.cards_at(t).items())))
        hands = tuple((shade, round(x, 1), round(y, 1)) for shade, x, y in self.hands_at(t))
        return cards, hands

    def _laid_at(self, card: str, t: float) -> tuple[float, float]:
        """When ``card`` last came to lie where it is before ``t``, and when it was first laid:
        later cards lie on top of earlier ones, also when a card comes back to the table after
        being picked up, or comes to rest at the end of a slide (a card slid onto another lies on
        it, never under it); of cards that come to rest at once (a pile pushed together), the
        one laid first lies lowest."""
        keys = self._keys[card]
        laid = keys[0].t
        for before, key in zip(keys, keys[1:]):
            if key.t > t:
                break
            if key.pose is not None and (before.pose is None or before.glide):
                laid = key.t
        return laid, keys[0].t


def expected_events(scene: Scene, script: list[Move]) -> list[tuple[str, str, str, float]]:
    """The table events a perfect tracker reports for ``script`` on ``scene``'s table (a
    :class:`Scene`, or a camera that shows one): (kind, card id, zone, time of the move), in time
    order; a card laid before the camera starts (a negative time) is ``present``. Cards outside
    every zone give none."""
    events = []
    for move in sorted(script, key=lambda m: m.t):
        if isinstance(move, Hand):
            continue
        if isinstance(move, Place):
            pose = scene.pose_at(move.card, move.t)
            kind = "present" if move.t < 0 else "placed"     # lying there when the camera started
            events.append((kind, move.card, scene.zone_of(pose.x, pose.y), move.t))
        elif isinstance(move, Remove):
            pose = scene.pose_at(move.card, move.t - 1e-6)
            events.append(("removed", move.card, scene.zone_of(pose.x, pose.y), move.t))
        else:
            before = scene.pose_at(move.card, move.t - 1e-6)
            after = scene.pose_at(move.card, move.t + move.duration)
            old, new = scene.zone_of(before.x, before.y), scene.zone_of(after.x, after.y)
            if move.zone == OFF_TABLE:
                events.append(("removed", move.card, old, move.t + move.duration))
            elif old != new:
                events.append(("moved", move.card, new, move.t + move.duration))
    return [e for e in events if e[2] is not None]
