"""labkit.hexpuzzle.difficulty.skill: its rules exactly, on small inputs (the fast mirror).

The slow known-truth tests (tests/hexpuzzle/difficulty/test_skill.py: 1000-player progressions
on 60 generated levels) take 40 s a run; ``make mutate`` judges skill.py by this file and
tests/hexpuzzle/test_skill_exact.py. Expected values come from the docstrings' rules:
success σ(α·(θ − β) + λ·(min(k, 6) − 1)); the calibrated score piecewise linear in s through
(1, 0), (0.85, 30), (0.65, 50), (0.45, 70), (0, 100), rounded half up; the interval β ± z·SE;
ability 0 = the mean of the players in the data.
"""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import SkillModel, SkillModelError, campaign, fit_skill_model, score
from labkit.hexpuzzle.difficulty import skill
from labkit.hexpuzzle.difficulty.fit import strengths
from labkit.hexpuzzle.difficulty.scoring import PARTS
from labkit.hexpuzzle.difficulty.skill_quit import QUIT_TERMS, QuitModel
from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill

Z95 = 1.959963984540054


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def made(**over):
    """Three levels a, b, c (β -1, 0, 2; half-widths 0.5, 1, 2) and two players, by hand."""
    beta = np.array([-1.0, 0.0, 2.0])
    half = np.array([0.5, 1.0, 2.0])
    fields = dict(
        level_ids=("a", "b", "c"),
        difficulty=beta,
        difficulty_ci=np.column_stack([beta - half, beta + half]),
        player_ids=("p", "q"),
        ability=np.array([-0.5, 0.5]),
        ability_sd=1.25,
        weights={},
        residual_sd=float("nan"),
        n_attempts=np.array([10, 7, 3], dtype=np.int64),
        strengths=np.full((3, 6), np.nan),
        features=False,
    )
    fields.update(over)
    return SkillModel(**fields)


# -- difficulty_of and success ------------------------------------------------------------------
def test_difficulty_of_an_id_is_its_fitted_beta_and_unknowns_are_named():
    model = made()
    assert model.difficulty_of("c") == 2.0 and isinstance(model.difficulty_of("c"), float)
    with pytest.raises(ArgumentError) as err:
        model.difficulty_of("zz")
    assert str(err.value) == "level: no such level in the model (got 'zz')"
    unplayed = made(difficulty=np.array([-1.0, np.nan, 2.0]))
    with pytest.raises(ArgumentError) as err:
        unplayed.difficulty_of("b")
    assert str(err.value) == (
        "level: nobody played this level and the model has no part weights to predict it (got 'b')"
    )


@pytest.fixture(scope="module")
def scored():
    return [score(lv) for lv in campaign()[:4]]


def test_a_level_object_uses_its_fitted_beta_when_its_parts_match_else_its_prediction(scored):
    d0, d1 = scored[0], scored[1]
    xs = np.array([strengths(d0), strengths(d1), strengths(scored[2])])
    w = dict(zip(PARTS, [0.5, 1.0, 1.5, 2.0, 2.5, 3.0]))
    model = made(level_ids=(d0.level_id, d1.level_id, "c"), strengths=xs, features=True,
                 weights={"baseline": -2.0, **w})  # fmt: skip
    assert model.difficulty_of(d0) == -1.0  # a Difficulty whose parts match: the fitted β
    assert model.difficulty_of(campaign()[1]) == 0.0  # a Level is scored first
    other = dataclasses.replace(d0, level_id="new")
    predicted = -2.0 + sum(w[p] * v for p, v in zip(PARTS, strengths(d0)))
    assert model.difficulty_of(other) == pytest.approx(predicted, abs=1e-12)
    # the same id with other parts is a new level too (the parts decide, not the id)
    changed = made(level_ids=(d0.level_id, d1.level_id, "c"), strengths=xs[[1, 0, 2]],
                   features=True, weights={"baseline": -2.0, **w})  # fmt: skip
    assert changed.difficulty_of(d0) == pytest.approx(predicted, abs=1e-12)
    assert changed.success(d0) == pytest.approx(sigmoid(-predicted), abs=1e-12)


def test_a_new_level_without_weights_or_without_a_score_is_refused(scored):
    d0 = scored[0]
    free = made(strengths=np.array([strengths(d) for d in scored[:3]]))
    with pytest.raises(ArgumentError) as err:
        free.difficulty_of(dataclasses.replace(d0, level_id="new"))
    assert (
        str(err.value)
        == "level: cannot predict a new level: the model has no part weights (got 'new')"
    )
    featured = made(features=True, weights={"baseline": 0.0, **dict.fromkeys(PARTS, 1.0)})
    blank = dataclasses.replace(d0, level_id="blank", parts=dict.fromkeys(PARTS))
    assert not np.isfinite(strengths(blank)).all()
    with pytest.raises(ArgumentError) as err:
        featured.difficulty_of(blank)
    assert str(err.value) == "level: cannot predict a new level: it has no score (got 'blank')"


def test_success_is_the_logistic_of_ability_minus_difficulty_with_learning_per_retry():
    model = made(learning=0.4)
    assert model.success("b") == 0.5 and isinstance(model.success("b"), float)
    assert model.success("a", 0.5) == pytest.approx(sigmoid(1.5), abs=1e-15)
    assert model.success("c", ability=1.0, attempt=3) == pytest.approx(sigmoid(-1.0 + 0.8))
    # retries from the sixth on share one step: attempt 6, 7 and 50 alike (5 steps)
    six = sigmoid(-2.0 + 5 * 0.4)
    assert [model.success("c", attempt=k) for k in (5, 6, 7, 50)] == pytest.approx(
        [sigmoid(-2.0 + 1.6), six, six, six], abs=1e-15
    )
    many = model.success("b", [-1.0, 0.0, 1.0])
    assert isinstance(many, np.ndarray)
    np.testing.assert_allclose(many, [sigmoid(-1.0), 0.5, sigmoid(1.0)], rtol=0, atol=1e-15)
    for bad in (0, -1, 1.5):
        with pytest.raises(ArgumentError, match="attempt"):
            model.success("b", attempt=bad)


def test_a_level_in_the_data_has_its_own_discrimination():
    model = made(discrimination=np.array([1.0, 2.0, 0.5]))
    assert model.success("b", 1.0) == pytest.approx(sigmoid(2.0), abs=1e-15)
    assert model.success("c", 1.0) == pytest.approx(sigmoid(0.5 * -1.0), abs=1e-15)
    assert model.success("a", 1.0) == pytest.approx(sigmoid(2.0), abs=1e-15)


# -- calibrated score and band ------------------------------------------------------------------
def test_calibrated_score_follows_the_documented_mapping():
    s = np.array([0.99, 0.85, 0.65, 0.45, 0.2, 0.75, 0.01])
    beta = -np.log(s / (1 - s))
    model = made(level_ids=tuple("abcdefg"), difficulty=beta,
                 difficulty_ci=np.column_stack([beta - 1, beta + 1]),
                 n_attempts=np.ones(7, dtype=np.int64),
                 strengths=np.full((7, 6), np.nan))  # fmt: skip
    # 0.99: 30 × 0.01/0.15 = 2; 0.2: 70 + 30 × 0.25/0.45 = 86.7; 0.75: 30 + 20 × 0.1/0.2 = 40;
    # 0.01: 70 + 30 × 0.44/0.45 = 99.3
    assert [model.calibrated_score(x) for x in "abcdefg"] == [2, 30, 50, 70, 87, 40, 99]
    assert [model.band(x) for x in "abcdefg"] == [
        "easy", "intermediate", "hard", "challenge", "challenge", "intermediate", "challenge",
    ]  # fmt: skip
    assert isinstance(model.calibrated_score("a"), int) and isinstance(model.band("a"), str)


# -- parameter draws ----------------------------------------------------------------------------
def test_parameter_draws_without_covariance_are_the_estimates_and_intervals_set_the_spread():
    model = made(learning=0.3)
    draws = model.parameter_draws(20000, rng=4)
    assert set(draws) == {"difficulty", "ability_sd", "learning", "quit"}
    assert draws["difficulty"].shape == (20000, 3) and draws["quit"] is None
    np.testing.assert_array_equal(draws["ability_sd"], np.full(20000, 1.25))
    np.testing.assert_array_equal(draws["learning"], np.full(20000, 0.3))
    # sd = interval width / (2 × 1.96): 0.5/1.96, 1/1.96, 2/1.96
    np.testing.assert_allclose(draws["difficulty"].std(axis=0), np.array([0.5, 1, 2]) / Z95,
                               rtol=0.03)  # fmt: skip
    np.testing.assert_allclose(draws["difficulty"].mean(axis=0), [-1, 0, 2], atol=0.05)
    again = model.parameter_draws(20000, rng=4)
    np.testing.assert_array_equal(again["difficulty"], draws["difficulty"])
    for bad in (0, 1_000_001):
        with pytest.raises(ArgumentError, match="n"):
            model.parameter_draws(bad)


def test_an_unplayed_level_draws_no_spread():
    beta = np.array([-1.0, np.nan, 2.0])
    model = made(difficulty=beta, difficulty_ci=np.column_stack([beta - 1, beta + 1]))
    d = model.parameter_draws(50, rng=1)["difficulty"]
    assert np.isnan(d[:, 1]).all() and np.isfinite(d[:, [0, 2]]).all()


def test_parameter_draws_follow_the_global_covariance():
    coef = dict(zip(QUIT_TERMS, [-1.0, -0.8, -2.0, 0.6, 1.0, 1.2, 1.4, 0.1, 0.05]))
    quit_model = QuitModel(coef)
    cov = np.diag([0.04, 0.01] + [0.25] * 9)
    cov[0, 1] = cov[1, 0] = 0.01  # log sd and learning correlated 0.5
    model = made(learning=0.2, quit_model=quit_model, global_cov=cov)
    d = model.parameter_draws(40000, rng=2)
    log_sd = np.log(d["ability_sd"])
    assert abs(log_sd.mean() - math.log(1.25)) < 0.01  # drawn on the log scale
    assert abs(log_sd.var() - 0.04) < 0.003 and abs(d["learning"].var() - 0.01) < 0.001
    assert abs(np.corrcoef(log_sd, d["learning"])[0, 1] - 0.5) < 0.03
    assert d["quit"].shape == (40000, 9)
    np.testing.assert_allclose(d["quit"].mean(axis=0), quit_model.vector, atol=0.02)
    np.testing.assert_allclose(d["quit"].var(axis=0), 0.25, rtol=0.05)
    # a covariance of another shape is not used: the estimates alone
    flat = made(learning=0.2, quit_model=quit_model, global_cov=np.eye(3)).parameter_draws(5)
    np.testing.assert_array_equal(flat["quit"], np.tile(quit_model.vector, (5, 1)))
    np.testing.assert_array_equal(flat["ability_sd"], np.full(5, 1.25))


# -- table, words, repr, html -------------------------------------------------------------------
def test_table_rounds_and_marks_unplayed_levels():
    beta = np.array([-1.23456, np.nan, 0.0])
    ci = np.column_stack([beta - 0.11111, beta + 0.22222])
    rows = made(difficulty=beta, difficulty_ci=ci).table()
    assert rows[0] == {
        "level": "a", "difficulty": -1.235, "low": -1.346, "high": -1.012, "n": 10,
        "success": round(sigmoid(1.23456), 3), "score": made(difficulty=beta).calibrated_score("a"),
        "band": made(difficulty=beta).band("a"),
    }  # fmt: skip
    assert rows[1] == {"level": "b", "difficulty": None, "low": None, "high": None, "n": 7,
                       "success": None, "score": None, "band": "unplayed"}  # fmt: skip
    assert rows[2]["success"] == 0.5 and rows[2]["score"] == 65 and rows[2]["band"] == "hard"
    assert type(rows[0]["n"]) is int


def test_dropout_and_describe_say_which_model_is_in_use():
    plain = made()
    assert plain.dropout == "ignore"
    assert plain.describe() == "quitting ignored (assumed to depend on results only)"
    coef = dict(zip(QUIT_TERMS, [-1.0, -0.5, -2.0, 0.6, 1.0, 1.2, 1.4, 0.1, 0.05]))
    cov = np.zeros((9, 9))
    cov[1, 1] = 0.01  # ability: -0.5 ± 1.96 × 0.1
    full = made(quit_model=QuitModel(coef, cov), learning=0.25,
                discrimination=np.ones(3))  # fmt: skip
    assert full.dropout == "model"
    # per one spread (sd 1.25) of skill: odds × exp(-0.5 × 1.25) = 0.535 (95 %: 0.419 to
    # 0.685), i.e. 46 % lower (32 % to 58 % lower); a retry: odds × exp(0.25) = 1.284
    assert full.describe() == (
        "quitting modelled jointly with skill; a player one spread (sd) of skill above another "
        "has 46 % lower odds of quitting (95 %: 32 % to 58 % lower); each retry raises the "
        "odds of a win by 28 %; per-level discrimination"
    )
    assert made(learning=-0.1).describe().endswith("; each retry lowers the odds of a win by 10 %")
    # issue 47: "quit odds ×1.00 per logit of skill [0.00, 350.37]" is said in words
    cov[1, 1] = 9.0  # ability: -0.5 ± 1.96 × 3: an interval over three orders of magnitude
    vague = made(quit_model=QuitModel(coef, cov))
    assert vague.describe() == ("quitting modelled jointly with skill; whether skill changes "
                                "quitting: cannot tell from this data")  # fmt: skip
    cov[1, 1] = 0.04  # -0.5 ± 0.39 on the logit scale: 0.535 (0.33 to 0.87) per spread
    coef["ability"] = 0.0
    none = made(quit_model=QuitModel(coef, cov))
    assert none.describe().endswith("no clear effect of skill on the odds of quitting "
                                    "(95 %: 39 % lower to 63 % higher)")  # fmt: skip


def test_repr_and_html_name_the_levels():
    model = made(level_ids=("a", "<b>", "c"), difficulty=np.array([-1.0, np.nan, 2.0]))
    assert repr(model) == "SkillModel(3 levels, 2 players, ability sd 1.25, features=False)"
    html = model._repr_html_()
    assert html.startswith(
        "<p>SkillModel(3 levels, 2 players, ability sd 1.25, features=False); weights (logits): "
        "none</p><table><tr><th>level</th><th>β</th><th>95 %</th><th>n</th><th>success</th>"
        "<th>score</th><th>band</th></tr>"
    )
    s = sigmoid(1.0)
    assert round(100 * s) == 73  # issue 47: first-try success as a percentage, not 0.73
    assert ("<tr><td>a</td><td>-1.00</td><td>[-1.50, -0.50]</td><td>10</td><td>73 %</td>"
            "<td>42</td><td>intermediate</td></tr>") in html  # 30 + 20 × 0.119/0.2  # fmt: skip
    assert "<tr><td>&lt;b&gt;</td><td colspan=6>nobody played it</td></tr>" in html
    weighted = made(weights={"baseline": 0.5, "size": -1.25})._repr_html_()
    assert "weights (logits): baseline +0.50, size -1.25</p>" in weighted


# -- files --------------------------------------------------------------------------------------
def full_model():
    coef = dict(zip(QUIT_TERMS, [-1.0, -0.5, -2.0, 0.6, 1.0, 1.2, 1.4, 0.1, 0.05]))
    x = np.linspace(0, 1, 18).reshape(3, 6)
    x[1, 2] = np.nan
    beta = np.array([-1.0, np.nan, 2.0])
    return made(
        difficulty=beta, difficulty_ci=np.column_stack([beta - [0.5, 1, 2], beta + [0.5, 1, 2]]),
        strengths=x, learning=0.25,
        discrimination=np.array([1.0, 0.5, 2.0]), quit_model=QuitModel(coef, np.eye(9) * 0.01),
        global_cov=np.eye(11) * 0.02, fit_info={"rows": 5},
    )  # fmt: skip


def test_to_dict_writes_every_field():
    doc = full_model().to_dict()
    assert list(doc)[:3] == ["format", "version", "labkit"]
    assert doc["format"] == "labkit.hexpuzzle.skill-model" and doc["version"] == 1
    assert doc["features"] is False and doc["ability_sd"] == 1.25 and doc["residual_sd"] is None
    assert doc["learning"] == 0.25 and doc["discrimination"] == [1.0, 0.5, 2.0]
    assert doc["quit_model"]["coefficients"]["ability"] == -0.5
    assert doc["global_cov"] == (np.eye(11) * 0.02).tolist() and doc["weights_cov"] == []
    assert doc["levels"][0] == {"id": "a", "difficulty": -1.0, "ci": [-1.5, -0.5], "n": 10,
                                "strengths": np.linspace(0, 1, 18)[:6].tolist()}  # fmt: skip
    assert doc["levels"][1]["difficulty"] is None and doc["levels"][1]["ci"] is None
    assert doc["levels"][1]["strengths"][2] is None
    assert doc["players"] == {"ids": ["p", "q"], "ability": [-0.5, 0.5]}
    assert doc["fit"] == {"rows": 5}
    assert made(residual_sd=0.3).to_dict()["residual_sd"] == 0.3
    plain = made().to_dict()
    assert plain["discrimination"] is None and plain["quit_model"] is None
    json.dumps(doc)  # JSON-ready


def test_save_and_load_round_trip_every_field(tmp_path):
    model = full_model()
    path = tmp_path / "m.json"
    model.save(path)
    back = SkillModel.load(path)
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]
    assert back.level_ids == model.level_ids and back.player_ids == model.player_ids
    for name in ("difficulty", "difficulty_ci", "ability", "strengths", "discrimination",
                 "global_cov", "n_attempts"):  # fmt: skip
        np.testing.assert_array_equal(getattr(back, name), getattr(model, name), err_msg=name)
    assert back.learning == 0.25 and back.ability_sd == 1.25 and np.isnan(back.residual_sd)
    assert back.quit_model.coefficients == model.quit_model.coefficients
    assert back.fit_info == {"rows": 5} and back.features is False
    assert SkillModel.from_dict(model.to_dict()).to_dict() == model.to_dict()


def test_a_bad_file_is_named(tmp_path):
    path = tmp_path / "m.json"
    doc = made().to_dict()
    doc["version"] = 7
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SkillModelError, match="version"):
        SkillModel.load(path)
    doc["version"] = 1
    doc["levels"][0]["n"] = "many"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SkillModelError) as err:
        SkillModel.load(path)
    assert str(path) in str(err.value) and "/levels/0" in str(err.value)
    with pytest.raises(SkillModelError) as err:
        made().report()
    assert str(err.value) == "a loaded model has no data to evaluate; refit it"


def test_the_shipped_model_is_the_data_file():
    from labkit._data import data_path

    shipped = skill.shipped_skill_model()
    doc = json.loads(data_path("telemetry", "skill_model.json").read_text(encoding="utf-8"))
    assert list(shipped.level_ids) == [lv["id"] for lv in doc["levels"]]
    assert shipped.level_ids[0] == "main-01" and shipped.features is doc["features"]


# -- the fit ------------------------------------------------------------------------------------
IDS = [f"L{i}" for i in range(5)]
BETA = np.linspace(-1.2, 1.2, 5)


@pytest.fixture(scope="module")
def rows():
    theta = np.random.default_rng(8).normal(0.3, 1.0, 150)
    return telemetry_from_skill(IDS, BETA, theta, rng=9, max_attempts=2, quit_rate=0.25)


def hand_counts(table):
    """Decisions and quits by the rule: one decision per level a player played, except the
    last of a player who reached the campaign's last level or played every level."""
    first = table[table["attempt"] == 1]
    by_player: dict[str, set[int]] = {}
    for lv, pid in zip(first["level"].tolist(), first["player"].tolist()):
        by_player.setdefault(pid, set()).add(IDS.index(lv))
    last = max(max(s) for s in by_player.values())
    stays = [max(s) == last or len(s) == len(IDS) for s in by_player.values()]
    return sum(len(s) for s in by_player.values()) - sum(stays), stays.count(False)


def test_the_fit_counts_what_it_used(rows):
    wide_dtype = [(n, "U12" if n in ("level", "player") else t) for n, (t, _) in
                  rows.dtype.fields.items()]  # fmt: skip
    base = rows.astype(wide_dtype)
    junk = base[:7].copy()
    junk["level"] = "elsewhere"
    junk["player"] = [f"junk{i}" for i in range(7)]  # players with no row of the levels asked
    orphan = base[base["attempt"] == 2][:3].copy()
    orphan["player"] = ["ghost0", "ghost1", "ghost2"]
    table = np.concatenate([base, junk, orphan])
    with pytest.raises(SkillModelError, match=f"row {len(base) + 8}: attempt 2 with no attempt 1"):
        fit_skill_model(table, IDS, features=False)  # the orphans cannot be true (issue 46)
    model = fit_skill_model(table, IDS, features=False, impossible="count")
    decisions, quits = hand_counts(rows)
    starts = {}  # each player's first level in campaign order, by hand
    for lv, pid in zip(table["level"].tolist(), table["player"].tolist()):
        if lv in IDS:
            starts[pid] = min(starts.get(pid, len(IDS)), IDS.index(lv))
    assert 10 < quits < 140  # quitting happened, and not by everyone
    first = rows[rows["attempt"] == 1]
    assert model.fit_info == {
        "estimator": "shared-parameter marginal ML (Gauss-Hermite)",
        "dropout": "model", "retries": True, "discrimination": False,
        "rows": len(rows), "ignored_rows": 7, "players": len(set(first["player"].tolist())),
        "decisions": decisions, "quits": quits,
        "population_mean": model.fit_info["population_mean"],
        "impossible": {"after_win": 0, "gaps": 3,
                       "mid_campaign": sum(v > 0 for v in starts.values())},
    }  # fmt: skip
    assert model.player_ids == tuple(sorted(set(first["player"].tolist())))
    assert (
        model.n_attempts.tolist() == [int((first["level"] == i).sum()) for i in IDS]
        and model.n_attempts.dtype == np.int64
    )
    assert model.dropout == "model" and model.quit_model is not None
    assert abs(model.ability.mean()) < 1e-12 and len(model.ability) == len(model.player_ids)
    half = (model.difficulty_ci[:, 1] - model.difficulty_ci[:, 0]) / 2
    np.testing.assert_allclose(model.difficulty_ci.mean(axis=1), model.difficulty, atol=1e-12)
    assert (half > 0).all()
    # the same fit on the table alone: junk and orphans change nothing
    alone = fit_skill_model(rows, IDS, features=False)
    np.testing.assert_array_equal(alone.difficulty, model.difficulty)
    assert alone.fit_info["ignored_rows"] == 0


def test_the_fits_options_and_their_words(rows):
    plain = fit_skill_model(rows, IDS, features=False, dropout="ignore", retries=False)
    assert plain.fit_info["estimator"] == "marginal ML (Gauss-Hermite)"
    assert (plain.fit_info["dropout"], plain.fit_info["retries"]) == ("ignore", False)
    assert plain.fit_info["decisions"] == 0 and plain.fit_info["quits"] == 0
    assert plain.quit_model is None and plain.learning == 0.0 and plain.discrimination is None
    assert plain.fit_info["rows"] == len(rows)  # every row is read, the retries then left out
    # no learning step: the documented layout keeps a zero row and column for it
    assert plain.global_cov.shape == (2, 2) and plain.global_cov[0, 0] > 0
    assert plain.global_cov[1].tolist() == [0.0, 0.0] and plain.global_cov[:, 1].tolist() == [0, 0]
    retried = fit_skill_model(rows, IDS, features=False, dropout="ignore")
    assert retried.global_cov.shape == (2, 2) and retried.global_cov[1, 1] > 0
    assert retried.learning != 0.0
    joint = fit_skill_model(rows, IDS, features=False)
    assert joint.global_cov.shape == (11, 11) and (np.diag(joint.global_cov) > 0).all()
    np.testing.assert_array_equal(joint.global_cov[2:, 2:], joint.quit_model.cov)
    two = fit_skill_model(rows, IDS, features=False, dropout="ignore", discrimination=True)
    assert two.discrimination.shape == (5,) and (two.discrimination > 0).all()
    assert two.fit_info["discrimination"] is True and not np.allclose(two.discrimination, 1)
    with pytest.raises(ArgumentError) as err:
        fit_skill_model(rows, IDS, dropout="both")
    assert str(err.value) == "dropout: must be 'model' or 'ignore' (got 'both')"


def test_nobody_quitting_is_no_quit_and_no_decision_leaves_no_quit_model():
    theta = np.random.default_rng(1).normal(0, 1, 60)
    everyone = telemetry_from_skill(IDS, BETA, theta, rng=2, progression=False)
    model = fit_skill_model(everyone, IDS, features=False)
    assert (model.fit_info["decisions"], model.fit_info["quits"]) == (60 * 4, 0)
    assert hand_counts(everyone) == (240, 0)
    # one level: nobody decides anything (the campaign ends there)
    single = telemetry_from_skill(["x"], [0.0], theta, rng=2)
    model = fit_skill_model(single, ["x"], features=False)
    assert model.fit_info["decisions"] == 0 and model.quit_model is None
    assert model.fit_info["estimator"] == "marginal ML (Gauss-Hermite)"
    assert model.fit_info["dropout"] == "model"  # as asked: there was nothing to model
    assert model.dropout == "ignore" and model.global_cov.shape == (2, 2)


def test_too_little_data_is_refused():
    with pytest.raises(SkillModelError) as err:
        fit_skill_model(telemetry_from_skill(["x"], [0.0], [0.0], rng=0), ["x"], features=False)
    assert str(err.value) == (
        "need first attempts by at least two players at the given levels, found 1 rows by 1 players"
    )
    rows = telemetry_from_skill(["x", "y"], [0.0, 0.0], [0.0, 1.0], rng=0)
    with pytest.raises(SkillModelError, match="found 0 rows by 0 players"):
        fit_skill_model(rows, ["z"], features=False)


def test_level_arguments():
    rows = telemetry_from_skill(["x", "y"], [0.0, 0.0], [0.0, 1.0, -1.0], rng=0)
    with pytest.raises(ArgumentError) as err:
        fit_skill_model(rows, ["x", "y"])
    assert str(err.value) == (
        "levels: ids alone carry no parts; pass Level objects or use features=False (got 'x')"
    )
    with pytest.raises(ArgumentError) as err:
        fit_skill_model(rows, ["x", "y", "x"], features=False)
    assert str(err.value) == "levels: level ids must be unique (got ['x', 'y', 'x'])"


@pytest.fixture(scope="module")
def featured():
    levels = [score(lv) for lv in campaign()[:8]]
    x = np.array([strengths(d) for d in levels])
    beta = -1.0 + x @ np.array([0.8, 1.2, 1.5, 0.8, 2.0, 0.6])
    theta = np.random.default_rng(3).normal(0.5, 1, 120)
    table = telemetry_from_skill(levels[:6], beta[:6], theta, rng=4, progression=False)
    return levels, table


def test_a_fit_with_features_predicts_unplayed_levels_from_the_weights(featured):
    levels, table = featured
    model = fit_skill_model(table, levels, dropout="ignore", retries=False)
    assert model.fit_info["estimator"] == "marginal ML (Gauss-Hermite) + LLTM (REML)"
    assert set(model.weights) == {"baseline", *PARTS} and model.weights_cov.shape == (7, 7)
    assert model.n_attempts[6:].tolist() == [0, 0] and np.isfinite(model.difficulty).all()
    assert np.isfinite(model.residual_sd)
    x = np.column_stack([np.ones(8), model.strengths])
    gamma = [model.weights["baseline"], *(model.weights[p] for p in PARTS)]
    # unplayed: exactly the prediction (on the players' scale: the baseline moves with them)
    np.testing.assert_allclose(model.difficulty[6:], x[6:] @ gamma, rtol=0, atol=1e-12)
    for d, b in zip(levels[6:], model.difficulty[6:]):
        assert model.difficulty_of(dataclasses.replace(d, level_id="new")) == pytest.approx(b)
    # strengths are the levels' parts
    np.testing.assert_array_equal(model.strengths, [strengths(d) for d in levels])
    free = fit_skill_model(table, levels, features=False, dropout="ignore", retries=False)
    assert free.weights == {} and np.isnan(free.residual_sd) and free.weights_cov.shape == (0, 0)
    assert np.isnan(free.difficulty[6:]).all() and np.isnan(free.difficulty_ci[6:]).all()


def test_a_level_without_a_part_gets_the_mean_of_the_others(featured):
    levels, table = featured
    gap = dataclasses.replace(levels[2], parts={**levels[2].parts, "layers": None})
    assert np.isnan(strengths(gap)).all()  # a level the solver could not finish
    ids, x = skill._levels([levels[0], levels[1], gap], True)
    assert ids == [levels[0].level_id, levels[1].level_id, gap.level_id]
    mean = (strengths(levels[0]) + strengths(levels[1])) / 2
    np.testing.assert_allclose(x[2], mean, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(x[:2], [strengths(levels[0]), strengths(levels[1])])
    ids, x = skill._levels(["a", "b"], False)
    assert ids == ["a", "b"] and x.shape == (2, 6) and np.isnan(x).all()
    assert skill._levels([campaign()[0]], True)[0] == [campaign()[0].id]  # a Level is scored
    assert skill._levels([gap], False)[1].shape == (1, 6)  # kept as NaN without features
    assert np.isnan(skill._levels([gap], False)[1]).all()


# -- pinned by mutation testing (issue 32) ------------------------------------------------------
def test_one_ability_gives_a_python_float_in_double_precision():
    model = made(learning=0.4)
    assert type(model.success("b")) is float and type(model.success("a", 0.5)) is float
    # an ability of another float type is read as a float64 number (0.5 is exact in float32)
    assert model.success("a", np.float32(0.5)) == pytest.approx(sigmoid(1.5), abs=1e-15)
    many = model.success("b", np.array([-1.0, 1.0], dtype=np.float32))
    assert many.dtype == np.float64
    np.testing.assert_allclose(many, [sigmoid(-1.0), sigmoid(1.0)], rtol=0, atol=1e-15)


def test_bad_counts_are_refused_with_the_arguments_name():
    model = made()
    with pytest.raises(ArgumentError) as err:
        model.success("b", attempt=0)
    assert str(err.value) == "attempt: must be >= 1 (got 0)"
    with pytest.raises(ArgumentError) as err:
        model.parameter_draws(0)
    assert str(err.value) == "n: must be between 1 and 1000000 (got 0)"
    one = model.parameter_draws(1, rng=0)  # one draw is allowed
    assert one["difficulty"].shape == (1, 3) and one["ability_sd"].shape == (1,)


def test_draws_without_a_quit_model_follow_the_two_by_two_covariance():
    cov = np.array([[0.04, 0.0], [0.0, 0.01]])  # (log ability sd, learning), as fitted
    d = made(learning=0.3, global_cov=cov).parameter_draws(20000, rng=3)
    assert d["quit"] is None
    log_sd = np.log(d["ability_sd"])
    assert abs(log_sd.mean() - math.log(1.25)) < 0.01 and abs(log_sd.var() - 0.04) < 0.004
    assert abs(d["learning"].mean() - 0.3) < 0.005 and abs(d["learning"].var() - 0.01) < 0.001


def test_a_level_object_with_a_missing_part_matches_its_own_row(scored):
    gap = dataclasses.replace(scored[0], parts={**scored[0].parts, "layers": None})
    xs = np.array([strengths(gap), strengths(scored[1]), strengths(scored[2])])
    assert np.isnan(xs[0]).all()  # what a fit without features keeps for it
    model = made(level_ids=(gap.level_id, scored[1].level_id, scored[2].level_id), strengths=xs)
    assert model.difficulty_of(gap) == -1.0
    assert model.success(gap) == pytest.approx(sigmoid(1.0), abs=1e-15)


def test_html_rows_follow_each_other():
    html = made(level_ids=("a", "<b>", "c"), difficulty=np.array([-1.0, np.nan, 2.0]))._repr_html_()
    assert "intermediate</td></tr><tr><td>&lt;b&gt;</td><td colspan=6>" in html
    assert "nobody played it</td></tr><tr><td>c</td>" in html
    assert html.endswith("</td></tr></table>")


def test_the_shipped_file_is_what_save_writes(tmp_path):
    from labkit._data import data_path

    path = data_path("telemetry", "skill_model.json")
    skill.shipped_skill_model().save(tmp_path / "again.json")

    def lines(p):  # the labkit version that wrote it aside
        return [s for s in p.read_text(encoding="utf-8").splitlines() if '"labkit":' not in s]

    assert lines(tmp_path / "again.json") == lines(path)


def test_a_non_finite_part_gets_the_mean_of_the_finite_ones(featured):
    levels, _ = featured
    odd = dataclasses.replace(levels[2], parts={**levels[2].parts, "size": math.inf})
    _, x = skill._levels([levels[0], levels[1], odd], True)
    assert x[2, 0] == pytest.approx((strengths(levels[0])[0] + strengths(levels[1])[0]) / 2)
    np.testing.assert_array_equal(x[2, 1:], strengths(odd)[1:])


@pytest.fixture(scope="module")
def featured_model(featured):
    levels, table = featured
    return fit_skill_model(table, levels, dropout="ignore", retries=False)


def test_report_evaluates_the_models_own_data_with_its_own_fit(
    featured, featured_model, monkeypatch
):
    from labkit.hexpuzzle.difficulty import skill_report
    from labkit.hexpuzzle.difficulty.telemetry import as_table

    levels, table = featured
    model = featured_model
    calls = []
    monkeypatch.setattr(skill_report, "evaluate", lambda *a, **kw: calls.append((a, kw)) or "r")
    assert model.report() == "r" and model.report(folds=3, rng=7) == "r"
    (args, kw), (_, kw2) = calls
    assert len(args) == 2 and np.array_equal(as_table(args[0]), as_table(table))
    assert args[1] == list(levels)
    assert set(kw) == {"fit", "features", "folds", "rng"} and kw["features"] is True
    assert (kw["folds"], kw["rng"], kw2["folds"], kw2["rng"]) == (5, 0, 3, 7)
    # the fit it is given refits the model as it was fitted (its options, not the defaults)
    refit = kw["fit"](table, levels, True)
    np.testing.assert_array_equal(refit.difficulty, model.difficulty)
    assert (refit.fit_info["dropout"], refit.fit_info["retries"]) == ("ignore", False)
    # a level covariate ("extra", report only) enters the design; the weights stay the parts'
    col = np.linspace(-1.0, 1.0, len(levels))[:, None] ** 2
    wider = kw["fit"](table, levels, True, extra=col)
    assert set(wider.weights) == set(model.weights) and wider.weights_cov.shape == (7, 7)
    assert np.abs(wider.difficulty - model.difficulty).max() > 1e-6


def test_a_fitted_models_fields_say_what_it_is(featured, featured_model):
    levels, table = featured
    model = featured_model
    free = fit_skill_model(table, levels, features=False, dropout="ignore", retries=False)
    assert model.features is True and free.features is False
    assert type(free.ability_sd) is float and free.ability_sd > 0
    assert repr(free).startswith("SkillModel(8 levels, 120 players, ability sd ")
    # played levels are shrunk toward their parts' prediction, not replaced by it
    x = np.column_stack([np.ones(8), model.strengths])
    gamma = [model.weights["baseline"], *(model.weights[p] for p in PARTS)]
    assert np.abs(model.difficulty[:6] - x[:6] @ gamma).max() > 1e-3
    half = (model.difficulty_ci[:, 1] - model.difficulty_ci[:, 0]) / 2
    assert (half[:6] < half[6:].min()).all()  # data make a played level's interval narrower


def by_hand(*attempts):
    """A telemetry table from ``(level, player, attempt, won)`` tuples."""
    rows = telemetry_from_skill(["x"], [0.0], [0.0], rng=0)
    dtype = [(n, "U12" if n in ("level", "player") else t) for n, (t, _) in
             rows.dtype.fields.items()]  # fmt: skip
    out = np.zeros(len(attempts), dtype=dtype)
    for i, (lv, pid, k, won) in enumerate(attempts):
        out[i]["level"], out[i]["player"], out[i]["attempt"] = lv, pid, k
        out[i]["won"], out[i]["first_try"] = bool(won), bool(won) and k == 1
    return out


def test_edges_of_the_data_a_fit_accepts(rows):
    wide_dtype = [(n, "U12" if n in ("level", "player") else t) for n, (t, _) in
                  rows.dtype.fields.items()]  # fmt: skip
    base = rows.astype(wide_dtype)
    # a later attempt by a player whose name sorts last and who has no first attempt: left out
    orphan = base[base["attempt"] == 2][:1].copy()
    orphan["player"] = "zzzz-ghost"
    # a level with a single first attempt is played: it gets a difficulty and an interval
    solo = base[base["attempt"] == 1][:1].copy()
    solo["level"] = "solo"
    table = np.concatenate([base, orphan, solo])
    model = fit_skill_model(
        table, [*IDS, "solo"], features=False, dropout="ignore", retries=False, impossible="count"
    )  # (the orphan is a gap: counted, left out)
    assert "zzzz-ghost" not in model.player_ids and model.n_attempts[-1] == 1
    assert np.isfinite(model.difficulty).all() and np.isfinite(model.difficulty_ci).all()
    # two players are enough ("at least two players")
    two = fit_skill_model(by_hand(("a", "p", 1, 1), ("b", "p", 1, 0), ("a", "q", 1, 0),
                                  ("b", "q", 1, 1)), ["a", "b"], features=False)  # fmt: skip
    assert two.player_ids == ("p", "q") and np.isfinite(two.difficulty).all()


def test_a_single_decision_is_modelled():
    # p goes on from a to b (one decision); q and r start at b, the campaign's last level
    table = by_hand(("a", "p", 1, 0), ("b", "p", 1, 1), ("b", "q", 1, 0), ("b", "r", 1, 1))
    model = fit_skill_model(table, ["a", "b"], features=False)
    assert (model.fit_info["decisions"], model.fit_info["quits"]) == (1, 0)
    assert model.quit_model is not None and model.dropout == "model"
    assert model.fit_info["estimator"] == "shared-parameter marginal ML (Gauss-Hermite)"


def test_a_table_larger_than_a_block_in_any_order_gives_the_same_fit(rows, monkeypatch):
    from labkit.hexpuzzle.difficulty import skill_stats

    whole = fit_skill_model(rows, IDS, features=False)
    shuffled = rows[np.random.default_rng(5).permutation(len(rows))]
    monkeypatch.setattr(skill_stats, "EVENT_BLOCK", 97)  # rows read in blocks of whole players
    assert len(rows) > 5 * 97
    blocked = fit_skill_model(shuffled, IDS, features=False)
    assert blocked.player_ids == whole.player_ids and blocked.fit_info == whole.fit_info
    for name in ("difficulty", "difficulty_ci", "ability", "global_cov"):
        np.testing.assert_allclose(getattr(blocked, name), getattr(whole, name), rtol=0,
                                   atol=1e-8, err_msg=name)  # fmt: skip
    assert blocked.quit_model.coefficients == pytest.approx(whole.quit_model.coefficients)


def test_the_quit_model_makes_the_joint_fits_decisions_on_the_players_scale(rows, monkeypatch):
    """The joint fit's population has mean 0; the model's ability 0 is the players' mean: the
    same decisions at the same player, P_model(quit | θ) = P_joint(quit | θ + shift)."""
    from labkit.hexpuzzle.difficulty import skill_joint

    seen = {}
    real = skill_joint.fit

    def spy(ev, lay, *args, **kw):
        seen["lay"], seen["out"] = lay, real(ev, lay, *args, **kw)
        return seen["out"]

    monkeypatch.setattr(skill_joint, "fit", spy)
    model = fit_skill_model(rows, IDS, features=False)
    lay, (par, _, theta, _) = seen["lay"], seen["out"]
    shift = -model.fit_info["population_mean"]
    assert shift != 0.0
    np.testing.assert_allclose(model.ability + shift, theta, rtol=0, atol=1e-12)
    np.testing.assert_allclose(model.difficulty + shift, par[lay.beta], rtol=0, atol=1e-12)
    joint = QuitModel(dict(zip(QUIT_TERMS, map(float, par[lay.quit]))))
    t = np.linspace(-2.0, 2.0, 9)
    for won, attempt, run, position in [(True, 1, 0, 0), (False, 3, 2, 4), (True, 2, 1, 7)]:
        where = dict(position=position, won=won, attempt=attempt, run=run)
        np.testing.assert_allclose(model.quit_model.p_quit(t, **where),
                                   joint.p_quit(t + shift, **where), rtol=1e-12)  # fmt: skip
