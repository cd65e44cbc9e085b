"""Balance lab: outcome-only games vs the journalled session, a resumable sweep on 2 local
workers, and tune to NPC win 0.5 on monster life.

* **games/s**: the default game, one process; outcome-only (the numba game kernel) and the
  journalled :class:`~labkit.encounter.sim.session.GameSession` (``outcome_row``, what batches ran
  before) are timed in alternating rounds on different seeds, so load from other processes on
  the shared machine falls on both alike; the ratio is of the medians per game (target 5x).
* **sweep**: 20 points (monster life 2..11 x 2 or 3 NPCs) x 100 and x 500 seeds (2,000 and
  10,000 games), streamed to Parquet in a temporary directory, on a warm 2-worker
  :func:`~labkit.encounter.sim.batch.local_executor`: wall time, the workers' CPU time over
  2 x wall (busy share, target >= 90 %; also as a share of the CPU that other processes left
  free, which is what a loaded machine allows) and the parent's peak resident memory above its level
  before the sweep (sampled every 5 ms; it should stay flat as the sweep grows).
* **tune**: NPC win 0.5 on ``/characters/monster/life`` in 2..10, seeds 0..3999, budget 20,000:
  games spent, wall time, width of the 95 % interval (target: narrower than +-0.5 life).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time

from benchmarks import Row, benchmark
from labkit.encounter.sim.batch import local_executor
from labkit.encounter.sim.fast_outcome import outcome_row_fast
from labkit.encounter.sim.runner import outcome_row
from labkit.encounter.sim.settings import SimulationSettings
from labkit.encounter.sim.sweep import sweep
from labkit.encounter.sim.tune import tune

LIFE = "/characters/monster/life"
ROUNDS, FAST, FULL = 5, 200, 20


def _per_game(play, seeds) -> float:
    start = time.perf_counter()
    for s in seeds:
        play(SimulationSettings(seed=s, map_seed=s))
    return (time.perf_counter() - start) / len(seeds)


@benchmark("encounter balance outcome-only games/s")
def bench_outcome_only():
    _per_game(outcome_row_fast, range(3))  # load the kernel outside the timing
    fast, full = [], []
    for r in range(ROUNDS):
        fast.append(_per_game(outcome_row_fast, range(r * FAST, (r + 1) * FAST)))
        full.append(_per_game(outcome_row, range(r * FULL, (r + 1) * FULL)))
    f, g = statistics.median(fast), statistics.median(full)
    return Row(
        "encounter outcome-only vs full game, 1 proc",
        f,
        g,
        "journalled GameSession (outcome_row), same settings",
        5.0,
        notes=f"{1 / f:.0f} vs {1 / g:.0f} games/s, medians of {ROUNDS} alternating rounds "
        f"({FAST} / {FULL} games each); machine shared with other jobs",
        extra={"games_per_s_outcome": 1 / f, "games_per_s_full": 1 / g},
    )


def _cpu(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as fh:
            total += sum(int(x) for x in fh.read().rsplit(")", 1)[1].split()[11:13])
    return total / os.sysconf("SC_CLK_TCK")


def _machine_busy() -> float:
    """Busy CPU seconds of the whole machine so far (``/proc/stat``)."""
    with open("/proc/stat") as fh:
        user, nice, system, _idle, _io, irq, softirq = map(int, fh.readline().split()[1:8])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def _rss() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class _Peak:
    """Peak resident memory of this process while the block runs (sampled)."""

    def __enter__(self):
        self.base = self.peak = _rss()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def _run(self):
        while not self.stop.wait(0.005):
            self.peak = max(self.peak, _rss())

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        self.peak = max(self.peak, _rss())


def _sweep(pool, seeds: int) -> dict:
    grid = {LIFE: list(range(2, 12)), "npcs": [2, 3]}
    pids = list(pool._processes)
    with tempfile.TemporaryDirectory() as out:
        mine = [os.getpid(), *pids]
        cpu0, own0, all0, start = _cpu(pids), _cpu(mine), _machine_busy(), time.perf_counter()
        with _Peak() as mem:
            frame = sweep(SimulationSettings(), grid, range(seeds), executor=pool, out=out,
                          progress=False)  # fmt: skip
        wall = time.perf_counter() - start
        busy = (_cpu(pids) - cpu0) / (wall * len(pids))
        others = max(0.0, (_machine_busy() - all0) - (_cpu(mine) - own0)) / wall
        cores = os.cpu_count() or 1
        # the share of the CPU other processes left free that the workers used
        of_free = (_cpu(pids) - cpu0) / max(1e-9, min(len(pids), cores - others) * wall)
    return {"games": len(frame), "wall": wall, "busy": busy, "others_cores": others,
            "busy_of_free": of_free,
            "peak_mb": (mem.peak - mem.base) / 2**20}  # fmt: skip


@benchmark("encounter balance sweep 20 points x 500 seeds, 2 workers")
def bench_sweep():
    with local_executor(2) as pool:
        sweep(SimulationSettings(), {LIFE: [3]}, range(40), executor=pool, progress=False)
        small, big = _sweep(pool, 100), _sweep(pool, 500)
    return Row(
        "encounter sweep 20x500 (10,000 games), 2 workers",
        big["wall"],
        None,
        "no reference (wall time; see notes)",
        None,
        notes=(f"{big['games'] / big['wall']:.0f} games/s, workers busy {100 * big['busy']:.0f} % "
               f"of 2 x wall ({100 * big['busy_of_free']:.0f} % of the CPU others left free); "
               f"parent peak memory above start: {small['peak_mb']:.1f} MB at 2,000 games, "
               f"{big['peak_mb']:.1f} MB at 10,000 (2,000 games: {small['wall']:.1f} s, busy "
               f"{100 * small['busy']:.0f} %); other processes used {big['others_cores']:.2f} "
               "of the 2 cores meanwhile (the machine is shared)"),
        extra={"small": small, "big": big},
    )  # fmt: skip


@benchmark("encounter balance tune monster life to NPC win 0.5")
def bench_tune():
    with local_executor(2) as pool:
        start = time.perf_counter()
        t = tune(SimulationSettings(), LIFE, 0.5, bounds=(2, 10), executor=pool, progress=False)
        wall = time.perf_counter() - start
    width = t.root_ci[1] - t.root_ci[0]
    return Row(
        "encounter tune life -> NPC win 0.5, 2 workers",
        wall,
        None,
        "no reference (games spent and interval width; target +-0.5 life in 20,000 games)",
        None,
        notes=(f"crossing {t.root:.3f}, 95 % interval {t.root_ci[0]:.3f}-{t.root_ci[1]:.3f} "
               f"(+-{width / 2:.3f} life), {t.games} games, {wall:.1f} s; {t.summary()}; "
               "machine shared with other jobs"),
        extra={"games": t.games, "ci": list(t.root_ci), "root": t.root, "wall": wall,
               "value": t.value, "hits": t.hits},
    )  # fmt: skip
