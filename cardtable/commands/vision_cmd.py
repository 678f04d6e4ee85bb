"""``cardtable vision replay`` and ``cardtable vision watch``: run the camera pipeline on a
recording (one JSON line per event) or on a live camera (annotated frames for setting it up)."""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path

import cv2
from PIL import Image

from engine.errors import InvalidInput
from vision.annotate import annotate
from vision.config import VisionConfig, load_vision_config
from vision.pipeline import Pipeline
from vision.sources import open_source


def read_config(path: str | None) -> tuple[VisionConfig, Path]:
    """The ``[vision]`` settings of a table config file (defaults without one) and its folder.

    :raises OSError: when the file cannot be read.
    :raises InvalidInput: when it is not valid TOML or the settings are wrong.
    """
    if path is None:
        return load_vision_config({}), Path(".")
    text = Path(path).read_text()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InvalidInput(f"{path} is not valid TOML: {err}") from None
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
    watch.add_argument("--out", metavar="DIR", help="folder for the annotated frames (on a headless machine)")
    watch.add_argument("--window", action="store_true",
                       help="show the annotated frames in a window (needs pygame: pip install 'cardtable[hdmi]')")
    watch.add_argument("--frames", type=int, default=0, help="stop after this many frames (default: never)")
    watch.add_argument("--every", type=int, default=1, help="write every Nth frame (default 1)")
    watch.set_defaults(func=run_watch)


def run_replay(args: argparse.Namespace) -> int:
    if args.fps <= 0:
        raise InvalidInput("--fps must be a positive number of frames a second")
    config, _ = read_config(args.config)
    pipeline = Pipeline(config)
    index = 0
    with open_source(args.source, resolution=config.resolution, fps=args.fps, deck=config.deck,
                     marker=config.marker) as source:
        while (got := source.read()) is not None:
            frame, now = got
            for event in pipeline.process(frame, now):
                if args.json:
                    print(json.dumps({"frame": index, **event.to_json(), **_confidence(pipeline, event)}), flush=True)
                else:
                    move = f" (from {event.from_zone})" if event.from_zone else ""
                    print(f"{now:8.3f}s frame {index:5d}: {event.kind} {event.card.id} in {event.zone}{move}")
            index += 1
    stats = pipeline.stats
    if not args.json:
        print(f"{index} frames, {stats.decodes} regions decoded, {stats.foreign_codes} foreign codes, "
              f"{stats.duplicates} duplicate sightings")
    return 0


def _confidence(pipeline: Pipeline, event) -> dict:
    """``{"confidence": c}`` for a card read by its face (markers carry no confidence)."""
    confidence = getattr(pipeline.decoder, "confidence", {}).get(event.card.id)
    return {} if confidence is None else {"confidence": round(confidence, 3)}


def run_watch(args: argparse.Namespace) -> int:
    if not args.out and not args.window:
        raise InvalidInput("say where to show the frames: --window, or --out DIR on a headless machine")
    config, _ = read_config(args.config)
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    window = _open_window(config.resolution) if args.window else None
    pipeline = Pipeline(config)
    recent: list = []
    index = 0
    with open_source(args.source or config.camera, resolution=config.resolution, fps=config.fps,
                     deck=config.deck, marker=config.marker) as source:
        while (got := source.read()) is not None and (args.frames <= 0 or index < args.frames):
            frame, now = got
            events = pipeline.process(frame, now)
            for event in events:
                print(json.dumps({"frame": index, **event.to_json(), **_confidence(pipeline, event)}), flush=True)
            recent = (recent + events)[-5:]
            if index % max(args.every, 1) == 0:
                image = annotate(frame, pipeline, recent)
                if out:
                    cv2.imwrite(str(out / f"frame_{index:06d}.jpg"), image)
                    cv2.imwrite(str(out / "latest.jpg"), image)
                if window:
                    window.show_image(Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB)))
            index += 1
    if window:
        window.close()
    print(f"showed {index} annotated frames" + (f"; they are in {out}" if out else ""))
    return 0


def _open_window(resolution):
    """A window half the camera's size (the HDMI display's pygame backend, not full screen)."""
    from hardware.display.hdmi import HdmiDisplay

    width, height = resolution
    return HdmiDisplay(width // 2, height // 2, fullscreen=False)
