"""Batch plumbing: compact worker rows, reused local pools, default chunks, mixed actor sets."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from labkit import _jit
from labkit.encounter.sim.batch import local_executor, play_chunk, run_batch
from labkit.encounter.sim.runner import outcome, outcome_row
from labkit.encounter.sim.settings import SimulationError, SimulationSettings

BASE = SimulationSettings(max_steps=200)


def reference_rows(sweep, seeds):
    """The table built the plain way: one ``outcome`` dict per game, field by field."""
    games = [(k, s.replace(seed=x, map_seed=x)) for k, s in enumerate(sweep) for x in seeds]
    actors = []
    for _, g in games:
        actors += [a for a in g.actor_ids if a not in actors]
    table = []
    for k, g in games:
        d = outcome(g)
        rec = [k, d["map_seed"], d["seed"], d["winner"], d["end_reason"], d["steps"], d["turns"]]
        rec.append(d["encounters"])
        rec += [d["alive"].get(a, False) for a in actors]
        rec += [d["survival"].get(a, -1) for a in actors]
        table.append(tuple(rec))
    return actors, table


def test_outcome_row_is_the_outcome_dict_in_actor_order():
    s = BASE.replace(seed=3, map_seed=4, npcs=2, monsters=2)
    row, d = outcome_row(s), outcome(s)
    assert row[:5] == (d["winner"], d["end_reason"], d["steps"], d["turns"], d["encounters"])
    assert row[5] == tuple(d["alive"][a] for a in s.actor_ids)
    assert row[6] == tuple(d["survival"][a] for a in s.actor_ids)


def test_play_chunk_sends_settings_once_and_seeds_per_game():
    rows = play_chunk({1: BASE.to_dict()}, [(7, 1, 5, 6), (8, 1, 2, 2)])
    assert [r[0] for r in rows] == [7, 8]
    assert rows[0][1:] == outcome_row(BASE.replace(seed=5, map_seed=6))


def test_sweep_with_different_actor_sets_matches_the_plain_table():
    sweep = [BASE.replace(npcs=1), BASE.replace(npcs=4, monsters=2)]
    actors, table = reference_rows(sweep, range(5))
    with ThreadPoolExecutor(2) as pool:
        res = run_batch(sweep, range(5), executor=pool, progress=False, chunksize=3)
    assert res.actors() == actors
    assert res.rows.tolist() == table
    assert (res.rows["survival_npc-3"][:5] == -1).all() and not res.rows["alive_npc-3"][:5].any()


def test_default_chunks_give_many_tasks_per_worker():
    calls = []
    with ThreadPoolExecutor(2) as pool:
        run_batch(BASE.replace(max_steps=5), range(128), executor=pool,
                  progress=lambda done, total: calls.append(done))  # fmt: skip
    assert len(calls) == 64 and calls[-1] == 128  # 2 games a task = 32 tasks per worker


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


def test_a_bad_seed_is_refused_before_any_game_runs():
    with pytest.raises(SimulationError, match="seed"):
        run_batch(BASE, [1, -2], executor=ThreadPoolExecutor(1), progress=False)
