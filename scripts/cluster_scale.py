"""Scale on paper: expected wall time and efficiency of ``labkit sim sweep`` on a Dask cluster.

Measures the three inputs on this machine, then applies the model below and prints the table of
the README's "Running on a cluster" section::

    python scripts/cluster_scale.py            # about a minute on an idle machine
    python scripts/cluster_scale.py --inputs G S P0 P1   # the table for given inputs (seconds)

Inputs (each printed with how it was measured):

* ``g``  — CPU seconds per outcome-only game in one process (default settings, 2,000 games);
* ``s``  — scheduler cost per task: 2,000 no-op tasks through ``client.get_executor()`` on a
  ``LocalCluster`` of 2 worker processes, CPU seconds of the process holding the client and
  the scheduler / tasks (submission, scheduling, result; all counted as the parent's, which is
  pessimistic: on a cluster the scheduler has its own process);
* ``p0 + p1 * c`` — what the parent spends per finished chunk of ``c`` games: building the part's
  Arrow table and writing it to ``out=DIR`` (CPU time for 200 and 5,000 rows, a line through
  both).

CPU time, not wall time, because the machine these figures come from is shared: wall times
there were inflated tenfold and more.

Model: ``G`` games on ``W`` single-thread workers in chunks of ``c``. Work ``G g / W``; the parent
handles chunks one at a time (``G / c`` of them at ``s + p0 + p1 c`` each) while the workers
play, so the run takes ``max(G g / W, G/c (s + p0 + p1 c))`` plus one chunk's tail ``c g``.
Efficiency is ``G g / W`` over that. The chunk is the smallest that keeps per-task overhead
``(s + p0) / (c g)`` under 5 %, raised when the parent would be the bottleneck (to ``G / (4 W)``
when it would be whatever the chunk, i.e. ``W p1 >= g``), and never more than ``G / (4 W)``
(four chunks per worker, so a lost worker costs little and the load evens out). Not modelled:
worker start-up, network transfer beyond what loopback shows, a shared folder slower than the
local disk.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def per_game() -> float:
    from labkit.encounter.sim.fast_outcome import play_outcomes
    from labkit.encounter.sim.settings import SimulationSettings

    docs = {0: SimulationSettings().to_dict()}
    play_outcomes(docs, [(0, 0, 1, 1)])  # load the kernels
    jobs = [(i, 0, i, i) for i in range(2000)]
    start = time.process_time()
    play_outcomes(docs, jobs)
    return (time.process_time() - start) / len(jobs)


def per_task(n: int = 2000) -> float:
    from concurrent.futures import wait

    import dask
    import distributed

    # a loaded machine is slow to answer
    dask.config.set({"distributed.comm.timeouts.connect": "120s",
                     "distributed.comm.timeouts.tcp": "120s"})  # fmt: skip
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None,
                                       silence_logs=40)  # fmt: skip
    with cluster, distributed.Client(cluster) as c:
        pool = c.get_executor()
        wait([pool.submit(abs, i) for i in range(50)])  # warm
        before = _cpu()
        futures = [pool.submit(abs, i) for i in range(n)]
        wait(futures)
        [f.result() for f in futures]
        return (_cpu() - before) / n


def _cpu() -> float:
    """CPU seconds of this process: the client and the LocalCluster's scheduler, the two serial
    parts (a worker's share of a task runs in parallel with the others'). Unlike wall time, not
    inflated by other work on a shared machine."""
    return time.process_time()


def per_part() -> tuple[float, float]:
    from labkit.encounter.sim.fast_outcome import play_outcomes
    from labkit.encounter.sim.settings import SimulationSettings
    from labkit.encounter.sim.sweep import _Table, _write_part

    base = SimulationSettings()
    points = [{"/characters/monster/life": 4}]
    settings = [base.replace(balance={"/characters/monster/life": 4})]
    builder = _Table(["/characters/monster/life"], points, settings)
    jobs = [(i, 0, i, i) for i in range(5000)]
    rows = play_outcomes({0: settings[0].to_dict()}, jobs)
    cost = {}
    with tempfile.TemporaryDirectory() as folder:
        _write_part(Path(folder), builder.table(jobs[:10], rows[:10]), 10**8)  # warm up
        for c in (200, 5000):
            start = time.process_time()
            for k in range(5):
                _write_part(Path(folder), builder.table(jobs[:c], rows[:c]), k * c)
            cost[c] = (time.process_time() - start) / 5
    p1 = (cost[5000] - cost[200]) / 4800
    return max(0.0, cost[200] - 200 * p1), max(0.0, p1)


def plan(games: int, workers: int, g: float, s: float, p0: float, p1: float) -> dict:
    work = games * g / workers
    c = math.ceil(20 * (s + p0) / g)  # per-task overhead < 5 %
    if workers * p1 < g:  # the parent keeps up once chunks are big enough
        c = max(c, math.ceil((s + p0) / (g / workers - p1) * 1.25))
    else:  # it never keeps up (its per-game share is too big): fewest tasks that still balance
        c = max(c, games // (4 * workers))
    c = max(1, min(c, games // (4 * workers) or 1))
    parent = games / c * (s + p0 + p1 * c)
    wall = max(work, parent) + c * g
    bound = "parent" if parent > work else "workers"
    return {"games": games, "workers": workers, "chunk": c, "tasks": math.ceil(games / c),
            "wall_s": wall, "efficiency": work / wall, "overhead": (s + p0) / (c * g),
            "bound": bound}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """``--inputs G S P0 P1`` (seconds) skips the measuring and prints the table for them."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--inputs"]:
        g, s, p0, p1 = map(float, argv[1:5])
    else:
        g = per_game()
        s = per_task()
        p0, p1 = per_part()
    print(f"g  = {g * 1e3:.3f} ms CPU per game (outcome-only, default settings, 2,000 games)")
    print(f"s  = {s * 1e3:.3f} ms per task CPU (2,000 no-op tasks, LocalCluster of 2 processes)")
    print(f"part = {p0 * 1e3:.2f} ms + {p1 * 1e6:.2f} us per game CPU (Arrow table + Parquet part)")
    print()
    print("| games | workers | chunk | tasks | expected wall | efficiency | overhead/task "
          "| bound |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    for games in (10**6, 10**7):
        for workers in (4, 16, 64, 256):
            r = plan(games, workers, g, s, p0, p1)
            print(f"| {games:,} | {workers} | {r['chunk']:,} | {r['tasks']:,} | "
                  f"{r['wall_s']:,.0f} s | {r['efficiency']:.0%} | {r['overhead']:.1%} | "
                  f"{r['bound']} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
