"""Batch on a dask.distributed LocalCluster (2 worker processes, loopback).

The rows must equal the local run seed for seed, and killing a worker in the middle of a batch
must neither lose nor duplicate a row (the scheduler re-runs the lost tasks elsewhere).
"""

from __future__ import annotations

import os
import signal
import threading

import numpy as np
import pytest

from labkit.encounter.sim.batch import run_batch
from labkit.encounter.sim.settings import SimulationSettings

BASE = SimulationSettings(max_steps=200)


@pytest.fixture(scope="module")
def local():
    return run_batch(BASE, range(100), progress=False)


def test_rows_on_the_cluster_equal_the_local_run(client, local):
    res = run_batch(BASE, range(20), executor=client, progress=False, chunksize=4)
    assert np.array_equal(res.rows, local.rows[:20])


def test_a_worker_killed_mid_batch_loses_and_duplicates_nothing(client, local):
    pids = client.run(os.getpid)
    started = threading.Event()
    out = {}

    def on_progress(done, total):
        started.set()

    def work():
        try:
            out["result"] = run_batch(BASE, range(20, 100), executor=client, chunksize=2,
                                      progress=on_progress)  # fmt: skip
        except BaseException as exc:  # pragma: no cover - reported below
            out["error"] = exc

    runner = threading.Thread(target=work)
    runner.start()
    assert started.wait(90), "no chunk finished"
    victim = sorted(pids.values())[0]
    assert runner.is_alive(), "the batch ended before a worker could be killed"
    os.kill(victim, signal.SIGKILL)  # a worker process this test's cluster started
    runner.join(120)
    assert victim not in client.run(os.getpid).values()
    assert "error" not in out, out.get("error")
    res = out["result"]
    assert res.rows["seed"].tolist() == list(range(20, 100))
    assert np.array_equal(res.rows, local.rows[20:])
