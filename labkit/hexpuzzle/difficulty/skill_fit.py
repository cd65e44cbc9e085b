"""The numerics behind :func:`~labkit.hexpuzzle.difficulty.skill.fit_skill_model` (private).

Stage 1 of the fit is now :mod:`.skill_joint` (responses, retries and quitting, kernelised);
:func:`marginal_fit` below is the first-attempts-only Rasch fit it replaced, kept as the plain
reference the tests compare gradients against. Stage 2, :func:`lltm`, is still used.

Stage 1, :func:`marginal_fit`: marginal maximum likelihood of the Rasch model
P(y = 1) = σ(θ − β_l) with θ ~ N(0, σ²) integrated out by Gauss–Hermite quadrature; the level
difficulties β and log σ are found by L-BFGS with the analytic gradient (Fisher's identity: the
gradient of a marginal log-likelihood is the posterior mean of the complete-data gradient).

Stage 2, :func:`lltm`: the linear logistic test model with a shrunken residual, as a Gaussian
random-effects meta-regression of the stage-1 estimates: β̂ ~ N(β, V), β = Xγ + r,
r ~ N(0, τ² I), γ ~ N(0, c² I) with a weak c; τ by restricted maximum likelihood. Levels without
telemetry get β = x·γ with variance x Var(γ) xᵀ + τ².
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.optimize import minimize, minimize_scalar
from scipy.special import expit, log_expit, logsumexp

NODES = 21
#: Prior sd of each free stage-1 difficulty (keeps a level everyone wins finite).
BETA_PRIOR_SD = 5.0
#: Prior sd of the LLTM coefficients (baseline and weights, logits at full strength).
GAMMA_PRIOR_SD = 10.0


def gauss_hermite(n: int = NODES) -> tuple[NDArray, NDArray]:
    """Nodes z and log weights for E[f(Z)], Z ~ N(0, 1)."""
    z, w = np.polynomial.hermite_e.hermegauss(n)
    return z, np.log(w / w.sum())


class Responses:
    """First attempts as index arrays: ``level`` (0..L-1), ``player`` (0..P-1), ``won``.

    The linear predictor σz_k − β_l depends on the level and the node only, so every sum over
    attempts is a product of the sparse win / loss count matrices (players × levels) with an
    (levels × nodes) table: the cost grows with players × nodes, not attempts × nodes.
    """

    def __init__(
        self, level: NDArray, player: NDArray, won: NDArray, n_levels: int, n_players: int
    ) -> None:
        self.level = np.asarray(level, dtype=np.int64)
        self.player = np.asarray(player, dtype=np.int64)
        self.won = np.asarray(won, dtype=np.float64)
        self.n_levels, self.n_players = int(n_levels), int(n_players)
        shape = (self.n_players, self.n_levels)
        self.wins = sp.csr_matrix((self.won, (self.player, self.level)), shape=shape)
        self.losses = sp.csr_matrix((1.0 - self.won, (self.player, self.level)), shape=shape)
        self.wins_t, self.losses_t = self.wins.T.tocsr(), self.losses.T.tocsr()

    def posterior(self, beta: NDArray, sigma: float, z: NDArray, logw: NDArray):
        """Posterior weights over nodes per player (P × K), log marginals, σ(η) (L × K)."""
        eta = sigma * z[None, :] - beta[:, None]
        ll = self.wins @ log_expit(eta) + self.losses @ log_expit(-eta)
        joint = ll + logw[None, :]
        marg = logsumexp(joint, axis=1)
        return np.exp(joint - marg[:, None]), marg, expit(eta)

    def gradients(self, post: NDArray, p_win: NDArray, sigma: float, z: NDArray):
        """Gradient of Σ log marginal w.r.t. β (L,) and log σ (scalar)."""
        # (levels × nodes): posterior-weighted d loglik / d eta summed over players
        g = (self.wins_t @ post) * (1.0 - p_win) - (self.losses_t @ post) * p_win
        return -g.sum(axis=1), float(sigma * (g @ z).sum())

    def player_scores(self, post: NDArray, p_win: NDArray, sigma: float, z: NDArray):
        """Each player's score vector (P × (L+1)): d log marginal_p / d (β, log σ)."""
        a = self.wins.multiply(post @ (1.0 - p_win).T) - self.losses.multiply(post @ p_win.T)
        a = sp.csr_matrix(a)
        zs = sigma * z
        b = self.wins.multiply(post @ ((1.0 - p_win) * zs).T) - self.losses.multiply(
            post @ (p_win * zs).T
        )
        return sp.hstack([-a, sp.csr_matrix(b.sum(axis=1))]).tocsr()


def marginal_fit(data: Responses, z: NDArray, logw: NDArray, beta0: NDArray | None = None):
    """Stage 1: ``(beta, log_sigma, info)``, info the empirical (cross-product) information."""
    n = data.n_levels
    counts = np.bincount(data.level, minlength=n).astype(float)
    prec = 1.0 / BETA_PRIOR_SD**2

    def f(params: NDArray):
        beta, ls = params[:n], params[n]
        sigma = np.exp(ls)
        post, marg, p_win = data.posterior(beta, sigma, z, logw)
        g_beta, g_ls = data.gradients(post, p_win, sigma, z)
        value = -marg.sum() + 0.5 * prec * beta @ beta
        return value, np.concatenate([-g_beta + prec * beta, [-g_ls]])

    if beta0 is None:
        rate = (np.bincount(data.level, weights=data.won, minlength=n) + 0.5) / (counts + 1.0)
        beta0 = -np.log(rate / (1 - rate))
    x0 = np.concatenate([beta0, [0.0]])
    res = minimize(f, x0, jac=True, method="L-BFGS-B", options={"maxiter": 500, "gtol": 1e-7})
    beta, ls = res.x[:n], float(res.x[n])
    info = empirical_information(data, beta, ls, z, logw) + np.diag([prec] * n + [0.0])
    return beta, ls, info


def empirical_information(data: Responses, beta, ls, z, logw) -> NDArray:
    """Σ over players of s_p s_pᵀ, s_p the player's score vector (consistent for the Fisher
    information and free of second derivatives)."""
    sigma = np.exp(ls)
    post, _, p_win = data.posterior(beta, sigma, z, logw)
    scores = data.player_scores(post, p_win, sigma, z)
    return (scores.T @ scores).toarray()


def abilities(data: Responses, beta, ls, z, logw) -> tuple[NDArray, NDArray]:
    """Posterior mean and sd of every player's ability (EAP)."""
    sigma = np.exp(ls)
    post, _, _ = data.posterior(beta, sigma, z, logw)
    mean = post @ (sigma * z)
    sd = np.sqrt(np.maximum(post @ (sigma * z) ** 2 - mean**2, 0.0))
    return mean, sd


def _reml(tau2: float, est: NDArray, V: NDArray, X: NDArray) -> float:
    S = V + tau2 * np.eye(len(est))
    L = np.linalg.cholesky(S)
    Si_X = np.linalg.solve(S, X)
    XtSiX = X.T @ Si_X + np.eye(X.shape[1]) / GAMMA_PRIOR_SD**2  # the weak prior on γ
    gamma = np.linalg.solve(XtSiX, Si_X.T @ est)
    r = est - X @ gamma
    _, logdet_x = np.linalg.slogdet(XtSiX)
    return 0.5 * (2 * np.log(np.diag(L)).sum() + logdet_x + r @ np.linalg.solve(S, r))


def lltm(est: NDArray, V: NDArray, X: NDArray, X_new: NDArray):
    """Stage 2. ``est``/``V``: stage-1 difficulties and covariance of the levels with data,
    ``X``: their design (a column of ones, then strengths); ``X_new``: levels without data.

    Returns ``(beta, cov, beta_new, var_new, gamma, gamma_cov, tau)``.
    """
    p = X.shape[1]
    if len(est) > p + 1:
        res = minimize_scalar(
            lambda lt: _reml(np.exp(lt), est, V, X), bounds=(-12.0, 3.0), method="bounded"
        )
        tau2 = float(np.exp(res.x))
    else:
        tau2 = 1.0
    # In information form: γ | est ~ N(γ̂, Γ) with Γ = (Xᵀ S⁻¹ X + I/c²)⁻¹, S = V + τ² I, and
    # β | est, γ ~ N(V S⁻¹ X γ + τ² S⁻¹ est, τ² I − τ⁴ S⁻¹). The same numbers as the covariance
    # form A − A (A + V)⁻¹ A with A = c² X Xᵀ + τ² I, without its cancellation: with features
    # on a large scale (a par time in seconds, issue 49) that form gave Γ a negative variance.
    n = len(est)
    S = V + tau2 * np.eye(n)
    Si = np.linalg.solve(S, np.eye(n))
    Si = (Si + Si.T) / 2
    gamma_cov = np.linalg.inv(X.T @ Si @ X + np.eye(p) / GAMMA_PRIOR_SD**2)
    gamma = gamma_cov @ (X.T @ Si @ est)
    M = V @ Si @ X  # how β's mean moves with γ
    beta = M @ gamma + tau2 * Si @ est
    cov = tau2 * np.eye(n) - tau2 * tau2 * Si + M @ gamma_cov @ M.T
    beta_new = X_new @ gamma
    var_new = np.einsum("ij,jk,ik->i", X_new, gamma_cov, X_new) + tau2
    gamma_cov = (gamma_cov + gamma_cov.T) / 2  # symmetric as a covariance is (the file checks)
    return beta, (cov + cov.T) / 2, beta_new, var_new, gamma, gamma_cov, float(np.sqrt(tau2))
