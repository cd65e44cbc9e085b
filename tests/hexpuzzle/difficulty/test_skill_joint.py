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


@pytest.mark.parametrize("two_pl", [False, True])
def test_gradient_matches_finite_differences(two_pl):
    ev = _events(seed=2)
    lay = skill_joint.Layout(len(IDS), True, True, two_pl)
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
