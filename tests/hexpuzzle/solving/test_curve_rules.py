"""labkit.hexpuzzle.solving.curve: the rotation cap per slot and the ``--curve`` spec, exactly.

From the module docstring: rotations are capped by a slot's place on the curve -- the easiest
third of the targets' range at most 1, the middle third at most 2, the hardest 3 (hardness is a
high score, or a low success rate); ``A:B:N`` is N evenly spaced targets from A to B.
"""

from __future__ import annotations

import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.solving import curve


@pytest.mark.parametrize(("k", "cap"), [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 3)])
def test_score_targets_are_capped_by_their_third_of_the_range(k, cap):
    values = [0.0, 33.0, 34.0, 66.0, 67.0, 99.0, 100.0]  # thirds of [0, 100]
    assert curve._rotation_cap(values, k, "score") == cap


@pytest.mark.parametrize(("k", "cap"), [(0, 3), (1, 3), (2, 2), (3, 1)])
def test_success_targets_are_hardest_where_success_is_lowest(k, cap):
    values = [0.2, 0.4, 0.6, 0.95]  # range 0.2-0.95: hardness 1, 0.73, 0.47, 0
    assert curve._rotation_cap(values, k, "success") == cap


def test_a_flat_curve_caps_nothing_below_three():
    assert curve._rotation_cap([40.0, 40.0], 1, "score") == 3
    assert curve._rotation_cap([0.5], 0, "success") == 3


def test_a_ramp_spec_and_its_refusals():
    assert curve.parse_curve("10:20:3") == [10.0, 15.0, 20.0]
    assert curve.parse_curve("5:5:1") == [5.0]
    assert len(curve.parse_curve(f"0:1:{curve.MAX_SLOTS}")) == 200
    for bad, said in [("a:2:3", "curve: expected START:STOP:COUNT, e.g. 25:75:24 (got 'a:2:3')"),
                      ("1:2:0", "curve: COUNT must be 1-200 (got '1:2:0')"),
                      ("1:2:201", "curve: COUNT must be 1-200 (got '1:2:201')")]:  # fmt: skip
        with pytest.raises(ArgumentError) as err:
            curve.parse_curve(bad)
        assert str(err.value) == said


def test_a_csv_curve_reads_its_target_column(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("slot,Target\n1,30\n\n2, 45.5\n", encoding="utf-8")
    assert curve.parse_curve(path) == [30.0, 45.5]
    path.write_text("30\n45\n", encoding="utf-8")
    assert curve.parse_curve(path) == [30.0, 45.0]
    path.write_text("30\nlots\n", encoding="utf-8")
    with pytest.raises(ArgumentError, match="row 2: a target must be a number"):
        curve.parse_curve(path, argument="targets")
