"""Skill model and level ratings (issue 14).

* ``fit_skill_model`` on 24 levels × 2,000 players (progression telemetry, about 30,000 first
  attempts) against a generic optimiser (L-BFGS-B with finite-difference gradients, scipy's
  default without a ``jac``) on the full joint likelihood: every player's ability and every
  level's difficulty a parameter, under the same weak priors.
* ``LevelRatings.update`` throughput (rows/s; target ≥ 200,000) against Glickman's algorithm in
  plain Python (:func:`labkit.hexpuzzle.glicko2`, one game per call) on the same rows.
"""

from __future__ import annotations

import time

import numpy as np

from benchmarks import benchmark, compare
from labkit.hexpuzzle import LevelRatings, fit_skill_model, glicko2, telemetry_from_skill
from labkit.hexpuzzle.difficulty.fit import example_difficulties


def _progression(players: int):
    levels = example_difficulties(24, rng=0)
    gen = np.random.default_rng(1)
    beta = np.sort(gen.normal(0, 1.2, 24))
    theta = gen.normal(0, 1.0, players)
    return levels, beta, telemetry_from_skill(levels, beta, theta, rng=2, quit_rate=0.05)


def _joint_generic(table, ids):
    """The reference: minimise the joint negative log-posterior with a generic optimiser."""
    from scipy.optimize import minimize
    from scipy.special import log_expit

    first = table[table["attempt"] == 1]
    index = {lid: i for i, lid in enumerate(ids)}
    lvl = np.array([index[v] for v in first["level"].tolist()])
    _, pl = np.unique(first["player"], return_inverse=True)
    sign = 2.0 * first["won"] - 1.0
    n_l, n_p = len(ids), pl.max() + 1

    def f(x):
        beta, theta = x[:n_l], x[n_l:]
        return (-log_expit(sign * (theta[pl] - beta[lvl])).sum() + 0.5 * theta @ theta
                + 0.5 * beta @ beta / 25.0)  # fmt: skip

    res = minimize(f, np.zeros(n_l + n_p), method="L-BFGS-B", options={"maxiter": 10_000})
    return res


@benchmark("hexpuzzle fit_skill_model 24 levels x 2000 players")
def bench_fit_skill_model():
    levels, _, table = _progression(2000)
    fit_skill_model(table, levels)  # imports outside the timing
    ids = [d.level_id for d in levels]
    out = {}

    def reference():
        out["res"] = _joint_generic(table, ids)

    row = compare(
        "hexpuzzle fit_skill_model 24x2000",
        lambda: fit_skill_model(table, levels),
        reference,
        reference="generic L-BFGS-B, numerical gradient, joint likelihood (2,024 parameters)",
        target=None,
        repeat=5,
        reference_repeat=1,
    )
    res = out["res"]
    row.notes = (
        f"{int((table['attempt'] == 1).sum())} first attempts; fit {row.labkit_s:.2f} s "
        f"(target < 2 s); reference: {res.nfev} evaluations, "
        f"{'converged' if res.success else 'not converged: ' + str(res.message)}"
    )
    row.extra = {"rows": int(len(table)), "reference_nfev": int(res.nfev)}
    return row


@benchmark("hexpuzzle LevelRatings.update rows/s")
def bench_ratings():
    ids = [f"L{i:02d}" for i in range(24)]
    theta = np.random.default_rng(3).normal(0, 1, 10_000)
    table = telemetry_from_skill(ids, np.linspace(-2, 2, 24), theta, rng=4, progression=False)
    LevelRatings().update(table[:10])  # compile outside the timing
    subset = table[:5000]

    def plain():
        players, levels = {}, {}
        for row in subset.tolist():
            p = players.get(row[1], (1500.0, 350.0, 0.06))
            lv = levels.get(row[0], (1500.0, 350.0, 0.06))
            s = 1.0 if row[3] else 0.0
            players[row[1]] = glicko2(*p, [lv[:2]], [s])
            if p[1] <= 200.0:
                levels[row[0]] = glicko2(*lv, [p[:2]], [1.0 - s])

    start = time.perf_counter()
    plain()
    plain_rate = len(subset) / (time.perf_counter() - start)
    row = compare(
        "hexpuzzle LevelRatings.update 240k rows",
        lambda: LevelRatings().update(table),
        None,
        reference="plain-Python glicko2 per game (rows/s in notes)",
        target=None,
        repeat=3,
    )
    rate = len(table) / row.labkit_s
    row.notes = (
        f"{rate:,.0f} rows/s (target >= 200,000); plain Python {plain_rate:,.0f} rows/s "
        f"({rate / plain_rate:.0f}x)"
    )
    row.extra = {"rows_per_s": rate, "plain_rows_per_s": plain_rate}
    return row
