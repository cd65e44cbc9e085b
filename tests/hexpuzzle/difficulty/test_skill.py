"""The skill model against known truth: progression telemetry with weak players quitting early."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
from scipy.optimize import approx_fprime
from scipy.stats import spearmanr

from labkit import ArgumentError
from labkit.hexpuzzle import (
    SkillModel,
    SkillModelError,
    campaign,
    fit_skill_model,
    generate,
    score,
    telemetry_from_skill,
)
from labkit.hexpuzzle.difficulty.fit import strengths
from labkit.hexpuzzle.difficulty.skill_fit import Responses, gauss_hermite

# The truth: logits at full strength per part (size, turns, layers, blocking, rotation,
# pressure), a baseline, and a per-level residual the parts do not explain.
TRUE_WEIGHTS = np.array([0.8, 1.2, 1.5, 0.8, 2.0, 0.6])
TRUE_BASELINE, TRUE_RESIDUAL, ABILITY_SD = -2.2, 0.3, 1.2
PLAYERS, QUIT_RATE = 1000, 0.06


@pytest.fixture(scope="module")
def world():
    """The campaign plus 36 generated levels met in a campaign order, and 8 nobody plays."""
    generated = [
        generate(i, radius=2 if i % 2 else 3, tiles=(5, 12), id=f"gen-{i:02d}") for i in range(44)
    ]
    diffs = [score(lv) for lv in campaign() + generated]
    return diffs[:-8], diffs[-8:]


def true_difficulty(diffs, gen):
    x = np.array([strengths(d) for d in diffs])
    return TRUE_BASELINE + x @ TRUE_WEIGHTS + gen.normal(0, TRUE_RESIDUAL, len(diffs))


def progression_case(world, seed):
    played, unseen = world
    gen = np.random.default_rng(seed)
    beta = true_difficulty(played, gen)
    # a designer's order: roughly easy to hard, with plenty of mistakes
    order = np.argsort(beta + gen.normal(0, 0.8, len(beta)))
    levels, beta = [played[i] for i in order], beta[order]
    theta = gen.normal(0, ABILITY_SD, PLAYERS)
    table = telemetry_from_skill(levels, beta, theta, rng=seed, quit_rate=QUIT_RATE)
    return levels, beta, theta, table, true_difficulty(unseen, gen)


@pytest.fixture(scope="module")
def cases(world):
    out = []
    for seed in range(3):
        levels, beta, theta, table, beta_unseen = progression_case(world, seed)
        model = fit_skill_model(table, levels)
        out.append((levels, beta, theta, table, beta_unseen, model))
    return out


def raw_failure_rate(table, levels):
    return np.array([1 - table["won"][table["level"] == d.level_id].mean() for d in levels])


def test_weak_players_quit_so_the_raw_failure_rate_ranks_badly(cases):
    for levels, beta, _theta, table, _, _model in cases:
        counts = np.array([(table["level"] == d.level_id).sum() for d in levels])
        assert counts[0] == PLAYERS and counts[-1] < PLAYERS / 10
        assert spearmanr(raw_failure_rate(table, levels), beta)[0] < 0.85


def test_fitted_difficulty_ranks_the_levels_like_the_truth(cases):
    for _levels, beta, theta, _table, _, model in cases:
        # ability 0 is the mean of all players in the data: the truth on the model's scale
        truth = beta - theta.mean()
        assert spearmanr(model.difficulty, truth)[0] >= 0.95
        assert abs(np.mean(model.difficulty - truth)) < 0.15


def test_truth_lies_in_the_95_percent_interval_for_90_percent_of_levels(cases):
    inside = [
        (model.difficulty_ci[:, 0] <= beta - theta.mean())
        & (beta - theta.mean() <= model.difficulty_ci[:, 1])
        for _levels, beta, theta, _t, _u, model in cases
    ]
    assert np.concatenate(inside).mean() >= 0.90


def test_success_of_unseen_levels_for_a_median_player(world, cases):
    _, unseen = world
    errors = []
    for _levels, _beta, theta, _table, beta_unseen, model in cases:
        median = float(np.median(theta) - theta.mean())
        for d, b in zip(unseen, beta_unseen - theta.mean()):
            assert d.level_id not in model.level_ids
            errors.append(model.success(d, median) - 1 / (1 + math.exp(b - median)))
    assert np.mean(np.abs(errors)) <= 0.05


def test_abilities_are_centred_and_track_the_truth(cases):
    _levels, _beta, theta, table, _, model = cases[0]
    assert abs(model.ability.mean()) < 1e-9
    assert len(model.player_ids) == PLAYERS
    order = np.argsort([int(p[1:]) for p in model.player_ids])
    assert np.corrcoef(model.ability[order], theta)[0, 1] > 0.7
    assert abs(model.ability_sd - ABILITY_SD) < 0.15


def test_held_out_log_loss_beats_the_structural_score_and_the_calibrate_index(cases):
    model = cases[0][-1]
    report = model.report(folds=3)
    m = report.metrics
    assert m["skill model"]["log_loss"] < m["structural score"]["log_loss"]
    assert m["skill model"]["log_loss"] < m["calibrate index"]["log_loss"]
    assert m["skill model"]["brier"] < m["calibrate index"]["brier"]
    assert m["skill model"]["spearman"] > m["calibrate index"]["spearman"]
    assert report.n_players == PLAYERS and "skill model" in str(report)
    assert report.bins.shape[1] == 3 and report.bins[:, 2].sum() == report.n_attempts
    # calibration: predicted and observed agree within a few points where the data are
    big = report.bins[:, 2] > 200
    assert np.abs(report.bins[big, 0] - report.bins[big, 1]).max() < 0.05
    assert "<svg" in report._repr_html_()


def test_without_features_levels_are_rated_alone(cases):
    levels, beta, theta, table, _, _ = cases[1]
    free = fit_skill_model(table, [d.level_id for d in levels], features=False)
    assert free.weights == {} and math.isnan(free.residual_sd)
    assert spearmanr(free.difficulty, beta)[0] >= 0.9
    with pytest.raises(ArgumentError, match="no part weights"):
        free.success(dataclasses.replace(levels[0], level_id="new"))
    with pytest.raises(ArgumentError, match="level: no such level"):
        free.success("nowhere")
    with pytest.raises(ArgumentError, match="ids alone"):
        fit_skill_model(table, [d.level_id for d in levels])


def test_calibrated_score_follows_the_documented_mapping():
    s = np.array([0.99, 0.85, 0.65, 0.45, 0.2])
    beta = -np.log(s / (1 - s))
    model = SkillModel(
        level_ids=tuple("abcde"),
        difficulty=beta,
        difficulty_ci=np.column_stack([beta - 1, beta + 1]),
        player_ids=("p",),
        ability=np.zeros(1),
        ability_sd=1.0,
        weights={},
        residual_sd=float("nan"),
        n_attempts=np.ones(5, dtype=np.int64),
        strengths=np.full((5, 6), np.nan),
        features=False,
    )
    # the last: 70 + 30 × (0.45 − 0.2) / 0.45
    assert [model.calibrated_score(x) for x in "abcde"] == [2, 30, 50, 70, 87]
    assert [model.band(x) for x in "abcde"] == [
        "easy",
        "intermediate",
        "hard",
        "challenge",
        "challenge",
    ]
    assert model.success("b", ability=0.0) == pytest.approx(0.85)
    assert model.success("b", ability=10.0) > 0.999


def test_save_load_round_trip_and_bad_files(cases, tmp_path):
    model = cases[0][-1]
    path = tmp_path / "m.json"
    model.save(path)
    back = SkillModel.load(path)
    assert back.level_ids == model.level_ids and back.player_ids == model.player_ids
    np.testing.assert_allclose(back.difficulty, model.difficulty)
    np.testing.assert_allclose(back.difficulty_ci, model.difficulty_ci)
    assert back.weights == model.weights
    d = cases[0][0][5]
    assert back.success(d, 0.3) == pytest.approx(model.success(d, 0.3))
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]
    doc = json.loads(path.read_text())
    assert doc["format"] == "labkit.hexpuzzle.skill-model" and doc["version"] == 1
    doc["version"] = 7
    path.write_text(json.dumps(doc))
    with pytest.raises(SkillModelError, match="version"):
        SkillModel.load(path)
    doc["version"] = 1
    del doc["weights"]["turns"]
    path.write_text(json.dumps(doc))
    with pytest.raises(SkillModelError, match="weights"):
        SkillModel.load(path)
    with pytest.raises(SkillModelError, match="no data"):
        back.report()


def test_too_little_data_is_a_clear_error(world):
    played, _ = world
    with pytest.raises(SkillModelError, match="at least two players"):
        fit_skill_model(telemetry_from_skill(["x"], [0.0], [0.0], rng=0), played[:3])


def test_marginal_likelihood_and_gradient_match_a_plain_reference():
    gen = np.random.default_rng(3)
    L, P = 4, 12
    pairs = [(lv, p) for lv in range(L) for p in range(P) if gen.random() < 0.6]
    lvl, pl = np.array(pairs).T
    won = gen.random(len(lvl)) < 0.5
    data = Responses(lvl, pl, won, L, P)
    z, logw = gauss_hermite()
    beta, ls = gen.normal(size=L), 0.3

    def reference(x):
        # the marginal log-likelihood, one player and one node at a time
        total = 0.0
        for p in range(P):
            lik = 0.0
            for zk, lw in zip(z, logw):
                th = math.exp(x[L]) * zk
                prod = math.exp(lw)
                for lv, pp, y in zip(lvl, pl, won):
                    if pp == p:
                        q = 1 / (1 + math.exp(-(th - x[lv])))
                        prod *= q if y else 1 - q
                lik += prod
            total += math.log(lik)
        return total

    x = np.r_[beta, ls]
    post, marg, p_win = data.posterior(beta, math.exp(ls), z, logw)
    assert marg.sum() == pytest.approx(reference(x), rel=1e-10)
    g_beta, g_ls = data.gradients(post, p_win, math.exp(ls), z)
    np.testing.assert_allclose(np.r_[g_beta, g_ls], approx_fprime(x, reference, 1e-6), atol=1e-4)
    scores = data.player_scores(post, p_win, math.exp(ls), z)
    np.testing.assert_allclose(np.asarray(scores.sum(axis=0)).ravel(), np.r_[g_beta, g_ls])


def test_telemetry_from_skill_checks_its_arguments():
    with pytest.raises(ArgumentError, match="difficulty"):
        telemetry_from_skill(["a", "b"], [0.0], [0.0])
    with pytest.raises(ArgumentError, match="ability"):
        telemetry_from_skill(["a"], [0.0], [[0.0]])
    with pytest.raises(ArgumentError, match="quit_rate"):
        telemetry_from_skill(["a"], [0.0], [0.0], quit_rate=2)
    everyone = telemetry_from_skill(["a", "b", "c"], [9.0] * 3, [0.0] * 5, rng=0, quit_rate=1.0)
    assert sorted(set(everyone["level"].tolist())) == ["a"]  # all fail, all quit at once
    stay = telemetry_from_skill(["a", "b", "c"], [9.0] * 3, [0.0] * 5, progression=False)
    assert len(stay) == 15


@pytest.mark.parametrize(
    "edit, pointer",
    [
        (lambda d: d["levels"][0].update(ci=[0.0]), "/levels/0/ci"),
        (lambda d: d["levels"][1].update(n=-1), "/levels/1/n"),
        (lambda d: d["levels"][0].update(difficulty="hard"), "/levels/0/difficulty"),
        (lambda d: d["levels"][0]["strengths"].pop(), "/levels/0/strengths"),
        (lambda d: d["players"]["ability"].pop(), "/players"),
        (lambda d: d.update(weights_cov=[[1.0]]), "/weights_cov"),
        (lambda d: d.update(residual_sd="x"), "/residual_sd"),
        (lambda d: d["levels"].append(dict(d["levels"][0])), "/levels"),
    ],
)
def test_bad_model_documents_name_the_field(cases, edit, pointer):
    doc = json.loads(json.dumps(cases[0][-1].to_dict()))
    edit(doc)
    with pytest.raises(SkillModelError, match=f"^{pointer}: "):
        SkillModel.from_dict(doc)


def test_row_order_and_player_names_do_not_change_the_fit(cases):
    levels, _, _, table, _, model = cases[2]
    shuffled = table[np.random.default_rng(0).permutation(len(table))].copy()
    # new names in the reverse order, of the same width
    shuffled["player"] = [f"z{9999 - int(p[1:]):04d}" for p in shuffled["player"].tolist()]
    again = fit_skill_model(shuffled, levels)
    np.testing.assert_allclose(again.difficulty, model.difficulty, atol=1e-4)
    np.testing.assert_allclose(again.difficulty_ci, model.difficulty_ci, atol=1e-4)


def test_simulated_players_abilities_follow_their_skill():
    from labkit._data import data_path
    from labkit.hexpuzzle import load_telemetry, make_players

    # the shipped progression telemetry: scripts/make_skill_model.py's players, seed and ids
    table = load_telemetry(data_path("telemetry", "progression.csv"), frame=False)
    skill = {p.id: p.skill for p in make_players(300, rng=20261130, prefix="q")}
    model = fit_skill_model(table, campaign())
    assert set(model.player_ids) == set(skill)
    rho = spearmanr(model.ability, [skill[p] for p in model.player_ids])[0]
    assert rho > 0.8
    # harder campaign levels (by the structural score) come out harder
    assert spearmanr(model.difficulty, [score(lv).total for lv in campaign()])[0] > 0.8


def test_other_columns_say_something_about_players_not_levels(cases):
    from labkit._data import data_path
    from labkit.hexpuzzle import load_telemetry

    # simulated players: collisions, hints and time come from the same skill as winning
    table = load_telemetry(data_path("telemetry", "sample.csv"), frame=False)
    m = fit_skill_model(table, campaign()).report(folds=3).metrics
    assert m["skill + player columns"]["log_loss"] < m["skill model"]["log_loss"] - 0.01
    assert abs(m["skill + level columns"]["log_loss"] - m["skill model"]["log_loss"]) < 0.005
    # telemetry with nothing but wins and losses: the columns can add nothing
    m = cases[2][-1].report(folds=2).metrics
    assert m["skill + player columns"]["log_loss"] == pytest.approx(m["skill model"]["log_loss"])


# --- data that cannot tell how hard a level is (issue 46) -------------------------------------


def first_attempts(players, won_a, won_b):
    """Two levels A and B, one first attempt per player at each; ``won_*`` a flag or an array."""
    import pandas as pd

    ids = np.char.add("p", np.arange(players).astype(str))
    return pd.DataFrame({
        "level": np.repeat(["A", "B"], players), "player": np.tile(ids, 2), "attempt": 1,
        "won": np.concatenate([np.broadcast_to(won_a, players), np.broadcast_to(won_b, players)]),
    })  # fmt: skip


@pytest.mark.parametrize("players", [1_000, 100_000])
@pytest.mark.parametrize(("won", "said"), [(True, "every attempt was won"),
                                           (False, "every attempt was lost")])  # fmt: skip
def test_a_table_everyone_wins_or_everyone_loses_is_refused_in_one_line(players, won, said):
    """It fitted to a difficulty of -13,436 (1,000 players) or 5.5 million (10^5), abilities
    spread 154 to 7e7 logits: the data say nothing about how hard either level is."""
    for dropout in ("model", "ignore"):
        with pytest.raises(SkillModelError) as info:
            fit_skill_model(first_attempts(players, won, won), ["A", "B"], features=False,
                            dropout=dropout)  # fmt: skip
        text = str(info.value)
        assert text == (f"telemetry: {said}: the data cannot tell how hard any level is "
                        f"(got {players} players, 2 levels)"), text  # fmt: skip


def test_levels_each_won_by_all_or_lost_by_all_are_refused_naming_them():
    with pytest.raises(SkillModelError) as info:
        fit_skill_model(first_attempts(1_000, True, False), ["A", "B"], features=False)
    text = str(info.value)
    assert "every level was won by all or lost by all who played it (won: 'A'; lost: 'B')" in (
        text) and "\n" not in text  # fmt: skip


def test_one_level_nobody_lost_beside_levels_with_both_still_fits():
    """Its difficulty is held by the prior, far below the others; the rest are recovered."""
    beta = np.array([0.0, -0.5, 0.5, 1.0])
    theta = np.random.default_rng(11).normal(0, 1, 2_000)
    rows = telemetry_from_skill(["E", "A", "B", "C"], beta, theta, rng=4, progression=False)
    rows = rows[rows["attempt"] == 1]
    easy = rows["level"] == "E"
    rows["won"][easy] = rows["first_try"][easy] = True
    for dropout in ("model", "ignore"):
        m = fit_skill_model(rows, ["E", "A", "B", "C"], features=False, dropout=dropout)
        assert np.isfinite(m.difficulty).all()
        assert -30 < m.difficulty[0] < m.difficulty[1:].min() - 2, m.difficulty
        assert np.abs(np.diff(m.difficulty[1:]) - [1.0, 0.5]).max() < 0.3, m.difficulty
        assert 0.5 < m.ability_sd < 2.0, m.ability_sd


def test_a_fit_beyond_the_stated_bounds_is_refused_naming_the_level(monkeypatch):
    """The safety net behind the exact checks: a finished fit with a difficulty or an ability
    spread no data could give is refused, not returned."""
    from labkit.hexpuzzle.difficulty import skill_joint as J

    fit = J.fit
    theta = np.random.default_rng(2).normal(0, 1, 500)
    rows = telemetry_from_skill(["A", "B"], np.array([-0.5, 0.5]), theta, rng=3,
                                progression=False)  # fmt: skip
    rows = rows[rows["attempt"] == 1]

    def far(ev, lay, z, logw):
        par, info, th, extra = fit(ev, lay, z, logw)
        par = par.copy()
        par[lay.beta.start + 1] = 1e6
        return par, info, th, extra

    monkeypatch.setattr(J, "fit", far)
    with pytest.raises(SkillModelError, match=r"level 'B': .*beyond"):
        fit_skill_model(rows, ["A", "B"], features=False, dropout="ignore", retries=False)

    def wide(ev, lay, z, logw):
        par, info, th, extra = fit(ev, lay, z, logw)
        par = par.copy()
        par[lay.log_sigma] = np.log(1e4)
        return par, info, th, extra

    monkeypatch.setattr(J, "fit", wide)
    with pytest.raises(SkillModelError, match=r"ability spread .*beyond"):
        fit_skill_model(rows, ["A", "B"], features=False, dropout="ignore", retries=False)
