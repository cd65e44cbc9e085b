"""gauge_timeline: kernel vs a readable reference, vs its py_func, and vs the engine itself."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from labkit.mapturn import MapTurn, World, _kernels, gauge_timeline, parse_tower


def reference(costs, ticks, gauges=None):
    """The gauge rule written plainly: {(tick, enemy): times acted}, final gauges."""
    g = [0.0] * len(costs) if gauges is None else [float(v) for v in gauges]
    acted = {}
    for t in range(1, ticks + 1):
        for e, c in enumerate(costs):
            if c <= 0:
                continue
            g[e] += 1.0
            while g[e] >= c:
                g[e] -= c
                acted[(t, e)] = acted.get((t, e), 0) + 1
    return acted, g


COSTS = st.lists(st.sampled_from([0, 0.5, 1, 1.5, 2, 2.5, 3, 0.3, 7, 0.25]), min_size=1, max_size=8)


@given(costs=COSTS, ticks=st.integers(0, 40), seed=st.integers(0, 2**16))
def test_kernel_matches_the_reference(costs, ticks, seed):
    start = np.random.default_rng(seed).uniform(0, 3, len(costs)).round(2)
    tl = gauge_timeline(costs, ticks, start)
    acted, final = reference(costs, ticks, start)
    got = {(int(t), int(e)): int(k) for t, e, k in zip(tl.tick, tl.enemy, tl.count)}
    assert got == acted
    assert tl.gauges.tolist() == final
    assert tl.actions.tolist() == [sum(k for (t, e), k in acted.items() if e == i)
                                   for i in range(len(costs))]  # fmt: skip
    py = _kernels.gauge_run.py_func(np.asarray(costs, float), ticks, start, True, 10_000)
    assert py[0].tolist() == tl.actions.tolist() and py[5] == len(tl.tick)


def test_without_events_totals_match():
    costs = [1, 2, 0.5, 3, 0]
    a = gauge_timeline(costs, 1000)
    b = gauge_timeline(costs, 1000, events=False)
    assert b.tick is None and a.actions.tolist() == b.actions.tolist() == [1000, 500, 2000, 333, 0]
    with pytest.raises(ValueError):
        b.raster()


def test_action_counts_are_whole_numbers_as_documented():
    # GaugeTimeline documents actions as int64 and counts as int32: a count read as a float
    # (``3.0``) prints and indexes differently in a notebook
    tl = gauge_timeline([0.25, 1.5, 0], 10)  # costs exact in binary: hand-countable
    assert tl.actions.dtype == np.int64 and tl.actions.tolist() == [40, 6, 0]
    assert tl.count.dtype == np.int32 and tl.tick.dtype == np.int64 and tl.enemy.dtype == np.int32
    # 0.25: four actions a tick; 1.5: acts at ticks 2, 3, 5, 6, 8, 9 (gauge 2 -> 0.5 -> 1.5 -> 0)
    assert tl.count.tolist() == [4] * 10 + [1] * 6
    assert tl.tick.tolist()[10:] == [2, 3, 5, 6, 8, 9]


def test_raster_and_tick_of_action():
    tl = gauge_timeline([3, 1], 7)
    assert tl.raster(1, 7)[0].tolist() == [0, 0, 1, 0, 0, 1, 0]
    assert tl.tick_of_action(0, 2) == 6 and tl.tick_of_action(0, 3) is None


@pytest.mark.parametrize("bad", [[-1], [0.001], [np.inf], [[1, 2]]])
def test_bad_time_costs_are_refused(bad):
    with pytest.raises(ValueError, match="time_costs"):
        gauge_timeline(bad, 3)


def test_bad_ticks_and_gauges_are_refused():
    with pytest.raises(ValueError, match="ticks"):
        gauge_timeline([1], -1)
    with pytest.raises(ValueError, match="gauges"):
        gauge_timeline([1, 2], 3, [0.0])


@given(costs=st.lists(st.sampled_from([0, 0.5, 1, 1.5, 2, 3, 0.3]), min_size=1, max_size=6),
       ticks=st.integers(1, 25))  # fmt: skip
def test_matches_the_engine_scheduling_the_same_enemies(costs, ticks):
    enemies = {f"e{i}": {"hp": 1, "atk": 0, "def": 0, "timeCost": c} for i, c in enumerate(costs)}
    row = [100 + i for i in range(len(costs))]
    doc = {
        "enemies": enemies,
        "legend": {str(100 + i): {"enemy": f"e{i}"} for i in range(len(costs))},
        "floors": {"F1": {"map": [row, [0] * len(costs)]}},
        "hero": {"floor": "F1", "x": 0, "y": 1, "hp": 1, "atk": 1, "def": 0},
    }
    engine = MapTurn(World(parse_tower(doc)))
    engine.consume_time(ticks)
    acted = {}
    for turn, rid, _ in engine.log:
        e = int(rid.split(":")[3][1:])
        acted[(turn, e)] = acted.get((turn, e), 0) + 1
    tl = gauge_timeline(costs, ticks)
    assert {(int(t), int(e)): int(k) for t, e, k in zip(tl.tick, tl.enemy, tl.count)} == acted
    for i in range(len(costs)):
        assert engine.gauge("F1", i, 0) == tl.gauges[i]
