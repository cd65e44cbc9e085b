"""``funnel`` on fitted models against known truths; compare, improve, the held-out check, CLI."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import (
    FunnelGoal,
    FunnelWorld,
    TrueModel,
    campaign,
    compare_funnels,
    fit_skill_model,
    funnel,
    generate,
    holdout_check,
    improve_campaign,
    load_telemetry,
    observed_funnel,
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


def test_compare_two_orders_against_a_large_independent_simulation():
    quit = {"baseline": -2.0, "won": -1.0, "run": 0.6}
    easy_first, hard_first = [-1.5, -0.5, 0.5, 1.5], [1.5, 0.5, -0.5, -1.5]
    a = funnel(["L01", "L02", "L03", "L04"], TrueModel(easy_first, quit=quit), players=3000,
               draws=20, rng=5)  # fmt: skip
    b = funnel(["L01", "L02", "L03", "L04"], TrueModel(hard_first, quit=quit), players=3000,
               draws=20, rng=5)  # fmt: skip
    c = compare_funnels(a, b, labels=("easy first", "hard first"))
    big_a = FunnelWorld(easy_first, quit=quit).funnel(100_000, draws=1, rng=11)
    big_b = FunnelWorld(hard_first, quit=quit).funnel(100_000, draws=1, rng=12)
    truth = big_b.value("reach")[-1] - big_a.value("reach")[-1]
    v, lo, hi = c.reach_difference[-1]
    assert c.paired and lo - 0.005 <= truth <= hi + 0.005 and abs(v - truth) < 0.02
    assert c.summary().startswith("easy first brings more players to the last level")
    same = compare_funnels(a, a)
    assert np.all(same.reach_difference == 0.0)


def test_improve_campaign_finds_the_gentle_order_and_keeps_the_band_rule():
    beta = np.array([1.8, -1.5, 0.4, -0.5, 1.0, 0.0])
    quit = {"baseline": -3.0, "won": -0.5, "run": 0.9}
    truth = TrueModel(beta, quit=quit)
    ids = list(truth.level_ids)
    imp = improve_campaign(ids, truth, FunnelGoal(reach_last=0.75, max_quit_hazard=0.08),
                           players=3000, draws=10, time_limit=20)  # fmt: skip
    order = [ids.index(i) for i in imp.order]
    # judged independently, by a large simulation of the true world
    before = FunnelWorld(list(beta), quit=quit).funnel(100_000, draws=1, rng=3)
    after = FunnelWorld(list(beta[order]), quit=quit).funnel(100_000, draws=1, rng=3)
    assert after.value("reach")[-1] > before.value("reach")[-1] + 0.03
    band = np.searchsorted([-0.85, -0.65, -0.45], -1 / (1 + np.exp(beta[order])), side="right")
    assert np.max(band[:-1] - band[1:]) <= 1 and imp.goals[2].met
    assert imp.goals[0].after == pytest.approx(after.value("reach")[-1], abs=0.03)


def test_improve_campaign_says_why_a_goal_cannot_be_met():
    truth = TrueModel([0.0, 0.5, 1.0], quit={"baseline": -0.5})  # 38 % stop after every level
    imp = improve_campaign(["L01", "L02", "L03"], truth, FunnelGoal(reach_last=0.6),
                           players=2000, draws=5, time_limit=5)  # fmt: skip
    reach = imp.goals[0]
    assert not reach.met and "even if every level were won at the first try" in reach.why
    floor = (1 - 1 / (1 + np.exp(0.5))) ** 2  # two stop decisions before the last level
    said = float(reach.why.split("lets only ")[1].split("%")[0]) / 100
    assert abs(said - floor) < 0.03


def test_regenerating_needs_levels_not_ids():
    truth = TrueModel([2.5, 0.0], quit={"baseline": -2.0, "won": -3.0})
    imp = improve_campaign(["L01", "L02"], truth, FunnelGoal(max_quit_hazard=0.05),
                           regenerate=True, players=1000, draws=3, time_limit=2)  # fmt: skip
    assert any("Level objects" in c for c in imp.changes)


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


def test_cli_prints_the_funnel_and_writes_csv(tmp_path, shipped_fit):
    from labkit.hexpuzzle.shipped_campaign import campaign_path

    _, _, model = shipped_fit
    model.save(tmp_path / "model.json")
    out = tmp_path / "funnel.csv"
    res = subprocess.run([sys.executable, "-m", "labkit", "puzzle", "funnel",
                          str(campaign_path()), str(tmp_path / "model.json"), "--players", "500",
                          "--draws", "4", "--out", str(out)],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "most players leave at main-" in res.stdout and "main-24" in res.stdout
    header = out.read_text().splitlines()[0].split(",")
    assert header[:4] == ["position", "level", "reach", "reach_low"]
    assert len(out.read_text().splitlines()) == 25
    bad = subprocess.run([sys.executable, "-m", "labkit", "puzzle", "funnel",
                          str(campaign_path()), str(tmp_path / "model.json"), "--players", "0"],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert bad.returncode != 0 and "--players" in bad.stderr


def test_csv_never_writes_a_formula(tmp_path):
    f = FunnelWorld([0.0], level_ids=["=HYPERLINK(1)"]).funnel(100, draws=2, rng=0)
    f.save(tmp_path / "f.csv")
    assert "\n1,'=HYPERLINK(1)," in (tmp_path / "f.csv").read_text()


def test_the_kernel_tables_say_what_the_skill_model_says():
    from labkit.hexpuzzle import shipped_skill_model
    from labkit.hexpuzzle.playthrough.model import model_tables

    model, levels = shipped_skill_model(), campaign()
    t = model_tables(model, levels)
    g = t.grid[::6]
    for i in (0, 9, 23):
        for k in (1, 3):
            said = model.success(levels[i].id, g, attempt=k)
            np.testing.assert_allclose(1 / (1 + np.exp(-t.win[i, k - 1, ::6])), said, rtol=1e-9)
        for won in (False, True):
            for run in (0, 1, 4):
                p = model.quit_model.p_quit(g, position=i, won=won, attempt=2, run=run)
                np.testing.assert_allclose(1 / (1 + np.exp(-t.quit[i, 1, int(won), run, ::6])), p,
                                           rtol=1e-9)  # fmt: skip


def test_an_evaluation_budget_makes_the_search_the_same_on_any_machine(monkeypatch):
    # time_limit stops the order search wherever the machine has got to; evaluations does not.
    from labkit.hexpuzzle.playthrough import improve

    beta = np.array([1.8, -1.5, 0.4, -0.5, 1.0, 0.0])
    truth = TrueModel(beta, quit={"baseline": -3.0, "won": -0.5, "run": 0.9})
    ids = list(truth.level_ids)
    goal = FunnelGoal(reach_last=0.9, max_quit_hazard=0.01, max_band_drop=None)  # out of reach
    judged = []
    measure = improve._Judge.measure
    monkeypatch.setattr(improve._Judge, "measure", lambda j, t: judged.append(1) or measure(j, t))

    def search(evaluations):
        judged.clear()
        order = improve_campaign(ids, truth, goal, players=500, draws=2, time_limit=600,
                                 evaluations=evaluations).order  # fmt: skip
        return order, len(judged)

    (first, n7), (again, _) = search(7), search(7)
    assert first == again
    assert n7 == 1 + 2 + 7  # the floor, the two starting orders, then exactly the budget
    with pytest.raises(ArgumentError, match="evaluations"):
        improve_campaign(ids, truth, goal, evaluations=0)
    with pytest.raises(ArgumentError, match="time_limit"):
        improve_campaign(ids, truth, goal, time_limit=True)
