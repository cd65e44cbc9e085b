"""Drawing for the map-turn package (matplotlib, imported only here).

``draw_floor`` shows a floor's walls, enemies (scheduled ones ringed), items and the hero;
``draw_raster`` shows which enemy acts on which tick. Both are ``draw_x(obj, ax=None, ...)``
(:func:`labkit._draw.drawing`; the older axes-first order still works) and return their artists
so that apps can update them in place.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit._draw import drawing

from .timeline import GaugeTimeline
from .world import World

__all__ = ["draw_floor", "draw_raster", "floor_image"]

_COLOURS = {None: (0.96, 0.95, 0.9), "wall": (0.25, 0.25, 0.3), "stairs": (0.55, 0.75, 0.95),
            "item": (0.95, 0.85, 0.3), "enemy": (0.9, 0.45, 0.4)}  # fmt: skip


def floor_image(world: World, floor: str | None = None) -> np.ndarray:
    """An RGB image (h, w, 3) of a floor's blocks."""
    floor = floor or world.floor
    h, w = world.shape(floor)
    img = np.empty((h, w, 3))
    for y in range(h):
        for x in range(w):
            kind = world.kind(floor, x, y)
            key = None
            if kind is not None:
                if kind[0] == "terrain":
                    terrain = world.tower.terrain[kind[1]]
                    key = "stairs" if terrain.stairs else None if terrain.passable else "wall"
                else:
                    key = kind[0]
            img[y, x] = _COLOURS[key]
    return img


@drawing
def draw_floor(ax: Any, world: World, floor: str | None = None) -> dict[str, Any]:
    """Draw a floor on ``ax``; returns ``{"image", "labels", "hero"}`` artists."""
    floor = floor or world.floor
    image = ax.imshow(floor_image(world, floor), interpolation="nearest")
    labels = []
    h, w = world.shape(floor)
    for y in range(h):
        for x in range(w):
            enemy = world.enemy_at(floor, x, y)
            if enemy is not None:
                style = "bold" if enemy.scheduled else "normal"
                labels.append(ax.text(x, y, enemy.id[:2], ha="center", va="center", fontsize=8,
                                      parse_math=False,
                                      fontweight=style))  # fmt: skip
    hero = world.hero
    at = ([hero.x], [hero.y]) if hero.floor == floor else ([], [])
    marker = ax.plot(*at, "o", ms=12, mfc="none", mec="tab:blue", mew=2)[0]
    ax.set_xticks(range(w))
    ax.set_yticks(range(h))
    ax.tick_params(labelsize=7)
    ax.set_title(f"floor {floor} (bold = scheduled, ring = hero)", fontsize=9, parse_math=False)
    return {"image": image, "labels": labels, "hero": marker}


@drawing
def draw_raster(
    ax: Any, timeline: GaugeTimeline, labels: list[str] | None = None, stop: int | None = None
) -> Any:
    """Actions per enemy (rows) and tick (columns) as an image; returns the ``AxesImage``."""
    stop = timeline.ticks if stop is None else stop
    raster = timeline.raster(1, max(stop, 1))
    image = ax.imshow(raster, aspect="auto", interpolation="nearest", cmap="Blues",
                      extent=(0.5, raster.shape[1] + 0.5, raster.shape[0] - 0.5, -0.5),
                      vmin=0, vmax=max(2, int(raster.max(initial=0))))  # fmt: skip
    ax.set_yticks(range(len(timeline.time_costs)))
    ax.set_yticklabels(labels or [f"cost {c:g}" for c in timeline.time_costs], fontsize=8)
    ax.set_xlabel("map turn (tick)")
    return image
