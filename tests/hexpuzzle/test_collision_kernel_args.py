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


@pytest.mark.parametrize("x_end", [-0.9, -0.75, -0.6])
def test_a_segment_ending_on_an_edge_line_past_the_vertex_misses(x_end):
    # A flat-top hexagon of radius 1 at the origin: its top edge lies on y = apothem for
    # |x| <= 1/2 only. A segment coming straight down onto that line at x < -1/2 stops on the
    # line but outside the hexagon (past the top-left vertex, where the upper-left edge bounds
    # it): no contact. The y slab alone says "touches at t = 1 exactly"; only the third slab
    # refutes it, so the clipping must not stop at t_in == t_out.
    apothem = 1.0 * _kernels._C30 * (1.0 + _kernels.SLACK)  # the kernel's own slab half-width
    y0 = apothem + 0.5
    path = np.array([[x_end, y0], [x_end, apothem]])  # y0 - apothem is exact: t = 1.0 exactly
    assert not (-0.5 <= x_end <= 0.5)  # past the vertex: outside by the hexagon's geometry
    # the upper-left edge through (-1, 0) and (-1/2, apothem): at x_end it stands below the line
    assert math.sqrt(3.0) * (x_end + 1.0) < apothem
    s, j = _kernels.sweep(path, np.zeros((1, 2)), np.ones(1, bool), -1, 1.0)
    assert (s, j) == (math.inf, -1)
    # moved a hair right of the vertex onto the edge itself, the same segment touches at its end
    s, j = _kernels.sweep(np.array([[-0.4, y0], [-0.4, apothem]]), np.zeros((1, 2)),
                          np.ones(1, bool), -1, 1.0)  # fmt: skip
    assert j == 0 and s == pytest.approx(0.5)
