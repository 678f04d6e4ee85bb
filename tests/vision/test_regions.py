"""The views of a changed region: crop, enlarged crop, running mean of the still frames."""

import numpy as np

from vision.regions import RegionReader

SHAPE = (64, 96)                      # a frame of 8 x 12 cells of 8 px
BOX = (16, 8, 56, 40)                 # x0, y0, x1, y1
STILL = np.zeros((8, 12), bool)


def frame(value):
    return np.full(SHAPE, value, np.uint8)


def read(reader, value, moving=STILL):
    reader.begin_frame(SHAPE, moving)
    x0, y0, x1, y1 = BOX
    return list(reader.views(frame(value)[y0:y1, x0:x1], BOX))


def test_a_still_region_is_averaged_over_the_frames_it_stayed_still():
    reader = RegionReader(enlarge=False)
    assert [scale for _, scale in read(reader, 100)] == [1.0]
    views = read(reader, 120)
    assert len(views) == 2 and int(views[1][0][0, 0]) == 110  # the mean of 100 and 120
    assert int(read(reader, 140)[1][0][0, 0]) == 120


def test_the_mean_restarts_where_something_moved():
    reader = RegionReader(enlarge=False)
    read(reader, 0)
    moving = STILL.copy()
    moving[1:3, 2:4] = True           # the top-left cells of the box
    views = read(reader, 200, moving)
    mean = views[1][0]
    assert int(mean[0, 0]) == 200 and int(mean[-1, -1]) == 100


def test_qr_regions_are_enlarged_three_times_when_averaged():
    reader = RegionReader(enlarge=True)
    read(reader, 90)
    views = read(reader, 90)
    assert [(v.shape, s) for v, s in views] == [((32, 40), 1.0), ((64, 80), 2.0), ((96, 120), 3.0)]


def test_a_cell_counts_once_a_frame_even_in_two_boxes():
    reader = RegionReader(enlarge=False)
    read(reader, 0)
    reader.begin_frame(SHAPE, STILL)
    x0, y0, x1, y1 = BOX
    list(reader.views(frame(100)[y0:y1, x0:x1], BOX))
    again = list(reader.views(frame(100)[y0:y1, x0:x1], BOX))
    assert int(again[1][0][0, 0]) == 50
