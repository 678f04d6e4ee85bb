"""Sample renders of representative table views for every panel size, for a person to look at.

Run ``python -m hardware.display.samples OUTDIR`` (the project keeps them in the git-ignored
``out/display_samples/``). Small panels are also written enlarged (``*_preview.png``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image

from hardware.display.layout import render
from hardware.view import SeatView, ShownHand, ShownItem, SideView, TableView

#: The panels the project supports: name → (width, height, Pillow mode).
SIZES: dict[str, tuple[int, int, str]] = {
    "oled_128x64": (128, 64, "1"),
    "lcd_240x240": (240, 240, "RGB"),
    "lcd_320x240": (320, 240, "RGB"),
    "hdmi_1280x720": (1280, 720, "RGB"),
}

VIEWS: dict[str, TableView] = {
    "cribbage_count": TableView(
        game="Cribbage", status="Game to 121",
        seats=(SeatView("Ann", 87, note="partner of Cy"), SeatView("Bob", 74, is_dealer=True, note="partner of Di"),
               SeatView("Cy", 87, is_turn=True, note="partner of Ann"), SeatView("Di", 74, note="partner of Bob")),
        prompt="Cy: play a card or say go", choices=("Go",), selected=0,
        centre_label="Starter", centre_cards=("5H",), play_label="Count 23", play_cards=("7H", "9C", "7D"),
        score_log=("+2 Ann: fifteen two", "+1 Di: one for the go",
                   "+4 Bob: fifteen two, and a pair is four")),
    "cribbage_partners": TableView(
        game="Cribbage", status="Hand 7, game to 121",
        seats=(SeatView("Ann", 87), SeatView("Bob", 74, is_dealer=True), SeatView("Cy", 87, is_turn=True),
               SeatView("Di", 74)),
        prompt="Cy to play (count 23)", centre_label="Starter", centre_cards=("5H",), play_label="Count 23",
        play_cards=("7H", "9C", "7D"), score_log=("+2 Ann: fifteen two", "+1 Di: one for the go"),
        sides=(SideView("Ann & Cy", 87, 85), SideView("Bob & Di", 74, 70)), board="cribbage", target=121,
        last_move="Bob plays 7D: 23"),
    "cribbage_show": TableView(
        game="Cribbage", status="Hand 4, game to 121",
        seats=(SeatView("Ann", 46, is_turn=True), SeatView("Bob", 48, is_dealer=True)),
        prompt="Ann: lay two cards away to Bob's crib",
        score_log=("+16 Bob: fifteen two, fifteen four, fifteen six, fifteen eight, a pair is ten, and a "
                   "double run of three is sixteen", "+8 Ann: a pair is two and a double run of three is eight",
                   "+7 Ann: fifteen two and a run of five is seven"), log_fresh=3,
        sides=(SideView("Ann", 46, 39), SideView("Bob", 48, 32)), board="cribbage", target=121,
        shown=(ShownHand("Bob", "hand", ("6H", "9H", "6D", "5D"), "4C", 16,
                         (ShownItem("fifteen", 2, ("6H", "9H")), ShownItem("fifteen", 2, ("9H", "6D")),
                          ShownItem("a pair", 2, ("6H", "6D")), ShownItem("a double run of three", 6))),
               ShownHand("Ann", "hand", ("9D", "10H", "JH", "JD"), "4C", 8,
                         (ShownItem("a pair", 2, ("JH", "JD")), ShownItem("a double run of three", 6))),
               ShownHand("Ann", "crib", ("AH", "2H", "3H", "5H"), "4C", 7,
                         (ShownItem("fifteen", 2), ShownItem("a run of five", 5)))),
        last_move="Ann plays JD: 10 (+1 one for last card)"),
    "all_fours_beg": TableView(
        game="All Fours", status="Hand 3 · game to 7",
        seats=(SeatView("Seat 1", 4, is_turn=True), SeatView("Seat 2", 6, is_dealer=True)),
        prompt="Seat 1, eldest hand: look at your cards, then stand to play the trump turned up, "
               "or beg the dealer for a new trump",
        choices=("Stand", "Beg"), selected=1, centre_label="Trump", centre_cards=("QS",),
        score_log=("+1 Seat 2: high", "+1 Seat 1: low",
                   "+2 Seat 2: jack, and game")),
    "refused_play": TableView(
        game="Le Quinze", status="Round 4 of 10",
        seats=(SeatView("Alice", 12), SeatView("Benoît", 9, is_turn=True, is_dealer=True),
               SeatView("Claire", 15)),
        prompt="Benoît: take cards from the table that add up to 15",
        centre_label="Table", centre_cards=("7C", "8D", "AS", "3H", "KH", "2C"),
        warning="Benoît cannot play 9S: it is Alice's turn. Take the card back."),
    "cribbage_final": TableView(
        game="Cribbage", status="Hand 9, game to 121", finished=True,
        seats=(SeatView("Seat 1", 100), SeatView("Seat 2", 125), SeatView("Seat 3", 100),
               SeatView("Seat 4", 125, is_dealer=True)),
        prompt="Seat 2 and Seat 4 win 125 to 100", centre_label="Starter", centre_cards=("5H",),
        score_log=("+8 Seat 1: fifteen two, fifteen four, fifteen six, and a pair is eight",
                   "+6 Seat 2: a pair royal is six", "+2 Seat 3: thirty-one is two",
                   "+1 Seat 4: one for last card")),
    "its15_log_paged": TableView(
        game="It's 15", status="Round 3 of 10",
        seats=(SeatView("Ann", 12, note="starts"), SeatView("Bob", 6, is_turn=True, note="in for 2"),
               SeatView("Cy", 9)),
        prompt="Bob: match the bid of 2, or pass", choices=("match", "raise", "pass"),
        centre_label="Centre", centre_cards=("green 4",), play_label="Pot 2", play_cards=("red 1", "red 1"),
        score_log=("+5 Ann wins round 1 and 5 points", "-2 Ann bids 2", "+0 Cy wins round 2 and 0 points"),
        log_page=0),
}


def write_samples(folder: Path) -> list[Path]:
    """Render every sample view at every size into ``folder``; return the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for view_name, view in VIEWS.items():
        for size_name, (w, h, mode) in SIZES.items():
            image = render(view, w, h, mode)
            path = folder / f"{view_name}_{size_name}.png"
            image.save(path)
            written.append(path)
            if w < 400:
                scale = 800 // w
                preview = image.convert("RGB").resize((w * scale, h * scale), Image.NEAREST)
                preview.save(folder / f"{view_name}_{size_name}_preview.png")
    return written


def main(argv: list[str] | None = None) -> int:
    """Write the samples to the folder named on the command line."""
    parser = argparse.ArgumentParser(prog="python -m hardware.display.samples", description=__doc__)
    parser.add_argument("outdir", type=Path, nargs="?", default=Path("out/display_samples"))
    args = parser.parse_args(argv)
    for path in write_samples(args.outdir):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
