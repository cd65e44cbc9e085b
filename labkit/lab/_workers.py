"""Where a study's games run: the process pool, the Dask client, and the task a worker runs.

The pool pieces are shared with the encounter game's engine
(:mod:`labkit.encounter.sim.pool` imports them): a worker that takes SIGTERM's default action
back and ends with its parent (:func:`prepare_worker`), a pool started with signals held
(:func:`start_workers`), stopped at once on an interrupt (:func:`stop_pool`), and a
``dask.distributed.Client`` used through its ``concurrent.futures`` face.

A lab task (:func:`play_task`) carries the game once per task as cloudpickle bytes (cloudpickle
comes with dask: a play function defined in a notebook travels by value), unpickled once per
worker process and kept by its digest; with the ``fork`` start method a numba game's compiled
loop is inherited from the parent, so workers start playing at once.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from labkit.lab.game import Game

__all__ = ["watch_parent", "stop_pool", "HELD", "start_workers", "is_dask_client",
           "worker_count", "prepare_worker", "local_pool", "pack", "play_task"]  # fmt: skip


def watch_parent(parent: int, every: float = 1.0) -> None:
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


# No signal masks on Windows (and no fork either, so nothing to hold there).
HELD = {signal.SIGTERM, signal.SIGINT} if hasattr(signal, "pthread_sigmask") else set()


def start_workers(pool: ProcessPoolExecutor) -> None:
    """Start the pool's workers now, with SIGTERM and SIGINT held back while it forks.

    Python drops an exception raised in an at-fork hook ("Exception ignored in _releaseLock"),
    so a SIGTERM arriving while the pool forked was lost in the parent (the batch played on to
    the end and exited 0) or kept a half-started worker alive, and the process then hung at
    exit joining it. Held, the signal is delivered once forking is over: in the parent at the
    next line, in a worker when its initializer lets it through (and it ends the worker).
    """
    if not HELD:
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    try:
        pool.submit(int)  # with fork, the first task starts every worker (and the pool's thread)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def is_dask_client(executor: Any) -> bool:
    return type(executor).__module__.startswith("distributed") and hasattr(executor, "get_executor")


def worker_count(executor: Any) -> int:
    """How many games the executor runs at once (for the default chunk size)."""
    if is_dask_client(executor):
        return max(1, sum(executor.nthreads().values()))
    return getattr(executor, "_max_workers", None) or os.cpu_count() or 1


def prepare_worker(parent: int | None = None) -> None:
    """Pool initializer: take SIGTERM's default action back, let held signals through, and end
    with the parent.

    A forked worker inherits the CLI's SIGTERM handler, which raises ``SystemExit``; the pool's
    worker loop catches that as the task's error and goes on waiting for the next task, so
    :func:`stop_pool`'s ``terminate()`` did not end it. A worker holds nothing to clean up.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if HELD:  # held while forking: see start_workers
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)
    if parent is not None:
        watch_parent(parent)


def local_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool of ``workers`` lab workers, started now (signals held while it forks)."""
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(),
                               initializer=prepare_worker, initargs=(os.getpid(),))  # fmt: skip
    start_workers(pool)
    return pool


def pack(game: Game) -> tuple[str, bytes] | str:
    """The game as ``(digest, cloudpickle bytes)``, or why it cannot be sent (one line)."""
    try:
        import cloudpickle

        data = cloudpickle.dumps(game)
    except Exception as exc:  # a lock, an open file, a generator held by the play function
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return hashlib.sha256(data).hexdigest(), data


# Games unpickled in this worker process, by digest (a task carries its game; once is enough).
# A worker may run several threads: the lock keeps one thread's clear() from landing between
# another's store and its read (that read would raise KeyError), and each task keeps its own
# reference to the game it unpickled or found.
_GAMES: dict[str, Any] = {}
_GAMES_LOCK = threading.RLock()


Block = tuple[int, int, int, int]


def play_task(game: Any, points: dict[str, np.ndarray], seeds: np.ndarray,
              block: Block) -> tuple[Block, dict]:  # fmt: skip
    """The task a worker runs: one block of games; ``game`` is a Game or ``pack``'s pair."""
    if isinstance(game, tuple):
        digest, data = game
        with _GAMES_LOCK:
            found = _GAMES.get(digest)
            if found is None:
                import cloudpickle

                found = cloudpickle.loads(data)
                _GAMES.clear()  # one study at a time per worker: keep memory flat
                _GAMES[digest] = found
        game = found
    got = game.play_block(points, seeds)
    # A rate's values are checked 0/1: sent back as bytes, an eighth of the pickle to move
    for o in game.outcomes:
        if o.kind == "rate":
            got[o.name] = got[o.name].astype(np.uint8)
    return block, got
