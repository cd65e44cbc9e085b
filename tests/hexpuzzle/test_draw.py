"""Drawing a level, a game and a trace: SVG reprs and the board plot's artists."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from labkit import hexpuzzle
from labkit.hexpuzzle import Level, PuzzleState, coords, trace_tap
from labkit.hexpuzzle import draw as hex_draw
from labkit.hexpuzzle.coords import centre
from tests.test_drawing import (
    LEVEL,
    _close_pyplot_figures,  # noqa: F401 - autouse: closes pyplot figures
    _new_axes,
    _rgba,
)


def test_objects_render_svg_with_sweep_artists():
    from labkit.hexpuzzle import draw

    lvl = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 3)])
    t = trace_tap(lvl, "mover")
    for obj in (lvl, PuzzleState(lvl), t):
        text = obj._repr_svg_()
        assert text.lstrip().startswith("<?xml") and "</svg>" in text

    plot = draw.BoardPlot(Figure().add_subplot())
    plot.show_level(lvl)
    assert len(plot.tiles.get_paths()) == 2 and len(plot.tracks.get_segments()) == 19 * 3
    plot.show_trace(t)
    assert plot.minkowski.get_visible()
    assert np.allclose(plot.contact.get_xydata()[0], t.point)
    assert np.allclose(plot.scrub(0.0), centre(1, 1))
    assert np.allclose(plot.scrub(1.0), t.point)


def test_hexpuzzle_update_redraws_a_new_level_and_a_trace_in_place() -> None:
    plot = hex_draw.draw(LEVEL, ax=_new_axes(), tile_colours=("black",) * 4)
    bigger = hexpuzzle.Level.hexagon(3, tiles=[("x", 2, 0, 1), ("y", -1, 1, 4), ("z", 0, 0, 0)])
    hex_draw.update(plot, bigger)
    drawn = [p.vertices[:-1].mean(axis=0) for p in plot.tiles.get_paths()]  # hexagon centres
    expected = [coords.centre(t.q, t.r) for t in bigger.tiles]
    assert sorted(np.round(drawn, 6).tolist()) == sorted(np.round(expected, 6).tolist())
    assert len(plot.cells.get_paths()) == len(bigger.board.cells)
    assert {_rgba(c) for c in plot.tiles.get_facecolor()} == {_rgba("black")}  # style kept
    t = hexpuzzle.trace_tap(bigger, "x")
    hex_draw.update(plot, t, title="x taps")
    assert np.allclose(np.column_stack(plot.planned.get_data()), t.path)
    assert plot.ax.get_title() == "x taps" and plot.trace is t
