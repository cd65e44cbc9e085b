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
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor

from labkit import ArgumentError
from labkit.encounter.sim.runner import outcome_row
from labkit.encounter.sim.settings import SimulationSettings

# engine.py reads these two from here
from labkit.lab._workers import is_dask_client as _is_dask_client  # noqa: F401
from labkit.lab._workers import prepare_worker, stop_pool
from labkit.lab._workers import start_workers as _start_workers
from labkit.lab._workers import worker_count as _worker_count  # noqa: F401

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


def _start_worker(parent: int | None = None) -> None:
    """Pool initializer: take SIGTERM's default action back, watch the parent, load the kernels.

    A forked worker inherits the CLI's SIGTERM handler, which raises ``SystemExit``; the pool's
    worker loop catches that as the task's error and goes on waiting for the next task, so
    :func:`stop_pool`'s ``terminate()`` did not end it, and the pool's own thread then waited
    for it for ever (``labkit sim batch`` hung on SIGTERM). A worker holds nothing to clean up.
    """
    prepare_worker(parent)  # the lab's: SIGTERM back, held signals let through, the watch
    _load_kernels()


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


def _load_before_fork(pool: ProcessPoolExecutor) -> None:
    """With the ``fork`` start method, load the kernels in this process before the pool starts
    its workers (at its first task), so they inherit them; once per process, then free."""
    context = getattr(pool, "_mp_context", None)  # private, but the only way to ask a pool
    if context is not None and context.get_start_method() == "fork":
        _load_kernels()
