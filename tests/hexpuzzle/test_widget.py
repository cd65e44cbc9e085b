from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle import Level, trace
from labkit.hexpuzzle.coords import centre

pytest.importorskip("ipywidgets")


def make():
    from labkit.widgets import CollisionSweepViewer

    grazing = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5)], id="grazing")
    strip = Level.hexagon(2, tiles=[("a", 0, 0, 2)], id="fixed", rotation_enabled=False)
    return CollisionSweepViewer([grazing, strip]), grazing


def test_viewer_follows_widget_values():
    viewer, grazing = make()
    viewer.tile_box.value = "mover"
    assert viewer.trace.outcome == "blocked" and "blocked" in viewer.status.value
    assert viewer.plot.minkowski.get_visible()
    assert np.allclose(viewer.plot.contact.get_xydata()[0], trace(grazing, "mover").point)
    viewer.slider.value = 0.0
    assert np.allclose(viewer.plot.mover.get_xy()[:6].mean(axis=0), centre(1, 1))
    viewer.slider.value = 0.5
    mid = viewer.plot.mover.get_xy()[:6].mean(axis=0)
    assert mid[1] < centre(1, 1)[1]  # moved up the board

    viewer.cw.click()
    assert viewer.orientation == 1 and "orientation 1" in viewer.status.value
    assert viewer.trace.level == grazing.rotated(1)
    viewer.ccw.click()
    assert viewer.orientation == 0

    assert viewer.click(*centre(0, 0)) == "post"
    assert viewer.tile_box.value == "post" and viewer.trace.outcome == "exit"
    assert viewer.click(50.0, 50.0) is None


def test_fixed_board_disables_rotation():
    viewer, _ = make()
    viewer.level_box.value = 1
    assert viewer.cw.disabled and viewer.ccw.disabled
    viewer.rotate(1)
    assert viewer.orientation == 0 and "cannot rotate" in viewer.status.value
    assert viewer.tile_box.options == ("a",)
