"""A game's outcome row is its outcome dict in actor order."""

from __future__ import annotations

from labkit.encounter.sim.runner import outcome, outcome_row
from tests.encounter.sim.test_batch_local import BASE


def test_outcome_row_is_the_outcome_dict_in_actor_order():
    s = BASE.replace(seed=3, map_seed=4, npcs=2, monsters=2)
    row, d = outcome_row(s), outcome(s)
    assert row[:5] == (d["winner"], d["end_reason"], d["steps"], d["turns"], d["encounters"])
    assert row[5] == tuple(d["alive"][a] for a in s.actor_ids)
    assert row[6] == tuple(d["survival"][a] for a in s.actor_ids)
