"""The funnel kernel against a plain-Python game, and against funnels known in closed form."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit.hexpuzzle.funnel import _kernels
from labkit.hexpuzzle.funnel.simulate import FunnelWorld

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
    counts = np.zeros((6, n_levels), dtype=np.int64)

    def chance(row, ability):
        x = (ability - g0) / dg
        i = min(max(math.floor(x), 0), n_grid - 2)
        logit = row[i] + (x - i) * (row[i + 1] - row[i])
        return 1.0 / (1.0 + math.exp(-logit))

    for ability, seed in zip(theta, seeds):
        rand = SplitMix(int(seed))
        left_at = None
        for level in range(n_levels):
            counts[0, level] += 1
            for k in range(n_attempts):
                counts[3, level] += 1
                won = rand.uniform() < chance(w[level, k], ability)
                counts[1, level] += won and k == 0
                counts[2, level] += won
                if won and level == n_levels - 1:
                    break
                row = q[level, k, int(won)]
                if np.isfinite(row).all() and rand.uniform() < chance(row, ability):
                    left_at = level
                    break
                if won:
                    break
                if k == n_attempts - 1 and not moves_on:
                    left_at = level
            if left_at is not None:
                counts[4, level] += 1
                break
        else:
            counts[5, n_levels - 1] += 1
    return counts


def _case(seed: int):
    gen = np.random.default_rng(seed)
    n_levels, k = int(gen.integers(1, 6)), int(gen.integers(1, 4))
    world = FunnelWorld(
        gen.normal(0, 1.5, n_levels),
        ability_sd=float(gen.uniform(0, 2)),
        learning=float(gen.uniform(0, 1)),
        quit_base=float(gen.normal(-1.5, 1)) if seed % 4 else -np.inf,
        quit_ability=float(gen.normal(0, 0.5)),
        quit_won=float(gen.normal(0, 1)),
        quit_attempt=float(gen.normal(0, 0.5)),
        quit_position=float(gen.normal(0, 0.3)),
        max_attempts=k,
        moves_on=bool(seed % 3),
        quit_after="level" if seed % 5 == 0 else "attempt",
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


def test_splitmix_matches_the_published_first_outputs():
    # SplitMix64 seeded with 1234567: first output 6457827717110365317 (Rosetta Code's table)
    state = np.array([1234567], dtype=np.uint64)
    with np.errstate(over="ignore"):
        u = _kernels.uniform(state)
    assert u == (6457827717110365317 >> 11) / 2**53
    assert SplitMix(1234567).uniform() == u


def closed_form(a, beta, learning, h, k, moves_on=True):
    """Reach, first-try, attempts per clear and hazard of one ability, quitting with chance h
    after every attempt (not after winning the last level)."""
    reach, out = 1.0, []
    for lv, b in enumerate(beta):
        last = lv == len(beta) - 1
        p = [1 / (1 + math.exp(-(a - b + learning * j))) for j in range(k)]
        play = 1.0  # chance to make attempt j (given the level is reached)
        att = clear = on = 0.0
        for j in range(k):
            att += play
            clear += play * p[j]
            on += play * p[j] * (1.0 if last else 1 - h)
            play *= (1 - p[j]) * (1 - h)
        on += play if moves_on and not last else 0.0  # the last lost attempt, not quitting
        hazard = 1 - on if not last else 1 - clear - (play if moves_on else 0.0)
        out.append((reach, p[0], att / clear, hazard))
        reach *= on
    return np.array(out)


def test_no_spread_constant_hazard_matches_closed_form():
    beta = [-1.0, 0.0, 0.5, 1.5, 2.5]
    h = 0.1
    world = FunnelWorld(beta, ability_sd=0.0, learning=0.4, quit_base=math.log(h / (1 - h)))
    f = world.funnel(40_000, draws=5, rng=3)
    truth = closed_form(0.0, beta, 0.4, h, 3)
    n = 200_000
    for col, name in enumerate(["reach", "first_try", "attempts_per_clear", "quit_hazard"]):
        pooled = np.array(f.value(name))
        if name == "attempts_per_clear":
            tol = 0.01 * truth[:, col]  # a ratio: relative error
        else:
            tol = 5 * np.sqrt(truth[:, col] * (1 - truth[:, col]) / (n * truth[:, 0])) + 2e-3
        assert np.all(np.abs(pooled - truth[:, col]) <= tol), (name, pooled, truth[:, col])


def test_ability_spread_matches_quadrature_of_the_closed_form():
    # quitting depends on ability here; the truth is the closed form integrated over θ ~ N(0, 1.2)
    beta = np.linspace(-1.0, 2.0, 8)
    sd, base, slope = 1.2, -2.0, -0.6
    z, wts = np.polynomial.hermite_e.hermegauss(60)
    wts = wts / wts.sum()
    rows = []
    for zi in z:
        a = sd * zi
        h = 1 / (1 + math.exp(-(base + slope * a)))
        rows.append(closed_form(a, beta, 0.0, h, 2))
    rows = np.array(rows)  # (nodes, L, 4)
    reach = wts @ rows[:, :, 0]
    quit_share = wts @ (rows[:, :, 0] * rows[:, :, 3])
    world = FunnelWorld(beta, ability_sd=sd, quit_base=base, quit_ability=slope, max_attempts=2)
    f = world.funnel(50_000, draws=4, rng=5)
    assert np.all(np.abs(np.array(f.value("reach")) - reach) < 0.01)
    hazard = quit_share / reach
    assert np.all(np.abs(np.array(f.value("quit_hazard")) - hazard) < 0.012)
    # weak players leave first, so the survivors' first-try success rises above the population's
    assert f.value("first_try")[-1] > wts @ rows[:, -1, 1] + 0.02


def test_nobody_quits_and_no_moving_on_without_winning():
    world = FunnelWorld([5.0, -5.0], ability_sd=0.0, max_attempts=2, moves_on=False)
    f = world.funnel(2000, draws=2, rng=0)
    assert f.value("reach")[1] < 0.05  # σ(-5) twice: almost nobody clears level 1
    assert f.value("quit_hazard")[0] > 0.95
