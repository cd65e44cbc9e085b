"""The difficulty total rounds half up (SPEC H9: "round half up, as JavaScript's Math.round").

A total lands exactly on .5 only on big boards: below 37 tiles the size part is 15·N/37, whose
denominator no other part can cancel. No shipped level has such a board with the right shape,
so these tests give :func:`score` a real 40-tile level and stand in for the two measurements
it makes (the tile traces and the solver), choosing what they report; the rest of ``score()``
-- parts, sum and rounding -- runs as shipped. Expected values are worked by hand from H9.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from labkit.hexpuzzle.coords import hexagon_cells
from labkit.hexpuzzle.difficulty import scoring as difficulty
from labkit.hexpuzzle.level import Level


def forty_tile_level(move_limit):
    cells = hexagon_cells(4)[:40]
    return Level.hexagon(
        4, tiles=[(f"t{i}", q, r, 0) for i, (q, r) in enumerate(cells)], move_limit=move_limit
    )


def measured(monkeypatch, *, turns, free, layers, rotations):
    """Make the traces report ``turns`` per tile and ``free`` tiles exiting at the start, and
    the solver a solution with ``layers`` removal layers and ``rotations`` rotations."""
    calls = iter(range(10_000))

    def fake_trace(level, tile_id):
        exits = next(calls) < free
        return SimpleNamespace(outcome="exit" if exits else "blocked",
                               planned=SimpleNamespace(turns=turns))  # fmt: skip

    def fake_solve(level, max_states):
        layer = ("t0",)
        return SimpleNamespace(solved=True, status="solved", layers=(layer,) * layers,
                               rotations=rotations)  # fmt: skip

    monkeypatch.setattr(difficulty, "trace_tap", fake_trace)
    monkeypatch.setattr(difficulty, "solve", fake_solve)


def test_a_total_of_68_point_5_scores_69(monkeypatch):
    # N=40, T=0, W=10, F=4, R=4, K=40, M=56 (the case):
    # size 15 (N >= 37), turns 0, layers min(1, 9/9)*20 = 20, blocking (1 - 4/40)*15 = 13.5,
    # rotation min(1, 4/4)*20 = 20, pressure clamp(1 - 16/16)*10 = 0: sum 68.5 -> 69, not the
    # 68 of round-half-even.
    measured(monkeypatch, turns=0, free=4, layers=10, rotations=4)
    d = difficulty.score(forty_tile_level(56))
    assert (d.N, d.T, d.W, d.F, d.R, d.K, d.M) == (40, 0, 10, 4, 4, 40, 56)
    assert d.parts == pytest.approx(
        {"size": 15, "turns": 0, "layers": 20, "blocking": 13.5, "rotation": 20, "pressure": 0}
    )
    assert d.status == "ok"
    assert d.total == 69
    assert d.band == "hard"  # 69 is still hard; 70 would be challenge


def test_a_total_of_22_point_5_scores_23(monkeypatch):
    # Every tile free at the start: W=1 layer, F=N=40, R=0; M=44 gives pressure
    # (1 - 4/16)*10 = 7.5. Sum: 15 + 0 + 0 + 0 + 0 + 7.5 = 22.5 -> 23 (half-even: 22).
    measured(monkeypatch, turns=0, free=40, layers=1, rotations=0)
    d = difficulty.score(forty_tile_level(44))
    assert d.parts["pressure"] == pytest.approx(7.5)
    assert d.total == 23


def test_display_parts_round_half_up_too(monkeypatch):
    # M=52: pressure (1 - 12/16)*10 = 2.5, shown as 3 (half-even would show 2).
    measured(monkeypatch, turns=0, free=40, layers=1, rotations=0)
    d = difficulty.score(forty_tile_level(52))
    assert d.parts["pressure"] == pytest.approx(2.5)
    assert d.display["pressure"] == 3
