"""Batch sweeps (SPEC E7): same rows on every engine, summary statistics, atomic CSV."""

from __future__ import annotations

import csv
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from labkit.encounter.sim.batch import run_batch
from labkit.encounter.rules.combat import wilson_interval
from labkit.encounter.sim.runner import outcome, simulate
from labkit.encounter.sim.settings import SimulationError, SimulationSettings

BASE = SimulationSettings(max_steps=200)


@pytest.fixture(scope="module")
def local():
    return run_batch(BASE, range(12), progress=False)


def test_rows_follow_seed_order_and_match_single_games(local):
    rows = local.rows
    assert rows["seed"].tolist() == list(range(12)) and rows["map_seed"].tolist() == list(range(12))
    for r in rows[:4]:
        t = simulate(BASE.replace(seed=int(r["seed"]), map_seed=int(r["map_seed"])))
        assert (r["winner"] or None) == t.winner and r["end_reason"] == t.end_reason
        assert r["steps"] == t.steps and r["turns"] == t.turns
        for a in t.settings.actor_ids:
            assert r[f"alive_{a}"] == (a in t.survivors)
            deaths = [e["turn"] for e in t.select("death", a)]
            assert r[f"survival_{a}"] == (deaths[0] if deaths else t.turns)


def test_thread_pool_and_odd_chunks_give_the_same_rows(local):
    seen = []
    with ThreadPoolExecutor(3) as pool:
        res = run_batch(BASE, range(12), executor=pool, chunksize=5,
                        progress=lambda done, total: seen.append((done, total)))  # fmt: skip
    assert np.array_equal(res.rows, local.rows)
    assert seen[-1] == (12, 12) and len(seen) == 3


def test_sweep_over_settings_and_summary_intervals():
    sweep = [BASE.replace(balance={"/characters/monster/life": life}) for life in (2, 8)]
    res = run_batch(sweep, range(20), executor=ThreadPoolExecutor(2), progress=False)
    assert len(res) == 40 and res.rows["settings_index"].tolist() == [0] * 20 + [1] * 20
    s = res.summary()
    assert s["n"].tolist() == [20, 20]
    for rec in s:
        lo, hi = wilson_interval(rec["npc_wins"], 20)
        assert rec["npc_win_lo"] == pytest.approx(float(lo)) and rec["npc_win_hi"] == pytest.approx(
            float(hi)
        )
        assert rec["npc_win_lo"] <= rec["npc_win"] <= rec["npc_win_hi"]
        assert rec["mean_steps_lo"] <= rec["mean_steps"] <= rec["mean_steps_hi"]
        assert rec["npc_wins"] + rec["monster_wins"] + rec["step_limit"] + rec["mutual_death"] == 20
    # a tougher monster wins more often
    assert s["monster_win"][1] > s["monster_win"][0]
    assert "BatchResult" in res._repr_html_()


def test_fixed_map_keeps_the_map_seed():
    res = run_batch(BASE.replace(map_seed=42), [1, 2, 3], executor=ThreadPoolExecutor(1),
                    progress=False, fixed_map=True)  # fmt: skip
    assert res.rows["map_seed"].tolist() == [42, 42, 42] and res.rows["seed"].tolist() == [1, 2, 3]
    assert res.rows[0]["steps"] == outcome(BASE.replace(map_seed=42, seed=1))["steps"]


def test_csv_is_written_atomically_with_a_header(local, tmp_path):
    path = tmp_path / "out.csv"
    local.to_csv(path)
    with path.open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 12 and rows[3]["seed"] == "3"
    assert rows[3]["winner"] == local.rows[3]["winner"]
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]  # no temporary left behind


def test_a_failing_game_propagates_and_empty_sweep_is_refused():
    with pytest.raises(SimulationError, match="no settings"):
        run_batch([], progress=False)
