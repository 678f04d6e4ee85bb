"""Print-ready PDFs: decks of cards or marker stickers, and the calibration mat.

Pages are drawn at 300 dpi with :class:`vision.render.CardArt` and saved as a multi-page PDF
with Pillow. Cards are laid out edge to edge in a grid, with cut marks in the margins along every
grid line; stickers get the same cut marks.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from engine.errors import InvalidInput
from vision.markers import MAT_MARKER_CENTRES, MAT_MARKER_IDS, MAT_MARKER_MM, aruco_modules
from vision.render import CARD_MM, STICKER_MM, CardArt, _font, _paste_modules

DPI = 300
PX_PER_MM = DPI / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
LAYOUTS = ("cards", "stickers")
_MARGIN_MM = 7.0
_MARK_MM = 5.0


def _paper(name: str) -> tuple[float, float]:
    try:
        return PAPERS[name]
    except KeyError:
        raise InvalidInput(f"no paper size {name!r}: choose {' or '.join(PAPERS)}") from None


def layout_pages(items: list[Image.Image], item_mm: tuple[float, float], paper: str) -> list[Image.Image]:
    """Place equal-size ``items`` in a centred grid on as many pages as needed, with cut marks.

    :raises InvalidInput: for an unknown paper size.
    """
    pw, ph = _paper(paper)
    cols = int((pw - 2 * _MARGIN_MM) // item_mm[0])
    rows = int((ph - 2 * _MARGIN_MM) // item_mm[1])
    left, top = (pw - cols * item_mm[0]) / 2, (ph - rows * item_mm[1]) / 2
    px = lambda mm: round(mm * PX_PER_MM)  # noqa: E731
    pages = []
    for start in range(0, len(items), cols * rows):
        page = Image.new("RGB", (px(pw), px(ph)), "white")
        draw = ImageDraw.Draw(page)
        for i, item in enumerate(items[start:start + cols * rows]):
            r, c = divmod(i, cols)
            page.paste(item, (px(left + c * item_mm[0]), px(top + r * item_mm[1])))
        width = max(1, px(0.25))
        for c in range(cols + 1):
            x = px(left + c * item_mm[0])
            draw.line((x, px(top - _MARK_MM - 1), x, px(top - 1)), fill="black", width=width)
            draw.line((x, px(top + rows * item_mm[1] + 1), x, px(top + rows * item_mm[1] + _MARK_MM + 1)), fill="black", width=width)
        for r in range(rows + 1):
            y = px(top + r * item_mm[1])
            draw.line((px(left - _MARK_MM - 1), y, px(left - 1), y), fill="black", width=width)
            draw.line((px(left + cols * item_mm[0] + 1), y, px(left + cols * item_mm[0] + _MARK_MM + 1), y), fill="black", width=width)
        pages.append(page)
    return pages


def deck_pages(deck: str, marker: str, layout: str, paper: str) -> list[Image.Image]:
    """The pages of a printable deck.

    :raises InvalidInput: for an unknown deck, marker, layout or paper.
    """
    art = CardArt(deck, marker)
    if layout == "cards":
        return layout_pages([art.card(c, PX_PER_MM) for c in art.deck.cards], CARD_MM, paper)
    if layout == "stickers":
        return layout_pages([art.sticker(c, PX_PER_MM) for c in art.deck.cards], STICKER_MM, paper)
    raise InvalidInput(f"no layout {layout!r}: choose {' or '.join(LAYOUTS)}")


#: The mat's instructions. Only seat 1 fixes which way it lies (the zones are placed from it),
#: so they name no other seat: which seat faces the top edge depends on how many play.
MAT_INSTRUCTIONS = ("Lay it flat in the middle of the table, this side up, with",
                    "the bottom edge towards seat 1; then run: cardtable calibrate.",
                    "Print at 100 % (no scaling): the markers must measure 50 mm.")


def mat_page(paper: str) -> Image.Image:
    """The calibration mat: markers 96-99 at their known positions around the page centre, a
    centre cross and instructions.

    :raises InvalidInput: for an unknown paper size.
    """
    pw, ph = _paper(paper)
    width, height = round(ph * PX_PER_MM), round(pw * PX_PER_MM)  # landscape
    page = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(page)
    cx, cy = width / 2, height / 2
    side = MAT_MARKER_MM * PX_PER_MM
    for marker_id, (mx, my) in zip(MAT_MARKER_IDS, MAT_MARKER_CENTRES):
        x, y = cx + mx * PX_PER_MM - side / 2, cy + my * PX_PER_MM - side / 2
        _paste_modules(page, aruco_modules(marker_id), x, y, side)
    arm = 6 * PX_PER_MM
    draw.line((cx - arm, cy, cx + arm, cy), fill="black", width=3)
    draw.line((cx, cy - arm, cx, cy + arm), fill="black", width=3)
    font = _font(round(4 * PX_PER_MM))
    draw.text((cx, cy - 22 * PX_PER_MM), "cardtable calibration mat", fill="black", font=font, anchor="mm")
    small = _font(round(3 * PX_PER_MM))
    for i, line in enumerate(MAT_INSTRUCTIONS):
        draw.text((cx, cy + (16 + 5 * i) * PX_PER_MM), line, fill="black", font=small, anchor="mm")
    return page


def save_pdf(pages: list[Image.Image], out: str | Path) -> None:
    """Write ``pages`` as one PDF at 300 dpi.

    :raises OSError: when the file cannot be written.
    """
    first, *rest = pages
    first.save(str(out), "PDF", resolution=DPI, save_all=True, append_images=rest, quality=95)
