"""Batch sweeps (SPEC E7): same rows on every engine, summary statistics, atomic CSV."""

from __future__ import annotations

import csv
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.encounter.sim import pool as worker_pool
from labkit.encounter.sim.batch import run_batch
from labkit.encounter.sim.runner import outcome, simulate
from labkit.encounter.sim.settings import SimulationSettings
from tests.faults import DiskFull

BASE = SimulationSettings(max_steps=200)


def wilson_by_roots(k, n, z=1.96):
    """The Wilson interval from its definition: the p for which the observed share is on the
    edge of the normal test, (k/n − p)² = z²·p(1 − p)/n, a quadratic in p."""
    share = k / n
    a, b, c = 1 + z * z / n, -(2 * share + z * z / n), share * share
    lo, hi = sorted(np.roots([a, b, c]).real)
    return max(lo, 0.0), min(hi, 1.0)


def test_wilson_by_roots_matches_hand_worked_numbers():
    # 7 wins of 20 (z = 1.96): roots of 1.19208 p^2 - 0.89604 p + 0.1225 = 0.
    assert wilson_by_roots(7, 20) == pytest.approx((0.18119, 0.56714), abs=2e-5)
    assert wilson_by_roots(0, 20) == pytest.approx((0.0, 0.16113), abs=2e-5)


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
        for side in ("npc", "monster"):
            lo, hi = wilson_by_roots(int(rec[f"{side}_wins"]), 20)
            assert rec[f"{side}_win_lo"] == pytest.approx(lo, abs=1e-9)
            assert rec[f"{side}_win_hi"] == pytest.approx(hi, abs=1e-9)
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


def test_csv_has_a_header_and_one_line_per_game(local, tmp_path):
    path = tmp_path / "out.csv"
    local.to_csv(path)
    with path.open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 12 and rows[3]["seed"] == "3"
    assert rows[3]["winner"] == local.rows[3]["winner"]
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]  # no temporary left behind


def test_csv_is_written_atomically(local, tmp_path, monkeypatch):
    path = tmp_path / "out.csv"
    path.write_text("an earlier table\n")
    fault = DiskFull(monkeypatch, budget=40)  # the disk fills up inside the first rows
    with pytest.raises(OSError, match="injected"):
        local.to_csv(path)
    monkeypatch.undo()
    assert fault.tripped == 1
    assert path.read_text() == "an earlier table\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_a_failing_game_propagates(monkeypatch):
    real = worker_pool.outcome_row

    def flaky(settings):
        if settings.seed == 7:
            raise RuntimeError("game 7 crashed")
        return real(settings)

    # the journalled game ("full") is the one that goes through outcome_row
    monkeypatch.setattr(worker_pool, "outcome_row", flaky)
    with ThreadPoolExecutor(2) as pool, pytest.raises(RuntimeError, match="game 7 crashed"):
        run_batch(BASE, range(10), executor=pool, chunksize=3, progress=False, mode="full")
    # The same sweep without the crash plays through.
    monkeypatch.undo()
    with ThreadPoolExecutor(2) as pool:
        done = run_batch(BASE, range(10), executor=pool, chunksize=3, progress=False, mode="full")
        assert len(done) == 10


def test_an_empty_sweep_is_refused():
    with pytest.raises(ArgumentError, match="settings: no settings"):
        run_batch([], progress=False)


def test_an_unknown_mode_is_an_argument_error_naming_it():
    with pytest.raises(ArgumentError, match=r"^mode: must be 'outcome' or 'full' \(got 'fast'\)$"):
        run_batch(BASE, [1], progress=False, mode="fast")
