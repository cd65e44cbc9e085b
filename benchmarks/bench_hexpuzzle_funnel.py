"""Campaign funnel (issue 26): 24 levels × 100,000 players in the numba kernel.

The reference plays the same world vectorised over players in numpy (one pass per level and
attempt, a uniform per player and draw): the way one would write it without a kernel. The
target is the issue's: under 2 s for 24 levels × 100,000 players (one cohort, fitted
parameters); the row's ratio is numpy's time over the kernel's.
"""

from __future__ import annotations

import numpy as np

from benchmarks import benchmark, compare
from labkit.hexpuzzle.playthrough.simulate import FunnelWorld, quit_logit, run

PLAYERS = 100_000
QUIT = {"baseline": -2.5, "ability": -0.6, "won": -0.8, "run": 0.4, "attempts": 0.2}
WORLD = FunnelWorld(list(np.linspace(-1.5, 2.0, 24)), ability_sd=1.2, learning=0.5, quit=QUIT)


def numpy_funnel(world: FunnelWorld, players: int, seed: int) -> np.ndarray:
    """Reached per level, vectorised over players."""
    gen = np.random.default_rng(seed)
    beta = np.asarray(world.difficulty)
    theta = world.ability_sd * gen.standard_normal(players)
    alive = np.ones(players, dtype=bool)
    run_ = np.zeros(players)
    reached = np.zeros(len(beta), dtype=np.int64)
    for lv, b in enumerate(beta):
        reached[lv] = alive.sum()
        won = np.zeros(players, dtype=bool)
        attempts = np.zeros(players)
        for a in range(world.max_attempts):
            play = alive & ~won
            p = 1.0 / (1.0 + np.exp(-(theta - b + world.learning * min(a, 5))))
            won |= play & (gen.random(players) < p)
            attempts += play
        run_ = np.where(won & (attempts == 1), 0, run_ + 1)
        if lv < len(beta) - 1:
            x = quit_logit(world.quit, theta, position=lv, won=won, attempt=attempts, run=run_)
            alive &= ~(gen.random(players) < 1.0 / (1.0 + np.exp(-x)))
    return reached


@benchmark("hexpuzzle funnel 24 levels x 100000 players")
def bench_funnel():
    tables = [WORLD.tables()]
    ours = run(tables, PLAYERS, rng=0)
    theirs = numpy_funnel(WORLD, PLAYERS, 0) / PLAYERS
    gap = float(np.max(np.abs(np.array(ours.value("reach")) - theirs)))
    row = compare(
        "hexpuzzle funnel 24 levels x 100000 players",
        lambda: run(tables, PLAYERS, rng=0),
        lambda: numpy_funnel(WORLD, PLAYERS, 0),
        reference="numpy, vectorised over players",
        target=1.0,
        notes="",
    )
    row.notes = (f"target < 2 s: {row.labkit_s < 2.0}; reach agrees with numpy within "
                 f"{gap:.3f} (Monte-Carlo)")  # fmt: skip
    row.extra = {"under_2s": row.labkit_s < 2.0, "reach_gap": gap}
    return row


@benchmark("hexpuzzle funnel shipped campaign, fit uncertainty")
def bench_funnel_shipped():
    """The default funnel (50 cohorts × 10,000 players, parameter draws) of the shipped campaign,
    and one FunnelView redraw after a drag (1,000 × 20, the app's default)."""
    import time

    import matplotlib

    matplotlib.use("Agg")
    from benchmarks import Row, median_time
    from labkit._data import data_path
    from labkit.hexpuzzle import campaign, fit_skill_model, funnel, load_telemetry
    from labkit.widgets import FunnelView

    levels = campaign()
    rows = load_telemetry(data_path("telemetry", "progression.csv"), frame=False)
    model = fit_skill_model(rows, levels, dropout="model")
    start = time.perf_counter()
    funnel(levels, model, rng=0)
    cold = time.perf_counter() - start
    view = FunnelView(levels, model)
    orders = [[lv.id for lv in levels][::-1], [lv.id for lv in levels]]
    state = {"i": 0}

    def redraw():  # the new order's funnel, the artists moved, the figure rendered
        state["i"] += 1
        view.set_order(orders[state["i"] % 2])
        view.fig.canvas.draw()

    redraw_s = median_time(redraw, repeat=5)
    return Row("hexpuzzle funnel shipped campaign, fit uncertainty", cold, None,
               "targets: FunnelView redraw < 1 s", None,
               notes=f"funnel(levels, model) 50 x 10,000 players with parameter draws: "
                     f"{cold:.2f} s; FunnelView redraw after a drag (1,000 x 20): "
                     f"{redraw_s:.2f} s, meets: {redraw_s < 1.0}",
               extra={"funnel_s": cold, "redraw_s": redraw_s})  # fmt: skip
