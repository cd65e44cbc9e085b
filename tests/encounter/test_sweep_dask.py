"""A sweep on a dask.distributed LocalCluster (2 worker processes, loopback, no dashboard):
a worker killed mid-sweep loses and duplicates nothing, and the streamed parts resume."""

from __future__ import annotations

import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from labkit.encounter.sim.settings import SimulationSettings
from labkit.encounter.sim.sweep import sweep

BASE = SimulationSettings(max_steps=120)
GRID = {"/characters/monster/life": [3, 6]}
SEEDS = range(30)


def test_a_worker_killed_mid_sweep_resumes_to_the_uninterrupted_table(client, tmp_path):
    with ThreadPoolExecutor(2) as pool:
        whole = sweep(BASE, GRID, SEEDS, executor=pool, progress=False)
    out = tmp_path / "dask"
    pids = client.run(os.getpid)
    started = threading.Event()
    result = {}

    def work():
        try:
            result["frame"] = sweep(BASE, GRID, SEEDS, executor=client, out=out, chunksize=2,
                                    progress=lambda done, total: started.set())  # fmt: skip
        except BaseException as exc:  # pragma: no cover - reported below
            result["error"] = exc

    runner = threading.Thread(target=work)
    runner.start()
    assert started.wait(90), "no chunk finished"
    assert runner.is_alive(), "the sweep ended before a worker could be killed"
    victim = sorted(pids.values())[0]
    os.kill(victim, signal.SIGKILL)  # a worker process this test's cluster started
    runner.join(120)
    assert "error" not in result, result.get("error")
    assert victim not in client.run(os.getpid).values()
    pd.testing.assert_frame_equal(result["frame"], whole)
    # the parts on disk hold every game once: resuming plays nothing and gives the same table
    played = []
    again = sweep(BASE, GRID, SEEDS, executor=client, out=out,
                  progress=lambda done, total: played.append(done))  # fmt: skip
    assert played == [] and len(list(out.glob("part-*.parquet"))) == 30
    pd.testing.assert_frame_equal(again, whole)
