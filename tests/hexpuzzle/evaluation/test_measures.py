"""Generator evaluation's measures (issue 27): the layout and solution distances and diversity, on
hand-made pairs and the shipped main line."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle import (
    Level,
    campaign,
)
from labkit.hexpuzzle.evaluation.measures import (
    distances,
    diversity,
    layout_distance,
    solution_distance,
    solution_string,
    turn_picture,
)
from tests.hexpuzzle.solving.test_curve import turned_picture

#: A hand-made radius-2 level: straight tracks, three tiles, one blocking another.
TRACKS = (3, 4, 5, 0, 1, 2)  # every port to its opposite


def _level(dirs=(0, 3, 1)) -> Level:
    tiles = [("a", 0, 0, dirs[0]), ("b", 1, 0, dirs[1]), ("c", -1, 1, dirs[2])]
    return Level.hexagon(2, tracks=TRACKS, tiles=tiles, move_limit=5)


# --- the measures on hand-made pairs -----------------------------------------------------
def test_identical_levels_are_at_distance_zero_by_both_measures():
    a, b = _level(), _level()
    assert layout_distance(a, b) == 0.0
    assert solution_distance(solution_string(a), solution_string(b)) == 0.0


def test_a_rotated_level_is_the_same_layout_and_the_same_solution():
    a = _level()
    by_hand = turned_picture(a, 2)  # the picture turned cell by cell (test_curve's helper)
    assert layout_distance(a, by_hand) == 0.0
    assert layout_distance(a, a.rotated(1)) == 0.0  # the board turned beneath the tiles
    assert solution_string(a) == solution_string(by_hand) == solution_string(turn_picture(a, 4))


def test_one_tap_different_is_one_cell_of_nineteen_and_not_distinct():
    a, b = _level(), _level(dirs=(0, 3, 4))  # tile c heads the other way
    assert layout_distance(a, b) == pytest.approx(1 / 19)
    d = solution_distance(solution_string(a), solution_string(b))
    assert 0 < d < 0.5  # alike by their solutions too


def test_solution_distance_is_difflib_over_moves():
    # "as r bg" vs "as r cs": 2 of 3 moves match, ratio = 2*2/6
    assert solution_distance("as r bg", "as r cs") == pytest.approx(1 / 3)
    assert solution_distance("as", "") == 1.0


def test_diversity_is_pcg_benchmarks_greedy_pass():
    three_same = np.zeros((3, 3))
    assert diversity(three_same).tolist() == pytest.approx([1 / 3, 1 / 2, 1.0])
    apart = np.ones((4, 4)) - np.eye(4)
    assert diversity(apart).tolist() == [1.0] * 4
    # a pair at 0.25 (half-similar): the first gets 1 - 0.5/2
    half = np.array([[0, 0.25], [0.25, 0]])
    assert diversity(half).tolist() == [0.75, 1.0]


def test_the_shipped_main_line_is_pairwise_distinct_by_both_measures():
    levels = campaign()
    for measure in ("solution", "layout"):
        d = distances(levels, measure)
        off = d[np.triu_indices(len(levels), 1)]
        assert off.min() >= 0.5, measure
        assert diversity(d).tolist() == [1.0] * 24
