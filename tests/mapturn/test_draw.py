"""Drawing a tower: update_floor follows the hero and the enemies, update_raster shows a new gauge
timeline."""

from __future__ import annotations

import numpy as np

from labkit import mapturn
from labkit.mapturn import draw as map_draw
from tests.test_drawing import (
    _close_pyplot_figures,  # noqa: F401 - autouse: closes pyplot figures
    _tower_world,
)


def test_update_floor_follows_the_hero_and_the_enemies() -> None:
    world = _tower_world()
    art = map_draw.draw_floor(world)
    assert len(art["labels"]) == 4  # slime, guard, skeleton, bat on F1
    world.remove_block("F1", 5, 1)  # the slime
    world.hero.x, world.hero.y = 2, 3
    map_draw.update_floor(art, world)
    assert (list(art["hero"].get_xdata()), list(art["hero"].get_ydata())) == ([2], [3])
    assert sorted(t.get_position() for t in art["labels"]) == [(1, 5), (5, 5), (9, 5)]
    assert all(t.axes is art["image"].axes for t in art["labels"])
    empty = art["image"].get_array()[5, 3]  # (3, 5) is an empty floor cell in both
    assert art["image"].get_array()[1, 5].tolist() == empty.tolist()


def test_update_raster_shows_the_new_timeline() -> None:
    image = map_draw.draw_raster(mapturn.gauge_timeline([1.0, 2.0], 6))
    # cost 1 acts every tick, cost 4 every fourth; three enemies over 8 ticks
    map_draw.update_raster(image, mapturn.gauge_timeline([1.0, 4.0, 1.0], 8))
    shown = np.asarray(image.get_array())
    assert shown.shape == (3, 8)
    assert shown[0].tolist() == [1] * 8 and shown[2].tolist() == [1] * 8
    assert shown[1].sum() == 2
    assert [t.get_text() for t in image.axes.get_yticklabels()] == ["cost 1", "cost 4", "cost 1"]
