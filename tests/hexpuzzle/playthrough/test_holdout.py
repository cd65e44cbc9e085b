"""The held-out check on an ability-driven world, and the observed funnel against the truth's
process."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle import (
    FunnelWorld,
    TrueModel,
    fit_skill_model,
    holdout_check,
    observed_funnel,
)
from tests.hexpuzzle.test_funnel import (
    BETA,
    WORLD,
)


@pytest.fixture(scope="module")
def fitted_world():
    truth = TrueModel(BETA, **WORLD)
    rows = truth.telemetry(1500, rng=1)
    return truth, rows, fit_skill_model(rows, list(truth.level_ids), features=False)


def test_holdout_on_an_ability_driven_world(fitted_world):
    truth, rows, _ = fitted_world
    check = holdout_check(rows, list(truth.level_ids), features=False, players=5000, draws=10)
    assert check.fit_players == check.test_players == 750
    assert check.scores["reach"]["mae"] < 0.04
    assert check.scores["quit rate"]["mae"] < 0.03
    # the observed side is computed from the rows alone: check it against the truth's process
    obs = observed_funnel(rows, truth.level_ids)
    true = FunnelWorld(BETA, **WORLD).funnel(100_000, draws=1, rng=4)
    assert np.max(np.abs(obs["reach"] - np.array(true.value("reach")))) < 0.05


def test_table_lists_the_players_and_each_measure_to_three_decimals():
    from labkit.hexpuzzle.playthrough.holdout import HoldoutCheck

    scores = {
        "reach": {"spearman": 0.9, "mae": 0.0125},
        "quit rate": {"spearman": -0.5, "mae": 1.0},
    }
    check = HoldoutCheck(("a",), None, {}, 7, 5, scores)
    expected = "\n".join([
        "fit on 7 players, predicted 5 others",
        "measure" + " " * 13 + "  Spearman" + "      MAE",
        "reach" + " " * 15 + "     0.900" + "    0.013",
        "quit rate" + " " * 11 + "    -0.500" + "    1.000",
    ])  # fmt: skip
    assert check.table() == expected
    assert repr(check) == expected
