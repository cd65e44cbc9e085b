"""Several threads per worker (issue 46: "a path the tests' data never reaches"): every study
that takes an executor, run on a dask ``LocalCluster`` of one worker with 2 or 3 threads (in
this process and in a worker process, loopback), gives exactly the local run's answer on the
same seeds. Games that share a process at the same time would show any state or random stream
shared between them (a cache filled by one game and read by another, a module-level generator,
a balance object one game changes).

The local reference is a one-process pool (:func:`~labkit.encounter.sim.pool.local_executor`):
one game at a time. Chunks are small so that the threads really play at once.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from labkit.encounter.sim.settings import SimulationSettings

BASE = SimulationSettings(max_steps=150)
LIFE = "/characters/monster/life"
LAYOUTS = [
    pytest.param((False, 2), id="threads=2,in-process"),
    pytest.param((True, 3), id="threads=3,worker-process"),
]


@pytest.fixture(scope="module")
def local():
    """The local run: one worker process, one game at a time."""
    from labkit.encounter.sim.pool import local_executor

    with local_executor(1) as pool:
        yield pool


@pytest.fixture(scope="module", params=LAYOUTS)
def threaded(request):
    """A client on one dask worker with several threads (loopback; any dashboard on a free
    port, so a cluster already on 8787 does not warn)."""
    import distributed

    processes, threads = request.param
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=threads, processes=processes, host="127.0.0.1",
        protocol="tcp", dashboard_address=":0", silence_logs=40,
    ) as cluster, distributed.Client(cluster) as client:  # fmt: skip
        assert sum(client.nthreads().values()) == threads
        yield client


def _frames_equal(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


@pytest.mark.parametrize("mode", ["outcome", "full"])
def test_a_batch_on_threads_equals_the_local_run(threaded, local, mode):
    from labkit.encounter.sim.batch import run_batch

    settings = [BASE, BASE.replace(balance={LIFE: 3}, npcs=2)]
    args = {"progress": False, "chunksize": 2, "mode": mode}
    there = run_batch(settings, range(24), executor=threaded, **args)
    here = run_batch(settings, range(24), executor=local, **args)
    assert np.array_equal(there.rows, here.rows)
    assert len(set(there.rows["winner"].tolist())) > 1  # the games differ: a real comparison


def test_a_sweep_on_threads_equals_the_local_run(threaded, local):
    from labkit.encounter.sim.sweep import sweep

    grid = {LIFE: [3, 5, 7], "npcs": [2, 3]}
    there = sweep(BASE, grid, range(12), executor=threaded, progress=False, chunksize=3)
    here = sweep(BASE, grid, range(12), executor=local, progress=False)
    _frames_equal(there, here)


def test_compare_on_threads_equals_the_local_run(threaded, local):
    from labkit.encounter.sim.compare import compare

    args = {"bootstrap": 200, "metrics": ["npc_win", "length_mean"], "base": BASE}
    there = compare({}, {LIFE: 4}, range(40), executor=threaded, **args)
    here = compare({}, {LIFE: 4}, range(40), executor=local, **args)
    _frames_equal(there, here)


def test_policy_balance_on_threads_equals_the_local_run(threaded, local):
    from labkit.encounter.sim.ratings import policy_balance

    args = {"base": BASE, "npc": ["scavenger", "hunter"], "monster": ["hunter", "random"]}
    there = policy_balance({}, {LIFE: 4}, range(8), executor=threaded, **args)
    here = policy_balance({}, {LIFE: 4}, range(8), executor=local, **args)
    _frames_equal(there, here)


def test_importance_on_threads_equals_the_local_run(threaded, local):
    from labkit.encounter.sim.importance import importance

    knobs = {LIFE: (2, 8), "npcs": (1, 4)}
    args = {"seeds": range(2000), "games": 6, "trajectories": 4, "levels": 4, "bootstrap": 50,
            "rng": 3, "progress": False}  # fmt: skip
    there = importance(BASE, knobs, executor=threaded, **args)
    here = importance(BASE, knobs, executor=local, **args)
    _frames_equal(there.table, here.table)


def test_tune_on_threads_equals_the_local_run(threaded, local):
    from labkit.encounter.sim.tune import tune

    args = {"bounds": (2, 9), "seeds": range(400), "start": 40, "budget": 400, "bootstrap": 50,
            "progress": False, "base": BASE}  # fmt: skip
    base = args.pop("base")
    there = tune(base, LIFE, 0.5, executor=threaded, **args)
    here = tune(base, LIFE, 0.5, executor=local, **args)
    assert (there.value, there.ci, there.games) == (here.value, here.ci, here.games)
    _frames_equal(there.curve, here.curve)


def test_tune_many_on_threads_equals_the_local_run(threaded, local):
    from labkit.encounter.sim.tune_many import tune_many

    knobs = {LIFE: (2, 8)}
    args = {"budget": 6, "games": 20, "fresh": 20, "confirm": 40, "seeds": range(2000), "rng": 1,
            "progress": False}  # fmt: skip
    there = tune_many(BASE, knobs, ["npc_win=0.5±0.1"], executor=threaded, **args)
    here = tune_many(BASE, knobs, ["npc_win=0.5±0.1"], executor=local, **args)
    _frames_equal(there.trials, here.trials)
    _frames_equal(there.checked, here.checked)
    assert (there.best, there.met, there.games) == (here.best, here.met, here.games)
