"""Figures of solutions, placement and difficulty parts: the data drawn is the data computed."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle.difficulty.scoring import PARTS, score
from labkit.hexpuzzle.draw_solver import difficulty_bars, placement_strip, solution_strip, svg_of
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.generator import place_backwards, random_board
from labkit.hexpuzzle.solving.solver import solve


def test_solution_strip_has_one_panel_per_action():
    level = Level.load("data/levels/03-two-turns.json")
    sol = solve(level)
    fig = solution_strip(level, sol)
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["start"] + [f"{k}. {a}" for k, a in enumerate(sol.actions, start=1)]
    assert "<svg" in svg_of(fig)


def test_placement_strip_shows_each_new_tile_leaving():
    rng = np.random.default_rng(2)
    board = random_board(rng, 2)
    placed = place_backwards(rng, board, [(0, 2), (1, 2)])
    fig = placement_strip(board, placed, [0, 0, 1, 1])
    assert len(fig.axes) == 4 and fig.axes[3].get_title().endswith("(orientation 1)")


def test_difficulty_bars_stack_the_parts():
    levels = [Level.load(f"data/levels/0{i}-{n}.json") for i, n in ((2, "one-turn"), (5, "strip"))]
    ds = [score(lv) for lv in levels]
    fig = difficulty_bars(ds)
    bars = fig.axes[0].patches
    assert len(bars) == len(PARTS) * 2
    heights = np.array([b.get_height() for b in bars]).reshape(len(PARTS), 2)
    assert heights[:, 0] == pytest.approx([ds[0].parts[p] for p in PARTS])
    assert heights.sum(axis=0) == pytest.approx([sum(d.parts.values()) for d in ds])
