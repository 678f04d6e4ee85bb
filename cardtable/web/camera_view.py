"""The camera's annotated picture for the owner's page: :class:`FrameTap` stands in front of a
frame source, keeps its latest frame, and draws it with :func:`vision.annotate.annotate` when
the page asks (at most a few times a second, on the web server's thread)."""

from __future__ import annotations

import threading


class FrameTap:
    """A frame source that also keeps the latest frame for :meth:`jpeg`."""

    def __init__(self, source, pipeline) -> None:
        self.source, self.pipeline = source, pipeline
        self._lock = threading.Lock()
        self._frame = None

    def read(self):
        got = self.source.read()
        if got is not None:
            with self._lock:
                self._frame = got[0]
        return got

    def close(self) -> None:
        self.source.close()

    def jpeg(self) -> bytes | None:
        """The latest frame with the zones and the cards followed, as JPEG (``None``: no frame yet)."""
        import cv2

        from vision.annotate import annotate
        from vision.frames import Frame

        with self._lock:
            frame = self._frame
        if frame is None:
            return None
        frame = Frame.of(frame).colour()
        for _ in range(3):          # the camera thread may change what it follows while we draw
            try:
                drawn = annotate(frame, self.pipeline)
                break
            except RuntimeError:
                continue
        else:
            drawn = frame
        ok, data = cv2.imencode(".jpg", drawn, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return data.tobytes() if ok else None
