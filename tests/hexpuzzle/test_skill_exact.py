"""Exact rules of the skill fit and the player simulation, written from their docstrings.

* skill.py: with ``retries=False`` the fit uses first tries only, and rows of other levels, or
  a player's later attempts without a first attempt, are ignored -- so with
  ``dropout="ignore"`` the fit on a table equals the fit on its first attempts (with
  ``dropout="model"`` it does not: skill_quit's decision covariates ``won`` and ``attempts``
  read the retries). The 95 % interval is β ± z·SE with SE from the inverse information, checked
  against the plain reference of skill_fit; ability 0 is the mean of the players in the data.
* skill_fit.lltm: a level without telemetry gets variance x Var(γ) xᵀ + τ².
* players.simulate_telemetry: quitting after ``run`` first-try failures in a row with chance
  min(1, quit_rate × run), a first-try win resetting the run, each decision drawn from the
  stream ``quit/{player.id}``; the games are those of ``"all"`` mode.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from labkit.hexpuzzle import campaign, fit_skill_model, make_players, score, simulate_telemetry
from labkit.hexpuzzle.difficulty.fit import strengths
from labkit.hexpuzzle.difficulty.skill_fit import (
    Responses,
    abilities,
    gauss_hermite,
    lltm,
    marginal_fit,
)
from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill
from labkit.rng import make_rng, stream

Z95 = 1.959963984540054
IDS = [f"L{i}" for i in range(6)]
BETA = np.linspace(-1.5, 1.5, 6)


@pytest.fixture(scope="module")
def table():
    theta = np.random.default_rng(0).normal(0.7, 1.0, 240)
    return telemetry_from_skill(IDS, BETA, theta, rng=1, max_attempts=3)


def same_fit(a, b):
    np.testing.assert_array_equal(a.difficulty, b.difficulty)
    np.testing.assert_array_equal(a.difficulty_ci, b.difficulty_ci)
    np.testing.assert_array_equal(a.ability, b.ability)
    assert a.player_ids == b.player_ids and a.ability_sd == b.ability_sd


@settings(max_examples=6, deadline=None, phases=[Phase.generate])
@given(order=st.randoms(use_true_random=False), junk=st.integers(0, 40), orphans=st.integers(0, 20))
def test_first_tries_fit_ignores_retries_other_levels_and_orphan_attempts(
    table, order, junk, orphans
):
    first = table[table["attempt"] == 1]
    assert len(first) < len(table)  # the table has retries to ignore
    wide_dtype = [(n, "U12" if n in ("level", "player") else t) for n, (t, _) in
                  table.dtype.fields.items()]  # fmt: skip
    base = table.astype(wide_dtype)
    extra = base[:junk].copy()
    extra["level"] = [f"other{i}" for i in range(junk)]  # rows of levels not asked for
    orphan = base[base["attempt"] > 1][:orphans].copy()
    orphan["player"] = [f"ghost{i}" for i in range(len(orphan))]  # later attempts, no first
    rows = np.concatenate([base, extra, orphan])
    rows = rows[order.sample(range(len(rows)), len(rows))]  # "in any row order"
    # orphans cannot be true (a later attempt without the first: issue 46): kept and counted
    wide = fit_skill_model(rows, IDS, features=False, dropout="ignore", retries=False,
                           impossible="count")  # fmt: skip
    same_fit(wide, fit_skill_model(first, IDS, features=False, dropout="ignore", retries=False))
    assert wide.fit_info["ignored_rows"] == junk
    assert wide.fit_info["impossible"]["gaps"] == len(orphan)
    assert (
        wide.n_attempts.tolist()
        == np.bincount([IDS.index(v) for v in first["level"]], minlength=6).tolist()
    )


def reference(table):
    """skill_fit's plain first-attempts Rasch fit on the same 41-node quadrature."""
    first = table[table["attempt"] == 1]
    lvl = np.array([IDS.index(v) for v in first["level"]])
    players, pid = np.unique(first["player"], return_inverse=True)
    data = Responses(lvl, pid, first["won"].astype(float), len(IDS), len(players))
    z, logw = gauss_hermite(41)
    beta, ls, info = marginal_fit(data, z, logw)
    theta, _ = abilities(data, beta, ls, z, logw)
    return beta, np.sqrt(np.diag(np.linalg.inv(info))[: len(IDS)]), theta


def test_interval_is_beta_plus_minus_z_se_and_ability_zero_is_the_players_mean(table):
    model = fit_skill_model(table, IDS, features=False, dropout="ignore", retries=False)
    beta, se, theta = reference(table)
    lo, hi = model.difficulty_ci.T
    np.testing.assert_allclose((lo + hi) / 2, model.difficulty, rtol=0, atol=1e-12)
    np.testing.assert_allclose((hi - lo) / 2, Z95 * se, rtol=1e-4)
    assert abs(model.ability.mean()) < 1e-12  # ability 0 = mean of the players in the data
    # anchored there, difficulties are the reference's minus its players' mean ability
    np.testing.assert_allclose(model.difficulty, beta - theta.mean(), rtol=0, atol=2e-4)
    assert abs(model.fit_info["population_mean"] + theta.mean()) < 2e-4
    # a population 0.7 logits above the levels' zero: the levels are placed 0.7 lower
    assert abs(np.mean(model.difficulty - BETA) + 0.7) < 0.25


def test_unplayed_level_gets_the_prediction_variance_plus_tau_squared():
    levels = [score(lv) for lv in campaign()[:14]]
    x = np.array([strengths(d) for d in levels])
    beta = -1.0 + x @ np.array([0.8, 1.2, 1.5, 0.8, 2.0, 0.6])
    theta = np.random.default_rng(3).normal(0, 1, 150)
    rows = telemetry_from_skill(levels[:11], beta[:11], theta, rng=4, progression=False)
    model = fit_skill_model(rows, levels, dropout="ignore", retries=False)
    assert model.n_attempts[11:].tolist() == [0, 0, 0]
    design = np.column_stack([np.ones(3), model.strengths[11:]])
    var = np.einsum("ij,jk,ik->i", design, model.weights_cov, design) + model.residual_sd**2
    half = (model.difficulty_ci[11:, 1] - model.difficulty_ci[11:, 0]) / 2
    np.testing.assert_allclose(half, Z95 * np.sqrt(var), rtol=1e-9)
    gamma = [
        model.weights["baseline"],
        *(model.weights[p] for p in model.weights if p != "baseline"),
    ]
    np.testing.assert_allclose(model.difficulty[11:], design @ gamma, rtol=0, atol=1e-9)


def test_lltm_alone_new_level_variance():
    rng = np.random.default_rng(5)
    X = np.column_stack([np.ones(9), rng.uniform(0, 1, (9, 2))])
    est = X @ [0.5, 1.0, -1.0] + rng.normal(0, 0.4, 9)
    V = np.diag(rng.uniform(0.01, 0.05, 9))
    X_new = np.array([[1.0, 0.2, 0.9], [1.0, 1.0, 0.0]])
    _, cov, b_new, v_new, gamma, gcov, tau = lltm(est, V, X, X_new)
    np.testing.assert_allclose(b_new, X_new @ gamma)
    np.testing.assert_allclose(v_new, [x @ gcov @ x + tau**2 for x in X_new])
    assert tau > 0 and np.all(np.diag(cov) < np.diag(V) + tau**2)  # shrinkage lowers variance


# -- the player simulation ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def progression():
    levels = campaign()[8:16]
    players = make_players(60, rng=7)
    full = simulate_telemetry(levels, players, rng=11, max_attempts=2)
    prog = simulate_telemetry(levels, players, rng=11, max_attempts=2, mode="progression",
                              quit_rate=0.3)  # fmt: skip
    return [lv.id for lv in levels], players, full, prog


def first_tries(table, pid, ids):
    mine = table[(table["player"] == pid) & (table["attempt"] == 1)]
    won = dict(zip(mine["level"].tolist(), mine["won"].tolist()))
    return [bool(won[i]) for i in ids if i in won]


def test_each_quit_decision_is_the_documented_rule_on_the_players_own_stream(progression):
    ids, players, full, prog = progression
    root = make_rng(11)
    stopped_early = 0
    for p in players:
        outcome = first_tries(full, p.id, ids)  # all mode: every level's first try
        gen, run, expect = stream(root, f"quit/{p.id}"), 0, len(ids)
        for k, won in enumerate(outcome):
            run = 0 if won else run + 1  # a first-try win resets the run
            if gen.random() < min(1.0, 0.3 * run):
                expect = k + 1
                break
        played = first_tries(prog, p.id, ids)
        assert played == outcome[:expect], p.id
        stopped_early += expect < len(ids)
    assert 10 < stopped_early < 55  # the rule was exercised both ways


def test_progression_games_are_all_modes_games(progression):
    _, _, full, prog = progression
    rows = set(map(tuple, full.tolist()))
    assert all(tuple(r) in rows for r in prog.tolist())
