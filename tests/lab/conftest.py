"""Fixtures of the lab tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def client():
    """A dask.distributed client on a LocalCluster: 2 worker processes, loopback, no dashboard."""
    import distributed

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, silence_logs=40,
    ) as cluster, distributed.Client(cluster) as c:  # fmt: skip
        yield c
