"""``cardtable enroll rfid`` and ``cardtable enroll faces``: show cardtable a deck once.

``rfid`` records which tag is on which card (see :mod:`cardtable.commands.bridge_cmd`).
``faces`` records what each card of an unmarked deck looks like, from a folder of card images
(``--from-images DIR``: ``AS.jpg``, ``10H.png``, ...) or from the camera, card by card or the
deck laid out in rows (``--rows``, see :mod:`vision.faces.rows`), and keeps the references in
one file in the user's data folder (see :mod:`vision.faces.store`).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cardtable.commands import bridge_cmd
from engine.decks import get_deck
from vision.faces.enrol import CameraEnrolment, enrol_from_camera, enrol_from_images
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
    faces.add_argument("--from-images", type=Path, metavar="DIR",
                       help="a folder of card images named by face (AS.jpg, 10H.png, ...): no camera needed")
    faces.add_argument("--source", default="usb:0", help="camera to enrol from (default usb:0)")
    faces.add_argument("--rows", action="store_true",
                       help="lay the deck out in rows, as many as the camera sees at once, instead of card by card")
    faces.set_defaults(func=enroll_faces_command)


def enroll_faces_command(args: argparse.Namespace) -> int:
    deck = get_deck(args.deck)
    name = args.name or deck.name
    path = args.out or enrolment_path(name)
    if args.from_images is not None:
        started = time.perf_counter()
        enrolment = enrol_from_images(args.from_images, deck, name)
        enrolment.save(path)
        print(f"enrolled {len(enrolment.cards)} cards{' and the back' if enrolment.back else ''} of "
              f"{args.from_images} in {time.perf_counter() - started:.1f} s, saved in {path}")
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
    return 0
