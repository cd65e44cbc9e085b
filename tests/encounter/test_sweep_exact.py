"""Sweeps and tuning, from their rules (sim/sweep.py, sim/sweep_folder.py, sim/tune.py).

* A resume in a *new* process after a damaged part: the unreadable part is removed (not left
  beside its replacement), a killed run's temporaries are gone, the manifest is untouched, and
  the parts on disk hold every game exactly once; a part whose rows were edited is refused
  naming the file and left as it was.
* ``budget`` is "the most games to spend in all": never exceeded, however tight.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labkit import ArgumentError
from labkit.encounter.sim.settings import SimulationSettings
from labkit.encounter.sim.sweep import SweepError, sweep
from labkit.encounter.sim.tune import tune

GRID = {"/characters/monster/life": [2, 7]}
CHILD = """
import sys
from concurrent.futures import ThreadPoolExecutor
from labkit.encounter.sim.settings import SimulationSettings
from labkit.encounter.sim.sweep import sweep
sweep(SimulationSettings(max_steps=120), {"/characters/monster/life": [2, 7]}, range(4),
      executor=ThreadPoolExecutor(1), out=sys.argv[1], chunksize=2, progress=False)
"""


def run(out=None):
    with ThreadPoolExecutor(1) as pool:
        return sweep(SimulationSettings(max_steps=120), GRID, range(4), executor=pool,
                     out=out, chunksize=2, progress=False)  # fmt: skip


def in_new_process(out):
    return subprocess.run([sys.executable, "-c", CHILD, str(out)], env=os.environ.copy(),
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def games_on_disk(out):
    rows = pd.concat([pq.read_table(p).to_pandas() for p in sorted(out.glob("part-*.parquet"))])
    return sorted(zip(rows["point"], rows["seed"]))


def test_a_new_process_resuming_after_a_damaged_part_leaves_each_game_once(tmp_path):
    out = tmp_path / "sw"
    whole = run(out)
    manifest = (out / "manifest.json").read_bytes()
    parts = sorted(out.glob("part-*.parquet"))
    assert len(parts) == 4
    parts[1].write_bytes(parts[1].read_bytes()[:80])  # cut short by a power loss
    (out / ".part-000000002-1.parquet.tmp").write_bytes(b"half")  # left by a kill
    done = in_new_process(out)
    assert done.returncode == 0, done.stderr
    assert not parts[1].exists()  # removed, not left beside the new part
    assert not list(out.glob("*.tmp")) and (out / "manifest.json").read_bytes() == manifest
    assert games_on_disk(out) == [(p, s) for p in range(2) for s in range(4)]
    pd.testing.assert_frame_equal(run(out), whole)


def test_an_edited_part_is_refused_in_a_new_process_and_left_as_it_was(tmp_path):
    out = tmp_path / "sw"
    run(out)
    part = sorted(out.glob("part-*.parquet"))[0]
    table = pq.read_table(part)
    edited = table.set_column(table.column_names.index("steps"), "steps",
                              [[s + 1 for s in table.column("steps").to_pylist()]])  # fmt: skip
    pq.write_table(edited.replace_schema_metadata(table.schema.metadata), part)
    before = part.read_bytes()
    done = in_new_process(out)
    assert done.returncode != 0 and "do not match its checksum" in done.stderr
    assert part.name in done.stderr
    assert part.read_bytes() == before and len(list(out.glob("part-*.parquet"))) == 4
    with pytest.raises(SweepError, match="checksum"):
        run(out)


# -- the game budget of tune -------------------------------------------------------------------
U = np.random.default_rng(0).random(4000)


@settings(max_examples=40, deadline=None)
@given(
    budget=st.integers(20, 400),
    start=st.integers(10, 10),
    integer=st.booleans(),
    mid=st.floats(2.0, 8.0),
)
def test_tune_never_spends_more_games_than_its_budget(budget, start, integer, mid):
    played = []

    def response(v, seeds):
        played.append(len(seeds))
        return U[seeds] < 1 / (1 + np.exp(1.5 * (v - mid)))

    bounds = (1, 9) if integer else (1.0, 9.0)
    t = tune(None, "x", 0.5, bounds=bounds, response=response, progress=False, budget=budget,
             start=start, bootstrap=20)  # fmt: skip
    assert sum(played) == t.games <= budget
    assert t.curve["n"].sum() == t.games  # every game counted at its point
    lo, hi = t.ci  # a real knob: the crossing's interval; a whole one: its value's rate's
    if integer:
        row = t.whole.set_index("value").loc[t.value]
        # an unplayed value's rate may be anything: 0-1
        assert (row["n"] == 0 and (lo, hi) == (0.0, 1.0)) or lo <= row["rate"] <= hi
    else:
        assert np.isnan(lo) or lo <= t.value <= hi


def test_a_budget_below_both_ends_is_refused():
    with pytest.raises(ArgumentError, match="budget"):
        tune(None, "x", 0.5, bounds=(1.0, 9.0), response=lambda v, s: s % 2 == 0,
             progress=False, budget=39, start=20)  # fmt: skip
