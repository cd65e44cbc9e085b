"""Tuning, rule by rule and exactly (sim/tune.py): with responses whose rates are known exactly,
the points played, the seeds each plays, the bracket, the line fit, the bootstrap interval and
the whole-number answer are all known beforehand, and are worked out by hand below.

* A *step* response wins every game below ``c`` and none from it on: each midpoint's Wilson
  interval lies wholly on one side of 0.5, so the bisection is the plain halving of the bracket.
* A *plateau* response wins every game below 10, none from 40 on, and in between exactly the
  even seeds (rate 0.5 on an even prefix): a midpoint there never leaves the target, so its
  seeds (and those of the bracket's ends) double until the seed list is used up.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from labkit import ArgumentError
from labkit.encounter.sim import tune as tm
from labkit.encounter.sim.tune import Tuned, play_response, tune

Z = 1.96


def wilson(k, n):
    """The Wilson score interval, in plain Python."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _line(xs, ys, ws):
    """Weighted least-squares line (intercept, slope), in plain Python."""
    sw = sum(ws)
    xm = sum(w * x for w, x in zip(ws, xs)) / sw
    ym = sum(w * y for w, y in zip(ws, ys)) / sw
    slope = sum(w * (x - xm) * (y - ym) for w, x, y in zip(ws, xs, ys)) / sum(
        w * (x - xm) ** 2 for w, x in zip(ws, xs))  # fmt: skip
    return ym - slope * xm, slope


def lines(target, pts):
    """The two roots tune averages, by hand: where the rate line (weights = games) and the
    empirical log-odds line (log((k + 1/2) / (n - k + 1/2)), weights n p (1 - p) with
    p = (k + 1/2) / (n + 1)) through ``pts = [(value, wins, games)]`` cross the target."""
    xs = [x for x, _, _ in pts]
    i, k = _line(xs, [w / n for _, w, n in pts], [n for _, _, n in pts])
    ps = [(w + 0.5) / (n + 1) for _, w, n in pts]
    li, lk = _line(xs, [math.log((w + 0.5) / (n - w + 0.5)) for _, w, n in pts],
                   [n * p * (1 - p) for (_, _, n), p in zip(pts, ps)])  # fmt: skip
    return (target - i) / k, (math.log(target / (1 - target)) - li) / lk


def crossing(target, pts):
    """The crossing (the mean of the two roots) and the curve's term (their distance)."""
    r, o = lines(target, pts)
    return (r + o) / 2, abs(r - o)


def widened(root, curve, roots):
    """The bootstrap's 95 % percentiles of ``roots``, each side widened by the curve's term (and
    never leaving ``root`` outside)."""
    lo, hi = np.percentile(roots, [2.5, 97.5])
    return root - max(root - lo, 0) - curve, root + max(hi - root, 0) + curve


class Recorder:
    """A response that records what it is asked to play."""

    def __init__(self, rule):
        self.rule, self.calls = rule, []

    def __call__(self, v, seeds):
        seeds = np.asarray(seeds)
        self.calls.append((v, seeds.tolist()))
        return np.array([self.rule(v, int(s)) for s in seeds], dtype=bool)


def _step_curve():
    """The points a step at 20.3 is played at (start 10, budget 2000) with Wilson intervals."""
    return pd.DataFrame(
        [(v, n, rate, *wilson(k, n)) for v, n, rate, k in
         ((0.0, 10, 1.0, 10), (16.0, 10, 1.0, 10), (20.0, 970, 1.0, 970), (21.0, 970, 0.0, 0),
          (22.0, 10, 0.0, 0), (24.0, 10, 0.0, 0), (32.0, 10, 0.0, 0), (64.0, 10, 0.0, 0))],
        columns=["value", "n", "rate", "lo", "hi"],
    )  # fmt: skip


def step(c, rising=False):
    return Recorder(lambda v, s: (v >= c) if rising else (v < c))


def plateau(v, s):
    return True if v < 10 else False if v >= 40 else s % 2 == 0


SEEDS = [3 * i + 1 for i in range(1000)]  # every point plays a prefix of this list
WHOLE_COLUMNS = ["value", "n", "rate", "lo", "hi", "hits", "verdict"]  # Tuned.whole


def prefix(a, b):
    return SEEDS[a:b]


# The step at 20.3 on (0, 64), 10 seeds to start: both ends, then the midpoints 32 16 24 20 22 21
# (tol = 64 / 64 = 1 for a real parameter; two neighbouring integers for an integer one).
HALVING = [0, 64, 32, 16, 24, 20, 22, 21]


def test_a_step_is_found_by_halving_and_its_bracket_gets_the_rest_of_the_budget():
    r = step(20.3)
    progress = []
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=2000,
             bootstrap=50, response=r, progress=lambda g, b: progress.append((g, b)))  # fmt: skip
    # the ends and midpoints on the first 10 seeds; then 20 and 21 (the bracket) get the budget's
    # remaining 1920 games, 960 each: 970 seeds
    assert r.calls == [(float(v), prefix(0, 10)) for v in HALVING] + [
        (20.0, prefix(10, 970)), (21.0, prefix(10, 970))]  # fmt: skip
    assert progress == [(10 * i, 2000) for i in range(1, 9)] + [(1040, 2000), (2000, 2000)]
    assert t.games == 2000 and t.reachable and not t.integer and t.hits
    # the line through (20, 1) and (21, 0): rate = 21 - v, crossing 0.5 at 20.5 (the log-odds
    # line, symmetric, there too); every bootstrap resample keeps the two rates at 1 and 0, so
    # the interval is the point itself
    assert t.fit == (21.0, -1.0) and t.root == pytest.approx(20.5, abs=1e-12)
    assert t.value == t.root and t.root_ci == pytest.approx((20.5, 20.5), abs=1e-12)
    assert t.ci == t.root_ci  # a real parameter: the crossing's interval
    assert t.closest == (0.0, 1.0)  # every rate is 0 or 1: the first point played
    assert t.whole is None
    expect = _step_curve()
    pd.testing.assert_frame_equal(t.curve, expect, check_exact=False, rtol=1e-12, atol=1e-12)
    assert (
        t.summary() == "/x = 20.500 gives npc_win = 0.5 (95 % interval 20.500-20.500; 2000 games)"
    )
    assert repr(t) == f"Tuned({t.summary()})"


def test_a_rising_step_is_found_on_the_same_bracket():
    r = step(20.3, rising=True)
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=2000,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    assert [v for v, _ in r.calls] == [float(v) for v in HALVING] + [20.0, 21.0]
    assert t.fit == (-20.0, 1.0) and t.value == pytest.approx(20.5, abs=1e-12)


def test_an_integer_step_names_both_neighbours_and_that_neither_gives_the_target():
    r = step(20.3)
    t = tune(None, "/x", 0.5, bounds=(0, 64), seeds=SEEDS, start=10, budget=2000,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    assert t.integer and [v for v, _ in r.calls] == HALVING + [20, 21]
    assert all(type(v) is int for v, _ in r.calls)  # balance ints stay ints
    assert t.root == pytest.approx(20.5, abs=1e-12)
    assert t.root_ci == pytest.approx((20.5, 20.5), abs=1e-12)
    lo1, hi1 = wilson(970, 970)
    lo0, hi0 = wilson(0, 970)
    # both were decided on their first 10 games (10 of 10: 0.72-1, wholly above 0.48-0.52; 0
    # of 10 wholly below), so no game went to them before the fit's share
    expect = pd.DataFrame([(20.0, 970, 1.0, lo1, hi1, False, "off"),
                           (21.0, 970, 0.0, lo0, hi0, False, "off")],
                          columns=WHOLE_COLUMNS)  # fmt: skip
    pd.testing.assert_frame_equal(t.whole, expect, check_exact=False, rtol=1e-12, atol=1e-12)
    assert not t.hits and t.settled
    assert t.value == 20.0  # both rates are 0.5 from the target: the lower one
    assert t.ci == pytest.approx((lo1, hi1), abs=1e-12)  # the interval of 20's own rate
    assert t.summary() == (
        f"no whole value of /x gives npc_win = 0.5 ± 0.02: 20 gives 1.000 (95 % {lo1:.3f}-"
        f"{hi1:.3f}, 970 games); 21 gives 0.000 (95 % {lo0:.3f}-{hi0:.3f}, 970 games); nearest "
        "20 (crossing 20.500, 95 % interval 20.500-20.500; 2000 games)"
    )


def test_integer_is_the_default_for_int_bounds_only_and_rounds_the_bounds_inwards():
    r = step(20.3)
    t = tune(None, "/x", 0.5, bounds=(0.2, 64.9), integer=True, seeds=SEEDS, start=10,
             budget=400, bootstrap=5, response=r, progress=False)  # fmt: skip
    # bounds 1 and 64; midpoints (1 + 64) // 2 = 32, 16, 24, 20, 22, 21
    assert t.integer and [v for v, _ in r.calls][:8] == [1, 64, 32, 16, 24, 20, 22, 21]
    for bounds in ((0, 64.0), (0.0, 64), (True, 64)):
        r = step(20.3)
        t = tune(None, "/x", 0.5, bounds=bounds, seeds=SEEDS, start=10, budget=400,
                 bootstrap=5, response=r, progress=False)  # fmt: skip
        assert not t.integer and r.calls[2][0] == (float(bounds[0]) + 64) / 2, bounds
    r = step(20.3)
    t = tune(None, "/x", 0.5, bounds=(0, 64), integer=False, seeds=SEEDS, start=10,
             budget=400, bootstrap=5, response=r, progress=False)  # fmt: skip
    assert not t.integer and t.value == 20.5


def test_tol_stops_a_real_bisection_when_the_bracket_is_that_narrow():
    r = step(20.3)
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=400, tol=4,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    # 32, 16, 24, 20: the bracket (20, 24) is 4 wide, not wider than tol
    assert [v for v, _ in r.calls] == [0.0, 64.0, 32.0, 16.0, 24.0, 20.0, 20.0, 24.0]
    assert t.value == 22.0 and t.games == 400


def test_a_search_out_of_budget_fits_the_bracket_it_has():
    r = step(20.3)
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=50,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    # 20 games for the ends, 10 each for 32, 16 and 24 (the last fits exactly): none left
    assert [v for v, _ in r.calls] == [0.0, 64.0, 32.0, 16.0, 24.0]
    assert t.games == 50 and t.value == 20.0  # the line through (16, 1) and (24, 0)
    r = step(20.3)
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=55,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    # 5 left after 24: no midpoint; 16 and 24 get 5 // 2 = 2 more seeds each (12), one is unused
    assert r.calls[5:] == [(16.0, prefix(10, 12)), (24.0, prefix(10, 12))]
    assert t.games == 54


def test_a_midpoint_on_the_target_doubles_its_seeds_and_the_ends_until_the_list_is_used():
    r = Recorder(plateau)
    seeds = SEEDS[:80]
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=seeds, start=10, budget=10_000,
             bootstrap=30, response=r, progress=False)  # fmt: skip
    calls = [(0.0, prefix(0, 10)), (64.0, prefix(0, 10)), (32.0, prefix(0, 10))]
    for lo, hi in ((10, 20), (20, 40), (40, 80)):
        calls += [(v, prefix(lo, hi)) for v in (0.0, 32.0, 64.0)]
    assert r.calls == calls and t.games == 240
    # the line through (0, 1), (32, 0.5), (64, 0): slope -1/64, crossing 32
    assert t.fit == pytest.approx((1.0, -1 / 64), abs=1e-12) and t.root == pytest.approx(32.0)
    # the log-odds line, symmetric about 32, crosses there too: no curve term
    root, curve = crossing(0.5, [(0.0, 80, 80), (32.0, 40, 80), (64.0, 0, 80)])
    assert root == pytest.approx(32.0) and curve == pytest.approx(0.0, abs=1e-9)
    # each bootstrap resample weights the 80 seeds (Poisson, mean 1, the same weights for the
    # three points): 0 and 64 keep rates 1 and 0, 32 wins the weight of the even seeds; both
    # lines are refitted on those weighted counts
    assert t.root_ci == pytest.approx(widened(root, curve, plateau_roots(30)), abs=1e-9)
    assert t.ci == t.root_ci
    assert t.closest == (32.0, 0.5)


def plateau_roots(count):
    """The bootstrap's crossings for the plateau's three points on 80 seeds, by hand."""
    rng = np.random.default_rng(0)
    roots = []
    for _ in range(count):
        w = rng.poisson(1.0, 80).astype(float)
        total, even = w.sum(), w[1::2].sum()  # SEEDS[i] is even for odd i
        pts = [(0.0, total, total), (32.0, even, total), (64.0, 0.0, total)]
        roots.append(sum(lines(0.5, pts)) / 2)
    return roots


def test_seeds_double_only_while_the_budget_holds_three_more_blocks():
    r = Recorder(plateau)
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS[:80], start=10, budget=90,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    # after 30 games, 60 are left: exactly 3 x 20, so one doubling to 20; then 30 are left (not
    # 3 x 40): the bisection ends and the three points get 30 // 3 = 10 more seeds each
    calls = [(v, prefix(0, 10)) for v in (0.0, 64.0, 32.0)]
    calls += [(v, prefix(10, 20)) for v in (0.0, 32.0, 64.0)]
    calls += [(v, prefix(20, 30)) for v in (0.0, 32.0, 64.0)]
    assert r.calls == calls and t.games == 90


def test_an_integer_plateau_hits_with_both_neighbours_measured_to_the_precision():
    r = Recorder(plateau)
    t = tune(None, "/x", 0.5, bounds=(0, 64), seeds=SEEDS[:80], start=10, budget=10_000,
             bootstrap=5, response=r, progress=False, precision=0.15)  # fmt: skip
    # bisection as above, crossing at 32; its neighbours 32 (played) and 33 (played now on the
    # same 80 seeds, before the fit): both give 40 of 80, an interval inside 0.35-0.65
    assert r.calls[-1] == (33, prefix(0, 80)) and len(r.calls) == 13 and t.games == 320
    lo, hi = wilson(40, 80)
    assert 0.35 < lo and hi < 0.65
    expect = pd.DataFrame([(32.0, 80, 0.5, lo, hi, True, "hit"),
                           (33.0, 80, 0.5, lo, hi, True, "hit")],
                          columns=WHOLE_COLUMNS)  # fmt: skip
    pd.testing.assert_frame_equal(t.whole, expect, check_exact=False, rtol=1e-12, atol=1e-12)
    # a tie in rate: the lower value; its interval is its rate's
    assert t.hits and t.value == 32.0 and t.ci == pytest.approx((lo, hi), abs=1e-12)
    assert t.curve["value"].tolist() == [0.0, 32.0, 33.0, 64.0]  # 33 is in the curve too
    assert t.curve["n"].tolist() == [80, 80, 80, 80]
    # 33, inside the bracket, is one of the fit's points
    root, _ = crossing(0.5, [(0.0, 80, 80), (32.0, 40, 80), (33.0, 40, 80), (64.0, 0, 80)])
    assert t.root == pytest.approx(root, abs=1e-9)
    a, b = t.root_ci
    assert t.summary() == (
        f"/x = 32 gives npc_win = 0.5 ± 0.15: 32 gives 0.500 (95 % {lo:.3f}-{hi:.3f}, 80 games); "
        f"33 gives 0.500 (95 % {lo:.3f}-{hi:.3f}, 80 games) (crossing {t.root:.3f}, 95 % "
        f"interval {a:.3f}-{b:.3f}; 320 games)"
    )
    # at the default precision (+-0.02) 80 seeds cannot tell: both are unsure, and the answer
    # says the games were too few (the seed list was used up: no more games were possible)
    t = tune(None, "/x", 0.5, bounds=(0, 64), seeds=SEEDS[:80], start=10, budget=10_000,
             bootstrap=5, response=Recorder(plateau), progress=False)  # fmt: skip
    assert t.whole["verdict"].tolist() == ["unsure", "unsure"] and not t.hits
    assert not t.settled and t.value == 32.0 and t.games == 320
    assert t.summary().startswith(
        "too few games to tell whether a whole value of /x gives npc_win = 0.5 ± 0.02 (raise the "
        "budget or the seeds): 32 gives 0.500"
    )


def test_of_two_hitting_neighbours_the_value_is_the_one_whose_rate_is_nearest():
    # measured: 4 always wins, 5 on the even positions (0.5), 6 on two positions in five (0.4),
    # 7 never; 40 seeds each. The line through them crosses 0.42 at 5.68: neighbours 5 and 6,
    # both hold 0.42 in their intervals, and 6's rate is nearer.
    seeds = np.arange(40)
    s = tm._Search(lambda v, k: pytest.fail("nothing more is played"), seeds, 10_000, None)
    s.y = {4: np.ones(40, bool), 5: seeds % 2 == 0, 6: seeds % 5 < 2, 7: np.zeros(40, bool)}
    s.games = 160
    # a precision of 0.25: 5's interval (0.352-0.648) and 6's (0.263-0.554) lie in 0.17-0.67
    t = tm._result("/x", 0.42, "npc_win", s, True, (4, 7), True, pd, 20, 0.25)
    pts = [(4.0, 40, 40), (5.0, 20, 40), (6.0, 16, 40), (7.0, 0, 40)]
    assert t.root == pytest.approx(crossing(0.42, pts)[0]) and 5 < t.root < 6
    assert t.whole["value"].tolist() == [5.0, 6.0] and t.whole["hits"].tolist() == [True, True]
    assert t.hits and t.value == 6.0 and t.ci == pytest.approx(wilson(16, 40), abs=1e-12)
    assert t.closest == (6.0, 0.4) and t.games == 160
    # nearer 0.48: 5 (0.5) is nearer than 6 (0.4); both lie in 0.23-0.73
    t = tm._result("/x", 0.48, "npc_win", s, True, (4, 7), True, pd, 20, 0.25)
    assert t.whole["hits"].tolist() == [True, True] and t.value == 5.0


def test_neighbours_out_of_budget_are_unmeasured_and_the_nearer_one_is_named():
    # 9 of 10 seeds win below 20.3, none from it on; 50 games: ends, 32, 16, 24, and nothing left
    r = Recorder(lambda v, s: v < 20.3 and (SEEDS.index(s) % 10) < 9)
    t = tune(None, "/x", 0.5, bounds=(0, 64), seeds=SEEDS, start=10, budget=50,
             bootstrap=40, response=r, progress=False)  # fmt: skip
    assert [v for v, _ in r.calls] == [0, 64, 32, 16, 24] and t.games == 50
    # the rate line through (16, 0.9) and (24, 0) crosses at 16 + 8 * 0.4 / 0.9 = 19.56, the
    # log-odds line (log 9.5 / 1.5 and log 0.5 / 10.5) at 19.02: the crossing is 19.29; its
    # whole neighbours 19 and 20 could not be played: each is "no games, rate nan, interval 0-1"
    root, curve = crossing(0.5, [(16.0, 9, 10), (24.0, 0, 10)])
    assert lines(0.5, [(16.0, 9, 10), (24.0, 0, 10)])[0] == pytest.approx(16 + 8 * 0.4 / 0.9)
    assert t.root == pytest.approx(root) and 19.2 < root < 19.4
    assert t.whole["value"].tolist() == [19.0, 20.0] and t.whole["n"].tolist() == [0, 0]
    assert t.whole["rate"].isna().all() and not t.whole["hits"].any()
    assert t.whole["lo"].tolist() == [0.0, 0.0] and t.whole["hi"].tolist() == [1.0, 1.0]
    assert t.whole["verdict"].tolist() == ["unsure", "unsure"] and not t.settled
    assert t.value == 19.0 and not t.hits  # 19.29 is nearer 19 than 20
    assert t.ci == (0.0, 1.0)  # an unplayed value's rate: anything
    # the bootstrap: 16 wins the weight of its 9 winning seeds out of all 10, 24 none
    rng = np.random.default_rng(0)
    roots = []
    for _ in range(40):
        w = rng.poisson(1.0, 10).astype(float)
        if w.sum() > 0 and w[:9].sum() > 0:
            pts = [(16.0, w[:9].sum(), w.sum()), (24.0, 0.0, w.sum())]
            roots.append(sum(lines(0.5, pts)) / 2)
    assert t.root_ci == pytest.approx(widened(root, curve, roots), abs=1e-9)


def test_the_nearer_unmeasured_neighbour_below():
    # 10 of 10 win below 20.3: the line through (16, 1) and (24, 0) crosses at 20 exactly
    r = step(20.3)
    t = tune(None, "/x", 0.5, bounds=(0, 64), seeds=SEEDS, start=10, budget=50,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    assert t.root == 20.0 and t.whole["value"].tolist() == [20.0, 21.0]
    assert t.value == 20.0 and t.whole["n"].tolist() == [0, 0]


def test_an_unreachable_target_names_the_nearer_end():
    r = step(100.0)  # every game won at both ends: 1.0 is 0.5 from the target at both, the low
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=400,
             response=r, progress=False)  # fmt: skip
    assert [v for v, _ in r.calls] == [0.0, 64.0] and t.games == 20
    assert (t.reachable, t.value, t.closest) == (False, 0.0, (0.0, 1.0))
    assert math.isnan(t.root) and all(math.isnan(c) for c in t.ci)
    assert t.summary() == ("npc_win = 0.5 is not reachable for /x in the bounds: closest 0 gives "
                           "1.000 (20 games)")  # fmt: skip
    lo, hi = wilson(10, 10)
    row = f"<td>1.000</td><td>{lo:.3f}–{hi:.3f}</td></tr>"
    assert t._repr_html_() == (
        f"<b>Tuned</b>: {t.summary()}<table><tr><th>value</th><th>n</th><th>npc_win</th>"
        f"<th>95% CI</th></tr><tr><td>0</td><td>10</td>{row}<tr><td>64</td><td>10</td>{row}"
        "</table>"
    )
    # 9 of 10 win at 2, 7 of 10 at 9: both above 0.3, 9 is nearer
    r = Recorder(lambda v, s: SEEDS.index(s) % 10 < (9 if v < 5 else 7))
    t = tune(None, "/x", 0.3, bounds=(2, 9), seeds=SEEDS, start=10, budget=400, response=r,
             progress=False, metric="monster_win")  # fmt: skip
    assert (t.reachable, t.value, t.closest) == (False, 9.0, (9.0, 0.7))
    assert t.summary().startswith("monster_win = 0.3 is not reachable for /x")
    # the same rates below the target are just as unreachable
    r = Recorder(lambda v, s: SEEDS.index(s) % 10 < (1 if v < 5 else 0))
    t = tune(None, "/x", 0.7, bounds=(2, 9), seeds=SEEDS, start=10, budget=400, response=r,
             progress=False)  # fmt: skip
    assert (t.reachable, t.value, t.closest) == (False, 2.0, (2.0, 0.1))


def test_ends_on_the_target_are_reachable_and_a_flat_line_has_no_crossing():
    # every point wins exactly the even seeds: both ends hold the target, so it is reachable;
    # the midpoint never leaves it, and the flat line through the three points crosses nowhere
    r = Recorder(lambda v, s: s % 2 == 0)
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=list(range(40)), start=10,
             budget=1000, bootstrap=5, response=r, progress=False)  # fmt: skip
    assert t.reachable and t.games == 120 and t.fit == (0.5, 0.0)
    assert all(math.isnan(v) for v in (t.value, t.root, *t.ci, *t.root_ci))
    # one end on the target, the other below it: reachable too
    r = Recorder(lambda v, s: v < 1 and s % 2 == 0)
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=list(range(100)), start=10,
             budget=400, bootstrap=5, response=r, progress=False)  # fmt: skip
    assert t.reachable


def test_tune_argument_errors():
    r = step(20.3)
    ok = dict(bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=400, response=r, progress=False)

    def msg(*, target=0.5, **kw):
        with pytest.raises(ArgumentError) as info:
            tune(None, "/x", target, **{**ok, **kw})
        return str(info.value)

    known = "['monster_win', 'mutual_death', 'npc_win', 'step_limit']"
    rate = "target: must be a rate strictly between 0 and 1"
    assert msg(metric="draws") == f"metric: unknown metric, known: {known} (got 'draws')"
    assert msg(target=0) == f"{rate} (got 0)" and msg(target=1.0) == f"{rate} (got 1.0)"
    assert msg(target="0.5") == f"{rate} (got '0.5')"
    assert msg(bounds=5) == "bounds: must be (low, high) (got 5)"
    assert msg(bounds=("a", 2)) == "bounds: must be (low, high) (got ('a', 2))"
    assert msg(bounds=(1, 2, 3)) == "bounds: must be (low, high) (got (1, 2, 3))"
    for b in ((5, 2), (3.0, 3.0), (0, math.inf), (-math.inf, 1), (math.nan, 1)):
        assert msg(bounds=b) == f"bounds: needs finite low < high (got {b!r})"
    assert msg(start=9) == "start: must be between 10 and 1000000 (got 9)"
    assert msg(start=1_000_001, budget=10**7) == (
        "start: must be between 10 and 1000000 (got 1000001)")  # fmt: skip
    assert msg(budget=0) == "budget: must be between 1 and 100000000 (got 0)"
    assert msg(budget=100_000_001) == "budget: must be between 1 and 100000000 (got 100000001)"
    assert msg(budget=19) == ("budget: must be at least 2 × start = 20 games (both ends are "
                              "played first) (got 19)")  # fmt: skip
    assert msg(bootstrap=0) == "bootstrap: must be between 1 and 100000 (got 0)"
    assert msg(bootstrap=100_001) == "bootstrap: must be between 1 and 100000 (got 100001)"
    for tol in (True, "1", math.nan, math.inf, 0, -1.0):
        assert msg(tol=tol) == f"tol: must be a finite number > 0 (or None) (got {tol!r})"
    for p in (0, 0.5, -0.1, True, "0.02", math.nan):
        assert msg(precision=p) == (
            f"precision: must be a number strictly between 0 and 0.5 (got {p!r})")  # fmt: skip
    assert msg(seeds=range(9)) == "seeds: needs at least 10 distinct seeds (got 9)"
    assert msg(seeds=[1] * 12) == "seeds: needs at least 10 distinct seeds (got 12)"
    assert msg(seeds=range(1_000_001)) == "seeds: more than 1000000 seeds"
    assert r.calls == []  # nothing was played
    # the edges that are allowed
    for kw in (dict(budget=20), dict(seeds=range(10)), dict(start=10, tol=0.5),
               dict(seeds=range(1_000_000), budget=20), dict(target=0.01),
               dict(bootstrap=1), dict(precision=0.001), dict(precision=0.499)):  # fmt: skip
        tune(None, "/x", kw.pop("target", 0.5), **{**ok, **kw})


def test_a_response_must_answer_once_per_seed():
    with pytest.raises(ArgumentError) as info:
        tune(None, "/x", 0.5, bounds=(0.0, 1.0), start=10, response=lambda v, s: [1, 0, 1],
             progress=False)  # fmt: skip
    assert str(info.value) == "response: must return one 0/1 outcome per seed (got (3,))"


@pytest.mark.parametrize("answer, bad", [(0.7, 0.7), (2, 2), (math.nan, math.nan), (-1, -1)])
def test_a_response_must_answer_0_or_1_never_a_rate_read_as_a_win(answer, bad):
    with pytest.raises(ArgumentError) as info:
        tune(None, "/x", 0.5, bounds=(0.0, 1.0), start=10, progress=False,
             response=lambda v, s: [1] * (len(s) - 1) + [answer])  # fmt: skip
    assert str(info.value).startswith("response: must return 0/1 outcomes, one per seed (value 0)")
    got = info.value.value
    assert got == bad or (math.isnan(bad) and math.isnan(got))


def test_a_response_may_answer_in_bools_ints_or_floats_of_0_and_1():
    for kind in (bool, int, float):

        def answer(v, s, kind=kind):
            return np.array([v < 20.3] * len(s)).astype(kind)

        t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=400,
                 bootstrap=5, progress=False, response=answer)  # fmt: skip
        assert t.reachable and 20 <= t.value <= 21


def test_a_rising_response_whose_ends_tie_at_first_is_bracketed_on_its_crossing():
    # the falling test above turned over: on the first 10 seeds 5 always win and 5 never do
    # (both ends 5 of 10, a tie read as falling), every later seed wins from 32.7 on. With 20
    # seeds the ends tell (5 of 20 at 0, 15 of 20 at 64) and the midpoint 32 gives 5 of 20,
    # below the target, so for a rising response the crossing lies above 32: (32, 33).
    r = Recorder(lambda v, s: SEEDS.index(s) < 5 or (SEEDS.index(s) >= 10 and v >= 32.7))
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=400,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    assert t.reachable and 32 <= t.value <= 33
    assert [v for v, _ in r.calls][-2:] == [32.0, 33.0]


def test_the_resamples_are_fitted_as_the_data_are():
    # the bootstrap fits every resample at once; each row must give what _fit and _roots give
    # for its weights (a point on n seeds takes the first n weights; no weight, no point)
    y = {1.0: np.array([1, 1, 0, 0, 1, 0]), 2.0: np.array([1, 0, 0, 1]), 3.0: np.array([0, 0])}
    w = np.array([[1.0, 2, 0, 1, 3, 1], [0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1],
                  [0, 0, 0, 0, 2, 1], [0, 0, 0, 0, 0, 0]])  # fmt: skip
    rate, odds = tm._resampled_roots([1.0, 2.0, 3.0], y, 0.4, w)
    for row, r, o in zip(w, rate, odds):
        want = tm._roots([1.0, 2.0, 3.0], y, 0.4, row)
        assert (r, o) == pytest.approx(want, abs=1e-12, nan_ok=True)
    assert math.isnan(rate[3]) and math.isnan(rate[4])  # one point or none with weight


def test_the_fit_skips_points_without_weight_and_needs_two():
    y = {1.0: np.array([1, 1, 0, 0]), 3.0: np.array([0, 0, 0, 0]), 5.0: np.array([1, 1, 1, 1])}
    # weights 1, 1, 0, 0: 1.0 has rate 1, 3.0 rate 0, 5.0 rate 1 -- all with weight 2
    icpt, slope = tm._fit([1.0, 3.0], y, np.array([1.0, 1.0, 0.0, 0.0]))
    assert (icpt, slope) == (1.5, -0.5)
    # unweighted: rates 0.5 and 0 at 1 and 3 with 4 games each
    assert tm._fit([1.0, 3.0], y, None) == (0.75, -0.25)
    # weighted by games: 1.0 (rate 0.5, 4 games) and 5.0 (1.0, 4 games) -> slope 0.125
    assert tm._fit([1.0, 5.0], y, None) == (0.375, 0.125)
    assert all(math.isnan(v) for v in tm._fit([1.0], y, None))
    zero = np.zeros(4)
    assert all(math.isnan(v) for v in tm._fit([1.0, 3.0], y, zero))
    short = {1.0: np.array([1, 1]), 3.0: np.array([0, 0, 0, 0])}
    # the weights of the first seeds: 1.0 played 2 seeds (weights 0, 0), so it drops out
    assert all(math.isnan(v) for v in tm._fit([1.0, 3.0], short, np.array([0.0, 0, 1, 1])))


def test_progress_true_is_a_bar_over_the_budget(monkeypatch):
    import tqdm.auto

    bars = []

    class Bar:
        def __init__(self, total, desc, unit):
            self.n, self.log, self.closed = 0, [(total, desc, unit)], False
            bars.append(self)

        def update(self, k):
            self.n += k
            self.log.append(k)

        def close(self):
            self.closed = True

    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=400, bootstrap=5,
         response=step(20.3))  # fmt: skip
    (bar,) = bars
    assert bar.log == [(400, "tune", "game")] + [10] * 8 + [(400 - 80) // 2] * 2
    assert bar.n == 400 and bar.closed
    bars.clear()
    with pytest.raises(ArgumentError):  # closed when the search fails too
        tune(None, "/x", 0.5, bounds=(0.0, 1.0), start=10, response=lambda v, s: [1])
    assert bars[0].closed


def test_the_default_response_plays_on_one_pool_it_then_shuts_down(monkeypatch):
    import labkit.encounter.sim.batch as batch

    made, used = [], []

    class Pool:
        def __init__(self):
            self.down = False
            made.append(self)

        def shutdown(self):
            self.down = True

    def fake_play_response(base, parameter, metric, *, executor):
        used.append((base, parameter, metric, executor))
        return step(20.3)

    monkeypatch.setattr(batch, "local_executor", Pool)
    monkeypatch.setattr(tm, "play_response", fake_play_response)
    tune("BASE", "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=100,
         bootstrap=5, progress=False, metric="step_limit")  # fmt: skip
    (pool,) = made
    assert used == [("BASE", "/x", "step_limit", pool)] and pool.down
    mine = Pool()
    tune("BASE", "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=100,
         bootstrap=5, progress=False, executor=mine)  # fmt: skip
    assert used[-1] == ("BASE", "/x", "npc_win", mine) and not mine.down and len(made) == 2


def test_play_response_plays_the_seeds_in_order_and_reads_the_metric(monkeypatch):
    import labkit.encounter.sim.engine as engine
    from labkit.encounter.sim.settings import SimulationSettings

    calls = []
    winners = {7: "npc", 3: "monster", 9: "", 4: "npc"}
    reasons = {7: "victory", 3: "victory", 9: "step_limit", 4: "mutual_death"}

    def fake(docs, jobs, on_chunk, *, executor, progress, mode):
        calls.append((docs, jobs, executor, progress, mode))
        rows = [(i, winners[s], reasons[s], 0, 0, 0, (), ()) for i, _, s, _ in jobs]
        on_chunk(jobs[2:], rows[2:])  # chunks come back in any order
        on_chunk(jobs[:2], rows[:2][::-1])

    monkeypatch.setattr(engine, "play_jobs", fake)
    base = SimulationSettings(npcs=2)
    seeds = np.array([7, 3, 9, 4])
    life = "/characters/monster/life"
    r = play_response(base, life, executor="pool", mode="full")
    assert r(6, seeds).tolist() == [True, False, False, True]
    ((docs, jobs, executor, progress, mode),) = calls
    assert docs == [base.replace(balance={life: 6}).to_dict()]
    assert jobs == [(0, 0, 7, 7), (1, 0, 3, 3), (2, 0, 9, 9), (3, 0, 4, 4)]
    assert (executor, progress, mode) == ("pool", False, "full")
    assert play_response(base, life, "monster_win")(6, seeds).tolist() == [
        False,
        True,
        False,
        False,
    ]
    assert play_response(base, life, "step_limit")(6, seeds).tolist() == [False, False, True, False]
    assert calls[-1][4] == "outcome"
    marker = object()
    play_response(base, life, progress=marker)(6, seeds)
    assert calls[-1][3] is marker
    with pytest.raises(ArgumentError, match=r"grid\['/characters/monster/lives'\]: bad value"):
        play_response(base, "/characters/monster/lives")(3, seeds)
    with pytest.raises(ArgumentError, match=r"grid\['npcs'\]: bad value"):
        play_response(base, "npcs")(0, seeds)


def test_tuned_plot_draws_on_the_axes_it_is_given():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=100,
             bootstrap=5, response=step(20.3), progress=False)  # fmt: skip
    fig, ax = plt.subplots()
    art = t.plot(ax, target_colour="black")
    assert art["ax"] is ax and art["target"].get_color() == "black"
    plt.close(fig)


@pytest.mark.parametrize("precision, label", [
    (0.15, "chosen 32"), (0.02, "nearest so far 32 (too few games to tell)")])  # fmt: skip
def test_tuned_plot_labels_the_value_by_its_verdict(precision, label):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # the integer plateau: both neighbours give 40 of 80, inside 0.35-0.65 but not 0.48-0.52
    # (and its ends win 80 of 80 and 0 of 80: Wilson ends a rounding error off the rate)
    t = tune(None, "/x", 0.5, bounds=(0, 64), seeds=SEEDS[:80], start=10, budget=10_000,
             bootstrap=5, response=Recorder(plateau), progress=False,
             precision=precision)  # fmt: skip
    fig, ax = plt.subplots()
    assert t.plot(ax)["value"].get_label() == label
    plt.close(fig)
    t = tune(None, "/x", 0.5, bounds=(0, 64), seeds=SEEDS, start=10, budget=2000,
             bootstrap=5, response=step(20.3), progress=False)  # fmt: skip
    fig, ax = plt.subplots()
    assert t.plot(ax)["value"].get_label() == "nearest 20 (no whole value hits)"
    plt.close(fig)


def test_tuned_defaults():
    t = Tuned("p", 0.5, "npc_win", 1.0, (0.0, 2.0), 1.0, True, (1.0, 0.5), None, 10, False)
    assert all(math.isnan(v) for v in (*t.fit, *t.root_ci))
    assert t.whole is None and t.hits is True and t.precision == 0.02 and t.settled


def lib_wilson(k, n):
    """The library's own interval (the one tune compares the target with), as Python floats."""
    from labkit.encounter.rules.combat import wilson_interval

    lo, hi = wilson_interval(k, n)
    assert (float(lo), float(hi)) == pytest.approx(wilson(k, n), abs=1e-12)
    return float(lo), float(hi)


@pytest.mark.parametrize("edge", [0, 1])
def test_a_target_on_the_edge_of_an_interval_is_held_by_it(edge):
    # every point wins exactly the even seeds (SEEDS[i] is even for odd i): 5 of the first 10.
    # A target on the lower or upper end of that interval lies in it (the interval is closed),
    # so neither end is beyond it: reachable, and the midpoint holding it doubles the seeds.
    target = lib_wilson(5, 10)[edge]
    r = Recorder(lambda v, s: s % 2 == 0)
    t = tune(None, "/x", target, bounds=(0.0, 64.0), seeds=SEEDS[:40], start=10, budget=400,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    assert t.reachable
    assert r.calls[:4] == [(0.0, prefix(0, 10)), (64.0, prefix(0, 10)), (32.0, prefix(0, 10)),
                           (0.0, prefix(10, 20))]  # fmt: skip


def test_a_whole_value_hits_when_its_interval_touches_the_band_and_not_beyond():
    # the band target +- precision is closed: an interval ending on its edge lies inside it.
    # 20 of 40 gives 0.352-0.648; with the precision 0.25 (exact in binary) the band's lower
    # edge sits on the interval's lower end for the target lo + 0.25, its upper edge on the
    # interval's upper end for the target hi - 0.25
    y = np.arange(40) % 2 == 0
    lo, hi = lib_wilson(20, 40)
    for target in (lo + 0.25, hi - 0.25):
        assert (target - 0.25, target + 0.25) in ((lo, lo + 0.5), (hi - 0.5, hi))
        assert tm._verdict(y, target, 0.25) == "hit"
    # the band moved a hair so the interval pokes out of it: unsure (it straddles the edge);
    # wholly outside the band: off; nothing played: unsure
    assert tm._verdict(y, lo + 0.25 + 1e-9, 0.25) == "unsure"
    assert tm._verdict(y, hi - 0.25 - 1e-9, 0.25) == "unsure"
    assert tm._verdict(y, hi + 0.02 + 1e-9, 0.02) == "off"
    assert tm._verdict(y, lo - 0.02 - 1e-9, 0.02) == "off"
    assert tm._verdict(y, hi + 0.02, 0.02) == "unsure"  # the edge touches: not off
    assert tm._verdict(y[:0], 0.5, 0.4) == "unsure"


def test_the_defaults_are_a_budget_of_20000_games_and_400_resamples():
    # the signature's defaults: progress(games, budget) is told the budget
    progress = []
    tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, response=step(100.0),
         progress=lambda g, b: progress.append((g, b)))  # fmt: skip
    assert progress == [(10, 20_000), (20, 20_000)]
    # the plateau of the test above (crossing 32 on 80 seeds), its interval from 400 resamples
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS[:80], start=10, budget=10_000,
             response=Recorder(plateau), progress=False)  # fmt: skip
    root, curve = crossing(0.5, [(0.0, 80, 80), (32.0, 40, 80), (64.0, 0, 80)])
    assert t.root_ci == pytest.approx(widened(root, curve, plateau_roots(400)), abs=1e-9)


def test_an_overlong_seed_iterable_is_refused_after_one_seed_past_the_limit():
    # the list may be endless: it is read one seed past MAX_SEEDS, not to its end
    from labkit.encounter.sim.sweep import MAX_SEEDS

    pulled = []

    def seeds():
        for i in range(MAX_SEEDS + 10):
            pulled.append(i)
            yield i

    with pytest.raises(ArgumentError, match=f"seeds: more than {MAX_SEEDS} seeds"):
        tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=seeds(), start=10, budget=400,
             response=step(20.3), progress=False)  # fmt: skip
    assert len(pulled) == MAX_SEEDS + 1


def test_the_response_gets_the_seeds_as_int64_whatever_integer_type_they_came_in():
    # seeds from a generator of small unsigned ints: the response sees int64, so its own
    # arithmetic on them does not wrap around
    seen = []

    def response(v, seeds):
        seen.append(seeds.dtype)
        return (seeds * 1000) % 7 < 3 + (v < 1)  # 250 * 1000 wraps in uint8

    seeds = np.arange(200, 250, dtype=np.uint8)
    t = tune(None, "/x", 0.5, bounds=(0.0, 2.0), seeds=seeds, start=10, budget=40, bootstrap=5,
             response=response, progress=False)  # fmt: skip
    assert seen and all(d == np.int64 for d in seen)
    n = t.curve["n"].iloc[0]  # the low end, on the first n seeds
    assert t.curve["rate"].iloc[0] == np.mean((np.arange(200, 200 + n) * 1000) % 7 < 4)


def test_the_default_tol_is_a_64th_of_the_range_wherever_the_range_lies():
    # the step at 84.3 on (64, 128): tol 1, the same halving as on (0, 64) shifted by 64
    r = step(84.3)
    tune(None, "/x", 0.5, bounds=(64.0, 128.0), seeds=SEEDS, start=10, budget=400,
         bootstrap=5, response=r, progress=False)  # fmt: skip
    assert [v for v, _ in r.calls][:8] == [64.0 + v for v in HALVING]
    r = step(-43.7)  # and on (-64, 0)
    tune(None, "/x", 0.5, bounds=(-64.0, 0.0), seeds=SEEDS, start=10, budget=400,
         bootstrap=5, response=r, progress=False)  # fmt: skip
    assert [v for v, _ in r.calls][:8] == [v - 64.0 for v in HALVING]


def test_a_real_parameter_plays_its_bounds_as_given():
    r = step(20.3)
    t = tune(None, "/x", 0.5, bounds=(0.5, 64.5), seeds=SEEDS, start=10, budget=400,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    assert [v for v, _ in r.calls][:3] == [0.5, 64.5, 32.5]
    assert all(type(v) is float for v, _ in r.calls) and not t.integer


@pytest.mark.parametrize("c, whole", [(0.3, [0.0, 1.0]), (63.3, [63.0, 64.0])])
def test_an_integer_crossing_next_to_a_bound_has_its_neighbours_around_it(c, whole):
    # a step next to either end of (0, 64): the bracket is (0, 1) or (63, 64), the crossing 0.5
    # or 63.5 and its two whole neighbours the bracket's ends
    t = tune(None, "/x", 0.5, bounds=(0, 64), seeds=SEEDS, start=10, budget=400,
             bootstrap=5, response=step(c), progress=False)  # fmt: skip
    assert t.root == whole[0] + 0.5 and t.whole["value"].tolist() == whole


@pytest.mark.parametrize("rates, whole", [((0.9, 0.5), [6.0, 7.0]), ((0.3, 0.1), [4.0, 5.0])])
def test_a_crossing_beyond_the_points_played_names_the_whole_values_at_that_end(rates, whole):
    # 4 and 7 win these shares of 40 seeds: the line through them crosses 0.42 beyond 7 (at
    # 7 + 0.08 / (0.4 / 3) = 7.6) or below 4 (at 4 - 0.12 / (0.2 / 3) = 2.2); the neighbours are
    # the whole values at that end of the range, and nothing outside it is played
    seeds = np.arange(40)
    r = Recorder(lambda v, s: s % 2 == 0)
    s = tm._Search(r, seeds, 10_000, None)
    s.y = {4: seeds < 40 * rates[0], 7: seeds < 40 * rates[1]}
    s.games = 80
    t = tm._result("/x", 0.42, "npc_win", s, True, (4, 7), True, pd, 5)
    pts = [(4.0, 40 * rates[0], 40), (7.0, 40 * rates[1], 40)]
    # the rate line's root (7.6 or 2.2) averaged with the log-odds line's (7.46 or 2.82)
    assert lines(0.42, pts)[0] == pytest.approx(7.6 if rates[1] > 0.42 else 2.2)
    assert t.root == pytest.approx(crossing(0.42, pts)[0])
    assert (t.root > 7) if rates[1] > 0.42 else (t.root < 4)
    assert t.whole["value"].tolist() == whole
    assert r.calls and all(4 <= v <= 7 for v, _ in r.calls)


def test_an_integer_search_without_a_crossing_has_a_one_line_answer_too():
    # the flat line of the test above on whole numbers: no crossing, so no whole neighbours; the
    # summary (and repr) says what a real parameter's does instead of failing on them
    r = Recorder(lambda v, s: s % 2 == 0)
    t = tune(None, "/x", 0.5, bounds=(0, 64), seeds=list(range(40)), start=10, budget=1000,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    assert t.integer and t.reachable and t.whole is None and math.isnan(t.root)
    assert t.summary() == "/x = nan gives npc_win = 0.5 (95 % interval nan-nan; 120 games)"
    assert repr(t) == f"Tuned({t.summary()})" and t.summary() in t._repr_html_()


def test_an_unreachable_target_still_says_whether_the_parameter_is_whole():
    for bounds, whole in (((0.0, 64.0), False), ((0, 64), True)):
        t = tune(None, "/x", 0.5, bounds=bounds, seeds=SEEDS, start=10, budget=400,
                 response=step(100.0), progress=False)  # fmt: skip
        assert not t.reachable and t.integer is whole


def test_a_falling_response_whose_ends_tie_at_first_is_bracketed_on_its_crossing():
    # the shape the module names (more monster life, fewer NPC wins): on the first 10 seeds 5
    # always win and 5 never do, so both ends give 5 of 10 (a tie, both holding 0.5); every
    # later seed wins below 32.7. With 20 seeds the midpoint 32 gives 15 of 20, above the
    # target, so the crossing lies above it: the bisection closes on (32, 33).
    r = Recorder(lambda v, s: SEEDS.index(s) < 5 or (SEEDS.index(s) >= 10 and v < 32.7))
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=400,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    assert t.reachable and 32 <= t.value <= 33
    assert [v for v, _ in r.calls][-2:] == [32.0, 33.0]  # the bracket gets the rest


def test_an_integer_answer_keeps_the_fit_and_the_whole_curve():
    # the integer step of the test above: the same line and the same curve as the real one
    t = tune(None, "/x", 0.5, bounds=(0, 64), seeds=SEEDS, start=10, budget=2000,
             bootstrap=5, response=step(20.3), progress=False)  # fmt: skip
    assert t.fit == (21.0, -1.0)
    expect = _step_curve()
    pd.testing.assert_frame_equal(t.curve, expect, check_exact=False, check_dtype=False,
                                  rtol=1e-12, atol=1e-12)  # fmt: skip


def test_a_value_never_sits_outside_its_own_interval():
    # one resample: its root is the whole bootstrap interval, which then misses the fitted
    # root (16, 9 of 10 wins; 24, none: crossing 16 + 8 * 0.4 / 0.9); the interval is widened
    r = Recorder(lambda v, s: v < 20.3 and (SEEDS.index(s) % 10) < 9)
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=50,
             bootstrap=1, response=r, progress=False)  # fmt: skip
    w = np.random.default_rng(0).poisson(1.0, 10).astype(float)
    one = sum(lines(0.5, [(16.0, w[:9].sum(), w.sum()), (24.0, 0.0, w.sum())])) / 2
    root, curve = crossing(0.5, [(16.0, 9, 10), (24.0, 0, 10)])
    assert t.value == pytest.approx(root) and one != pytest.approx(root)
    # the side the lone resample leaves empty is the curve's term alone; the other side is
    # the resample's distance plus it
    far = abs(one - root) + curve
    expect = (root - far, root + curve) if one < root else (root - curve, root + far)
    assert t.root_ci == pytest.approx(expect) and t.ci == t.root_ci
    assert t.ci[0] <= t.value <= t.ci[1]


def test_the_fit_weighs_each_point_by_its_games():
    # three points with 4, 2 and 1 games: weighted least squares (weights = games), as numpy's
    # polyfit gives it with residual weights sqrt(games)
    y = {0.0: np.array([1, 1, 1, 0]), 1.0: np.array([1, 0]), 3.0: np.array([0])}
    x, r, n = np.array([0.0, 1.0, 3.0]), np.array([0.75, 0.5, 0.0]), np.array([4.0, 2.0, 1.0])
    slope, icpt = np.polyfit(x, r, 1, w=np.sqrt(n))
    assert tm._fit([0.0, 1.0, 3.0], y, None) == pytest.approx((icpt, slope), abs=1e-12)
    # a point weighing 1 in all counts: (1, 1) and (3, 0) under weights 1, 0
    y = {1.0: np.array([1, 0]), 3.0: np.array([0, 0])}
    assert tm._fit([1.0, 3.0], y, np.array([1.0, 0.0])) == (1.5, -0.5)


def test_a_start_above_the_seed_list_plays_the_whole_list():
    r = step(20.3)
    t = tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS[:12], start=20, budget=400,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    assert r.calls[:3] == [(0.0, prefix(0, 12)), (64.0, prefix(0, 12)), (32.0, prefix(0, 12))]
    assert t.curve["n"].max() == 12


def test_a_crossing_halfway_between_unplayed_neighbours_names_the_lower():
    # 16 wins all 10 games, 25 none, no budget left: both lines are symmetric about 20.5 and
    # cross 0.5 there, halfway between 20 and 21; a tie goes to the lower value, as it does
    # between two measured rates equally far from the target
    s = tm._Search(lambda v, k: pytest.fail("nothing more is played"), np.arange(10), 20, None)
    s.y = {16: np.ones(10, bool), 25: np.zeros(10, bool)}
    s.games = 20
    t = tm._result("/x", 0.5, "npc_win", s, True, (16, 25), True, pd, 5)
    assert t.root == 20.5 and t.whole["n"].tolist() == [0, 0] and t.value == 20.0


def test_a_neighbour_played_on_one_game_is_measured():
    # one game left for the neighbours of the crossing 17.89 (the rate line through (16, 1) and
    # (24, 0) crosses 0.8 at 17.6, the log-odds line at 18.18): 17 plays it and loses (interval
    # 0-0.79: unsure), 18 is unplayed. Only when neither was played is the value chosen by the
    # crossing's position (18).
    seeds = np.arange(10)
    r = Recorder(lambda v, s: False)
    s = tm._Search(r, seeds, 21, None)
    s.y = {16: np.ones(10, bool), 24: np.zeros(10, bool)}
    s.games = 20
    t = tm._result("/x", 0.8, "npc_win", s, True, (16, 24), True, pd, 5)
    assert t.root == pytest.approx(crossing(0.8, [(16.0, 10, 10), (24.0, 0, 10)])[0])
    assert 17.5 < t.root < 18 and r.calls == [(17, [0])]
    assert t.whole["n"].tolist() == [1, 0] and not t.hits and t.value == 17.0
    assert t.ci == pytest.approx(wilson(0, 1)) and not t.settled


def test_a_point_without_weight_drops_out_and_the_points_after_it_still_count():
    short = {1.0: np.array([1, 1]), 3.0: np.array([0, 0, 0, 0]), 5.0: np.array([1, 1, 1, 1])}
    # 1.0 played 2 seeds, both weighted 0: the line runs through 3.0 (rate 0) and 5.0 (rate 1)
    assert tm._fit([1.0, 3.0, 5.0], short, np.array([0.0, 0, 1, 1])) == (-1.5, 0.5)


def test_ends_that_tie_are_read_as_falling_until_their_seeds_tell_them_apart():
    # both ends win 5 of their first 10 seeds (a tie, both holding 0.5); every point inside
    # wins every game, so the midpoint 32 lies above the target at once (no doubling). Read as
    # falling, the crossing lies above 32: the next midpoint is 48, then 56 (not 16, 8).
    r = Recorder(lambda v, s: 0 < v < 64 or SEEDS.index(s) < 5)
    tune(None, "/x", 0.5, bounds=(0.0, 64.0), seeds=SEEDS, start=10, budget=400, bootstrap=5,
         response=r, progress=False)  # fmt: skip
    assert [v for v, _ in r.calls][:5] == [0.0, 64.0, 32.0, 48.0, 56.0]


@pytest.mark.parametrize("bounds", [(0.0, 64.0), (0, 64)])
def test_a_flat_line_off_the_target_crosses_it_nowhere(bounds):
    # every point wins the even seeds: rate 0.5 everywhere, and 0.45 lies inside each point's
    # interval (reachable), but the flat line through them never reaches 0.45
    r = Recorder(lambda v, s: s % 2 == 0)
    t = tune(None, "/x", 0.45, bounds=bounds, seeds=list(range(40)), start=10, budget=1000,
             bootstrap=5, response=r, progress=False)  # fmt: skip
    assert t.reachable and t.fit == (0.5, 0.0)
    assert all(math.isnan(v) for v in (t.value, t.root, *t.ci, *t.root_ci))


def test_resamples_whose_line_is_flat_or_undefined_give_no_root(monkeypatch):
    # the first pair of roots is the data's own (5 by both lines); of four resamples one has
    # no rate line (too few points with weight: nan) and one a flat log-odds line (nan): the
    # interval is the percentiles of the other two crossings, 5 and 4, alone (widened to hold
    # the root 5, the curve's term being 0)
    monkeypatch.setattr(tm, "_roots", lambda points, y, target, w: (5.0, 5.0))
    nan = math.nan
    resamples = (np.array([nan, 4.0, 5.0, 4.0]), np.array([4.0, nan, 5.0, 4.0]))
    monkeypatch.setattr(tm, "_resampled_roots", lambda points, y, target, w: resamples)
    s = tm._Search(lambda v, k: pytest.fail("nothing more is played"), np.arange(10), 100, None)
    s.y = {0.0: np.zeros(10, bool), 10.0: np.ones(10, bool)}
    t = tm._result("/x", 0.5, "npc_win", s, False, (0.0, 10.0), True, pd, 4)
    assert t.root == 5.0
    assert t.root_ci == pytest.approx((np.percentile([5.0, 4.0], 2.5), 5.0))
