"""Batch sweeps (rule E7): many games over seeds and settings, on processes or a Dask cluster.

:func:`run_batch` plays one game per (settings, seed) pair and returns a :class:`BatchResult`:
a numpy structured array with one row per game (settings index, both seeds, winner, end
reason, steps, turns, encounters, and per actor ``alive_<id>`` and ``survival_<id>`` = the turn
it died in, or the last turn if it survived) and :meth:`BatchResult.summary` with sample sizes
and 95 % confidence intervals (Wilson for rates, normal for means).

Where the games run:

* ``executor=None`` — local processes (:class:`concurrent.futures.ProcessPoolExecutor`, one
  per core);
* any ``concurrent.futures``-style object with ``submit`` (a thread pool, your own pool);
* a ``dask.distributed.Client`` (through its ``concurrent.futures`` face,
  ``client.get_executor()``); the scheduler re-runs the tasks of a worker that dies.

Games are sent in chunks; each result row carries its job index and the rows are placed by
index, so the table is in (settings, seed) order whatever order the chunks finish in, and a
chunk that is run twice (a lost worker) can neither duplicate nor drop a row (checked).
Every game's outcome depends only on its settings, so the table is the same on every engine.

How each game is played: ``mode="outcome"`` (the default) runs the whole game in one numba
kernel (:mod:`labkit.encounter.sim.fast_outcome`: no journal, no observations, numpy's random
numbers bit for bit), ``mode="full"`` the journalled :class:`~labkit.encounter.GameSession`;
the rows are the same (tested over 1,000+ seeds), the first about 5-20x faster. The chunks go
through :func:`labkit.encounter.sim.engine.play_jobs` (shared with sweeps and tuning).

Keeping the overhead per game small (what lets 2 workers approach twice 1 worker):

* a task carries each settings document it needs once plus ``(job, settings index, seed, map
  seed)`` per game, not one settings document per game; the worker validates each settings
  once per chunk and only swaps the seeds;
* a worker sends back compact tuples (:func:`~labkit.encounter.sim.runner.outcome_row`): no actor
  ids, no seeds — the parent knows them — and the parent fills the table column by column;
* the default chunk is about :data:`TASKS_PER_WORKER` tasks per worker (at most
  :data:`MAX_CHUNK` games): enough tasks that the last one to finish leaves the other workers
  idle only briefly (games differ in length by 10x or more), few enough that the per-task round
  trip stays small next to the games;
* local pools (:func:`local_executor`) load the encounter kernels once per worker from numba's
  on-disk cache (the pool's ``initializer``); with the ``fork`` start method the parent loads
  them first (once per process, also for a plain ``ProcessPoolExecutor`` passed in), so every
  pool it forks, now or later, starts with them loaded.
  Reuse one :func:`local_executor` over many calls to pay process start-up only once.

Decisions recorded here: ``seeds`` set both the process seed and the map seed of each game
(``fixed_map=True`` keeps each settings' map seed); without ``seeds`` each settings object is
played once as given.

Examples
--------
>>> from concurrent.futures import ThreadPoolExecutor
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> with ThreadPoolExecutor(2) as pool:
...     res = run_batch(SimulationSettings(), range(6), executor=pool, progress=False)
>>> len(res), res.rows["seed"].tolist()
(6, [0, 1, 2, 3, 4, 5])
>>> int(res.summary()["n"][0])
6
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.encounter.rules.combat import wilson_interval
from labkit.encounter.sim.engine import play_jobs
from labkit.encounter.sim.pool import MAX_WORKERS, Job, local_executor, play_chunk, stop_pool
from labkit.encounter.sim.settings import SimulationError, SimulationSettings
from labkit.encounter.status import EndReason
from labkit.io import atomic_write

__all__ = [
    "run_batch",
    "BatchResult",
    "local_executor",
    "play_chunk",
    "stop_pool",
    "survival_curve",
    "MAX_GAMES",
    "MAX_WORKERS",
]

BASE_FIELDS = [
    ("settings_index", "i4"),
    ("map_seed", "i8"),
    ("seed", "i8"),
    ("winner", "U8"),
    ("end_reason", "U12"),
    ("steps", "i4"),
    ("turns", "i4"),
    ("encounters", "i4"),
]
#: Limits of one batch (work and memory grow linearly with the games): games per call.
MAX_GAMES = 1_000_000


def run_batch(
    settings: SimulationSettings | Sequence[SimulationSettings],
    seeds: Iterable[int] | None = None,
    *,
    executor: Any = None,
    progress: bool | Callable[[int, int], None] = True,
    chunksize: int | None = None,
    fixed_map: bool = False,
    mode: str = "outcome",
) -> BatchResult:
    """Play one game per (settings, seed) pair and tabulate the outcomes.

    Parameters
    ----------
    settings : SimulationSettings or sequence of them
        One game setting or a sweep (rows carry ``settings_index``).
    seeds : iterable of int, optional
        Seeds to play each settings with (process and map seed); default: each settings once.
    executor : Executor, dask Client or None
        Where to run (see the module notes); ``None`` = a new :func:`local_executor` with one
        process per core (at most one per task), shut down at the end.
    progress : bool or callable
        A tqdm bar, or ``progress(done_games, total_games)`` called as chunks finish.
    chunksize : int, optional
        Games per task (default: about 32 tasks per worker, at most 50 games).
    fixed_map : bool
        Keep each settings' map seed instead of setting it to the seed.
    mode : {"outcome", "full"}
        ``"outcome"`` (default) plays each game in the numba kernel of
        :mod:`labkit.encounter.sim.fast_outcome`; ``"full"`` in the journalled
        :class:`~labkit.encounter.sim.session.GameSession`. The rows are the same.

    Returns
    -------
    BatchResult
        Rows in (settings, seed) order, identical whatever the executor.

    Examples
    --------
    >>> from labkit.encounter import SimulationSettings
    >>> result = run_batch(SimulationSettings(max_steps=30), seeds=[1, 2, 3], progress=False)
    >>> len(result.rows), sorted(set(result.rows["seed"].tolist()))
    (3, [1, 2, 3])
    """
    if mode not in ("outcome", "full"):
        raise ArgumentError("must be 'outcome' or 'full'", argument="mode", value=mode)
    sweep = [settings] if isinstance(settings, SimulationSettings) else list(settings)
    if not sweep:
        raise ArgumentError("no settings to play", argument="settings", value=[])
    if chunksize is not None and (
        isinstance(chunksize, bool) or not isinstance(chunksize, int) or not 1 <= chunksize
    ):
        raise ArgumentError("must be an integer >= 1 (or None)", argument="chunksize",
                            value=chunksize)  # fmt: skip
    seed_list = None if seeds is None else _seed_list(seeds)
    for seed in seed_list or []:
        sweep[0].replace(seed=seed, map_seed=seed)  # a bad seed fails here, naming the field
    games = len(sweep) * (1 if seed_list is None else len(seed_list))
    if games > MAX_GAMES:
        raise ArgumentError(f"{games} games, more than the limit of {MAX_GAMES}",
                            argument="seeds", value=games)  # fmt: skip
    jobs: list[Job] = []
    for k, s in enumerate(sweep):
        for seed in [s.seed] if seed_list is None else seed_list:
            map_seed = s.map_seed if (fixed_map or seed_list is None) else seed
            jobs.append((len(jobs), k, seed, map_seed))
    docs = [s.to_dict() for s in sweep]

    results: list[tuple | None] = [None] * len(jobs)

    def keep(chunk: Sequence[Job], rows: list[tuple]) -> None:
        for row in rows:
            if results[row[0]] is not None:
                raise SimulationError("a game came back twice", pointer=f"/jobs/{row[0]}")
            results[row[0]] = row

    play_jobs(docs, jobs, keep, executor=executor, progress=progress, chunksize=chunksize,
              mode=mode)  # fmt: skip
    missing = [i for i, r in enumerate(results) if r is None]
    if missing:
        raise SimulationError("games were lost", pointer=f"/jobs/{missing[0]}", value=len(missing))
    return BatchResult(_table(jobs, results, sweep), sweep)


def _seed_list(seeds: Iterable[int]) -> list[int]:
    """The seeds as ints, at most :data:`MAX_GAMES` of them (a huge range fails before use)."""
    if isinstance(seeds, range) and len(seeds) > MAX_GAMES:
        raise ArgumentError(f"{len(seeds)} seeds, more than the limit of {MAX_GAMES}",
                            argument="seeds", value=seeds)  # fmt: skip
    out = []
    for s in seeds:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise ArgumentError("seeds must be integers", argument="seeds", value=s)
        out.append(int(s))
        if len(out) > MAX_GAMES:
            raise ArgumentError(f"more than the limit of {MAX_GAMES} seeds", argument="seeds",
                                value=len(out))  # fmt: skip
    return out


def _table(jobs: list[Job], rows: list[Any], sweep: list[SimulationSettings]) -> np.ndarray:
    """The structured array, filled column by column (rows are in job order)."""
    actors: list[str] = []
    for s in sweep:
        actors.extend(a for a in s.actor_ids if a not in actors)
    dtype = BASE_FIELDS + [(f"alive_{a}", "?") for a in actors]
    dtype += [(f"survival_{a}", "i4") for a in actors]
    out = np.zeros(len(rows), dtype=dtype)
    if not rows:
        return out
    for name, column in zip(("settings_index", "seed", "map_seed"), list(zip(*jobs))[1:]):
        out[name] = column
    for name, column in zip([f[0] for f in BASE_FIELDS[3:]], list(zip(*rows))[1:6]):
        out[name] = column
    for a in actors:
        out[f"survival_{a}"] = -1  # an actor not in a game's settings
    kinds = np.array([j[1] for j in jobs])
    for k, s in enumerate(sweep):
        at = np.flatnonzero(kinds == k)
        if not at.size:
            continue
        alive = np.array([rows[j][6] for j in at], dtype=bool).reshape(at.size, -1)
        survival = np.array([rows[j][7] for j in at], dtype=np.int32).reshape(at.size, -1)
        for p, a in enumerate(s.actor_ids):
            out[f"alive_{a}"][at] = alive[:, p]
            out[f"survival_{a}"][at] = survival[:, p]
    return out


def survival_curve(
    result: Any, side: str = "npc", settings_index: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Share of one side's actors still alive after each game turn, with 95 % Wilson bands.

    ``result`` is a :class:`BatchResult` or a :func:`~labkit.encounter.sim.sweep.sweep` frame
    (then ``settings_index`` selects a ``point``).

    An actor alive when its game ends counts as alive at every later turn: a finished game can
    no longer kill it, so treating it as *censored* (Kaplan–Meier) would be wrong — the end of
    a game is caused by the fighting, not independent of it. Only ``step_limit`` games are
    truly cut short; :meth:`BatchResult.summary` reports how many there were. The band treats
    actors as independent; actors of one game are not, so it is somewhat too narrow.

    Returns
    -------
    t, s, lo, hi : arrays
        Turn 0, every turn in which someone died, and the last turn played; the share alive
        after that turn and its 95 % interval.

    Examples
    --------
    >>> rows = np.zeros(4, dtype=[("settings_index", "i4"), ("alive_npc-0", "?"),
    ...                           ("survival_npc-0", "i4")])
    >>> rows["alive_npc-0"] = [False, False, True, True]
    >>> rows["survival_npc-0"] = [2, 4, 5, 5]
    >>> t, s, lo, hi = survival_curve(BatchResult(rows, []))
    >>> t.tolist(), s.tolist()
    ([0, 2, 4, 5], [1.0, 0.75, 0.5, 0.5])
    """
    if hasattr(result, "columns"):  # a sweep's DataFrame: ``settings_index`` is its point
        frame = result if settings_index is None else result[result["point"] == settings_index]
        rows = {c: frame[c].to_numpy() for c in frame.columns}
        actors = [c[6:] for c in frame.columns if c.startswith(f"alive_{side}-")]
    else:
        rows = result.rows
        if settings_index is not None:
            rows = rows[rows["settings_index"] == settings_index]
        actors = result.actors(side)
    time = np.concatenate([rows[f"survival_{a}"] for a in actors]).astype(np.int64)
    died = ~np.concatenate([rows[f"alive_{a}"] for a in actors])
    keep = time >= 0
    time, died = time[keep], died[keep]
    turns = np.unique(np.concatenate([[0], time[died], [time.max(initial=0)]]))
    dead = np.array([int((died & (time <= t)).sum()) for t in turns])
    n = time.size
    lo, hi = wilson_interval(n - dead, n)
    return turns, (n - dead) / max(n, 1), lo, hi


def _varying(sweep: Sequence[SimulationSettings]) -> dict[str, list]:
    """Per settings field that differs across ``sweep`` (seeds aside) and per balance pointer
    any of them patches: the value of each settings object (tuples become lists)."""
    from labkit.encounter.sim.settings import balance_value

    out: dict[str, list] = {}
    docs = [s.to_dict() for s in sweep]
    for key in docs[0] if docs else []:
        if key in ("seed", "map_seed", "balance"):
            continue
        values = [d[key] for d in docs]
        if any(v != values[0] for v in values):
            out[key] = values
    pointers = sorted({p for s in sweep for p in s.balance})
    for p in pointers:
        out[p] = [s.balance[p] if p in s.balance else balance_value(p) for s in sweep]
    return out


def _mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    if x.size == 0:
        return math.nan, math.nan, math.nan
    m = float(x.mean())
    half = 1.96 * float(x.std(ddof=1)) / math.sqrt(x.size) if x.size > 1 else math.inf
    return m, m - half, m + half


@dataclass
class BatchResult:
    """Rows of a batch (``rows``, a structured array) and the settings swept (``settings``).

    Examples
    --------
    >>> from labkit.encounter import SimulationSettings
    >>> result = run_batch(SimulationSettings(max_steps=20), seeds=[1, 2], progress=False)
    >>> isinstance(result, BatchResult), result.rows.dtype.names[:3]
    (True, ('settings_index', 'map_seed', 'seed'))
    """

    rows: np.ndarray
    settings: list[SimulationSettings]

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def _columns(self) -> tuple[str, ...]:
        names = self.rows.dtype.names
        assert names is not None, "BatchResult.rows must be a structured array"
        return names

    @property
    def frame(self) -> Any:
        """The rows as a pandas ``DataFrame``: one row per game (tidy), settings as columns.

        Columns: ``settings_index``, every settings field that differs between the settings
        played (``"npcs"``, ``"difficulty"`` …) and every balance JSON pointer any of them
        patches (``"/characters/monster/life"``, the shipped value where a settings object does
        not patch it), then the table's own columns (seeds, winner, end reason, steps, turns,
        encounters, ``alive_<actor>``, ``survival_<actor>``). ``winner`` is ``""`` when nobody
        won, as in :attr:`rows`.

        Examples
        --------
        >>> from concurrent.futures import ThreadPoolExecutor
        >>> from labkit.encounter.sim.settings import SimulationSettings
        >>> sweep = [SimulationSettings(balance={"/characters/monster/life": v}) for v in (3, 6)]
        >>> with ThreadPoolExecutor(2) as pool:
        ...     res = run_batch(sweep, range(3), executor=pool, progress=False)
        >>> res.frame[["/characters/monster/life", "seed"]].values.tolist()
        [[3, 0], [3, 1], [3, 2], [6, 0], [6, 1], [6, 2]]
        """
        import pandas as pd

        data: dict[str, Any] = {"settings_index": self.rows["settings_index"]}
        for name, values in _varying(self.settings).items():
            data[name] = [values[int(k)] for k in self.rows["settings_index"]]
        for name in self._columns:
            if name != "settings_index":
                data[name] = self.rows[name]
        return pd.DataFrame(data)

    def actors(self, side: str | None = None) -> list[str]:
        """Actor ids with columns in the table (optionally of one side)."""
        names = [n[len("alive_") :] for n in self._columns if n.startswith("alive_")]
        return [a for a in names if side is None or a.startswith(side + "-")]

    def summary(self) -> np.ndarray:
        """Per settings index: n, win rates with 95 % Wilson intervals, step-limit and
        mutual-death counts, mean steps and mean NPC survival (turns) with 95 % intervals."""
        fields = ["n", "npc_wins", "npc_win", "npc_win_lo", "npc_win_hi", "monster_wins",
                  "monster_win", "monster_win_lo", "monster_win_hi", "step_limit",
                  "mutual_death", "mean_steps", "mean_steps_lo", "mean_steps_hi",
                  "npc_survival", "npc_survival_lo", "npc_survival_hi"]  # fmt: skip
        dtype = [("settings_index", "i4")] + [
            (f, "i4" if f in ("n", "npc_wins", "monster_wins", "step_limit", "mutual_death")
             else "f8") for f in fields
        ]  # fmt: skip
        keys = np.unique(self.rows["settings_index"])
        out = np.zeros(len(keys), dtype=dtype)
        npcs = self.actors("npc")
        for j, k in enumerate(keys):
            g = self.rows[self.rows["settings_index"] == k]
            n = len(g)
            rec = out[j]
            rec["settings_index"], rec["n"] = k, n
            for side in ("npc", "monster"):
                wins = int((g["winner"] == side).sum())
                lo, hi = wilson_interval(wins, n)
                rec[f"{side}_wins"], rec[f"{side}_win"] = wins, wins / n
                rec[f"{side}_win_lo"], rec[f"{side}_win_hi"] = lo, hi
            rec["step_limit"] = int((g["end_reason"] == EndReason.STEP_LIMIT).sum())
            rec["mutual_death"] = int((g["end_reason"] == EndReason.MUTUAL_DEATH).sum())
            rec["mean_steps"], rec["mean_steps_lo"], rec["mean_steps_hi"] = _mean_ci(
                g["steps"].astype(float)
            )
            surv = np.concatenate([g[f"survival_{a}"] for a in npcs]) if npcs else np.array([])
            surv = surv[surv >= 0].astype(float)
            rec["npc_survival"], rec["npc_survival_lo"], rec["npc_survival_hi"] = _mean_ci(surv)
        return out

    def to_csv(self, path: str | os.PathLike) -> None:
        """Write the rows as CSV, atomically (a header line, then one game per line)."""
        with atomic_write(path) as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(self._columns)
            for rec in self.rows.tolist():
                w.writerow([int(v) if isinstance(v, bool) else v for v in rec])

    def _repr_html_(self) -> str:
        s = self.summary()
        head = "".join(f"<th>{h}</th>" for h in ("settings", "n", "NPC win (95% CI)",
                                                  "monster win (95% CI)", "step limit",
                                                  "mean steps"))  # fmt: skip
        body = "".join(
            f"<tr><td>{r['settings_index']}</td><td>{r['n']}</td>"
            f"<td>{r['npc_win']:.3f} ({r['npc_win_lo']:.3f}–{r['npc_win_hi']:.3f})</td>"
            f"<td>{r['monster_win']:.3f} ({r['monster_win_lo']:.3f}–{r['monster_win_hi']:.3f})"
            f"</td><td>{r['step_limit']}</td><td>{r['mean_steps']:.1f}</td></tr>"
            for r in s
        )
        return f"<b>BatchResult</b>: {len(self)} games<table><tr>{head}</tr>{body}</table>"
