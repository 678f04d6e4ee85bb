"""The change map's notion of a change: lone cells that differ are noise, a block of them is a
change (synthetic cell masks, no rendering needed)."""

import numpy as np

from vision.changes import ChangeMap


def test_lone_cells_are_noise_and_a_block_is_kept_where_it_is():
    mask = np.zeros((20, 30), bool)
    mask[5:9, 10:14] = True            # something came
    mask[15, 3] = mask[0, 29] = True   # noisy cells, one at the border
    mask[18:20, 27:30] = True          # a block at the corner
    kept = ChangeMap().denoise(mask)
    expected = mask.copy()
    expected[15, 3] = expected[0, 29] = False
    assert (kept == expected).all()
