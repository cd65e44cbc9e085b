"""One drawing shape across domains: ``draw_x(obj, ax=None, **style) -> artists``."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from matplotlib.figure import Figure

from labkit import encounter, hexpuzzle, mapturn
from labkit.encounter import draw as enc_draw
from labkit.encounter import sim_draw
from labkit.hexpuzzle import draw as hex_draw
from labkit.mapturn import draw as map_draw


def _cases() -> dict:
    world = mapturn.World(mapturn.load_tower(mapturn.example_tower_path()))
    trace = encounter.GameSession(encounter.SimulationSettings(seed=2, max_steps=20)).run()
    strength, direction = encounter.propagate_sound((4, 5), [(1, 1, 3)])
    return {
        "draw_curves": (enc_draw.draw_curves, (encounter.default_balance(),)),
        "draw_priority": (enc_draw.draw_priority, (encounter.default_balance().priority,)),
        "draw_rounds": (enc_draw.draw_rounds, (np.array([0, 5, 3, 2]),)),
        "draw_sound": (enc_draw.draw_sound, (strength, direction)),
        "draw_board": (sim_draw.draw_board, (trace.map,)),
        "draw_floor": (map_draw.draw_floor, (world,)),
        "draw_raster": (map_draw.draw_raster, (mapturn.gauge_timeline([1.0, 2.0], 6),)),
        "hexpuzzle.draw": (hex_draw.draw, (hexpuzzle.Level.hexagon(2, tiles=[("a", 0, 0, 0)]),)),
    }


CASES = _cases()


def _axes_of(artists) -> object:
    if isinstance(artists, dict) and "ax" in artists:
        return artists["ax"]
    if isinstance(artists, dict):
        artists = next(v for v in artists.values() if v is not None and v != [])
    if hasattr(artists, "ax"):  # hexpuzzle's BoardPlot
        return artists.ax
    if isinstance(artists, (list, tuple)) or hasattr(artists, "patches"):
        artists = artists[0]
    return artists.axes


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_object_comes_first_and_ax_is_optional(name: str) -> None:
    func, args = CASES[name]
    params = list(inspect.signature(func).parameters)
    assert params[0] != "ax" and "ax" in params
    assert inspect.signature(func).parameters["ax"].default is None
    made = func(*args)  # no axes: a new figure's, not pyplot's
    assert _axes_of(made) is not None


@pytest.mark.parametrize("name", sorted(CASES))
def test_given_axes_are_drawn_on_in_both_orders(name: str) -> None:
    func, args = CASES[name]
    ax = Figure().add_subplot()
    assert _axes_of(func(*args, ax=ax)) is ax
    if name != "hexpuzzle.draw":  # the older, axes-first order of the encounter/mapturn drawings
        other = Figure().add_subplot()
        assert _axes_of(func(other, *args)) is other


def test_update_shape_changes_artists_in_place() -> None:
    bars = enc_draw.draw_rounds(np.array([0, 5, 3, 2]))
    heights = [b.get_height() for b in bars]
    enc_draw.update_rounds(bars, np.array([0, 1, 1, 8]))
    assert [b.get_height() for b in bars] != heights
