"""Numba kernel of the campaign funnel: a player population played through levels in order.

Each player has an ability θ. At level ``l`` the player makes attempts ``k = 1, 2, …`` until the
first win or the attempt limit, winning attempt ``k`` with probability σ(w[l, k−1](θ)). Once the
level is over (cleared or not) the player stops playing with probability
σ(q[l, k−1, cleared, run](θ)), ``k`` the attempts made and ``run`` the levels in a row not won
at the first try, this one included (capped at the table's last entry). There is no stop
decision after the last level. A player who does not stop goes on to the next level, also after
losing every attempt (``moves_on``, the telemetry's rule), or is out when ``moves_on`` is false.
This is the process the skill model's telemetry follows (:mod:`labkit.hexpuzzle.difficulty`).

The logit tables ``w`` (levels × attempts × grid) and ``q`` (levels × attempts × 2 × runs ×
grid) are given on an evenly spaced ability grid and read by linear interpolation (linear
extrapolation beyond its ends), so any model linear in θ on the logit scale (Rasch,
two-parameter, logistic quitting) is reproduced exactly, and any smooth one closely. A ``q``
entry of −inf at both neighbouring nodes means "never" (no draw is made).

Random numbers: every player has a seed drawn in Python from a named ``labkit.rng`` stream and
its own SplitMix64 sequence (Steele, Lea & Flood 2014) from it: one uniform (the top 53 bits)
per attempt, and one per stop decision that can happen. Drawing on demand, not a uniform per
possible attempt beforehand, is what makes the kernel fast: most players never see most levels.

The reference is a plain-Python game written loop for loop in
``tests/hexpuzzle/playthrough/test_simulate_kernel.py``; the tests check that it and the kernel
(compiled and ``py_func``) return the same counts.
"""

from __future__ import annotations

import math

import numpy as np

from labkit._jit import Covered, kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
S30, S27, S31, S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
TO_UNIT = 1.0 / 9007199254740992.0


@kernel(
    reference=Covered(
        "SplitMix64: the published first outputs",
        "test_splitmix_matches_the_published_first_outputs",
    )
)
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
    q = np.full((levels, attempts, 2, 3, grid_n), -3.0)
    counts = np.zeros((5, levels), dtype=np.int64)
    return theta, seeds, -1.0, 1.0, w, q, True, counts


@kernel(
    example=_example,
    reference=Covered(
        "the plain game loop for loop returns counts; the kernel fills a counts array",
        "test_kernel_and_py_func_agree_with_the_plain_game",
    ),
)
def play(theta, seeds, g0, dg, w, q, moves_on, counts):
    """Play players ``theta`` (P,) with their ``seeds`` (P,) uint64; add to ``counts`` (5, L).

    Rows of ``counts``: reached, won at the first try, cleared, attempts, left after this level
    (stopped playing, or out after losing every attempt when ``moves_on`` is false).
    """
    n_levels, n_attempts = w.shape[0], w.shape[1]
    last_run = q.shape[3] - 1
    last = w.shape[2] - 2
    state = np.zeros(1, dtype=np.uint64)
    for p in range(theta.shape[0]):
        state[0] = seeds[p]
        x = (theta[p] - g0) / dg
        i = int(math.floor(x))
        i = min(max(i, 0), last)  # outside the grid: extrapolate the end segment
        f = x - i
        run = 0
        for lv in range(n_levels):
            counts[0, lv] += 1
            won = False
            k = 0
            while k < n_attempts and not won:
                logit = w[lv, k, i] + f * (w[lv, k, i + 1] - w[lv, k, i])
                won = uniform(state) * (1.0 + math.exp(-logit)) < 1.0  # u < σ(logit)
                k += 1
            counts[3, lv] += k
            if won:
                counts[2, lv] += 1
                if k == 1:
                    counts[1, lv] += 1
            run = 0 if won and k == 1 else run + 1
            if not won and not moves_on:
                counts[4, lv] += 1
                break
            if lv == n_levels - 1:
                break  # the campaign is over: no stop decision
            a = q[lv, k - 1, 1 if won else 0, min(run, last_run), i]
            b = q[lv, k - 1, 1 if won else 0, min(run, last_run), i + 1]
            if a > -np.inf or b > -np.inf:
                if uniform(state) * (1.0 + math.exp(-(a + f * (b - a)))) < 1.0:
                    counts[4, lv] += 1
                    break
