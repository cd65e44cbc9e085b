"""Figures of solutions, backwards placement and difficulty parts (matplotlib, imported lazily).

Every function returns a :class:`matplotlib.figure.Figure` built without pyplot (so notebooks show
it once, and nothing global changes); :func:`svg_of` turns any of them into SVG text.

* :func:`solution_strip` — the board before and after each action of a solution;
* :func:`placement_strip` — the generator's backwards placement, one new tile per panel with the
  path it leaves by;
* :func:`difficulty_bars` — the six H9 parts of levels as stacked bars (one :class:`Difficulty`
  or many).

Examples
--------
>>> from labkit.hexpuzzle.level import Level
>>> from labkit.hexpuzzle.solving.solver import solve
>>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
>>> fig = solution_strip(lvl, solve(lvl))
>>> len(fig.axes), fig.axes[1].get_title()
(3, '1. tap b')
>>> svg_of(fig).startswith("<?xml")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from labkit.hexpuzzle import draw
from labkit.hexpuzzle.difficulty.parts import PARTS, WEIGHTS
from labkit.hexpuzzle.game import PuzzleState
from labkit.hexpuzzle.level import Board, Level, Tile
from labkit.hexpuzzle.tap_trace import trace_tap

__all__ = ["PART_COLOURS", "difficulty_bars", "placement_strip", "solution_strip", "svg_of"]

PART_COLOURS = dict(zip(PARTS, ("#8d99ae", "#2e86ab", "#66a182", "#d1495b", "#edae49", "#6d597a")))


def _strip(panels: int, size: float, columns: int = 6) -> tuple[Any, list[Any]]:
    from matplotlib.figure import Figure

    cols = min(columns, panels)
    rows = -(-panels // cols)
    fig = Figure(figsize=(size * cols, size * rows + 0.2))
    axes = [fig.add_subplot(rows, cols, k + 1) for k in range(panels)]
    return fig, axes


def solution_strip(level: Level, solution: Any, size: float = 2.4, columns: int = 6) -> Any:
    """The board at the start and after every action of ``solution`` (titled with the action)."""
    game = PuzzleState(level)
    fig, axes = _strip(len(solution.actions) + 1, size, columns)
    draw.draw(game, ax=axes[0]).ax.set_title("start", fontsize=9)
    for k, (ax, action) in enumerate(zip(axes[1:], solution.actions), start=1):
        if action.kind == "tap":
            judged = game.tap(action.arg)
            draw.draw(judged, ax=ax)  # the sweep of the tap, on the board it was judged on
        else:
            game.rotate(action.arg)
            draw.draw(game, ax=ax)
        ax.set_title(f"{k}. {action}", fontsize=9, parse_math=False)
    fig.tight_layout()
    return fig


def placement_strip(
    board: Board, placed: Sequence[Tile], orientations: Sequence[int], size: float = 2.4
) -> Any:
    """The backwards construction: panel ``k`` adds tile ``k`` and shows how it leaves.

    ``orientations[k]`` is the board orientation tile ``k`` was placed at.
    """
    fig, axes = _strip(len(placed), size)
    for k, (ax, tile, o) in enumerate(zip(axes, placed, orientations)):
        level = Level("placement", board.rotated(o), tuple(placed[: k + 1]))
        draw.draw(trace_tap(level, tile.id), ax=ax)
        ax.set_title(f"place {k + 1}: {tile.id} (orientation {o})", fontsize=8, parse_math=False)
    fig.tight_layout()
    return fig


def difficulty_bars(difficulties: Sequence[Any], ax: Any = None, labels: bool = True) -> Any:
    """Stacked bars of the six parts per level, the rounded total written on top."""
    if ax is None:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(max(4.0, 0.42 * len(difficulties) + 2.5), 4.2))
        ax = fig.add_subplot()
    x = np.arange(len(difficulties))
    bottom = np.zeros(len(difficulties))
    for part in PARTS:
        values = np.array([(d.parts.get(part) or 0.0) for d in difficulties])
        ax.bar(
            x,
            values,
            bottom=bottom,
            color=PART_COLOURS[part],
            width=0.75,
            label=f"{part} (max {WEIGHTS[part]})",
        )
        bottom += values
    if labels:
        for xi, d, top in zip(x, difficulties, bottom):
            ax.text(xi, top + 1, "–" if d.total is None else str(d.total), ha="center", fontsize=7)
    for edge in (30, 50, 70):
        ax.axhline(edge, color="#999999", lw=0.8, ls=":")
    ax.set_xticks(x, [d.level_id for d in difficulties], rotation=60, ha="right", fontsize=7)
    ax.set_ylim(0, 100)
    ax.set_ylabel("difficulty (0-100)")
    ax.legend(fontsize=7, ncols=3, loc="upper left", frameon=False)
    ax.figure.tight_layout()
    return ax.figure


def svg_of(fig: Any) -> str:
    """SVG text of a figure, identical run to run (see :func:`labkit._svg.figure_svg`)."""
    from labkit._svg import figure_svg

    return figure_svg(fig)
