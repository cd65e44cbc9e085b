"""One drawing shape across domains: ``draw_x(obj, ax=None, **style) -> artists`` and
``update_x(artists, obj)``.

Every matplotlib drawing of the domains is a case below: what it draws, a style key with the
artist property it must set, and (for the drawings apps redraw) the update with a second object.
Expected values come from the objects and from matplotlib's colour parsing, never from the
drawing code.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pytest
from matplotlib.artist import Artist
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

from labkit import ArgumentError, encounter, hexpuzzle, mapturn
from labkit.encounter import draw as enc_draw
from labkit.encounter import draw_sim
from labkit.encounter.rules.balance import PriorityRule
from labkit.hexpuzzle import draw as hex_draw
from labkit.mapturn import draw as map_draw

MARK = "#123456"  # a colour no drawing uses by default


@dataclass
class Case:
    func: Any
    args: tuple
    style: dict[str, Any]  # one style key and its value
    styled: Any  # artists -> the property that style sets, comparable with ``expected_style``
    expected_style: Any
    kwargs: dict[str, Any] = field(default_factory=dict)


def _rgba(c: Any) -> tuple[float, ...]:
    return tuple(float(v) for v in np.asarray(to_rgba(c) if isinstance(c, str) else c).ravel()[:4])


def _tower_world() -> mapturn.World:
    return mapturn.World(mapturn.load_tower(mapturn.example_tower_path()))


def _tuned() -> Any:
    def response(value: float, seeds: np.ndarray) -> np.ndarray:
        return ((seeds * 0.6180339887) % 1.0 < value / 10).astype(int)

    return encounter.tune(None, "x", 0.3, bounds=(1.0, 9.0), seeds=range(400),
                          response=response, progress=False)  # fmt: skip


TRACE = encounter.GameSession(encounter.SimulationSettings(seed=2, max_steps=20)).run()
SUMMARY = pd.DataFrame({"life": [3, 5], "n": [10, 10], "npc_win": [0.8, 0.4],
                        "npc_win_lo": [0.5, 0.2], "npc_win_hi": [0.9, 0.7],
                        "monster_win": [0.2, 0.6], "monster_win_lo": [0.1, 0.3],
                        "monster_win_hi": [0.5, 0.8]})  # fmt: skip
CURVE = (np.array([0, 2, 5]), np.array([1.0, 0.5, 0.5]), np.zeros(3), np.ones(3))
LEVEL = hexpuzzle.Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
STRENGTH, DIRECTION = encounter.propagate_sound((4, 5), [(1, 1, 3)])

CASES: dict[str, Case] = {
    "encounter.draw_curves": Case(
        enc_draw.draw_curves, (encounter.default_balance(),), {"hit_colour": MARK},
        lambda a: _rgba(a["hit"].get_color()), _rgba(MARK)),
    "encounter.draw_priority": Case(
        enc_draw.draw_priority, (PriorityRule(),), {"colour": MARK},
        lambda a: _rgba(a[0].get_facecolor())[:3], _rgba(MARK)[:3]),
    "encounter.draw_rounds": Case(
        enc_draw.draw_rounds, (np.array([0, 5, 3, 2]),), {"colour": MARK},
        lambda a: _rgba(a[-1].get_facecolor())[:3], _rgba(MARK)[:3]),
    "encounter.draw_sound": Case(
        enc_draw.draw_sound, (STRENGTH, DIRECTION), {"cmap": "viridis"},
        lambda a: a["image"].get_cmap().name, "viridis"),
    "encounter.draw_board": Case(
        draw_sim.draw_board, (TRACE.map,), {"sound_colour": MARK},
        lambda a: _rgba(a["sounds"][0].get_facecolor())[:3], _rgba(MARK)[:3]),
    "encounter.draw_win_rates": Case(
        draw_sim.draw_win_rates, (SUMMARY,), {"side_colours": {"npc": MARK}},
        lambda a: (list(a), _rgba(a["npc"].lines[0].get_color())), (["npc"], _rgba(MARK))),
    "encounter.draw_survival": Case(
        draw_sim.draw_survival, ({"all": CURVE},), {"colours": [MARK]},
        lambda a: _rgba(a["all"][0].get_color()), _rgba(MARK)),
    "encounter.draw_response": Case(
        draw_sim.draw_response, (_tuned(),), {"target_colour": MARK},
        lambda a: _rgba(a["target"].get_color()), _rgba(MARK)),
    "mapturn.draw_floor": Case(
        map_draw.draw_floor, (_tower_world(),), {"hero_colour": MARK},
        lambda a: _rgba(a["hero"].get_markeredgecolor()), _rgba(MARK)),
    "mapturn.draw_raster": Case(
        map_draw.draw_raster, (mapturn.gauge_timeline([1.0, 2.0], 6),), {"cmap": "Greys"},
        lambda a: a.get_cmap().name, "Greys"),
    "hexpuzzle.draw": Case(
        hex_draw.draw, (LEVEL,), {"track_colour": MARK},
        lambda a: _rgba(a.tracks.get_color()[0]), _rgba(MARK)),
}  # fmt: skip


def _artists(made: Any) -> list[Artist]:
    """Every matplotlib artist in what a drawing returned (dicts, lists, containers, BoardPlot)."""
    if isinstance(made, Artist):
        return [made]
    if isinstance(made, hex_draw.BoardPlot):
        made = [made.cells, made.tracks, made.tiles, made.arrows, made.planned, made.swept,
                made.minkowski, made.mover, made.contact]  # fmt: skip
    if isinstance(made, dict):
        made = [v for k, v in made.items() if k not in ("ax", "style")]
    if isinstance(made, (list, tuple)):  # matplotlib's containers are tuples
        return [a for item in made for a in _artists(item)]
    return []


def _new_axes() -> Any:
    return Figure().add_subplot()


@pytest.fixture(autouse=True)
def _close_pyplot_figures() -> Any:
    yield  # hexpuzzle.draw without axes opens a pyplot figure (a notebook shows it)
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_object_comes_first_ax_is_optional_and_style_is_open(name: str) -> None:
    params = inspect.signature(CASES[name].func).parameters
    kinds = [p.kind for p in params.values()]
    assert list(params)[0] != "ax" and params["ax"].default is None
    assert kinds[-1] is inspect.Parameter.VAR_KEYWORD  # **style
    made = CASES[name].func(*CASES[name].args)  # no axes: a new figure's
    assert _artists(made) and all(a.axes is not None for a in _artists(made))


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_artist_returned_lives_on_the_given_axes(name: str) -> None:
    case = CASES[name]
    ax = _new_axes()
    made = _artists(case.func(*case.args, ax=ax))
    assert made, "a drawing returns the artists it made"
    assert {id(a.axes) for a in made} == {id(ax)}
    if name != "hexpuzzle.draw":  # the older, axes-first order of encounter and mapturn
        other = _new_axes()
        assert {id(a.axes) for a in _artists(case.func(other, *case.args))} == {id(other)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_style_changes_the_artists(name: str) -> None:
    case = CASES[name]
    plain = case.styled(case.func(*case.args, ax=_new_axes()))
    styled = case.styled(case.func(*case.args, ax=_new_axes(), **case.style))
    assert styled == case.expected_style
    assert plain != styled


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_unknown_style_key_is_refused_by_name(name: str) -> None:
    case = CASES[name]
    with pytest.raises(ArgumentError, match="colr") as err:
        case.func(*case.args, ax=_new_axes(), colr="red")
    assert err.value.argument == "colr"


# --- update_x(artists, obj): the drawn data follow a second object ------------------------------
def test_update_rounds_sets_the_shares_of_the_new_counts() -> None:
    bars = enc_draw.draw_rounds(np.array([0, 5, 3, 2]), max_shown=4)
    enc_draw.update_rounds(bars, np.array([0, 1, 1, 0, 6, 2]))  # 10 fights, 8 of 4+ rounds
    assert [b.get_height() for b in bars] == pytest.approx([0.1, 0.1, 0.0, 0.8])


def test_update_curves_puts_the_new_tables_in_percent() -> None:
    hit = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    pursuit = [0.02, 0.04, 0.08, 0.16, 0.32, 0.4, 0.5, 0.6, 0.65]
    art = enc_draw.draw_curves(encounter.default_balance())
    new = encounter.default_balance().replace(hit_table=hit, pursuit_table=pursuit)
    enc_draw.update_curves(art, new)
    assert list(art["hit"].get_ydata()) == pytest.approx([100 * p for p in hit])
    assert list(art["pursuit"].get_ydata()) == pytest.approx([100 * p for p in pursuit])
    assert [t.get_text() for t in art["labels"]] == [f"{100 * p:.0f}" for p in hit]


def test_update_priority_follows_the_clamped_rule() -> None:
    bars = enc_draw.draw_priority(PriorityRule())
    enc_draw.update_priority(bars, PriorityRule(base=0.3, per_agility=0.25, min=0.05, max=0.7))
    # P = clamp(base + per_agility * difference, min, max) over differences -3..3
    expected = [100 * min(max(0.3 + 0.25 * d, 0.05), 0.7) for d in range(-3, 4)]
    assert [b.get_height() for b in bars] == pytest.approx(expected)
