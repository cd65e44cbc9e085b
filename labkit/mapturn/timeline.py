"""Gauge scheduling for many enemies at once: :func:`gauge_timeline` (rules M5, J1).

The engine settles gauges one tick at a time in Python, interleaved with enemy actions. When the
actions do not change the schedule (tuning time costs, idle enemies), the gauge rule alone says who
acts when; :func:`gauge_timeline` computes that for E enemies over T ticks in a numba kernel,
with exactly the engine's float operations, so the two agree action for action.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from labkit import ArgumentError

from .defs import MIN_TIME_COST

#: Limits of :func:`gauge_timeline`: ticks run, enemies, per-tick events recorded.
MAX_TICKS = 10_000_000
MAX_ENEMIES = 10_000
MAX_EVENTS = 20_000_000

__all__ = ["GaugeTimeline", "gauge_timeline"]


@dataclass(frozen=True)
class GaugeTimeline:
    """Who acts on which tick.

    ``actions[e]`` — how many times enemy ``e`` acted; ``gauges[e]`` — its gauge after the last
    tick; ``tick``, ``enemy``, ``count`` — one row per (enemy, tick) with at least one action,
    ordered by enemy then tick, ticks numbered ``1..ticks`` (``None`` with ``events=False``).

    Examples
    --------
    >>> tl = gauge_timeline([1.0, 2.0], 4)
    >>> tl.actions.tolist(), tl.raster().tolist()
    ([4, 2], [[1, 1, 1, 1], [0, 1, 0, 1]])
    """

    time_costs: NDArray[np.float64]
    ticks: int
    actions: NDArray[np.int64]
    gauges: NDArray[np.float64]
    tick: NDArray[np.int64] | None
    enemy: NDArray[np.int32] | None
    count: NDArray[np.int32] | None

    def raster(self, start: int = 1, stop: int | None = None) -> NDArray[np.int32]:
        """Actions per enemy (rows) and tick (columns ``start..stop`` inclusive)."""
        tick, enemy, count = self._events()
        stop = self.ticks if stop is None else stop
        out = np.zeros((len(self.time_costs), max(0, stop - start + 1)), dtype=np.int32)
        keep = (tick >= start) & (tick <= stop)
        np.add.at(out, (enemy[keep], tick[keep] - start), count[keep])
        return out

    def tick_of_action(self, enemy: int, k: int) -> int | None:
        """The tick on which ``enemy`` performs its ``k``-th action (1-based), or None if it
        does not act ``k`` times within the timeline."""
        tick, who, count = self._events()
        rows = who == enemy
        done = np.cumsum(count[rows])
        hit = np.searchsorted(done, k)
        return int(tick[rows][hit]) if hit < len(done) else None

    def _events(self) -> tuple[NDArray[np.int64], NDArray[np.int32], NDArray[np.int32]]:
        """The event arrays (tick, enemy, count); they are all None with events=False."""
        if self.tick is None or self.enemy is None or self.count is None:
            raise ValueError("this timeline was computed with events=False")
        return self.tick, self.enemy, self.count


def gauge_timeline(
    time_costs: ArrayLike, ticks: int, gauges: ArrayLike | None = None, *, events: bool = True
) -> GaugeTimeline:
    """Which enemy acts on which tick, by the gauge rule (M5), for every enemy at once.

    Parameters
    ----------
    time_costs : array_like of float, shape (E,)
        Each enemy's ``timeCost``; 0 means not scheduled (never acts).
    ticks : int
        Number of ticks to run (``consume_time(ticks)``).
    gauges : array_like of float, shape (E,), optional
        Starting gauges (default all 0).
    events : bool
        Record the per-tick events (needed for :meth:`GaugeTimeline.raster`); ``False`` returns
        only totals and final gauges, using no memory per tick.

    Limits: ``ticks`` ≤ :data:`MAX_TICKS`, at most :data:`MAX_ENEMIES` enemies and, with
    ``events``, at most :data:`MAX_EVENTS` recorded events (``ArgumentError`` naming the
    argument). Work is O(ticks × enemies), memory O(events).

    Returns
    -------
    GaugeTimeline

    Examples
    --------
    >>> tl = gauge_timeline([1, 2, 0.5, 0], 4)
    >>> tl.actions.tolist(), tl.gauges.tolist()
    ([4, 2, 8, 0], [0.0, 0.0, 0.0, 0.0])
    >>> tl.raster().tolist()
    [[1, 1, 1, 1], [0, 1, 0, 1], [2, 2, 2, 2], [0, 0, 0, 0]]
    """
    costs = np.ascontiguousarray(time_costs, dtype=np.float64)
    if costs.ndim != 1:
        raise ArgumentError("must be 1-D", argument="time_costs", value=costs.shape)
    bad = ~np.isfinite(costs) | (costs < 0) | ((costs > 0) & (costs < MIN_TIME_COST))
    if bad.any():
        raise ArgumentError(
            f"must be 0 or >= {MIN_TIME_COST}",
            argument=f"time_costs[{int(np.argmax(bad))}]",
            value=float(costs[bad][0]),
        )
    if isinstance(ticks, bool) or not isinstance(ticks, (int, np.integer)) or ticks < 0:
        raise ArgumentError("must be an integer >= 0", argument="ticks", value=ticks)
    if ticks > MAX_TICKS:
        raise ArgumentError(f"must be <= {MAX_TICKS}", argument="ticks", value=ticks)
    if len(costs) > MAX_ENEMIES:
        raise ArgumentError(f"at most {MAX_ENEMIES} enemies", argument="time_costs",
                            value=len(costs))  # fmt: skip
    if gauges is None:
        start = np.zeros_like(costs)
    else:
        start = np.ascontiguousarray(gauges, dtype=np.float64)
        if start.shape != costs.shape or not np.isfinite(start).all():
            raise ArgumentError(
                f"must be {costs.shape[0]} finite numbers", argument="gauges", value=gauges
            )
    capacity = 0
    if events:
        scheduled = costs > 0
        bound = np.floor((start[scheduled] + ticks) / costs[scheduled]) + 1
        capacity = int(np.minimum(bound, ticks).sum())
        if capacity > MAX_EVENTS:
            raise ArgumentError(f"would record {capacity} events, more than {MAX_EVENTS} "
                                "(pass events=False for totals only)", argument="ticks",
                                value=ticks)  # fmt: skip
    from . import _kernels  # imported here: numba loads on first use, not with the package

    actions, final, tick, enemy, count, n = _kernels.gauge_run(
        costs, int(ticks), start, bool(events), capacity
    )
    if not events:
        return GaugeTimeline(costs, int(ticks), actions, final, None, None, None)
    return GaugeTimeline(costs, int(ticks), actions, final, tick[:n], enemy[:n], count[:n])
