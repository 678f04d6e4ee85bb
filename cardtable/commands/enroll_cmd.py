"""``cardtable enroll rfid`` and ``cardtable enroll faces``: show cardtable a deck once.

``rfid`` records which tag is on which card (see :mod:`cardtable.commands.bridge_cmd`).
``faces`` records what each card of an unmarked deck looks like, from a folder of card images
(``--from-images DIR``: photos, scans or crops named ``AS.jpg``, ``10H.png``, ``king_club.png``,
...), from one photo of the deck laid out in 4 rows of 13 (``--from-photo FILE``), from a card
design Debian installs (``--from-design NAME``), or from the camera, card by card or the deck
laid out in rows (``--rows``, see :mod:`vision.faces.rows`), and keeps the references in one
file in the user's data folder (see :mod:`vision.faces.store`); ``--sheet FILE.png`` writes a
contact sheet of the cards as enrolled (:mod:`vision.faces.sheet`).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from cardtable.commands import bridge_cmd
from engine.decks import get_deck
from vision.faces.enrol import CameraEnrolment, enrol_from_camera, enrol_from_design, enrol_from_images, enrol_from_photo
from vision.faces.rows import RowsEnrolment, enrol_rows
from vision.faces.store import Enrolment, enrolment_path


def register(subparsers: argparse._SubParsersAction) -> None:
    enroll = subparsers.add_parser("enroll", help="show cardtable a deck once: its tags or its faces")
    kinds = enroll.add_subparsers(dest="enroll_command", metavar="KIND", required=True)
    rfid = kinds.add_parser("rfid", help="lay each card of a deck on a reader, one by one")
    bridge_cmd.add_link_options(rfid)
    rfid.add_argument("--deck", default="standard", help="standard, french40 or its15 (default standard)")
    rfid.add_argument("--registry", type=Path, help="tag registry file (default ~/.config/cardtable/rfid-DECK.json)")
    rfid.add_argument("--count", type=int, help="stop after enrolling this many cards")
    rfid.add_argument("--wait", type=float, default=10.0, metavar="S",
                      help="give up when no reader board has answered after S seconds (default 10)")
    rfid.set_defaults(func=bridge_cmd.enroll_command)
    faces = kinds.add_parser("faces", help="show the camera each card of an unmarked deck")
    faces.add_argument("--deck", default="standard", help="standard or french40 (default standard)")
    faces.add_argument("--name", help="the enrolment's name, for [vision] faces = NAME (default: the deck's name)")
    faces.add_argument("--out", type=Path, help="write the enrolment to this file instead of the data folder")
    source = faces.add_mutually_exclusive_group()
    source.add_argument("--from-images", type=Path, metavar="DIR",
                       help="a folder of pictures, one card each (photos on a plain background, scans, crops), "
                            "named by card (AS.jpg, 10H.png, king_club.png, ...): no camera needed")
    source.add_argument("--from-photo", type=Path, metavar="FILE",
                       help="one photo of the whole deck laid out face up in 4 rows of 13, a finger's width apart: "
                            "row 1 spades, row 2 hearts, row 3 diamonds, row 4 clubs, each from the ace to the king, "
                            "left to right")
    source.add_argument("--from-design", metavar="NAME",
                       help="a card design installed by Debian's KDE card data (dondorf, nicu-white, ...): "
                            "try faces without a deck")
    faces.add_argument("--sheet", type=Path, metavar="FILE.png",
                       help="also write a contact sheet of the cards as enrolled, to look at")
    faces.add_argument("--source", default="usb:0", help="camera to enrol from (default usb:0)")
    faces.add_argument("--rows", action="store_true",
                       help="lay the deck out in rows, as many as the camera sees at once, instead of card by card")
    faces.set_defaults(func=enroll_faces_command)


def _enrol_still(args: argparse.Namespace, deck, name: str):
    """The enrolment from pictures the arguments name (images, a photo or a design), or None
    when they name none; notes (jokers skipped) are printed."""
    import cv2

    if args.from_images is not None:
        return enrol_from_images(args.from_images, deck, name, say=print), str(args.from_images)
    if args.from_photo is not None:
        image = cv2.imread(str(args.from_photo), cv2.IMREAD_COLOR)
        if image is None:
            raise OSError(f"cannot read the photo {args.from_photo}")
        return enrol_from_photo(image, deck, name), str(args.from_photo)
    if args.from_design is not None:
        with tempfile.TemporaryDirectory() as folder:
            return enrol_from_design(args.from_design, deck, name, folder), f"the design {args.from_design}"
    return None


def _write_sheet(args: argparse.Namespace, enrolment: Enrolment) -> None:
    if args.sheet is not None:
        from vision.faces.sheet import write_sheet

        print(f"contact sheet of the cards as enrolled: {write_sheet(enrolment, args.sheet)}")


def enroll_faces_command(args: argparse.Namespace) -> int:
    deck = get_deck(args.deck)
    name = args.name or (args.from_design if args.from_design else deck.name)
    path = args.out or enrolment_path(name)
    started = time.perf_counter()
    still = _enrol_still(args, deck, name)
    if still is not None:
        enrolment, source = still
        enrolment.save(path)
        print(f"enrolled {len(enrolment.cards)} cards{' and the back' if enrolment.back else ''} of "
              f"{source} in {time.perf_counter() - started:.1f} s, saved in {path}")
        _write_sheet(args, enrolment)
        print(f'use it with [vision] recognition = "faces" and faces = "{name if args.out is None else path}"')
        return 0
    from vision.sources import open_source

    enrolment = Enrolment.load(path) if path.exists() else Enrolment(deck, name)
    walk, guide = (RowsEnrolment(enrolment), enrol_rows) if args.rows else (CameraEnrolment(enrolment), enrol_from_camera)
    if not enrolment.missing:
        print(walk.prompt())
        return 0
    print(f"enrolling into {path}; stop with Ctrl-C and run the same command to carry on", flush=True)
    with open_source(args.source) as source:
        frames = iter(lambda: (got := source.read()) and got[0], None)
        try:
            guide(frames, walk, lambda text: print(text, flush=True), save=lambda: enrolment.save(path))
        except KeyboardInterrupt:
            pass
    done, total = walk.progress
    print(f"{done}/{total} cards enrolled, saved in {path}" + ("" if done == total else "; run the same command to carry on"))
    _write_sheet(args, enrolment)
    return 0
