"""GaugeTuner logic, driven through widget values without a browser."""

from __future__ import annotations

import numpy as np

from labkit.widgets import GaugeTuner


def test_sliders_drive_the_raster_and_the_text():
    app = GaugeTuner(ticks=40)
    assert set(app.sliders) == {"bat", "skeleton"}
    image = app.image
    before = app.image.get_array().copy()
    app.sliders["bat"].value = 4.0
    assert app.image is image  # updated in place
    assert not np.array_equal(before, app.image.get_array())
    assert app.result["per_action"]["bat@9,5"] == round(10 / len(app.result["ends"]), 3)
    assert "bat@9,5" in app.text.value


def test_action_mix_and_chaser_reach():
    app = GaugeTuner(ticks=60)
    app.sliders["bat"].value = 1.0
    app.moves.value, app.battles.value, app.ranged.value = 1, 0, 0
    fast = app.result["reach"]["bat@9,5"]
    # the bat is 12 steps from the hero's start: one step per tick and one tick per move
    assert fast == 12
    app.battles.value, app.battle_time.value = 1, 5  # long battles: fewer player actions
    assert app.result["reach"]["bat@9,5"] < fast
    assert app.player_times() == [1, 5]
    assert app.action_ends(13).tolist() == [1, 6, 7, 12, 13]
    assert len(app.lines.get_segments()) == len(app.result["ends"])


def test_a_value_written_back_by_the_browser_counts_as_the_value_shown():
    # The front end writes "3.00" back as 3.0000000000000004; before, the gauge then filled to
    # 3.0 < 3.0000000000000004 and the bat acted on ticks 4, 7, ... instead of 3, 6, ...
    app = GaugeTuner(ticks=60)
    app.sliders["bat"].value = 3.0000000000000004
    noisy = (dict(app.result["per_action"]), app.result["timeline"].actions.tolist())
    app.sliders["bat"].value = 3.0
    clean = (dict(app.result["per_action"]), app.result["timeline"].actions.tolist())
    assert noisy == clean
    bat = app.result["labels"].index("bat@9,5")
    assert app.result["timeline"].actions[bat] == 60 // 3  # a gauge gains 1 per tick


def test_how_long_until_has_no_horizon():
    app = GaugeTuner(ticks=10)
    app.moves.value, app.battles.value = 1, 0  # every player action takes one tick
    app.sliders["bat"].value = 8.0
    # 12 steps to the hero, one per action, an action every 8 ticks: tick 96, far past 10
    bat = app.result["until"]["bat@9,5"]
    assert bat == {"first_action_tick": 8, "reach_tick": 96, "reach_action": 96, "never": None}
    assert app.result["reach"]["bat@9,5"] == 96
    bat_row = app.text.value.split("bat@9,5")[1].split("</tr>")[0]
    assert "never" not in bat_row and "96 (tick 96)" in bat_row
    app.ticks.value = 400
    assert app.result["until"]["bat@9,5"] == bat  # the shown range changes nothing
    assert "never — its route never reaches you" in app.text.value  # the skeleton patrols


def test_a_floor_map_beside_the_gauges_shows_you_the_enemies_and_the_patrol():
    # issue 47: the hero's spot and the patrol were set blind (no floor map)
    import numpy as np

    from labkit.widgets import GaugeTuner

    app = GaugeTuner(ticks=30)
    gauges = app.sliders[next(iter(app.sliders))]
    row = next(box for box in _boxes(app.ui) if type(box).__name__ == "HBox"
               and any(gauges in getattr(c, "children", ()) for c in box.children))  # fmt: skip
    assert any(app.map_pane.widget in _boxes(c) for c in row.children)  # beside the sliders
    app.you_x.value, app.you_y.value = 2, 3
    np.testing.assert_array_equal(app.you_mark.get_xydata(), [[2, 3]])
    walls = app.world.walls(app.floor)
    assert app.map_image.get_array().shape == walls.shape
    x, y, patrol = next(i for i in app.instances if i[2].act_type == "patrol")
    route = app.routes[f"{patrol.id}@{x},{y}"]
    walked = [tuple(p) for p in route.get_xydata().tolist()]
    assert all(tuple(w) in walked for w in patrol.act_args["waypoints"])  # every waypoint
    steps = np.abs(np.diff(np.array(walked), axis=0)).sum(axis=1)
    assert (steps == 1).all()  # cell by cell, as it walks (never through a wall)
    assert not any(walls[int(y), int(x)] for x, y in walked)
    app.map_click(4.2, 6.9)  # a click on the map puts you there
    assert app.you() == (4, 7)


def _boxes(widget):
    out = [widget]
    for child in getattr(widget, "children", ()):
        out += _boxes(child)
    return out
