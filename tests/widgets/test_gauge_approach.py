"""GaugeTuner: where you stand is movable, and patrols get an answer too (issue 24, item 5).

Before: the tuner measured to the hero's start only and showed "— (no chase)" for a patrol.
Expected values are counted by hand on the example tower's first floor (``data/mapturn``):
the skeleton at 5,5 patrols 5,5 → 5,7 → 1,7 (x first, then y), timeCost 2.
"""

from __future__ import annotations

import numpy as np

from labkit.widgets import GaugeTuner
from labkit.widgets._gauge_approach import chase_approach, patrol_approach


def test_a_patrol_answers_when_it_first_comes_within_n_cells_of_where_you_stand():
    app = GaugeTuner(ticks=30)
    app.moves.value, app.battles.value, app.ranged.value = 1, 0, 0  # one tick per player action
    app.you_x.value, app.you_y.value = 3, 7
    app.within.value = 2
    # 5,5 -> 5,6 (3 cells from 3,7) -> 5,7 (2 cells): its 2nd action, tick 2 x 2 = 4
    skel = app.result["until"]["skeleton@5,5"]
    assert (skel["reach_tick"], skel["reach_action"], skel["never"]) == (4, 4, None)
    app.within.value = 0
    # ... -> 4,7 -> 3,7: it steps onto you on its 4th action, tick 8
    assert app.result["until"]["skeleton@5,5"]["reach_tick"] == 8
    assert "(no chase)" not in app.text.value and "8 (tick 8)" in app.text.value


def test_never_says_why():
    app = GaugeTuner(ticks=30)  # you stand at the hero's start, 1,1
    skel = app.result["until"]["skeleton@5,5"]
    # its loop runs 5,5..5,7..1,7 and back: nearest to 1,1 is 1,7, six cells
    assert skel["reach_tick"] is None
    assert skel["never"] == "its route never reaches you (nearest: 6 cells, at 1,7)"
    assert "never — its route never reaches you (nearest: 6 cells, at 1,7)" in app.text.value
    app.within.value = 6
    assert app.result["until"]["skeleton@5,5"]["reach_action"] is not None


def test_the_chaser_measures_to_where_you_stand_not_to_your_start():
    app = GaugeTuner(ticks=30)
    app.moves.value, app.battles.value, app.ranged.value = 1, 0, 0
    app.sliders["bat"].value = 1.0
    assert app.result["reach"]["bat@9,5"] == 12  # 12 steps to the start 1,1
    app.you_x.value, app.you_y.value = 9, 3  # two cells up its own column
    assert app.result["reach"]["bat@9,5"] == 2
    assert "(you at 9,3)" in app.text.value
    app.you_y.value = 6  # right below it: one step
    assert app.result["reach"]["bat@9,5"] == 1


def test_patrol_walk_stops_at_a_wall_and_chaser_is_walled_off():
    walls = np.zeros((3, 6), dtype=bool)
    walls[:, 3] = True
    stuck = patrol_approach((0, 1), [[5, 1], [0, 1]], walls, (5, 1), within=1)
    assert stuck.actions is None
    assert stuck.reason == "a wall at 3,1 stops it at 2,1, 3 cells from you"
    cut = chase_approach((0, 1), walls, (5, 1), within=1)
    assert cut.actions is None and cut.reason.startswith("walls cut it off from you")
    walls[2, 3] = False  # a gap at the bottom: 3 steps to 3,2 (via row 2), then 4,2 and 4,1 or
    # 5,2, 1 cell from 5,1: 6 steps
    assert chase_approach((0, 1), walls, (5, 1), within=1).actions == 6


def test_to_code_keeps_where_you_stand_and_how_near():
    app = GaugeTuner(ticks=30)
    app.you_x.value, app.you_y.value, app.within.value = 3, 7, 2
    code = app.to_code()
    assert "app.you_x.value = 3" in code and "app.you_y.value = 7" in code
    assert "app.within.value = 2" in code
    ns: dict = {}
    exec(code, ns)
    assert ns["app"].result["until"] == app.result["until"]
