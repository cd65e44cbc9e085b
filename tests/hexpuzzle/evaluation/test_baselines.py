"""The baseline generators (issue 27): each keeps to its solver-call budget; the gated fitness."""

from __future__ import annotations

import pytest

from labkit.hexpuzzle import (
    score,
)
from labkit.hexpuzzle.evaluation.baselines import BASELINES, gated_fitness
from labkit.hexpuzzle.solving.solver import solver_calls
from labkit.rng import make_rng
from tests.hexpuzzle.evaluation.test_measures import _level


@pytest.mark.parametrize("name", ["random search", "(mu+lambda) ES", "GA (gated fitness)"])
def test_baselines_keep_to_their_budget(name):
    target = {"score": 35, "rotations": 1}
    before = solver_calls()
    level = BASELINES[name](target, make_rng(5), 60)
    spent = solver_calls() - before
    # one candidate may be under way when the budget runs out: a build (8 attempts of 7
    # searches) and its score, no more
    assert spent <= 60 + 8 * 7 + 1
    assert level is None or gated_fitness(level, target) >= 0


def test_gated_fitness_gates_on_quality():
    level = _level()
    total = score(level).total
    assert gated_fitness(level, {"score": total}) == 2.0
    assert gated_fitness(level, {"score": total, "tiles": 9}) == pytest.approx(0.8)
