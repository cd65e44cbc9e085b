"""labkit.lab (issue 48): what the lab adds to a designer's own game, and how fast a small one runs.

1. A 1 ms-per-game pure-Python game (the dice duel plus a fixed amount of Python work a game):
   ``lab.sweep`` against the same games played directly in a plain loop, in the same run. Two
   rows: one worker in this process (a one-thread executor: the lab's own cost, target: at most
   10 % slower, ratio >= 0.91), and the default (the machine's cores, pool start-up included).
2. The numba dice duel through ``lab.sweep`` on this machine's cores (two here), pool start-up
   included: games per second (target >= 10^6), with the same games played by the game's jitted
   loop directly in this process (no sweep, one core) as the reference.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from benchmarks import Row, benchmark, compare
from labkit.lab import Game, sweep
from labkit.lab.examples import KNOBS, OUTCOMES, dice_duel, play_duel

GRID = {"hp": [6, 12], "damage": [1, 2]}
SLOW_SEEDS = 100  # 4 points x 100 seeds = 400 games of ~1 ms
FAST_SEEDS = 1_500_000  # 4 points x 1.5 M seeds = 6 M games
_WORK = [2000]  # Python loop steps a game, set so that a game takes about 1 ms


def slow_duel(hp: int, damage: int, seed: int) -> float:
    """The dice duel plus about 1 ms of pure-Python work (a designer's slower game)."""
    x = seed
    for _ in range(_WORK[0]):
        x = (x * 48271 + 11) % 2147483647
    return play_duel(hp, damage, seed + (x & 0))


def _calibrate() -> float:
    t = time.perf_counter()
    for s in range(50):
        slow_duel(12, 2, s)
    per = (time.perf_counter() - t) / 50
    _WORK[0] = max(1, int(_WORK[0] * 1e-3 / per))
    t = time.perf_counter()
    for s in range(50):
        slow_duel(12, 2, s)
    return (time.perf_counter() - t) / 50


def _plain_loop() -> None:
    for hp in GRID["hp"]:
        for damage in GRID["damage"]:
            for seed in range(SLOW_SEEDS):
                slow_duel(hp=hp, damage=damage, seed=seed)


@benchmark("lab sweep 1 ms Python game vs plain loop")
def bench_python_game() -> list[Row]:
    per_game = _calibrate()
    g = Game.from_function("slow dice duel", slow_duel, knobs=KNOBS, outcomes=OUTCOMES)
    with ThreadPoolExecutor(1) as one:
        solo = compare(
            "lab sweep, 1 ms Python game, 400 games, one worker in this process",
            lambda: sweep(g, GRID, range(SLOW_SEEDS), executor=one),
            _plain_loop,
            reference="the same 400 games in a plain Python loop",
            target=1 / 1.10,
            repeat=3,
        )
    solo.notes = f"a game takes {per_game * 1e3:.2f} ms; lab adds {1 / solo.ratio - 1:+.1%}"
    cores = compare(
        f"lab sweep, 1 ms Python game, 400 games, {os.cpu_count()} cores (pool start included)",
        lambda: sweep(g, GRID, range(SLOW_SEEDS)),
        _plain_loop,
        reference="the same 400 games in a plain Python loop",
        target=1 / 1.10,
        repeat=3,
    )
    return [solo, cores]


@benchmark("lab sweep numba dice duel games/s")
def bench_numba_game() -> Row:
    g = dice_duel(jit=True)
    sweep(g, GRID, range(1000))  # compile outside the timing
    games = 4 * FAST_SEEDS
    cols = {"hp": np.repeat(GRID["hp"], 2), "damage": np.tile(GRID["damage"], 2)}
    seeds = np.arange(FAST_SEEDS)
    row = compare(
        f"lab sweep, numba dice duel, {games:,} games, {os.cpu_count()} cores",
        lambda: sweep(g, GRID, range(FAST_SEEDS)),
        lambda: g.play_block(cols, seeds),
        reference="the game's jitted loop over the same games, called directly (1 core)",
        target=None,
        repeat=3,
    )
    rate = games / row.labkit_s
    row.extra = {"games_per_s": rate, "target_games_per_s": 1e6}
    row.notes = f"{rate / 1e6:.2f} M games/s through sweep (target >= 1 M: " + (
        "met)" if rate >= 1e6 else "NOT met)"
    )
    return row
