"""Generator constraints (issue 27): the reachable range they name, and the generator and campaign
keeping to them."""

from __future__ import annotations

import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import (
    campaign_from_curve,
    generate_to_target,
    score,
)
from labkit.hexpuzzle.solving.constraints import constraints, score_bounds


# --- constraints ---------------------------------------------------------------------------
def test_constraints_name_the_reachable_range():
    with pytest.raises(ArgumentError, match=r"tiles: .*reachable: 4-37 tiles"):
        constraints(rotations=3, tiles=2)
    with pytest.raises(ArgumentError, match="at most 19 tiles"):
        constraints(tiles=25, radius=2)
    # 4 tiles, 1 rotation: size 1.62 + rotation 5 + 15/4 at least; at most 1.62+5+20+6.67+25
    assert score_bounds(constraints(rotations=1, tiles=4)) == (10, 58)
    with pytest.raises(ArgumentError, match="reachable scores are 10-58"):
        generate_to_target(0, score=70, rotations=1, tiles=4)


def test_generate_to_target_keeps_rotations_and_tiles():
    level = generate_to_target(4, score=55, rotations=2, tiles=9)
    d = score(level)
    assert (d.R, d.N) == (2, 9) and abs(d.total - 55) <= 2
    assert level.metadata["generated"]["constraints"]["tiles"] == [9, 9]


def test_budget_stops_the_search_and_says_so():
    from labkit.hexpuzzle import GeneratorOptionError

    with pytest.raises(GeneratorOptionError, match="budget of 5 solver calls"):
        generate_to_target(1, score=80, budget=5)


def test_campaign_refuses_an_impossible_slot_before_searching():
    with pytest.raises(ArgumentError, match=r"targets\[1\]: cannot be reached"):
        campaign_from_curve([30, 75], 1, tiles=4, rotations=1, progress=False)
