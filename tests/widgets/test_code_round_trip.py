"""The code button keeps everything (issue 47, item 3): one generic test over every app changes
every control it shows, runs ``to_code()`` in a fresh namespace and compares the whole widget state
of the rebuilt app with the original; then the state no control shows (a pinned version, the
targets as written, the game or response the app was built on) and a failure said in the app."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from tests.public_surface import deep_imports


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def run_code(code: str):
    tree = ast.parse(code)
    last = tree.body.pop()
    assert isinstance(last, ast.Expr), "to_code must end with an expression (the rebuilt app)"
    namespace: dict = {}
    exec(compile(tree, "<to_code>", "exec"), namespace)
    return eval(compile(ast.Expression(last.value), "<to_code>", "eval"), namespace)


# the kinds of widget a designer sets (outputs such as HTML, Label and progress bars are compared,
# never changed)
INPUTS = {"IntSlider", "FloatSlider", "IntRangeSlider", "FloatRangeSlider", "Dropdown",
          "ToggleButtons", "RadioButtons", "Select", "Checkbox", "IntText", "FloatText",
          "BoundedIntText", "BoundedFloatText", "Text", "TagsInput"}  # fmt: skip


def widgets(app):
    """Every widget under ``app.ui`` but the code view, in display order."""
    skip = {id(app.code_button), id(app.code_area), id(getattr(app, "code_error", None))}
    out = []

    def walk(widget):
        if id(widget) in skip:
            return
        out.append(widget)
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(app.ui)
    return out


def widget_state(app) -> list:
    return [(type(w).__name__, getattr(w, "description", ""), w.value, getattr(w, "disabled", None))
            for w in widgets(app) if hasattr(w, "value")]  # fmt: skip


def _options(widget) -> list:
    return [o[1] if isinstance(o, tuple) else o for o in widget.options]


def another_value(widget):
    """A valid value other than the widget's own (None: nothing else to choose)."""
    kind, value = type(widget).__name__, widget.value
    if kind in ("Dropdown", "ToggleButtons", "RadioButtons", "Select"):
        values = _options(widget)
        if len(values) < 2:
            return None
        return values[(values.index(value) + 1) % len(values)]
    if kind == "Checkbox":
        return not value
    if kind in ("IntSlider", "FloatSlider"):
        step = widget.step or 1
        return value + step if value + step <= widget.max else value - step
    if kind in ("IntRangeSlider", "FloatRangeSlider"):
        lo, hi = value
        step = widget.step or 1
        return (lo + step, hi) if lo + step < hi else (lo, hi + step)
    if kind in ("IntText", "FloatText", "BoundedIntText", "BoundedFloatText"):
        return value + 1
    if kind == "Text":
        return value[:-5] + "-2.json" if value.endswith(".json") else value + "x"
    if kind == "TagsInput":  # an order (FunnelView's play order): the first tag moved last
        return list(value[1:]) + list(value[:1]) if len(value) > 1 else None
    return None


def change_every_control(app) -> int:
    """Set every enabled input to another value; returns how many were changed."""
    changed = 0
    for widget in widgets(app):
        if type(widget).__name__ not in INPUTS or getattr(widget, "disabled", False):
            continue
        if widget not in widgets(app):  # an earlier change replaced it
            continue
        new = another_value(widget)
        if new is not None and new != widget.value:
            widget.value = new
            changed += 1
    return changed


def respond(point, seeds):
    """A response function at module level: to_code imports it by name."""
    return {"npc_win": 0.1 * point["a"] + 0 * np.asarray(seeds, dtype=float),
            "steps": 2.0 * point["b"] + 0 * np.asarray(seeds, dtype=float)}  # fmt: skip


def _small_levels():
    from labkit.hexpuzzle import Level, generate

    grazing = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5, 1)], id="grazing")
    return [grazing, generate(2, radius=3, tiles=8)]


APPS = {
    "ProbabilityExplorer": lambda w: w.ProbabilityExplorer(n=500),
    "GaugeTuner": lambda w: w.GaugeTuner(ticks=30),
    "CollisionViewer": lambda w: w.CollisionViewer(),
    "PathfindingPlayground": lambda w: w.PathfindingPlayground(9, 6, seed=4),
    "LevelWorkshop": lambda w: w.LevelWorkshop(radius=2),
    "TraceViewer": lambda w: w.TraceViewer(_trace()),
    "BalanceTuner": lambda w: w.BalanceTuner(seeds=range(20)),
    "BalanceReport": lambda w: w.BalanceReport(seeds=30),
    "KnobExplorer": lambda w: w.KnobExplorer(
        {"a": (0.0, 10.0), "b": (0, 30)},
        ["npc_win=0.5±0.05", "step_limit<0.05"],
        games=2,
        budget=10,
    ),  # fmt: skip
    "KnobExplorer(response=)": lambda w: w.KnobExplorer(
        {"a": (0.0, 10.0), "b": (0, 30)}, ["npc_win=0.5±0.05"], response=respond, games=1
    ),
    "DifficultyWorkbench": lambda w: w.DifficultyWorkbench(_small_levels(), n_boot=10),
    # the model as a designer has it: the shipped one, which the code names
    "FunnelView": lambda w: w.FunnelView(_campaign(4), _shipped_model(), players=300, draws=3),
}


def _campaign(n: int):
    from labkit.hexpuzzle import campaign

    return campaign()[:n]


def _shipped_model():
    from labkit.hexpuzzle import shipped_skill_model

    return shipped_skill_model()


def test_every_app_is_in_the_round_trip():
    from labkit import widgets

    assert {name.split("(")[0] for name in APPS} == set(widgets.__all__)


def _trace():
    from labkit.encounter import SimulationSettings, simulate

    return simulate(SimulationSettings(seed=3, max_steps=30))


@pytest.mark.parametrize("name", list(APPS))
def test_every_control_survives_the_code_button(name):
    from labkit import widgets

    app = APPS[name](widgets)
    assert change_every_control(app) >= 1
    code = app.to_code()
    assert not deep_imports(code, name)  # public names only
    rebuilt = run_code(code)
    assert type(rebuilt) is type(app) and rebuilt is not app
    assert widget_state(rebuilt) == widget_state(app)
    assert rebuilt.to_code() == code


def test_playground_keeps_no_corner_cutting():
    from labkit.widgets import PathfindingPlayground

    app = PathfindingPlayground(9, 6, seed=4)
    for y in range(1, 6):
        app.paint(4, y, "wall")
    app.neighbourhood.value = "8-way"
    app.corners.value = "no corner cutting (as the fast path finder)"
    rebuilt = run_code(app.to_code())
    assert rebuilt.corners.value == app.corners.value
    assert rebuilt.result.cost == app.result.cost
    np.testing.assert_array_equal(rebuilt.result.path, app.result.path)


def test_probability_explorer_keeps_its_pinned_version():
    from labkit.widgets import ProbabilityExplorer

    app = ProbabilityExplorer(n=500)
    app.hit[6].value += 4
    app.pin()
    app.hit[2].value -= 3
    rebuilt = run_code(app.to_code())
    assert rebuilt.pinned is not None
    assert rebuilt.pinned.to_dict() == app.pinned.to_dict()
    assert rebuilt.text.value == app.text.value


def test_knob_explorer_writes_the_targets_as_given():
    from labkit.widgets import KnobExplorer

    app = KnobExplorer({"a": (0.0, 10.0)}, ["step_limit<0.05", "steps>=40"])
    code = app.to_code()
    assert "'step_limit<0.05'" in code and "'steps>=40'" in code and "<=" not in code


def test_collision_viewer_names_shipped_levels_instead_of_inlining_them():
    from labkit.hexpuzzle import campaign
    from labkit.widgets import CollisionViewer

    app = CollisionViewer(campaign())
    app.select_level(5)
    code = app.to_code()
    assert len(code) < 2000, len(code)
    rebuilt = run_code(code)
    assert [lv.to_dict() for lv in rebuilt.levels] == [lv.to_dict() for lv in app.levels]
    assert rebuilt.level_index == 5


def test_a_response_function_is_imported_by_name():
    from labkit.widgets import KnobExplorer

    app = KnobExplorer({"a": (0.0, 10.0), "b": (0, 30)}, ["npc_win=0.5±0.05"], response=respond)
    code = app.to_code()
    assert f"from {__name__} import respond" in code
    assert run_code(code).response is respond


def test_code_that_cannot_be_written_is_said_in_the_app():
    from labkit.widgets import KnobExplorer

    app = KnobExplorer({"a": (0.0, 10.0)}, ["npc_win=0.5±0.05"],
                       response=lambda point, seeds: {"npc_win": 0 * seeds})  # fmt: skip
    app.code_button.value = True  # what a click does: no exception reaches the log console
    assert app.code_area.layout.display == "none"
    assert app.code_error.layout.display is None
    assert "response" in app.code_error.value and "lambda" in app.code_error.value
    app.code_button.value = False
    assert app.code_error.layout.display == "none"


def tuner_response(value, seeds):
    """A BalanceTuner response at module level (the NPC win rate falls as the value rises)."""
    return (np.asarray(seeds) % 10 >= value).astype(float)


def test_balance_tuner_imports_its_response_by_name():
    from labkit.widgets import BalanceTuner

    app = BalanceTuner(seeds=range(30), response=tuner_response)
    app.target.value = 0.3
    code = app.to_code()
    assert f"from {__name__} import tuner_response" in code
    rebuilt = run_code(code)
    assert rebuilt.response is tuner_response and widget_state(rebuilt) == widget_state(app)


def test_funnel_view_names_the_shipped_model_instead_of_inlining_it():
    from labkit._data import data_path
    from labkit.widgets import FunnelView

    path = data_path("telemetry", "skill_model.json")
    for model in (_shipped_model(), str(path)):  # the model, or its file
        app = FunnelView(["main-01", "main-02", "main-03"], model, players=200, draws=2)
        app.move("main-03", 1)
        code = app.to_code()
        assert "shipped_skill_model()" in code and str(path) not in code
        assert len(code) < 600, len(code)
        rebuilt = run_code(code)
        assert rebuilt.model.to_dict() == app.model.to_dict() and rebuilt.order == app.order
