"""The owner's camera view: the latest frame with the zones and the cards the pipeline follows."""

from __future__ import annotations

import cv2
import numpy as np
from starlette.testclient import TestClient

from cardtable.sim.camera import SimCamera
from cardtable.web.app import COOKIE, OwnerTools, ViewHub, create_app
from cardtable.web.camera_view import FrameTap
from cardtable.web.owner import PinGate
from vision.sources import open_source


def zone_pixels(image) -> int:
    return int(np.count_nonzero((image[:, :, 0] > 200) & (image[:, :, 1] > 100) & (image[:, :, 1] < 180)
                                & (image[:, :, 2] < 60)))


def test_the_owner_sees_the_camera_with_its_zones_drawn_and_spectators_do_not():
    sim = SimCamera("standard", ["seat1", "seat2", "starter"])
    tap = FrameTap(open_source("synthetic", resolution=(1920, 1080)), sim.pipeline)
    try:
        assert tap.jpeg() is None                         # no frame yet
        frame, now = tap.read()
        sim.pipeline.process(frame, now)
        gate = PinGate("2468")
        client = TestClient(create_app(ViewHub(), owner=OwnerTools(gate, camera=tap.jpeg)))
        assert client.get("/owner/camera.jpg").status_code == 403
        client.cookies.set(COOKIE, gate.login("2468"))
        response = client.get("/owner/camera.jpg")
        assert response.status_code == 200 and response.headers["content-type"] == "image/jpeg"
        drawn = cv2.imdecode(np.frombuffer(response.content, np.uint8), cv2.IMREAD_COLOR)
        assert drawn.shape == frame.shape
        # the zones are drawn in blue (BGR 255, 140, 0): far more such pixels than in the picture itself
        assert zone_pixels(drawn) > zone_pixels(frame) + 500
    finally:
        tap.close()
        sim.close()
