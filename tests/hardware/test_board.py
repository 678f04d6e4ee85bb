"""The score board's geometry: a cribbage board of 121 holes in streets of 30 with its skunk lines
and two pegs per side, a score track to the target for the other games."""

import pytest

from hardware.display.board import STREET, board_of
from hardware.view import SeatView, SideView, TableView


def view(board, target, *sides):
    seats = tuple(SeatView(f"P{n}", score) for n, (_, score, _) in enumerate(sides))
    return TableView("Game", seats, "", sides=tuple(SideView(*side) for side in sides), board=board, target=target)


def test_a_cribbage_board_has_121_holes_a_lane_per_side_in_streets_of_30():
    board = board_of(view("cribbage", 121, ("Ann", 37, 30), ("Bob", 0, 0)))
    lanes = {lane for _, _, lane in board.holes if lane >= 0}
    assert lanes == {0, 1}
    for lane in lanes:     # two start holes and 120 scoring holes per lane, one game hole shared
        assert sum(1 for _, _, n in board.holes if n == lane) == 122
    assert sum(1 for _, _, n in board.holes if n == -1) == 1
    assert len(board.lane_y(0)) == 120 // STREET               # a row per street, the start holes in the first
    assert len({(x, y) for x, y, _ in board.holes}) == len(board.holes)     # no two holes in one place


def test_pegs_stand_at_the_score_and_the_score_before():
    board = board_of(view("cribbage", 121, ("Ann", 37, 30), ("Bob", 0, 0)))
    ann = {peg.front: peg for peg in board.pegs if peg.side == 0}
    assert ann[True].score == 37 and ann[False].score == 30
    holes = {(x, y) for x, y, _ in board.holes}
    assert all((peg.x, peg.y) in holes for peg in board.pegs)
    assert len({(peg.x, peg.y) for peg in board.pegs}) == 4
    # hole 31 starts the second street, run the other way: it lies under hole 30
    one = board_of(view("cribbage", 121, ("Ann", 30, 0), ("Bob", 31, 0)))
    a, b = (next(p for p in one.pegs if p.side == side and p.front) for side in (0, 1))
    assert a.x == b.x and b.y > a.y


def test_the_skunk_lines_fall_between_90_and_91_and_60_and_61():
    board = board_of(view("cribbage", 121, ("Ann", 90, 61), ("Bob", 91, 60)))
    marks = {mark.score: mark for mark in board.marks}
    assert set(marks) == {91, 61} and marks[91].label == "skunk"
    pegs = {(p.side, p.score): p for p in board.pegs}
    for line, before, after in ((91, pegs[0, 90], pegs[1, 91]), (61, pegs[1, 60], pegs[0, 61])):
        mark = marks[line]
        assert min(before.x, after.x) < mark.x < max(before.x, after.x) or before.y != after.y
        assert mark.y0 <= after.y <= mark.y1
    assert {m.score for m in board_of(view("cribbage", 61, ("A", 0, 0), ("B", 0, 0))).marks} == {31}


def test_the_game_hole_takes_a_winning_peg():
    board = board_of(view("cribbage", 121, ("Ann", 123, 110), ("Bob", 80, 70)))
    winner = next(p for p in board.pegs if p.side == 0 and p.front)
    game_hole = next((x, y) for x, y, lane in board.holes if lane == -1)
    assert (winner.x, winner.y) == game_hole


@pytest.mark.parametrize("target, top, holes", [(11, 7, 11), (61, 20, 61), (None, 13, 15)])
def test_other_games_have_a_track_to_the_target(target, top, holes):
    board = board_of(view("track", target, ("Ann", top, 3), ("Bob", 2, 2), ("Cy", 0, 0)))
    assert not board.marks and len(board.holes) == 3 * holes
    assert [peg.score for peg in board.pegs] == [top, 2, 0]        # one peg a side
    assert board_of(view("", None)) is None
