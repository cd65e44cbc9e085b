"""The funnel of a skill model fitted to any game's feature table (issue 49): a known truth.

The world is ``test_level_features``'s (board size, enemies, par time; three attempts with a
learning step; weaker players and losers quit sooner), simulated by that file's own code. Its
true reach and first-try success at each place of a campaign, the 40 played levels in the
designer's order and then 10 levels nobody played, are computed here from the truth alone (an
integral over the true ability distribution, no simulation), and the funnel of the fitted model,
given the feature table for the new levels, must hold them at most places.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from labkit import ArgumentError
from labkit.hexpuzzle import funnel
from labkit.hexpuzzle.difficulty.skill import fit_skill_model
from tests.hexpuzzle.difficulty.test_level_features import LEARNING, SPREAD, world


def true_funnel(beta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(reach, first-try success of those who reach it) of the true population, per level of
    ``beta`` (levels in play order)."""
    theta = np.linspace(-6 * SPREAD, 6 * SPREAD, 2001)
    weight = np.exp(-0.5 * (theta / SPREAD) ** 2)
    weight /= weight.sum()
    alive = np.ones_like(theta)
    reach, first = [], []
    for b in beta:
        reach.append(float(weight @ alive))
        first.append(float(weight @ (alive * expit(theta - b))) / reach[-1])
        lost = np.prod([1 - expit(theta - b + LEARNING * (k - 1)) for k in (1, 2, 3)], axis=0)
        # the world's rule: after a level, quit with chance expit(-3 - θ + 1.5 · lost)
        stay = (1 - lost) * (1 - expit(-3.0 - theta)) + lost * (1 - expit(-1.5 - theta))
        alive = alive * stay
    return np.array(reach), np.array(first)


@pytest.fixture(scope="module")
def fitted():
    telemetry, feats, order, beta, theta = world(0)
    model = fit_skill_model(telemetry, order, features=feats)
    return model, feats, order, beta


def test_a_feature_model_funnel_holds_the_true_reach(fitted):
    model, feats, order, beta = fitted
    new = list(feats.index[60:70])  # the fit never saw them: predicted from the table
    campaign = order + new
    idx = {lid: i for i, lid in enumerate(feats.index)}
    truth, first = true_funnel(np.array([beta[idx[lid]] for lid in campaign]))
    f = funnel(campaign, model, features=feats, players=2000, draws=30, rng=1)
    assert list(f.level_ids) == campaign
    band = f.stats["reach"]
    inside = (band[:, 1] <= truth + 1e-9) & (truth <= band[:, 2] + 1e-9)
    assert inside.mean() >= 0.8, (inside.mean(), np.round(band[:, 0] - truth, 3).tolist())
    # the new levels' own bands: not all of them drop out (they carry the prediction's spread)
    assert inside[len(order) :].mean() >= 0.8
    # their first-try success rests on the prediction alone (reach mostly on the levels before)
    ft = f.stats["first_try"][len(order) :]
    truth_ft = first[len(order) :]
    assert np.mean((ft[:, 1] <= truth_ft) & (truth_ft <= ft[:, 2])) >= 0.8
    # the bands say something: a reach curve falling from 1, not [0, 1] everywhere
    assert band[0, 0] == 1.0 and band[-1, 2] < 0.9 and np.mean(band[:, 2] - band[:, 1]) < 0.2


def test_levels_the_model_holds_need_no_table(fitted):
    model, feats, order, beta = fitted
    a = funnel(order, model, players=500, draws=5, rng=2)
    b = funnel(order, model, features=feats, players=500, draws=5, rng=2)
    assert np.array_equal(a.stats["reach"], b.stats["reach"])  # the fitted β, not re-predicted


def test_a_new_level_without_a_row_is_refused_in_one_line(fitted):
    model, feats, order, _ = fitted
    with pytest.raises(ArgumentError) as err:
        funnel(order + ["lv099"], model, features=feats.drop(index="lv099"), players=10,
               draws=2, rng=0)  # fmt: skip
    assert "level 'lv099'" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ArgumentError, match="column 'enemies'"):
        funnel(order + ["lv099"], model, features=feats.drop(columns="enemies"), players=10,
               draws=2, rng=0)  # fmt: skip
    with pytest.raises(ArgumentError, match="lv099"):  # no table: the level cannot be known
        funnel(order + ["lv099"], model, players=10, draws=2, rng=0)
