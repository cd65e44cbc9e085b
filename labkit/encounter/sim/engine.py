"""Playing many games in chunks on any executor, handing each finished chunk to the caller.

The engine under :func:`~labkit.encounter.sweep` and :func:`~labkit.encounter.tune`:
jobs ``(job index, settings index, seed, map seed)`` are cut into chunks, at most a few chunks
per worker are in flight at once (so the parent's memory stays flat however long the sweep),
and ``on_chunk(chunk, rows)`` runs in the parent as each chunk finishes, in completion order.
A row is ``(job index, winner, end_reason, steps, turns, encounters, alive, survival)``.

Where the games run is as for :func:`~labkit.encounter.sim.batch.run_batch`: ``None`` = a new
local process pool (shut down at the end), any ``concurrent.futures``-style executor, or a
``dask.distributed.Client`` (which re-runs the tasks of a lost worker).

Examples
--------
>>> from concurrent.futures import ThreadPoolExecutor
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> got = []
>>> with ThreadPoolExecutor(2) as pool:
...     play_jobs([SimulationSettings().to_dict()], [(0, 0, 3, 3), (1, 0, 4, 4)],
...               lambda chunk, rows: got.extend(rows), executor=pool, progress=False)
>>> sorted(r[0] for r in got)
[0, 1]
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from labkit import ArgumentError
from labkit.encounter.sim.pool import (
    MAX_CHUNK,
    TASKS_PER_WORKER,
    Job,
    _is_dask_client,
    _load_before_fork,
    _worker_count,
    local_executor,
    play_chunk,
    stop_pool,
)

__all__ = ["Job", "play_jobs", "play_games", "chunk_size", "IN_FLIGHT_PER_WORKER"]

IN_FLIGHT_PER_WORKER = 4
# Outcome-only games take well under a millisecond of CPU, so a task needs many of them to
# outweigh its round trip (on a loaded machine the parent hands out tasks late, and small tasks
# left the workers idle most of the time); a few tasks per worker still balance the load.
FAST_TASKS_PER_WORKER = 8
FAST_MAX_CHUNK = 1000


def chunk_size(games: int, workers: int, mode: str) -> int:
    """Default games per task: about ``TASKS_PER_WORKER`` tasks per worker (8 outcome-only),
    at most ``MAX_CHUNK`` games (1,000 outcome-only).

    Examples
    --------
    >>> chunk_size(10_000, 2, "full"), chunk_size(10_000, 2, "outcome"), chunk_size(9, 2, "outcome")
    (50, 625, 1)
    """
    per, cap = (TASKS_PER_WORKER, MAX_CHUNK) if mode == "full" else (
        FAST_TASKS_PER_WORKER, FAST_MAX_CHUNK)  # fmt: skip
    return max(1, min(cap, math.ceil(games / (per * workers))))


def play_games(docs: Mapping[int, dict], jobs: Sequence[Job], mode: str = "outcome") -> list:
    """The task a worker runs: play ``jobs`` of settings ``docs`` in ``mode``."""
    return play_chunk(docs, jobs, mode)


def play_jobs(
    docs: Sequence[dict],
    jobs: Sequence[Job],
    on_chunk: Callable[[Sequence[Job], list], None],
    *,
    executor: Any = None,
    progress: bool | Callable[[int, int], None] = True,
    chunksize: int | None = None,
    mode: str = "outcome",
    total: int | None = None,
    already: int = 0,
    desc: str = "games",
) -> None:
    """Play ``jobs`` (settings ``docs`` by index) and call ``on_chunk`` per finished chunk.

    ``total``/``already`` set the progress bar when some games were played before (a resumed
    sweep). An exception in a game or in ``on_chunk`` cancels the chunks not yet started.
    """
    if chunksize is not None and (not isinstance(chunksize, int) or chunksize < 1):
        raise ArgumentError("must be an integer >= 1", argument="chunksize", value=chunksize)
    total = len(jobs) + already if total is None else total
    own = executor is None
    workers = (os.cpu_count() or 1) if own else _worker_count(executor)
    size = chunksize or chunk_size(len(jobs), workers, mode)
    chunks = [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]
    bar = None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, initial=already, desc=desc, unit="game")
    if not chunks:
        if bar is not None:
            bar.close()
        return
    if own:
        executor = local_executor(min(workers, len(chunks)))
    pool = executor.get_executor() if _is_dask_client(executor) else executor
    if isinstance(pool, ProcessPoolExecutor):
        _load_before_fork(pool)
    done = already
    pending: dict[Any, list[Job]] = {}
    queue = iter(chunks)
    limit = IN_FLIGHT_PER_WORKER * workers

    def submit() -> None:
        for chunk in queue:
            used = {j[1] for j in chunk}
            pending[pool.submit(play_games, {k: docs[k] for k in used}, chunk, mode)] = chunk
            if len(pending) >= limit:
                return

    try:
        submit()
        while pending:
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in finished:
                chunk = pending.pop(fut)
                rows = sorted(fut.result())
                if [r[0] for r in rows] != [j[0] for j in chunk]:
                    raise ArgumentError("a chunk came back with other games", argument="jobs",
                                        value=chunk[0][0])  # fmt: skip
                on_chunk(chunk, rows)
                done += len(rows)
                if bar is not None:
                    bar.update(len(rows))
                elif callable(progress):
                    progress(done, total)
            submit()
    except BaseException:
        if own:
            stop_pool(executor)  # interrupted: end the workers now, not after the queued chunks
            own = False
        raise
    finally:
        for fut in pending:
            fut.cancel()
        if bar is not None:
            bar.close()
        if own:
            executor.shutdown(cancel_futures=True)
