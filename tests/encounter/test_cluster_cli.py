"""A real Dask cluster of separate processes, as an operator runs one (issue 31).

``dask scheduler --scheduler-file F`` and two ``dask worker --scheduler-file F`` processes on
loopback; ``labkit sim sweep`` / ``labkit sim tune`` pointed at them with ``--scheduler-file``;
one worker SIGKILLed part-way and a replacement started. The answer must equal a run on one
local process row for row (sweep) or line for line (tune), and the parts written must hold every
game, none more than once beyond one chunk.

Every process is started in its own session (process group) and the fixture kills each group
with SIGKILL in ``finally``, so nothing outlives the test even when it fails; the scheduler also
has ``--idle-timeout`` and the workers ``--death-timeout``, so even a SIGKILLed pytest leaves
nothing running for long. Games are small (a 2x2 map, 1 NPC, 20 steps: about half a
millisecond each) so 10^5 of them fit the time budget twice (cluster and reference).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import distributed
import pandas as pd
import pytest

from labkit.cli import main

DASK = Path(sys.executable).with_name("dask")
GAME = ["--max-steps", "20", "--width", "2", "--height", "2", "--npcs", "1"]
GRID = "/characters/monster/life=3,6"
SEEDS = "0:50000"  # 2 points x 50,000 seeds = 10^5 games
GAMES = 100_000
CHUNK = 2_500  # 40 parts of about a second each: a kill lands mid-sweep, a lost chunk is cheap
pytestmark = pytest.mark.slow  # no dask command beside this Python fails it: never a skip


def _env() -> dict[str, str]:
    root = str(Path(__file__).resolve().parents[2])
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": root + (os.pathsep + path if path else "")}


class Cluster:
    """The processes of one test: a scheduler, workers and labkit commands (each its own group)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.file = folder / "scheduler.json"
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []

    def start(self, argv: list[str], **kw) -> subprocess.Popen:
        p = subprocess.Popen(argv, env=_env(), start_new_session=True, cwd=self.folder, **kw)
        self.procs.append(p)
        return p

    def scheduler(self) -> None:
        self.start([str(DASK), "scheduler", "--scheduler-file", str(self.file), "--host",
                    "127.0.0.1", "--port", "0", "--no-dashboard", "--idle-timeout", "300s"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        deadline = time.monotonic() + 60
        while not self.file.exists():
            assert time.monotonic() < deadline, "the scheduler wrote no scheduler file"
            time.sleep(0.1)

    def worker(self, name: str) -> subprocess.Popen:
        w = self.start([str(DASK), "worker", "--scheduler-file", str(self.file), "--name", name,
                        "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                        "--death-timeout", "60", "--local-directory", str(self.folder)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        self.workers.append(w)
        return w

    def wait_for_workers(self, n: int) -> None:
        with distributed.Client(scheduler_file=str(self.file), timeout=60) as c:
            c.wait_for_workers(n, timeout=90)

    def labkit(self, *argv: str) -> subprocess.Popen:
        return self.start([sys.executable, "-m", "labkit", *argv, "--scheduler-file",
                           str(self.file)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)  # fmt: skip

    def kill_a_worker(self) -> None:
        """SIGKILL the first live worker (its whole group) and start a replacement."""
        victim = next(w for w in self.workers if w.poll() is None)
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait(30)
        self.worker(f"replacement-{len(self.workers)}")

    def stop(self) -> None:
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass  # already gone with its whole group
            p.wait(30)


@pytest.fixture
def cluster(tmp_path):
    c = Cluster(tmp_path)
    try:
        c.scheduler()
        c.worker("first")
        c.worker("second")
        c.wait_for_workers(2)
        yield c
    finally:
        c.stop()
    for p in c.procs:  # every group is gone: no scheduler, worker or labkit command left over
        with pytest.raises(ProcessLookupError):
            os.killpg(p.pid, 0)


def _finish(proc: subprocess.Popen, timeout: float = 240) -> tuple[str, str]:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err[-2000:]
    return out, err


def test_a_sweep_on_a_real_cluster_survives_a_killed_worker(cluster, tmp_path, capsys):
    ref_csv, csv, out = tmp_path / "reference.csv", tmp_path / "cluster.csv", tmp_path / "parts"
    argv = ["sim", "sweep", *GAME, "--grid", GRID, "--seeds", SEEDS, "--chunksize", str(CHUNK),
            "--quiet"]  # fmt: skip
    assert main([*argv, "--workers", "1", "--csv", str(ref_csv)]) == 0  # one local process
    reference = capsys.readouterr().out
    run = cluster.labkit(*argv, "--out", str(out), "--csv", str(csv))
    deadline = time.monotonic() + 180
    while len(list(out.glob("part-*.parquet"))) < 4:  # part-way: some chunks are on disk
        assert run.poll() is None, run.communicate()[1][-2000:]
        assert time.monotonic() < deadline, "no part written"
        time.sleep(0.05)
    cluster.kill_a_worker()
    written = len(list(out.glob("part-*.parquet")))
    assert written < GAMES // CHUNK, "the sweep ended before a worker could be killed"
    printed, _ = _finish(run)
    assert csv.read_text() == ref_csv.read_text()  # row for row, every column
    assert printed.splitlines()[:2] == reference.splitlines()[:2]  # the per-point summary
    parts = [pd.read_parquet(p, columns=["point", "seed"]) for p in out.glob("part-*.parquet")]
    rows = pd.concat(parts)
    assert len(rows.drop_duplicates()) == GAMES  # every game is in a part
    assert len(rows) - GAMES <= CHUNK  # at most one chunk's games twice
    assert len(parts) <= GAMES // CHUNK + 1


def test_tune_on_a_real_cluster_survives_a_killed_worker(cluster, tmp_path, capsys):
    argv = ["sim", "tune", *GAME, "--param", "/characters/monster/life", "--target", "0.5",
            "--bounds", "1,12", "--seeds", "0:4000", "--start", "500",
            "--budget", "8000"]  # fmt: skip
    assert main([*argv, "--workers", "1", "--quiet", "--patch-out", str(tmp_path / "a.json")]) == 0
    reference = capsys.readouterr().out
    run = cluster.labkit(*argv, "--patch-out", str(tmp_path / "b.json"))
    seen: list[int] = []

    def read_progress() -> None:  # the tune bar on stderr: "tune: ...| 1000/8000 [..."
        buffer = ""
        while chunk := run.stderr.read(64):
            buffer = (buffer + chunk)[-400:]
            seen.extend(int(n) for n in re.findall(r"\| *(\d+)/8000", buffer))

    reader = threading.Thread(target=read_progress, daemon=True)
    reader.start()
    deadline = time.monotonic() + 180
    while not any(n > 0 for n in seen):  # both bounds played: the bisection is under way
        assert run.poll() is None, "tune ended before a worker could be killed"
        assert time.monotonic() < deadline, "tune made no progress"
        time.sleep(0.05)
    cluster.kill_a_worker()
    printed = run.stdout.read()
    assert run.wait(240) == 0
    reader.join(10)
    # the value, its interval and every point of the curve (the last line names the patch file)
    assert printed.splitlines()[:-1] == reference.splitlines()[:-1]
    a = json.loads((tmp_path / "a.json").read_text())
    assert a == json.loads((tmp_path / "b.json").read_text())
