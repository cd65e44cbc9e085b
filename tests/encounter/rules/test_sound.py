"""Sound: the Chebyshev kernel against a brute-force reference, directions, ties, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from labkit import ArgumentError, _jit
from labkit.encounter.rules.sound import Compass, SoundError, heard_at, propagate_sound
from tests.encounter import reference


def names(direction: np.ndarray) -> np.ndarray:
    return np.vectorize(lambda d: Compass(int(d)).name, otypes=[object])(direction)


@st.composite
def rooms(draw):
    h, w = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    n = draw(st.integers(0, 6))
    sources = [
        (draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1)), draw(st.integers(-1, 8)))
        for _ in range(n)
    ]
    return (h, w), sources


@given(rooms())
def test_kernel_matches_brute_force(room):
    shape, sources = room
    strength, direction = propagate_sound(shape, np.array(sources, dtype=np.int64).reshape(-1, 3))
    want_s, want_d = reference.sound(shape, sources)
    assert np.array_equal(strength, want_s)
    assert np.array_equal(names(direction), want_d)


def test_kernel_matches_its_py_func_on_a_bigger_grid():
    rng = np.random.default_rng(9)
    sources = np.c_[rng.integers(0, 40, 30), rng.integers(0, 30, 30), rng.integers(1, 9, 30)]
    fast = propagate_sound((30, 40), sources, with_source=True)
    with _jit.plain_python("labkit.encounter._kernels"):
        slow = propagate_sound((30, 40), sources, with_source=True)
    for f, s in zip(fast, slow):
        assert np.array_equal(f, s)
    want_s, want_d = reference.sound((30, 40), sources.tolist())
    assert np.array_equal(fast[0], want_s) and np.array_equal(names(fast[1]), want_d)


def test_radius_is_level_minus_one_with_diagonals():
    strength, direction = propagate_sound((5, 5), [(2, 2, 3)])
    assert strength[2, 2] == 3 and direction[2, 2] == Compass.HERE
    assert strength[0, 0] == 1 and direction[0, 0] == Compass.SE  # diagonal, distance 2
    assert strength[1, 3] == 2 and direction[1, 3] == Compass.SW
    quiet, _ = propagate_sound((5, 5), [(2, 2, 1), (0, 0, 0)])
    assert quiet.sum() == 1  # level 1: only its own cell; level 0: silent


def test_direction_sectors_follow_the_nearest_angle():
    # Listener at the origin; (dx, dy) toward the source, y down = south.
    cases = {(5, -2): "E", (5, -3): "NE", (2, -5): "N", (3, -5): "NE", (-1, 2): "SW",
             (-1, 3): "S", (-7, 1): "W", (-7, -2): "W", (-7, -3): "NW"}  # fmt: skip
    for (dx, dy), want in cases.items():
        assert heard_at((0, 0), (dx, dy, 20))[1].name == want == reference.compass(dx, dy)


def test_ties_go_to_the_lower_source_index():
    _, _, src = propagate_sound((1, 5), [(0, 0, 3), (4, 0, 3)], with_source=True)
    assert src[0, 2] == 0  # equidistant: index 0 wins
    _, _, src = propagate_sound((1, 5), [(4, 0, 3), (0, 0, 3)], with_source=True)
    assert src[0, 2] == 0  # now index 0 is the source on the right
    strength, direction = propagate_sound((1, 5), [(4, 0, 3), (0, 0, 3)])
    assert direction[0, 2] == Compass.E and strength[0, 2] == 1


def test_stronger_source_beats_a_nearer_weaker_one():
    strength, direction = propagate_sound((1, 9), [(1, 0, 2), (8, 0, 9)])
    assert strength[0, 0] == 1 and direction[0, 0] == Compass.E


@pytest.mark.parametrize(
    ("shape", "sources", "pointer"),
    [
        ((0, 3), [], "shape"),
        ("big", [], "shape"),
        ((3, 3), [(1, 1)], "sources"),
        ((3, 3), [(3, 1, 2)], "sources[0]"),
        ((3, 3), [(0, 0, 1), (1, -1, 2)], "sources[1]"),
        ((3, 3), [(0.5, 0, 1)], "sources"),
    ],
)
def test_bad_input(shape, sources, pointer):
    with pytest.raises(SoundError) as info:
        propagate_sound(shape, sources)
    assert isinstance(info.value, ArgumentError) and info.value.pointer is None
    assert info.value.argument == pointer and str(info.value).startswith(pointer + ": ")


def test_no_sources_is_silence():
    strength, direction = propagate_sound((2, 2), [])
    assert not strength.any() and (direction == Compass.NONE).all()
