"""The board, the show and the partnerships on the panels, read back from the luma dummy device's
image: the pegs stand where the board's geometry puts them, in their side's colour, and move with
the score; the hands of the show are drawn with their points; partners share a colour; a count of
nothing is not said twice; a long status is not cut. PNGs go to ``$CARDTABLE_SCREENSHOTS``."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from hardware.display.config import open_display
from hardware.display.layout import render_frame
from hardware.display.samples import VIEWS
from hardware.display.sheet import _COLOUR
from hardware.view import SeatView, ShownHand, SideView, TableView

PANELS = [(320, 240), (240, 240)]
SHOW = VIEWS["cribbage_show"]


def on_dummy(view, width, height, name):
    with open_display({"kind": "luma", "driver": "dummy", "width": width, "height": height, "mode": "RGB"}) as display:
        display.show(view)
        image = display.device.image.copy()
    folder = os.environ.get("CARDTABLE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        image.save(Path(folder) / f"panel-{name}-{width}x{height}.png")
    return image


def pegs(frame):
    return {shape.text: shape.box for shape in frame.shapes if shape.role == "peg"}


@pytest.mark.parametrize("width, height", PANELS)
def test_the_board_and_its_pegs_on_the_panel(width, height):
    image = on_dummy(SHOW, width, height, "show")
    _, frame = render_frame(SHOW, width, height)
    assert "board" not in frame.dropped
    (board,) = [s.box for s in frame.shapes if s.role == "board"]
    drawn = pegs(frame)
    assert set(drawn) == {"0 front 46", "0 back 39", "1 front 48", "1 back 32"}
    for name, (x0, y0, x1, y1) in drawn.items():
        assert board[0] <= x0 and x1 <= board[2] and board[1] <= y0 and y1 <= board[3]
        side = int(name.split()[0])
        assert image.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == _COLOUR[f"lane{side}"]
    # a score moves the front peg on, and the back peg to where the front one was
    later = replace(SHOW, sides=(SideView("Ann", 52, 46), SHOW.sides[1]))
    moved = pegs(render_frame(later, width, height)[1])
    assert moved["0 back 46"] == drawn["0 front 46"] and moved["0 front 52"] != drawn["0 front 46"]


@pytest.mark.parametrize("width, height", PANELS)
def test_the_show_is_drawn_with_its_points(width, height):
    on_dummy(SHOW, width, height, "show")
    _, frame = render_frame(SHOW, width, height)
    said = frame.text_of("show")
    assert {"Bob 16", "Ann 8", "crib 7"} <= {" ".join(said.split()[i:i + 2]) for i in range(len(said.split()))}


def test_partners_share_a_colour_on_the_panel():
    view = VIEWS["cribbage_partners"]
    image = on_dummy(view, 320, 240, "partners")
    _, frame = render_frame(view, 320, 240)
    marks = [s for s in frame.shapes if s.role == "side"]
    assert [m.text for m in marks] == ["0", "1", "0", "1"]
    colours = [image.getpixel(((m.box[0] + m.box[2]) // 2, (m.box[1] + m.box[3]) // 2)) for m in marks]
    assert colours[0] == colours[2] != colours[1] == colours[3]


@pytest.mark.parametrize("width, height", PANELS)
def test_a_count_of_nothing_is_said_once(width, height):
    view = TableView("Cribbage", (SeatView("Ann", 3, is_turn=True), SeatView("Bob", 5)),
                     "Ann to play (count 0)", centre_label="Starter", centre_cards=("5H",), play_label="Count 0")
    _, frame = render_frame(view, width, height)
    assert frame.text_of("play") == ""


@pytest.mark.parametrize("width, height", PANELS)
def test_a_long_status_is_not_cut(width, height):
    view = TableView("Le Quinze", (SeatView("Ann", 3), SeatView("Bob", 5)), "Ann to play",
                     status="Deal 1, round 3 of 4, game to 11")
    image = on_dummy(view, width, height, "status")
    _, frame = render_frame(view, width, height)
    assert "status" not in frame.cut_roles() and frame.text_of("status") == view.status
    assert image is not None


def test_the_shown_hand_waiting_for_its_count():
    laying = replace(SHOW, shown=(ShownHand("Bob", "crib", ("5D", "5S"), "2H"),))
    _, frame = render_frame(laying, 320, 240)
    said = frame.text_of("show")
    assert said.startswith("Bob's crib") and "5\u2666" in said or "5D" in said


def test_the_terminal_shows_the_show_the_pegs_and_the_last_move():
    import io

    from rich.console import Console

    console = Console(record=True, width=80, file=io.StringIO())
    with open_display({"kind": "terminal"}, console=console) as terminal:
        terminal.show(SHOW)
    text = console.export_text()
    assert "Bob's hand 16" in text and "Ann's crib 7" in text and "+6 a double run of three" in text
    assert SHOW.last_move in text
    track = [line for line in text.splitlines() if "Ann" in line and "46" in line and "\u25cf" in line]
    assert track, text                                   # Ann's lane: front peg ● and back peg ○
    lane = track[0]
    assert lane.index("\u25cb") < lane.index("\u25cf")   # the back peg behind the front one
