"""The evaluation pipeline (issue 27) on generators whose answer is known, and its refusals."""

from __future__ import annotations

import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import (
    evaluate_generator,
    score,
)
from labkit.hexpuzzle.evaluation.baselines import BASELINES
from tests.hexpuzzle.evaluation.test_measures import _level


# --- the evaluation on generators whose answer is known ------------------------------------
def test_evaluation_of_a_generator_that_always_returns_one_level():
    level = _level()
    total = score(level).total

    def same(target, rng, budget):
        return level

    report = evaluate_generator(same, [{"score": total}, {"score": total + 10, "tiles": 4}],
                                n=3, seeds=[0, 1], budget=10)  # fmt: skip
    t = report.table
    assert (
        len(t) == 12
        and t["quality"].tolist() == [True] * 3 + [False] * 3 + [True] * 3 + [False] * 3
    )  # the second target asks for 4 tiles: the constraint is not met
    assert report.figure("within ±2") == (0.5, 0.5, 0.5)
    # three copies of one level: pcg_benchmark gives 1/3, 1/2, 1 -> one in three distinct
    assert report.figure("diversity (solutions)")[0] == pytest.approx(1 / 3)
    assert report.figure("diversity (layouts)")[0] == pytest.approx(1 / 3)
    assert report.figure("score error (MAE)")[0] == pytest.approx(5.0)
    assert (t["solver_calls"] == 0).all()


def test_evaluation_of_a_generator_that_never_delivers():
    report = evaluate_generator(lambda target, rng, budget: None, [{"score": 40}], n=2,
                                seeds=[3], budget=10)  # fmt: skip
    assert report.figure("quality")[0] == 0.0
    assert report.figure("distance closed")[0] == 0.0
    assert report.figure("diversity (solutions)")[0] == 0.0
    assert "one seed" in str(report)


def test_evaluation_refuses_bad_targets():
    with pytest.raises(ArgumentError, match=r"targets\[0\]"):
        evaluate_generator(BASELINES["random search"], [{"rotations": 1}], n=1, seeds=[0],
                           budget=10)  # fmt: skip
    with pytest.raises(ArgumentError, match=r"targets\[0\]"):
        evaluate_generator(BASELINES["random search"], [{"score": 40, "tiles": 99}], n=1,
                           seeds=[0], budget=10)  # fmt: skip
