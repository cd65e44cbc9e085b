"""Numba kernel of the skill model's marginal likelihood (Gauss–Hermite quadrature).

Every observation is a Bernoulli "item" j (a level at attempt k, or a quit decision with given
covariates) whose log-odds at quadrature node z_k is η_jk = s_j·σ·z_k + c_j. A player's data
are counts (y1, y0) per item (CSR: ``indptr`` over players, ``item``, ``y1``, ``y0``). The kernel
walks the players once: per player it sums the items' log-probabilities at each node (tables
``lp = log σ(η)``, ``lq = log σ(−η)``, ``p = σ(η)`` computed once per evaluation), normalises the
posterior over nodes, and accumulates the Fisher-identity gradient sums
``gu_j = Σ_players Σ_k post_k·r_jk`` and ``gv_j = Σ_players Σ_k post_k·r_jk·z_k`` with
r = y1·(1 − p) − y0·p, each player's sums times its ``weight`` (over the nodes where the
posterior exceeds e⁻³⁷ of its peak).
Cost O(entries × nodes), memory O(entries) — no players × nodes matrix.

The plain-Python reference is :func:`reference_marginal` (the same sums with numpy, one player
at a time); the tests compare the two.
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from labkit._jit import Covered, kernel


def _example():
    i = np.array([0, 1], dtype=np.int64)
    one = np.ones(1)
    t = np.zeros((1, 3))
    return (i, np.zeros(1, np.int64), one, one * 0, one, t, t, t + 0.5, np.zeros(3),
            np.zeros(3), np.zeros(1), np.zeros(1), np.zeros(1), np.zeros(1), np.zeros(1),
            True)  # fmt: skip


#: Players are cut into this many blocks of about equal entries; each block has its own
#: gradient accumulator (threads never write to the same sums) and the blocks are added in a
#: fixed order, so the result does not depend on how many threads ran.
BLOCKS = 16


_MARGINAL = Covered(
    "fills output arrays in place; _skill_kernels.reference_marginal returns them",
    "test_kernel_matches_its_plain_reference",
)


@kernel(example=_example, fastmath=True, reference=_MARGINAL)
def marginal(indptr, item, y1, y0, weight, lp, lq, p, z, logw, gu, gv, u, v, mean, want):
    """Σ weight × log marginal over players; fills ``gu``/``gv`` (items, weighted) and, when
    ``want``, the per-entry ``u``/``v`` (score parts of one player, unweighted) and the
    posterior mean node ``mean`` per player. ``weight`` is how many players share a history
    (sufficient statistics: identical players are one row, see :mod:`.skill_stats`)."""
    n = indptr.shape[0] - 1
    return _block(0, n, indptr, item, y1, y0, weight, lp, lq, p, z, logw, gu, gv, u, v, mean,
                  want)  # fmt: skip


@kernel(example=_example, fastmath=True, parallel=True, reference=_MARGINAL)
def marginal_threads(indptr, item, y1, y0, weight, lp, lq, p, z, logw, gu, gv, u, v, mean, want):
    """:func:`marginal` with the players cut into :data:`BLOCKS` blocks run on threads (for
    large tables only: on a busy machine a thread that waits for a core stalls the rest)."""
    n_players = indptr.shape[0] - 1
    n_blocks = max(1, min(BLOCKS, n_players))
    cut = np.searchsorted(indptr, np.linspace(0, indptr[-1], n_blocks + 1)[1:-1])
    bounds = np.empty(n_blocks + 1, np.int64)
    bounds[0], bounds[n_blocks] = 0, n_players
    for c in range(1, n_blocks):
        bounds[c] = max(bounds[c - 1], min(cut[c - 1], n_players))
    gus = np.zeros((n_blocks, gu.shape[0]))
    gvs = np.zeros((n_blocks, gu.shape[0]))
    totals = np.zeros(n_blocks)
    for c in prange(n_blocks):
        totals[c] = _block(bounds[c], bounds[c + 1], indptr, item, y1, y0, weight, lp, lq, p,
                           z, logw, gus[c], gvs[c], u, v, mean, want)  # fmt: skip
    for c in range(n_blocks):
        gu += gus[c]
        gv += gvs[c]
    return totals.sum()


@kernel(fastmath=True, reference=_MARGINAL)
def _block(first, stop, indptr, item, y1, y0, weight, lp, lq, p, z, logw, gu, gv, u, v, mean,
           want):  # fmt: skip
    """Players ``first … stop − 1`` of :func:`marginal`."""
    n_nodes = z.shape[0]
    total = 0.0
    ll = np.empty(n_nodes)
    post = np.empty(n_nodes)
    for i in range(first, stop):
        for k in range(n_nodes):
            ll[k] = logw[k]
        for e in range(indptr[i], indptr[i + 1]):
            j, a, b = item[e], y1[e], y0[e]
            if a != 0.0:  # most entries are a single win or a single loss: one row each
                for k in range(n_nodes):
                    ll[k] += a * lp[j, k]
            if b != 0.0:
                for k in range(n_nodes):
                    ll[k] += b * lq[j, k]
        top = ll[0]
        for k in range(1, n_nodes):
            top = max(top, ll[k])
        s = 0.0
        for k in range(n_nodes):
            post[k] = math.exp(ll[k] - top)
            s += post[k]
        w = weight[i]
        total += w * (top + math.log(s))
        m = 0.0
        lo, hi = n_nodes, 0  # the nodes that carry the posterior (the rest add < 1e-16)
        for k in range(n_nodes):
            post[k] /= s
            m += post[k] * z[k]
            if ll[k] - top > -37.0:
                lo, hi = min(lo, k), k + 1
        if want:
            mean[i] = m
        for e in range(indptr[i], indptr[i + 1]):
            j, a, b = item[e], y1[e], y0[e]
            su, sv, n = 0.0, 0.0, a + b
            for k in range(lo, hi):
                r = post[k] * (a - n * p[j, k])
                su += r
                sv += r * z[k]
            gu[j] += w * su
            gv[j] += w * sv
            if want:
                u[e] = su
                v[e] = sv
    return total


def reference_marginal(indptr, item, y1, y0, weight, lp, lq, p, z, logw):
    """Plain numpy: ``(total, gu, gv, u, v, mean)`` as :func:`marginal` computes them."""
    from scipy.special import logsumexp

    gu, gv = np.zeros(lp.shape[0]), np.zeros(lp.shape[0])
    u, v = np.zeros(len(item)), np.zeros(len(item))
    mean = np.zeros(len(indptr) - 1)
    total = 0.0
    for i in range(len(indptr) - 1):
        sl = slice(indptr[i], indptr[i + 1])
        j = item[sl]
        ll = logw + (y1[sl, None] * lp[j] + y0[sl, None] * lq[j]).sum(axis=0)
        marg = logsumexp(ll)
        total += weight[i] * marg
        post = np.exp(ll - marg)
        mean[i] = post @ z
        r = post[None, :] * (y1[sl, None] * (1 - p[j]) - y0[sl, None] * p[j])
        u[sl], v[sl] = r.sum(axis=1), r @ z
        np.add.at(gu, j, weight[i] * u[sl])
        np.add.at(gv, j, weight[i] * v[sl])
    return total, gu, gv, u, v, mean
