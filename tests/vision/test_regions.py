"""The views of a changed region: crop, enlarged crop, average of the still frames."""

import numpy as np

from vision.regions import RegionReader

BOX = (0, 0, 40, 30)


def crop(value):
    return np.full((30, 40), value, np.uint8)


def test_a_still_region_is_averaged_over_the_frames_it_stayed_still():
    reader = RegionReader(enlarge=False)
    assert [scale for _, scale in reader.views(crop(100), BOX, still=True)] == [1.0]
    reader.end_frame()
    views = list(reader.views(crop(120), BOX, still=True))
    assert len(views) == 2 and int(views[1][0][0, 0]) == 110  # the mean of 100 and 120


def test_qr_regions_are_enlarged_and_moving_regions_never_averaged():
    reader = RegionReader(enlarge=True)
    for _ in range(3):
        views = list(reader.views(crop(90), BOX, still=False))
        reader.end_frame()
    assert [(v.shape, s) for v, s in views] == [((30, 40), 1.0), ((60, 80), 2.0)]


def test_a_region_not_read_this_frame_starts_its_average_again():
    reader = RegionReader(enlarge=False)
    list(reader.views(crop(0), BOX, still=True))
    reader.end_frame()
    reader.end_frame()  # explained, or it changed shape: its old frames are dropped
    assert [s for _, s in reader.views(crop(200), BOX, still=True)] == [1.0]
