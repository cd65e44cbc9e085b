"""Earshot (SPEC E3): a sound of exposure level N is heard within Chebyshev radius N−1, with
strength N − distance; at distance N it is silent. Worked by hand for every compass direction,
for one listener (``heard_at``) and for the whole map (``propagate_sound``)."""

from __future__ import annotations

import pytest

from labkit.encounter.rules.sound import Compass, heard_at, propagate_sound

# Unit steps toward each compass direction (y down is south) and the direction a listener
# standing that way from the source hears the sound come from (the opposite one).
STEPS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
         "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}  # fmt: skip
OPPOSITE = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}


@pytest.mark.parametrize("level", [1, 2, 3, 5])
@pytest.mark.parametrize("way", list(STEPS))
def test_heard_at_radius_n_minus_1_and_silent_at_n(level, way):
    sx, sy = 20, 20
    dx, dy = STEPS[way]
    edge = (sx + (level - 1) * dx, sy + (level - 1) * dy)
    outside = (sx + level * dx, sy + level * dy)
    if level > 1:
        assert heard_at(edge, (sx, sy, level)) == (1, Compass[OPPOSITE[way]])
    else:
        assert heard_at(edge, (sx, sy, level)) == (1, Compass.HERE)
    assert heard_at(outside, (sx, sy, level)) == (0, Compass.NONE)


@pytest.mark.parametrize("level", [1, 2, 4])
def test_the_map_is_silent_from_distance_n(level):
    size = 2 * level + 3
    c = size // 2
    strength, direction = propagate_sound((size, size), [(c, c, level)])
    for y in range(size):
        for x in range(size):
            d = max(abs(x - c), abs(y - c))
            if d <= level - 1:
                assert strength[y, x] == level - d, (x, y)
                assert direction[y, x] != Compass.NONE
            else:
                assert strength[y, x] == 0, (x, y)
                assert direction[y, x] == Compass.NONE, (x, y)
    # The heard area is the (2N−1)-square.
    assert int((strength > 0).sum()) == (2 * level - 1) ** 2


def test_a_silent_source_and_a_level_zero_source_are_never_heard():
    assert heard_at((0, 0), (0, 0, 0)) == (0, Compass.NONE)
    assert heard_at((0, 0), (0, 0, -3)) == (0, Compass.NONE)
    strength, direction = propagate_sound((3, 3), [(1, 1, 0)])
    assert strength.sum() == 0 and (direction == Compass.NONE).all()
