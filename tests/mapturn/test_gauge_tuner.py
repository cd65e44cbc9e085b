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
