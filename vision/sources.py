"""Frame sources behind one interface: a USB camera (OpenCV, MJPG, one-frame buffer), the Pi
camera (picamera2, imported only when used), a video file, a folder of images, the synthetic
camera.

Every source has ``read() -> (frame, time) | None`` (BGR frame, seconds; None when a file or
folder is finished) and ``close()``, and is a context manager. Files and folders are timed by
their frame index at ``fps``; cameras by the monotonic clock.

Source text, as in the config's ``camera`` key or on the command line: ``usb:0`` (or
``/dev/video0``), ``picamera``, ``synthetic`` (optionally ``synthetic:SCRIPT_FILE``), a video
file, or a folder of frames (read in name order).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from engine.errors import InvalidInput

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class FrameSource(Protocol):
    def read(self) -> tuple[np.ndarray, float] | None: ...

    def close(self) -> None: ...


class _Closing:
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        pass


class UsbCamera(_Closing):
    """A UVC camera through OpenCV's V4L2 backend: MJPG (so 1080p runs at 30 fps), the size
    asked for, and a one-frame buffer so a slow reader never gets stale frames.

    :raises OSError: when the camera cannot be opened.
    """

    def __init__(self, device: int | str = 0, resolution: tuple[int, int] = (1920, 1080), fps: float = 30) -> None:
        self._cap = cv2.VideoCapture(device, cv2.CAP_V4L2)
        if not self._cap.isOpened():
            raise OSError(f"cannot open camera {device!r}: is it plugged in, and are you in the 'video' group?")
        self._cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, resolution[0])
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, resolution[1])
        self._cap.set(cv2.CAP_PROP_FPS, fps)
        self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def read(self) -> tuple[np.ndarray, float] | None:
        ok, frame = self._cap.read()
        if not ok:
            raise OSError("the camera stopped sending frames")
        return frame, time.monotonic()

    def close(self) -> None:
        self._cap.release()


class PiCamera(_Closing):
    """A Raspberry Pi camera module through picamera2 (libcamera), BGR frames, no queue.

    :raises OSError: when picamera2 is not installed or the camera cannot start.
    """

    def __init__(self, resolution: tuple[int, int] = (1920, 1080), fps: float = 30) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as err:
            raise OSError(f"the Pi camera needs picamera2: sudo apt install python3-picamera2 ({err})") from None
        self._cam = Picamera2()
        config = self._cam.create_video_configuration(
            main={"size": tuple(resolution), "format": "RGB888"}, controls={"FrameRate": fps},
            buffer_count=4, queue=False)
        self._cam.configure(config)
        self._cam.start()

    def read(self) -> tuple[np.ndarray, float] | None:
        return self._cam.capture_array("main"), time.monotonic()

    def close(self) -> None:
        self._cam.close()


class VideoFileSource(_Closing):
    """The frames of a video file, timed ``index / fps``.

    :raises OSError: when the file cannot be opened as a video.
    """

    def __init__(self, path: str | Path, fps: float = 30) -> None:
        self._cap = cv2.VideoCapture(str(path))
        if not self._cap.isOpened():
            raise OSError(f"cannot read {path} as a video")
        self.fps, self._index = fps, 0

    def read(self) -> tuple[np.ndarray, float] | None:
        ok, frame = self._cap.read()
        if not ok:
            return None
        self._index += 1
        return frame, (self._index - 1) / self.fps

    def close(self) -> None:
        self._cap.release()


class ImageFolderSource(_Closing):
    """The images of a folder in name order, timed ``index / fps``.

    :raises OSError: when the folder has no images or one cannot be read.
    """

    def __init__(self, folder: str | Path, fps: float = 30) -> None:
        self.paths = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise OSError(f"no images ({', '.join(sorted(IMAGE_SUFFIXES))}) in {folder}")
        self.fps, self._index = fps, 0

    def read(self) -> tuple[np.ndarray, float] | None:
        if self._index >= len(self.paths):
            return None
        path = self.paths[self._index]
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise OSError(f"cannot read image {path}")
        self._index += 1
        return frame, (self._index - 1) / self.fps


class SyntheticSource(_Closing):
    """Frames of a :class:`vision.synthetic.SyntheticCamera` at ``fps`` until ``duration``."""

    def __init__(self, camera, fps: float = 30, duration: float | None = None) -> None:
        self.camera, self.fps, self.duration, self._index = camera, fps, duration, 0

    def read(self) -> tuple[np.ndarray, float] | None:
        t = self._index / self.fps
        if self.duration is not None and t > self.duration:
            return None
        self._index += 1
        return self.camera.frame_at(t), t


def open_source(spec: str, *, resolution: tuple[int, int] = (1920, 1080), fps: float = 30,
                deck: str = "standard", marker: str = "qr") -> FrameSource:
    """Open the frame source named by ``spec`` (see the module docstring).

    :raises OSError: when the device, file or folder cannot be opened.
    :raises InvalidInput: for a synthetic script that cannot be read.
    """
    if spec.startswith("usb:"):
        index = spec[4:]
        if not index.isdigit():
            raise InvalidInput(f"camera {spec!r}: write usb:0, usb:1, ...")
        return UsbCamera(int(index), resolution, fps)
    if spec.startswith("/dev/video"):
        return UsbCamera(spec, resolution, fps)
    if spec == "picamera":
        return PiCamera(resolution, fps)
    if spec == "synthetic" or spec.startswith("synthetic:"):
        from vision.script import parse_script
        from vision.synthetic import SyntheticCamera

        script = parse_script(Path(spec[len("synthetic:"):]).read_text()) if ":" in spec else []
        duration = max((getattr(m, "t", 0) + getattr(m, "duration", 0) for m in script), default=0) + 4.0
        camera = SyntheticCamera(deck, marker, script, resolution=resolution)
        return SyntheticSource(camera, fps, duration if script else None)
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, fps)
    if path.is_file():
        return VideoFileSource(path, fps)
    raise OSError(f"no camera, video file or folder called {spec!r}")
