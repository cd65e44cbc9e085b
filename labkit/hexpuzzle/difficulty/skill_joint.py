"""Stage 1 of the skill fit (private): the marginal likelihood of responses *and* quitting.

Every player contributes ∫ Π P(response | θ) · Π P(continue or quit | θ) dN(θ; 0, σ²), the
integral by Gauss–Hermite quadrature in the kernel :func:`._skill_kernels.marginal`:

* a response at level l, attempt k: P(win) = σ(α_l·(θ − β_l) + λ·(k − 1)) (α_l = 1 unless the
  two-parameter option; λ = 0 unless retries are used; attempts from :data:`ATTEMPT_CAP` on pool);
* a decision after a level (``dropout="model"``): P(quit) = σ(a·θ + x·γ), x the covariates of
  :mod:`.skill_quit`. With ``dropout="ignore"`` this factor is left out, which is right when
  quitting depends on the observed outcomes only (missing at random).

Parameters are found by L-BFGS with the analytic gradient (Fisher's identity), under weak
priors: β ~ N(0, 5²), λ and γ ~ N(0, 3²), log α ~ N(0, 0.3²) (the shrunken discrimination).
Their covariance is the inverse of the empirical information (sum over players of the outer
products of their score vectors) plus the prior precision.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.linalg import solve_triangular
from scipy.optimize import minimize
from scipy.special import expit, log_expit

from labkit.hexpuzzle.difficulty import _skill_kernels
from labkit.hexpuzzle.difficulty.skill_quit import ATTEMPT_CAP, N_TERMS, RUN_CAP, design

#: Quadrature nodes: a uniform grid over ±5 sd (the trapezoid rule). Gauss–Hermite's 21 nodes
#: are too coarse once a player has dozens of attempts (a posterior sd of 0.2 population sds):
#: on complete data from 60 levels they shrank the ability spread by 17 %.
NODES, HALF_WIDTH = 41, 5.0
BETA_PRIOR_SD, COEF_PRIOR_SD, ALPHA_PRIOR_SD = 5.0, 3.0, 0.3
#: Above twice this many players the fit starts from a fit to an evenly spaced subset of this size:
#: L-BFGS then needs a handful of full-data evaluations instead of ~100 (the optimum is the
#: full data's either way; only the path to it changes).
WARM_PLAYERS = 5000
#: From this many entries on, the kernel runs on threads (below, starting them costs more).
THREAD_ENTRIES = 400_000
#: Rows of players per block of dense scores when the information is summed.
INFO_BLOCK = 32_768


def nodes(n: int = NODES) -> tuple[NDArray, NDArray]:
    """Nodes z and log weights for E[f(Z)], Z ~ N(0, 1) (trapezoid rule on a uniform grid,
    accurate to ~1e-5 for a posterior whose sd is at least the spacing)."""
    z = np.linspace(-HALF_WIDTH, HALF_WIDTH, n)
    logw = -0.5 * z * z
    return z, logw - np.logaddexp.reduce(logw)


@dataclass
class Events:
    """Players' data as counts per item, CSR by row (see :mod:`._skill_kernels`).

    Items 0 … n_levels·ATTEMPT_CAP − 1 are responses (level l, extra attempts e: l·CAP + e);
    the rest are quit-decision patterns with covariates ``x`` (their rows). A row is one
    player, or — after :func:`.skill_stats.collapse` — every player with that same history:
    ``weight`` says how many, ``inverse`` maps each player to its row.
    """

    n_levels: int
    n_players: int  # rows
    indptr: NDArray
    item: NDArray
    y1: NDArray
    y0: NDArray
    x: NDArray  # (patterns, N_TERMS - 1) decision covariates
    counts: NDArray  # first attempts per level
    n_decisions: int
    n_quits: int
    weight: NDArray | None = None  # players per row (None: one each)
    inverse: NDArray | None = None  # each player's row (None: player i is row i)
    patterns: NDArray | None = None  # the decision patterns' keys, in the order of ``x``

    def __post_init__(self) -> None:
        if self.weight is None:
            self.weight = np.ones(self.n_players)

    @property
    def n_items(self) -> int:
        return self.n_levels * ATTEMPT_CAP + len(self.x)

    @property
    def represented(self) -> int:
        """How many players the rows stand for."""
        return self.n_players if self.inverse is None else len(self.inverse)

    def subset(self, players: NDArray, weight: NDArray | None = None) -> Events:
        """The same items for the given rows only, with the given weights (default: theirs).
        First attempts per level and decision counts are the subset's, each row counted
        ``weight`` times; the decision patterns stay the whole table's."""
        players = np.asarray(players, np.int64)
        lo, hi = self.indptr[players], self.indptr[players + 1]
        take = np.concatenate([np.arange(a, b) for a, b in zip(lo, hi)] + [np.zeros(0, np.int64)])
        item, y1, y0 = self.item[take], self.y1[take], self.y0[take]
        assert self.weight is not None
        w = self.weight[players] if weight is None else np.asarray(weight, float)
        per = np.repeat(w, hi - lo)
        n_responses = self.n_levels * ATTEMPT_CAP
        dec = item >= n_responses
        first = ~dec & (item % ATTEMPT_CAP == 0)  # a level's first attempts: extra attempts 0
        counts = np.bincount(item[first] // ATTEMPT_CAP, ((y1 + y0) * per)[first], self.n_levels)
        return Events(
            self.n_levels, len(players), np.r_[0, np.cumsum(hi - lo)].astype(np.int64),
            item, y1, y0, self.x, counts, int(((y1 + y0) * per)[dec].sum()),
            int((y1 * per)[dec].sum()), w, patterns=self.patterns,
        )  # fmt: skip


def events(level, player, attempt, won, n_levels, n_players, *, retries: bool, dropout: bool,
           ends: tuple[int, int] | None = None):  # fmt: skip
    """Build :class:`Events` from rows of known levels.

    ``level``/``player`` are 0-based indices; the campaign order is the level index. ``ends``
    (the last level anyone played, how many levels anyone played) when these rows are a part
    of the players only (see :func:`decisions`).
    """
    # a player's levels are read in campaign order (row order does not matter)
    order = np.lexsort((attempt, level, player))
    level, player, attempt, won = level[order], player[order], attempt[order], won[order]
    use = np.ones(len(level), bool) if retries else attempt == 1
    extra = np.minimum(attempt, ATTEMPT_CAP) - 1
    r_item = level * ATTEMPT_CAP + extra
    e_players, e_items = [player[use]], [r_item[use]]
    y1s, y0s = [won[use].astype(float)], [1.0 - won[use]]
    counts = np.bincount(level[attempt == 1], minlength=n_levels)
    n_dec = n_quit = 0
    x, pat = np.zeros((0, N_TERMS - 1)), np.zeros(0, np.int64)
    if dropout and len(level):
        d = decisions(level, player, attempt, won, n_players, ends=ends)
        run_c = np.minimum(d["run"], RUN_CAP)
        att_c = np.minimum(d["attempt"], ATTEMPT_CAP)
        pk = ((d["won"] * (RUN_CAP + 1) + run_c) * (ATTEMPT_CAP + 1) + att_c) * (n_levels + 1)
        pk = pk + np.minimum(d["position"], n_levels)
        pat, pinv = np.unique(pk, return_inverse=True)
        x = pattern_design(pat, n_levels)
        e_players.append(d["player"])
        e_items.append(n_levels * ATTEMPT_CAP + pinv.ravel())
        y1s.append(d["quit"].astype(float))
        y0s.append(1.0 - d["quit"])
        n_dec, n_quit = len(d["quit"]), int(d["quit"].sum())
    all_player, all_item = np.concatenate(e_players), np.concatenate(e_items)
    n_items = n_levels * ATTEMPT_CAP + len(x)
    entry = all_player.astype(np.int64) * n_items + all_item
    e_uniq, e_inv = np.unique(entry, return_inverse=True)
    y1 = np.bincount(e_inv.ravel(), weights=np.concatenate(y1s), minlength=len(e_uniq))
    y0 = np.bincount(e_inv.ravel(), weights=np.concatenate(y0s), minlength=len(e_uniq))
    e_player = e_uniq // n_items
    indptr = np.r_[0, np.cumsum(np.bincount(e_player, minlength=n_players))].astype(np.int64)
    return Events(
        n_levels, n_players, indptr, (e_uniq % n_items).astype(np.int64), y1, y0, x,
        counts, n_dec, n_quit, patterns=pat,
    )  # fmt: skip


def pattern_design(pat: NDArray, n_levels: int) -> NDArray:
    """The covariates of decision patterns from their keys (see :func:`events`)."""
    pos_p = pat % (n_levels + 1)
    rest = pat // (n_levels + 1)
    att_p, rest = rest % (ATTEMPT_CAP + 1), rest // (ATTEMPT_CAP + 1)
    run_p, won_p = rest % (RUN_CAP + 1), rest // (RUN_CAP + 1)
    return design(won_p, run_p, att_p, pos_p)


def decisions(level, player, attempt, won, n_players, *, ends=None) -> dict[str, NDArray]:
    """The quit decisions in rows sorted by (player, level, attempt): one per level a player
    played, except after the campaign's end (the last level anyone played) or by a player who
    played every level. Keys: player, level, won (cleared), run, attempt (attempts made),
    position (0-based, in the player's sequence), quit; in (player, campaign) order.
    ``ends`` = (last level, levels played) over everyone, when the rows are some players'."""
    n_levels = int(level.max()) + 1
    g_key = player.astype(np.int64) * n_levels + level
    gk, inv = np.unique(g_key, return_inverse=True)
    gi = inv.ravel()
    g_player, g_level = gk // n_levels, gk % n_levels
    cleared = np.bincount(gi, weights=won, minlength=len(gk)) > 0
    tries = np.bincount(gi, minlength=len(gk)).astype(np.int64)
    first_won = np.zeros(len(gk), bool)
    first_won[gi[(attempt == 1) & won]] = True
    start = np.r_[True, g_player[1:] != g_player[:-1]]
    end = np.r_[g_player[1:] != g_player[:-1], True]
    idx = np.arange(len(gk))
    position = idx - np.maximum.accumulate(np.where(start, idx, 0))
    f = (~first_won).astype(np.int64)
    c = np.cumsum(f)
    run = c - np.maximum.accumulate(np.where(first_won, c, np.where(start, c - f, -1)))
    # the campaign ends at the last level anyone played (later ones have no data yet)
    played = np.bincount(g_player, minlength=n_players)[g_player]
    last, distinct = ends if ends is not None else (g_level.max(), len(np.unique(g_level)))
    decide = ~(end & ((g_level == last) | (played >= distinct)))
    out = {"player": g_player, "level": g_level, "won": cleared, "run": run, "attempt": tries,
           "position": position, "quit": end}  # fmt: skip
    return {k: v[decide] for k, v in out.items()}


@dataclass
class Layout:
    """Where each parameter sits in the vector: β, log σ, [λ], [quit γ], [log α]."""

    n_levels: int
    retries: bool
    dropout: bool
    two_pl: bool

    def __post_init__(self) -> None:
        n, i = self.n_levels, self.n_levels + 1
        self.beta, self.log_sigma = slice(0, n), n
        self.learning = i if self.retries else None
        i += self.retries
        self.quit = slice(i, i + N_TERMS) if self.dropout else None
        i += N_TERMS * self.dropout
        self.log_alpha = slice(i, i + n) if self.two_pl else None
        self.size = i + n * self.two_pl

    def prior_precision(self) -> NDArray:
        prec = np.zeros(self.size)
        prec[self.beta] = BETA_PRIOR_SD**-2
        if self.learning is not None:
            prec[self.learning] = COEF_PRIOR_SD**-2
        if self.quit is not None:
            prec[self.quit] = COEF_PRIOR_SD**-2
        if self.log_alpha is not None:
            prec[self.log_alpha] = ALPHA_PRIOR_SD**-2
        return prec


def _items(par: NDArray, lay: Layout, ev: Events):
    """Per item: slope s (on σz) and offset c, and the sparse derivative matrices D, E with
    dη_jk/dpar = D_j + E_j·z_k."""
    n, cap = lay.n_levels, ATTEMPT_CAP
    beta, sigma = par[lay.beta], float(np.exp(par[lay.log_sigma]))
    alpha = np.exp(par[lay.log_alpha]) if lay.log_alpha is not None else np.ones(n)
    lam = par[lay.learning] if lay.learning is not None else 0.0
    lvl = np.repeat(np.arange(n), cap)
    ext = np.tile(np.arange(cap, dtype=float), n)
    s_r, c_r = alpha[lvl], -alpha[lvl] * beta[lvl] + lam * ext
    nr, npat = n * cap, len(ev.x)
    rows_d, cols_d, vals_d = [np.arange(nr)], [lvl], [-alpha[lvl]]
    rows_e, cols_e, vals_e = [], [], []
    if lay.learning is not None:
        rows_d.append(np.arange(nr))
        cols_d.append(np.full(nr, lay.learning))
        vals_d.append(ext)
    if lay.log_alpha is not None:
        a0 = lay.log_alpha.start
        rows_d.append(np.arange(nr))
        cols_d.append(a0 + lvl)
        vals_d.append(-alpha[lvl] * beta[lvl])
        rows_e.append(np.arange(nr))
        cols_e.append(a0 + lvl)
        vals_e.append(alpha[lvl] * sigma)
    s, c = s_r, c_r
    if lay.quit is not None and npat:
        g = par[lay.quit]
        gamma_rest, a = np.r_[g[0], g[2:]], g[1]
        s = np.r_[s_r, np.full(npat, a)]
        c = np.r_[c_r, ev.x @ gamma_rest]
        q0 = lay.quit.start
        di = nr + np.repeat(np.arange(npat), N_TERMS - 1)
        rows_d.append(di)
        cols_d.append(np.tile(np.array([q0, *range(q0 + 2, q0 + N_TERMS)]), npat))
        vals_d.append(ev.x.ravel())
        rows_e.append(nr + np.arange(npat))
        cols_e.append(np.full(npat, q0 + 1))
        vals_e.append(np.full(npat, sigma))
    elif npat:
        s, c = np.r_[s_r, np.zeros(npat)], np.r_[c_r, np.zeros(npat)]
    J = nr + npat
    rows_e.append(np.arange(J))
    cols_e.append(np.full(J, lay.log_sigma))
    vals_e.append(s * sigma)
    D = sp.csr_matrix(
        (np.concatenate(vals_d), (np.concatenate(rows_d), np.concatenate(cols_d))), (J, lay.size)
    )
    E = sp.csr_matrix(
        (np.concatenate(vals_e), (np.concatenate(rows_e), np.concatenate(cols_e))), (J, lay.size)
    )
    return s, c, sigma, D, E


def _gradient(par, lay: Layout, ev: Events, s, sigma, gu, gv) -> NDArray:
    """Dᵀ·gu + Eᵀ·gv without building D and E (the optimiser's hot path)."""
    n, cap = lay.n_levels, ATTEMPT_CAP
    nr = n * cap
    beta = par[lay.beta]
    alpha = np.exp(par[lay.log_alpha]) if lay.log_alpha is not None else np.ones(n)
    gu_r, gv_r = gu[:nr].reshape(n, cap), gv[:nr].reshape(n, cap)
    g = np.zeros(lay.size)
    g[lay.beta] = -alpha * gu_r.sum(axis=1)
    g[lay.log_sigma] = sigma * float(s @ gv)
    if lay.learning is not None:
        g[lay.learning] = float(gu_r.sum(axis=0) @ np.arange(cap))
    if lay.quit is not None and len(ev.x):
        q0 = lay.quit.start
        g[[q0, *range(q0 + 2, q0 + N_TERMS)]] = ev.x.T @ gu[nr:]
        g[q0 + 1] = sigma * gv[nr:].sum()
    if lay.log_alpha is not None:
        g[lay.log_alpha] = -alpha * beta * gu_r.sum(axis=1) + alpha * sigma * gv_r.sum(axis=1)
    return g


def evaluate(par, lay: Layout, ev: Events, z, logw, *, want: bool = False):
    """``(loglik, grad, u, v, mean, (D, E))`` of the data (no prior); ``mean`` in units of z;
    u, v, mean and D, E only when ``want``."""
    with np.errstate(over="ignore", invalid="ignore"):  # (a step too far: handled below)
        s, c, sigma = _offsets(par, lay, ev)
        eta = s[:, None] * sigma * z[None, :] + c[:, None]
    J = len(s)
    gu, gv = np.zeros(J), np.zeros(J)
    if not np.isfinite(eta).all():
        # a step far outside the data's reach (sigma overflowed: a table every player wins or
        # loses alike): no likelihood there, so the optimiser's line search steps back; the
        # kernel would otherwise divide by the zero sum of a posterior of NaNs
        return -np.inf, np.zeros(lay.size), None, None, None, None
    lp, lq, p = log_expit(eta), log_expit(-eta), expit(eta)
    nnz = len(ev.item) if want else 1
    u, v, mean = np.zeros(nnz), np.zeros(nnz), np.zeros(ev.n_players if want else 1)
    big = len(ev.item) >= THREAD_ENTRIES
    run = _skill_kernels.marginal_threads if big else _skill_kernels.marginal
    total = run(ev.indptr, ev.item, ev.y1, ev.y0, ev.weight, lp, lq, p, z, logw, gu, gv, u, v,
                mean, want)  # fmt: skip
    grad = _gradient(par, lay, ev, s, sigma, gu, gv)
    return total, grad, u, v, mean, (_items(par, lay, ev)[3:] if want else None)


def _offsets(par, lay: Layout, ev: Events):
    """Per item: slope s (on σz) and offset c of the log-odds, and σ."""
    n, cap = lay.n_levels, ATTEMPT_CAP
    beta, sigma = par[lay.beta], float(np.exp(par[lay.log_sigma]))
    alpha = np.exp(par[lay.log_alpha]) if lay.log_alpha is not None else np.ones(n)
    lam = par[lay.learning] if lay.learning is not None else 0.0
    s = np.repeat(alpha, cap)
    c = (-alpha * beta)[:, None] + lam * np.arange(cap)[None, :]
    npat = len(ev.x)
    if lay.quit is not None and npat:
        g = par[lay.quit]
        return np.r_[s, np.full(npat, g[1])], np.r_[c.ravel(), ev.x @ np.r_[g[0], g[2:]]], sigma
    return np.r_[s, np.zeros(npat)], np.r_[c.ravel(), np.zeros(npat)], sigma


def fit(ev: Events, lay: Layout, z, logw, start: NDArray | None = None):
    """Maximise the posterior: ``(params, information, each player's posterior mean ability,
    the optimiser's result)``. ``start``: where L-BFGS starts (a nearby fit's parameters make
    it a few evaluations; the optimum does not depend on it)."""
    res = _optimise(ev, lay, z, logw, start)
    info, mean = _information(res.x, lay, ev, z, logw)
    if ev.inverse is not None:  # back from histories to players
        mean = mean[ev.inverse]
    return res.x, info, mean * float(np.exp(res.x[lay.log_sigma])), res


def _information(par, lay: Layout, ev: Events, z, logw) -> tuple[NDArray, NDArray]:
    """Empirical information (Σ over players of score outer products, a row's counted
    ``weight`` times) plus the prior precision, and every row's posterior mean node.

    Built from blocks of rows (dense scores of one block at a time: bounded memory)."""
    _, _, u, v, mean, (D, E) = evaluate(par, lay, ev, z, logw, want=True)
    info = np.diag(lay.prior_precision())
    assert ev.weight is not None
    for a in range(0, ev.n_players, INFO_BLOCK):
        b = min(a + INFO_BLOCK, ev.n_players)
        lo, hi = ev.indptr[a], ev.indptr[b]
        rows = np.repeat(np.arange(b - a), np.diff(ev.indptr[a : b + 1]))
        shape = (b - a, ev.n_items)
        U = sp.csr_matrix((u[lo:hi], (rows, ev.item[lo:hi])), shape)
        V = sp.csr_matrix((v[lo:hi], (rows, ev.item[lo:hi])), shape)
        scores = (U @ D + V @ E).toarray()
        info += scores.T @ (scores * ev.weight[a:b, None])
    return info, mean


def _optimise(ev: Events, lay: Layout, z, logw, start: NDArray | None):
    """L-BFGS-B on the negative log-posterior (at most 2,000 iterations, 20 correction pairs,
    ``gtol`` 1e-7, ``ftol`` 1e-14).

    Without a ``start``, a table of more than 2·WARM_PLAYERS players starts from the optimum
    of WARM_PLAYERS evenly spaced players (``linspace(0, players − 1)`` rounded; of a collapsed
    table, their rows, each counted as often as it was drawn), in coordinates whitened by that
    subset's information scaled up to the full table (par = start + L⁻ᵀ·y, L·Lᵀ ≈ Hessian;
    ``gtol`` 1e-3 there, a gradient being in standard errors): L-BFGS then starts with nearly
    the right curvature and needs a few full-data evaluations instead of ~80. A smaller table
    starts from each level's first-try log-odds of failing (½ added to wins and to losses, rows
    counted by weight) and, with the quit model, the quit intercept at the log-odds of quitting
    (½ added likewise); every other parameter at 0. The optimum is the same point.
    """
    prec = lay.prior_precision()
    white = None
    if start is None and ev.represented > 2 * WARM_PLAYERS:
        some = np.linspace(0, ev.represented - 1, WARM_PLAYERS).round().astype(np.int64)
        rows, count = np.unique(some if ev.inverse is None else ev.inverse[some],
                                return_counts=True)  # fmt: skip
        sub = ev.subset(rows, count.astype(float))
        start = _optimise(sub, lay, z, logw, None).x
        info = _information(start, lay, sub, z, logw)[0] - np.diag(prec)
        try:
            white = np.linalg.cholesky(info * (ev.represented / WARM_PLAYERS) + np.diag(prec))
        except np.linalg.LinAlgError:
            white = None  # a singular subset: plain coordinates
    if start is None:
        start = np.zeros(lay.size)
        first = ev.item < lay.n_levels * ATTEMPT_CAP
        first &= ev.item % ATTEMPT_CAP == 0
        lv = ev.item[first] // ATTEMPT_CAP
        assert ev.weight is not None
        per = np.repeat(ev.weight, np.diff(ev.indptr))[first]
        w = np.bincount(lv, ev.y1[first] * per, lay.n_levels)
        t = w + np.bincount(lv, ev.y0[first] * per, lay.n_levels)
        rate = (w + 0.5) / (t + 1.0)
        start[lay.beta] = -np.log(rate / (1 - rate))
        if lay.quit is not None and ev.n_decisions:
            q = (ev.n_quits + 0.5) / (ev.n_decisions + 1.0)
            start[lay.quit.start] = np.log(q / (1 - q))

    def f(par):
        total, grad, *_ = evaluate(par, lay, ev, z, logw)
        return -total + 0.5 * prec @ (par * par), -grad + prec * par

    opts = {"maxiter": 2000, "gtol": 1e-7, "ftol": 1e-14, "maxcor": 20}
    if white is None:
        return minimize(f, start, jac=True, method="L-BFGS-B", options=opts)

    def to_par(y):
        return start + solve_triangular(white, y, trans="T", lower=True)

    def f_white(y):
        value, grad = f(to_par(y))
        return value, solve_triangular(white, grad, lower=True)

    # whitened, a gradient is in standard errors: 1e-3 of one is far inside any reported digit,
    # and above the sums' rounding noise (~1e-4 on 1e6 attempts), where L-BFGS would only
    # spend dozens of evaluations on failing line searches
    opts["gtol"] = 1e-3
    res = minimize(f_white, np.zeros(lay.size), jac=True, method="L-BFGS-B", options=opts)
    res.x = to_par(res.x)
    return res


def covariance(info: NDArray) -> NDArray:
    """Inverse information; a (near-)singular one (a level everyone wins, three players) falls
    back to the pseudo-inverse rather than failing."""
    try:
        cov = np.linalg.inv(info)
        if np.isfinite(cov).all() and (np.diag(cov) > 0).all():
            return (cov + cov.T) / 2
    except np.linalg.LinAlgError:
        pass
    cov = np.linalg.pinv(info + 1e-9 * np.eye(len(info)))
    return (cov + cov.T) / 2
