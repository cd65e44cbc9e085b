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
