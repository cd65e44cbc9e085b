"""The PathfindingPlayground driven without a browser (J2)."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from labkit.widgets import PathfindingPlayground  # noqa: E402


@pytest.fixture
def app():
    yield (a := PathfindingPlayground(10, 6))
    import matplotlib.pyplot as plt

    plt.close(a.fig)


def test_starts_with_a_path_and_shows_it(app):
    assert app.result.status.name == "SUCCESS" and "SUCCESS" in app.status.value
    xs, ys = app.path_line.get_data()
    np.testing.assert_array_equal(np.c_[xs, ys], app.result.path)
    assert f"expanded {app.result.expanded}" in app.status.value


def test_painting_a_wall_line_blocks_then_a_one_way_reopens_one_direction(app):
    for y in range(6):
        app.paint(5, y, "wall")
    assert app.result.status.name == "NO_PATH" and "NO_PATH" in app.status.value
    assert len(app.path_line.get_data()[0]) == 0
    app.paint(5, 3, "one-way →")
    assert app.result.ok  # start (0,0) is west of the one-way tile
    app.set_start(9, 5)
    app.set_target(0, 0)
    assert app.result.status.name == "NO_PATH"  # cannot come back west through it


def test_hit_tile_becomes_a_terminal_ring(app):
    app.tool.value = "hit tile"
    app.click(1.2, -0.1)  # cell (1, 0)
    xs, ys = app.terminals.get_data()
    assert (1, 0) in set(zip(xs, ys))


def test_neighbourhood_and_cost_field_change_the_result(app):
    four = app.result.cost
    app.neighbourhood.value = "8-way"
    assert app.result.cost < four
    app.neighbourhood.value = "4-way"
    app.cost_field.value = "swamp in the middle"
    swamp = app.costs()
    assert app.result.cost == four  # the way round the swamp is as short
    assert all(swamp[y, x] == 1 for x, y in app.result.path)
    app.set_target(5, 3)  # in the swamp: entering it costs 4
    assert app.result.cost == 5 + 3 * 4  # along row 0, then down through three swamp cells
    app.cost_field.value = "random 1-5"
    assert app.result.cost != four
    assert app.ui.children  # a displayable container


def test_dragging_paints_every_cell_the_pointer_crosses(app):
    app.tool.value = "wall"
    app.press(3.1, 0.2)
    for y in (0.4, 1.1, 1.6, 2.2, 3.0):  # (3, 0) twice: a stroke toggles nothing back
        app.drag(3.2, y)
    app.release(2.9, 4.2)  # the cell under the pointer at release is painted too
    app.drag(3.0, 5.0)  # button up: moving paints nothing
    walls = {(int(x), int(y)) for y, x in zip(*np.nonzero(app.layer.tiles == 1))}
    assert walls == {(3, 0), (3, 1), (3, 2), (3, 3), (3, 4)}


def test_one_way_tiles_carry_an_arrow_and_everything_has_a_key(app):
    app.paint(4, 2, "one-way →")
    assert list(zip(*app.arrows.get_data())) == [(4, 2)]
    labels = {t.get_text() for t in app.fig.legends[0].get_texts()}
    assert {"start", "target", "path", "wall", "hit tile (door)"} <= labels
    assert any("reachable" in t for t in labels) and any("terminal" in t for t in labels)
    app.cost_field.value = "random 1-5"
    assert app.colour_bar.mappable.norm.vmax == app.costs().max() == 5
    assert "cost" in app.colour_bar.ax.get_ylabel()


def test_no_path_says_why(app):
    app.target = (12, 3)  # set in code (a click never lands off the map)
    app.update()
    assert "out of range" in app.reason() and "outside the 10×6 map" in app.status.value
    app.set_target(9, 5)
    for y in range(6):
        app.paint(5, y, "wall")
    assert app.reason().startswith("target unreachable: walls and one-way tiles cut it off")
    app.paint(5, 2, "hit tile")  # the only gap is a door: the walker stops in it
    assert app.result.status.name == "NO_PATH"
    assert app.reason().startswith("blocked by a terminal") and "terminal" in app.status.value
    app.set_target(5, 2)  # a path may end on the door
    assert app.result.ok and app.reason() == ""
    app.paint(5, 2, "wall")
    assert "is a wall" in app.reason()


def test_the_8_way_corner_rule_is_chosen_and_named(app):
    # A wall at (1, 0): (0, 0) -> (1, 1) grazes its corner.
    app.paint(1, 0, "wall")
    app.set_target(1, 1)
    app.neighbourhood.value = "8-way"
    assert app.result.cost == 1 and "rule P3" in app.status.value
    app.corners.value = "no corner cutting (as the fast path finder)"
    assert (
        app.result.cost == 2
        and "no corner cutting (the fast path finder's rule)" in app.status.value
    )
