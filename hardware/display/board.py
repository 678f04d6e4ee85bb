"""The score board of a :class:`~hardware.view.TableView` as geometry every display draws the same
way: holes, lines and pegs in board units (one unit between neighbouring holes), scaled by each
renderer to its room.

A cribbage board (``view.board == "cribbage"``) has streets of 30 holes, one row each, run back
and forth (121 points: four streets), a lane per side (partners peg together), two start holes
per lane and one game hole; the skunk lines (91 and 61 in a game to 121, 31 in a game to 61) are
drawn across the lanes where they fall. Each side has two pegs: the front peg at its score, the
back peg at its score before the last change. Other games get a score track: one row of holes
per side up to the target (without a target, to the leading score, rounded up to 5), a peg at
each side's score.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.view import TableView

STREET = 30                 # holes in a street of a cribbage board
_GROUP_GAP = 0.6            # extra room after every fifth hole
_LANE = 1.0                 # a lane's height
_STREET_GAP = 0.9           # room between two streets
#: the skunk lines by target: (score, label); a loser below the line is skunked
SKUNK_LINES = {121: ((91, "skunk"), (61, "double skunk")), 61: ((31, "skunk"),)}


@dataclass(frozen=True)
class Peg:
    """A peg: the side it belongs to, the score it stands at, whether it is the front peg."""

    side: int
    score: int
    x: float
    y: float
    front: bool


@dataclass(frozen=True)
class Mark:
    """A line across the lanes: a skunk line (before the hole of ``score``)."""

    score: int
    label: str
    x: float
    y0: float
    y1: float


@dataclass(frozen=True)
class Board:
    """Everything to draw, in board units: ``width`` x ``height``, the holes (x, y, lane),
    the lines and the pegs; ``names`` of the lanes, ``target`` the game hole's score."""

    kind: str
    width: float
    height: float
    target: int
    names: tuple[str, ...]
    holes: tuple[tuple[float, float, int], ...]
    marks: tuple[Mark, ...]
    pegs: tuple[Peg, ...]

    def lane_y(self, lane: int) -> tuple[float, ...]:
        """The y of each row of ``lane`` (one per street), top first."""
        return tuple(sorted({y for _, y, n in self.holes if n == lane}))


def _x(i: int) -> float:
    """The x of the ``i``-th hole of a row (from 0), groups of five set apart."""
    return 3.0 + i + (i // 5) * _GROUP_GAP


def _row_width(holes: int) -> float:
    return _x(holes - 1) + 1.0


class _Cribbage:
    def __init__(self, lanes: int, target: int) -> None:
        self.lanes, self.target = lanes, target
        self.streets = -(-(target - 1) // STREET)
        self.row_h = lanes * _LANE + _STREET_GAP

    def spot(self, lane: int, score: int, back: bool = False) -> tuple[float, float]:
        """Where a peg at ``score`` stands: a start hole (0; the back peg the outer one), a hole
        of a street, or the game hole (the target or more)."""
        if score <= 0:
            return (0.3 if back else 1.3), lane * _LANE + 0.5
        if score >= self.target:
            street = self.streets - 1
            x = 0.5 if street % 2 else _row_width(STREET) + 0.5
            return x, street * self.row_h + self.lanes * _LANE / 2
        street, i = divmod(score - 1, STREET)
        x = _x(i) if street % 2 == 0 else _x(STREET - 1) - (_x(i) - _x(0))
        return x, street * self.row_h + lane * _LANE + 0.5

    def holes(self) -> list[tuple[float, float, int]]:
        out = [(*self.spot(lane, 0, back), lane) for lane in range(self.lanes) for back in (True, False)]
        out += [(*self.spot(lane, score), lane) for lane in range(self.lanes) for score in range(1, self.target)]
        return out + [(*self.spot(0, self.target), -1)]

    def marks(self) -> list[Mark]:
        out = []
        for score, label in SKUNK_LINES.get(self.target, ()):
            street, i = divmod(score - 1, STREET)
            x, _ = self.spot(0, score)
            x += -0.5 if street % 2 == 0 else 0.5
            top = street * self.row_h
            out.append(Mark(score, label, x, top, top + self.lanes * _LANE))
        return out

    def size(self) -> tuple[float, float]:
        return _row_width(STREET) + 1.0, self.streets * self.row_h - _STREET_GAP


class _Track:
    def __init__(self, lanes: int, target: int) -> None:
        self.lanes, self.target = lanes, target

    def spot(self, lane: int, score: int, back: bool = False) -> tuple[float, float]:
        i = min(max(score, 0), self.target)
        return _x(i - 1) if i else 0.5, lane * _LANE + 0.5

    def holes(self) -> list[tuple[float, float, int]]:
        return [(*self.spot(lane, score), lane) for lane in range(self.lanes) for score in range(1, self.target + 1)]

    def marks(self) -> list[Mark]:
        return []

    def size(self) -> tuple[float, float]:
        return _row_width(self.target) + 0.5, self.lanes * _LANE


def board_of(view: TableView) -> Board | None:
    """The board of ``view``, or ``None`` when it has nothing to peg (no sides or no board)."""
    if not view.sides or not view.board:
        return None
    sides = view.sides
    if view.board == "cribbage":
        shape: _Cribbage | _Track = _Cribbage(len(sides), view.target or 121)
    else:
        top = max(max(s.score, s.back) for s in sides)
        shape = _Track(len(sides), view.target or max(5, -(-top // 5) * 5))
    pegs = []
    for lane, side in enumerate(sides):
        if view.board == "cribbage":
            back = side.back if side.back != side.score else 0
            pegs.append(Peg(lane, back, *shape.spot(lane, back, back=True), front=False))
        pegs.append(Peg(lane, side.score, *shape.spot(lane, side.score), front=True))
    width, height = shape.size()
    return Board(view.board, width, height, shape.target, tuple(s.name for s in sides),
                 tuple(shape.holes()), tuple(shape.marks()), tuple(pegs))
