"""``funnel`` on fitted models against known truths; compare, improve, the held-out check, CLI."""

from __future__ import annotations

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import (
    FunnelWorld,
    TrueModel,
    campaign,
    fit_skill_model,
    funnel,
    generate,
    load_telemetry,
)

WORLD = dict(ability_sd=1.0, learning=0.4,
             quit={"baseline": -2.5, "ability": -0.7, "won": -0.5, "run": 0.4})  # fmt: skip
BETA = list(np.linspace(-1.5, 1.5, 8))


@pytest.fixture(scope="module")
def fitted_world():
    truth = TrueModel(BETA, **WORLD)
    rows = truth.telemetry(1500, rng=1)
    return truth, rows, fit_skill_model(rows, list(truth.level_ids), features=False)


@pytest.fixture(scope="module")
def shipped_fit():
    from labkit._data import data_path

    rows = load_telemetry(data_path("telemetry", "progression.csv"), frame=False)
    levels = campaign()
    return levels, rows, fit_skill_model(rows, levels)


def test_funnel_of_a_fitted_world_matches_the_true_funnel(fitted_world):
    truth, _, model = fitted_world
    f = funnel(truth.level_ids, model, players=5000, draws=30, rng=0)
    true = FunnelWorld(BETA, **WORLD).funnel(100_000, draws=2, rng=9)  # the truth, by simulation
    reach, true_reach = f.stats["reach"], np.array(true.value("reach"))
    assert np.max(np.abs(reach[:, 0] - true_reach)) < 0.04
    inside = (reach[1:, 1] - 0.01 <= true_reach[1:]) & (true_reach[1:] <= reach[1:, 2] + 0.01)
    assert inside.sum() >= 6  # of 7 (the first level is reached by all)
    hazard = np.array(f.value("quit_hazard"))[:-1]
    assert np.mean(np.abs(hazard - np.array(true.value("quit_hazard"))[:-1])) < 0.01
    for name in ("reach", "first_try", "quit_hazard", "attempts_per_clear"):
        v, lo, hi = f.stats[name].T
        assert np.all((lo <= v) & (v <= hi))  # a value never sits outside its interval


def test_intervals_carry_the_fits_uncertainty():
    exact = TrueModel(BETA, **WORLD)
    unsure = TrueModel(BETA, difficulty_sd=0.4, **WORLD)
    ids = exact.level_ids

    def width(model, **kw):
        f = funnel(ids, model, players=3000, draws=40, rng=2, **kw)
        lo, hi = f.interval("reach")[-1]
        return hi - lo

    noise = width(exact)
    assert width(unsure) > 1.5 * noise
    assert width(unsure, uncertainty=False) == pytest.approx(noise, abs=1e-12)  # same cohorts


def test_a_model_without_a_quit_model_is_refused(fitted_world):
    truth, rows, _ = fitted_world
    ignorant = fit_skill_model(rows, list(truth.level_ids), features=False, dropout="ignore")
    with pytest.raises(ArgumentError, match="quit model"):
        funnel(truth.level_ids, ignorant)


def test_a_level_nobody_played_is_predicted_from_its_parts(shipped_fit):
    levels, _, model = shipped_fit
    new = generate(7, tiles=9, radius=2)
    swapped = levels[:5] + [new] + levels[6:]
    f = funnel(swapped, model, players=3000, draws=30, rng=1)
    g = funnel(levels, model, players=3000, draws=30, rng=1)
    assert f.level_ids[5] == new.id
    width_new = np.diff(f.interval("first_try")[5])[0]
    width_old = np.diff(g.interval("first_try")[5])[0]
    assert width_new > width_old  # the prediction's own uncertainty (parts, residual) is in
    predicted = float(model.success(new, 0.0))
    assert abs(f.value("first_try")[5] - predicted) < 0.25  # survivors are a little stronger


def test_expected_time_comes_from_the_telemetry(shipped_fit):
    levels, rows, model = shipped_fit
    f = funnel(levels[:4], model, players=2000, draws=5, rng=0, telemetry=rows)
    first = rows[rows["level"] == levels[0].id]
    mean_won = first["seconds"][first["won"]].mean()
    # nearly everyone wins level 1 at the first try: its time is about a won attempt's
    assert abs(f.value("seconds")[0] - mean_won) < 0.1 * mean_won
