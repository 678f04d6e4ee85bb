"""``cardtable print-deck`` and ``cardtable print-mat``: print-ready PDFs of marked cards,
marker stickers and the calibration mat."""

from __future__ import annotations

import argparse

from cardtable.out_paths import cannot_write
from engine.decks import DECKS
from vision.markers import MARKER_KINDS
from vision.printing import LAYOUTS, PAPERS, deck_pages, mat_page, save_pdf


def register(subparsers: argparse._SubParsersAction) -> None:
    deck = subparsers.add_parser("print-deck", help="write a printable deck of marked cards (PDF)",
                                 description="Write a print-ready PDF of marked cards or marker stickers.")
    deck.add_argument("--deck", choices=tuple(DECKS), default="standard",
                      help="which deck: %(choices)s (default: %(default)s)")
    deck.add_argument("--marker", choices=MARKER_KINDS, default="qr",
                      help="the code printed on each card: %(choices)s (default: %(default)s)")
    deck.add_argument("--layout", choices=LAYOUTS, default="cards",
                      help="cards: full poker-size faces with cut marks; stickers: labels for an existing "
                           "deck (default: %(default)s)")
    deck.add_argument("--paper", choices=tuple(PAPERS), default="a4",
                      help="paper size: %(choices)s (default: %(default)s)")
    deck.add_argument("--out", required=True, metavar="FILE.pdf", help="the PDF to write")
    deck.set_defaults(func=print_deck)
    mat = subparsers.add_parser("print-mat", help="write the calibration mat (PDF)",
                                description="Write the calibration mat: four ArUco markers at known positions.")
    mat.add_argument("--paper", choices=tuple(PAPERS), default="a4",
                     help="paper size: %(choices)s (default: %(default)s)")
    mat.add_argument("--out", required=True, metavar="FILE.pdf", help="the PDF to write")
    mat.set_defaults(func=print_mat)


def write_pdf(pages: list, out: str) -> None:
    """:func:`save_pdf`, its failure said in words.

    :raises CannotWrite: naming the file and why.
    """
    try:
        save_pdf(pages, out)
    except OSError as err:
        raise cannot_write(out, err) from err


def print_deck(args: argparse.Namespace) -> int:
    pages = deck_pages(args.deck, args.marker, args.layout, args.paper)
    write_pdf(pages, args.out)
    print(f"wrote {args.out}: {args.deck} deck, {args.marker} {args.layout}, {len(pages)} {args.paper} pages; "
          "print at 100 % scale")
    return 0


def print_mat(args: argparse.Namespace) -> int:
    write_pdf([mat_page(args.paper)], args.out)
    print(f"wrote {args.out}: the calibration mat; print at 100 % scale, the markers must measure 50 mm")
    return 0
