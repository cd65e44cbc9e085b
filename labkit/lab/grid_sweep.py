"""Sweeping a grid of knob values for any :class:`~labkit.lab.Game` (rule W3, any game).

:func:`sweep` plays every point of a grid on the same seeds (common random numbers: game
``(point, seed)`` gets ``seed`` itself at every point) and returns a
:class:`~labkit.lab.result.StudyResult` (``.table``: one row per game).

How it runs. First a probe, in this process: the first point on two seeds, played twice, so
a play function that raises, returns something other than its outcomes, or gives different
results for the same seed is refused before any worker starts or any file is written; the
probe's time also sizes the blocks (about a quarter of a second of games each). Blocks of
(points x seeds) then go to ``executor``:

* ``None`` — this machine's cores: a process pool of lab workers (one per core, at most one
  per block), or this process alone when the whole sweep takes under :data:`LOCAL_POOL_SECONDS`;
* any ``concurrent.futures`` executor (a thread pool gets the game object itself; other
  executors get it as cloudpickle bytes, unpickled once per worker);
* a ``dask.distributed.Client`` (through ``client.get_executor()``).

A play function that cannot be pickled (it holds a lock, an open file) is played in this
process, with one warning line saying so. Every block is checked as it comes back
(:meth:`~labkit.lab.Game.play_block`), and a sample of up to :data:`REPLAYS` games from blocks
across the sweep is replayed here and compared, before that block is kept.

With ``out=DIR`` each block is written as a Parquet part beside a ``manifest.json`` (the game,
its knobs, outcomes and code version, the points, the seeds, labkit's version), through
:mod:`labkit.lab.study_folder`: the same call resumes, playing only the games no part holds;
a folder of another game or another sweep, part files without a manifest, or a part of another
study or edited since are refused in one line naming the file.

Examples
--------
>>> from labkit.lab.game import Game
>>> def coin(bias, seed):
...     return float((seed * 2654435761 % 1000) < bias * 1000)
>>> g = Game.from_function("coin", coin, knobs={"bias": (0.0, 1.0)}, outcomes={"heads": "rate"})
>>> res = sweep(g, {"bias": [0.0, 1.0]}, range(5))
>>> res.table.columns.tolist(), res.table["heads"].tolist()
(['point', 'bias', 'seed', 'heads'], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0])
"""

from __future__ import annotations

import itertools
import math
import os
import time
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

import numpy as np

import labkit
from labkit import ArgumentError
from labkit.lab import study_folder as folder
from labkit.lab._workers import is_dask_client, local_pool, pack, play_task, stop_pool, worker_count
from labkit.lab.game import Game, PlayError
from labkit.lab.result import StudyResult

__all__ = ["sweep", "SweepResult", "FORMAT", "VERSION", "REPLAYS"]

FORMAT = "labkit.lab.sweep"
VERSION = 1
#: Most points, seeds and games one sweep may have (checked before any work).
MAX_POINTS = 100_000
MAX_SEEDS = 10_000_000
MAX_GAMES = 100_000_000
#: Games replayed in this process and compared with their block (non-determinism check).
REPLAYS = 8
#: Seconds of games a block aims at, and the most games in one block.
BLOCK_SECONDS = 0.25
MAX_BLOCK = 500_000
IN_FLIGHT_PER_WORKER = 4
#: A sweep expected to take less (by the probe) plays in this process: no pool to start.
LOCAL_POOL_SECONDS = 0.5


class SweepResult(StudyResult):
    """A sweep's games (see :class:`~labkit.lab.result.StudyResult`)."""


Block = tuple[int, int, int, int]  # points p0:p1 x seeds s0:s1


def _points(game: Game, grid: Any) -> list[dict[str, Any]]:
    if isinstance(grid, Mapping):
        names = list(grid)
        for name in names:
            game.knob(name)
        values = []
        for name in names:
            v = grid[name]
            v = [v] if isinstance(v, (int, float, np.number)) else list(v)
            if not v:
                raise ArgumentError(f"game {game.name!r}: knob {name} has no values",
                                    argument=f"grid[{name!r}]", value=[])  # fmt: skip
            values.append(v)
        if math.prod(len(v) for v in values) > MAX_POINTS:
            raise ArgumentError(f"more than {MAX_POINTS} points", argument="grid",
                                value=math.prod(len(v) for v in values))  # fmt: skip
        raw = [dict(zip(names, combo)) for combo in itertools.product(*values)]
    elif isinstance(grid, Sequence) and not isinstance(grid, str):
        raw = list(grid)
        if len(raw) > MAX_POINTS:
            raise ArgumentError(f"more than {MAX_POINTS} points", argument="grid", value=len(raw))
        if not all(isinstance(p, Mapping) for p in raw):
            bad = next(p for p in raw if not isinstance(p, Mapping))
            raise ArgumentError("a list of points holds dicts of knob values", argument="grid",
                                value=bad)  # fmt: skip
    else:
        raise ArgumentError("a dict of knob values or a list of points", argument="grid",
                            value=grid)  # fmt: skip
    if not raw:
        raise ArgumentError("no points to play", argument="grid", value=grid)
    return [game.point(p) for p in raw]


def _seeds(seeds: Iterable[int]) -> np.ndarray:
    if isinstance(seeds, range) and len(seeds) > MAX_SEEDS:
        raise ArgumentError(f"more than {MAX_SEEDS} seeds", argument="seeds", value=len(seeds))
    if isinstance(seeds, np.ndarray) and seeds.dtype.kind in "iu":
        arr = seeds.astype(np.int64).ravel()
    else:
        out = []
        for s in seeds:
            if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
                raise ArgumentError("seeds must be integers", argument="seeds", value=s)
            out.append(int(s))
            if len(out) > MAX_SEEDS:
                raise ArgumentError(f"more than {MAX_SEEDS} seeds", argument="seeds",
                                    value=len(out))  # fmt: skip
        arr = np.array(out, dtype=np.int64)
    if not arr.size:
        raise ArgumentError("no seeds to play", argument="seeds", value=[])
    if arr.min() < 0 or arr.max() > 2**63 - 1:
        raise ArgumentError("seeds must be >= 0", argument="seeds", value=int(arr.min()))
    uniq, counts = np.unique(arr, return_counts=True)
    if uniq.size != arr.size:
        raise ArgumentError("a seed is given twice (its games would be counted twice)",
                            argument="seeds", value=int(uniq[counts > 1][0]))  # fmt: skip
    return arr


def _columns(game: Game, points: list[dict], p0: int, p1: int) -> dict[str, np.ndarray]:
    return {k.name: np.array([p[k.name] for p in points[p0:p1]],
                             dtype=np.int64 if k.whole else np.float64)
            for k in game.knobs}  # fmt: skip


def _blocks(n_p: int, n_s: int, size: int) -> list[Block]:
    if n_s >= size:
        return [(p, p + 1, s, min(s + size, n_s)) for p in range(n_p) for s in range(0, n_s, size)]
    per = max(1, size // n_s)
    return [(p, min(p + per, n_p), 0, n_s) for p in range(0, n_p, per)]


def _probe(game: Game, points: list[dict], seeds: np.ndarray) -> float:
    """Play the first point on two seeds twice; refuse a non-deterministic game; secs a game."""
    cols, s = _columns(game, points, 0, 1), seeds[:2]
    first = game.play_block(cols, s)
    t = time.perf_counter()
    again = game.play_block(cols, s)
    spent = (time.perf_counter() - t) / len(s)
    _same(game, first, again, cols, s, 0, 0)
    return spent


def _same(game: Game, a: dict, b: dict, cols: dict, seeds: np.ndarray, i: int, j: int) -> None:
    from labkit.lab._play import at

    for o in game.outcomes:
        diff = np.argwhere(a[o.name] != b[o.name])
        if diff.size:
            di, dj = diff[0]
            was, now = float(a[o.name][di, dj]), float(b[o.name][di, dj])
            raise PlayError(f"game {game.name!r}: outcome {o.name!r} differs when the same game "
                            f"is played again ({was!r}, then {now!r}) "
                            f"at {at(cols, i + di, seeds[j + dj])}; draw every random number "
                            "from seed")  # fmt: skip


def sweep(
    game: Game,
    grid: Mapping[str, Iterable[Any]] | Sequence[Mapping[str, Any]],
    seeds: Iterable[int],
    *,
    executor: Any = None,
    progress: bool | Callable[[int, int], None] = False,
    out: str | os.PathLike | None = None,
) -> SweepResult:
    """Play every point of ``grid`` on every seed; see the module for where and how.

    Parameters
    ----------
    game : Game
        The game (:meth:`Game.from_function <labkit.lab.Game.from_function>`).
    grid : dict of knob -> values, or list of points (dicts of knob values)
        A dict is crossed (every combination, in the dict's order); knobs left out take their
        default.
    seeds : iterable of int
        The seeds every point is played on (distinct, >= 0).
    executor, progress, out
        Where to play (``None``: this machine's cores), a tqdm bar or ``progress(done,
        total)``, and the study folder to stream to and resume from.

    Returns
    -------
    SweepResult
        ``.table`` one row per game in (point, seed) order, whatever the executor.
    """
    if not isinstance(game, Game):
        raise ArgumentError("must be a labkit.lab.Game (Game.from_function makes one)",
                            argument="game", value=type(game).__name__)  # fmt: skip
    points = _points(game, grid)
    seed_arr = _seeds(seeds)
    n_p, n_s = len(points), len(seed_arr)
    if n_p * n_s > MAX_GAMES:
        raise ArgumentError(f"{n_p * n_s} games, more than {MAX_GAMES}", argument="seeds",
                            value=n_s)  # fmt: skip
    values = {o.name: np.full((n_p, n_s), np.nan) for o in game.outcomes}
    done = np.zeros((n_p, n_s), dtype=bool)
    result = SweepResult(game, points, seed_arr, values, "sweep")
    if out is None:
        _run(game, points, seed_arr, values, done, executor, progress, None)
        return result
    path = Path(out)
    with folder.hold(path, f"a sweep of {game.name!r}"):
        sid = _open(path, game, points, seed_arr)
        _resume(path, sid, game, seed_arr, values, done)
        _run(game, points, seed_arr, values, done, executor, progress, (path, sid))
    return result


def _manifest(game: Game, points: list[dict], seeds: np.ndarray) -> dict[str, Any]:
    return {"game": game.to_dict(), "points": points, "seeds": seeds.tolist(), "settings": {},
            "labkit_version": labkit.__version__}  # fmt: skip


def _open(path: Path, game: Game, points: list[dict], seeds: np.ndarray) -> str:
    from labkit.io import load_json

    if (path / folder.MANIFEST).exists():
        old = load_json(path / folder.MANIFEST, format=FORMAT, versions=(VERSION,),
                        error=folder.StudyError)  # fmt: skip
        name = (old.get("game") or {}).get("name") if isinstance(old.get("game"), dict) else None
        if name != game.name:
            raise folder.StudyError(f"holds a sweep of game {name!r}, not {game.name!r}; use a "
                                    "new folder", file=str(path))  # fmt: skip
    keys = ("game", "points", "seeds", "settings", "labkit_version")
    return folder.open_dir(path, _manifest(game, points, seeds), FORMAT, VERSION, keys=keys)


def _resume(path: Path, sid: str, game: Game, seeds: np.ndarray, values: dict,
            done: np.ndarray) -> None:  # fmt: skip
    columns = ["point", "seed"] + [o.name for o in game.outcomes]
    where = {int(s): j for j, s in enumerate(seeds.tolist())}
    for t in folder.read_parts(path, sid, columns, done.shape[0], seeds.tolist()):
        i = np.asarray(t.column("point").to_numpy(), dtype=np.int64)
        j = np.array([where[int(s)] for s in t.column("seed").to_pylist()], dtype=np.int64)
        for o in game.outcomes:
            values[o.name][i, j] = t.column(o.name).to_numpy()
        done[i, j] = True


def _write(target: tuple[Path, str], game: Game, block: Block, got: dict, seeds: np.ndarray,
           fresh: np.ndarray) -> None:  # fmt: skip
    import pyarrow as pa

    p0, p1, s0, s1 = block
    ii, jj = np.nonzero(fresh)
    data = {"point": pa.array(ii + p0, pa.int64()), "seed": pa.array(seeds[s0:s1][jj], pa.int64())}
    for o in game.outcomes:
        data[o.name] = pa.array(got[o.name][ii, jj], pa.float64())
    folder.write_part(target[0], pa.table(data), p0 * len(seeds) + s0, target[1])


def _run(game: Game, points: list[dict], seeds: np.ndarray, values: dict, done: np.ndarray,
         executor: Any, progress: Any, target: tuple[Path, str] | None) -> None:  # fmt: skip
    n_p, n_s = done.shape
    total, already = n_p * n_s, int(done.sum())
    if already == total:
        return
    per_game = _probe(game, points, seeds)
    own = executor is None
    workers = (os.cpu_count() or 1) if own else worker_count(executor)
    size = int(min(MAX_BLOCK, max(1, BLOCK_SECONDS / max(per_game, 1e-9)),
                   max(1, math.ceil(total / (4 * workers)))))  # fmt: skip
    blocks = [b for b in _blocks(n_p, n_s, size) if not done[b[0] : b[1], b[2] : b[3]].all()]
    checked = {blocks[int(k)] for k in np.linspace(0, len(blocks) - 1, min(REPLAYS, len(blocks)))}
    bar = None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, initial=already, desc=game.name, unit="game")
    count = already

    def keep(block: Block, got: dict) -> None:
        nonlocal count
        p0, p1, s0, s1 = block
        if block in checked:  # replay one game of the block here: the same seed, the same game
            i, j = (p1 - p0) // 2, (s1 - s0) // 2
            cols = _columns(game, points, p0 + i, p0 + i + 1)
            again = game.play_block(cols, seeds[s0 + j : s0 + j + 1])
            _same(game, {o: got[o][i : i + 1, j : j + 1] for o in got}, again, cols, seeds,
                  0, s0 + j)  # fmt: skip
        fresh = ~done[p0:p1, s0:s1]
        if target is not None and fresh.any():
            _write(target, game, block, got, seeds, fresh)
        for o in game.outcomes:
            values[o.name][p0:p1, s0:s1] = got[o.name]
        done[p0:p1, s0:s1] = True
        count += int(fresh.sum())
        if bar is not None:
            bar.update(int(fresh.sum()))
        elif callable(progress):
            progress(count, total)

    try:
        pool: Any = None
        payload: Any = None
        quick = per_game * (total - already) <= LOCAL_POOL_SECONDS
        if own and len(blocks) > 1 and workers > 1 and not quick:
            payload = pack(game)
            if isinstance(payload, str):
                warnings.warn(f"game {game.name!r} cannot be sent to worker processes "
                              f"({payload}); playing it in this process", RuntimeWarning,
                              stacklevel=3)  # fmt: skip
            else:
                executor = local_pool(min(workers, len(blocks)))
                pool = executor
        elif not own:
            pool = executor.get_executor() if is_dask_client(executor) else executor
            payload = game if isinstance(pool, ThreadPoolExecutor) else pack(game)
            if isinstance(payload, str):
                warnings.warn(f"game {game.name!r} cannot be sent to the executor's workers "
                              f"({payload}); playing it in this process", RuntimeWarning,
                              stacklevel=3)  # fmt: skip
                pool = None
        if pool is None:
            for b in blocks:
                keep(b, game.play_block(_columns(game, points, b[0], b[1]), seeds[b[2] : b[3]]))
            return
        _submit_all(pool, payload, game, points, seeds, blocks, keep, workers)
    except BaseException:
        if own and executor is not None:
            stop_pool(executor)  # interrupted: end the workers now, not after the queued blocks
            own = False
        raise
    finally:
        if bar is not None:
            bar.close()
        if own and executor is not None:
            executor.shutdown(cancel_futures=True)
    if not done.all():
        raise PlayError(f"game {game.name!r}: {int((~done).sum())} games were lost")


def _submit_all(pool: Any, payload: Any, game: Game, points: list[dict], seeds: np.ndarray,
                blocks: list[Block], keep: Callable, workers: int) -> None:  # fmt: skip
    pending: dict[Any, Block] = {}
    queue = iter(blocks)
    limit = IN_FLIGHT_PER_WORKER * workers

    def submit() -> None:
        for b in queue:
            cols = _columns(game, points, b[0], b[1])
            pending[pool.submit(play_task, payload, cols, seeds[b[2] : b[3]], b)] = b
            if len(pending) >= limit:
                return

    try:
        submit()
        while pending:
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in finished:
                b = pending.pop(fut)
                back, got = fut.result()
                if tuple(back) != b:
                    raise PlayError(f"game {game.name!r}: a block came back as another block")
                keep(b, got)
            submit()
    finally:
        for fut in pending:
            fut.cancel()
