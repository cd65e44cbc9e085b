"""Paired statistics, rule by rule and exactly (sim/paired.py).

Every number here is worked out by hand or by a plain computation of the rule in the module's
docstring (a bootstrap resample *indexes* the seeds it drew; the module weights them instead),
never read off the code under test.
"""

from __future__ import annotations

import math
import warnings
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import brentq, minimize_scalar
from scipy.stats import poisson
from scipy.stats import t as student_t

from labkit import ArgumentError
from labkit.encounter.sim import paired as pm
from labkit.encounter.sim.paired import (
    METRICS,
    Metric,
    game_measures,
    mcnemar_exact,
    npcs_alive_after,
    paired_table,
    seeds_needed,
)
from labkit.glossary import GLOSSARY, words
from labkit.rng import stream

Z975 = NormalDist().inv_cdf(0.975)
Z80 = NormalDist().inv_cdf(0.8)


def msg(call, *args, **kw):
    with pytest.raises(ArgumentError) as info:
        call(*args, **kw)
    return str(info.value)


# -- the metrics --------------------------------------------------------------------------------


# The module docstring's metrics, in its order; McNemar's yes/no ones; the per-game column
# each reads (the length metrics read the game length in turns).
KEYS = ["npc_win", "monster_win", "balance", "step_limit", "mutual_death", "length_mean",
        "length_sd", "length_q10", "length_q50", "length_q90", "npcs_alive", "lead_changes",
        "decided_at"]  # fmt: skip
YES_NO = {"npc_win", "monster_win", "step_limit", "mutual_death"}
UNITS = {"turns": "turns", "per game": "per game", "share": ""}  # table unit -> glossary unit


@pytest.mark.parametrize("made", ["built here", "METRICS"])
def test_every_metric_is_labelled_in_the_glossarys_words(made):
    # _metrics() is called here: METRICS itself was built once, at import
    metrics = pm._metrics() if made == "built here" else METRICS
    assert list(metrics) == KEYS
    columns = game_measures(frame())  # what the metrics can read
    for key, m in metrics.items():
        said, unit = GLOSSARY[key]
        assert isinstance(m, Metric) and m.key == key
        assert m.label == said and words(key) == (f"{said} ({unit})" if unit else said), key
        assert UNITS[m.unit] == unit, key
        assert m.needs and all(c in columns for c in m.needs), key
        assert m.binary is (key in YES_NO), key
        if m.binary:  # McNemar: a yes/no per game
            assert m.needs == (key,) and set(columns[key].tolist()) <= {0.0, 1.0}
        if key.startswith("length_"):
            assert m.needs == ("turns",) and m.unit == "turns"
        elif key != "balance":
            assert m.needs == (key,)
        kind = {"balance": "balance", "length_sd": "spread"}.get(key, "mean")
        if key[:8] == "length_q":
            share = int(key[8:])
            assert m.quantile == share / 100 and f"{share} % of games" in m.label, key
            kind = "quantile"
        else:
            assert m.quantile is None, key
        assert m.kind == kind, key
    assert metrics["balance"].needs == ("npc_win", "monster_win")
    assert metrics["lead_changes"].unit == "per game" and metrics["decided_at"].unit == "share"
    for key in ("npc_win", "monster_win", "balance", "step_limit", "mutual_death", "npcs_alive"):
        assert metrics[key].unit == "share", key
    m = Metric("k", "l", "turns", ("t",))
    assert (m.binary, m.quantile, m.kind) == (False, None, "mean")


def test_the_paired_labels_are_the_words_every_app_shows():
    # one source of words: the sweep's rates and the comparison's rows read the same
    assert words("step_limit") == METRICS["step_limit"].label
    assert words("mutual_death") == METRICS["mutual_death"].label
    assert words("npc_win") == METRICS["npc_win"].label == "NPC win rate"
    # the CLI and the app add the unit in brackets to a row in turns, as words() does
    assert words("length_mean") == METRICS["length_mean"].label + " (turns)"


def test_weighted_means_and_spreads_leave_out_undefined_games():
    x = np.array([1.0, 2.0, np.nan, 4.0])
    w = np.array([[1.0, 1, 1, 1], [2, 0, 1, 0], [0, 0, 1, 0], [0, 1, 0, 1]])
    s = pm._Weighted({"x": x}, w)
    mean = Metric("m", "m", "turns", ("x",)).value(s)
    assert mean[:2].tolist() == [7 / 3, 1.0] and math.isnan(mean[2]) and mean[3] == 3.0
    sd = Metric("s", "s", "turns", ("x",), kind="spread").value(s)
    # 1, 2, 4: variance (21 - 49/3) / 2 = 7/3; 1 twice: 0; no game: undefined; 2 and 4: 2
    assert sd[0] == pytest.approx(math.sqrt(7 / 3)) and sd[1] == 0.0 and math.isnan(sd[2])
    assert sd[3] == pytest.approx(math.sqrt(2.0))
    # a spread that rounding would make slightly negative is 0
    y = np.full(5, 3.3)
    w = pm._Weighted({"y": y}, np.ones((1, 5)))
    assert w._sum("y", 2)[0] - w._sum("y")[0] ** 2 / 5 < 0  # (the rounding this is about)
    assert Metric("s", "s", "turns", ("y",), kind="spread").value(w)[0] == 0.0
    # no columns at all: still one row of sums per resample
    assert pm._Weighted({}, np.ones((2, 3)))._cache == {}


def test_balance_is_one_minus_the_win_rate_gap():
    s = pm._Weighted({"npc_win": np.array([1.0, 1, 0, 1]), "monster_win": np.array([0.0, 0, 1, 0])},
                     np.array([[1.0, 1, 1, 1], [0, 0, 2, 0]]))  # fmt: skip
    assert METRICS["balance"].value(s).tolist() == [0.5, 0.0]
    s = pm._Weighted({"npc_win": np.array([0.0, 1]), "monster_win": np.array([1.0, 0])},
                     np.ones((1, 2)))  # fmt: skip
    assert METRICS["balance"].value(s).tolist() == [1.0]


def test_quantiles_are_the_smallest_played_length_a_share_of_games_reach():
    t = np.array([5.0, 1, 3, 3, 9])
    s = pm._Weighted({"t": t}, np.array([[1.0, 1, 1, 1, 1], [0, 0, 1, 1, 1]]))

    def q(p):
        return Metric("q", "q", "turns", ("t",), quantile=p, kind="quantile").value(s).tolist()

    # sorted 1 3 3 5 9: 10 % -> 1, 40 % -> 3 (2 of 5 games reach 3), 50 % -> 3, 90 % -> 9;
    # the second resample holds 3, 3, 9
    assert q(0.1) == [1.0, 3.0] and q(0.4) == [3.0, 3.0] and q(0.5) == [3.0, 3.0]
    assert q(0.9) == [9.0, 9.0] and q(0.8) == [5.0, 9.0]
    assert q(None)[0] == 1.0  # no share given: the shortest game played
    assert q(0.1) == [1.0, 3.0]  # the sorted counts are kept per column, for every share
    # 28 % of 25 games is 7.000000000000001 in floating point: the 7th game still counts
    s = pm._Weighted({"t": np.arange(1.0, 26.0)}, np.ones((1, 25)))
    assert Metric("q", "q", "turns", ("t",), quantile=0.28, kind="quantile").value(s)[0] == 7.0


def test_weighted_statistics_are_those_of_the_drawn_games_repeated():
    # a resample with weight k on a seed holds that game k times: numpy on the repeated games
    g = np.random.default_rng(5)
    x = g.integers(0, 30, 40).astype(float)
    x[[3, 17]] = np.nan  # undefined games are left out
    t, u = g.integers(1, 60, 40).astype(float), g.normal(0, 1, 40)
    w = g.integers(0, 4, (6, 40)).astype(float)
    s = pm._Weighted({"x": x, "t": t, "u": u}, w)
    for r in range(6):
        k = w[r].astype(int)
        xs = np.repeat(x, k)
        xs = xs[~np.isnan(xs)]
        assert s.mean("x")[r] == pytest.approx(xs.mean(), rel=1e-12)
        assert s.sd("x")[r] == pytest.approx(np.std(xs, ddof=1), rel=1e-12)
        assert s.sd("u")[r] == pytest.approx(np.std(np.repeat(u, k), ddof=1), rel=1e-12)
        for q in (0.1, 0.25, 0.5, 0.9, 1.0):  # two columns of one sample, each its own order
            for name, col in (("t", t), ("u", u)):
                want = np.quantile(np.repeat(col, k), q, method="inverted_cdf")
                assert s.quantile(name, q)[r] == want, (name, q, r)


def test_an_undefined_statistic_is_nan_and_says_nothing():
    # no defined game drawn: mean and spread undefined; one game: no spread. No warnings.
    s = pm._Weighted({"x": np.array([1.0, np.nan, 3.0])}, np.array([[0, 2.0, 0], [1, 0, 0]]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mean, sd = s.mean("x"), s.sd("x")
    assert math.isnan(mean[0]) and mean[1] == 1.0
    assert math.isnan(sd[0]) and math.isnan(sd[1])


def test_a_share_within_rounding_of_a_whole_count_reaches_it():
    # (k + 1e-9) / n of n games is k games up to rounding: the k-th game, not the next one
    s = pm._Weighted({"t": np.arange(1.0, 5.0)}, np.ones((1, 4)))
    assert s.quantile("t", (2 + 1e-9) / 4)[0] == 2.0
    assert s.quantile("t", (2 + 1e-6) / 4)[0] == 3.0  # more than rounding: the next game


# -- tests and sizes ----------------------------------------------------------------------------


def test_mcnemar_exact_by_hand():
    assert mcnemar_exact([1, 1, 1, 0], [0, 0, 0, 0]) == 2 * 1 / 8
    assert mcnemar_exact([0, 0, 0, 0], [1, 1, 1, 0]) == 2 * 1 / 8  # either way
    # 5 one way, 1 the other: 2 * (C(6,0) + C(6,1)) / 2^6
    a = [1, 1, 1, 1, 1, 0, 1, 0]
    b = [0, 0, 0, 0, 0, 1, 1, 0]
    assert mcnemar_exact(a, b) == 2 * 7 / 64
    assert mcnemar_exact([1, 0], [0, 1]) == 1.0  # 2 * 3 / 4 is capped at 1
    assert mcnemar_exact([1, 1], [1, 1]) == 1.0 and mcnemar_exact([], []) == 1.0
    assert mcnemar_exact([1] * 10, [0] * 10) == 2 / 1024
    assert mcnemar_exact([0.0, 2.0], [0.0, 0.0]) == 1.0  # yes/no: any non-zero is yes
    assert isinstance(mcnemar_exact([1], [0]), float)


def test_seeds_needed_by_the_formula():
    z = Z975 + Z80
    assert pm.Z_975 == pytest.approx(Z975, abs=1e-15) and pm.Z_80 == pytest.approx(Z80, abs=1e-15)
    assert seeds_needed(1.0, 1.0) == math.ceil(z * z) == 8
    assert seeds_needed(0.5, 0.02) == math.ceil((z * 0.5 / 0.02) ** 2)
    assert seeds_needed(3.0, 0.5, power=0.5) == math.ceil((Z975 * 6) ** 2)
    assert seeds_needed(0.0, 1.0) == 2 and seeds_needed(0.1, 1.0) == 2  # at least two pairs
    assert seeds_needed(0.5, 1.0) == 2  # 1.96...
    assert seeds_needed(0.6, 1.0) == 3  # 2.83
    assert seeds_needed(math.inf, 1.0) == -1 and seeds_needed(math.nan, 1.0) == -1
    assert msg(seeds_needed, 1.0, 0.0) == "detect: must be > 0 (got 0.0)"
    assert msg(seeds_needed, 1.0, math.nan) == "detect: must be > 0 (got nan)"
    for p in (0, 1, 1.5):
        assert msg(seeds_needed, 1.0, 1.0, power=p) == f"power: must be in (0, 1) (got {p})"


def test_an_interval_is_widened_to_hold_its_value():
    assert pm._holding(1.0, 39.0, 20.0) == (1.0, 39.0)
    assert pm._holding(1.0, 39.0, 0.5) == (0.5, 39.0)
    assert pm._holding(1.0, 39.0, 45.0) == (1.0, 45.0)
    assert pm._holding(1.0, 39.0, math.nan) == (1.0, 39.0)
    assert all(math.isnan(v) for v in pm._holding(math.nan, math.nan, 1.0))
    assert all(type(v) is float for v in pm._holding(np.float64(1), np.float64(2), 3.0))


def test_options():
    assert pm.check_options(1, None) == {"share": 0.02, "turns": 1.0, "per game": 0.05}
    assert pm.check_options(10_000, {"turns": 2, "laps": 0.5}) == {
        "share": 0.02, "turns": 2, "per game": 0.05, "laps": 0.5}  # fmt: skip
    assert msg(pm.check_options, 0, None) == "bootstrap: must be between 1 and 10000 (got 0)"
    assert msg(pm.check_options, 10_001, None) == (
        "bootstrap: must be between 1 and 10000 (got 10001)")  # fmt: skip
    for bad in (0, -1.0, math.inf, math.nan, True, "1", None):
        assert msg(pm.check_options, 5, {"share": bad}) == (
            f"detect['share']: must be a change > 0 (got {bad!r})")  # fmt: skip
    assert pm.MAX_BOOTSTRAP == 10_000 and pm.MAX_DRAWS == 50_000_000


# -- per-game measures --------------------------------------------------------------------------


def test_lead_changes_and_decided_at_by_hand():
    lead = pm._lead
    # NPC dies at 3 (monsters ahead), the monster at 5 (NPCs ahead): one change, decided at 5/10
    assert lead([(3, True), (5, False)], 2, 1, "npc", 10) == (1, 0.5)
    # monster dies (NPCs ahead), NPC dies (tie), NPC dies (monsters ahead): one change, through
    # the tie; the monsters took the lead they kept at turn 4 of 8
    assert lead([(1, False), (2, True), (4, True)], 2, 2, "monster", 8) == (1, 0.5)
    # ahead, a tie, ahead again (the same side): no change, the kept lead began at 3
    assert lead([(1, False), (2, True), (3, False)], 2, 2, "npc", 6) == (0, 0.5)
    # the winner was not ahead at the end: 1
    assert lead([(2, False)], 1, 1, "monster", 4) == (0, 1.0)
    assert lead([], 1, 1, "npc", 4) == (0, 1.0)
    # deaths in one turn count together: 2 NPCs of 2 alive vs 1 monster of 2 after turn 3
    assert lead([(3, False), (3, True), (3, False)], 2, 2, "npc", 3) == (0, 1.0)
    # no winner, or no turn: undefined
    changes, at = lead([(3, True), (5, False)], 2, 1, "", 10)
    assert changes == 1 and math.isnan(at)
    assert math.isnan(lead([(1, True)], 1, 1, "monster", 0)[1])
    assert lead([(1, True)], 1, 1, "monster", 1) == (0, 1.0)
    assert math.isnan(lead([(1, True)], 1, 1, "draw", 5)[1])
    # NPCs ahead, monsters ahead, NPCs ahead: two changes
    died = [(1, False), (2, True), (2, True), (3, False), (3, False)]
    assert lead(died, 3, 3, "npc", 4) == (2, 0.75)


def frame():
    return pd.DataFrame({
        "winner": ["npc", "monster", "", "", "npc"],
        "end_reason": ["victory", "victory", "step_limit", "mutual_death", "victory"],
        "turns": [10, 8, 300, 12, 5],
        "alive_npc-0": [True, False, True, False, True],
        "survival_npc-0": [10, 4, 300, 12, 5],
        "alive_npc-1": [False, False, True, False, False],
        "survival_npc-1": [3, -1, 300, -1, -1],  # -1: not in that game
        "alive_monster-0": [False, True, True, False, False],
        "survival_monster-0": [5, 8, 300, 12, 5],
    })  # fmt: skip


def test_game_measures_by_hand():
    m = game_measures(frame())
    assert sorted(m) == ["decided_at", "lead_changes", "monster_win", "mutual_death",
                         "npc_win", "npcs_alive", "step_limit", "turns"]  # fmt: skip
    assert m["npc_win"].tolist() == [1.0, 0, 0, 0, 1] and m["npc_win"].dtype == float
    assert m["monster_win"].tolist() == [0.0, 1, 0, 0, 0] and m["monster_win"].dtype == float
    assert m["step_limit"].tolist() == [0.0, 0, 1, 0, 0] and m["step_limit"].dtype == float
    assert m["mutual_death"].tolist() == [0.0, 0, 0, 1, 0] and m["mutual_death"].dtype == float
    assert m["turns"].tolist() == [10.0, 8, 300, 12, 5] and m["turns"].dtype == float
    # alive NPCs among those in the game: 1 of 2, 0 of 1, 2 of 2, 0 of 1, 1 of 1
    assert m["npcs_alive"].tolist() == [0.5, 0.0, 1.0, 0.0, 1.0]
    # game 0: NPC dies at 3, monster at 5 (one change, 5/10); game 1: the only NPC dies at 4
    # (4/8); game 2: nobody dies; game 3: both die at 12, no winner; game 4: monster dies at 5
    assert m["lead_changes"].tolist() == [1, 0, 0, 0, 0]
    d = m["decided_at"]
    assert d[[0, 1, 4]].tolist() == [0.5, 0.5, 1.0] and np.isnan(d[[2, 3]]).all()


def test_npcs_alive_after_a_turn():
    f = frame()
    # npc-0 died at 4 in game 1, npc-1 at 3 in game 0: alive after a turn means dying later
    assert npcs_alive_after(f, 4).tolist() == [0.5, 0.0, 1.0, 1.0, 1.0]
    assert npcs_alive_after(f, 3).tolist() == [0.5, 1.0, 1.0, 1.0, 1.0]
    assert npcs_alive_after(f, 2).tolist() == [1.0, 1.0, 1.0, 1.0, 1.0]
    assert npcs_alive_after(f, 12).tolist() == [0.5, 0.0, 1.0, 0.0, 1.0]
    none = pd.DataFrame({"alive_npc-0": [False], "survival_npc-0": [-1]})
    assert npcs_alive_after(none, 0).tolist() == [0.0]


def turn_zero_frame():
    """Games where actors die in turn 0 (still in the game: only -1 means not in it)."""
    return pd.DataFrame({
        "winner": ["npc", "monster", "monster", "", "npc"],
        "end_reason": ["victory", "victory", "victory", "step_limit", "victory"],
        "turns": [4, 4, 3, 0, 3],
        "alive_npc-0": [False, False, False, True, True],
        "survival_npc-0": [0, 2, 3, 0, 6],
        "alive_npc-1": [True, False, False, True, False],
        "survival_npc-1": [4, 4, -1, 0, -1],
        "alive_monster-0": [False, False, False, True, False],
        "survival_monster-0": [2, 0, 1, 0, 0],
        "alive_monster-1": [False, True, True, True, False],
        "survival_monster-1": [4, 4, 3, 0, 3],
    })  # fmt: skip


def test_an_actor_dead_in_turn_zero_was_in_the_game():
    m = game_measures(turn_zero_frame())
    # game 0: an NPC dies in turn 0 (monsters ahead, 1/2 vs 2/2), a monster at 2 (tied), the
    # other at 4 (NPCs ahead): one change, the NPCs' lead began at 4 of 4.
    # game 1, the mirror: a monster dies in turn 0 (NPCs ahead), NPCs at 2 (tied) and 4.
    # game 2: one NPC against two monsters: a monster dies at 1 (NPCs ahead, 1/1 vs 1/2), the
    # NPC at 3 (monsters ahead): one change, at 3 of 3.
    # game 3: no turn played, everybody alive; game 4: a monster dies in turn 0 and the NPCs
    # lead from then on: decided at 0 of 3.
    assert m["npcs_alive"].tolist() == [0.5, 0.0, 0.0, 1.0, 1.0]
    assert m["lead_changes"].tolist() == [1, 1, 1, 0, 0]
    d = m["decided_at"]
    assert d[[0, 1, 2, 4]].tolist() == [1.0, 1.0, 1.0, 0.0] and math.isnan(d[3])
    # after turn 0: game 0's NPC dead in turn 0 is not alive after it; game 3's are
    assert npcs_alive_after(turn_zero_frame(), 0).tolist() == [0.5, 1.0, 1.0, 1.0, 1.0]
    assert npcs_alive_after(turn_zero_frame(), 2).tolist() == [0.5, 0.5, 1.0, 1.0, 1.0]


# -- the table ----------------------------------------------------------------------------------

A = {
    "turns": np.array([10, 12, 9, 15, 11, 30, 8, 14, 10, 13, 12, 20], dtype=float),
    "npc_win": np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1], dtype=float),
    "monster_win": np.array([0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0], dtype=float),
    "decided_at": np.array([0.5, 0.8, np.nan, 1, 0.3, np.nan, 0.6, 0.9, 0.4, 1, np.nan, 0.7]),
}
B = {
    "turns": A["turns"] + np.array([0, 1, 3, 0, -2, 5, 1, 0, 2, 1, 0, 4]),
    "npc_win": np.array([1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1, 1], dtype=float),
    "monster_win": np.array([0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0], dtype=float),
    "decided_at": np.array([0.4, 0.8, 0.5, np.nan, 0.3, 0.2, 0.6, 0.7, 0.4, 0.9, np.nan, 0.7]),
}


def resampled(m, cols, idx):
    """The metric on the seeds ``idx`` (a resample lists the seeds it drew)."""
    with np.errstate(all="ignore"):
        if m.kind == "balance":
            return 1 - abs(cols["npc_win"][idx].mean() - cols["monster_win"][idx].mean())
        x = cols[m.needs[0]][idx]
        if m.kind == "spread":
            return float(np.std(x, ddof=1))
        if m.kind == "quantile":
            return float(np.quantile(x, m.quantile, method="inverted_cdf"))
        x = x[~np.isnan(x)]
        return float(x.mean()) if x.size else math.nan


def mcnemar_by_hand(a, b):
    up = sum(1 for x, y in zip(a, b) if x and not y)
    down = sum(1 for x, y in zip(a, b) if y and not x)
    n = up + down
    return 1.0 if n == 0 else min(1.0, 2 * sum(math.comb(n, k) for k in range(min(up, down) + 1))
                                  / 2**n)  # fmt: skip


def midp_by_hand(a, b):
    """The mid-p McNemar: the exact p less the probability of the split seen (both tails)."""
    up = sum(1 for x, y in zip(a, b) if x and not y)
    down = sum(1 for x, y in zip(a, b) if y and not x)
    n, k = up + down, min(up, down)
    if n == 0:
        return 1.0
    return min(1.0, 2 * (sum(math.comb(n, j) for j in range(k + 1)) - math.comb(n, k) / 2) / 2**n)


def t_by_hand(x):
    """Student's t interval of a mean and the paired t-test's p."""
    n, m = len(x), float(np.mean(x))
    se = float(np.std(x, ddof=1)) / math.sqrt(n)
    q = student_t.ppf(0.975, n - 1)
    return m - q * se, m + q * se, float(2 * student_t.cdf(-abs(m) / se, n - 1))


def wilson_by_hand(k, n):
    """Wilson's score interval, with the Poisson ends for 1-2 yes (or no) in up to 50 games."""
    z = Z975
    p = k / n
    centre = (k + z * z / 2) / (n + z * z)
    half = z * math.sqrt(n) / (n + z * z) * math.sqrt(p * (1 - p) + z * z / (4 * n))
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    lam = {1: -math.log(0.95), 2: brentq(lambda x: poisson.sf(1, x) - 0.05, 0.01, 5)}
    if k in lam:
        lo = lam[k] / n
    if n - k in lam:
        hi = 1 - lam[n - k] / n
    return lo, hi


def tango_by_hand(up, down, n):
    """Tango's score interval with the restricted likelihood maximised numerically: the cell
    probabilities (only B, only A) = (q + d, q) maximise the multinomial likelihood."""

    def score(d):
        def minus_loglik(q):
            cells = [q + d, q, 1 - 2 * q - d]
            return -sum(k * math.log(c) for k, c in zip((up, down, n - up - down), cells) if k)

        lo_q, hi_q = max(0.0, -d) + 1e-12, (1 - d) / 2 - 1e-12
        q = minimize_scalar(minus_loglik, bounds=(lo_q, hi_q), method="bounded",
                            options={"xatol": 1e-13}).x  # fmt: skip
        return (up - down - n * d) / math.sqrt(n * (2 * q + d * (1 - d)))

    return (brentq(lambda d: score(d) - Z975, -0.999999, 0.999999, xtol=1e-12),
            brentq(lambda d: score(d) + Z975, -0.999999, 0.999999, xtol=1e-12))  # fmt: skip


def student_by_hand(x, draws):
    """Bootstrap-t: the resamples' (mean − mean) / own standard error, their 2.5 % and 97.5 %
    order statistics, and the p-value where the sample's own t sits among them."""
    n = len(x)
    m, se = x.mean(), x.std(ddof=1) / math.sqrt(n)
    t = []
    for i in draws:
        s = x[i].std(ddof=1) / math.sqrt(n)
        gap = x[i].mean() - m
        t.append(gap / s if s > 1e-12 else (0.0 if abs(gap) < 1e-12 else math.copysign(1e300, gap)))
    t = np.sort(np.array(t))
    q_lo, q_hi = t[math.ceil(0.025 * len(t)) - 1], t[math.ceil(0.975 * len(t)) - 1]
    t0 = m / se
    p = min(1.0, 2 * min(np.mean(t >= t0), np.mean(t <= t0)))
    return m - q_hi * se, m - q_lo * se, p


def bca_by_hand(stat, n, draws):
    """BCa at the expanded level sqrt(n / (n − 1)) · t(n − 1): bias from the share of
    resamples below the value, acceleration from the leave-one-out values; p where 0 sits."""
    point = stat(np.arange(n))
    boot = np.array([stat(i) for i in draws])
    boot = boot[~np.isnan(boot)]
    jack = np.array([stat(np.delete(np.arange(n), i)) for i in range(n)])
    jack = jack[~np.isnan(jack)]
    u = jack.mean() - jack
    ss = (u**2).sum()
    acc = (u**3).sum() / (6 * ss**1.5) if ss > 0 else 0.0  # all alike: no skew to correct

    def below(x):
        s = (np.sum(boot < x - 1e-12) + 0.5 * np.sum(abs(boot - x) <= 1e-12)) / len(boot)
        return min(max(s, 0.5 / len(boot)), 1 - 0.5 / len(boot))

    z0 = NormalDist().inv_cdf(below(point))
    zl = math.sqrt(n / (n - 1)) * student_t.ppf(0.975, n - 1)
    ends = [NormalDist().cdf(z0 + (z0 + z) / (1 - acc * (z0 + z))) for z in (-zl, zl)]
    lo, hi = np.percentile(boot, [100 * e for e in ends])
    w = NormalDist().inv_cdf(below(0.0)) - z0
    za = w / (1 + acc * w) - z0
    p = min(1.0, 2 * student_t.cdf(-abs(za) / math.sqrt(n / (n - 1)), n - 1))
    return min(lo, point), max(hi, point), p


def agreeing(lo, hi, p):
    if p >= 0.05:
        return min(lo, 0.0), max(hi, 0.0), p
    return lo, hi, 0.05 if lo <= 0 <= hi else p


def expected(m, a, b, boot, rng, detect):
    size = len(next(iter(a.values())))
    draws = stream(rng, "paired-bootstrap").integers(0, size, (boot, size))
    va, vb = resampled(m, a, np.arange(size)), resampled(m, b, np.arange(size))
    ba = np.array([resampled(m, a, i) for i in draws])
    bb = np.array([resampled(m, b, i) for i in draws])
    d = bb - ba
    var_d = float(np.nanvar(d, ddof=1))
    var_u = float(np.nanvar(ba, ddof=1) + np.nanvar(bb, ddof=1))
    dd = detect[m.unit]
    z = Z975 + Z80
    need = max(2, math.ceil(z * z * var_d * size / dd**2))
    nan = math.nan
    note = ""
    col = m.needs[0]
    if m.binary:
        p, test = midp_by_hand(a[col], b[col]), "McNemar mid-p"
        ka, kb = int(a[col].sum()), int(b[col].sum())
        up = int(((a[col] == 0) & (b[col] == 1)).sum())
        down = int(((a[col] == 1) & (b[col] == 0)).sum())
        lo, hi = tango_by_hand(up, down, size)
        if p >= 0.05:
            lo, hi = min(lo, 0.0), max(hi, 0.0)
        ends = [wilson_by_hand(ka, size), wilson_by_hand(kb, size), (lo, hi)]
    else:
        test = "paired bootstrap"
        if m.kind == "spread" or (m.kind == "quantile" and m.quantile != 0.5):
            # 12 seeds: a spread needs 300 (a change 1000), the 10 % and 90 % points 50 (150)
            change = 1000 if m.kind == "spread" else 150
            ends, p, need = [(nan, nan)] * 3, nan, max(need, change)
            note = (
                f"12 seeds are too few for a trustworthy interval of this change: it needs "
                f"at least {change} seeds (fewer missed the truth too often, see W10)"
            )
        elif m.kind == "quantile":  # the median: 10 seeds for a value, 30 for a change
            stat_a = lambda i: resampled(m, a, i)  # noqa: E731
            stat_b = lambda i: resampled(m, b, i)  # noqa: E731
            ends = [bca_by_hand(stat_a, size, draws)[:2], bca_by_hand(stat_b, size, draws)[:2],
                    (nan, nan)]  # fmt: skip
            p, need = nan, max(need, 30)
            note = (
                "12 seeds are too few for a trustworthy interval of this change: it needs "
                "at least 30 seeds (fewer missed the truth too often, see W10)"
            )
        elif m.kind == "balance":  # the gap NPC win − monster win, folded
            ga, gb = a["npc_win"] - a["monster_win"], b["npc_win"] - b["monster_win"]
            ends, open_ = [], []
            wants = []
            for g in (ga, gb):
                lo, hi, _ = student_by_hand(g, draws)
                lo, hi = max(lo, -1.0), min(hi, 1.0)  # the gap is in -1…1
                near = 0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi))
                ends.append((1 - max(abs(lo), abs(hi)), 1 - near))
                # the side is settled when Wilson's interval of the NPC share of decided
                # games misses one half; seeds to settle it: the one-sample binomial size
                k, d = int((g > 0).sum()), int((g != 0).sum())
                s_lo, s_hi = wilson_by_hand(k, d)
                open_.append(s_lo <= 0.5 <= s_hi)
                q = k / d
                games = ((Z975 / 2 + Z80 * math.sqrt(q * (1 - q))) / abs(q - 0.5)) ** 2
                wants.append(max(size + 1, math.ceil(games * size / d)))
            if any(open_):  # a leading side not settled: no interval of the change
                which = " and ".join(v for v, o in zip("AB", open_) if o)
                want = max(w for w, o in zip(wants, open_) if o)
                note = (f"{which}: too close to even at 12 seeds to say which side leads, so "
                        f"a change of balance has no trustworthy interval; about {want} seeds "
                        "would settle it (the win-rate rows show the change)")  # fmt: skip
                ends.append((nan, nan))
                p = nan
            else:
                c = np.sign(ga.mean()) * ga - np.sign(gb.mean()) * gb
                lo, hi, p = agreeing(*student_by_hand(c, draws))
                ends.append((lo, hi))
        elif m.unit == "per game":  # counts per game (lead changes): Student's t
            test = "paired t"
            ends = [t_by_hand(a[col])[:2], t_by_hand(b[col])[:2]]
            lo, hi, p = agreeing(*t_by_hand(b[col] - a[col]))
            ends.append((lo, hi))
        elif m.kind == "mean" and m.unit != "share" and not np.isnan(a[col]).any():
            ends = [student_by_hand(a[col], draws)[:2], student_by_hand(b[col], draws)[:2]]
            lo, hi, p = agreeing(*student_by_hand(b[col] - a[col], draws))
            ends.append((lo, hi))
        else:  # a share of NPCs, a mean over the games that have a value: BCa (10 games)
            stat_a = lambda i: resampled(m, a, i)  # noqa: E731
            stat_b = lambda i: resampled(m, b, i)  # noqa: E731
            have = [int((~np.isnan(v[col])).sum()) for v in (a, b)]
            ends = [bca_by_hand(s, size, draws)[:2] if k >= 10 else (nan, nan)
                    for s, k in zip((stat_a, stat_b), have)]  # fmt: skip
            if min(have) < 10:
                ends.append((nan, nan))
                p = nan
                note = (f"too few games with a value here ({min(have)} in one version): an "
                        "interval needs at least 10; play more seeds")  # fmt: skip
            else:
                lo, hi, p = agreeing(*bca_by_hand(lambda i: stat_b(i) - stat_a(i), size, draws))
                ends.append((lo, hi))
    ends = [(min(lo, v), max(hi, v)) if not math.isnan(lo) else (lo, hi)
            for (lo, hi), v in zip(ends, (va, vb, vb - va))]  # fmt: skip
    if m.unit == "share":  # shares in 0…1, changes in −1…1
        ends = [(max(lo, -k), min(hi, 1.0)) for (lo, hi), k in zip(ends, (0.0, 0.0, 1.0))]
    return {
        "metric": m.key, "label": m.label, "unit": m.unit,
        "a": va, "a_lo": ends[0][0], "a_hi": ends[0][1],
        "b": vb, "b_lo": ends[1][0], "b_hi": ends[1][1],
        "diff": vb - va, "diff_lo": ends[2][0], "diff_hi": ends[2][1],
        "p_value": p, "test": test, "variance_reduction": var_u / var_d, "detect": dd,
        "seeds_needed": need,
        "seeds_unpaired": max(2, math.ceil(z * z * var_u * size / dd**2)),
        "pairs": size, "note": note,
    }  # fmt: skip


COLUMNS = ["metric", "label", "unit", "a", "a_lo", "a_hi", "b", "b_lo", "b_hi", "diff",
           "diff_lo", "diff_hi", "p_value", "test", "variance_reduction", "detect",
           "seeds_needed", "seeds_unpaired", "pairs", "note"]  # fmt: skip


@pytest.mark.parametrize("rng", [0, 7])
def test_every_metric_matches_a_plain_computation_of_its_interval(rng):
    # yes/no rates: Wilson and Tango, p the mid-p McNemar (no resampling); game length's mean:
    # bootstrap-t; lead changes: Student's t; balance: its gap's bootstrap-t folded; NPCs alive,
    # a mean with undefined games and the median: BCa; rows with too few seeds: none, and a
    # note. Each written out with index resamples of the same draws.
    keys = ["npc_win", "monster_win", "balance", "length_mean", "length_sd", "length_q10",
            "length_q50", "length_q90", "decided_at", "npcs_alive", "lead_changes"]  # fmt: skip
    detect = {"share": 0.1, "turns": 2.0, "per game": 0.05}
    a = {
        **A,
        "npcs_alive": np.array([1, 0.5, 1, 0, 0.5, 0, 1, 1, 0.5, 1, 0, 1]),
        "lead_changes": np.array([0, 1, 0, 2, 0, 1, 0, 0, 1, 0, 3, 0], dtype=float),
    }
    b = {
        **B,
        "npcs_alive": np.array([1, 1, 1, 0, 0.5, 0.5, 1, 1, 0.5, 1, 0, 1]),
        "lead_changes": np.array([0, 1, 1, 1, 0, 1, 0, 1, 1, 0, 2, 0], dtype=float),
    }
    t = paired_table(
        a, b, metrics=keys, bootstrap=300, rng=rng, detect={"share": 0.1, "turns": 2.0}
    )
    assert list(t.columns) == COLUMNS and t["metric"].tolist() == keys
    for row, key in zip(t.to_dict("records"), keys):
        want = expected(METRICS[key], a, b, 300, rng, detect)
        for col in COLUMNS:
            if isinstance(want[col], str):
                assert row[col] == want[col], (key, col)
            elif math.isnan(want[col]):
                assert math.isnan(row[col]), (key, col)
            else:
                assert row[col] == pytest.approx(want[col], rel=1e-9, abs=1e-9), (key, col)


def test_the_default_metrics_are_those_both_versions_have_columns_for():
    t = paired_table(A, {**B, "lead_changes": np.zeros(12)}, bootstrap=20)
    assert t["metric"].tolist() == ["npc_win", "monster_win", "balance", "length_mean",
                                    "length_sd", "length_q10", "length_q50", "length_q90",
                                    "decided_at"]  # fmt: skip
    only_a = {"npc_win": A["npc_win"], "turns": A["turns"]}
    t = paired_table(only_a, {"npc_win": B["npc_win"], "monster_win": B["monster_win"]},
                     bootstrap=20)  # fmt: skip
    assert t["metric"].tolist() == ["npc_win"]
    # a Metric object of one's own
    q28 = Metric("q28", "28 %", "turns", ("turns",), quantile=0.28, kind="quantile")
    t = paired_table({"turns": np.arange(1.0, 26)}, {"turns": np.arange(1.0, 26) + 1},
                     metrics=[q28], bootstrap=20)  # fmt: skip
    assert (t.loc[0, "metric"], t.loc[0, "a"], t.loc[0, "b"]) == ("q28", 7.0, 8.0)


def test_a_certain_difference_has_p_zero_and_no_difference_p_one():
    # B is always 3 turns longer: every resample's difference is 3, none on the far side of 0
    a = {"turns": np.arange(40.0)}
    t = paired_table(a, {"turns": a["turns"] + 3}, metrics=["length_mean", "length_q50"],
                     bootstrap=100).set_index("metric")  # fmt: skip
    assert t["diff"].tolist() == [3.0, 3.0] and t["p_value"].tolist() == [0.0, 0.0]
    # ... and no spread to draw an interval from: none, and the row says so (issue 45: a
    # zero-wide interval read as certainty where 40 seeds cannot give any)
    assert t["diff_lo"].isna().all() and t["diff_hi"].isna().all()
    assert t.loc["length_mean", "note"] == (
        "the change came out +3 however the 40 seeds were redrawn: no spread to draw an "
        "interval from; play more seeds (at least 80)")  # fmt: skip
    assert t["variance_reduction"].tolist() == [math.inf, math.inf]
    assert t["seeds_needed"].tolist() == [-1, -1]  # unknown: no spread measured
    # shorter by 3: the same
    t = paired_table(a, {"turns": a["turns"] - 3}, metrics=["length_mean"], bootstrap=100)
    assert t.loc[0, "p_value"] == 0.0
    # A against itself: nothing differs, p is 1 and the variance reduction undefined
    same = paired_table(a, a, metrics=["length_mean"], bootstrap=100).iloc[0]
    assert same["p_value"] == 1.0 and same["diff"] == 0.0 and same["seeds_needed"] == -1
    assert math.isnan(same["diff_lo"]) and same["note"].startswith("the change came out +0 ")
    assert math.isinf(same["variance_reduction"])
    const = {"turns": np.full(40, 5.0)}
    flat = paired_table(const, const, metrics=["length_mean"], bootstrap=100).iloc[0]
    assert flat["p_value"] == 1.0 and math.isnan(flat["variance_reduction"])


def test_the_defaults_are_a_thousand_resamples_from_stream_zero():
    keys = ["length_mean", "length_q50"]
    assert paired_table(A, B, metrics=keys).equals(
        paired_table(A, B, metrics=keys, bootstrap=1000, rng=0))  # fmt: skip


def test_the_table_does_not_depend_on_the_columns_number_type():
    # small whole numbers (a Parquet frame's uint8 / int16) read as the same numbers: B plays
    # shorter on some seeds (a negative difference) and x² exceeds the narrow types
    ta = np.array([200, 250, 30, 120, 90, 255, 180, 60, 75, 240, 10, 140])
    tb = ta - np.array([5, 0, 3, 1, 0, 7, 2, 0, 1, 4, 0, 2])
    want = paired_table(
        {"turns": ta.astype(float)},
        {"turns": tb.astype(float)},
        metrics=["length_mean", "length_sd", "length_q50"],
        bootstrap=50,
    )
    for kind in (np.uint8, np.int16):
        got = paired_table(
            {"turns": ta.astype(kind)},
            {"turns": tb.astype(kind)},
            metrics=["length_mean", "length_sd", "length_q50"],
            bootstrap=50,
        )
        pd.testing.assert_frame_equal(got, want)


@pytest.mark.parametrize("side", ["a", "b"])
def test_none_is_an_undefined_value(side):
    # per-seed lists from JSON hold null (None) where a game has no decided_at: NaN
    with_none = [None if math.isnan(x) else float(x) for x in A["decided_at"]]
    a, b = {"decided_at": A["decided_at"]}, {"decided_at": A["decided_at"]}
    (a if side == "a" else b)["decided_at"] = with_none
    t = paired_table(a, b, metrics=["decided_at"], bootstrap=20).iloc[0]
    assert t["a"] == t["b"] == pytest.approx(np.nanmean(A["decided_at"]))
    # (9 games with a value: too few for an interval or a p, see the too-few test)
    assert t["diff"] == 0.0 and math.isnan(t["p_value"]) and "(9 in one version)" in t["note"]
    # the whole row as with NaN itself, more games with a value too
    more = np.r_[A["decided_at"], A["decided_at"]]
    nones = [None if math.isnan(x) else float(x) for x in more]
    t = paired_table({"decided_at": nones}, {"decided_at": more}, metrics=["decided_at"],
                     bootstrap=20)  # fmt: skip
    want = paired_table({"decided_at": more}, {"decided_at": more}, metrics=["decided_at"],
                        bootstrap=20)  # fmt: skip
    pd.testing.assert_frame_equal(t, want)
    assert t.loc[0, "p_value"] == 1.0  # 18 games with a value, the same in A and B


def test_p_values_of_changes_smaller_than_one():
    a = np.arange(40.0)
    # half a turn longer on every seed: certain (p 0), however small the change
    t = paired_table({"turns": a}, {"turns": a + 0.5}, metrics=["length_mean"], bootstrap=100)
    assert t.loc[0, "p_value"] == 0.0
    # half a turn longer on average, 0 or 1 seed by seed: hardly ever not longer
    b = a + np.arange(40) % 2
    t = paired_table({"turns": a}, {"turns": b}, metrics=["length_mean"], bootstrap=200).iloc[0]
    d = np.array(
        [(b[i] - a[i]).mean() for i in stream(0, "paired-bootstrap").integers(0, 40, (200, 40))]
    )
    assert t["diff"] == 0.5 and t["p_value"] == pytest.approx(min(1.0, 2 * np.mean(d <= 0)))
    assert t["p_value"] < 0.01
    # a tiny certain change on games a million turns long is still certain
    big = 1e6 + a
    t = paired_table({"turns": big}, {"turns": big + 1e-4}, metrics=["length_mean"],
                     bootstrap=100).iloc[0]  # fmt: skip
    assert t["p_value"] == 0.0 and t["variance_reduction"] == math.inf


def test_a_change_within_rounding_is_none():
    # a change of 1e-13 of a turn, or rounding noise around no change, is no change: p 1
    z = np.zeros(40)
    t = paired_table({"turns": z}, {"turns": z + 1e-13}, metrics=["length_mean"], bootstrap=100)
    assert t.loc[0, "p_value"] == 1.0
    a = np.random.default_rng(1).uniform(0, 100, 40)
    noise = 1e-14 * np.where(np.arange(40) % 3 == 0, 1.0, -0.4)  # mostly down, on average up
    t = paired_table({"turns": a}, {"turns": a + noise}, metrics=["length_mean"], bootstrap=100)
    assert t.loc[0, "p_value"] == 1.0


def plain_variances(a, b, boot, rng=0):
    """Var(B − A) and Var(A) + Var(B) of the resampled means (a resample lists its seeds)."""
    draws = stream(rng, "paired-bootstrap").integers(0, len(a), (boot, len(a)))
    ma, mb = np.array([a[i].mean() for i in draws]), np.array([b[i].mean() for i in draws])
    return np.var(mb - ma, ddof=1), np.var(ma, ddof=1) + np.var(mb, ddof=1)


def test_a_difference_varies_unless_its_variance_is_rounding():
    # the rule: Var(B − A) at most 1e-18 x max(Var A + Var B, 1) is rounding, it never varies
    # (variance reduction inf, p 0 for a change); above that it varies
    pattern = np.where(np.arange(40) % 2 == 0, 1.0, 0.0)
    var_d, _ = plain_variances(np.zeros(40), pattern, 100)
    tiny = pattern * math.sqrt(1.5e-18 / var_d)  # Var(B − A) = 1.5e-18: varies
    t = paired_table({"turns": np.zeros(40)}, {"turns": tiny}, metrics=["length_mean"],
                     bootstrap=100).iloc[0]  # fmt: skip
    assert t["variance_reduction"] == pytest.approx(1.0)  # A never varies: Var(B) = Var(B − A)
    # games of thousands of turns: Var A + Var B is millions, the rounding noise of B − A about
    # 1e-24, far below 1e-18 x millions
    a = 1000 * np.arange(40) + 0.1
    var_d, var_u = plain_variances(a, a + 0.3, 100)
    assert var_u > 1e6 and 0 < var_d < 1e-20
    t = paired_table({"turns": a}, {"turns": a + 0.3}, metrics=["length_mean"], bootstrap=100)
    assert t.loc[0, "variance_reduction"] == math.inf and t.loc[0, "p_value"] == 0.0
    # a certain change on shares (Var A + Var B below 1): still no variance, reduction inf
    s = np.arange(40) / 100
    var_d, var_u = plain_variances(s, s + 0.5, 100)
    assert 0 < var_u < 1
    t = paired_table({"turns": s}, {"turns": s + 0.5}, metrics=["length_mean"], bootstrap=100)
    assert t.loc[0, "variance_reduction"] == math.inf


def test_too_few_games_with_a_value_give_no_interval_and_say_so():
    # decided at is defined in games with a winner only: 9 such games are fewer than the 10
    # any interval needs (MIN_SEEDS), whatever the seed count
    x = np.r_[np.full(31, np.nan), np.linspace(0.1, 0.9, 9)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (resamples without a defined game)
        r = paired_table({"decided_at": x}, {"decided_at": x * 0.8}, metrics=["decided_at"],
                         bootstrap=50).iloc[0]  # fmt: skip
        gone = {"decided_at": np.full(40, np.nan)}
        none = paired_table(gone, gone, metrics=["decided_at"], bootstrap=50).iloc[0]
    assert r["a"] == pytest.approx(0.5) and math.isnan(r["a_lo"]) and math.isnan(r["diff_lo"])
    assert math.isnan(r["p_value"]) and r["note"] == (
        "too few games with a value here (9 in one version): an interval needs at least 10; "
        "play more seeds")  # fmt: skip
    assert math.isnan(none["a"]) and math.isnan(none["diff_hi"])
    assert none["note"] == (
        "too few games with a value here (0 in one version): an interval needs at least 10; "
        "play more seeds")  # fmt: skip


def test_a_unit_without_a_change_to_detect_has_no_seed_count():
    m = Metric("k", "k", "laps", ("turns",))
    t = paired_table(A, B, metrics=[m], bootstrap=20).iloc[0]
    assert math.isnan(t["detect"]) and t["seeds_needed"] == -1 and t["seeds_unpaired"] == -1


def test_table_errors():
    assert msg(paired_table, A, B, metrics=["fun"]) == (
        f"metrics: unknown metric, known: {sorted(METRICS)} (got 'fun')")  # fmt: skip
    assert msg(paired_table, A, {"npc_win": B["npc_win"]}, metrics=["length_mean"]) == (
        "metrics: a metric needs this column in both versions (got 'turns')")  # fmt: skip
    assert msg(paired_table, {"turns": A["turns"]}, B, metrics=["npc_win"]) == (
        "metrics: a metric needs this column in both versions (got 'npc_win')")  # fmt: skip
    assert msg(paired_table, {"turns": [1.0, 2, 3]}, {"turns": [1.0, 2, 3, 4]}) == (
        "b: both versions need one value per seed, the same seeds (got [3, 4])")  # fmt: skip
    assert msg(paired_table, {"turns": []}, {"turns": []}) == (
        "b: both versions need one value per seed, the same seeds (got [0])")  # fmt: skip
    assert msg(paired_table, {"turns": [1.0]}, {"turns": [1.0]}, detect={"turns": 0}) == (
        "detect['turns']: must be a change > 0 (got 0)")  # fmt: skip
    assert msg(paired_table, {"turns": [1.0]}, {"turns": [1.0]}, bootstrap=0).startswith(
        "bootstrap: must be between 1 and 10000")  # fmt: skip


def test_the_draw_limit(monkeypatch):
    big = {"turns": np.zeros(5001)}
    assert msg(paired_table, big, big, bootstrap=10_000) == (
        "bootstrap: 10000 resamples x 5001 seeds is more than 50000000 draws (got 10000)"
    )
    monkeypatch.setattr(pm, "MAX_DRAWS", 100)
    small = {"turns": np.arange(10.0)}
    assert paired_table(small, small, bootstrap=10).loc[0, "pairs"] == 10  # 100 draws: allowed
    assert msg(paired_table, small, small, bootstrap=11).startswith("bootstrap: 11 resamples")


def _won(npc: int, monster: int, size: int) -> dict:
    """Synthetic columns: the first ``npc`` seeds won by the NPCs, the next ``monster`` by the
    monsters, the rest neither."""
    win = np.zeros(size)
    win[:npc] = 1.0
    lost = np.zeros(size)
    lost[npc : npc + monster] = 1.0
    return {"npc_win": win, "monster_win": lost}


def test_a_version_that_clearly_leads_is_not_too_close_to_even():
    # 18 of 20 NPC wins: Wilson's interval of the NPC share of decided games is 70-97 %
    # (exact binomial p 0.0004), so the NPCs lead; the bootstrap-t of the gap once called it
    # open, its resamples of NPC wins only making its end infinite
    assert wilson_by_hand(18, 20)[0] > 0.5
    rolled = {k: np.roll(v, 5) for k, v in _won(18, 2, 20).items()}  # lost on other seeds
    for b in (_won(17, 3, 20), rolled):
        row = paired_table(_won(18, 2, 20), b, metrics=["balance"], bootstrap=200).iloc[0]
        assert "too close to even" not in row["note"], row["note"]
        assert not math.isnan(row["diff_lo"]) and not math.isnan(row["diff_hi"])
    # 10 of 12 NPC wins settles the side too (Wilson 55-97 %, exact binomial p 0.039)
    assert wilson_by_hand(10, 12)[0] > 0.5
    row = paired_table(_won(7, 5, 12), _won(10, 2, 12), metrics=["balance"],
                       bootstrap=200).iloc[0]  # fmt: skip
    assert row["note"].startswith("A: too close to even at 12 seeds"), row["note"]


@pytest.mark.parametrize("size", [12, 20])
def test_a_balance_note_never_asks_for_fewer_seeds_than_were_played(size):
    # every split of the decided games: a version is named too close to even exactly when
    # Wilson's interval of its NPC share of decided games holds 50 %, and the seeds the note
    # asks for are more than were played
    for npc in range(size + 1):
        for monster in (size - npc, max(0, size - npc - 3)):
            a = _won(npc, monster, size)
            row = paired_table(a, _won(size, 0, size), metrics=["balance"],
                               bootstrap=100).iloc[0]  # fmt: skip
            decided = npc + monster
            lo, hi = wilson_by_hand(npc, decided) if decided else (0.0, 1.0)
            assert row["note"].startswith("A: too close") is (lo <= 0.5 <= hi), (npc, monster)
            said = [int(w) for w in row["note"].replace(",", "").split() if w.isdigit()]
            if "seeds would settle it" in row["note"]:
                assert said[-1] > size, (npc, monster, row["note"])
