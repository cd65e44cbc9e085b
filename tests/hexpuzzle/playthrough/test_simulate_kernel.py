"""The funnel kernel against a plain-Python game, and against funnels known in closed form."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit.hexpuzzle.playthrough import _kernels
from labkit.hexpuzzle.playthrough.simulate import QUIT_TERMS, FunnelWorld

M64 = (1 << 64) - 1


class SplitMix:
    """SplitMix64 on Python ints (Steele, Lea & Flood 2014), written from the paper."""

    def __init__(self, seed: int) -> None:
        self.s = int(seed)

    def uniform(self) -> float:
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return ((z ^ (z >> 31)) >> 11) / 2**53


def reference(theta, seeds, g0, dg, w, q, moves_on):
    """The game told plainly, one player at a time."""
    n_levels, n_attempts, n_grid = w.shape
    counts = np.zeros((5, n_levels), dtype=np.int64)

    def chance(row, ability):
        x = (ability - g0) / dg
        i = min(max(math.floor(x), 0), n_grid - 2)
        logit = row[i] + (x - i) * (row[i + 1] - row[i])
        return 1.0 / (1.0 + math.exp(-logit))

    for ability, seed in zip(theta, seeds):
        rand = SplitMix(int(seed))
        run = 0
        for level in range(n_levels):
            counts[0, level] += 1
            for attempts in range(1, n_attempts + 1):
                won = rand.uniform() < chance(w[level, attempts - 1], ability)
                if won:
                    break
            counts[1, level] += won and attempts == 1
            counts[2, level] += won
            counts[3, level] += attempts
            run = 0 if won and attempts == 1 else run + 1
            if not won and not moves_on:
                counts[4, level] += 1
                break
            if level == n_levels - 1:
                break
            row = q[level, attempts - 1, int(won), min(run, q.shape[3] - 1)]
            if np.isfinite(row).all() and rand.uniform() < chance(row, ability):
                counts[4, level] += 1
                break
    return counts


def _case(seed: int):
    gen = np.random.default_rng(seed)
    n_levels, k = int(gen.integers(1, 7)), int(gen.integers(1, 4))
    quit = {t: float(gen.normal(0, 0.7)) for t in QUIT_TERMS} if seed % 4 else {}
    world = FunnelWorld(
        gen.normal(0, 1.5, n_levels),
        ability_sd=float(gen.uniform(0, 2)),
        learning=float(gen.uniform(0, 1)),
        quit=quit,
        max_attempts=k,
        moves_on=bool(seed % 3),
    )
    t = world.tables()
    theta = t.ability_mean + 1.3 * t.ability_sd * gen.standard_normal(60)  # some off the grid
    seeds = gen.integers(0, 2**64, size=60, dtype=np.uint64)
    return theta, seeds, t


@pytest.mark.parametrize("seed", range(12))
def test_kernel_and_py_func_agree_with_the_plain_game(seed):
    theta, seeds, t = _case(seed)
    args = (theta, seeds, t.grid0, t.step, t.win, t.quit, t.moves_on)
    expected = reference(*args)
    assert expected[0, 0] == 60  # everybody starts
    for fn in (_kernels.play, _kernels.play.py_func):
        out = np.zeros_like(expected)
        with np.errstate(over="ignore"):
            fn(*args, out)
        np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("seed", range(4))
def test_tables_that_bend_are_interpolated_and_extrapolated_by_their_end_segments(seed):
    # world tables are linear in ability, where any segment extrapolates alike; hand-made
    # tables that bend tell the end segments (and the first) from their neighbours
    gen = np.random.default_rng(100 + seed)
    n_levels, k, grid = 4, 3, 6
    w = gen.normal(0, 2, (n_levels, k, grid))
    q = gen.normal(-1.5, 1.5, (n_levels, k, 2, 3, grid))
    g0, dg = -2.0, 0.8  # the grid spans -2 .. 2
    theta = np.r_[gen.uniform(-4, -2, 20), gen.uniform(-2, -1.2, 20), gen.uniform(1.2, 2, 20),
                  gen.uniform(2, 4, 20)]  # fmt: skip
    seeds = gen.integers(0, 2**64, size=len(theta), dtype=np.uint64)
    args = (theta, seeds, g0, dg, w, q, bool(seed % 2))
    expected = reference(*args)
    for fn in (_kernels.play, _kernels.play.py_func):
        out = np.zeros_like(expected)
        with np.errstate(over="ignore"):
            fn(*args, out)
        np.testing.assert_array_equal(out, expected)
    assert expected[4].sum() > 0 and expected[1].sum() > 0


def test_splitmix_matches_the_published_first_outputs():
    # SplitMix64 seeded with 1234567: first output 6457827717110365317 (Rosetta Code's table)
    state = np.array([1234567], dtype=np.uint64)
    with np.errstate(over="ignore"):
        u = _kernels.uniform(state)
    assert u == (6457827717110365317 >> 11) / 2**53
    assert SplitMix(1234567).uniform() == u


def closed_form(a, beta, learning, h_won, h_lost, k, moves_on=True):
    """Reach, first-try, attempts per clear and hazard of one ability, stopping with chance
    h_won / h_lost after a cleared / failed level (never after the last)."""
    reach, out = 1.0, []
    for lv, b in enumerate(beta):
        p = [1 / (1 + math.exp(-(a - b + learning * min(j, 5)))) for j in range(k)]
        play, att, clear = 1.0, 0.0, 0.0  # play: chance to make attempt j
        for j in range(k):
            att += play
            clear += play * p[j]
            play *= 1 - p[j]
        if lv == len(beta) - 1:
            on = clear + (1 - clear) * moves_on
        else:
            on = clear * (1 - h_won) + (1 - clear) * (1 - h_lost) * moves_on
        out.append((reach, p[0], att / clear, 1 - on))
        reach *= on
    return np.array(out)


def test_no_spread_constant_hazard_matches_closed_form():
    beta = [-1.0, 0.0, 0.5, 1.5, 2.5]
    h = 0.1
    world = FunnelWorld(
        beta, ability_sd=0.0, learning=0.4, quit={"baseline": math.log(h / (1 - h))}
    )
    f = world.funnel(40_000, draws=5, rng=3)
    truth = closed_form(0.0, beta, 0.4, h, h, 3)
    n = 200_000
    for col, name in enumerate(["reach", "first_try", "attempts_per_clear", "quit_hazard"]):
        pooled = np.array(f.value(name))
        if name == "attempts_per_clear":
            tol = 0.01 * truth[:, col]  # a ratio: relative error
        else:
            tol = 5 * np.sqrt(truth[:, col] * (1 - truth[:, col]) / (n * truth[:, 0])) + 2e-3
        assert np.all(np.abs(pooled - truth[:, col]) <= tol), (name, pooled, truth[:, col])


def test_ability_spread_matches_quadrature_of_the_closed_form():
    # stopping depends on ability and outcome; the truth is the closed form over θ ~ N(0, 1.2)
    beta = np.linspace(-1.0, 2.0, 8)
    sd, base, slope, won = 1.2, -1.0, -0.6, -1.5
    z, wts = np.polynomial.hermite_e.hermegauss(60)
    wts = wts / wts.sum()
    rows = []
    for zi in z:
        a = sd * zi
        h = [1 / (1 + math.exp(-(base + slope * a + won * c))) for c in (1, 0)]
        rows.append(closed_form(a, beta, 0.0, h[0], h[1], 2))
    rows = np.array(rows)  # (nodes, L, 4)
    reach = wts @ rows[:, :, 0]
    quit_share = wts @ (rows[:, :, 0] * rows[:, :, 3])
    quit = {"baseline": base, "ability": slope, "won": won}
    world = FunnelWorld(beta, ability_sd=sd, quit=quit, max_attempts=2)
    f = world.funnel(50_000, draws=4, rng=5)
    assert np.all(np.abs(np.array(f.value("reach")) - reach) < 0.01)
    assert np.all(np.abs(np.array(f.value("quit_hazard")) - quit_share / reach) < 0.012)
    assert f.value("quit_hazard")[-1] == 0.0  # no stop decision after the last level
    # weak players leave first, so the survivors' first-try success rises above the population's
    assert f.value("first_try")[-1] > wts @ rows[:, -1, 1] + 0.02


def test_losing_every_attempt_is_the_end_without_moving_on():
    world = FunnelWorld([5.0, -5.0], ability_sd=0.0, max_attempts=2, moves_on=False)
    f = world.funnel(2000, draws=2, rng=0)
    assert f.value("reach")[1] < 0.05  # σ(-5) twice: almost nobody clears level 1
    assert f.value("quit_hazard")[0] > 0.95


def test_run_of_failures_drives_stopping():
    # nobody wins at the first try; stopping grows with the run: reach falls ever faster
    world = FunnelWorld([8.0] * 4, ability_sd=0.0, max_attempts=1,
                        quit={"baseline": -4.0, "run": 1.0})  # fmt: skip
    f = world.funnel(20_000, draws=2, rng=1)
    h = [1 / (1 + math.exp(-(-4.0 + r))) for r in (1, 2, 3)]
    np.testing.assert_allclose(f.value("quit_hazard")[:3], h, atol=0.01)
