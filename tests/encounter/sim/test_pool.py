"""Local worker pools: a chunk sends the settings once and seeds per game; a reused pool starts
with compiled kernels and gives the serial rows."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from labkit import _jit
from labkit.encounter.sim.batch import local_executor, play_chunk, run_batch
from labkit.encounter.sim.runner import outcome_row
from tests.encounter.sim.test_batch_local import BASE

ROOT = Path(__file__).resolve().parents[3]


def test_play_chunk_sends_settings_once_and_seeds_per_game():
    rows = play_chunk({1: BASE.to_dict()}, [(7, 1, 5, 6), (8, 1, 2, 2)])
    assert [r[0] for r in rows] == [7, 8]
    assert rows[0][1:] == outcome_row(BASE.replace(seed=5, map_seed=6))


def _loaded_kernels() -> list[int]:
    """Compiled signatures of each public encounter kernel (those with warm-up examples)."""
    mine = [k for k in _jit.REGISTRY.values() if k.module == "labkit.encounter._kernels"]
    return [len(getattr(k.dispatcher, "signatures", [1])) for k in mine if k.example is not None]


def test_a_reused_local_pool_starts_with_kernels_and_gives_the_serial_rows():
    with local_executor(2) as pool:
        loaded = pool.submit(_loaded_kernels).result()
        assert loaded and all(n >= 1 for n in loaded)
        a = run_batch(BASE, range(6), executor=pool, progress=False)
        b = run_batch(BASE, range(6, 12), executor=pool, progress=False)
    with ThreadPoolExecutor(1) as serial:
        both = run_batch(BASE, range(12), executor=serial, progress=False, chunksize=12)
    assert np.array_equal(np.concatenate([a.rows, b.rows]), both.rows)


# --- SIGTERM: the CLI turns it into SystemExit; a pool must neither keep nor lose it -----------
# Each case runs in a fresh interpreter that installs the CLI's handler, as `labkit sim batch`.

_SCRIPT_HEAD = """
import os, signal, sys, time
from labkit.cli import _terminate
from labkit.encounter.sim.pool import local_executor, stop_pool
signal.signal(signal.SIGTERM, _terminate)
"""


def _run(body: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", _SCRIPT_HEAD + textwrap.dedent(body)], env=env,
                          capture_output=True, text=True, timeout=timeout)  # fmt: skip


def test_a_terminated_worker_ends_even_though_it_was_forked_from_the_cli():
    # The worker inherits the CLI's SIGTERM handler; its task loop caught the SystemExit as the
    # task's error and waited for the next task, so terminate() did not end it.
    done = _run("""
        pool = local_executor(1)
        pid = pool.submit(os.getpid).result()
        pool.submit(time.sleep, 60)
        time.sleep(0.5)
        os.kill(pid, signal.SIGTERM)
        def state():
            try:
                return open(f"/proc/{pid}/stat").read().split()[2]
            except OSError:
                return "gone"
        end = time.monotonic() + 10
        while time.monotonic() < end and state() not in ("Z", "gone"):
            time.sleep(0.05)
        print(state())
        stop_pool(pool)
    """)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() in (["Z"], ["gone"]), done.stdout


def test_a_sigterm_while_the_pool_forks_is_not_lost():
    # Python drops an exception raised in an at-fork hook; a SIGTERM delivered there was lost
    # (the batch played on and exited 0). Here the hook itself sends the signal.
    done = _run("""
        os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGTERM))
        try:
            pool = local_executor(2)
        except SystemExit as exc:
            print("stopped", exc.code)
        else:
            print("played on")
            stop_pool(pool)
    """)  # fmt: skip
    assert done.stdout.split() == ["stopped", "143"], (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
