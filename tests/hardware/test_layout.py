"""The pure renderer at every panel size: sizes, modes, fields present, nothing outside its place."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from PIL import Image

from hardware.display import fonts
from hardware.display.fonts import has_suit_symbols
from hardware.display.layout import render, render_frame
from hardware.display.names import name_forms
from hardware.display.samples import SIZES, VIEWS, write_samples
from hardware.display.text import ELLIPSIS, card_label
from hardware.view import SeatView, TableView

LONG_PROMPT = ("Seat 3, you are eldest hand: look at your six cards, choose two for the crib, "
               "place them face down in the crib zone, and then wait for the dealer to cut the "
               "pack and turn up the starter card before the play begins. ") * 3


def inside(box, frame):
    x0, y0, x1, y1 = box
    return 0 <= x0 <= x1 <= frame.width and 0 <= y0 <= y1 <= frame.height


def overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_frame(frame):
    assert all(inside(d.box, frame) for d in frame.texts), [d for d in frame.texts if not inside(d.box, frame)]
    boxes = [d for d in frame.texts if d.text]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not overlaps(a.box, b.box), (a, b)
    assert all(d.text.endswith(ELLIPSIS) or d.role in ("choice_more", "centre", "play") or d.text == ""
               for d in frame.texts if d.cut)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", VIEWS)
def test_every_sample_renders_at_every_size(name, size):
    w, h, mode = SIZES[size]
    view = VIEWS[name]
    image, frame = render_frame(view, w, h, mode)
    assert image.size == (w, h) and image.mode == mode
    check_frame(frame)
    if reading_log(view, h):
        assert frame.text_of("log").startswith(f"{view.log_page + 1}/") and not frame.text_of("score")
        return
    assert frame.text_of("score").split() == [str(s.score) for s in view.seats]
    assert frame.text_of("prompt")
    if view.warning:
        assert frame.text_of("warning").startswith(view.warning.split()[0])
    if not size.startswith("oled"):         # the small OLED may drop the least important parts
        # the last move is said where room is left (the fresh scores say its points)
        assert set(frame.dropped) <= {"last_move"}
        assert " ".join(view.prompt.split()) == frame.text_of("prompt")
        shown = [d.text for d in frame.texts if d.role in ("choice", "selected_choice")]
        assert shown == list(view.choices)
        if view.selected is not None:
            assert frame.text_of("selected_choice") == view.choices[view.selected]


def reading_log(view, height):
    """A log entry paged to takes the whole of a small panel."""
    return view.log_page is not None and height < 100


def ink_in(image, box):
    region = image.convert("L").crop(box)
    low, high = region.getextrema()
    return high - low > 60


@pytest.mark.parametrize("size", SIZES)
def test_text_areas_have_ink(size):
    w, h, mode = SIZES[size]
    image, frame = render_frame(VIEWS["cribbage_count"], w, h, mode)
    for role in ("score", "name", "prompt", "play"):
        drawn = [d for d in frame.texts if d.role == role and d.text]
        assert drawn and all(ink_in(image, d.box) for d in drawn), role


@pytest.mark.parametrize("size", SIZES)
def test_a_long_prompt_wraps_then_ends_in_an_ellipsis(size):
    w, h, mode = SIZES[size]
    image, frame = render_frame(replace(VIEWS["cribbage_count"], prompt=LONG_PROMPT), w, h, mode)
    check_frame(frame)
    prompt = [d for d in frame.texts if d.role == "prompt"]
    assert prompt[-1].text.endswith(ELLIPSIS) and "prompt" in frame.cut_roles()
    if h >= 240:
        assert len(prompt) >= 3                                   # wrapped over several lines
    assert "selected_choice" in {d.role for d in frame.texts}     # the choices still show


def test_the_highlighted_choice_stays_visible_among_many():
    choices = tuple(f"Choice number {n}" for n in range(30))
    view = replace(VIEWS["all_fours_beg"], choices=choices, selected=27)
    for size in SIZES:
        w, h, mode = SIZES[size]
        _, frame = render_frame(view, w, h, mode)
        check_frame(frame)
        highlighted = frame.text_of("selected_choice")
        assert "Choice number 27".startswith(highlighted.rstrip(ELLIPSIS)) and len(highlighted) > 3, size
        if w >= 640:
            assert highlighted == "Choice number 27"
        assert frame.text_of("choice_more").startswith("+")


@pytest.mark.slow
def test_many_cards_keep_the_latest():
    view = replace(VIEWS["cribbage_count"], play_cards=tuple(["AS", "2H", "3C", "4D"] * 30) + ("KS",))
    _, frame = render_frame(view, 240, 240, "RGB")
    assert frame.text_of("play").split()[-1] == card_label("KS", has_suit_symbols())[0]
    assert ELLIPSIS in frame.text_of("play")


def test_mono_image_is_pure_black_and_white():
    image = render(VIEWS["refused_play"], 128, 64, "1")
    histogram = image.convert("L").histogram()
    assert {level for level, count in enumerate(histogram) if count} == {0, 255}


def test_bad_sizes_and_modes_are_refused():
    with pytest.raises(ValueError, match="too small"):
        render(VIEWS["cribbage_count"], 40, 20)
    with pytest.raises(ValueError, match="mode"):
        render(VIEWS["cribbage_count"], 320, 240, "CMYK")


names = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzÉé ABCDEFGHIJK"), min_size=1, max_size=20)
words = st.lists(st.text(st.sampled_from("abcdefghijklmnop,.:'"), min_size=1, max_size=14), max_size=40).map(" ".join)
cards = st.lists(st.sampled_from(["10H", "QS", "AD", "7C", "V2R", "5H", "KC"]), max_size=14).map(tuple)


@st.composite
def views(draw):
    seats = draw(st.lists(st.builds(SeatView, names, st.integers(0, 999), st.booleans(), st.booleans(), words),
                          min_size=2, max_size=6))
    choices = tuple(draw(st.lists(words.filter(bool), max_size=8)))
    log = tuple(draw(st.lists(words.filter(bool), max_size=5)))
    return TableView(
        game=draw(names), seats=tuple(seats), prompt=draw(words), choices=choices,
        status=draw(words), centre_label=draw(st.sampled_from(["", "Starter", "Trump", "Table"])),
        centre_cards=draw(cards), play_label=draw(st.sampled_from(["", "Count 23", "Trick"])),
        play_cards=draw(cards), score_log=log, warning=draw(words),
        log_page=draw(st.none() | st.integers(0, len(log) - 1)) if log else None,
        selected=draw(st.none() | st.integers(0, len(choices) - 1)) if choices else None)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(views(), st.sampled_from(sorted(SIZES.values()) + [(160, 128, "RGB"), (800, 480, "RGB"), (256, 64, "1")]))
def test_any_view_stays_inside_its_places(view, size):
    w, h, mode = size
    image, frame = render_frame(view, w, h, mode)
    assert image.size == (w, h)
    check_frame(frame)
    if not reading_log(view, h):
        assert frame.text_of("score").split() == [str(s.score) for s in view.seats]


@pytest.mark.slow
def test_samples_script_writes_every_size(tmp_path):
    paths = write_samples(tmp_path)
    assert len(paths) == len(VIEWS) * len(SIZES)
    for path in paths:
        with Image.open(path) as image:
            assert image.size in {(w, h) for w, h, _ in SIZES.values()}


def test_without_dejavu_pillows_own_font_is_used(monkeypatch):
    monkeypatch.setattr(fonts, "_FILES", {False: "NoSuchFont.ttf", True: "NoSuchFont-Bold.ttf"})
    fonts.font.cache_clear()
    try:
        assert not has_suit_symbols()
        for w, h, mode in SIZES.values():
            _, frame = render_frame(VIEWS["cribbage_count"], w, h, mode)
            check_frame(frame)
            assert "7H" in frame.text_of("play")
    finally:
        fonts.font.cache_clear()


FOUR_AT_THREE_DIGITS = [("Seat 1", "Seat 2", "Seat 3", "Seat 4"), ("Ann", "Bob", "Cy", "Di"),
                        ("Alexandra Smith", "Alexander Smith", "Benoît Durand", "Bo"),
                        ("Seat 1", "Seat 10", "Seat 11", "Seat 12")]


@pytest.mark.slow
@pytest.mark.parametrize("names", FOUR_AT_THREE_DIGITS, ids=lambda names: names[0] + "…")
@pytest.mark.parametrize("size", SIZES)
def test_names_stay_recognisable_beside_a_dealer_badge_and_three_digit_scores(names, size, tmp_path):
    """A 4-player final at 3-digit scores once showed every name as "Se…" on the 320x240 panel."""
    w, h, mode = SIZES[size]
    seats = tuple(SeatView(name, score, is_dealer=n == 3, is_turn=n == 1)
                  for n, (name, score) in enumerate(zip(names, (100, 125, 100, 125))))
    view = replace(VIEWS["cribbage_final"], seats=seats)
    image, frame = render_frame(view, w, h, mode)
    image.save(tmp_path / f"{size}.png")
    check_frame(frame)
    drawn = [d.text for d in frame.texts if d.role == "name"]
    assert len(set(drawn)) == 4, drawn                              # every seat told apart
    for seat, shown in enumerate(drawn):
        assert shown in name_forms(names, seat), (names[seat], shown)  # a form of its own name
        assert len(shown.rstrip(ELLIPSIS)) >= min(2, len(names[seat])) or shown.isdigit(), shown
    assert frame.text_of("score").split() == ["100", "125", "100", "125"]
    assert frame.text_of("dealer") == "D"
    if size == "lcd_320x240" and names[0] == "Seat 1" and names[1] == "Seat 2":
        assert drawn == list(names)                                  # room for the whole names there


def test_name_forms_are_never_shared_between_seats():
    names = ["Seat 1", "Seat 2", "Seat 10", "Ann Lee", "Anna", "Al", "Alan Lee", "Anna"]
    forms = [name_forms(names, seat) for seat in range(len(names))]
    for seat, mine in enumerate(forms):
        assert mine[0] == names[seat]
        for other, theirs in enumerate(forms):
            if other != seat and names[other] != names[seat]:
                assert not {f.casefold() for f in mine} & {f.casefold() for f in theirs}, (seat, other)
    assert name_forms(names, 2)[1:] == ["S10", "10"]
    assert name_forms(names, 4) == ["Anna", "5"] and name_forms(names, 7) == ["Anna", "8"]


LOG = ("+2 Seat 1: one for last card", "+12 Seat 2: fifteen two, fifteen four, and a double run of three is twelve",
       "+6 Seat 3: a pair royal is six")


@pytest.mark.parametrize("size", [s for s in SIZES if not s.startswith("oled")])
def test_the_log_shows_the_newest_entries_newest_last(size):
    w, h, mode = SIZES[size]
    view = replace(VIEWS["cribbage_count"], score_log=LOG)
    _, frame = render_frame(view, w, h, mode)
    check_frame(frame)
    shown = frame.text_of("log")
    assert shown.endswith("a pair royal is six") and "double run of three" in shown
    assert shown.index("+12 Seat 2") < shown.index("+6 Seat 3")


@pytest.mark.parametrize("size", SIZES)
def test_an_entry_paged_to_is_shown_whole_on_every_panel(size):
    w, h, mode = SIZES[size]
    view = replace(VIEWS["cribbage_count"], score_log=LOG, log_page=1)
    image, frame = render_frame(view, w, h, mode)
    check_frame(frame)
    assert frame.text_of("log") == "2/3 " + LOG[1]
    assert "log" not in frame.cut_roles()


def test_the_name_forms_examples_hold():
    import doctest

    import hardware.display.names

    result = doctest.testmod(hardware.display.names)
    assert result.attempted and not result.failed


seat_names = st.lists(st.text(st.sampled_from("AaBbSeat 0123É"), min_size=1, max_size=9).filter(str.strip),
                      min_size=2, max_size=8)


@settings(max_examples=200, deadline=None)
@given(seat_names)
def test_no_two_seats_with_different_names_share_a_name_form(names):
    forms = [name_forms(names, seat) for seat in range(len(names))]
    for seat, mine in enumerate(forms):
        assert mine[0] == names[seat] and mine == sorted(mine, key=len, reverse=True)
        for other, theirs in enumerate(forms):
            if other != seat and names[other].casefold() != names[seat].casefold():
                assert not {f.casefold() for f in mine} & {f.casefold() for f in theirs}, (seat, other, forms)


def test_a_score_the_last_move_made_stays_in_sight_on_the_small_oled_until_the_next_move():
    w, h, mode = SIZES["oled_128x64"]
    before = replace(VIEWS["cribbage_count"], score_log=LOG)
    _, frame = render_frame(before, w, h, mode)
    assert "log" in frame.dropped                           # older scores: only where room is left
    _, frame = render_frame(replace(before, log_fresh=1), w, h, mode)
    assert frame.text_of("log").startswith("+6 Seat 3") and frame.text_of("prompt")
