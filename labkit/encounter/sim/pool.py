"""Where games run: the task every worker runs and the local process pool it runs in.

Shared by :func:`~labkit.encounter.sim.batch.run_batch` and the chunked engine under
:func:`~labkit.encounter.sweep` (:mod:`~labkit.encounter.sim.engine`), which both import it
(so neither needs the other's helpers: no import cycle).

Examples
--------
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> rows = play_chunk({0: SimulationSettings().to_dict()}, [(0, 0, 3, 3), (1, 0, 4, 4)])
>>> [r[0] for r in rows], rows == play_chunk({0: SimulationSettings().to_dict()},
...                                          [(0, 0, 3, 3), (1, 0, 4, 4)], mode="outcome")
([0, 1], True)
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from labkit import ArgumentError
from labkit.encounter.sim.runner import outcome_row
from labkit.encounter.sim.settings import SimulationSettings

__all__ = [
    "Job",
    "play_chunk",
    "local_executor",
    "stop_pool",
    "TASKS_PER_WORKER",
    "MAX_CHUNK",
    "MAX_WORKERS",
]

TASKS_PER_WORKER = 32
MAX_CHUNK = 50

# One game to play: (job index, settings index, seed, map seed).
Job = tuple[int, int, int, int]


def play_chunk(docs: Mapping[int, dict], jobs: Sequence[Job], mode: str = "full") -> list[tuple]:
    """Play ``jobs`` of settings ``docs`` (by settings index); the task every worker runs.

    Returns ``(job index, *outcome_row)`` per game (see
    :func:`~labkit.encounter.sim.runner.outcome_row`); ``mode="outcome"`` plays them in the numba
    kernel (:mod:`labkit.encounter.sim.fast_outcome`, the same rows), ``"full"`` in the session.
    """
    if mode == "outcome":
        from labkit.encounter.sim.fast_outcome import play_outcomes

        return play_outcomes(docs, jobs)
    base = {k: SimulationSettings.from_dict(doc) for k, doc in docs.items()}
    return [
        (i, *outcome_row(base[k].replace(seed=seed, map_seed=map_seed)))
        for i, k, seed, map_seed in jobs
    ]


def _load_kernels() -> None:
    """Load the encounter kernels (from numba's on-disk cache) into this process."""
    from labkit import _jit
    from labkit.encounter import _game_kernels, _kernels

    for k in list(_jit.REGISTRY.values()):
        if k.module in (_kernels.__name__, _game_kernels.__name__) and k.example is not None:
            k.dispatcher(*k.example())


#: Most local worker processes one pool may start.
MAX_WORKERS = 256


def _watch_parent(parent: int, every: float = 1.0) -> None:
    """In a worker: exit as soon as the parent process is gone (killed, even by SIGKILL).

    A pool worker otherwise keeps playing its chunk, and may wait on its queue for ever, after
    ``labkit sim batch`` was killed; re-parented, its ``getppid()`` changes.
    """
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)

    threading.Thread(target=watch, name="labkit-parent-watch", daemon=True).start()


def _start_worker(parent: int | None = None) -> None:
    """Pool initializer: take SIGTERM's default action back, watch the parent, load the kernels.

    A forked worker inherits the CLI's SIGTERM handler, which raises ``SystemExit``; the pool's
    worker loop catches that as the task's error and goes on waiting for the next task, so
    :func:`stop_pool`'s ``terminate()`` did not end it, and the pool's own thread then waited
    for it for ever (``labkit sim batch`` hung on SIGTERM). A worker holds nothing to clean up.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if _HELD:  # held while forking: see _start_workers
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    if parent is not None:
        _watch_parent(parent)
    _load_kernels()


def stop_pool(pool: Any) -> None:
    """Shut a pool down at once: cancel what has not started and end its worker processes.

    Used when a batch is interrupted (Ctrl-C, SIGTERM, an error): a plain ``shutdown()`` would
    wait for every queued chunk to be played first.
    """
    # Taken before shutdown(), which forgets them (private, but the pool offers no terminate).
    procs = list((getattr(pool, "_processes", None) or {}).values())
    thread = getattr(pool, "_executor_manager_thread", None)
    try:
        pool.shutdown(wait=False, cancel_futures=True)
    except TypeError:  # an executor-like object without these options
        pool.shutdown()
    for proc in procs:
        try:
            proc.terminate()
        except (OSError, AttributeError, ValueError):
            pass
    for proc in procs:
        try:
            proc.join(5)
            if proc.is_alive():  # the pool's thread joins every worker at exit, unbounded
                proc.kill()
                proc.join(5)
        except (OSError, AttributeError, ValueError, AssertionError):
            pass
    if thread is not None:
        # Its workers gone, the pool's thread ends; joined here, it is also gone from the
        # pool module's exit hook, which would otherwise write to the pipe the thread closed
        # on its way out ("Exception ignored ... Bad file descriptor" on a SIGTERM).
        thread.join(5)


def local_executor(max_workers: int | None = None) -> ProcessPoolExecutor:
    """A process pool whose workers start with the encounter kernels loaded.

    Pass it to :func:`run_batch` to reuse the same workers over many batches (``run_batch``
    without an executor starts such a pool and shuts it down again).

    Examples
    --------
    >>> from labkit.encounter.sim.batch import run_batch
    >>> from labkit.encounter.sim.settings import SimulationSettings
    >>> with local_executor(2) as pool:
    ...     a = run_batch(SimulationSettings(), range(4), executor=pool, progress=False)
    ...     b = run_batch(SimulationSettings(), range(4), executor=pool, progress=False)
    >>> bool((a.rows == b.rows).all())
    True
    """
    if max_workers is not None:
        if isinstance(max_workers, bool) or not isinstance(max_workers, int):
            raise ArgumentError("must be an integer", argument="max_workers", value=max_workers)
        if not 1 <= max_workers <= MAX_WORKERS:
            raise ArgumentError(f"must be between 1 and {MAX_WORKERS}", argument="max_workers",
                                value=max_workers)  # fmt: skip
    workers = max_workers or os.cpu_count() or 1
    pool = ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context(),
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )
    _load_before_fork(pool)
    _start_workers(pool)
    return pool


# No signal masks on Windows (and no fork either, so nothing to hold there).
_HELD = {signal.SIGTERM, signal.SIGINT} if hasattr(signal, "pthread_sigmask") else set()


def _start_workers(pool: ProcessPoolExecutor) -> None:
    """Start the pool's workers now, with SIGTERM and SIGINT held back while it forks.

    Python drops an exception raised in an at-fork hook ("Exception ignored in _releaseLock"),
    so a SIGTERM arriving while the pool forked was lost in the parent (the batch played on to
    the end and exited 0) or kept a half-started worker alive, and the process then hung at
    exit joining it. Held, the signal is delivered once forking is over: in the parent at the
    next line, in a worker when its initializer lets it through (and it ends the worker).
    """
    if not _HELD:
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        pool.submit(int)  # with fork, the first task starts every worker (and the pool's thread)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _load_before_fork(pool: ProcessPoolExecutor) -> None:
    """With the ``fork`` start method, load the kernels in this process before the pool starts
    its workers (at its first task), so they inherit them; once per process, then free."""
    context = getattr(pool, "_mp_context", None)  # private, but the only way to ask a pool
    if context is not None and context.get_start_method() == "fork":
        _load_kernels()


def _is_dask_client(executor: Any) -> bool:
    return type(executor).__module__.startswith("distributed") and hasattr(executor, "get_executor")


def _worker_count(executor: Any) -> int:
    """How many games the executor runs at once (for the default chunk size)."""
    if _is_dask_client(executor):
        return max(1, sum(executor.nthreads().values()))
    return getattr(executor, "_max_workers", None) or os.cpu_count() or 1
