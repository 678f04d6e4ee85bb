"""Calibration from the mat on a rendered frame, zones, and the [vision] config loader."""

import cv2
import numpy as np
import pytest

from engine.errors import InvalidInput
from vision.calibration import calibrate, load_calibration, save_calibration
from vision.config import load_vision_config
from vision.sim.synthetic import DEFAULT_ZONES, SyntheticCamera
from vision.zones import ZoneMap


@pytest.fixture(scope="module")
def mat_frame():
    return SyntheticCamera("standard", "qr", [], resolution="720p", mat=True).frame_at(0)


def test_calibration_recovers_the_camera_and_round_trips(mat_frame, tmp_path):
    camera = SyntheticCamera("standard", "qr", [], resolution="720p")
    cal = calibrate(mat_frame)
    assert cal.reprojection_error_px < 1.0 and cal.image_size == (1280, 720)
    zones = ZoneMap(DEFAULT_ZONES, image_to_table=cal.image_to_table)
    for name, (x, y) in {"seat1": (0, 190), "seat4": (340, 0), "centre": (10, -10)}.items():
        px = cv2.perspectiveTransform(np.float64([[[x, y]]]), camera.homography)[0, 0]
        assert zones.locate(tuple(px)) == name
    save_calibration(cal, tmp_path / "cal.json")
    again = load_calibration(tmp_path / "cal.json")
    assert np.allclose(again.image_to_table, cal.image_to_table)


def test_calibration_without_the_mat_names_the_missing_markers():
    frame = SyntheticCamera("standard", "qr", [], resolution="720p").frame_at(0)
    with pytest.raises(InvalidInput, match="markers 96, 97, 98, 99 not found"):
        calibrate(frame)


def test_a_file_that_is_not_a_calibration_is_refused(tmp_path):
    (tmp_path / "x.json").write_text('{"format": "something"}')
    with pytest.raises(InvalidInput, match="not a cardtable calibration"):
        load_calibration(tmp_path / "x.json")


def test_config_defaults_and_errors(tmp_path):
    config = load_vision_config({"deck": "its15", "marker": "aruco", "calibration": "cal.json"}, tmp_path)
    assert config.effective_decoder == "aruco" and config.calibration == tmp_path / "cal.json"
    assert config.place_after == 0.0 and config.remove_after == 30.0
    for section, words in [({"deck": "uno"}, "deck"), ({"decoder": "x"}, "decoder"), ({"remove_after": -1}, "remove_after"),
                           ({"place_after": 40}, "longer than"), ({"zonez": {}}, "unknown"), ({"resolution": [1]}, "resolution")]:
        with pytest.raises(InvalidInput, match=words):
            load_vision_config(section)


def test_zones_in_mm_need_a_calibration_and_px_zones_do_not():
    with pytest.raises(InvalidInput, match="calibrate"):
        ZoneMap({"a": [[0, 0], [1, 0], [1, 1]]})
    zones = ZoneMap({"left": [[0, 0], [100, 0], [100, 100], [0, 100]]}, units="px")
    assert zones.locate((50, 50)) == "left" and zones.locate((150, 50)) is None
    assert ZoneMap().locate((5, 5)) == "table"
    with pytest.raises(InvalidInput, match="three"):
        ZoneMap({"a": [[0, 0], [1, 1]]}, units="px")
