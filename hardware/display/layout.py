"""The pure renderer: one :class:`~hardware.view.TableView` to one Pillow image of any panel size.

Sections (scores, the table's cards, a warning, the prompt, the choices, the scoring log, a header)
get their room by priority: the scores always, then a warning, a scoring log entry paged to with
the buttons, the prompt and its choices, the scores the last move made, the cards on the table,
older scores (in what room is left), the header. A section that gets no room is listed in
``Frame.dropped``; text that does not fit is wrapped, and cut with an ellipsis only at the last
line it may use. Small panels (128x64) use a compact style: plain text, highlights inverted, and
a scoring log entry paged to takes the whole panel while it is read.
Landscape panels (320x240, HDMI) put the scores in a column on the left, each name beside its
score or, when the names do not fit there, above it. Where a name still does not fit, it is
written in a shorter form that tells it from the other seats' names (:mod:`hardware.display.names`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from hardware.display.board import Board, board_of
from hardware.display.fonts import font, line_height
from hardware.display.names import name_forms
from hardware.display.sheet import Box, Drawn, Frame, Sheet
from hardware.display.text import width, wrap
from hardware.view import SeatView, ShownHand, TableView

MODES = ("1", "L", "RGB", "RGBA")
_LOG_SHOWN = 6          # the newest scoring log entries a panel with room shows at once


@dataclass(frozen=True)
class Metrics:
    """Font sizes and spacing for one panel size."""

    compact: bool
    body: int
    small: int
    big: int
    pad: int
    gap: int


def metrics(width_px: int, height_px: int) -> Metrics:
    """Sizes that keep text readable on a panel of this size (body text about 1/16 of the height)."""
    if height_px < 100 or width_px < 160:
        return Metrics(True, 10, 10, 10, 1, 0)
    scale = min(width_px / 280, height_px / 240)
    body = max(11, min(60, round(15 * scale)))
    return Metrics(False, body, max(10, round(body * 0.8)), round(body * 1.7),
                   max(2, body // 3), max(2, body // 4))


@dataclass
class _Section:
    name: str
    priority: float
    unit: int                      # pixels per line or row
    extra: int                     # fixed pixels (padding)
    wanted: int                    # lines it would like
    paint: Callable[[Box, int], None]
    minimum: int = 1               # 0: only given room once every other section has its lines


def render(view: TableView, width_px: int, height_px: int, mode: str = "RGB") -> Image.Image:
    """The image of ``view`` for a panel ``width_px`` x ``height_px`` in Pillow ``mode``.

    :raises ValueError: a size under 64x32 or a mode other than "1", "L", "RGB", "RGBA".
    """
    return render_frame(view, width_px, height_px, mode)[0]


def render_frame(view: TableView, width_px: int, height_px: int, mode: str = "RGB") -> tuple[Image.Image, Frame]:
    """Like :func:`render`, also returning the :class:`Frame` that records what was drawn.

    :raises ValueError: a size under 64x32 or a mode other than "1", "L", "RGB", "RGBA".
    """
    if mode not in MODES:
        raise ValueError(f"display mode must be one of {', '.join(MODES)}, not {mode!r}")
    if width_px < 64 or height_px < 32:
        raise ValueError(f"a display of {width_px}x{height_px} is too small; the least is 64x32")
    sheet = Sheet(width_px, height_px, mode)
    _Layout(sheet, view, metrics(width_px, height_px)).run()
    return sheet.image, sheet.frame


class _Layout:
    def __init__(self, sheet: Sheet, view: TableView, m: Metrics) -> None:
        self.s, self.v, self.m = sheet, view, m
        self.body, self.bold = font(m.body), font(m.body, bold=True)
        self.small = font(m.small)
        self.w, self.h = sheet.image.size

    # -- placing sections ---------------------------------------------------------------------------

    def run(self) -> None:
        m, top = self.m, 0
        if m.compact and self.v.log_page is not None and 0 <= self.v.log_page < len(self.v.score_log):
            self._place([self._log_section(self.w)], (0, 0, self.w, self.h))   # the whole panel to read it
            return
        side = not m.compact and self.w >= 1.3 * self.h
        if not m.compact:
            top = self._header()
        board = board_of(self.v) if not m.compact else None
        if side:
            column = max(120, int(self.w * 0.34))
            bottom = self._score_column((m.gap, top + m.gap, column, self.h - m.gap))
            box = (column + 2 * m.gap, top + m.gap, self.w - m.gap, self.h - m.gap)
            if board is not None and self._board_beside(board, (m.gap, bottom, column, self.h - m.gap)):
                board = None
        else:
            box = (m.gap if not m.compact else 0, top, self.w - (m.gap if not m.compact else 0), self.h)
        sections = self._sections(box[2] - box[0], with_scores=not side, board=board)
        self._place(sections, box)

    def _board_beside(self, board: Board, box: Box) -> bool:
        """Draw the board under the score column when it fits there at a readable size (4 px a
        hole or more: an HDMI screen, not a 320x240 panel); True when it did."""
        x0, y0, x1, y1 = box
        scale = (x1 - x0) / (board.width + 1)
        if scale < 4 or (board.height + 1) * scale > y1 - y0:
            return False
        self._board((x0, y0, x1, y1), board, scale)
        return True

    def _place(self, sections: list[_Section], box: Box) -> None:
        x0, y0, x1, y1 = box
        granted: dict[str, int] = {}
        used = 0
        order = sorted(sections, key=lambda sec: sec.priority)
        for sec in order:                 # first every section's least, in order of priority
            need = sec.extra + max(1, sec.minimum) * sec.unit + (self.m.gap if granted else 0)
            if sec.minimum and used + need <= y1 - y0:
                granted[sec.name] = sec.minimum
                used += need
        for sec in order:                 # then more lines; a section with no least only now
            need = sec.extra + sec.unit + (self.m.gap if granted else 0)
            if sec.name not in granted and not sec.minimum and used + need <= y1 - y0:
                granted[sec.name] = 1
                used += need
            while sec.name in granted and granted[sec.name] < sec.wanted and used + sec.unit <= y1 - y0:
                granted[sec.name] += 1
                used += sec.unit
        self.s.frame.dropped += [sec.name for sec in order if sec.name not in granted]
        y = y0
        for sec in sections:
            if sec.name in granted:
                units = granted[sec.name]
                height = sec.extra + units * sec.unit
                sec.paint((x0, y, x1, y + height), units)
                y += height + self.m.gap

    def _sections(self, width_px: int, with_scores: bool, board: Board | None) -> list[_Section]:
        v, m = self.v, self.m
        text_w = width_px - 2 * m.pad
        out = []
        if with_scores:
            cols = len(v.seats) if len(v.seats) <= 2 or (not m.compact and width_px >= 300) else 2
            rows = -(-len(v.seats) // cols)
            out.append(_Section("scores", 0, self._cell_height(), 0, rows,
                                lambda box, n: self._score_grid(box, cols), minimum=rows))
        if self._table_parts():
            unit = self._chip_height() + (0 if m.compact else m.gap)
            out.append(_Section("table", 3.4 if v.shown else 4, unit, 0 if m.compact else -m.gap,
                                self._table_rows_wanted(width_px), self._table))
        if v.warning:
            lines = len(wrap(v.warning, self.bold, text_w)[0])
            out.append(_Section("warning", 1, line_height(self.bold), 2 * m.pad, lines,
                                lambda box, n: self._paragraph("warning", v.warning, box, n, self.bold,
                                                               "warn_fg", "warn_bg"),
                                minimum=min(lines, 2)))
        if v.prompt:
            lines = len(wrap(v.prompt, self.bold, text_w)[0])
            out.append(_Section("prompt", 2, line_height(self.bold), 0, lines,
                                lambda box, n: self._paragraph("prompt", v.prompt, box, n, self.bold, "fg")))
        if v.choices:
            out.append(_Section("choices", 3, self._pill_height() + m.gap, -m.gap,
                                self._pill_rows_wanted(width_px), self._choices))
        if v.last_move:      # what just happened, where there is room once the rest has its least
            lines = len(wrap(v.last_move, self.body, text_w)[0])
            out.append(_Section("last_move", 4.4, line_height(self.body), 0, lines,
                                lambda box, n: self._paragraph("last_move", v.last_move, box, n, self.body,
                                                               "accent"), minimum=0))
        if v.score_log:
            out.append(self._log_section(text_w))
        if board is not None:     # as tall as it may be (a third of the panel), at least two thirds of that
            full = round(min(width_px * (board.height + 1) / (board.width + 1), 0.3 * self.h))
            out.append(_Section("board", 4.5, 1, 0, full,
                                lambda box, n: self._board(box, board, n / (board.height + 1)),
                                minimum=max(16, 2 * full // 3)))
        return out

    # -- header and scores --------------------------------------------------------------------------

    def _header(self) -> int:
        v, m = self.v, self.m
        height = line_height(self.small) + 2 * m.pad
        self.s.rect((0, 0, self.w, height), "panel")
        right = "Game over" if v.finished else v.status
        right_w = 0
        if right:   # the status may take all the room the game's name leaves
            room = max(self.w // 2, self.w - width(self.small, v.game) - 6 * m.pad)
            drawn = self.s.text("status", right, self.w - m.pad * 2, height // 2, self.small,
                                "accent" if v.finished else "muted", room, anchor="rm")
            right_w = drawn.box[2] - drawn.box[0] + 3 * m.pad
        self.s.text("game", v.game, m.pad * 2, height // 2, self.small, "fg",
                    self.w - right_w - 4 * m.pad, anchor="lm")
        return height

    def _cell_height(self) -> int:
        return line_height(self.bold) + (0 if self.m.compact else 2 * self.m.pad)

    def _badge_width(self) -> int:
        """Pixels the dealer badge takes beside a name (kept free on every seat, so the names
        keep their form when the deal passes)."""
        if not any(seat.is_dealer for seat in self.v.seats):
            return 0
        return width(self.small, "D") + 3 * self.m.pad + 1

    def _names(self, room: int) -> list[str]:
        """Each seat's name in its longest form that fits ``room`` pixels and tells it apart."""
        names = [seat.name for seat in self.v.seats]
        fitted = []
        for seat in range(len(names)):
            forms = name_forms(names, seat)
            fitted.append(next((form for form in forms if width(self.bold, form) <= room), forms[-1]))
        return fitted

    def _beside_room(self, cell_w: int, score_font) -> int:
        """Pixels a name has on the line of its score."""
        score_w = max(width(score_font, str(seat.score)) for seat in self.v.seats)
        return cell_w - score_w - 3 * self.m.pad - 2 - self._badge_width()

    def _score_grid(self, box: Box, cols: int) -> None:
        x0, y0, x1, _ = box
        cell_w = (x1 - x0 - (cols - 1) * self.m.gap) // cols
        cell_h = self._cell_height()
        names = self._names(self._beside_room(cell_w, self.bold))
        for n, seat in enumerate(self.v.seats):
            row, col = divmod(n, cols)
            cx = x0 + col * (cell_w + self.m.gap)
            cy = y0 + row * cell_h
            self._seat((cx, cy, cx + cell_w, cy + cell_h - (0 if self.m.compact else 1)), seat, names[n],
                       self.bold)

    def _font_within(self, height: int, most: int):
        """The largest bold font, at most ``most`` px, whose lines fit ``height`` pixels (10 px at least)."""
        size = most
        while size > 10 and line_height(font(size, bold=True)) > height:
            size -= 1
        return font(size, bold=True)

    def _score_column(self, box: Box) -> int:
        """One seat per row: the name beside a big score where every name fits there, else each
        name on a line above its score, else shorter names beside the scores."""
        x0, y0, x1, y1 = box
        seats, m = self.v.seats, self.m
        space = (y1 - y0) // max(1, len(seats))
        name_h = line_height(self.bold)
        ideal = max(line_height(font(m.big, bold=True)), name_h + line_height(self.small)) + 2 * m.pad
        row_h = min(ideal, space)
        big = self._font_within(row_h - 2 * m.pad, m.big)
        full = [seat.name for seat in seats]
        names, stacked = self._names(self._beside_room(x1 - x0, big)), False
        stacked_h = min(space, name_h + line_height(font(m.big, bold=True)) + 2 * m.pad)
        if names != full and stacked_h - name_h - 2 * m.pad >= name_h:
            row_h, stacked = stacked_h, True
            big = self._font_within(row_h - name_h - 2 * m.pad, m.big)
            names = self._names(x1 - x0 - 2 * m.pad - 2 - self._badge_width())
        for n, seat in enumerate(seats):
            top = y0 + n * row_h
            self._seat((x0, top, x1, top + row_h - m.gap), seat, names[n], big, stacked=stacked,
                       note=stacked or row_h >= ideal)
        return y0 + len(seats) * row_h

    def _seat(self, box: Box, seat: SeatView, name: str, score_font, *, stacked: bool = False,
              note: bool = False) -> None:
        """One seat's cell: ``name`` (already fitted) with the dealer badge, the score, the note;
        ``stacked`` puts the name on a line of its own above the score and the note."""
        x0, y0, x1, y1 = box
        pad, name_font = self.m.pad, self.bold
        ink = "accent_fg" if seat.is_turn else "fg"
        if seat.is_turn or not self.m.compact:
            self.s.rect(box, "accent" if seat.is_turn else "panel", radius=pad)
        sides = len(self.v.sides)
        if 0 < sides < len(self.v.seats) and not self.m.compact:     # partners: their side's colour
            index = self.v.seats.index(seat) % sides
            stripe = (x0 + 1, y0 + pad, x0 + max(3, pad - 1), y1 - pad)
            self.s.rect(stripe, f"lane{index % 6}", "hole")
            self.s.frame.shapes.append(Drawn("side", str(index), stripe))
        name_h = line_height(name_font)
        low = y0 + pad + name_h if stacked else y0           # the score's part of the cell
        score = self.s.text("score", str(seat.score), x1 - pad - 1, (low + y1) // 2, score_font, ink,
                            x1 - x0, anchor="rm")
        two_lines = stacked or note and seat.note
        name_y = y0 + pad + name_h // 2 if two_lines else (y0 + y1) // 2
        room = (x1 - pad - 1 if stacked else score.box[0] - pad) - x0 - pad - 1 - self._badge_width()
        drawn = self.s.text("name", name, x0 + pad + 1, name_y, name_font, ink, room, anchor="lm")
        if seat.is_dealer:
            badge = width(self.small, "D") + 2 * pad
            bx = drawn.box[2] + pad + 1
            self.s.rect((bx, name_y - line_height(self.small) // 2, bx + badge,
                         name_y + line_height(self.small) // 2), "badge", radius=pad)
            self.s.text("dealer", "D", bx + badge // 2, name_y, self.small, "badge_fg", badge, anchor="mm")
        if note and seat.note:
            note_y = (low + y1) // 2 if stacked else y0 + pad + name_h + line_height(self.small) // 2
            self.s.text("note", seat.note, x0 + pad + 1, note_y, self.small,
                        "accent_fg" if seat.is_turn else "muted", score.box[0] - x0 - 3 * pad, anchor="lm")

    # -- the table ----------------------------------------------------------------------------------

    def _chip_height(self) -> int:
        return line_height(self.body) + (0 if self.m.compact else self.m.pad)

    def _table_parts(self) -> list[tuple[str, str, tuple[str, ...]]]:
        """The rows of cards: the centre, the play (a label without cards, "Count 0", is the
        prompt's to say), and each hand of the show."""
        v = self.v
        parts = [(role, label, cards) for role, label, cards in
                 (("centre", v.centre_label, v.centre_cards), ("play", v.play_label, v.play_cards)) if cards]
        return parts + [("show", _hand_label(hand), hand.cards) for hand in v.shown]

    def _chip_lines(self, label: str, cards: tuple[str, ...], width_px: int) -> list[tuple[str, tuple[str, ...]]]:
        """``label`` and ``cards`` broken into rows of chips that fit ``width_px``."""
        lines = []
        while True:
            count = len(cards)
            while count > 1 and self.s.chip_row_width(label, cards[:count], self.body, self.small,
                                                      chips=not self.m.compact) > width_px:
                count -= 1
            lines.append((label, cards[:count]))
            if count >= len(cards):
                return lines
            label, cards = "", cards[count:]

    def _table_rows_wanted(self, width_px: int) -> int:
        return sum(len(self._chip_lines(label, cards, width_px)) for _, label, cards in self._table_parts())

    def _table(self, box: Box, rows: int) -> None:
        v = self.v
        x0, y0, x1, _ = box
        h = self._chip_height()
        parts = self._table_parts()
        if rows < len(parts) and v.shown:        # the newest hands of the show that fit
            parts = parts[-rows:]
        elif rows < len(parts):
            # one row: the centre (a card or two) gets what it needs, at most half; the play the rest
            split = x0 + min((x1 - x0) // 2, self.s.chip_row_width(
                "" if self.m.compact else v.centre_label, v.centre_cards, self.body, self.small,
                chips=not self.m.compact))
            self.s.chip_row("centre", v.centre_label, v.centre_cards, (x0, y0, split, y0 + h),
                            self.body, self.small, chips=not self.m.compact)
            self.s.chip_row("play", v.play_label, v.play_cards, (split + self.m.gap, y0, x1, y0 + h),
                            self.body, self.small, chips=not self.m.compact)
            return
        spare = rows - len(parts)
        y = y0
        for role, label, cards in parts:
            lines = self._chip_lines(label, cards, x1 - x0)
            keep = min(len(lines), 1 + spare)
            spare -= keep - 1
            for n, (line_label, line_cards) in enumerate(lines[:keep]):
                if n == keep - 1:      # the last row it may use shows the rest, latest cards first
                    line_cards = cards[sum(len(c) for _, c in lines[:n]):]
                self.s.chip_row(role, line_label, line_cards, (x0, y, x1, y + h), self.body, self.small,
                                chips=not self.m.compact)
                y += h + (self.m.gap if not self.m.compact else 0)

    # -- the board ----------------------------------------------------------------------------------

    def _board(self, box: Box, board: Board, scale: float) -> None:
        """The board's holes, skunk lines and pegs (:mod:`hardware.display.board`) at ``scale``
        pixels per hole, centred in ``box``."""
        x0, y0, x1, _ = box
        scale = min(scale, (x1 - x0) / (board.width + 1))
        wide, high = (board.width + 1) * scale, (board.height + 1) * scale
        left = x0 + (x1 - x0 - wide) / 2

        def at(x: float, y: float) -> tuple[float, float]:
            return left + (x + 0.5) * scale, y0 + (y + 0.5) * scale
        drawn = (round(left), y0, round(left + wide), round(y0 + high))
        self.s.rect(drawn, "wood", radius=max(1, round(scale / 2)))
        self.s.frame.shapes.append(Drawn("board", board.kind, drawn))
        for x, y, lane in board.holes:
            self.s.dot("", "", *at(x, y), scale * (0.3 if lane < 0 else 0.2), "hole")
        for mark in board.marks:
            (mx, top), (_, bottom) = at(mark.x, mark.y0), at(mark.x, mark.y1)
            self.s.draw.line((round(mx), round(top), round(mx), round(bottom)), fill=self.s.ink("mark"),
                             width=max(1, round(scale / 5)))
        for peg in board.pegs:
            self.s.dot("peg", f"{peg.side} {'front' if peg.front else 'back'} {peg.score}", *at(peg.x, peg.y),
                       max(2.5, scale * 0.5), f"lane{peg.side % 6}", "hole" if peg.front else "mark")

    # -- the scoring log ----------------------------------------------------------------------------

    def _log_section(self, text_w: int) -> _Section:
        """The entry paged to (ahead of the prompt: a person asked for it), or the newest entries:
        ahead of the table's cards when the last move made them, else in what room is left."""
        v, m = self.v, self.m
        page = v.log_page
        if page is not None and 0 <= page < len(v.score_log):
            text = f"{page + 1}/{len(v.score_log)} {v.score_log[page]}"
            fill = None if m.compact else "panel"
            inset = m.pad if fill else 0
            lines = len(wrap(text, self.body, text_w - 2 * inset)[0])
            return _Section("log", 1.5, line_height(self.body), 2 * inset, lines,
                            lambda box, n: self._paragraph("log", text, box, n, self.body, "fg", fill),
                            minimum=min(lines, 2))
        lines = sum(len(wrap(entry, self.small, text_w)[0]) for entry in v.score_log[-_LOG_SHOWN:])
        if v.log_fresh:     # the last move scored: its sentence stays in sight until the next move
            return _Section("log", 3.5, line_height(self.small), 0, lines, self._log_entries)
        # older scores: in what room is left, at least a line beside a board (which takes the rest)
        return _Section("log", 5, line_height(self.small), 0, lines, self._log_entries,
                        minimum=1 if v.board and not m.compact else 0)

    def _log_entries(self, box: Box, rows: int) -> None:
        """The newest entries that fit in ``rows`` lines, newest last and brightest."""
        x0, y0, x1, _ = box
        shown: list[tuple[list[str], bool]] = []
        used = 0
        for entry in reversed(self.v.score_log):
            lines, cut = wrap(entry, self.small, x1 - x0, None if shown else rows)
            if used + len(lines) > rows:
                break
            shown.insert(0, (lines, cut))
            used += len(lines)
        y = y0
        for n, (lines, cut) in enumerate(shown):
            newest = n == len(shown) - 1
            self.s.lines("log", lines, x0, y, self.small, "fg" if newest else "muted", x1 - x0, cut)
            y += len(lines) * line_height(self.small)

    # -- text blocks and choices --------------------------------------------------------------------

    def _paragraph(self, role: str, text: str, box: Box, lines: int, f, ink: str,
                   fill: str | None = None) -> None:
        x0, y0, x1, y1 = box
        pad = self.m.pad
        if fill:
            self.s.rect(box, fill, radius=pad)
        inset = pad if fill else 0
        wrapped, cut = wrap(text, f, x1 - x0 - 2 * inset, lines)
        self.s.lines(role, wrapped, x0 + inset, y0 + (pad if fill else 0), f, ink, x1 - x0 - 2 * inset, cut)

    def _pill_height(self) -> int:
        return line_height(self.body) + (0 if self.m.compact else self.m.pad)

    def _pill_spacing(self) -> tuple[int, int]:
        """(padding inside a pill, gap between pills)."""
        return (0, width(self.body, "  ")) if self.m.compact else (self.m.pad * 2, self.m.gap)

    def _pill_size(self, text: str, cap: int) -> int:
        pad, _ = self._pill_spacing()
        return min(cap, width(self.body, text) + 2 * pad + (0 if pad else 2))

    def _flow(self, sizes: list[int], width_px: int) -> list[list[int]]:
        """Item indices per row when items of ``sizes`` flow left to right in ``width_px``."""
        _, gap = self._pill_spacing()
        rows: list[list[int]] = [[]]
        x = 0
        for index, size in enumerate(sizes):
            if rows[-1] and x + size > width_px:
                rows.append([])
                x = 0
            rows[-1].append(index)
            x += size + gap
        return rows

    def _pill_rows_wanted(self, width_px: int) -> int:
        return len(self._flow([self._pill_size(c, width_px) for c in self.v.choices], width_px))

    def _visible_choices(self, width_px: int, n_rows: int) -> tuple[list[int], int]:
        """The choices that fit in ``n_rows`` and the widest a pill may be.

        When some do not fit, room is kept for a "+N more" pill and the window starts at the
        highlighted choice if it would be hidden otherwise.
        """
        choices, selected = self.v.choices, self.v.selected
        if len(self._flow([self._pill_size(c, width_px) for c in choices], width_px)) <= n_rows:
            return list(range(len(choices))), width_px
        more = self._pill_size(f"+{len(choices)} more", width_px)
        cap = width_px - more - self._pill_spacing()[1]
        shown: list[int] = []
        for start in (0, selected or 0):
            order = list(range(start, len(choices)))
            sizes = [self._pill_size(choices[i], cap) for i in order]
            count = len(order) if start else len(order) - 1    # something is hidden: "+N more"
            while count and len(self._flow(sizes[:count] + [more], width_px)) > n_rows:
                count -= 1
            shown = order[:max(1, count)]
            if selected is None or selected in shown:
                break
        return shown, cap

    def _choices(self, box: Box, n_rows: int) -> None:
        x0, y0, x1, _ = box
        choices, selected = self.v.choices, self.v.selected
        shown, cap = self._visible_choices(x1 - x0, n_rows)
        items = [(choices[i], i == selected, "selected_choice" if i == selected else "choice") for i in shown]
        if len(shown) < len(choices):
            items.append((f"+{len(choices) - len(shown)} more", False, "choice_more"))
        pad, gap = self._pill_spacing()
        pill_h = self._pill_height()
        x, y = x0, y0
        for text, is_selected, role in items:
            size = self._pill_size(text, x1 - x0 if role == "choice_more" else cap)
            if x + size > x1 and x > x0:
                x, y = x0, y + pill_h + self.m.gap
            if is_selected or not self.m.compact:
                self.s.rect((x, y, x + size, y + pill_h), "accent" if is_selected else "pill",
                            radius=pill_h // 2 if pad else 0)
            self.s.text(role, text, x + size // 2, y + pill_h // 2, self.body,
                        "accent_fg" if is_selected else "fg", size - 2 * pad, anchor="mm",
                        cut=role == "choice_more")
            x += size + gap


def _hand_label(hand: ShownHand) -> str:
    """A hand of the show as its row is labelled, short for a panel: "Ann 8", "crib 12" (the
    dealer's, with the dealer's badge), "Bob's crib" while it is laid out."""
    name = hand.owner if hand.whose == "hand" else hand.whose if hand.points is not None else hand.label
    return name if hand.points is None else f"{name} {hand.points}"
