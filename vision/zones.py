"""Zones: named polygons of the table, in table millimetres (through a calibration) or in image
pixels (a fixed camera without a mat); with no zones at all the whole frame is the zone "table".
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.errors import InvalidInput

WHOLE_TABLE = "table"
ZONE_UNITS = ("mm", "px")


class ZoneMap:
    """Finds the zone an image point lies in.

    :param zones: zone name to polygon (a list of at least three (x, y) points).
    :param units: "mm" (table millimetres; needs ``image_to_table``) or "px" (image pixels).
    :param image_to_table: the calibration homography, image px to table mm.
    :raises InvalidInput: for a malformed polygon, unknown units, or mm zones without calibration.
    """

    def __init__(self, zones: dict | None = None, *, units: str = "mm", image_to_table: np.ndarray | None = None) -> None:
        if units not in ZONE_UNITS:
            raise InvalidInput(f"zone units {units!r} unknown: use 'mm' (table millimetres) or 'px' (image pixels)")
        self.units = units
        self.polygons: dict[str, np.ndarray] = {}
        for name, polygon in (zones or {}).items():
            try:
                points = np.asarray(polygon, dtype=np.float32).reshape(-1, 2)
            except (TypeError, ValueError):
                raise InvalidInput(f"zone {name!r} is not a list of [x, y] points") from None
            if len(points) < 3 or not np.isfinite(points).all():
                raise InvalidInput(f"zone {name!r} needs at least three [x, y] points")
            self.polygons[str(name)] = points
        if self.polygons and units == "mm" and image_to_table is None:
            raise InvalidInput("zones are in table millimetres but there is no calibration: "
                               "run 'cardtable calibrate' or give the zones in image pixels (zone_units = \"px\")")
        self.image_to_table = None if image_to_table is None else np.asarray(image_to_table, dtype=np.float64)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.polygons) or (WHOLE_TABLE,)

    def to_table(self, point: tuple[float, float]) -> tuple[float, float]:
        """An image point in table mm (needs a calibration)."""
        pts = cv2.perspectiveTransform(np.float64([[point]]), self.image_to_table)
        return float(pts[0, 0, 0]), float(pts[0, 0, 1])

    def locate(self, point: tuple[float, float]) -> str | None:
        """The zone holding image point ``point`` (px), "table" when there are no zones, None when
        the point is outside every zone."""
        if not self.polygons:
            return WHOLE_TABLE
        x, y = self.to_table(point) if self.units == "mm" else point
        for name, polygon in self.polygons.items():
            if cv2.pointPolygonTest(polygon, (float(x), float(y)), False) >= 0:
                return name
        return None

    def image_polygons(self) -> dict[str, np.ndarray]:
        """Each zone as a polygon in image pixels (for drawing)."""
        if self.units == "px" or not self.polygons:
            return dict(self.polygons)
        table_to_image = np.linalg.inv(self.image_to_table)
        return {name: cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float64), table_to_image).reshape(-1, 2)
                for name, p in self.polygons.items()}
