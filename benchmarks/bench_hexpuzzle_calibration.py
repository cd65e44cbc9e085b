"""Simulated players: telemetry for the 24-level campaign × 100 players (games per second)."""

from __future__ import annotations

from benchmarks import benchmark, compare
from labkit.hexpuzzle.difficulty.players import make_players, simulate_telemetry
from labkit.hexpuzzle.shipped_campaign import campaign


@benchmark("hexpuzzle simulated telemetry 24 levels x 100 players")
def bench_simulated_telemetry():
    levels = campaign()
    players = make_players(100, rng=1)
    simulate_telemetry(levels, players[:2], rng=0)  # contact tables and kernels outside timing
    counts = []

    def run():
        counts.append(len(simulate_telemetry(levels, players, rng=2)))

    row = compare(
        "hexpuzzle simulate_telemetry 24x100",
        run,
        None,
        reference="none (wall time; games/s in notes)",
        target=None,
        repeat=2,
    )
    games = len(levels) * len(players)
    row.notes = (
        f"{games} games ({counts[-1]} attempts) in {row.labkit_s:.2f} s: "
        f"{games / row.labkit_s:.0f} games/s, {counts[-1] / row.labkit_s:.0f} attempts/s"
    )
    row.extra = {"games": games, "attempts": counts[-1], "games_per_s": games / row.labkit_s}
    return row
