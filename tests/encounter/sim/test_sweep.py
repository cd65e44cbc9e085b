"""Sweeps (SPEC W3): tidy rows, validation naming the key, resumable Parquet parts, summary."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

from labkit import ArgumentError
from labkit.encounter.rules.combat import wilson_interval
from labkit.encounter.sim.batch import run_batch
from labkit.encounter.sim.paired import mcnemar_midp, tango_interval
from labkit.encounter.sim.runner import outcome
from labkit.encounter.sim.settings import SimulationSettings
from labkit.encounter.sim.sweep import SweepError, summary, sweep

BASE = SimulationSettings(max_steps=120)
LIFE = "/characters/monster/life"
GRID = {LIFE: [2, 7], "npcs": [2, 3]}


def run(grid=GRID, seeds=range(6), **kw):
    with ThreadPoolExecutor(2) as pool:
        return sweep(BASE, grid, seeds, executor=pool, progress=False, **kw)


@pytest.fixture(scope="module")
def whole():
    return run()


def test_columns_are_named_as_given_and_rows_are_the_games(whole):
    assert list(whole.columns[:6]) == [LIFE, "npcs", "point", "seed", "map_seed", "winner"]
    assert len(whole) == 4 * 6
    points = whole[[LIFE, "npcs"]].drop_duplicates().values.tolist()
    assert points == [[2, 2], [2, 3], [7, 2], [7, 3]]
    assert whole["seed"].tolist() == list(range(6)) * 4  # every point plays the same seeds
    for _, r in whole.iloc[[0, 7, 20]].iterrows():
        s = BASE.replace(npcs=int(r["npcs"]), balance={LIFE: int(r[LIFE])})
        d = outcome(s.replace(seed=int(r["seed"]), map_seed=int(r["seed"])))
        assert (r["winner"], r["end_reason"], r["steps"], r["turns"]) == (
            d["winner"] or "", d["end_reason"], d["steps"], d["turns"])  # fmt: skip
        for a, t in d["survival"].items():
            assert r[f"survival_{a}"] == t and r[f"alive_{a}"] == d["alive"][a]
    # npc-2 does not play in the 2-NPC points
    two = whole[whole["npcs"] == 2]
    assert (two["survival_npc-2"] == -1).all() and not two["alive_npc-2"].any()


def test_batch_frame_carries_the_swept_values(whole):
    sweep_list = [BASE.replace(npcs=n, balance={LIFE: v}) for v in (2, 7) for n in (2, 3)]
    res = run_batch(sweep_list, range(6), executor=ThreadPoolExecutor(2), progress=False)
    f = res.frame
    assert f[LIFE].tolist() == whole[LIFE].tolist() and f["npcs"].tolist() == whole["npcs"].tolist()
    for col in ("seed", "winner", "end_reason", "steps", "turns", "survival_npc-0"):
        assert f[col].tolist() == whole[col].tolist(), col
    assert len(res.rows) == len(f)  # the structured array still works


def test_an_explicit_design_and_full_mode_give_the_same_games(whole):
    points = [{LIFE: 7, "npcs": 3}, {LIFE: 2, "npcs": 2}]
    df = run(points, mode="full")
    assert df["point"].tolist() == [0] * 6 + [1] * 6
    mine = df[df["point"] == 0].drop(columns="point").reset_index(drop=True)
    ref = whole[whole["point"] == 3].drop(columns="point").reset_index(drop=True)
    pd.testing.assert_frame_equal(mine, ref)


@pytest.mark.parametrize(
    "grid, match",
    [
        ({"/characters/monster/lives": [3]}, r"grid\['/characters/monster/lives'\].*no such"),
        ({"monstrs": [1]}, r"grid: not a settings field.*'monstrs'"),
        ({"npcs": [0]}, r"grid\['npcs'\]: bad value"),
        ({LIFE: []}, r"grid\['/characters/monster/life'\]: needs at least one value"),
        ({"seed": [1]}, r"seeds are the sweep's own axis"),
        ([{LIFE: 3}, {"npcs": 2}], r"grid\[1\]: every point must name"),
    ],
)
def test_a_bad_grid_names_the_key_before_any_game(grid, match):
    with pytest.raises(ArgumentError, match=match):
        sweep(BASE, grid, range(3), executor=ThreadPoolExecutor(1), progress=False)


def test_bad_seeds_are_refused():
    for seeds, match in (([], "no game"), ([1, 1], "repeat"), ([-1], ">= 0")):
        with pytest.raises(ArgumentError, match=match):
            sweep(BASE, {LIFE: [3]}, seeds, executor=ThreadPoolExecutor(1), progress=False)


def test_out_dir_resumes_only_the_missing_games(tmp_path, whole):
    out = tmp_path / "sw"
    first = run(out=out, chunksize=4)
    pd.testing.assert_frame_equal(first, whole)
    parts = sorted(out.glob("part-*.parquet"))
    assert len(parts) == 6 and (out / "manifest.json").exists()
    parts[2].unlink()
    (out / ".part-x.parquet.1.tmp").write_bytes(b"half a part")  # as a kill would leave it
    parts[4].write_bytes(parts[4].read_bytes()[:100])  # as a power loss could leave one
    played = []
    with ThreadPoolExecutor(2) as pool:
        again = sweep(BASE, GRID, range(6), executor=pool, out=out, chunksize=4,
                      progress=lambda done, total: played.append((done, total)))  # fmt: skip
    assert played == [(20, 24), (24, 24)]  # two chunks of 4 replayed, counted from 16 done
    pd.testing.assert_frame_equal(again, whole)
    assert not list(out.glob("*.tmp"))


def test_a_different_call_on_the_same_dir_is_an_error(tmp_path):
    out = tmp_path / "sw"
    run({LIFE: [3]}, seeds=range(2), out=out)
    with pytest.raises(SweepError, match="different sweep.*points"):
        run({LIFE: [4]}, seeds=range(2), out=out)
    with pytest.raises(SweepError, match="seeds differs"):
        run({LIFE: [3]}, seeds=range(3), out=out)


CHILD = """
import sys, time
from concurrent.futures import ThreadPoolExecutor
from labkit.encounter.sim.settings import SimulationSettings
from labkit.encounter.sim.sweep import sweep
sweep(SimulationSettings(max_steps=120), {"/characters/monster/life": [2, 7], "npcs": [2, 3]},
      range(6), executor=ThreadPoolExecutor(1), out=sys.argv[1], chunksize=2,
      progress=lambda done, total: time.sleep(0.3))
"""


def test_a_sweep_killed_with_sigkill_resumes_to_the_uninterrupted_table(tmp_path, whole):
    out = tmp_path / "killed"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(out)], env=os.environ.copy())
    deadline = time.monotonic() + 120
    while len(list(out.glob("part-*.parquet"))) < 2:
        assert child.poll() is None, "the child sweep ended before it could be killed"
        assert time.monotonic() < deadline, "no part file appeared"
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(30)
    assert child.returncode == -signal.SIGKILL
    assert 2 <= len(list(out.glob("part-*.parquet"))) < 12  # killed part-way
    resumed = run(out=out)
    pd.testing.assert_frame_equal(resumed, whole)


def test_summary_rates_and_paired_differences_use_the_same_seeds(whole):
    s = summary(whole, baseline={LIFE: 2, "npcs": 3})
    assert s[[LIFE, "npcs"]].values.tolist() == [[2, 2], [2, 3], [7, 2], [7, 3]]
    assert s["n"].tolist() == [6] * 4 and s.attrs["baseline"] == 1
    for k, rec in s.iterrows():
        g = whole[whole["point"] == k]
        wins = int((g["winner"] == "npc").sum())
        lo, hi = wilson_interval(wins, 6)
        assert rec["npc_wins"] == wins and rec["npc_win_lo"] == pytest.approx(float(lo))
        assert rec["npc_win_hi"] == pytest.approx(float(hi))
    # the paired difference, built by hand seed by seed
    a = whole[whole["point"] == 2].set_index("seed")["winner"].eq("npc").astype(float)
    b = whole[whole["point"] == 1].set_index("seed")["winner"].eq("npc").astype(float)
    d = (a - b).to_numpy()
    assert s.loc[2, "diff"] == pytest.approx(d.mean()) and s.loc[2, "pairs"] == 6
    # Tango's interval of the seeds that went up and down (compare's), reaching 0 when the
    # mid-p McNemar p is 5 % or more
    up, down = int((d > 0).sum()), int((d < 0).sum())
    assert up + down > 0
    lo, hi = tango_interval(up, down, 6)
    p = mcnemar_midp(b.reindex(a.index).to_numpy(), a.to_numpy())
    assert s.loc[2, "p_value"] == p
    lo, hi = (min(lo, 0.0), max(hi, 0.0)) if p >= 0.05 else (lo, hi)
    assert (s.loc[2, "diff_lo"], s.loc[2, "diff_hi"]) == pytest.approx((lo, hi))
    assert s.loc[1, "diff"] == 0 and math.isnan(s.loc[1, "diff_lo"])  # itself
    assert s.loc[1, "note"] == "the baseline itself"
    # pairing is by seed, not by row position: shuffle and drop rows of one point
    shuffled = pd.concat([whole[whole["point"] != 2], whole[whole["point"] == 2].iloc[::-1][:4]])
    s2 = summary(shuffled, baseline=1, parameters=[LIFE, "npcs"])
    kept = whole[whole["point"] == 2].iloc[::-1][:4]["seed"].to_numpy()
    assert s2.set_index("point").loc[2, "pairs"] == 4
    assert s2.set_index("point").loc[2, "diff"] == pytest.approx(
        float((a.loc[kept] - b.loc[kept]).mean()))  # fmt: skip
