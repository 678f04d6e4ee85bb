"""The one default table layout: every seat count and set of shared zones fits the table, no two
zones overlap, each holds a card, and every user of a layout gets this one."""

import pytest

from engine.errors import InvalidInput
from engine.games import all_games
from vision.sim.synthetic import DEFAULT_ZONES, TABLE_MM
from vision.table_layout import default_layout, seat_zone, seat_zones, shared_zones

CARD_MM = (63.0, 88.0)


def box(polygon):
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("shared", [(), ("centre",), ("crib", "starter"), ("centre", "pot"), ("a", "b", "c")])
def test_every_layout_fits_the_table_without_overlaps_and_each_zone_holds_a_card(players, shared):
    layout = default_layout(players, shared)
    assert list(layout) == [*seat_zones(players), *shared]
    boxes = {zone: box(polygon) for zone, polygon in layout.items()}
    half_w, half_h = TABLE_MM[0] / 2, TABLE_MM[1] / 2
    for zone, (x0, y0, x1, y1) in boxes.items():
        assert -half_w <= x0 < x1 <= half_w and -half_h <= y0 < y1 <= half_h, zone
        assert x1 - x0 >= CARD_MM[0] and y1 - y0 >= CARD_MM[1], zone
    for a in boxes:
        for b in boxes:
            if a < b:
                (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[a], boxes[b]
                assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (a, b)


def test_seat_one_sits_at_the_near_edge_and_the_seats_go_round_clockwise():
    for players in (2, 3, 4, 5):
        centres = [((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in map(box, default_layout(players).values())]
        assert centres[0] == (0, 189)
        xs = [x for x, _ in centres[1:]]
        assert xs == sorted(xs)                      # from seat 1 at the near edge, left first, then round


def test_the_synthetic_table_is_the_four_seat_layout_with_a_centre():
    assert DEFAULT_ZONES == default_layout(4, ("centre",))


def test_zone_names_and_shared_zones_of_every_game():
    assert seat_zone(0) == "seat1" and seat_zones(3) == ("seat1", "seat2", "seat3")
    shared = {game.name: shared_zones(game) for game in all_games()}
    assert shared["cribbage"] == ("crib", "starter") and shared["its15"] == ("centre", "pot")
    assert all(not zone.startswith("seat") for zones in shared.values() for zone in zones)


@pytest.mark.parametrize("players", [0, 1, 6])
def test_a_seat_count_with_no_layout_is_said_in_words(players):
    with pytest.raises(InvalidInput, match="2 to 5 seats"):
        default_layout(players)
