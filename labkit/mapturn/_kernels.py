"""Numba kernels of the map-turn package (see :mod:`labkit.mapturn.timeline`)."""

from __future__ import annotations

import numpy as np

from labkit._jit import Covered, kernel


def _example():
    return (np.array([1.0, 2.0, 0.5, 0.0]), 10, np.zeros(4), True, 40)


@kernel(
    example=_example,
    reference=Covered(
        "the readable gauge rule lists (tick, enemy) events in a dict; the kernel fills "
        "fixed-size event arrays",
        "test_kernel_matches_the_reference",
    ),
)
def gauge_run(costs, ticks, gauges, record, capacity):
    """Run the gauge rule (M5) for every enemy over ``ticks`` ticks.

    Returns (actions per enemy, final gauges, event ticks, event enemies, event counts, n events).
    Events are ordered by enemy, then tick; ticks are numbered 1..ticks.
    """
    n_enemies = costs.shape[0]
    final = gauges.copy()
    actions = np.zeros(n_enemies, dtype=np.int64)
    size = capacity if record else 0
    ev_tick = np.empty(size, dtype=np.int64)
    ev_enemy = np.empty(size, dtype=np.int32)
    ev_count = np.empty(size, dtype=np.int32)
    n = 0
    for e in range(n_enemies):
        cost = costs[e]
        if cost <= 0.0:
            continue  # timeCost 0: not scheduled, the gauge never moves
        g = final[e]
        total = 0
        for t in range(ticks):
            g += 1.0
            k = 0
            while g >= cost:  # the engine's exact float operations, in the same order
                g -= cost
                k += 1
            if k > 0:
                total += k
                if record:
                    ev_tick[n] = t + 1
                    ev_enemy[n] = e
                    ev_count[n] = k
                    n += 1
        final[e] = g
        actions[e] = total
    return actions, final, ev_tick, ev_enemy, ev_count, n
