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


# --- the rules on hand-made rows (exact values; the fit and the funnel stood in for) ---------

from labkit import ArgumentError  # noqa: E402
from labkit.hexpuzzle.difficulty.telemetry import make_table  # noqa: E402
from labkit.hexpuzzle.playthrough import holdout  # noqa: E402
from labkit.hexpuzzle.playthrough.holdout import _agreement  # noqa: E402
from labkit.hexpuzzle.playthrough.simulate import Funnel  # noqa: E402


def _rows(*attempts):
    """(level, player, attempt, won) -> telemetry rows."""
    return make_table([(lv, p, a, won and a == 1, 0, 0, 0, 0, 0.0, won)
                       for lv, p, a, won in attempts])  # fmt: skip


# p1 clears a, b, c (b at the second try); p2 clears a, stops at b after two losses;
# p3 stops at a; p4 shows up at a and c only (a gap: b's rows are missing) and finishes
ROWS = _rows(
    ("a", "p1", 1, True), ("b", "p1", 1, False), ("b", "p1", 2, True), ("c", "p1", 1, True),
    ("a", "p2", 1, True), ("b", "p2", 1, False), ("b", "p2", 2, False),
    ("a", "p3", 1, False),
    ("a", "p4", 1, True), ("c", "p4", 1, False), ("c", "p4", 2, True),
    ("zz", "p5", 1, True),  # a level outside the campaign: ignored, p5 is not a player of it
)  # fmt: skip


def test_observed_funnel_counts_players_levels_and_stops_by_hand():
    obs = observed_funnel(ROWS, ["a", "b", "c"])
    np.testing.assert_allclose(obs["players"], [4.0])
    np.testing.assert_allclose(obs["reach"], [1.0, 0.5, 0.5])  # b: p1, p2; c: p1, p4
    np.testing.assert_allclose(obs["first_try"], [0.75, 0.0, 0.5])
    np.testing.assert_allclose(obs["attempts_per_clear"], [4 / 3, 4.0, 1.5])
    # p3 stops at a, p2 at b; nobody stops at the last level
    np.testing.assert_allclose(obs["quit_hazard"], [0.25, 0.5, 0.0])


def test_observed_funnel_of_a_level_nobody_cleared_or_reached():
    rows = _rows(("a", "p1", 1, False), ("a", "p1", 2, False))
    obs = observed_funnel(rows, ["a", "b"])
    assert obs["reach"].tolist() == [1.0, 0.0]
    assert np.isnan(obs["first_try"][1]) and np.isnan(obs["quit_hazard"][1])
    # reached, never cleared: no attempts per clear (NaN, as the simulated funnel says)
    assert np.isnan(obs["attempts_per_clear"]).all()


def test_observed_funnel_refuses_rows_of_other_levels_only():
    with pytest.raises(ArgumentError) as exc:
        observed_funnel(_rows(("zz", "p1", 1, True)), ["a", "b", "c", "d"])
    assert str(exc.value) == "telemetry: has no rows of these levels (got ['a', 'b', 'c'])"


def test_agreement_is_spearman_and_mae_over_finite_levels():
    from scipy.stats import spearmanr

    pred = np.array([0.1, 0.4, np.nan, 0.3, 0.9])
    obs = np.array([0.2, 0.5, 0.7, 0.1, np.inf])
    got = _agreement(pred, obs)
    keep = [0, 1, 3]
    assert got["levels"] == 3
    assert got["mae"] == pytest.approx(np.mean(np.abs(pred[keep] - obs[keep])))
    assert got["spearman"] == pytest.approx(spearmanr(pred[keep], obs[keep]).statistic)
    assert got["spearman"] == pytest.approx(0.5)
    few = _agreement(np.array([0.1, 0.2, np.nan]), np.array([0.3, 0.1, 0.2]))
    assert few["levels"] == 2 and np.isnan(few["spearman"]) and np.isnan(few["mae"])


def _stand_in_funnel(ids, reach, quit, first):
    # value, low, high apart, so that a reader of the wrong column shows
    col = lambda v: np.column_stack([v, np.subtract(v, 0.05), np.add(v, 0.05)])  # noqa: E731
    stats = {"reach": col(reach), "quit_hazard": col(quit), "first_try": col(first),
             "finished": np.zeros((1, 3))}  # fmt: skip
    return Funnel(tuple(ids), stats, players=10, draws=1)


def _many_players(n):
    rows = []
    for i in range(n):
        rows += [("a", f"p{i:02d}", 1, i % 2 == 0), ("b", f"p{i:02d}", 1, i % 3 == 0)]
        if i % 3 == 0:
            rows.append(("c", f"p{i:02d}", 1 + i % 4, True))
    return _rows(*rows)


def test_holdout_check_fits_the_chosen_players_and_scores_the_others(monkeypatch):
    table = _many_players(20)
    seen = {}

    def fake_fit(rows, campaign, **kw):
        seen["fit"] = (sorted(set(rows["player"].tolist())), campaign, kw)
        return "MODEL"

    def fake_funnel(campaign, model, **kw):
        seen["funnel"] = (campaign, model, kw)
        return _stand_in_funnel(["a", "b", "c"], [1.0, 0.9, 0.2], [0.1, 0.7, 0.0],
                                [0.5, 0.4, 0.6])  # fmt: skip

    monkeypatch.setattr(holdout, "funnel", fake_funnel)
    check = holdout_check(table, ["a", "b", "c"], fit=fake_fit, fit_share=0.3, players=123,
                          draws=4, rng=6, extra="yes")  # fmt: skip
    fitted, campaign, kw = seen["fit"]
    # the split: the first round(0.3 * 20) players of a permutation of the players, rng 6
    ids = np.unique(table["player"])
    assert fitted == sorted(np.random.default_rng(6).permutation(ids)[:6].tolist())
    assert campaign == ["a", "b", "c"] and kw == {"extra": "yes"}
    assert (check.fit_players, check.test_players) == (6, 14)
    f_campaign, model, f_kw = seen["funnel"]
    assert model == "MODEL" and f_campaign == ["a", "b", "c"]
    # the cap is the fitted players' most attempts (3), not a held-out player's 4 (issue 46)
    assert f_kw["players"] == 123 and f_kw["draws"] == 4 and f_kw["max_attempts"] == 3
    assert sorted(set(f_kw["telemetry"]["player"].tolist())) == fitted
    others = table[~np.isin(table["player"], fitted)]
    obs = observed_funnel(others, ["a", "b", "c"])
    for name, key in (("reach", "reach"), ("first-try success", "first_try")):
        pred = check.predicted.stats[key][:, 0]
        assert check.scores[name] == _agreement(pred, obs[key])
    # the quit rate leaves the last level out (no stop decision there): 2 levels, too few
    assert check.scores["quit rate"]["levels"] == 2
    assert check.level_ids == ("a", "b", "c")
    np.testing.assert_array_equal(check.observed["reach"], obs["reach"])


def test_holdout_check_fits_at_least_two_players(monkeypatch):
    monkeypatch.setattr(holdout, "funnel", lambda c, m, **kw: _stand_in_funnel(
        ["a", "b", "c"], [1, 1, 1], [0, 0, 0], [1, 1, 1]))  # fmt: skip
    check = holdout_check(_many_players(10), ["a", "b", "c"], fit=lambda r, c, **k: None,
                          fit_share=0.01)  # fmt: skip
    assert (check.fit_players, check.test_players) == (2, 8)


def test_holdout_check_default_fit_is_the_skill_model_with_the_dropout_model(monkeypatch):
    from labkit.hexpuzzle.difficulty import skill

    seen = {}
    monkeypatch.setattr(skill, "fit_skill_model",
                        lambda rows, campaign, **kw: seen.setdefault("kw", kw))  # fmt: skip
    monkeypatch.setattr(holdout, "funnel", lambda c, m, **kw: _stand_in_funnel(
        ["a", "b", "c"], [1, 1, 1], [0, 0, 0], [1, 1, 1]))  # fmt: skip
    holdout_check(_many_players(10), ["a", "b", "c"], features=False)
    assert seen["kw"] == {"features": False, "dropout": "model"}
    holdout_check(_many_players(10), ["a", "b", "c"], dropout="ignore")
    assert seen["kw"] == {"features": False, "dropout": "model"}  # setdefault: first call kept


@pytest.mark.parametrize("share", [0, 0.0, 1, 1.0, -0.2, 1.5, "0.5", float("nan"), True])
def test_fit_share_must_lie_strictly_between_0_and_1(share):
    with pytest.raises(ArgumentError) as exc:
        holdout_check(ROWS, ["a", "b", "c"], fit=lambda *a, **k: None, fit_share=share)
    expected = f"fit_share: must be a number strictly between 0 and 1 (got {share!r})"
    assert str(exc.value) == expected


@pytest.mark.filterwarnings("error")
def test_a_constant_side_has_no_rank_correlation_and_no_warning():
    got = _agreement(np.array([1.0, 1.0, 1.0]), np.array([1.0, 0.5, 0.2]))
    assert np.isnan(got["spearman"]) and got["mae"] == pytest.approx(1.3 / 3)


def _four_levels(n):
    rows = []
    for i in range(n):
        p = f"p{i:02d}"
        rows += [("a", p, 1, i % 2 == 0), ("b", p, 1, True)]
        if i % 4:
            rows += [("c", p, 1, i % 3 == 0)]
        if i % 4 == 1:
            rows += [("d", p, 1, True)]
    return _rows(*rows)


def test_holdout_scores_the_values_the_split_and_the_defaults(monkeypatch):
    table, campaign = _four_levels(24), ["a", "b", "c", "d"]
    seen = {}

    def fake_funnel(campaign, model, **kw):
        seen.update(kw)
        return _stand_in_funnel(campaign, [1.0, 0.8, 0.5, 0.1], [0.2, 0.4, 0.3, 0.0],
                                [0.5, 0.9, 0.3, 0.6])  # fmt: skip

    monkeypatch.setattr(holdout, "funnel", fake_funnel)
    fitted = {}
    check = holdout_check(
        table, campaign, fit=lambda rows, c, **k: fitted.setdefault("ids", rows["player"])
    )
    assert (seen["players"], seen["draws"]) == (20_000, 20)
    gen = np.random.default_rng(0)  # the default rng: 0
    chosen = gen.permutation(np.unique(table["player"]))[:12]
    assert sorted(set(fitted["ids"].tolist())) == sorted(chosen.tolist())
    # the funnel's cohorts draw from the same generator, after the split
    assert isinstance(seen["rng"], np.random.Generator)
    assert seen["rng"].random() == gen.random()
    obs = observed_funnel(table[~np.isin(table["player"], chosen)], campaign)
    assert check.scores["reach"] == _agreement(np.array([1.0, 0.8, 0.5, 0.1]), obs["reach"])
    assert check.scores["quit rate"] == _agreement(np.array([0.2, 0.4, 0.3]),
                                                   obs["quit_hazard"][:-1])  # fmt: skip
    assert check.scores["quit rate"]["levels"] == 3
    assert check.scores["first-try success"] == _agreement(np.array([0.5, 0.9, 0.3, 0.6]),
                                                           obs["first_try"])  # fmt: skip


@pytest.mark.filterwarnings("error")  # 0/0 and x/0 are expected, not warned about
def test_observed_funnel_of_levels_nobody_played_has_every_level_and_no_warning():
    rows = _rows(("a", "p1", 1, True), ("b", "p1", 1, False), ("a", "p2", 1, False))
    obs = observed_funnel(rows, ["a", "b", "c"])
    assert obs["reach"].tolist() == [1.0, 0.5, 0.0]
    assert obs["attempts_per_clear"][0] == 2.0
    assert obs["attempts_per_clear"].shape == (3,) and np.isnan(obs["attempts_per_clear"][1:]).all()
    assert np.isnan(obs["quit_hazard"][2]) and obs["quit_hazard"][:2].tolist() == [0.5, 1.0]


def _by_hand(rows, level_ids, players):
    """The observed funnel of ``players`` counted one row at a time (a reference)."""
    L, out = len(level_ids), {"reach": [], "first_try": [], "quit_hazard": []}
    levels = {p: set() for p in players}
    first = {}
    for r in rows:
        if r["player"] in levels and r["level"] in level_ids:
            levels[r["player"]].add(level_ids.index(r["level"]))
            if r["attempt"] == 1 and r["won"]:
                first[(r["player"], r["level"])] = True
    for j, lid in enumerate(level_ids):
        there = [p for p in players if j in levels[p]]
        stop = [p for p in there if max(levels[p]) == j and j < L - 1]
        wins = [p for p in there if first.get((p, lid))]
        out["reach"].append(len(there) / len(players))
        out["first_try"].append(len(wins) / len(there) if there else np.nan)
        out["quit_hazard"].append(len(stop) / len(there) if there else np.nan)
    return out


def test_the_held_out_prediction_uses_the_fitted_players_rows_only():
    """Issue 46.6: the prediction is built from the fitted players' events alone (a held-out
    player's rows, changed, change nothing predicted: not even the attempt cap), and the
    observed side equals a by-hand count of the held-out players."""
    truth = TrueModel([-1.0, 0.0, 1.0], quit={"baseline": -1.5})
    rows = truth.telemetry(300, rng=3)
    ids = list(truth.level_ids)
    check = holdout_check(rows, ids, features=False, players=500, draws=3, rng=4)
    players = np.unique(rows["player"])
    fitted = set(np.random.default_rng(4).permutation(players)[:150].tolist())
    held = [p for p in players.tolist() if p not in fitted]
    hand = _by_hand(rows, ids, held)
    for key in ("reach", "first_try", "quit_hazard"):
        np.testing.assert_allclose(check.observed[key], hand[key], equal_nan=True)
    # the held-out players keep their ids but lose every row after their first attempt
    out = np.isin(rows["player"], held)
    keep = ~out | ((rows["level"] == ids[0]) & (rows["attempt"] == 1))
    changed = rows[keep].copy()
    changed["won"][np.isin(changed["player"], held)] = False
    changed["first_try"][np.isin(changed["player"], held)] = False
    # ... and one of them retries the first level 11 more times, more than anyone fitted
    extra = np.repeat(changed[changed["player"] == held[0]], 11)
    extra["attempt"] = np.arange(2, 13)
    changed = np.concatenate([changed, extra])
    assert changed["attempt"].max() > rows["attempt"][~out].max()
    again = holdout_check(changed, ids, features=False, players=500, draws=3, rng=4)
    for key in ("reach", "first_try", "quit_hazard"):
        np.testing.assert_array_equal(again.predicted.stats[key], check.predicted.stats[key])
    assert again.observed["reach"].tolist() == [1.0, 0.0, 0.0]
