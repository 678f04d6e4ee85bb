"""Frame sources and bad frames: grey decoding, colour only on demand, and files, frames and
cameras that cannot be used are said in words, counted and skipped, never a traceback."""

import json
import struct
import sys
import tempfile
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cardtable.cli import main
from engine.table_events import TableEvent
from vision.config import VisionConfig
from vision.frames import BadFrame, jpeg_size
from vision.pipeline import Pipeline
from vision.sim.script import parse_script
from vision.sources import (ImageFolderSource, PiCamera, frame_from_capture, frame_from_yuv420, open_source,
                            read_image)
from vision.sim.synthetic import SyntheticCamera


def png_declaring(width, height):
    """A PNG header that declares ``width`` x ``height`` pixels (and holds almost nothing)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))


def jpeg_declaring(width, height):
    data = bytearray(cv2.imencode(".jpg", np.zeros((8, 8), np.uint8))[1].tobytes())
    at = data.index(b"\xff\xc0")
    data[at + 5:at + 9] = struct.pack(">HH", height, width)
    return bytes(data)


@pytest.fixture
def frames(tmp_path):
    """A folder of JPEG frames of a card laid at 0.2 s (720p, 10 fps)."""
    camera = SyntheticCamera("standard", "qr", parse_script("0.2 place KD seat1"), resolution="720p", seed=5)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(12):
        cv2.imwrite(str(folder / f"{i:03d}.jpg"), camera.frame_at(i / 10), [cv2.IMWRITE_JPEG_QUALITY, 90])
    return folder


def test_jpeg_frames_are_read_grey_and_never_decoded_in_colour(frames):
    pipeline = Pipeline(VisionConfig())
    seen = []
    with ImageFolderSource(frames, 10) as source:
        while (got := source.read()) is not None:
            seen.append(got[0])
            pipeline.process(*got)
    assert pipeline.tracker.on_table == {"KD": "table"}
    assert all(frame._bgr is None for frame in seen)            # colour never decoded
    # full grey only where a region was read (the table's glare spot, which stands out of the
    # first frame, is tried a few times as what might be a card already lying there)
    assert sum(frame._grey is not None for frame in seen) < 10
    region = seen[-1].colour((10, 20, 50, 40))                   # colour of a region, on demand
    assert region.shape == (20, 40, 3)


def test_mjpg_bytes_from_a_camera_become_lazy_frames():
    jpeg = cv2.imencode(".jpg", np.full((48, 64, 3), 90, np.uint8))[1]
    frame = frame_from_capture(jpeg.reshape(1, -1))
    assert frame.size == (64, 48) and frame.small(8).shape == (6, 8)
    assert frame_from_capture(np.zeros((1, 100), np.uint8)) is None   # a raw YUYV buffer: not MJPG
    assert frame_from_capture(np.zeros((4, 4, 3), np.uint8)).size == (4, 4)
    assert frame_from_capture(np.zeros((4, 6), np.uint8)).size == (6, 4)


def test_a_pi_camera_yuv_buffer_is_grey_at_once_and_colour_on_demand():
    bgr = SyntheticCamera("standard", "qr", parse_script("0 place 4D seat1"), resolution=(320, 240)).frame_at(0.5)
    frame = frame_from_yuv420(cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420), (320, 240))
    assert frame.size == (320, 240) and frame._bgr is None
    # The Y plane is video-range luma: the grey picture up to a scale and an offset.
    assert np.corrcoef(frame.grey().ravel(), cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).ravel())[0, 1] > 0.99
    assert np.abs(frame.colour((0, 0, 320, 240)).astype(int) - bgr).mean() < 6


@pytest.mark.parametrize("data, words", [
    (b"", "empty"), (b"hello", "not a JPEG"), (jpeg_declaring(60000, 60000), "no camera gives"),
])
def test_jpeg_headers_are_checked_before_decoding(data, words):
    with pytest.raises(BadFrame, match=words):
        jpeg_size(data)


def test_a_replay_skips_and_counts_frames_it_cannot_use(frames, capfd):
    (frames / "004.jpg").write_bytes(b"")                                          # zero bytes
    (frames / "005.png").write_bytes(png_declaring(60000, 60000))                  # absurd size
    (frames / "006.jpg").write_bytes(jpeg_declaring(60000, 60000))
    cv2.imwrite(str(frames / "007.png"), np.zeros((100, 200, 3), np.uint8))        # another size
    capfd.readouterr()
    assert main(["vision", "replay", str(frames), "--fps", "10", "--json"]) == 0
    out, err = capfd.readouterr()
    assert [json.loads(line)["type"] for line in out.splitlines()] == ["placed"]
    assert "skipped 4 frames" in err and "004.jpg: an empty file" in err and "frame" in err
    assert "Traceback" not in err


def test_a_text_file_named_jpg_is_said_not_to_be_an_image_and_fails(tmp_path, capfd):
    fake = tmp_path / "fake.jpg"
    fake.write_text("not a picture\n")
    assert main(["vision", "replay", str(fake)]) == 2
    err = capfd.readouterr().err
    assert "no frame could be read" in err and "fake.jpg: not an image" in err
    assert "ffmpeg" not in err.lower() and "WARN" not in err


def test_a_missing_camera_is_one_clear_sentence_without_opencv_warnings(capfd):
    assert main(["vision", "watch", "--source", "usb:7", "--out", "/tmp/never-written"]) == 2
    err = capfd.readouterr().err
    assert "cannot open camera 7" in err
    assert "WARN" not in err and "VIDEOIO" not in err


def test_picamera2_built_against_another_numpy_is_explained(tmp_path, monkeypatch):
    # What apt's picamera2 raises under PyPI's numpy 2 ("numpy.dtype size changed").
    package = tmp_path / "picamera2"
    package.mkdir()
    (package / "__init__.py").write_text(
        'raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. '
        'Expected 96 from C header, got 88 from PyObject")\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    with pytest.raises(OSError, match="system-site-packages.*apt's numpy"):
        PiCamera()


def test_the_synthetic_camera_takes_the_config_zones_and_lays_the_mat_for_calibrate(tmp_path, capsys):
    (tmp_path / "table.toml").write_text(
        '[vision]\ncalibration = "cal.json"\nresolution = [1280, 720]\n[vision.zones]\n'
        'near = [[-450, 30], [450, 30], [450, 260], [-450, 260]]\n'
        'far = [[-450, -260], [450, -260], [450, -30], [-450, -30]]\n')
    script = tmp_path / "s.txt"
    script.write_text("0.3 place 9C near\n1.2 slide 9C far 0.5\n")
    config = str(tmp_path / "table.toml")
    assert main(["calibrate", "--config", config, "--source", "synthetic+mat"]) == 0
    assert "(good)" in capsys.readouterr().out
    assert main(["vision", "replay", f"synthetic:{script}", "--config", config, "--fps", "15", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(d["type"], d["card"], d["zone"]) for d in lines] == [("placed", "9C", "near"), ("moved", "9C", "far")]


@pytest.mark.slow
def test_watch_out_frames_replay_to_the_same_events(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("0.2 place 2H seat1\n0.6 place 5S centre\n")
    out = tmp_path / "w"
    assert main(["vision", "watch", "--source", f"synthetic:{script}", "--out", str(out), "--frames", "30"]) == 0
    watched = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert (out / "annotated" / "latest.jpg").exists() and len(list(out.glob("frame_*.jpg"))) == 30
    assert main(["vision", "replay", str(out), "--json"]) == 0
    replayed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(d["type"], d["card"]) for d in replayed] == [(d["type"], d["card"]) for d in watched] == \
        [("placed", "2H"), ("placed", "5S")]
    raw = tmp_path / "raw"
    assert main(["vision", "watch", "--source", f"synthetic:{script}", "--out", str(raw), "--frames", "2", "--raw"]) == 0
    assert not (raw / "annotated").exists() and len(list(raw.glob("*.jpg"))) == 2


def test_open_source_names_a_single_image_file(tmp_path):
    path = tmp_path / "one.png"
    cv2.imwrite(str(path), np.full((40, 60), 128, np.uint8))
    with open_source(str(path)) as source:
        frame, t = source.read()
        assert frame.size == (60, 40) and t == 0 and source.read() is None


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.binary(max_size=300),
                 st.binary(max_size=300).map(lambda b: jpeg_declaring(64, 48)[:40] + b),
                 st.binary(max_size=300).map(lambda b: png_declaring(64, 48) + b)))
def test_random_file_bytes_never_raise_past_the_source_or_the_pipeline(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "frame.jpg"
        path.write_bytes(data)
        try:
            frame = read_image(path)
        except BadFrame:
            return
        pipeline = Pipeline(VisionConfig())
        assert not [e for e in pipeline.process(frame, 0.0) if isinstance(e, TableEvent)] and pipeline.stats.frames + pipeline.stats.bad_frames == 1
