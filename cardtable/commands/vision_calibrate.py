"""``cardtable calibrate``: find the mat under the camera and store the image-to-table homography."""

from __future__ import annotations

import argparse
from pathlib import Path

from cardtable.commands.vision_cmd import read_config
from engine.errors import InvalidInput
from vision.calibration import calibrate, save_calibration
from vision.frames import Frame
from vision.sources import open_configured


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("calibrate", help="calibrate the camera with the printed mat",
                                   description="Find the calibration mat in view, store the homography, "
                                               "report the reprojection error.")
    parser.add_argument("--config", metavar="FILE", help="table config (TOML) naming the camera")
    parser.add_argument("--source", help="camera or image to use instead of the config's camera")
    parser.add_argument("--out", metavar="FILE", help="where to store it (default: the config's "
                        "calibration file, or calibration.json)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config, base = read_config(args.config)
    source = args.source or config.camera
    with open_configured(config, source) as camera:
        got = camera.read()
        if got is None:
            skipped = getattr(camera, "skipped", [])
            raise InvalidInput(f"{source} gave no frame" + (f": {skipped[0][0]} is {skipped[0][1]}" if skipped else ""))
        frame = Frame.of(got[0]).grey()
    calibration = calibrate(frame)
    out = Path(args.out) if args.out else (config.calibration or base / "calibration.json")
    save_calibration(calibration, out)
    w, h = calibration.image_size
    quality = "good" if calibration.reprojection_error_px < 1.0 else "poor: is the mat flat and sharp?"
    print(f"wrote {out}: {w}x{h}, reprojection error {calibration.reprojection_error_px:.2f} px ({quality})")
    return 0
