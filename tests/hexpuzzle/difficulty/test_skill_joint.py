"""The joint skill-and-quitting likelihood: its kernel against the plain reference, its gradient
against finite differences, subsets and warm starts."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from labkit.hexpuzzle import telemetry_from_skill
from labkit.hexpuzzle.difficulty import _skill_kernels, skill_joint

IDS = [f"L{i:02d}" for i in range(12)]
BETA = np.linspace(-1.5, 2.0, 12)


def _events(seed=0, players=60, dropout=True):
    theta = np.random.default_rng(seed).normal(0, 1.2, players)
    t = telemetry_from_skill(
        IDS, BETA, theta, rng=seed, max_attempts=3, learning=0.5, quit_ability=1.0
    )
    lvl = np.array([IDS.index(v) for v in t["level"].tolist()])
    players_, pidx = np.unique(t["player"], return_inverse=True)
    ev = skill_joint.events(
        lvl, pidx, t["attempt"], t["won"], len(IDS), len(players_), retries=True, dropout=dropout
    )
    return ev


@pytest.mark.parametrize("name", ["marginal", "marginal_threads"])
def test_kernel_matches_its_plain_reference(name):
    ev = _events()
    lay = skill_joint.Layout(len(IDS), True, True, True)
    par = np.random.default_rng(1).normal(0, 0.3, lay.size)
    z, logw = skill_joint.nodes(11)
    s, c, sigma = skill_joint._offsets(par, lay, ev)
    eta = s[:, None] * sigma * z[None, :] + c[:, None]
    lp, lq, p = np.log(expit(eta)), np.log(expit(-eta)), expit(eta)
    gu, gv = np.zeros(len(s)), np.zeros(len(s))
    u, v, mean = np.zeros(len(ev.item)), np.zeros(len(ev.item)), np.zeros(ev.n_players)
    weight = np.random.default_rng(2).integers(1, 4, ev.n_players).astype(float)
    args = (ev.indptr, ev.item, ev.y1, ev.y0, weight, lp, lq, p, z, logw)
    total = getattr(_skill_kernels, name)(*args, gu, gv, u, v, mean, True)
    ref = _skill_kernels.reference_marginal(*args)
    np.testing.assert_allclose(total, ref[0], rtol=1e-10)
    for got, want in zip((gu, gv, u, v, mean), ref[1:]):
        np.testing.assert_allclose(got, want, atol=1e-10)


@pytest.mark.parametrize(("dropout", "two_pl"), [(True, False), (True, True), (False, False)])
def test_gradient_matches_finite_differences(dropout, two_pl):
    ev = _events(seed=2)  # with decision items: a fit without the quit model ignores them
    lay = skill_joint.Layout(len(IDS), True, dropout, two_pl)
    par = np.random.default_rng(3).normal(0, 0.3, lay.size)
    z, logw = skill_joint.nodes(15)
    _, grad, *_ = skill_joint.evaluate(par, lay, ev, z, logw)
    h = 1e-6
    for i in range(lay.size):
        e = np.zeros(lay.size)
        e[i] = h
        up = skill_joint.evaluate(par + e, lay, ev, z, logw)[0]
        down = skill_joint.evaluate(par - e, lay, ev, z, logw)[0]
        assert grad[i] == pytest.approx((up - down) / (2 * h), rel=1e-4, abs=1e-5)
    # and the sparse derivative matrices used for the information say the same
    _, _, u, v, _, (D, E) = skill_joint.evaluate(par, lay, ev, z, logw, want=True)
    rows = np.repeat(np.arange(ev.n_players), np.diff(ev.indptr))
    scores = np.zeros((ev.n_players, lay.size))
    np.add.at(scores, rows, D[ev.item].toarray() * u[:, None] + E[ev.item].toarray() * v[:, None])
    np.testing.assert_allclose(scores.sum(axis=0), grad, atol=1e-8)


def test_subset_of_every_player_is_the_same_data_and_a_warm_start_the_same_optimum(monkeypatch):
    ev = _events(seed=4, players=80)
    same = ev.subset(np.arange(ev.n_players))
    for name in ("indptr", "item", "y1", "y0"):
        np.testing.assert_array_equal(getattr(same, name), getattr(ev, name))
    assert (same.n_decisions, same.n_quits) == (ev.n_decisions, ev.n_quits)
    lay = skill_joint.Layout(len(IDS), True, True, False)
    z, logw = skill_joint.nodes()
    cold, info = skill_joint.fit(ev, lay, z, logw)[:2]
    se = np.sqrt(np.diag(skill_joint.covariance(info)))
    # a large table starts from a subset's optimum; the answer is the full data's all the same
    # (to a hundredth of a standard error: the whitened fit stops at 1e-3 of one)
    monkeypatch.setattr(skill_joint, "WARM_PLAYERS", 20)
    warm = skill_joint.fit(ev, lay, z, logw)[0]
    assert np.abs(warm - cold).max() > 0  # the warm path did run
    assert np.abs((warm - cold) / se).max() < 0.01


def _table(seed, players):
    theta = np.random.default_rng(seed).normal(0, 1.2, players)
    t = telemetry_from_skill(
        IDS, BETA, theta, rng=seed, max_attempts=3, learning=0.5, quit_ability=1.0
    )
    lvl = np.array([IDS.index(v) for v in t["level"].tolist()])
    _, pidx = np.unique(t["player"], return_inverse=True)
    return lvl, pidx.ravel(), np.asarray(t["attempt"]), np.asarray(t["won"])


def test_a_weighted_subset_is_the_events_of_its_players_each_counted_weight_times():
    lvl, pid, att, won = _table(seed=5, players=40)
    kw = {"retries": True, "dropout": True}
    ev = skill_joint.events(lvl, pid, att, won, len(IDS), 40, **kw)
    rows, w = np.array([3, 7, 8, 20, 39]), np.array([1, 2, 3, 1, 4])
    sub = ev.subset(rows, w)
    assert sub.n_players == 5 and sub.weight.dtype == np.float64
    assert sub.patterns is ev.patterns and sub.x is ev.x  # the decision patterns stay
    assert sub.weight.tolist() == [1.0, 2.0, 3.0, 1.0, 4.0]
    for k, r in enumerate(rows):  # each row's entries as they were
        a, b, c, d = ev.indptr[r], ev.indptr[r + 1], sub.indptr[k], sub.indptr[k + 1]
        for name in ("item", "y1", "y0"):
            np.testing.assert_array_equal(getattr(sub, name)[c:d], getattr(ev, name)[a:b])
    # the same players written out weight times, as their own table (same campaign end)
    keep = [np.flatnonzero(pid == r) for r in rows for _ in range(w[list(rows).index(r)])]
    copy = np.concatenate([np.full(len(ix), j) for j, ix in enumerate(keep)])
    ix = np.concatenate(keep)
    last = int(lvl.max())
    ends = (last, len(np.unique(lvl)))
    out = skill_joint.events(lvl[ix], copy, att[ix], won[ix], len(IDS), len(keep), ends=ends, **kw)
    assert (sub.n_decisions, sub.n_quits) == (out.n_decisions, out.n_quits)
    np.testing.assert_array_equal(sub.counts, out.counts)
    assert sub.n_decisions > 0 and sub.n_quits > 0


def test_a_subset_keeps_the_rows_weights_by_default_and_may_be_empty():
    ev = _events(seed=6, players=30)
    ev.weight = np.arange(1.0, 31.0)
    sub = ev.subset(np.array([0, 29]))
    assert sub.weight.tolist() == [1.0, 30.0]
    ev.weight = np.ones(30)
    np.testing.assert_array_equal(ev.subset(np.arange(30)).counts, ev.counts)  # from the rows
    empty = ev.subset(np.zeros(0, np.int64))
    assert (empty.n_players, len(empty.item), empty.n_decisions, empty.n_quits) == (0, 0, 0, 0)
    assert empty.indptr.tolist() == [0] and empty.counts.tolist() == [0.0] * len(IDS)


def test_fit_gives_each_players_posterior_mean_ability_and_starts_where_asked():
    from scipy.special import log_expit

    ev = _events(seed=7, players=50)
    lay = skill_joint.Layout(len(IDS), True, True, False)
    z, logw = skill_joint.nodes()
    par, _, mean, res = skill_joint.fit(ev, lay, z, logw)
    sigma = float(np.exp(par[lay.log_sigma]))
    assert abs(np.log(sigma)) > 0.05  # σ far enough from 1 to tell θ from z
    s, c, _ = skill_joint._offsets(par, lay, ev)
    for i in range(ev.n_players):  # E[θ | the player's data], by the quadrature itself
        a, b = ev.indptr[i], ev.indptr[i + 1]
        it = ev.item[a:b]
        eta = s[it, None] * sigma * z[None, :] + c[it, None]
        ll = (ev.y1[a:b, None] * log_expit(eta) + ev.y0[a:b, None] * log_expit(-eta)).sum(0)
        post = np.exp(ll + logw - (ll + logw).max())
        assert mean[i] == pytest.approx((post * sigma * z).sum() / post.sum(), abs=1e-8)
    # started at its own optimum, L-BFGS has next to nothing left to do
    again = skill_joint.fit(ev, lay, z, logw, start=par)
    assert again[3].nfev <= 3 < res.nfev
    np.testing.assert_allclose(again[0], par, atol=1e-5)


# --- the optimiser's rules (_optimise docstring) and the covariance ----------------------------
class _Minimize:
    """scipy's minimize, recording each call's start, method, options and objective."""

    def __init__(self, monkeypatch):
        from scipy.optimize import minimize

        self.calls, self.real = [], minimize
        monkeypatch.setattr(skill_joint, "minimize", self)

    def __call__(self, f, x0, **kw):
        self.calls.append({"f": f, "x0": np.array(x0), **kw})
        return self.real(f, x0, **kw)


def test_a_small_table_starts_from_each_levels_first_try_log_odds(monkeypatch):
    ev = _events(seed=8, players=60)
    ev.weight = np.random.default_rng(0).integers(1, 4, ev.n_players).astype(float)
    lay = skill_joint.Layout(len(IDS), True, True, False)
    z, logw = skill_joint.nodes()
    mini = _Minimize(monkeypatch)
    skill_joint.fit(ev, lay, z, logw)
    [call] = mini.calls
    x0 = call["x0"]
    # by hand: each player's first attempt at each level, counted by the row's weight
    cap = skill_joint.ATTEMPT_CAP
    wins, tries = np.zeros(len(IDS)), np.zeros(len(IDS))
    for p in range(ev.n_players):
        for k in range(ev.indptr[p], ev.indptr[p + 1]):
            it = ev.item[k]
            if it < len(IDS) * cap and it % cap == 0:
                wins[it // cap] += ev.weight[p] * ev.y1[k]
                tries[it // cap] += ev.weight[p] * (ev.y1[k] + ev.y0[k])
    fail = (tries - wins + 0.5) / (wins + 0.5)
    np.testing.assert_allclose(x0[lay.beta], np.log(fail), rtol=1e-12)
    q = (ev.n_quits + 0.5) / (ev.n_decisions - ev.n_quits + 0.5)
    assert x0[lay.quit.start] == pytest.approx(np.log(q), rel=1e-12)
    rest = np.ones(lay.size, bool)
    rest[lay.beta], rest[lay.quit.start] = False, False
    assert not x0[rest].any()
    assert call["method"] == "L-BFGS-B" and call["jac"] is True
    assert call["options"] == {"maxiter": 2000, "gtol": 1e-7, "ftol": 1e-14, "maxcor": 20}
    # the objective: minus the log-likelihood plus the prior's ½·Σ precision·par², and its gradient
    par = np.random.default_rng(1).normal(0, 0.3, lay.size)
    value, grad = call["f"](par)
    total, g = skill_joint.evaluate(par, lay, ev, z, logw)[:2]
    prec = lay.prior_precision()
    assert value == pytest.approx(-total + 0.5 * np.sum(prec * par**2), rel=1e-12)
    np.testing.assert_allclose(grad, -g + prec * par, rtol=1e-12)


@pytest.mark.parametrize("decisions", [False, True])
def test_without_a_quit_model_only_the_levels_start_away_from_zero(monkeypatch, decisions):
    ev = _events(seed=9, players=40, dropout=decisions)  # decision items, or none
    lay = skill_joint.Layout(len(IDS), True, False, False)
    mini = _Minimize(monkeypatch)
    skill_joint.fit(ev, lay, *skill_joint.nodes(21))
    x0 = mini.calls[0]["x0"]
    assert x0[lay.beta].all() and not x0[len(IDS) :].any()


def test_a_subset_whose_information_is_not_positive_definite_starts_in_plain_coordinates(
    monkeypatch,
):
    ev = _events(seed=10, players=200)
    monkeypatch.setattr(skill_joint, "WARM_PLAYERS", 50)

    def singular(matrix):
        raise np.linalg.LinAlgError("not positive definite")

    monkeypatch.setattr(skill_joint.np.linalg, "cholesky", singular)
    mini = _Minimize(monkeypatch)
    lay = skill_joint.Layout(len(IDS), True, True, False)
    z, logw = skill_joint.nodes(21)
    par = skill_joint.fit(ev, lay, z, logw)[0]
    sub_fit, plain = mini.calls
    # the full fit starts at the subset's optimum, in the model's own coordinates
    assert plain["x0"].any() and plain["options"]["gtol"] == 1e-7
    monkeypatch.setattr(skill_joint, "WARM_PLAYERS", 10**6)
    cold = skill_joint.fit(ev, lay, z, logw)[0]
    np.testing.assert_allclose(par, cold, atol=1e-4)


@pytest.mark.parametrize("collapsed", [False, True])
def test_a_large_table_starts_from_evenly_spaced_players_in_whitened_coordinates(
    monkeypatch, collapsed
):
    from labkit.hexpuzzle.difficulty.skill_stats import collapse

    ev = _events(seed=10, players=600)
    if collapsed:
        ev = collapse(ev)
    monkeypatch.setattr(skill_joint, "WARM_PLAYERS", 150)
    subsets = []
    real, evaluate, full = skill_joint.Events.subset, skill_joint.evaluate, []

    def subset(self, rows, w=None):
        subsets.append((rows, w))
        return real(self, rows, w)

    def counting(par, lay, e, *a, **k):
        if e.n_players == ev.n_players:
            full.append(1)
        return evaluate(par, lay, e, *a, **k)

    monkeypatch.setattr(skill_joint.Events, "subset", subset)
    monkeypatch.setattr(skill_joint, "evaluate", counting)
    mini = _Minimize(monkeypatch)
    lay = skill_joint.Layout(len(IDS), True, True, False)
    z, logw = skill_joint.nodes()
    warm = skill_joint.fit(ev, lay, z, logw)
    n_warm = len(full)
    [(rows, w)] = subsets
    some = np.linspace(0, 599, 150).round().astype(np.int64)
    picked = some if ev.inverse is None else ev.inverse[some]
    want_rows, want_w = np.unique(picked, return_counts=True)
    np.testing.assert_array_equal(rows, want_rows)
    np.testing.assert_array_equal(w, want_w.astype(float))
    assert w.dtype == np.float64
    sub_fit, white = mini.calls  # the subset's own fit, then the whitened full fit
    assert not white["x0"].any() and white["options"]["gtol"] == 1e-3
    assert white["method"] == "L-BFGS-B" and white["options"]["maxcor"] == 20
    # whitened: a few full-data evaluations (measured: 14, against 68 from a cold start)
    assert n_warm <= 20, n_warm
    # and the optimum is the full data's: a cold fit agrees to a hundredth of a standard error
    monkeypatch.setattr(skill_joint, "WARM_PLAYERS", 10**6)
    cold = skill_joint.fit(ev, lay, z, logw)
    se = np.sqrt(np.diag(skill_joint.covariance(cold[1])))
    assert np.abs((warm[0] - cold[0]) / se).max() < 0.01
    assert cold[3].nfev > 3 * n_warm


def test_the_warm_start_begins_above_twice_its_subset_size(monkeypatch):
    ev = _events(seed=11, players=300)
    lay = skill_joint.Layout(len(IDS), True, True, False)
    z, logw = skill_joint.nodes(21)
    for warm, subset_size in ((False, 150), (True, 149)):  # 300: not above 2·150; above 2·149
        monkeypatch.setattr(skill_joint, "WARM_PLAYERS", subset_size)
        mini = _Minimize(monkeypatch)
        skill_joint.fit(ev, lay, z, logw)
        assert len(mini.calls) == (2 if warm else 1)
    mini = _Minimize(monkeypatch)  # a start given: no warm start, L-BFGS from there
    start = np.full(lay.size, 0.1)
    skill_joint.fit(ev, lay, z, logw, start=start)
    assert len(mini.calls) == 1 and (mini.calls[0]["x0"] == start).all()


def test_covariance_is_the_inverse_information_made_symmetric():
    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    np.testing.assert_allclose(skill_joint.covariance(a), np.linalg.inv(a), rtol=1e-12)
    b = a + np.array([[0, 1e-3, 0], [0, 0, 0], [0, 0, 0]])  # rounding made it lopsided
    cov = skill_joint.covariance(b)
    np.testing.assert_array_equal(cov, cov.T)
    inv = np.linalg.inv(b)
    np.testing.assert_allclose(cov, (inv + inv.T) / 2, rtol=1e-12)


@pytest.mark.parametrize(
    "info",
    [
        np.array([[1.0, 0.0], [0.0, 0.0]]),  # singular: inv raises
        np.array([[1.0, 2.0], [2.0, 1.0]]),  # invertible, but a negative variance
        np.array([[1.0, 0.0], [0.0, 1e-320]]),  # an infinite variance
    ],
)
def test_a_singular_or_indefinite_information_falls_back_to_the_pseudo_inverse(info):
    cov = skill_joint.covariance(info)
    want = np.linalg.pinv(info + 1e-9 * np.eye(2))
    np.testing.assert_allclose(cov, (want + want.T) / 2, rtol=1e-9)
    assert np.isfinite(cov).all()
