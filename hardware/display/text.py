"""Fitting text into pixels: one line with an ellipsis, or wrapped into a number of lines.

Every function reports whether it had to cut, so a layout never loses text silently.
"""

from __future__ import annotations

import math

from hardware.display.fonts import Font

ELLIPSIS = "…"
_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K"}


def width(f: Font, text: str) -> int:
    """Pixels ``text`` takes in ``f``: its advance, or its ink where a glyph reaches further.

    One pixel is added for the rounding of non-anti-aliased (monochrome) glyphs.
    """
    if not text:
        return 0
    left, _, right, _ = f.getbbox(text)
    return max(math.ceil(f.getlength(text)), right - min(0, left)) + 1


def row_width(sizes: list[int], gap: int) -> int:
    """Pixels a row of items of ``sizes`` takes with ``gap`` pixels between them."""
    return sum(sizes) + gap * max(0, len(sizes) - 1)


def fit_line(text: str, f: Font, max_width: int) -> tuple[str, bool]:
    """``text`` on one line of ``max_width`` pixels, cut with an ellipsis if needed; (line, cut)."""
    if width(f, text) <= max_width:
        return text, False
    low, high = 0, len(text)
    while low < high:                      # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if width(f, text[:mid].rstrip() + ELLIPSIS) <= max_width:
            low = mid
        else:
            high = mid - 1
    return (text[:low].rstrip() + ELLIPSIS) if low or width(f, ELLIPSIS) <= max_width else "", True


def wrap(text: str, f: Font, max_width: int, max_lines: int | None = None) -> tuple[list[str], bool]:
    """Word-wrap ``text`` to ``max_width`` pixels; words too long for a line are split.

    With ``max_lines``, the last kept line ends in an ellipsis when text was left out.
    Returns (lines, cut).
    """
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if width(f, candidate) <= max_width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while width(f, word) > max_width and len(word) > 1:
                cut = max(1, _longest_prefix(word, f, max_width))
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    if max_lines is None or len(lines) <= max_lines:
        return lines, False
    if max_lines <= 0:
        return [], True
    kept = lines[:max_lines]
    last = kept[-1].rstrip(" .,;:") + ELLIPSIS
    kept[-1] = last if width(f, last) <= max_width else fit_line(last, f, max_width)[0]
    return kept, True


def _longest_prefix(word: str, f: Font, max_width: int) -> int:
    n = len(word)
    while n > 1 and width(f, word[:n]) > max_width:
        n -= 1
    return n


def short_label(label: str) -> str:
    """The numbers of a label, for where the words do not fit: "Count 23" → "23:"; "" if none."""
    numbers = [word for word in label.split() if any(ch.isdigit() for ch in word)]
    return " ".join(numbers) + ":" if numbers else ""


def card_label(card: str, symbols: bool) -> tuple[str, bool]:
    """How to print card text like ``"10H"``: with a suit symbol if the font has them; (text, red).

    Text that is not a standard card (an It's 15 face, a Le Quinze card name) is kept as it is.
    """
    rank, suit = card[:-1].upper(), card[-1:].upper()
    if rank not in _RANKS or suit not in _SUIT_SYMBOLS:
        return card, False
    rank = "10" if rank == "T" else rank
    return rank + (_SUIT_SYMBOLS[suit] if symbols else suit), suit in "HD"
