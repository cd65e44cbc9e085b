"""labkit.hexpuzzle.difficulty.skill_fit against plain references written from its docstring.

Stage 1: the Rasch model P(win) = σ(θ − β_l), θ ~ N(0, σ²) integrated by Gauss–Hermite
quadrature (checked here by explicit loops over players, levels and nodes); gradients are those
of Σ log marginal (checked by finite differences); the information is Σ_p s_p s_pᵀ.
Stage 2: the LLTM as a Gaussian random-effects model β̂ ~ N(β, V), β = Xγ + r, r ~ N(0, τ²I),
γ ~ N(0, c²I) (checked in precision form, the module works in covariance form).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit.hexpuzzle.difficulty import skill_fit as sf

# -- quadrature -----------------------------------------------------------------------------------


def test_gauss_hermite_integrates_normal_moments():
    z, logw = sf.gauss_hermite()
    assert sf.NODES == 21 and len(z) == 21 and len(logw) == 21
    w = np.exp(logw)
    assert w.sum() == pytest.approx(1.0, abs=1e-13)
    assert (w * z).sum() == pytest.approx(0.0, abs=1e-13)
    assert (w * z**2).sum() == pytest.approx(1.0, abs=1e-12)
    assert (w * z**4).sum() == pytest.approx(3.0, abs=1e-11)  # E Z^4 of a standard normal
    z5, logw5 = sf.gauss_hermite(5)
    assert len(z5) == 5 and np.exp(logw5).sum() == pytest.approx(1.0)
    assert (np.exp(logw5) * z5**2).sum() == pytest.approx(1.0)


# -- a small data set and its plain reference -----------------------------------------------------

LEVEL = np.array([0, 1, 2, 0, 1, 0, 2, 2, 1, 0, 1])
PLAYER = np.array([0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
WON = np.array([1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 0])
L, P = 3, 5


def data():
    return sf.Responses(LEVEL, PLAYER, WON, L, P)


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def log_marginals(beta, sigma, z, logw):
    """log ∫ Π_attempts P(y | θ) dN(θ; 0, σ²) per player, by explicit loops."""
    out = []
    for p in range(P):
        terms = []
        for zk, lw in zip(z, logw):
            ll = 0.0
            for lev, pl, y in zip(LEVEL, PLAYER, WON):
                if pl == p:
                    q = sigmoid(sigma * zk - beta[lev])
                    ll += math.log(q if y else 1 - q)
            terms.append(ll + lw)
        m = max(terms)
        out.append(m + math.log(sum(math.exp(t - m) for t in terms)))
    return np.array(out)


BETA = np.array([-0.4, 0.3, 1.1])
SIGMA = 1.3


def test_responses_count_wins_and_losses_per_player_and_level():
    d = data()
    wins, losses = d.wins.toarray(), d.losses.toarray()
    assert wins.shape == (P, L) and (d.n_levels, d.n_players) == (L, P)
    expected_w, expected_l = np.zeros((P, L)), np.zeros((P, L))
    for lev, pl, y in zip(LEVEL, PLAYER, WON):
        (expected_w if y else expected_l)[pl, lev] += 1
    assert np.array_equal(wins, expected_w) and np.array_equal(losses, expected_l)
    assert np.array_equal(d.wins_t.toarray(), expected_w.T)
    assert np.array_equal(d.losses_t.toarray(), expected_l.T)
    assert d.level.dtype == np.int64 and d.player.dtype == np.int64 and d.won.dtype == np.float64
    # a level with no attempts and a player with none still have their row / column
    wide = sf.Responses([0], [0], [1], 4, 2)
    assert wide.wins.shape == (2, 4) and wide.losses.toarray().sum() == 0


def test_posterior_matches_the_plain_marginal_likelihood():
    z, logw = sf.gauss_hermite()
    post, marg, p_win = data().posterior(BETA, SIGMA, z, logw)
    assert marg == pytest.approx(log_marginals(BETA, SIGMA, z, logw), abs=1e-12)
    assert p_win.shape == (L, len(z))
    assert p_win[2, 4] == pytest.approx(sigmoid(SIGMA * z[4] - BETA[2]), abs=1e-15)
    assert post.shape == (P, len(z)) and post.sum(axis=1) == pytest.approx(np.ones(P))
    # player 3: a win on level 2 and a loss on level 1
    k = 7
    joint = [
        math.log(sigmoid(SIGMA * zk - BETA[2])) + math.log(1 - sigmoid(SIGMA * zk - BETA[1])) + lw
        for zk, lw in zip(z, logw)
    ]
    assert post[3, k] == pytest.approx(math.exp(joint[k] - np.logaddexp.reduce(joint)), rel=1e-12)


def total(beta, ls, z, logw):
    return log_marginals(beta, math.exp(ls), z, logw).sum()


def test_gradients_are_those_of_the_summed_log_marginal():
    z, logw = sf.gauss_hermite()
    d = data()
    post, _, p_win = d.posterior(BETA, SIGMA, z, logw)
    g_beta, g_ls = d.gradients(post, p_win, SIGMA, z)
    h, ls = 1e-6, math.log(SIGMA)
    for lev in range(L):
        e = np.zeros(L)
        e[lev] = h
        fd = (total(BETA + e, ls, z, logw) - total(BETA - e, ls, z, logw)) / (2 * h)
        assert g_beta[lev] == pytest.approx(fd, abs=1e-7)
    fd = (total(BETA, ls + h, z, logw) - total(BETA, ls - h, z, logw)) / (2 * h)
    assert g_ls == pytest.approx(fd, abs=1e-7)
    assert isinstance(g_ls, float)


def test_player_scores_are_each_players_gradient():
    z, logw = sf.gauss_hermite()
    d = data()
    post, _, p_win = d.posterior(BETA, SIGMA, z, logw)
    scores = d.player_scores(post, p_win, SIGMA, z).toarray()
    assert scores.shape == (P, L + 1)
    h, ls = 1e-6, math.log(SIGMA)
    for lev in range(L + 1):
        e = np.zeros(L)
        if lev < L:
            e[lev] = h
            up = log_marginals(BETA + e, SIGMA, z, logw)
            down = log_marginals(BETA - e, SIGMA, z, logw)
        else:
            up = log_marginals(BETA, math.exp(ls + h), z, logw)
            down = log_marginals(BETA, math.exp(ls - h), z, logw)
        assert scores[:, lev] == pytest.approx((up - down) / (2 * h), abs=1e-7)
    info = sf.empirical_information(d, BETA, ls, z, logw)
    assert info == pytest.approx(scores.T @ scores, abs=1e-12)


def test_abilities_are_posterior_means_and_sds():
    z, logw = sf.gauss_hermite()
    d = data()
    mean, sd = sf.abilities(d, BETA, math.log(SIGMA), z, logw)
    post, _, _ = d.posterior(BETA, SIGMA, z, logw)
    theta = SIGMA * z
    for p in range(P):
        m = (post[p] * theta).sum()
        assert mean[p] == pytest.approx(m, abs=1e-12)
        assert sd[p] == pytest.approx(math.sqrt((post[p] * (theta - m) ** 2).sum()), abs=1e-9)
    assert mean[0] < mean[4] < mean[1]  # 1 of 3, 1 of 2, 2 of 2 won
    # one node only: every posterior is that node, the sd is 0 (never NaN from rounding)
    one = sf.abilities(d, BETA, 0.0, np.array([0.7]), np.array([0.0]))
    assert np.array_equal(one[0], np.full(P, 0.7)) and np.array_equal(one[1], np.zeros(P))


def simulated(seed=5, players=400, levels=4):
    rng = np.random.default_rng(seed)
    beta = np.linspace(-1.0, 1.0, levels)
    theta = rng.normal(0.0, 0.8, players)
    player = np.repeat(np.arange(players), levels)
    level = np.tile(np.arange(levels), players)
    won = (rng.random(player.size) < 1 / (1 + np.exp(-(theta[player] - beta[level])))).astype(int)
    return sf.Responses(level, player, won, levels, players), beta


def test_marginal_fit_maximises_the_penalised_marginal_likelihood():
    d, truth = simulated()
    z, logw = sf.gauss_hermite()
    beta, ls, info = sf.marginal_fit(d, z, logw)
    assert beta == pytest.approx(truth, abs=0.25)  # 400 players, known truth
    assert math.exp(ls) == pytest.approx(0.8, abs=0.35)
    # the optimum: the penalised gradient vanishes
    post, _, p_win = d.posterior(beta, math.exp(ls), z, logw)
    g_beta, g_ls = d.gradients(post, p_win, math.exp(ls), z)
    prec = 1 / sf.BETA_PRIOR_SD**2
    assert np.abs(g_beta - prec * beta).max() < 1e-4 and abs(g_ls) < 1e-4
    expected = sf.empirical_information(d, beta, ls, z, logw) + np.diag([prec] * 4 + [0.0])
    assert info == pytest.approx(expected, abs=1e-9)
    # the start does not change the optimum
    again, ls2, _ = sf.marginal_fit(d, z, logw, beta0=np.zeros(4))
    assert again == pytest.approx(beta, abs=1e-4) and ls2 == pytest.approx(ls, abs=1e-4)


def test_a_level_everyone_wins_stays_finite_by_its_prior():
    level = np.array([0, 1, 0, 1, 0, 1])
    player = np.array([0, 0, 1, 1, 2, 2])
    won = np.array([1, 1, 1, 0, 1, 1])
    d = sf.Responses(level, player, won, 2, 3)
    z, logw = sf.gauss_hermite()
    beta, ls, _ = sf.marginal_fit(d, z, logw)
    assert np.isfinite(beta).all() and beta[0] < beta[1]
    assert sf.BETA_PRIOR_SD == 5.0 and beta[0] > -3 * sf.BETA_PRIOR_SD


# -- stage 2 --------------------------------------------------------------------------------------


def precision_form(est, V, X, X_new, tau2, c2=sf.GAMMA_PRIOR_SD**2):
    """The posterior of (γ, r) given est, from the joint precision (no covariance algebra)."""
    n, p = X.shape
    D = np.hstack([X, np.eye(n)])  # β = D (γ, r)
    prior_prec = np.diag([1 / c2] * p + [1 / tau2] * n)
    Vi = np.linalg.inv(V)
    cov = np.linalg.inv(prior_prec + D.T @ Vi @ D)
    mean = cov @ D.T @ Vi @ est
    beta, beta_cov = D @ mean, D @ cov @ D.T
    gamma, gamma_cov = mean[:p], cov[:p, :p]
    var_new = np.array([x @ gamma_cov @ x for x in X_new]) + tau2
    return beta, beta_cov, X_new @ gamma, var_new, gamma, gamma_cov


X3 = np.array([[1.0, 0.2], [1.0, 0.5], [1.0, 0.9]])
V3 = np.array([[0.3, 0.05, 0.0], [0.05, 0.2, 0.01], [0.0, 0.01, 0.4]])
EST3 = np.array([-0.5, 0.4, 1.2])
NEW = np.array([[1.0, 0.0], [1.0, 1.5]])


def test_lltm_with_too_few_levels_for_tau_uses_tau_one():
    got = sf.lltm(EST3, V3, X3, NEW)  # 3 levels, 2 coefficients: no REML, τ² = 1
    want = precision_form(EST3, V3, X3, NEW, 1.0)
    assert got[6] == 1.0
    for a, b in zip(got[:6], want):
        assert np.asarray(a) == pytest.approx(b, abs=1e-9)
    assert np.array_equal(got[1], got[1].T)
    assert sf.GAMMA_PRIOR_SD == 10.0


def reml_plain(tau2, est, V, X, c2=sf.GAMMA_PRIOR_SD**2):
    """-log of the restricted likelihood, γ's weak prior as an extra block (to a constant)."""
    n, p = X.shape
    S = V + tau2 * np.eye(n)
    Si = np.linalg.inv(S)
    M = X.T @ Si @ X + np.eye(p) / c2
    g = np.linalg.solve(M, X.T @ Si @ est)
    r = est - X @ g
    return 0.5 * (np.log(np.linalg.det(S)) + np.log(np.linalg.det(M)) + r @ Si @ r)


def test_reml_criterion_and_tau_at_its_minimum():
    rng = np.random.default_rng(2)
    n = 8
    X = np.column_stack([np.ones(n), rng.uniform(0, 1, n)])
    V = np.diag(rng.uniform(0.05, 0.2, n))
    est = X @ np.array([0.2, 1.0]) + rng.normal(0, 0.6, n)
    for tau2 in (0.01, 0.3, 2.0):
        assert sf._reml(tau2, est, V, X) == pytest.approx(reml_plain(tau2, est, V, X), abs=1e-10)
    got = sf.lltm(est, V, X, NEW)
    tau = got[6]
    assert 0.05 < tau < 3.0
    best = reml_plain(tau**2, est, V, X)
    for f in (0.9, 1.1):
        assert best <= reml_plain((tau * f) ** 2, est, V, X) + 1e-9
    want = precision_form(est, V, X, NEW, tau**2)
    for a, b in zip(got[:6], want):
        assert np.asarray(a) == pytest.approx(b, abs=1e-8)


def test_reml_tau_is_held_to_its_bounds():
    n = 6
    X = np.column_stack([np.ones(n), np.linspace(0, 1, n)])
    V = np.eye(n) * 0.5
    flat = X @ np.array([0.3, 0.7])  # exactly on the line: τ at the lower bound, e^-6
    assert sf.lltm(flat, V, X, NEW)[6] == pytest.approx(math.exp(-6.0), rel=1e-3)
    wild = np.array([-30.0, 30.0, -30.0, 30.0, -30.0, 30.0])  # τ² capped at e^3
    assert sf.lltm(wild, V * 0.01, X, NEW)[6] == pytest.approx(math.exp(1.5), rel=1e-3)


# -- what the first mutation run left alive (scripts/mutate.py skill-fit) -------------------------


def test_indices_of_any_integer_or_float_type_are_read_as_int64():
    d = sf.Responses(LEVEL.astype(np.int32), PLAYER.astype(float), WON, L, P)
    assert d.level.dtype == np.int64 and d.player.dtype == np.int64
    z, logw = sf.gauss_hermite(7)
    a = sf.marginal_fit(d, z, logw)
    b = sf.marginal_fit(data(), z, logw)
    assert np.array_equal(a[0], b[0]) and a[1] == b[1]


def test_count_matrices_keep_their_shape_when_the_last_player_or_level_has_no_losses():
    d = sf.Responses([0, 1], [0, 1], [0, 1], 3, 4)  # player 1 / level 1 only won; 2, 3 unseen
    assert d.wins.shape == (4, 3) and d.losses.shape == (4, 3)
    assert d.wins_t.shape == (3, 4) and d.losses_t.shape == (3, 4)


def test_a_level_nobody_played_keeps_its_prior_difficulty_zero():
    d, _ = simulated(players=60, levels=3)
    keep = d.level < 2
    sub = sf.Responses(d.level[keep], d.player[keep], d.won[keep], 3, d.n_players)
    z, logw = sf.gauss_hermite()
    beta, ls, info = sf.marginal_fit(sub, z, logw)
    assert beta[2] == pytest.approx(0.0, abs=1e-6)  # no data: the N(0, 5²) prior's mode
    assert info[2, 2] == pytest.approx(1 / sf.BETA_PRIOR_SD**2)  # the prior's precision only
    assert np.isfinite(beta).all() and beta[0] < beta[1]


def test_two_levels_more_than_coefficients_already_estimate_tau():
    X = np.array([[1.0, 0.0], [1.0, 0.3], [1.0, 0.7], [1.0, 1.0]])
    V = np.eye(4) * 0.05
    est = np.array([0.0, 1.5, -0.5, 1.0])  # far off any line: τ well above 0
    tau = sf.lltm(est, V, X, NEW)[6]
    assert tau != 1.0 and 0.2 < tau < 3.0
    best = reml_plain(tau**2, est, V, X)
    for f in (0.9, 1.1):
        assert best <= reml_plain((tau * f) ** 2, est, V, X) + 1e-9
