"""Batch plumbing: compact worker rows, reused local pools, default chunks, mixed actor sets."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from labkit.encounter.sim.batch import run_batch
from labkit.encounter.sim.runner import outcome
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


def test_sweep_with_different_actor_sets_matches_the_plain_table():
    sweep = [BASE.replace(npcs=1), BASE.replace(npcs=4, monsters=2)]
    actors, table = reference_rows(sweep, range(5))
    with ThreadPoolExecutor(2) as pool:
        res = run_batch(sweep, range(5), executor=pool, progress=False, chunksize=3)
    assert res.actors() == actors
    assert res.rows.tolist() == table
    assert (res.rows["survival_npc-3"][:5] == -1).all() and not res.rows["alive_npc-3"][:5].any()


def test_a_bad_seed_is_refused_before_any_game_runs():
    with pytest.raises(SimulationError, match="seed"):
        run_batch(BASE, [1, -2], executor=ThreadPoolExecutor(1), progress=False)
