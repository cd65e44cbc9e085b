"""propagate_sound's input checks, word for word (DESIGN §3: an ArgumentError names the argument
and the value)."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.encounter.rules.sound import SoundError, propagate_sound


@pytest.mark.parametrize(
    "shape, sources, message",
    [
        ("big", [], "shape: must be (height, width) (got 'big')"),
        ((0, 3), [], "shape: must be positive (got (0, 3))"),
        ((3, 0), [], "shape: must be positive (got (3, 0))"),
        ((3, 3), [(1, 1)], "sources: must be rows of (x, y, level) (got (1, 2))"),
        ((3, 3), [(0.5, 0, 1)], "sources: must be integers (got [[0.5, 0.0, 1.0]])"),
        ((3, 4), [(-1, 0, 2)], "sources[0]: lies outside the 3x4 grid (got (-1, 0, 2))"),
        ((3, 4), [(4, 0, 2)], "sources[0]: lies outside the 3x4 grid (got (4, 0, 2))"),
        ((3, 4), [(0, 0, 1), (0, -1, 2)],
         "sources[1]: lies outside the 3x4 grid (got (0, -1, 2))"),
        ((3, 4), [(0, 3, 2)], "sources[0]: lies outside the 3x4 grid (got (0, 3, 2))"),
    ],
)  # fmt: skip
def test_bad_input_is_named_word_for_word(shape, sources, message):
    with pytest.raises(SoundError) as info:
        propagate_sound(shape, sources)
    assert str(info.value) == message


def test_the_last_row_and_column_are_on_the_grid():
    strength, _ = propagate_sound((3, 4), [(3, 2, 1)])
    assert strength[2, 3] == 1 and strength.sum() == 1


def test_whole_numbers_given_as_floats_are_accepted():
    strength, _ = propagate_sound((3, 3), np.array([[1.0, 1.0, 2.0], [0.0, 0.0, 1.0]]))
    assert strength[1, 1] == 2 and strength[0, 0] == 1
