"""Numba kernel of the online level ratings (Glicko-2, one game per rating period).

Everything is on Glicko-2's internal scale (μ = (r − 1500)/173.7178, φ = RD/173.7178). The
reference is :func:`labkit.hexpuzzle.difficulty.ratings.glicko2`, plain Python, which the tests
run game by game against this kernel.
"""

from __future__ import annotations

import math

import numpy as np

from labkit._jit import Covered, kernel

PI2 = math.pi * math.pi


_GLICKO2 = Covered(
    "a Glicko-2 step; checked game by game against the plain ratings.glicko2",
    "test_kernel_matches_the_plain_algorithm",
)


@kernel(reference=_GLICKO2)
def new_volatility(phi, sigma, v, delta, tau):
    """Glickman's step 5: the new volatility by the Illinois algorithm (tolerance 1e-6)."""
    a = math.log(sigma * sigma)
    eps = 1e-6

    def f(x):
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)

    A = a
    if delta * delta > phi * phi + v:
        B = math.log(delta * delta - phi * phi - v)
    else:
        k = 1.0
        while f(a - k * tau) < 0.0:
            k += 1.0
        B = a - k * tau
    fA, fB = f(A), f(B)
    while abs(B - A) > eps:
        C = A + (A - B) * fA / (fB - fA)
        fC = f(C)
        if fC * fB <= 0.0:
            A, fA = B, fB
        else:
            fA = fA / 2.0
        B, fB = C, fC
    return math.exp(A / 2.0)


@kernel(reference=_GLICKO2)
def one_game(mu, phi, sigma, mu_o, phi_o, s, tau):
    """One player's Glicko-2 update after one game against an opponent: (μ', φ', σ')."""
    g = 1.0 / math.sqrt(1.0 + 3.0 * phi_o * phi_o / PI2)
    e = 1.0 / (1.0 + math.exp(-g * (mu - mu_o)))
    v = 1.0 / (g * g * e * (1.0 - e))
    delta = v * g * (s - e)
    sigma2 = new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    return mu + phi2 * phi2 * g * (s - e), phi2, sigma2


def _example():
    z = np.zeros(2)
    i = np.zeros(1, dtype=np.int64)
    return (i, i, np.ones(1), z, z + 2.0, z + 0.06, np.zeros(2, np.int64),
            z.copy(), z + 2.0, z + 0.06, np.zeros(2, np.int64), 0.5, 0.3, 0.63)  # fmt: skip


@kernel(example=_example, reference=_GLICKO2)
def rate_games(player, level, score, p_mu, p_phi, p_sigma, p_n, l_mu, l_phi, l_sigma, l_n,
               tau, cap, provisional):  # fmt: skip
    """Rate games in order, in place. ``score`` is the player's result (1 = first-try win).

    Both sides use their ratings from before the game. A change of μ is clipped to ±``cap``; a
    level moves only when the player's φ (before the game) is at most ``provisional``.
    Returns the number of games that moved a level rating.
    """
    moved = 0
    for k in range(player.shape[0]):
        p, lv, s = player[k], level[k], score[k]
        pm, pf, ps = p_mu[p], p_phi[p], p_sigma[p]
        lm, lf, ls = l_mu[lv], l_phi[lv], l_sigma[lv]
        m2, f2, s2 = one_game(pm, pf, ps, lm, lf, s, tau)
        p_mu[p] = pm + min(cap, max(-cap, m2 - pm))
        p_phi[p], p_sigma[p] = f2, s2
        p_n[p] += 1
        if pf <= provisional:
            m2, f2, s2 = one_game(lm, lf, ls, pm, pf, 1.0 - s, tau)
            l_mu[lv] = lm + min(cap, max(-cap, m2 - lm))
            l_phi[lv], l_sigma[lv] = f2, s2
            l_n[lv] += 1
            moved += 1
    return moved
