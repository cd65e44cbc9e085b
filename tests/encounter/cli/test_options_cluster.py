"""Cluster options fail in bounded time with one line (issue 46.4).

Every scheduler option is checked before connecting; the two waits (reaching the scheduler, its
first worker) are bounded by options; a scheduler lost mid-run names the command to re-run.
The one cluster here is a scheduler without workers on loopback (no worker process starts);
the options refused before connecting are cases of ``tests/hostile_cases_options.py``.
"""

from __future__ import annotations

import json

import distributed
import pytest

from tests.hostile_cases import run_cli

BATCH = ["sim", "batch", "--seeds", "0:4", "--quiet"]


def _one_line(argv: list[str], message: str, rc: int, also: str = "") -> None:
    verdict, got, out, err = run_cli(argv, seconds=60)
    assert (verdict, got) == ("clean", rc), (verdict, got, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and also in lines[0], err


def test_a_scheduler_with_no_worker_is_given_up_after_workers_timeout():
    with distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=40) as cluster:  # fmt: skip
        address = cluster.scheduler_address
        _one_line(
            [*BATCH, "--scheduler", address, "--workers-timeout", "0.5"],
            f"--scheduler: the scheduler at {address} has no worker after 0.5 s",
            1,
        )


def test_no_scheduler_at_the_address_is_given_up_after_connect_timeout():
    # port 9 (discard) on loopback: nothing listens there in a test container
    _one_line(
        [*BATCH, "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "0.5"],
        "--scheduler: no scheduler answered at tcp://127.0.0.1:9 within 0.5 s",
        1,
    )


def test_the_address_in_a_scheduler_file_is_the_one_connected_to(tmp_path):
    f = tmp_path / "scheduler.json"
    f.write_text(json.dumps({"type": "Scheduler", "address": "tcp://127.0.0.1:9"}))
    _one_line([*BATCH, "--scheduler-file", str(f), "--connect-timeout", "0.5"],
              "--scheduler-file: no scheduler answered at tcp://127.0.0.1:9", 1)  # fmt: skip


def test_a_scheduler_lost_mid_run_names_the_command_to_re_run(monkeypatch):
    import labkit.encounter.sim.batch as batch

    def lost(*a, **k):  # what dask raises for every pending future when the scheduler dies
        raise distributed.client.FutureCancelledError("key", "lost")

    monkeypatch.setattr(batch, "run_batch", lost)
    _one_line([*BATCH, "--out", "r.csv"],
              "the cluster's scheduler went away (FutureCancelledError); re-run `labkit sim batch "
              "--seeds 0:4 --quiet "
              "--out r.csv`", 1)  # fmt: skip


@pytest.mark.parametrize("text", ["tcp://127.0.0.1:8786", "tls://h:1", "127.0.0.1:8786",
                                  "inproc://10.0.0.1/1/2", "ws://[::1]:8786"])  # fmt: skip
def test_addresses_dask_writes_are_accepted(text):
    from labkit.encounter.cli.options import scheduler_address

    got = scheduler_address(text)
    assert got.endswith(text.partition("://")[2] or text) and "://" in got


def test_a_scheduler_lost_as_the_run_starts_names_the_command_to_re_run(monkeypatch, tmp_path):
    """A real loss: the cluster closes just as the games are handed out (whatever distributed
    raises then, a cancelled future, a closed comm or a failed call, it is one line)."""
    import labkit.encounter.sim.engine as engine

    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=None, silence_logs=40)  # fmt: skip
    real = engine._worker_count

    def lose(executor):
        cluster.close()
        return real(executor)

    monkeypatch.setattr(engine, "_worker_count", lose)
    out = str(tmp_path / "r.csv")
    argv = [*BATCH, "--scheduler", cluster.scheduler_address, "--connect-timeout", "1",
            "--out", out]  # fmt: skip
    try:
        _one_line(
            argv,
            "the cluster's scheduler went away (",
            1,
            also=f"re-run `labkit sim batch --seeds 0:4 --quiet --scheduler {argv[6]}",
        )
    finally:
        cluster.close()
