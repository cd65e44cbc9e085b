"""Numba kernel of the campaign funnel: a player population played through levels in order.

Each player has an ability θ. At level ``l`` attempt ``k`` (0-based) the player wins with
probability σ(w[l, k](θ)) and, after that attempt, stops playing with probability
σ(q[l, k, won](θ)). A win sends the player to the next level; a loss to the next attempt, and after
the last allowed attempt either to the next level (``moves_on``, what the simulated telemetry
does) or out of the campaign. Nobody quits after winning the last level: they finished.

The logit tables ``w`` (levels × attempts × grid) and ``q`` (levels × attempts × 2 × grid) are
given on an evenly spaced ability grid and read by linear interpolation (linear extrapolation
beyond its ends), so any response and quit model that is linear in θ on the logit scale (Rasch,
two-parameter, logistic quitting) is reproduced exactly, and any smooth one closely. A table
entry of −inf means "never" (e.g. no quit draw between the retries of a model that quits only
after a level).

Random numbers: every player has a seed drawn in Python from a named ``labkit.rng`` stream and
its own SplitMix64 sequence (Steele, Lea & Flood 2014) from it: one uniform (the top 53 bits)
decides each attempt, and the next one the stop draw after it, drawn only when stopping is
possible there. Drawing on demand, not a uniform per possible attempt beforehand, is what makes
the kernel fast: most players never see most levels.

The reference is a plain-Python game written loop for loop in ``tests/hexpuzzle/
test_funnel_kernel.py``; the tests check that it and the kernel (compiled and ``py_func``) return
the same counts.
"""

from __future__ import annotations

import math

import numpy as np

from labkit._jit import kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
S30, S27, S31, S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
TO_UNIT = 1.0 / 9007199254740992.0


@kernel
def uniform(state):
    """Next SplitMix64 uniform in [0, 1) of ``state`` (a 1-element uint64 array, advanced)."""
    z = state[0] + GOLDEN
    state[0] = z
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    z = z ^ (z >> S31)
    return np.float64(z >> S11) * TO_UNIT


def _example():
    grid_n, levels, attempts = 4, 3, 2
    theta = np.zeros(5)
    seeds = np.arange(5, dtype=np.uint64)
    w = np.zeros((levels, attempts, grid_n))
    q = np.full((levels, attempts, 2, grid_n), -3.0)
    counts = np.zeros((6, levels), dtype=np.int64)
    return theta, seeds, -1.0, 1.0, w, q, True, counts


@kernel(example=_example)
def play(theta, seeds, g0, dg, w, q, moves_on, counts):
    """Play players ``theta`` (P,) with their ``seeds`` (P,) uint64; add to ``counts`` (6, L).

    Rows of ``counts``: reached, won at the first try, cleared, attempts, left here (stopped
    playing at this level), and, in the last level's column only, players who finished.
    """
    n_levels, n_attempts = w.shape[0], w.shape[1]
    last = w.shape[2] - 2
    state = np.zeros(1, dtype=np.uint64)
    for p in range(theta.shape[0]):
        state[0] = seeds[p]
        x = (theta[p] - g0) / dg
        i = int(math.floor(x))
        i = min(max(i, 0), last)  # outside the grid: extrapolate the end segment
        f = x - i
        stopped = False
        for lv in range(n_levels):
            counts[0, lv] += 1
            for k in range(n_attempts):
                counts[3, lv] += 1
                logit = w[lv, k, i] + f * (w[lv, k, i + 1] - w[lv, k, i])
                won = uniform(state) * (1.0 + math.exp(-logit)) < 1.0  # u < σ(logit)
                if won:
                    counts[2, lv] += 1
                    if k == 0:
                        counts[1, lv] += 1
                    if lv == n_levels - 1:
                        break  # finished the campaign: no quit draw
                g = 1 if won else 0
                a, b = q[lv, k, g, i], q[lv, k, g, i + 1]
                if a > -np.inf or b > -np.inf:
                    if uniform(state) * (1.0 + math.exp(-(a + f * (b - a)))) < 1.0:
                        stopped = True
                        break
                if won:
                    break
                if k == n_attempts - 1 and not moves_on:
                    stopped = True
            if stopped:
                counts[4, lv] += 1
                break
        if not stopped:
            counts[5, n_levels - 1] += 1
