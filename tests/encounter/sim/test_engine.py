"""Engine chunks: default chunks give many tasks per worker, outcome-only games bigger ones."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from labkit.encounter.sim.batch import run_batch
from tests.encounter.sim.test_batch_local import BASE


def test_default_chunks_give_many_tasks_per_worker():
    calls = []
    with ThreadPoolExecutor(2) as pool:
        run_batch(BASE.replace(max_steps=5), range(128), executor=pool, mode="full",
                  progress=lambda done, total: calls.append(done))  # fmt: skip
    assert len(calls) == 64 and calls[-1] == 128  # 2 games a task = 32 tasks per worker
    calls.clear()
    with ThreadPoolExecutor(2) as pool:  # outcome-only games are quick: bigger tasks
        run_batch(BASE.replace(max_steps=5), range(128), executor=pool,
                  progress=lambda done, total: calls.append(done))  # fmt: skip
    assert len(calls) == 16 and calls[-1] == 128  # 8 games a task = 8 tasks per worker
