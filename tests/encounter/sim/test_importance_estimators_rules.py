"""The estimators of importance (sim/importance_estimators.py), rule by rule and exactly: the
Morris trajectories and their elementary effects against a plain-Python reference, the Sobol'
design's matrices built from scipy's own sequence, the bootstrap replayed draw by draw, the
tiers, the intervals and the checks of the design's sizes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.encounter.sim import importance_estimators as est
from labkit.encounter.sim.knobs import Knob

A = Knob("a", 0.0, 10.0, False)
B = Knob("b", -1.0, 1.0, False)
W = Knob("w", 0, 2, True)  # whole: three values, so a small step may leave it where it was


def _said(call, *args):
    with pytest.raises(ArgumentError) as err:
        call(*args)
    return str(err.value)


# -- the design's sizes -------------------------------------------------------------------------


def test_the_sizes_are_checked_with_one_exact_line_each():
    power = "n: must be a power of two >= 8 (got {!r})"
    for bad in (4, 12, 24, 16.0, True):
        assert _said(est.check_design, "sobol", bad, 0, 0) == power.format(bad)
    est.check_design("sobol", 8, 0, 0)  # the smallest allowed
    even = "levels: must be an even integer >= 2 (got {!r})"
    for bad in (0, 3, 4.0, True):
        assert _said(est.check_design, "morris", 0, 4, bad) == even.format(bad)
    trajectories = "trajectories: must be an integer >= 4 (got {!r})"
    for bad in (3, 5.0, True):
        assert _said(est.check_design, "morris", 0, bad, 4) == trajectories.format(bad)
    est.check_design("morris", 0, 4, 2)  # the smallest allowed


# -- Morris -------------------------------------------------------------------------------------


def _paths(points, d):
    """Split the evaluated points into trajectories of d + 2 (x, block) pairs."""
    assert len(points) % (d + 2) == 0
    return [points[i : i + d + 2] for i in range(0, len(points), d + 2)]


def _effects(paths, knobs, f):
    """Elementary effects in plain Python: per trajectory, each step's change over the knob's
    change as a share of its range; the seed block's step (the block moves) is its change."""
    d = len(knobs)
    ee = np.full((len(paths), d + 1), np.nan)
    for t, path in enumerate(paths):
        for step in range(d + 1):
            (x0, b0), (x1, b1) = path[step], path[step + 1]
            diff = f(*path[step + 1]) - f(*path[step])
            if b1 != b0:
                ee[t, d] = diff
                continue
            (i,) = np.flatnonzero(x0 != x1)
            v0, v1 = knobs[i].value(x0[i]), knobs[i].value(x1[i])
            if v1 != v0:
                ee[t, i] = diff / ((v1 - v0) / (knobs[i].high - knobs[i].low))
    return ee


def test_morris_trajectories_move_one_factor_a_step_at_a_time_on_the_grid():
    seen = []

    def play(points):
        seen.extend(points)
        return np.zeros(len(points))

    r, p = 40, 4
    out, evaluations, boot = est._morris([A, B], r, p, np.random.default_rng(2), 7, play)
    assert evaluations == r * 4 == len(seen)
    delta = p / (2 * (p - 1))  # 4 / 6: two grid steps of 1/3
    levels, directions = set(), set()
    for t, path in enumerate(_paths(seen, 2)):
        assert path[0][1] == 2 * t  # each trajectory starts on a block of its own
        blocks = [b for _, b in path]
        assert sorted(set(blocks)) == [2 * t, 2 * t + 1]  # one step moves the seed block
        for (x0, b0), (x1, b1) in zip(path, path[1:]):
            moved = np.flatnonzero(x0 != x1)
            if b1 != b0:
                assert b1 == b0 + 1 and moved.size == 0
            else:
                assert moved.size == 1 and abs(abs(x1 - x0).max() - delta) < 1e-12
                directions.add(float(np.sign((x1 - x0)[moved[0]])))
        # every factor moves once, each knob up or down
        assert [b1 - b0 for (_, b0), (_, b1) in zip(path, path[1:])].count(1) == 1
        for x, _ in path:
            assert np.all((x >= -1e-12) & (x <= 1 + 1e-12))
            levels |= set(np.round(x * (p - 1), 9).tolist())
    assert levels == {0.0, 1.0, 2.0, 3.0}  # the grid j / (p - 1), every level reached
    assert directions == {-1.0, 1.0}  # knobs step up in some trajectories, down in others
    assert boot.shape == (7, 3)


def test_morris_effects_means_and_spread_match_a_plain_python_reference():
    # a response with an interaction (a * b) and luck (the block): effects vary by trajectory
    def f(x, block):
        a, b = A.value(x[0]), B.value(x[1])
        return 2.0 * a + 5.0 * b * a + 0.5 * (block % 2) + (block // 2) * 0.1

    seen = []

    def play(points):
        seen.extend(points)
        return np.array([f(x, b) for x, b in points])

    gen = np.random.default_rng(11)
    out, _, boot = est._morris([A, B], 12, 4, gen, 50, play)
    ee = _effects(_paths(seen, 2), [A, B], f)
    table = {name: (value, lo, hi) for name, value, lo, hi in out}
    assert list(table) == ["mu_star", "mu", "sigma"]
    np.testing.assert_allclose(table["mu_star"][0], np.nanmean(np.abs(ee), axis=0), rtol=1e-12)
    np.testing.assert_allclose(table["mu"][0], np.nanmean(ee, axis=0), rtol=1e-12)
    np.testing.assert_allclose(table["sigma"][0], np.nanstd(ee, axis=0, ddof=1), rtol=1e-12)
    assert table["mu_star"][0][2] == pytest.approx(0.5)  # the block's own step: 0.5 each time
    for value, lo, hi in table.values():
        assert np.all(lo <= value) and np.all(value <= hi)  # a value inside its interval
    # the bootstrap resamples whole trajectories with the draws that follow the design's
    replay = np.random.default_rng(11)
    for _ in range(12):
        replay.integers(0, 2, 2), replay.random(2), replay.permutation(3)
    idx = replay.integers(0, 12, (50, 12))
    np.testing.assert_allclose(boot, np.nanmean(np.abs(ee[idx]), axis=-2), rtol=1e-12)
    lo, hi = np.nanpercentile(np.nanmean(np.abs(ee[idx]), axis=-2), [2.5, 97.5], axis=0)
    assert table["mu_star"][1] == pytest.approx(np.minimum(lo, table["mu_star"][0]))
    assert table["mu_star"][2] == pytest.approx(np.maximum(hi, table["mu_star"][0]))


@pytest.mark.parametrize("p", [2, 4, 6, 10])
@pytest.mark.parametrize(
    "whole", [Knob("w", 0, 1, True), Knob("w", 0, 2, True), W, Knob("w", 3, 40, True)]
)
def test_every_step_of_a_whole_knob_changes_its_value(p, whole):
    # a step (p / (2 (p - 1)) > 1/2 of the unit range) is wider than any whole value's cell
    seen = []

    def play(points):
        seen.extend(points)
        return np.array([float(whole.value(x[0])) for x, _ in points])

    out, _, _ = est._morris([whole], 8, p, np.random.default_rng(4), 5, play)
    for path in _paths(seen, 1):
        values = [whole.value(x[0]) for x, _ in path]
        assert len(set(values)) == 2  # the knob's step moved it; the block's step did not
    mu = dict((name, value) for name, value, _, _ in out)["mu"]
    assert not np.isnan(mu).any()


# -- Sobol' -------------------------------------------------------------------------------------


def test_the_sobol_design_is_a_b_and_each_factors_matrix_from_scipys_sequence():
    from scipy.stats import qmc

    seen = []

    def response(rows):
        return rows[:, 0] + 3 * rows[:, 1] ** 2 + 0.1 * rows[:, 2]

    def evaluate(rows):
        seen.append(rows.copy())
        return response(rows)

    n, boots = 16, 9
    out, evaluations, boot = est._sobol([A, B], None, n, evaluate, np.random.default_rng(8), boots)
    (rows,) = seen
    d = 3  # two knobs and the seed block
    replay = np.random.default_rng(8)
    sample = qmc.Sobol(2 * d + 1, scramble=True, rng=replay).random_base2(4)
    a, b, c = sample[:, :d], sample[:, d : 2 * d], sample[:, 2 * d]
    assert evaluations == n * (d + 2) == len(rows)
    np.testing.assert_array_equal(rows[:n], a)
    np.testing.assert_array_equal(rows[n : 2 * n], b)
    for i in range(d):
        m = rows[(2 + i) * n : (3 + i) * n]
        want = a.copy()
        want[:, i] = b[:, i]
        if i < d - 1:  # a knob's matrix takes new luck from C; the seed block's is B's
            want[:, d - 1] = c
        np.testing.assert_array_equal(m, want)
    # the estimates and the bootstrap, replayed
    f = response(rows)
    f_a, f_b, f_ab = f[:n], f[n : 2 * n], f[2 * n :].reshape(d, n)
    idx = replay.integers(0, n, (boots, n))
    table = {name: (value, lo, hi) for name, value, lo, hi in out}
    np.testing.assert_allclose(table["first"][0], est.sobol_estimates(f_a, f_b, f_ab)[0])
    np.testing.assert_allclose(table["total"][0], est.knob_totals(f_a, f_b, f_ab))
    np.testing.assert_allclose(boot, est.knob_totals(f_a[idx], f_b[idx], f_ab[:, idx]).T)
    # a scrambled sequence: another generator, another design; the same one, the same design
    est._sobol([A, B], None, n, evaluate, np.random.default_rng(9), boots)
    est._sobol([A, B], None, n, evaluate, np.random.default_rng(8), boots)
    assert not np.array_equal(seen[1], seen[0]) and np.array_equal(seen[2], seen[0])


def test_estimates_work_on_stacked_outputs_row_by_row():
    gen = np.random.default_rng(1)
    f_a, f_b = gen.normal(size=(3, 32)), gen.normal(size=(3, 32))
    f_ab = gen.normal(size=(2, 3, 32)) + f_a
    both, totals = est.sobol_estimates(f_a, f_b, f_ab), est.knob_totals(f_a, f_b, f_ab)
    assert both.shape == (2, 2, 3) and totals.shape == (2, 3)
    for row in range(3):
        np.testing.assert_allclose(both[:, :, row], est.sobol_estimates(f_a[row], f_b[row],
                                                                        f_ab[:, row]))  # fmt: skip
        np.testing.assert_allclose(totals[:, row], est.knob_totals(f_a[row], f_b[row],
                                                                   f_ab[:, row]))  # fmt: skip


def test_small_variances_are_estimated_and_a_constant_outcome_explains_nothing():
    from scipy.stats import sobol_indices

    gen = np.random.default_rng(3)
    f_a, f_b = 0.01 * gen.normal(size=64), 0.01 * gen.normal(size=64)  # variance ~1e-4
    f_ab = 0.01 * gen.normal(size=(3, 64)) + f_a
    ref = sobol_indices(func={"f_A": f_a[None], "f_B": f_b[None], "f_AB": f_ab[:, None]}, n=64)
    first, total = est.sobol_estimates(f_a, f_b, f_ab)
    np.testing.assert_allclose(first, ref.first_order.ravel())
    np.testing.assert_allclose(total, ref.total_order.ravel())
    assert np.all(est.knob_totals(f_a, f_b, f_ab) != 0)
    flat = np.full(8, 3.0)
    other = np.stack([np.arange(8.0), np.full(8, 3.0)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division warning reaches the user
        first_total = est.sobol_estimates(flat, flat, other)
        totals = est.knob_totals(flat, flat, other)
    assert first_total.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert totals.tolist() == [0.0, 0.0] and totals.dtype == float


def test_knob_totals_take_the_seed_blocks_own_total_off_each_knobs():
    f_a, f_b = np.array([0.0, 1, 2, 3]), np.array([1.0, 3, 0, 2])
    f_ab = np.stack([np.array([1.0, 2, 2, 2]), np.array([0.0, 1, 2, 4])])
    var = np.var(np.concatenate([f_a, f_b]))
    j_knob = 0.5 * np.mean((f_a - f_ab[0]) ** 2)  # (1 + 1 + 0 + 1) / 8
    j_seed = 0.5 * np.mean((f_a - f_ab[1]) ** 2)  # 1 / 8
    np.testing.assert_allclose(est.knob_totals(f_a, f_b, f_ab),
                               [(j_knob - j_seed) / var, j_seed / var])  # fmt: skip


# -- tiers and intervals ------------------------------------------------------------------------


def test_neighbours_share_a_tier_while_their_paired_difference_can_be_zero():
    def tiers(diff):
        boot = np.stack([diff, np.zeros_like(diff)], axis=1)  # factor 0 minus factor 1 = diff
        return est._tiers(np.array([0, 1]), boot)

    many = np.ones(1000)
    many[:30] = -1.0  # 3 % below zero: the 2.5th percentile is below zero, a tie
    assert tiers(many).tolist() == [1, 1]
    assert tiers(np.zeros(100)).tolist() == [1, 1]  # never apart: a tie
    assert tiers(np.full(100, 0.5)).tolist() == [1, 2]  # always apart, by less than one
    got = tiers(np.full(100, 2.0))
    assert got.tolist() == [1, 2] and got.dtype.kind == "i"  # whole tiers


def test_intervals_are_the_2_5th_and_97_5th_percentiles_per_column_widened_to_the_estimate():
    boot = np.stack([np.arange(201.0), 1000 + np.arange(201.0)], axis=1)
    lo, hi = est._interval(boot, np.array([100.0, 1100.0]))
    assert lo.tolist() == [5.0, 1005.0] and hi.tolist() == [195.0, 1195.0]
    lo, hi = est._interval(boot, np.array([-1.0, 1300.0]))
    assert lo.tolist() == [-1.0, 1005.0] and hi.tolist() == [195.0, 1300.0]
