"""Drawing for the map-turn package (matplotlib, imported only here).

``draw_floor`` shows a floor's walls, enemies (scheduled ones in bold), items and the hero;
``draw_raster`` shows which enemy acts on which tick. Both are
``draw_x(obj, ax=None, **style) -> artists`` (:func:`labkit._draw.drawing`; the older
axes-first order still works; ``**style`` takes the keys of ``FLOOR_STYLE`` / ``RASTER_STYLE``),
and ``update_floor`` / ``update_raster`` put a changed world or timeline into those artists in
place (the gauge tuner follows its sliders with ``update_raster``).

Examples
--------
>>> from labkit.mapturn import World, load_tower, example_tower_path
>>> world = World(load_tower(example_tower_path()))
>>> art = draw_floor(world, hero_colour="red")
>>> list(art["hero"].get_xdata()), art["hero"].get_markeredgecolor()
([1], 'red')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit._draw import drawing, styled

from .timeline import GaugeTimeline
from .world import World

__all__ = ["draw_floor", "update_floor", "draw_raster", "update_raster", "floor_image"]

FLOOR_STYLE: dict[str, Any] = {"hero_colour": "tab:blue", "hero_size": 12.0, "label_size": 8.0}
RASTER_STYLE: dict[str, Any] = {"cmap": "Blues"}

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
def draw_floor(ax: Any, world: World, floor: str | None = None, **style: Any) -> dict[str, Any]:
    """Draw a floor (the hero's when ``floor`` is None) on ``ax``.

    Returns ``{"image", "labels", "hero", "style"}`` for :func:`update_floor`; ``style`` keys:
    ``hero_colour``, ``hero_size`` (the ring's marker size), ``label_size`` (enemy labels).

    Examples
    --------
    >>> from labkit.mapturn import World, load_tower, example_tower_path
    >>> art = draw_floor(World(load_tower(example_tower_path())), label_size=5)
    >>> sorted(art), {t.get_fontsize() for t in art["labels"]}
    (['hero', 'image', 'labels', 'style'], {5.0})
    """
    st = styled(FLOOR_STYLE, style)
    image = ax.imshow(floor_image(world, floor or world.floor), interpolation="nearest")
    marker = ax.plot([], [], "o", ms=st["hero_size"], mfc="none", mec=st["hero_colour"],
                     mew=2)[0]  # fmt: skip
    art = {"image": image, "labels": [], "hero": marker, "style": st}
    update_floor(art, world, floor)
    return art


def update_floor(art: dict[str, Any], world: World, floor: str | None = None) -> None:
    """Redraw the artists of :func:`draw_floor` for ``world`` (the hero's floor when ``floor``
    is None): blocks, enemy labels (remade, as their number changes) and the hero ring.

    Examples
    --------
    >>> from labkit.mapturn import World, load_tower, example_tower_path
    >>> world = World(load_tower(example_tower_path()))
    >>> art = draw_floor(world)
    >>> world.hero.x = 2
    >>> update_floor(art, world)
    >>> list(art["hero"].get_xdata())
    [2]
    """
    floor = floor or world.floor
    ax = art["image"].axes
    h, w = world.shape(floor)
    art["image"].set_data(floor_image(world, floor))
    art["image"].set_extent((-0.5, w - 0.5, h - 0.5, -0.5))
    for text in art["labels"]:
        text.remove()
    size = art.get("style", FLOOR_STYLE)["label_size"]
    art["labels"] = []
    for y in range(h):
        for x in range(w):
            enemy = world.enemy_at(floor, x, y)
            if enemy is not None:
                weight = "bold" if enemy.scheduled else "normal"
                art["labels"].append(ax.text(x, y, enemy.id[:2], ha="center", va="center",
                                             fontsize=size, parse_math=False,
                                             fontweight=weight))  # fmt: skip
    hero = world.hero
    art["hero"].set_data(*(([hero.x], [hero.y]) if hero.floor == floor else ([], [])))
    ax.set_xlim(-0.5, w - 0.5)
    ax.set_ylim(h - 0.5, -0.5)
    ax.set_xticks(range(w))
    ax.set_yticks(range(h))
    ax.tick_params(labelsize=7)
    ax.set_title(f"floor {floor} (bold = scheduled, ring = hero)", fontsize=9, parse_math=False)


@drawing
def draw_raster(
    ax: Any,
    timeline: GaugeTimeline,
    labels: list[str] | None = None,
    stop: int | None = None,
    **style: Any,
) -> Any:
    """Actions per enemy (rows) and tick (columns) as an image; returns the ``AxesImage``.

    ``style`` keys: ``cmap``.

    Examples
    --------
    >>> from labkit.mapturn import gauge_timeline
    >>> image = draw_raster(gauge_timeline([1.0, 2.0], 6), cmap="Greys")
    >>> image.get_array().shape, image.get_cmap().name
    ((2, 6), 'Greys')
    """
    st = styled(RASTER_STYLE, style)
    image = ax.imshow(np.zeros((1, 1)), aspect="auto", interpolation="nearest", cmap=st["cmap"])
    update_raster(image, timeline, labels, stop)
    ax.set_xlabel("map turn (tick)")
    return image


def update_raster(
    image: Any, timeline: GaugeTimeline, labels: list[str] | None = None, stop: int | None = None
) -> None:
    """Put ``timeline`` (ticks 1..``stop``) into the image of :func:`draw_raster`, in place.

    Examples
    --------
    >>> from labkit.mapturn import gauge_timeline
    >>> image = draw_raster(gauge_timeline([1.0, 2.0], 6))
    >>> update_raster(image, gauge_timeline([1.0, 1.0, 3.0], 4))
    >>> image.get_array().shape, image.get_extent()
    ((3, 4), [0.5, 4.5, 2.5, -0.5])
    """
    stop = timeline.ticks if stop is None else stop
    raster = timeline.raster(1, max(stop, 1))
    image.set_data(raster)
    image.set_extent((0.5, raster.shape[1] + 0.5, raster.shape[0] - 0.5, -0.5))
    image.set_clim(0, max(2, int(raster.max(initial=0))))
    ax = image.axes
    ax.set_xlim(0.5, raster.shape[1] + 0.5)
    ax.set_ylim(raster.shape[0] - 0.5, -0.5)
    ax.set_yticks(range(len(timeline.time_costs)))
    ax.set_yticklabels(labels or [f"cost {c:g}" for c in timeline.time_costs], fontsize=8)
