"""A drawing surface that remembers what it drew: themes, boxes, fitted text, card chips, pills.

Layouts draw on a :class:`Sheet`; it keeps a :class:`Frame` with every piece of text, where its
ink landed and whether it had to be cut, so tests (and a curious developer) can check that
nothing went outside its place and nothing was lost without an ellipsis.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from hardware.display.fonts import Font, has_suit_symbols, line_height
from hardware.display.text import ELLIPSIS, card_label, fit_line, row_width, short_label, width

Box = tuple[int, int, int, int]          # x0, y0, x1, y1 (x1, y1 exclusive)

#: Colour panels: a felt-green table. Monochrome panels: white on black, highlights inverted.
_COLOUR = {
    "bg": (14, 52, 36), "panel": (26, 78, 56), "fg": (246, 246, 240), "muted": (178, 206, 188),
    "accent": (246, 196, 62), "accent_fg": (24, 24, 24), "warn_bg": (196, 36, 36),
    "warn_fg": (255, 255, 255), "card_bg": (250, 250, 245), "card_edge": (120, 120, 110),
    "card_fg": (20, 20, 20), "card_red": (204, 24, 36), "pill": (44, 104, 78),
    "badge": (84, 150, 226), "badge_fg": (255, 255, 255),
    "wood": (122, 82, 48), "hole": (43, 26, 13), "mark": (244, 241, 232),
    # a colour per side of the board (the page's pegs have the same)
    "lane0": (242, 193, 78), "lane1": (110, 198, 255), "lane2": (255, 122, 122), "lane3": (244, 241, 232),
    "lane4": (180, 140, 255), "lane5": (140, 240, 160),
}
_INVERTED = {"accent", "warn_bg", "badge"}
_MONO = {name: (255 if name in _INVERTED or name.endswith(("fg", "muted", "edge", "red")) else 0)
         for name in _COLOUR} | {"accent_fg": 0, "warn_fg": 0, "badge_fg": 0, "fg": 255, "wood": 0, "hole": 255,
                                 "mark": 255} | {f"lane{n}": 255 for n in range(6)}


@dataclass(frozen=True)
class Drawn:
    """One piece of text on the frame: which field it shows, the text, its ink box, whether cut."""

    role: str
    text: str
    box: Box
    cut: bool = False


@dataclass
class Frame:
    """What a render drew: the image size, every text, and the sections left out for lack of room."""

    width: int
    height: int
    texts: list[Drawn] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    #: what was drawn that is not text (the board, its pegs, the partners' marks), ``text`` naming it
    shapes: list[Drawn] = field(default_factory=list)

    def text_of(self, role: str) -> str:
        """All text drawn for ``role``, joined by spaces."""
        return " ".join(d.text for d in self.texts if d.role == role)

    def cut_roles(self) -> set[str]:
        """The roles whose text had to be shortened."""
        return {d.role for d in self.texts if d.cut}


class Sheet:
    """An image in the panel's mode, drawn with the matching theme, recording a :class:`Frame`."""

    def __init__(self, width_px: int, height_px: int, mode: str) -> None:
        self.mode = mode
        self.mono = mode in ("1", "L")
        draw_mode = mode if mode in ("1", "L", "RGB", "RGBA") else "RGB"
        self.image = Image.new(draw_mode, (width_px, height_px), self.ink("bg"))
        self.draw = ImageDraw.Draw(self.image)
        if mode == "1":
            self.draw.fontmode = "1"          # crisp glyphs, no dithered anti-aliasing
        self.frame = Frame(width_px, height_px)
        self.symbols = has_suit_symbols()

    def ink(self, name: str) -> int | tuple[int, int, int]:
        """The colour called ``name`` in this sheet's theme."""
        return _MONO[name] if self.mono else _COLOUR[name]

    def rect(self, box: Box, fill: str, outline: str | None = None, radius: int = 0) -> None:
        """A filled (rounded) rectangle."""
        x0, y0, x1, y1 = box
        self.draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=self.ink(fill),
                                    outline=self.ink(outline) if outline else None)

    def dot(self, role: str, name: str, x: float, y: float, radius: float, fill: str,
            outline: str | None = None) -> None:
        """A filled circle centred on (x, y); recorded in :attr:`Frame.shapes` when ``role`` is given."""
        box = (round(x - radius), round(y - radius), round(x + radius), round(y + radius))
        if radius < 1:
            self.draw.point((round(x), round(y)), fill=self.ink(fill))
        else:
            self.draw.ellipse(box, fill=self.ink(fill), outline=self.ink(outline) if outline else None)
        if role:
            self.frame.shapes.append(Drawn(role, name, box))

    def text(self, role: str, text: str, x: int, y: int, f: Font, ink: str, max_width: int,
             anchor: str = "la", cut: bool = False) -> Drawn:
        """Draw ``text`` at (x, y), shortened with an ellipsis to ``max_width``; record it."""
        line, shortened = fit_line(text, f, max_width)
        drawn = Drawn(role, line, (x, y, x, y), cut or shortened)
        if line:
            x0, _, x1, _ = self.draw.textbbox((x, y), line, font=f, anchor=anchor)
            # a glyph leaning out (a "V") must not cross the edge it is aligned to, nor the panel's
            dx = max(0, x - x0) if anchor[0] == "l" else -max(0, x1 - x) if anchor[0] == "r" else 0
            x += dx + max(0, -(x0 + dx)) - max(0, x1 + dx - self.frame.width)
            self.draw.text((x, y), line, font=f, fill=self.ink(ink), anchor=anchor)
            drawn = Drawn(role, line, tuple(self.draw.textbbox((x, y), line, font=f, anchor=anchor)),
                          cut or shortened)
        self.frame.texts.append(drawn)
        return drawn

    def lines(self, role: str, lines: list[str], x: int, y: int, f: Font, ink: str,
              max_width: int, cut: bool) -> None:
        """Draw already wrapped lines downwards from (x, y)."""
        step = line_height(f)
        for n, line in enumerate(lines):
            self.text(role, line, x, y + n * step, f, ink, max_width, cut=cut and n == len(lines) - 1)

    def _chips(self, cards: tuple[str, ...], f: Font, chips: bool):
        pad = max(2, line_height(f) // 5) if chips else 0
        gap = max(2, pad) if chips else width(f, " ")
        labels = [card_label(card, self.symbols) for card in cards]
        return labels, [width(f, text) + 2 * pad for text, _ in labels], pad, gap

    def chip_row_width(self, label: str, cards: tuple[str, ...], f: Font, label_font: Font,
                       chips: bool) -> int:
        """Pixels :meth:`chip_row` needs to show ``label`` and every card."""
        _, sizes, _, gap = self._chips(cards, f, chips)
        label_w = width(label_font, label) + max(4, line_height(f) // 3) if label else 0
        return label_w + row_width(sizes, gap) + gap

    def chip_row(self, role: str, label: str, cards: tuple[str, ...], box: Box, f: Font,
                 label_font: Font, chips: bool) -> None:
        """``label`` then the cards as chips (or plain text), the latest cards kept if room runs out."""
        x0, y0, x1, y1 = box
        x = x0
        labels, sizes, pad, gap = self._chips(cards, f, chips)
        lead = width(f, ELLIPSIS) + gap
        spacing = max(4, line_height(f) // 3)
        if label:   # the label gives way to its numbers ("Count 23" → "23:"), then to the cards
            all_cards = row_width(sizes, gap) + spacing if sizes else 0
            room = x1 - x - (all_cards if all_cards <= x1 - x else sizes[-1] + lead + spacing)
            short = label if width(label_font, label) <= room else short_label(label)
            if short and width(label_font, short) <= room:
                drawn = self.text(role, short, x, (y0 + y1) // 2, label_font, "muted", room,
                                  anchor="lm", cut=short != label)
                x = drawn.box[2] + spacing
            else:
                self.frame.texts.append(Drawn(role, "", (x, y0, x, y0), cut=True))
        first = 0
        while first < len(labels) and row_width(sizes[first:], gap) + (lead if first else 0) > x1 - x:
            first += 1
        if first:
            self.text(role, ELLIPSIS, x, (y0 + y1) // 2, f, "muted", lead, anchor="lm", cut=True)
            x += lead
        for (text, red), size in zip(labels[first:], sizes[first:]):
            if chips:
                self.rect((x, y0, x + size, y1), "card_bg", "card_edge", radius=pad)
                self.text(role, text, x + size // 2, (y0 + y1) // 2, f,
                          "card_red" if red else "card_fg", size, anchor="mm")
            else:
                self.text(role, text, x, (y0 + y1) // 2, f, "fg", size, anchor="lm")
            x += size + gap
