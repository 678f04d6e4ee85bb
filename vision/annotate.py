"""Annotated frames for setting up a camera: zones, the cards the pipeline follows, the last
events, and the areas being decoded."""

from __future__ import annotations

import cv2
import numpy as np

from engine.table_events import TableEvent


def annotate(frame: np.ndarray, pipeline, events: list[TableEvent] = ()) -> np.ndarray:
    """A copy of ``frame`` with ``pipeline``'s zones (blue), followed cards (green when seen,
    grey when hidden), the other card outlines its recogniser read (for faces: the face and its
    confidence, or "unknown" in red) and ``events`` written at the top."""
    out = frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    scale = max(out.shape[0] / 720, 0.6)
    for name, polygon in pipeline.zones.image_polygons().items():
        pts = np.round(polygon).astype(np.int32)
        cv2.polylines(out, [pts], True, (255, 140, 0), max(1, int(2 * scale)), cv2.LINE_AA)
        x, y = pts.min(axis=0)
        cv2.putText(out, name, (int(x) + 6, int(y) + int(24 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.7 * scale, (255, 140, 0), max(1, int(2 * scale)), cv2.LINE_AA)
    seen = {s.card.id for s in pipeline.sightings}
    for known in pipeline.known.values():
        colour = (60, 200, 60) if known.card.id in seen else (150, 150, 150)
        pts = np.round(known.corners).astype(np.int32)
        cv2.polylines(out, [pts], True, colour, max(1, int(2 * scale)), cv2.LINE_AA)
        label = f"{known.card.id} {known.zone or '-'}"
        cv2.putText(out, label, (int(pts[:, 0].min()), int(pts[:, 1].min()) - 6), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6 * scale, colour, max(1, int(2 * scale)), cv2.LINE_AA)
    for quad, label, colour in pipeline.recogniser.outlines():
        pts = np.round(quad).astype(np.int32)
        cv2.polylines(out, [pts], True, colour, max(1, int(2 * scale)), cv2.LINE_AA)
        cv2.putText(out, label, (int(pts[:, 0].min()), int(pts[:, 1].max()) + int(22 * scale)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, colour, max(1, int(2 * scale)), cv2.LINE_AA)
    for i, event in enumerate(events):
        text = f"{event.kind} {event.card.id} {event.zone}"
        cv2.putText(out, text, (10, int((30 + 28 * i) * scale)), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale,
                    (0, 255, 255), max(1, int(2 * scale)), cv2.LINE_AA)
    return out
