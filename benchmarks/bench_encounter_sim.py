"""Encounter simulation: games per second (one process) and batch scaling on 2 workers vs 1.

The batch row measures steady-state throughput: each side gets its own
:func:`~labkit.encounter.sim.batch.local_executor` pool, started and warmed (one batch) before any
timing, then the 1-worker and 2-worker batches are timed alternately (1, 2, 2, 1, 1, 2, ...) so
that load from anything else on the shared machine falls on both sides alike; the row gives the
medians. Pool start-up (new pool until every worker has answered, kernels loaded) is timed
separately and reported in the notes, not included in the ratio (the first pool's start-up
also loads the kernels into this process, once, when no game ran here before). The notes also
give the CPU that *other* processes used during the timed runs (machine busy time minus this
benchmark's own processes, Linux ``/proc``): the machine is shared, and a busy core caps the
ratio. They also give the machine's own ceiling: a fixed pure-Python loop split over the
same 2 worker processes vs 1 (same pools, alternating, medians); on a shared VM that is below
2x too, and the batch ratio is read against it.
"""

from __future__ import annotations

import os
import statistics
import time

from benchmarks import Row, benchmark, compare
from labkit import _jit
from labkit.encounter.sim.batch import local_executor, run_batch
from labkit.encounter.sim.runner import outcome
from labkit.encounter.sim.settings import SimulationSettings

GAMES = 40
BATCH = 200
REPEAT = 5
READY_PAUSE = 0.2  # each start-up probe task holds its worker this long, so each worker gets one


def _play(n: int) -> None:
    for seed in range(n):
        outcome(SimulationSettings(seed=seed, map_seed=seed))


def _plain(n: int) -> None:
    with _jit.plain_python("labkit.encounter._kernels"):
        _play(n)


@benchmark("encounter sim games/s single process")
def bench_games_per_second():
    _play(2)  # compile outside the timing
    row = compare(
        f"encounter sim {GAMES} default games, 1 process",
        lambda: _play(GAMES),
        lambda: _plain(GAMES),
        reference="same games with the encounter kernels as plain Python (.py_func)",
        target=None,
        repeat=3,
        reference_repeat=1,
    )
    row.extra = {"games_per_s": GAMES / row.labkit_s}
    row.notes = f"{GAMES / row.labkit_s:.1f} games/s at the default settings"
    return row


def _ready(_: int) -> int:
    time.sleep(READY_PAUSE)
    return os.getpid()


def _start(workers: int):
    """A new pool and the seconds until all its workers answered (probe pause excluded)."""
    start = time.perf_counter()
    pool = local_executor(workers)
    pids = set(pool.map(_ready, range(workers)))
    assert len(pids) == workers, pids
    return pool, time.perf_counter() - start - READY_PAUSE


def _ticks(pids: list[int]) -> tuple[float, float] | None:
    """(busy seconds of the whole machine, CPU seconds of these processes) from ``/proc``."""
    try:
        with open("/proc/stat") as fh:
            user, nice, system, _idle, _io, irq, softirq = map(int, fh.readline().split()[1:8])
        own = 0
        for pid in pids:
            with open(f"/proc/{pid}/stat") as fh:
                own += sum(int(x) for x in fh.read().rsplit(")", 1)[1].split()[11:13])
    except (OSError, ValueError):
        return None
    hz = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / hz, own / hz


CEILING_LOOPS = 8_000_000


def _burn(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i % 7
    return s


def _ceiling(pool, workers: int) -> float:
    """Seconds for CEILING_LOOPS of plain Python split evenly over ``workers`` processes."""
    start = time.perf_counter()
    list(pool.map(_burn, [CEILING_LOOPS // workers] * workers))
    return time.perf_counter() - start


def _batch(pool) -> float:
    start = time.perf_counter()
    run_batch(SimulationSettings(), range(BATCH), executor=pool, progress=False)
    return time.perf_counter() - start


@benchmark("encounter sim batch 2 workers vs 1")
def bench_batch_scaling():
    pools, startup, times = {}, {}, {1: [], 2: []}
    try:
        for w in (1, 2):
            pools[w], startup[w] = _start(w)
            _batch(pools[w])  # warm-up batch, not timed
        pids = [os.getpid(), *(pid for pool in pools.values() for pid in pool._processes)]
        before, start = _ticks(pids), time.perf_counter()
        for r in range(REPEAT):
            for w in (1, 2) if r % 2 == 0 else (2, 1):
                times[w].append(_batch(pools[w]))
        after, wall = _ticks(pids), time.perf_counter() - start
        ceiling = {1: [], 2: []}
        for r in range(REPEAT):
            for w in (1, 2) if r % 2 == 0 else (2, 1):
                ceiling[w].append(_ceiling(pools[w], w))
    finally:
        for pool in pools.values():
            pool.shutdown()
    one, two = statistics.median(times[1]), statistics.median(times[2])
    limit = statistics.median(ceiling[1]) / statistics.median(ceiling[2])
    others = None
    if before and after:
        others = max(0.0, (after[0] - before[0]) - (after[1] - before[1])) / wall
    return Row(
        f"encounter sim batch {BATCH} games, 2 workers vs 1",
        two,
        one,
        "run_batch on 1 local worker process",
        1.7,
        notes=(
            f"steady state, warm pools, default chunks, medians of {REPEAT} alternating runs: "
            f"{BATCH / two:.1f} vs {BATCH / one:.1f} games/s; pool start-up (not included) "
            f"{startup[2]:.2f} s (2 workers) / {startup[1]:.2f} s (1); other processes used "
            + ("?" if others is None else f"{others:.2f}")
            + f" cores meanwhile; machine ceiling (plain-Python loop, 2 vs 1): {limit:.2f}x"
        ),
        extra={
            "games_per_s_2": BATCH / two,
            "games_per_s_1": BATCH / one,
            "startup_s_2": startup[2],
            "startup_s_1": startup[1],
            "other_load_cores": others,
            "ceiling_ratio": limit,
            "runs_s_2": times[2],
            "runs_s_1": times[1],
        },
    )
