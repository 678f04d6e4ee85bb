"""The table's zones: their names, and the default layout of 2 to 5 seats and a game's shared zones.

Every zone is a name. Seat ``n`` (from 0) plays in :func:`seat_zone` ``(n)``, "seat1", "seat2"
...; the shared zones a game uses (the starter, the crib, the centre, the pot) come from its card
actions (:func:`shared_zones`). With readers, each reader watches one of these zones.

With a camera, :func:`default_layout` places them in table millimetres around the calibration
mat's centre (y grows towards seat 1): one play area per seat, clockwise from seat 1 at the near
edge (two seats face each other; three sit at the near edge and the far corners; four one at each
edge; five at the near edge, both sides and the far corners), and the shared zones side by side
in the middle. It fits the synthetic camera's table (900 x 520 mm); ``cardtable config example``
writes it as a starting point for a real table, and the demo's camera lays its cards there.

It needs nothing but the engine, so the application, the camera and their twins all read it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import InvalidInput
from engine.game import Game

Polygon = list[tuple[float, float]]

_SEAT = "seat"
_GAP = 8.0                      # mm between shared zones laid side by side
_MIDDLE_HALF_HEIGHT = 110.0     # the shared zones lie within y = -110 .. 110

_NEAR, _FAR = (-220, 120, 220, 258), (-220, -258, 220, -120)
_LEFT, _RIGHT = (-448, -115, -232, 115), (232, -115, 448, 115)
_FAR_LEFT, _FAR_RIGHT = (-448, -258, -8, -120), (8, -258, 448, -120)
#: each seat's play area as (x0, y0, x1, y1) in mm, for 2 to 5 seats, clockwise from seat 1
SEAT_BOXES = {
    2: (_NEAR, _FAR),
    3: (_NEAR, _FAR_LEFT, _FAR_RIGHT),
    4: (_NEAR, _LEFT, _FAR, _RIGHT),
    5: (_NEAR, _LEFT, _FAR_LEFT, _FAR_RIGHT, _RIGHT),
}


def seat_zone(seat: int) -> str:
    """The zone in front of seat ``seat`` (from 0).

    >>> seat_zone(0), seat_zone(4)
    ('seat1', 'seat5')
    """
    return f"{_SEAT}{seat + 1}"


def seat_zones(players: int) -> tuple[str, ...]:
    """The zones of seats 0 .. ``players`` - 1."""
    return tuple(seat_zone(n) for n in range(players))


def shared_zones(game: Game) -> tuple[str, ...]:
    """The zones other than the seats' that the game's card actions use (starter, crib ...)."""
    return tuple(sorted({slot.zone for slot in game.card_actions.values() if slot.zone != _SEAT}))


def rect(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    """The rectangle from corner (x0, y0) to (x1, y1) as a polygon."""
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def default_layout(players: int, shared: Sequence[str] = ()) -> dict[str, Polygon]:
    """Zone polygons in table mm for ``players`` seats and the ``shared`` zones, in that order.

    The shared zones fill the middle of the table: its whole width when no seat sits at a side.

    :raises InvalidInput: for fewer than 2 or more than 5 seats.
    """
    if players not in SEAT_BOXES:
        raise InvalidInput(f"the default table layout has 2 to 5 seats, not {players}")
    layout = {seat_zone(n): rect(*box) for n, box in enumerate(SEAT_BOXES[players])}
    half = -_LEFT[0] if players < 4 else -_NEAR[0]
    width = (2 * half - _GAP * (len(shared) - 1)) / max(1, len(shared))
    for i, zone in enumerate(shared):
        x0 = -half + i * (width + _GAP)
        layout[zone] = rect(x0, -_MIDDLE_HALF_HEIGHT, x0 + width, _MIDDLE_HALF_HEIGHT)
    return layout
