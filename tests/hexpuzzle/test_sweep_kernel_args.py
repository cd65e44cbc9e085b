"""The sweep kernel's own arguments (the tile that moves is skipped, removed tiles are inactive)
and segments whose direction has a unit component, worked by hand (SPEC H5)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit.hexpuzzle import _kernels, first_contact

R = 1.76
APOTHEM = R * math.sqrt(3) / 2  # 1.5242...: the flat top/bottom edges' distance from the centre


def sweep(path, centres, active=None, skip=-1):
    centres = np.array(centres, dtype=np.float64)
    if active is None:
        active = np.ones(len(centres), dtype=np.bool_)
    return _kernels.sweep(np.array(path, dtype=np.float64), centres, active, skip, R)


def test_the_skipped_tile_and_inactive_tiles_are_passed_through():
    # Along the x axis: hexagons at x = 4 (entered at 4 − R) and x = 9 (at 9 − R).
    path = [[0.0, 0.0], [12.0, 0.0]]
    centres = [[4.0, 0.0], [9.0, 0.0]]
    assert sweep(path, centres) == (pytest.approx(4 - R), 0)
    assert sweep(path, centres, skip=0) == (pytest.approx(9 - R), 1)
    assert sweep(path, centres, active=np.array([False, True])) == (pytest.approx(9 - R), 1)
    assert sweep(path, centres, active=np.array([True, False]), skip=0) == (math.inf, -1)
    assert sweep(path, centres, skip=1) == (pytest.approx(4 - R), 0)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_segment_one_unit_long_in_y_is_clipped_like_any_other(sign):
    # From y = ∓2 towards the centre by exactly 1: it crosses the flat edge at |y| = APOTHEM.
    path = [[0.0, -2.0 * sign], [0.0, -1.0 * sign]]
    assert first_contact(path, [[0.0, 0.0]]) == (pytest.approx(2.0 - APOTHEM), 0)
    # And one unit long in x, towards the right vertex at x = R.
    path = [[2.5 * sign, 0.0], [1.5 * sign, 0.0]]
    assert first_contact(path, [[0.0, 0.0]]) == (pytest.approx(2.5 - R), 0)
