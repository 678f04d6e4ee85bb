"""Frame sources behind one interface: a USB camera (OpenCV, MJPG, one-frame buffer), the Pi
camera (picamera2, imported only when used), a video file, a folder of images (or one image),
the synthetic camera.

Every source has ``read() -> (frame, time) | None`` (a :class:`vision.frames.Frame`, or a BGR
array from the synthetic camera; seconds; None when a file or folder is finished) and ``close()``, and is a context manager. Files and
folders are timed by their frame index at ``fps``; cameras by the monotonic clock.

Frames are decoded grey, and colour only when asked (:mod:`vision.frames`): a USB camera hands
over its MJPG bytes undecoded, the Pi camera gives YUV (the Y plane is the grey frame), a folder
hands over its JPEG files' bytes. A file in a folder that cannot be read is skipped and listed in
``skipped`` (name and reason), never the end of the folder.

Source text, as in the config's ``camera`` key or on the command line: ``usb:0`` (or
``/dev/video0``), ``picamera``, ``synthetic`` (optionally ``synthetic:SCRIPT_FILE``;
``synthetic+mat`` lays the calibration mat on its table), a video file, a folder of frames (read
in name order), or one image.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from engine.errors import InvalidInput
from vision.frames import BadFrame, Frame

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class FrameSource(Protocol):
    def read(self) -> tuple[Frame | np.ndarray, float] | None: ...

    def close(self) -> None: ...


class _Closing:
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        pass


@contextlib.contextmanager
def quiet_opencv() -> Iterator[None]:
    """Silence OpenCV's own log (its camera and codec warnings) while probing a device or file:
    what went wrong is said once, in a sentence, by the caller."""
    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        logging.setLogLevel(level)


def frame_from_capture(data: np.ndarray) -> Frame | None:
    """A frame from what OpenCV's V4L2 capture gives with RGB conversion off: the MJPG bytes
    (one row of bytes), or a BGR or grey image; None for anything else (a raw YUYV buffer).

    :raises BadFrame: for MJPG bytes that are not a usable JPEG.
    """
    if data.ndim == 3 and data.shape[2] == 3:
        return Frame(bgr=data)
    if data.ndim == 2 and data.shape[0] > 1:
        return Frame(grey=data)
    raw = data.reshape(-1)
    if raw.size >= 2 and raw[0] == 0xFF and raw[1] == 0xD8:
        return Frame(jpeg=raw.tobytes())
    return None


def frame_from_yuv420(yuv: np.ndarray, size: tuple[int, int]) -> Frame:
    """A frame from a YUV420 (I420) buffer of ``size`` (width, height), as picamera2 gives it
    (rows possibly padded wider): the Y plane is the grey frame; colour is converted only when
    asked."""
    width, height = size
    return Frame(grey=yuv[:height, :width], colour=lambda: cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420)[:, :width])


class UsbCamera(_Closing):
    """A UVC camera through OpenCV's V4L2 backend: MJPG (so 1080p runs at 30 fps) handed over
    undecoded (decoded grey, colour only on demand), the size asked for, and a one-frame buffer
    so a slow reader never gets stale frames. A camera that does not send MJPG gives BGR frames.

    :raises OSError: when the camera cannot be opened.
    """

    def __init__(self, device: int | str = 0, resolution: tuple[int, int] = (1920, 1080), fps: float = 30) -> None:
        with quiet_opencv():
            self._cap = cv2.VideoCapture(device, cv2.CAP_V4L2)
            opened = self._cap.isOpened()
        if not opened:
            raise OSError(f"cannot open camera {device!r}: is it plugged in, and are you in the 'video' group?")
        self._cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, resolution[0])
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, resolution[1])
        self._cap.set(cv2.CAP_PROP_FPS, fps)
        self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._cap.set(cv2.CAP_PROP_CONVERT_RGB, 0)

    def read(self) -> tuple[Frame, float] | None:
        frame = frame_from_capture(self._grab())
        if frame is None:  # not MJPG: let OpenCV convert from now on
            self._cap.set(cv2.CAP_PROP_CONVERT_RGB, 1)
            frame = frame_from_capture(self._grab())
            if frame is None:
                raise OSError("the camera sends frames in a format cardtable cannot read: choose MJPG")
        return frame, time.monotonic()

    def _grab(self) -> np.ndarray:
        ok, data = self._cap.read()
        if not ok:
            raise OSError("the camera stopped sending frames")
        return data

    def close(self) -> None:
        self._cap.release()


def _import_picamera2():
    """picamera2's camera class, or OSError saying how to install it or mend the environment."""
    try:
        from picamera2 import Picamera2
    except ImportError as err:
        raise OSError("the Pi camera needs picamera2, which comes from apt: sudo apt install python3-picamera2, "
                      f"and a venv made with --system-site-packages ({err})") from None
    except ValueError as err:  # "numpy.dtype size changed": apt's picamera2 with PyPI's numpy
        raise OSError("picamera2 (from apt) was built against apt's numpy, but this environment has another "
                      "numpy from PyPI: make the venv with --system-site-packages and use apt's numpy "
                      f"(pip uninstall numpy; sudo apt install python3-numpy) ({err})") from None
    return Picamera2


class PiCamera(_Closing):
    """A Raspberry Pi camera module through picamera2 (libcamera), YUV420 frames (the Y plane is
    the grey frame, colour converted only when asked), no queue.

    :raises OSError: when picamera2 is not installed or does not load, or the camera cannot start.
    """

    def __init__(self, resolution: tuple[int, int] = (1920, 1080), fps: float = 30) -> None:
        self._cam = _import_picamera2()()
        self.size = (int(resolution[0]), int(resolution[1]))
        config = self._cam.create_video_configuration(
            main={"size": self.size, "format": "YUV420"}, controls={"FrameRate": fps},
            buffer_count=4, queue=False)
        self._cam.configure(config)
        self._cam.start()

    def read(self) -> tuple[Frame, float] | None:
        return frame_from_yuv420(self._cam.capture_array("main"), self.size), time.monotonic()

    def close(self) -> None:
        self._cam.close()


class VideoFileSource(_Closing):
    """The frames of a video file, timed ``index / fps`` (grey decoded from each frame, colour kept
    for whoever asks).

    :raises OSError: when the file cannot be opened as a video.
    """

    def __init__(self, path: str | Path, fps: float = 30) -> None:
        with quiet_opencv():
            self._cap = cv2.VideoCapture(str(path))
            opened = self._cap.isOpened()
        if not opened:
            raise OSError(f"cannot read {path} as a video")
        self.fps, self._index = fps, 0
        self.skipped: list[tuple[str, str]] = []

    def read(self) -> tuple[Frame, float] | None:
        with quiet_opencv():
            ok, frame = self._cap.read()
        if not ok:
            return None
        self._index += 1
        return Frame(bgr=frame), (self._index - 1) / self.fps

    def close(self) -> None:
        self._cap.release()


def read_image(path: Path) -> Frame:
    """One image file as a frame: a JPEG's bytes as they are (decoded when needed), any other
    image decoded grey.

    :raises BadFrame: for a file that is empty, not an image, or absurdly large.
    :raises OSError: when the file cannot be read at all.
    """
    data = path.read_bytes()
    if not data:
        raise BadFrame("an empty file")
    if data[:2] == b"\xff\xd8":
        return Frame(jpeg=data)
    try:
        with quiet_opencv():
            grey = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    except cv2.error:
        raise BadFrame("an image too large or damaged to read") from None
    if grey is None:
        raise BadFrame("not an image")
    return Frame(grey=grey)


class ImageFolderSource(_Closing):
    """The images of a folder in name order (or the given image files), timed ``index / fps``;
    a file that cannot be read is skipped and listed in ``skipped``.

    :raises OSError: when the folder has no images.
    """

    def __init__(self, folder: str | Path | list[Path], fps: float = 30) -> None:
        if isinstance(folder, list):
            self.paths = folder
        else:
            self.paths = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self.paths:
                raise OSError(f"no images ({', '.join(sorted(IMAGE_SUFFIXES))}) in {folder}")
        self.fps, self._index = fps, 0
        self.skipped: list[tuple[str, str]] = []

    def read(self) -> tuple[Frame, float] | None:
        while self._index < len(self.paths):
            path = self.paths[self._index]
            self._index += 1
            try:
                return read_image(path), (self._index - 1) / self.fps
            except (BadFrame, OSError) as err:
                self.skipped.append((path.name, str(err)))
        return None


class SyntheticSource(_Closing):
    """Frames of a :class:`vision.sim.synthetic.SyntheticCamera` at ``fps`` until ``duration``."""

    def __init__(self, camera, fps: float = 30, duration: float | None = None) -> None:
        self.camera, self.fps, self.duration, self._index = camera, fps, duration, 0

    def read(self) -> tuple[np.ndarray, float] | None:
        t = self._index / self.fps
        if self.duration is not None and t > self.duration:
            return None
        self._index += 1
        return self.camera.frame_at(t), t


def open_source(spec: str, *, resolution: tuple[int, int] = (1920, 1080), fps: float = 30,
                deck: str = "standard", marker: str = "qr", zones: dict | None = None) -> FrameSource:
    """Open the frame source named by ``spec`` (see the module docstring). ``zones`` (table mm)
    are the synthetic camera's zones (its own default zones without them).

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
    name, _, script_file = spec.partition(":")
    if name in ("synthetic", "synthetic+mat"):
        from vision.sim.script import parse_script
        from vision.sim.synthetic import SyntheticCamera

        script = parse_script(Path(script_file).read_text()) if script_file else []
        duration = max((getattr(m, "t", 0) + getattr(m, "duration", 0) for m in script), default=0) + 4.0
        camera = SyntheticCamera(deck, marker, script, resolution=resolution, zones=zones or None,
                                 mat=name == "synthetic+mat")
        return SyntheticSource(camera, fps, duration if script else None)
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, fps)
    if path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFolderSource([path], fps)
    if path.is_file():
        return VideoFileSource(path, fps)
    raise OSError(f"no camera, video file or folder called {spec!r}")


def open_configured(config, spec: str | None = None, *, fps: float | None = None) -> FrameSource:
    """The source a checked ``[vision]`` config names (or ``spec`` instead), at the config's
    resolution and rate; the synthetic camera lays the config's deck in the config's zones."""
    return open_source(spec or config.camera, resolution=config.resolution, fps=fps or config.fps,
                       deck=config.deck, marker=config.marker,
                       zones=config.zones if config.zone_units == "mm" else None)
