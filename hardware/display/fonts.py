"""Fonts for the displays: DejaVu Sans where the system has it, else Pillow's own fonts.

DejaVu is on Raspberry Pi OS (``fonts-dejavu-core``) and has the suit symbols; Pillow >= 10.1
bundles a scalable default font; older Pillow only has a small bitmap font, used as the last
resort so that a display always shows something.
"""

from __future__ import annotations

import logging
from functools import lru_cache

from PIL import ImageFont

log = logging.getLogger(__name__)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
_DIRS = ("", "/usr/share/fonts/truetype/dejavu/", "/usr/share/fonts/dejavu/",
         "/usr/share/fonts/TTF/", "/usr/local/share/fonts/")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """A font ``size`` pixels high (DejaVu Sans, bold if asked), or the best fallback."""
    for folder in _DIRS:
        try:
            return ImageFont.truetype(folder + _FILES[bold], size)
        except OSError:
            continue
    log.warning("DejaVu Sans not found (install fonts-dejavu-core); using Pillow's default font")
    try:
        return ImageFont.load_default(size=size)
    except TypeError:      # Pillow < 10.1: a fixed bitmap font
        return ImageFont.load_default()


def has_suit_symbols() -> bool:
    """True when the display font is DejaVu, which draws the suit symbols."""
    return "DejaVu" in str(getattr(font(12), "path", ""))


def line_height(f: Font) -> int:
    """Pixels from one baseline to the next for text in ``f``."""
    return f.getbbox("Agjpqy|")[3]
