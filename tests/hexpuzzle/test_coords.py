"""Hex coordinates (SPEC H1): centres, neighbours, distances, port midpoints and the rotation
step."""

from __future__ import annotations

import pytest

from labkit.hexpuzzle.coords import (
    HEX_DIRECTIONS,
    centre,
    hex_distance,
    neighbour,
    opposite,
    port_midpoint,
    rotate_cell,
)


def test_centres_and_neighbours_follow_h1():
    assert centre(0, -1) == pytest.approx((0.0, -(3**0.5)))  # up is negative y
    for d, (dq, dr) in enumerate(HEX_DIRECTIONS):
        assert neighbour(0, 0, d) == (dq, dr)
        assert hex_distance((0, 0), (dq, dr)) == 1
        mid = port_midpoint(0, 0, d)
        back = port_midpoint(dq, dr, opposite(d))
        assert mid == pytest.approx(back)  # both sides of an edge agree on its midpoint


def test_rotation_step_turns_directions_clockwise():
    for d, (dq, dr) in enumerate(HEX_DIRECTIONS):
        assert rotate_cell(dq, dr) == HEX_DIRECTIONS[(d + 1) % 6]
    assert rotate_cell(2, -1, 6) == (2, -1)
    assert rotate_cell(*rotate_cell(2, -1, 1), -1) == (2, -1)
