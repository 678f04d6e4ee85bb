"""``cardtable vision replay``, ``watch`` and ``read``: run the camera pipeline on a recording
(one JSON line per event) or on a live camera (annotated frames for setting it up), or name the
face-up cards of one photo with no empty table to compare with (:mod:`vision.faces.still`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
from PIL import Image

from cardtable.config import read_toml
from engine.errors import InvalidInput
from vision.annotate import annotate
from vision.config import VisionConfig, load_vision_config
from vision.frames import Frame
from vision.pipeline import Pipeline, table_events
from vision.sources import open_configured


def read_config(path: str | None) -> tuple[VisionConfig, Path]:
    """The ``[vision]`` settings of a table config file (defaults without one) and its folder.

    :raises InvalidInput: when it cannot be read, is not valid TOML or the settings are wrong.
    """
    if path is None:
        return load_vision_config({}), Path(".")
    data = read_toml(Path(path))
    return load_vision_config(data.get("vision", {}), Path(path).parent), Path(path).parent


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("vision", help="run the camera pipeline on a recording or a camera")
    commands = parser.add_subparsers(dest="vision_command", metavar="COMMAND", required=True)
    replay = commands.add_parser("replay", help="print the events found in a video file or a folder of frames")
    replay.add_argument("source", metavar="SOURCE", help="a video file, a folder of frames, or synthetic:SCRIPT")
    replay.add_argument("--config", metavar="FILE", help="table config (TOML) with a [vision] section")
    replay.add_argument("--fps", type=float, default=30.0, help="frames per second of the recording (default 30)")
    replay.add_argument("--json", action="store_true", help="one JSON object per line")
    replay.set_defaults(func=run_replay)
    watch = commands.add_parser("watch", help="annotated frames from the camera, for setting it up")
    watch.add_argument("--config", metavar="FILE", help="table config (TOML) with a [vision] section")
    watch.add_argument("--source", help="camera to use instead of the config's (usb:0, picamera, synthetic:SCRIPT, ...)")
    watch.add_argument("--out", metavar="DIR", help="folder for the camera's frames (replayable with 'vision "
                       "replay DIR') and, in DIR/annotated, the annotated copies and latest.jpg")
    watch.add_argument("--window", action="store_true",
                       help="show the annotated frames in a window (needs pygame: pip install 'cardtable[hdmi]')")
    watch.add_argument("--frames", type=int, default=0, help="stop after this many frames (default: never)")
    watch.add_argument("--every", type=int, default=1, help="write every Nth frame (default 1)")
    watch.add_argument("--raw", action="store_true",
                       help="with --out, write only the camera's frames (no annotated copies)")
    watch.set_defaults(func=run_watch)
    read = commands.add_parser("read", help="name every face-up card in one photo (unmarked cards, by their faces)")
    read.add_argument("photo", metavar="PHOTO", help="a photo of the table (jpg, png, ...)")
    enrolled = read.add_mutually_exclusive_group()
    enrolled.add_argument("--config", metavar="FILE", help="table config (TOML) whose [vision] faces names the deck")
    enrolled.add_argument("--faces", metavar="NAME", help="the enrolled deck: a name from 'cardtable enroll faces', or a file; "
                          "standard-index: a standard deck nobody enrolled, read by its corner indices")
    read.add_argument("--json", action="store_true", help="one JSON object per card")
    read.set_defaults(func=run_read)


def _frames(source, pipeline: Pipeline, refused: list[str]):
    """(index, frame, time, events) for every frame the pipeline can use; a frame it cannot use
    (another size, not an image) is noted in ``refused`` and skipped, never the end."""
    index = 0
    while (got := source.read()) is not None:
        frame, now = got
        bad = pipeline.stats.bad_frames
        events = table_events(pipeline.process(frame, now))   # its sentences are the table's
        if pipeline.stats.bad_frames > bad:
            refused.append(f"frame {index}: {pipeline.refusal}")
        else:
            yield index, Frame.of(frame), now, events
        index += 1


def _say_skipped(source, refused: list[str], used: int, spec: str) -> None:
    """Say which frames were skipped and why; with none used at all, that is an error.

    :raises InvalidInput: when no frame at all could be used.
    """
    skipped = [f"{name}: {reason}" for name, reason in getattr(source, "skipped", [])] + refused
    if skipped and used:
        shown = "; ".join(skipped[:5]) + (f"; and {len(skipped) - 5} more" if len(skipped) > 5 else "")
        print(f"skipped {len(skipped)} frames that could not be used ({shown})", file=sys.stderr)
    if not used:
        reason = f": {skipped[0]}" if skipped else ""
        raise InvalidInput(f"no frame could be read from {spec}{reason}")


def run_replay(args: argparse.Namespace) -> int:
    if args.fps <= 0:
        raise InvalidInput("--fps must be a positive number of frames a second")
    config, _ = read_config(args.config)
    pipeline = Pipeline(config)
    refused: list[str] = []
    used = 0
    with open_configured(config, args.source, fps=args.fps) as source:
        for index, _, now, events in _frames(source, pipeline, refused):
            used += 1
            for event in events:
                if args.json:
                    print(json.dumps({"frame": index, **event.to_json(), **_confidence(pipeline, event)}), flush=True)
                else:
                    move = f" (from {event.from_zone})" if event.from_zone else ""
                    print(f"{now:8.3f}s frame {index:5d}: {event.kind} {event.card.id} in {event.zone}{move}")
        _say_skipped(source, refused, used, args.source)
    stats = pipeline.stats
    if not args.json:
        print(f"{used} frames, {stats.decodes} regions decoded, {stats.foreign_codes} foreign codes, "
              f"{stats.duplicates} duplicate sightings")
    return 0


def _confidence(pipeline: Pipeline, event) -> dict:
    """``{"confidence": c}`` for a card read by its face (markers carry no confidence)."""
    confidence = pipeline.confidence.get(event.card.id)
    return {} if confidence is None else {"confidence": round(confidence, 3)}


def run_watch(args: argparse.Namespace) -> int:
    if not args.out and not args.window:
        raise InvalidInput("say where to show the frames: --window, or --out DIR on a headless machine")
    config, _ = read_config(args.config)
    out = Path(args.out) if args.out else None
    if out:
        (out if args.raw else out / "annotated").mkdir(parents=True, exist_ok=True)
    window = _open_window(config.resolution) if args.window else None
    pipeline = Pipeline(config)
    recent: list = []
    refused: list[str] = []
    shown = 0
    with open_configured(config, args.source) as source:
        for index, frame, _, events in _frames(source, pipeline, refused):
            for event in events:
                print(json.dumps({"frame": index, **event.to_json(), **_confidence(pipeline, event)}), flush=True)
            recent = (recent + events)[-5:]
            if index % max(args.every, 1) == 0:
                shown += 1
                if out:
                    # The camera's own frame, replayable as it came; the annotation on a copy beside it.
                    (out / f"frame_{index:06d}.jpg").write_bytes(frame.encoded())
                if (out and not args.raw) or window:
                    image = annotate(frame.colour(), pipeline, recent)
                if out and not args.raw:
                    cv2.imwrite(str(out / "annotated" / f"frame_{index:06d}.jpg"), image)
                    cv2.imwrite(str(out / "annotated" / "latest.jpg"), image)
                if window:
                    window.show_image(Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB)))
            if args.frames > 0 and index + 1 >= args.frames:
                break
        _say_skipped(source, refused, shown, args.source or config.camera)
    if window:
        window.close()
    where = f"; the camera's frames are in {out}" + ("" if args.raw else f", annotated in {out / 'annotated'}") \
        if out else ""
    print(f"showed {shown} annotated frames{where}")
    return 0


def _open_window(resolution):
    """A window half the camera's size (the HDMI display's pygame backend, not full screen)."""
    from hardware.display.hdmi import HdmiDisplay

    width, height = resolution
    return HdmiDisplay(width // 2, height // 2, fullscreen=False)


def run_read(args: argparse.Namespace) -> int:
    """Name every face-up card of one photo: its outline, its card (or unknown) and how sure."""
    from vision.faces.index_reader import IndexReader, reads_standard_index
    from vision.faces.matcher import Matcher
    from vision.faces.still import read_cards
    from vision.faces.store import Enrolment, enrolment_path

    if args.faces is not None:
        path = args.faces if reads_standard_index(args.faces) else enrolment_path(args.faces)
    else:
        config, _ = read_config(args.config)
        path = config.faces or enrolment_path(config.deck)
    matcher = IndexReader() if reads_standard_index(path) else Matcher(Enrolment.load(path))
    image = cv2.imread(args.photo, cv2.IMREAD_COLOR)
    if image is None:
        raise InvalidInput(f"cannot read the photo {args.photo}: give a jpg or png file")
    found = read_cards(image, matcher)
    for quad, reading in found:
        outline = [[round(float(x), 1), round(float(y), 1)] for x, y in quad]
        card = None if reading.card is None else reading.card.id
        if args.json:
            print(json.dumps({"card": card, "confidence": round(reading.confidence, 3), "outline": outline,
                              **({"why": reading.why} if card is None and reading.why else {})}))
        else:
            centre = quad.mean(axis=0)
            print(f"{card or 'unknown':>7}  {reading.confidence:.2f}  at ({centre[0]:.0f}, {centre[1]:.0f})"
                  + (f"  ({reading.why})" if card is None and reading.why else ""))
    if not args.json:
        named = sum(reading.card is not None for _, reading in found)
        print(f"{named} of {len(found)} cards found named")
    return 0
