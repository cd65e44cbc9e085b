"""calibrate(): recovers known weights within its intervals; honest report; clear errors."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from labkit.hexpuzzle.difficulty.fit import (
    calibrate,
    example_difficulties,
    strengths,
)
from labkit.hexpuzzle.difficulty.players import simulate_telemetry, telemetry_from_weights
from labkit.hexpuzzle.difficulty.scoring import PARTS, WEIGHTS, score
from labkit.hexpuzzle.difficulty.telemetry import make_table
from tests.hexpuzzle.difficulty.test_observed import reference_index

TRUTH = {"size": 12.0, "turns": 8.0, "layers": 22.0, "blocking": 0.0, "rotation": 30.0,
         "pressure": 10.0}  # fmt: skip
BASELINE = 5.0


REPLICATIONS = 10


@pytest.fixture(scope="module")
def replications():
    """Ten independent synthetic data sets (36 made-up levels × 300 players) and their fits."""
    out = []
    for k in range(REPLICATIONS):
        levels = example_difficulties(36, rng=20 + k)
        tele = telemetry_from_weights(levels, TRUTH, players=300, rng=40 + k, intercept=BASELINE)
        out.append((levels, calibrate(tele, levels, n_boot=200, rng=60 + k)))
    return out


@pytest.fixture(scope="module")
def recovered(replications):
    return replications[0]


def test_known_weights_are_recovered_within_the_reported_intervals(replications):
    print()
    inside = dict.fromkeys([*TRUTH, "intercept"], 0)
    truth = {**TRUTH, "intercept": BASELINE}
    for _, cal in replications:
        print(repr(cal))  # the figures quoted in the closing note (pytest -s)
        for name, true in truth.items():
            lo, hi = cal.ci[name]
            inside[name] += lo <= true <= hi
            assert hi - lo < 16, (name, cal.ci[name])  # informative, not vacuous
        for part, true in TRUTH.items():
            assert abs(cal.weights[part] - true) < 6, (part, cal.weights[part])
        assert cal.r2 > 0.95 and cal.spearman > 0.95
    print(replications[0][1].report())
    print("inside the 95% interval, of", REPLICATIONS, inside)
    # 95 % intervals: a miss now and then is expected; a systematic miss is a defect.
    assert all(count >= REPLICATIONS - 2 for count in inside.values()), inside
    assert sum(inside.values()) >= 0.9 * REPLICATIONS * len(inside)
    cal = replications[0][1]
    assert cal.n_levels == 36 and cal.n_players == 300 and cal.n_rows == 36 * 300


def test_defaults_are_not_recovered_when_truth_differs(recovered):
    _, cal = recovered
    # The default rotation weight (20) lies outside the interval of the true 30: the fit can
    # tell weights apart, so the previous test is not passing by accident.
    lo, hi = cal.ci["rotation"]
    assert not lo <= WEIGHTS["rotation"] <= hi


def test_report_is_complete_and_consistent(recovered):
    levels, cal = recovered
    text = cal.report()
    for word in ("R²", "Spearman", "baseline", "band edges", *PARTS):
        assert word in text
    res = cal.residuals
    assert np.isfinite(res).all()
    # Residuals recomputed from scratch: the observed index by plain loops over the telemetry
    # (the same data set the fixture made), the prediction from the weights and the parts.
    tele = telemetry_from_weights(levels, TRUTH, players=300, rng=40, intercept=BASELINE)
    index = list(reference_index(tele, {d.level_id: d.N for d in levels}).values())
    predicted = [
        min(100.0, max(0.0, cal.intercept + sum(cal.weights[p] * d.parts[p] / WEIGHTS[p]
                                                for p in PARTS)))
        for d in levels
    ]  # fmt: skip
    assert np.allclose(res, np.subtract(index, predicted))
    # They are least-squares residuals under w >= 0 (the fit's optimality conditions): no
    # part's strengths, and not the baseline, could take up more of them.
    x = np.array([[d.parts[p] / WEIGHTS[p] for p in PARTS] for d in levels])
    for j, p in enumerate(PARTS):
        pull = float(res @ x[:, j])
        assert (abs(pull) < 1e-6) if cal.weights[p] > 0 else (pull < 1e-6), (p, pull)
    assert abs(res.sum()) < 1e-6 if cal.intercept > 0 else res.sum() < 1e-6
    ranking = cal.ranking()
    assert sorted(r["rank"] for r in ranking) == list(range(1, 37))
    assert sorted(r["old_rank"] for r in ranking) == list(range(1, 37))
    scores = [r["score"] for r in ranking]
    assert scores == sorted(scores)
    d = cal.to_dict()
    assert set(d["ci"]) == {*PARTS, "intercept", "edge_intermediate", "edge_hard",
                            "edge_challenge"}  # fmt: skip
    assert cal.score(levels[3]) == cal.scores[3]
    e1, e2, e3 = cal.edges
    assert 1 <= e1 <= e2 <= e3 <= 100 and cal.edges_derived
    assert cal.band(e1 - 0.5) == "easy" and cal.band(e3) == "challenge"


def test_skipped_levels_and_unmatched_rows():
    levels = example_difficulties(10, rng=1)
    tele = telemetry_from_weights(levels[:9], {"layers": 40}, players=30, rng=2)
    stranger = make_table([("nowhere", "s000", 1, 1, 0, 0, 0, 0, 1.0, 1)])
    tele = np.concatenate([tele, stranger.astype(tele.dtype)])
    broken = dataclasses.replace(
        levels[0],
        status="unsolvable",
        total=None,
        W=None,
        R=None,
        parts={**levels[0].parts, "layers": None, "rotation": None},
    )
    cal = calibrate(tele, [broken, *levels[1:]], n_boot=20, rng=0)
    assert cal.skipped == {"x00": "unsolvable", "x09": "no telemetry"}
    assert cal.n_levels == 8 and cal.observed.unmatched_rows == 1
    assert "rows for unknown levels: 1" in cal.report()
    assert cal.scores[0] is None and cal.scores[9] is not None
    assert np.isnan(cal.residuals[9])


def test_bootstrap_modes_and_no_bootstrap():
    levels = example_difficulties(12, rng=4)
    tele = telemetry_from_weights(levels, TRUTH, players=60, rng=5)
    intervals = {}
    for mode in ("players", "levels"):
        cal = calibrate(tele, levels, n_boot=40, bootstrap=mode, rng=6)
        for p in PARTS:
            lo, hi = cal.ci[p]
            # Each interval holds the estimate and the truth and is informative, not vacuous.
            assert lo <= cal.weights[p] <= hi and lo <= TRUTH[p] <= hi, (mode, p, lo, hi)
            assert hi - lo < 20, (mode, p, lo, hi)
            if TRUTH[p] > 0:
                assert hi > lo, (mode, p)
        intervals[mode] = [cal.ci[p] for p in PARTS]
    # Resampling players and resampling levels are different experiments.
    assert intervals["players"] != intervals["levels"]
    none = calibrate(tele, levels, n_boot=0)
    assert np.isnan(none.ci["size"][0]) and none.weights == cal.weights


def test_simulated_players_on_the_campaign_fit_honestly():
    from labkit.hexpuzzle.shipped_campaign import campaign

    levels = campaign()
    tele = simulate_telemetry(levels, 25, rng=9)
    cal = calibrate(tele, levels, n_boot=50, rng=1)
    assert 0.0 <= cal.r2 <= 1.0 and cal.n_levels == 24
    assert all(w >= 0 for w in cal.weights.values()) and cal.intercept >= 0
    assert cal.spearman > 0.5  # the simulated players do follow the level structure
    first = score(levels[0])
    assert np.isfinite(strengths(first)).all() and cal.score(first) == cal.scores[0]
