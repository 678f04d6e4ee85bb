"""``cardtable calibrate``: find the mat under the camera and store the image-to-table homography."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2

from cardtable.commands.vision_cmd import read_config
from engine.errors import InvalidInput
from vision.calibration import calibrate, save_calibration
from vision.sources import open_source


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
    if Path(source).is_file() and Path(source).suffix.lower() in {".png", ".jpg", ".jpeg", ".bmp"}:
        frame = cv2.imread(source, cv2.IMREAD_COLOR)
        if frame is None:
            raise OSError(f"cannot read image {source}")
    else:
        with open_source(source, resolution=config.resolution, fps=config.fps, deck=config.deck,
                         marker=config.marker) as camera:
            got = camera.read()
            if got is None:
                raise InvalidInput(f"{source} gave no frame")
            frame = got[0]
    calibration = calibrate(frame)
    out = Path(args.out) if args.out else (config.calibration or base / "calibration.json")
    save_calibration(calibration, out)
    w, h = calibration.image_size
    quality = "good" if calibration.reprojection_error_px < 1.0 else "poor: is the mat flat and sharp?"
    print(f"wrote {out}: {w}x{h}, reprojection error {calibration.reprojection_error_px:.2f} px ({quality})")
    return 0
