"""Who beats whom (issue 28): Bradley-Terry against an independent fit and a known world,
cycles, and the round-robin of policies and loadouts on real games."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from labkit import ArgumentError
from labkit.encounter.sim.ratings import bradley_terry, cycles, policy_balance, round_robin


def _mm_fit(wins, iters=20_000):
    """Hunter's (2004) minorisation-maximisation for Bradley-Terry, written independently of
    the library: gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j)."""
    w = np.asarray(wins, dtype=float)
    n = w + w.T
    won = w.sum(1)
    g = np.ones(len(w))
    for _ in range(iters):
        new = won / (n / (g[:, None] + g[None, :])).sum(1)
        new /= np.exp(np.log(new).mean())
        if np.abs(new - g).max() < 1e-13:
            break
        g = new
    s = np.log(g)
    return s - s.mean()


def _logistic_fit(wins):
    """The same model as a logistic regression on the games, fitted by scipy."""
    from scipy.optimize import minimize

    w = np.asarray(wins, dtype=float)
    k = len(w)

    def nll(free):
        s = np.concatenate([[0.0], free])
        d = s[:, None] - s[None, :]
        return float((w * np.logaddexp(0, -d)).sum())

    def grad(free):
        s = np.concatenate([[0.0], free])
        p = 1 / (1 + np.exp(s[None, :] - s[:, None]))
        g = -(w * (1 - p)).sum(1) + (w.T * (1 - p.T)).sum(1)
        return g[1:]

    r = minimize(nll, np.zeros(k - 1), jac=grad, method="BFGS", options={"gtol": 1e-12})
    s = np.concatenate([[0.0], r.x])
    return s - s.mean()


def test_the_fit_agrees_with_two_independent_fits_to_1e_6():
    g = np.random.default_rng(3)
    truth = np.array([1.0, 0.4, 0.0, -0.3, -1.1])
    wins = np.zeros((5, 5))
    for i in range(5):
        for j in range(i + 1, 5):
            k = g.binomial(60, 1 / (1 + np.exp(truth[j] - truth[i])))
            wins[i, j], wins[j, i] = k, 60 - k
    wins[0, 1] += 0.5  # a drawn game: half a win each
    wins[1, 0] += 0.5
    r = bradley_terry(wins, list("abcde")).set_index("player").loc[list("abcde")]
    assert np.abs(r["strength"].to_numpy() - _mm_fit(wins)).max() < 1e-6
    assert np.abs(r["strength"].to_numpy() - _logistic_fit(wins)).max() < 1e-6


def test_a_known_bradley_terry_world_is_recovered_inside_its_intervals():
    truth = np.array([0.9, 0.3, -0.2, -1.0])
    covered = total = 0
    errors = []
    for world in range(40):
        g = np.random.default_rng(100 + world)
        wins = np.zeros((4, 4))
        for i in range(4):
            for j in range(i + 1, 4):
                k = g.binomial(150, 1 / (1 + np.exp(truth[j] - truth[i])))
                wins[i, j], wins[j, i] = k, 150 - k
        r = bradley_terry(wins).set_index("player").loc[["0", "1", "2", "3"]]
        covered += int(((r["lo"] <= truth) & (truth <= r["hi"])).sum())
        total += 4
        errors.append(r["strength"].to_numpy() - truth)
    assert covered / total >= 0.88  # 95 % intervals
    assert np.abs(np.mean(errors, axis=0)).max() < 0.06  # unbiased to within its noise


def test_a_player_who_never_lost_has_no_strength_and_bad_matrices_are_named():
    with pytest.raises(ArgumentError, match="never lost"):
        bradley_terry([[0, 5], [0, 0]])
    with pytest.raises(ArgumentError, match="square"):
        bradley_terry([[0, 1, 2]])


def test_cycles_are_found_only_where_the_pairings_are_intransitive():
    loop = pd.DataFrame({"npc": ["a", "a", "b", "b"], "monster": ["x", "y", "x", "y"],
                         "decided_lo": [0.6, 0.1, 0.1, 0.6],
                         "decided_hi": [0.8, 0.3, 0.3, 0.8]})  # fmt: skip
    assert cycles(loop) == [["monster: x", "npc: b", "monster: y", "npc: a"]]
    order = loop.assign(decided_lo=[0.6, 0.6, 0.1, 0.1], decided_hi=[0.8, 0.8, 0.3, 0.3])
    assert cycles(order) == []
    unsure = loop.assign(decided_lo=[0.6, 0.1, 0.1, 0.4])  # b-y undecided: no loop
    assert cycles(unsure) == []


def test_a_round_robin_of_policies_and_a_loadout_on_real_games():
    armed = ("scavenger", {"/characters/npc/weapon": "revolver"})
    rr = round_robin(seeds=range(60), npc=["scavenger", armed, "random"], monster=["hunter",
                     "random"])  # fmt: skip
    p = rr["pairings"]
    assert len(p) == 6 and (p["games"] == 60).all()
    assert ((p["balance_lo"] <= p["balance"]) & (p["balance"] <= p["balance_hi"])).all()
    assert (p["npc_wins"] + p["monster_wins"] + p["draws"] == 60).all()
    assert "scavenger weapon=revolver" in set(p["npc"])
    # balance is 1 - |NPC win - monster win| of the same games
    assert np.allclose(p["balance"], 1 - (p["npc_win"] - p["monster_win"]).abs())
    r = rr["ratings"].set_index("player")
    assert len(r) == 5 and (r["lo"] <= r["strength"]).all()
    # random NPCs wander into the monster: rated below the scavengers
    assert r.loc["npc: random", "strength"] < r.loc["npc: scavenger", "strength"]


def test_policy_balance_answers_for_every_pairing_in_one_table():
    t = policy_balance({}, {"/characters/monster/life": 5}, range(40), npc=["scavenger",
                       "random"], monster=["hunter"])  # fmt: skip
    assert t[["npc", "monster"]].values.tolist() == [["scavenger", "hunter"], ["random", "hunter"]]
    assert (t["diff"] == 0).all() and (t["balance_a"] == t["balance_b"]).all()  # B is A
    assert t["b_balanced"].tolist() == (t["balance_b"] >= 0.8).tolist()
