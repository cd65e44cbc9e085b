"""Sharing in public terms (issue 24, item 5): ``to_code()`` imports only what labkit exports
from a domain (``labkit.<domain>``) or ``labkit.widgets``, and writes values as displayed."""

from __future__ import annotations

import pytest

from tests.public_surface import deep_imports


def _apps():
    from labkit import encounter, widgets

    return {
        "ProbabilityExplorer": lambda: widgets.ProbabilityExplorer(n=200),
        "GaugeTuner": widgets.GaugeTuner,
        "CollisionViewer": widgets.CollisionViewer,
        "PathfindingPlayground": widgets.PathfindingPlayground,
        "LevelWorkshop": lambda: widgets.LevelWorkshop(radius=3),
        "TraceViewer": lambda: widgets.TraceViewer(
            encounter.simulate(encounter.SimulationSettings(seed=3, max_steps=30))
        ),
        "BalanceTuner": widgets.BalanceTuner,
        "DifficultyWorkbench": lambda: widgets.DifficultyWorkbench(
            [encounter_free_level()], n_boot=10
        ),
    }


def encounter_free_level():
    from labkit.hexpuzzle import Level

    return Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5, 1)], id="grazing")


@pytest.mark.parametrize("name", list(_apps()))
def test_to_code_imports_public_names_only(name):
    # The rule of tests/test_public_surface.py: only names in a public package's __all__.
    assert not deep_imports(_apps()[name]().to_code(), name)


def test_values_are_written_as_displayed():
    from labkit.widgets import BalanceTuner

    app = BalanceTuner()
    app.target.value = 0.39999999999999997  # what a browser writes back for "0.40"
    code = app.to_code()
    assert "0.39999999999999997" not in code
    assert "app.metric.value, app.target.value = 'npc_win', 0.4\n" in code, code


@pytest.mark.parametrize("name", ["GaugeTuner", "BalanceTuner", "LevelWorkshop"])
def test_one_code_button_per_app_saying_whose(name):
    import ipywidgets as W

    app = _apps()[name]()
    buttons = []

    def walk(widget):
        if isinstance(widget, W.ToggleButton) and "code" in widget.description:
            buttons.append(widget.description)
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(app.ui)
    assert buttons == [f"{name} as code"]
