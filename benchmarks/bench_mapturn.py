"""Map-turn: the gauge kernel against the engine's Python tick loop; tick cost vs floor clutter."""

from __future__ import annotations

import statistics
import time

import numpy as np

from benchmarks import Row, benchmark, median_time
from labkit.mapturn import MapTurn, World, gauge_timeline, parse_tower

COSTS = [0.5, 1, 1.5, 2, 2.5, 3, 4, 5]


def _tower(width: int, height: int, scheduled: int, unscheduled: int) -> dict:
    """A floor with ``scheduled`` idle enemies (cycling through COSTS) then ``unscheduled``
    timeCost-0 rocks, row-major, hero in the last cell."""
    enemies = {f"e{i}": {"hp": 1, "atk": 0, "def": 0, "timeCost": c} for i, c in enumerate(COSTS)}
    enemies["rock"] = {"hp": 1, "atk": 0, "def": 0, "timeCost": 0}
    legend = {str(100 + i): {"enemy": f"e{i}"} for i in range(len(COSTS))}
    legend["99"] = {"enemy": "rock"}
    cells = [100 + i % len(COSTS) for i in range(scheduled)] + [99] * unscheduled
    assert len(cells) < width * height
    cells += [0] * (width * height - len(cells))
    grid = np.array(cells).reshape(height, width).tolist()
    return {"name": "bench", "enemies": enemies, "legend": legend,
            "floors": {"F1": {"map": grid}},
            "hero": {"floor": "F1", "x": width - 1, "y": height - 1, "hp": 1, "atk": 1,
                     "def": 0}}  # fmt: skip


def _engine(doc: dict) -> MapTurn:
    return MapTurn(World(parse_tower(doc)))


@benchmark("mapturn gauge_timeline 1000 enemies x 100000 ticks vs engine tick loop")
def bench_gauge_timeline():
    enemies, ticks, py_ticks = 1000, 100_000, 200
    engine = _engine(_tower(41, 25, enemies, 0))
    costs = [e.definition.time_cost for e in engine.cache.order("F1")]
    assert len(costs) == enemies
    gauge_timeline(costs[:4], 10, events=False)  # compile outside the timing

    def run_engine():
        engine.log.clear()  # keep memory flat; the appends themselves are part of the loop
        engine.consume_time(py_ticks, "bench")

    ours = median_time(lambda: gauge_timeline(costs, ticks, events=False), repeat=3)
    theirs = median_time(run_engine, repeat=3) * (ticks / py_ticks)
    # the two agree on the same inputs (checked on the engine's own span)
    check = _engine(_tower(41, 25, enemies, 0))
    check.consume_time(py_ticks)
    tl = gauge_timeline(costs, py_ticks, events=False)
    got = [check.state.gauges["F1"][e.runtime_id] for e in check.cache.order("F1")]
    assert got == tl.gauges.tolist()
    rate = enemies * ticks / ours
    return Row(
        "mapturn gauge_timeline 1000x100000",
        ours,
        theirs,
        "MapTurn.consume_time (Python tick loop, idle enemies)",
        100,
        notes=(
            f"{rate:.3g} enemy-ticks/s; engine timed on {py_ticks} ticks and scaled "
            f"linearly x{ticks // py_ticks}; kernel with events=False (totals + final gauges, "
            f"as the engine keeps)"
        ),  # fmt: skip
        extra={"enemy_ticks_per_s": rate, "engine_enemy_ticks_per_s": enemies * ticks / theirs},
    )


@benchmark("mapturn consume_time(1000) 200 idle enemies, 10000 vs 0 unscheduled blocks")
def bench_consume_time_clutter():
    clean = _engine(_tower(110, 110, 200, 0))
    cluttered = _engine(_tower(110, 110, 200, 10_000))
    assert len(cluttered.cache.order("F1")) == len(clean.cache.order("F1")) == 200

    def once(engine) -> float:
        engine.log.clear()
        start = time.perf_counter()
        engine.consume_time(1000, "bench")
        return time.perf_counter() - start

    once(clean), once(cluttered)  # warm-up
    # interleaved, so that load from other processes hits both sides alike
    pairs = [(once(clean), once(cluttered)) for _ in range(9)]
    without = statistics.median(p[0] for p in pairs)
    with_clutter = statistics.median(p[1] for p in pairs)
    scans = cluttered.world.scans
    assert scans == 1, "a tick scanned the floor"
    return Row(
        "mapturn consume_time(1000), 10k unscheduled blocks",
        with_clutter,
        without,
        "same floor with 0 unscheduled blocks",
        1 / 1.2,
        notes=(
            f"{1000 / with_clutter:,.0f} ticks/s with 10,000 timeCost-0 blocks, "
            f"{1000 / without:,.0f} ticks/s without (median of 9 interleaved pairs); "
            f"ratio must stay within 1.2 either way"
        ),  # fmt: skip
        extra={"ticks_per_s_cluttered": 1000 / with_clutter, "ticks_per_s_clean": 1000 / without},
    )
