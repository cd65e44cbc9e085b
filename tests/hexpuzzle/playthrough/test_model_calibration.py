"""Calibration of the funnel's bands against a known truth (issue 45, fast version).

Telemetry is drawn from a known world, a skill model is fitted to it, and the funnel's 95 %
reach band is compared, level by level, with the world's own reach (the kernel with 400,000
players: Monte-Carlo error about 0.001). Two worlds: one of the model's own family (logistic
quitting) and one outside it (a share of players stops at the end of a session, after levels
10 and 20: a hazard the model's smooth position term cannot follow). The floor is the issue's:
the reach band holds the truth in at least 90 % of the levels. The full simulation (more
worlds, data sets and sizes, with Monte-Carlo errors) is ``benchmarks/bench_calibration_funnel.py``.

A third world stops players after a streak of failures (40 % once three levels in a row were not
won at the first try): the model's quitting misses by a little at every level, too little for any
one level's check, and the reach curve ends up off by about the data's own noise; the data's reach
interval is the band's floor for that (``labkit.hexpuzzle.playthrough.model``, module notes).

Before the change (bands from the fit alone) the session world's band held the truth at 8 of
29 levels (0.28) and this test failed; the in-family world passed. With the check but without
the floor (commit a0833ab) the streak world's band held it at 24 of 29 (0.83).
"""

from __future__ import annotations

import numpy as np

from labkit.hexpuzzle.difficulty.skill import fit_skill_model
from labkit.hexpuzzle.playthrough.model import funnel, model_tables
from labkit.hexpuzzle.playthrough.simulate import run
from labkit.hexpuzzle.playthrough.truth import TrueModel

FLOOR = 0.90
BETA = np.linspace(-1.5, 1.5, 30)
WORLD = {"ability_sd": 1.0, "learning": 0.3, "max_attempts": 3}


def session_end(ability, *, position, won, attempt, run):
    """Stops: 1.5 % after any level, 25 % after levels 10 and 20 (a session's end)."""
    return np.where(np.isin(np.asarray(position), [9, 19]), 0.25, 0.015)


IN_FAMILY = TrueModel(BETA, quit={"baseline": -3.0, "ability": -0.4, "won": -0.7, "run": 0.3},
                      **WORLD)  # fmt: skip
OUTSIDE = TrueModel(BETA, quit_rule=session_end, **WORLD)


def streak(ability, *, position, won, attempt, run):
    """Stops: 1 % after any level, 40 % once three levels in a row were not won first try."""
    return np.where(np.asarray(run) >= 3, 0.4, 0.01)


STREAK = TrueModel(BETA, quit_rule=streak, **WORLD)


def true_reach(truth: TrueModel) -> np.ndarray:
    return run([model_tables(truth, truth.level_ids)] * 2, 200_000, rng=99).samples["reach"].mean(0)


def reach_coverage(truth: TrueModel, seed: int) -> float:
    rows = truth.telemetry(2000, rng=seed)
    model = fit_skill_model(rows, truth.level_ids, features=False)
    f = funnel(truth.level_ids, model, players=10_000, draws=40, rng=seed, telemetry=rows)
    lo, hi = f.interval("reach").T
    t = true_reach(truth)
    return float(np.mean(((lo <= t) & (t <= hi))[1:]))  # level 1: everyone, trivially held


def test_the_reach_band_holds_the_truth_in_the_models_own_family():
    assert reach_coverage(IN_FAMILY, 1) >= FLOOR


def test_the_reach_band_holds_the_truth_when_players_stop_at_a_sessions_end():
    assert reach_coverage(OUTSIDE, 1) >= FLOOR


def test_the_reach_band_holds_the_truth_when_players_stop_after_a_streak_of_failures():
    # data set 114 of the bench's: its sample reach is off by about its own noise, where the
    # model's smooth band is narrower than that
    assert reach_coverage(STREAK, 114) >= FLOOR


# --- the attempt cap comes from the data ----------------------------------------------------

FIVE = TrueModel(BETA, quit={"baseline": -3.0, "ability": -0.4, "won": -0.7, "run": 0.3},
                 ability_sd=1.0, learning=0.3, max_attempts=5)  # fmt: skip


def test_with_five_attempts_per_level_the_reach_at_level_30_is_within_its_band():
    rows = FIVE.telemetry(2000, rng=5)
    model = fit_skill_model(rows, FIVE.level_ids, features=False)
    assert model.max_attempts == 5  # the most attempts anyone made at a level
    f = funnel(FIVE.level_ids, model, players=10_000, draws=40, rng=5)
    lo, hi = f.interval("reach")[-1]
    truth = true_reach(FIVE)[-1]
    assert lo <= truth <= hi
    # the old behaviour (3 attempts) is still there when asked for, and it is wrong here: the
    # model's own band (check=False; a what-if with another cap is widened by the data's floor,
    # which would blur what this compares)
    three = funnel(FIVE.level_ids, model, players=10_000, draws=40, rng=5, max_attempts=3,
                   check=False)  # fmt: skip
    assert three.interval("reach")[-1][1] < truth
