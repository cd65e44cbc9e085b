"""Drawing a level, a game and a trace: SVG reprs and the board plot's artists."""

from __future__ import annotations

import numpy as np

from labkit.hexpuzzle import Level, PuzzleState, trace
from labkit.hexpuzzle.coords import centre


def test_objects_render_svg_with_sweep_artists():
    from labkit.hexpuzzle import draw

    lvl = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 3)])
    t = trace(lvl, "mover")
    for obj in (lvl, PuzzleState(lvl), t):
        text = obj._repr_svg_()
        assert text.lstrip().startswith("<?xml") and "</svg>" in text
    from matplotlib.figure import Figure

    plot = draw.BoardPlot(Figure().add_subplot())
    plot.show_level(lvl)
    assert len(plot.tiles.get_paths()) == 2 and len(plot.tracks.get_segments()) == 19 * 3
    plot.show_trace(t)
    assert plot.minkowski.get_visible()
    assert np.allclose(plot.contact.get_xydata()[0], t.point)
    assert np.allclose(plot.scrub(0.0), centre(1, 1))
    assert np.allclose(plot.scrub(1.0), t.point)
