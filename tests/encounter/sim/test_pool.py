"""Local worker pools: a chunk sends the settings once and seeds per game; a reused pool starts
with compiled kernels and gives the serial rows."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from labkit import _jit
from labkit.encounter.sim.batch import local_executor, play_chunk, run_batch
from labkit.encounter.sim.runner import outcome_row
from tests.encounter.sim.test_batch_local import BASE


def test_play_chunk_sends_settings_once_and_seeds_per_game():
    rows = play_chunk({1: BASE.to_dict()}, [(7, 1, 5, 6), (8, 1, 2, 2)])
    assert [r[0] for r in rows] == [7, 8]
    assert rows[0][1:] == outcome_row(BASE.replace(seed=5, map_seed=6))


def _loaded_kernels() -> list[int]:
    """Compiled signatures of each public encounter kernel (those with warm-up examples)."""
    mine = [k for k in _jit.REGISTRY.values() if k.module == "labkit.encounter._kernels"]
    return [len(getattr(k.dispatcher, "signatures", [1])) for k in mine if k.example is not None]


def test_a_reused_local_pool_starts_with_kernels_and_gives_the_serial_rows():
    with local_executor(2) as pool:
        loaded = pool.submit(_loaded_kernels).result()
        assert loaded and all(n >= 1 for n in loaded)
        a = run_batch(BASE, range(6), executor=pool, progress=False)
        b = run_batch(BASE, range(6, 12), executor=pool, progress=False)
    with ThreadPoolExecutor(1) as serial:
        both = run_batch(BASE, range(12), executor=serial, progress=False, chunksize=12)
    assert np.array_equal(np.concatenate([a.rows, b.rows]), both.rows)
