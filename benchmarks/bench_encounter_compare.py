"""Balance comparison (issue 28): 2,000 paired games and their table, and what pairing buys.

* **compare**: :func:`~labkit.encounter.compare` of the shipped A edition against
  ``data/balance/a_edition_monster_life4.json`` on seeds 0..1999 (4,000 outcome-only games on a
  warm 2-worker :func:`~labkit.encounter.sim.batch.local_executor`, then the 16-metric table
  with 1,000 paired resamples): wall time against the 5 s goal (ratio = 5 s / wall, target 1x),
  and the CPU seconds of the workers and the parent (what an idle 2-core machine would need).
  The notes give the measured variance reduction of the NPC win rate (pairing against
  independent seeds) and the seeds needed to see a 2-point change either way.
* **bradley-terry**: the choix fit of a 9-player win matrix, timed against scipy's BFGS on the
  same likelihood, with their largest strength difference.
"""

from __future__ import annotations

import os
import time

import numpy as np

from benchmarks import Row, benchmark
from benchmarks.bench_encounter_balance import _cpu
from labkit._data import data_path
from labkit.encounter.rules.balance import DEFAULT_PATH
from labkit.encounter.sim.batch import local_executor
from labkit.encounter.sim.compare import compare, play_pair
from labkit.encounter.sim.ratings import bradley_terry

GOAL_S = 5.0


@benchmark("encounter compare 2,000 paired games")
def bench_compare():
    b = data_path("balance", "a_edition_monster_life4.json")
    pool = local_executor(2)
    try:
        compare(DEFAULT_PATH, b, range(20), executor=pool, bootstrap=50)  # warm the workers
        load = os.getloadavg()[0]
        pids = list(pool._processes)
        cpu0, own0 = _cpu(pids), time.process_time()
        start = time.perf_counter()
        games = play_pair(DEFAULT_PATH, b, range(2000), executor=pool)
        played = time.perf_counter() - start
        t = compare(DEFAULT_PATH, b, range(2000), games=games)
        wall = time.perf_counter() - start
        workers, parent = _cpu(pids) - cpu0, time.process_time() - own0
    finally:
        pool.shutdown()
    win = t.set_index("metric").loc["npc_win"]
    return Row(
        "encounter compare A vs B, 2,000 paired games",
        wall,
        GOAL_S,
        "the 5 s goal (4,000 games + 16-metric table)",
        1.0,
        notes=(f"NPC win {win['a']:.3f} -> {win['b']:.3f}, B - A {win['diff']:+.3f} "
               f"[{win['diff_lo']:+.3f}, {win['diff_hi']:+.3f}]; pairing cuts the variance "
               f"x{win['variance_reduction']:.1f} (2 points: {win['seeds_needed']} paired seeds, "
               f"{win['seeds_unpaired']} unpaired); games {played:.1f} s, table "
               f"{wall - played:.1f} s; CPU: workers {workers:.1f} s, parent {parent:.1f} s "
               f"(on 2 idle cores about {workers / 2 + parent:.1f} s); load average {load:.1f} "
               f"on {os.cpu_count()} cores"),
        extra={"wall": wall, "games_s": played, "load": load, "workers_cpu": workers,
               "parent_cpu": parent,
               "variance_reduction": float(win["variance_reduction"]),
               "seeds_needed": int(win["seeds_needed"]),
               "seeds_unpaired": int(win["seeds_unpaired"])},
    )  # fmt: skip


@benchmark("encounter bradley-terry fit vs scipy")
def bench_bradley_terry():
    from scipy.optimize import minimize

    g = np.random.default_rng(0)
    truth = np.linspace(1.2, -1.2, 9)
    wins = np.zeros((9, 9))
    for i in range(9):
        for j in range(i + 1, 9):
            k = g.binomial(200, 1 / (1 + np.exp(truth[j] - truth[i])))
            wins[i, j], wins[j, i] = k, 200 - k

    def nll(free):
        s = np.concatenate([[0.0], free])
        return float((wins * np.logaddexp(0, s[None, :] - s[:, None])).sum())

    start = time.perf_counter()
    r = bradley_terry(wins).set_index("player").loc[[str(i) for i in range(9)]]
    ours = time.perf_counter() - start
    start = time.perf_counter()
    x = minimize(nll, np.zeros(8), method="BFGS", options={"gtol": 1e-10}).x
    ref = time.perf_counter() - start
    s = np.concatenate([[0.0], x])
    gap = float(np.abs(r["strength"].to_numpy() - (s - s.mean())).max())
    return Row("encounter Bradley-Terry fit, 9 players", ours, ref,
               "scipy BFGS on the same likelihood", None,
               notes=f"largest strength difference {gap:.2e}",
               extra={"max_diff": gap})  # fmt: skip
