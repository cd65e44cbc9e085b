"""Encounter simulation: games per second (one process) and batch scaling on 2 workers vs 1."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

from benchmarks import benchmark, compare
from labkit import _jit
from labkit.encounter.batch import run_batch
from labkit.encounter.runner import outcome
from labkit.encounter.settings import SimulationSettings

GAMES = 40
BATCH = 120


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


def _batch(workers: int, pools: dict) -> None:
    run_batch(SimulationSettings(), range(BATCH), executor=pools[workers], progress=False,
              chunksize=5)  # fmt: skip


@benchmark("encounter sim batch 2 workers vs 1")
def bench_batch_scaling():
    pools = {1: ProcessPoolExecutor(1), 2: ProcessPoolExecutor(2)}
    try:
        row = compare(
            f"encounter sim batch {BATCH} games, 2 workers vs 1",
            lambda: _batch(2, pools),
            lambda: _batch(1, pools),
            reference="run_batch on 1 local worker process",
            target=1.7,
            repeat=3,
        )
    finally:
        for pool in pools.values():
            pool.shutdown()
    row.extra = {"games_per_s_2": BATCH / row.labkit_s, "games_per_s_1": BATCH / row.reference_s}
    row.notes = f"{BATCH / row.labkit_s:.1f} vs {BATCH / row.reference_s:.1f} games/s"
    return row
