from __future__ import annotations

import numpy as np

from labkit.hexpuzzle import Level, trace_tap
from labkit.hexpuzzle.coords import centre


def make():
    from labkit.widgets import CollisionViewer

    grazing = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5)], id="grazing")
    strip = Level.hexagon(2, tiles=[("a", 0, 0, 2)], id="fixed", rotation_enabled=False)
    return CollisionViewer([grazing, strip]), grazing


def test_viewer_follows_widget_values():
    viewer, grazing = make()
    viewer.tile_box.value = "mover"
    assert viewer.trace.outcome == "blocked" and "blocked" in viewer.status.value
    assert viewer.plot.minkowski.get_visible()
    assert np.allclose(viewer.plot.contact.get_xydata()[0], trace_tap(grazing, "mover").point)
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


def test_sweep_is_keyed_the_slider_has_a_unit_and_the_board_fills_the_figure():

    viewer, grazing = make()
    labels = {t.get_text() for t in viewer.plot.ax.get_legend().get_texts()}
    assert {"planned path", "travelled: blocked", "first contact"} <= labels
    assert any(t.startswith("contact zone") for t in labels)
    assert "%" in viewer.slider.readout_format and viewer.slider.description == "travelled"
    viewer.slider.value = 0.5000000000000001  # as a browser writes 0.50 back
    assert "drawn at 1.07 of 2.15 cell radii" in viewer.status.value
    text = viewer.plot._texts[0]
    assert text.get_fontsize() >= 9
    contact = viewer.plot.contact.get_xydata()[0]
    assert np.hypot(*(np.array(text.get_position()) - contact)) > 0.4  # not under the cross
    # The board spans most of the axes (before: a pad of 2.6 R left it a third of the figure);
    # the view holds every tile's path too (issue 47: it no longer moves from tile to tile), and
    # grazing's post leaves the board by 2.5 R, so "most" is half here.
    x0, x1 = viewer.plot.ax.get_xlim()
    xs = [centre(q, r)[0] for q, r in grazing.board.cells]
    assert (max(xs) - min(xs)) / (x1 - x0) > 0.5


def test_the_board_holds_still_while_tiles_are_chosen():
    from labkit.widgets import CollisionViewer

    viewer = CollisionViewer()  # the shipped levels: on grazing the post's path leaves the board
    for index in (0, 3):
        viewer.select_level(index)
        views = set()
        for tile in viewer.tile_box.options:
            viewer.tile_box.value = tile
            viewer.fig.canvas.draw()
            ax = viewer.plot.ax
            views.add((ax.get_xlim(), ax.get_ylim(), tuple(np.round(ax.get_position().bounds, 4))))
        assert len(views) == 1, views  # a second click lands where the first one did


def test_level_names_are_drawn_in_their_script_and_the_campaign_is_in_the_picker():
    import warnings

    from labkit.widgets import CollisionViewer

    viewer = CollisionViewer()
    labels = [label for label, _ in viewer.level_box.options]
    assert any(label.startswith("main-01") for label in labels)  # the campaign, not only code
    assert "擦边" in labels[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns "Glyph … missing from font(s)"
        viewer.fig.canvas.draw()
    assert "擦边" in viewer.plot.ax.get_title()


def test_an_exit_path_stays_inside_the_plot():
    from labkit.widgets import CollisionViewer

    lone = Level.hexagon(2, tiles=[("a", 0, 2, 0)], id="lone")
    viewer = CollisionViewer([lone])
    t = viewer.trace
    assert t.outcome == "exit"
    (x0, x1), (y1, y0) = viewer.plot.ax.get_xlim(), viewer.plot.ax.get_ylim()
    assert x0 < t.path[:, 0].min() and t.path[:, 0].max() < x1
    assert y0 < t.path[:, 1].min() and t.path[:, 1].max() < y1
