"""Calibration: the image-to-table homography from the printed mat's four ArUco markers.

The mat (``cardtable print-mat``) carries markers 96-99 of ``DICT_4X4_100``, 50 mm square, centred
at (-105, -65), (105, -65), (105, 65) and (-105, 65) mm from the mat centre (x right, y towards
seat 1). Lay it flat in the middle of the table; table millimetres are then measured from its
centre. A calibration is stored as JSON with the homography and the reprojection error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.errors import InvalidInput
from engine.outside_files import read_json
from vision.decoders import ArucoDecoder
from vision.markers import MAT_MARKER_CENTRES, MAT_MARKER_IDS, MAT_MARKER_MM

FORMAT = "cardtable-calibration-1"


@dataclass(frozen=True)
class Calibration:
    """``image_to_table`` (3x3, image px to table mm), the ``image_size`` (w, h) it was made at
    and the mean ``reprojection_error_px`` of the mat corners."""

    image_to_table: np.ndarray
    image_size: tuple[int, int]
    reprojection_error_px: float


def mat_corners_mm(marker_id: int) -> np.ndarray:
    """The four corners (TL, TR, BR, BL) of mat marker ``marker_id`` in table mm."""
    cx, cy = MAT_MARKER_CENTRES[MAT_MARKER_IDS.index(marker_id)]
    h = MAT_MARKER_MM / 2
    return np.float32([(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)])


def calibrate(image: np.ndarray) -> Calibration:
    """Find the mat in ``image`` (BGR or grey) and compute the homography.

    :raises InvalidInput: when the mat's markers are not all visible, naming the missing ones.
    """
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = {d.value: d.corners for d in ArucoDecoder().decode(gray) if d.value in MAT_MARKER_IDS}
    missing = [m for m in MAT_MARKER_IDS if m not in found]
    if missing:
        raise InvalidInput(
            f"the calibration mat is not fully in view: markers {', '.join(map(str, missing))} not found "
            f"(found {', '.join(map(str, sorted(found))) or 'none'}); lay the mat flat under the camera, in good light"
        )
    image_pts = np.concatenate([found[m] for m in MAT_MARKER_IDS]).astype(np.float64)
    table_pts = np.concatenate([mat_corners_mm(m) for m in MAT_MARKER_IDS]).astype(np.float64)
    homography, _ = cv2.findHomography(image_pts, table_pts, 0)
    back = cv2.perspectiveTransform(table_pts.reshape(-1, 1, 2), np.linalg.inv(homography)).reshape(-1, 2)
    error = float(np.linalg.norm(back - image_pts, axis=1).mean())
    return Calibration(homography, (gray.shape[1], gray.shape[0]), error)


def save_calibration(calibration: Calibration, path: str | Path) -> None:
    """Write ``calibration`` as JSON to ``path``."""
    data = {"format": FORMAT, "image_size": list(calibration.image_size),
            "image_to_table": calibration.image_to_table.tolist(),
            "reprojection_error_px": round(calibration.reprojection_error_px, 4)}
    Path(path).write_text(json.dumps(data, indent=2) + "\n")


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration file (the one safe way: :func:`engine.outside_files.read_json`).

    :raises OSError: when the file is missing or may not be read.
    :raises InvalidInput: when it is not a cardtable calibration (or no regular file, too large,
        not UTF-8, nested too deeply).
    """
    data = read_json(path, "calibration")
    try:
        if data.get("format") != FORMAT:
            raise ValueError("format")
        matrix = np.asarray(data["image_to_table"], dtype=np.float64)
        if matrix.shape != (3, 3) or not np.isfinite(matrix).all():
            raise ValueError("matrix")
        return Calibration(matrix, tuple(int(v) for v in data["image_size"]), float(data["reprojection_error_px"]))
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
        raise InvalidInput(f"{path} is not a cardtable calibration file: run 'cardtable calibrate' again") from None
