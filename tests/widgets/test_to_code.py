"""Every app's ``to_code()`` rebuilds it: change the state, run the code in a fresh namespace,
compare every control, every text the app shows and its figure's pixels with the original."""

from __future__ import annotations

import ast

import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def run_code(code: str):
    """Execute ``code`` in a fresh namespace; return the value of its last expression."""
    tree = ast.parse(code)
    last = tree.body.pop()
    assert isinstance(last, ast.Expr), "to_code must end with an expression (the rebuilt app)"
    namespace: dict = {}
    exec(compile(tree, "<to_code>", "exec"), namespace)
    return eval(compile(ast.Expression(last.value), "<to_code>", "eval"), namespace)


def widget_state(app) -> list:
    """(kind, description, value) of every widget under ``app.ui`` but the code view itself."""
    rows = []
    skip = {id(app.code_button), id(app.code_area)}

    def walk(widget):
        if id(widget) in skip:
            return
        if hasattr(widget, "value") and not hasattr(widget, "outputs"):
            value = widget.value
            rows.append((type(widget).__name__, getattr(widget, "description", ""), value))
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(app.ui)
    return rows


def pixels(app) -> np.ndarray:
    app.fig.canvas.draw()
    return np.asarray(app.fig.canvas.buffer_rgba()).copy()


def check_rebuilds(app, expected_type):
    code = app.to_code()
    rebuilt = run_code(code)
    assert type(rebuilt) is expected_type
    assert rebuilt is not app
    assert widget_state(rebuilt) == widget_state(app)
    # the figure as `labkit verify` compares figures: at most 0.5 % of pixels off by more than
    # 16/255 (anti-aliasing can differ by a level or two when artists were updated in place)
    off = np.abs(pixels(rebuilt).astype(int) - pixels(app).astype(int)).max(axis=-1) > 16
    assert off.mean() <= 0.005
    assert rebuilt.to_code() == code  # the state written back is the state read
    return rebuilt


def test_code_button_shows_the_code_ready_to_copy():
    from labkit.widgets import GaugeTuner

    app = GaugeTuner(ticks=30)
    assert app.code_area.layout.display == "none"
    app.code_button.value = True
    assert app.code_area.value == app.to_code()
    assert app.code_area.layout.display is None
    app.code_button.value = False
    assert app.code_area.layout.display == "none"


def test_probability_explorer():
    from labkit.widgets import ProbabilityExplorer

    app = ProbabilityExplorer(n=1000)
    before = app.to_code()
    app.hit[8].value = 95
    app.pursuit[0].value = 3
    app.slope.value = 30
    app.clamp.value = (5, 95)
    app.side["a"]["weapon"].value = "revolver"
    app.side["b"]["retreat_at"].value = 2
    app.n.value = 1500
    assert app.to_code() != before
    rebuilt = check_rebuilds(app, ProbabilityExplorer)
    assert rebuilt.stats.win_a == app.stats.win_a
    assert rebuilt.stats.rounds.tolist() == app.stats.rounds.tolist()


def test_probability_explorer_after_a_refused_edit():
    from labkit.widgets import ProbabilityExplorer

    app = ProbabilityExplorer(n=500)
    app.hit[3].value = app.hit[4].value + 5  # breaks "strictly increasing": snapped back
    assert app.error
    app.hit[1].value += 2  # a valid edit the code must carry
    assert not app.error
    rebuilt = check_rebuilds(app, ProbabilityExplorer)
    assert [s.value for s in rebuilt.hit] == [s.value for s in app.hit]
    assert rebuilt.hit[1].value == ProbabilityExplorer(n=500).hit[1].value + 2


def test_collision_viewer():
    from labkit.widgets import CollisionViewer

    app = CollisionViewer()
    index = next(i for i, lv in enumerate(app.levels) if lv.can_rotate and len(lv.tiles) > 1)
    app.select_level(index)
    app.rotate(2)
    app.select_tile(app.tile_box.options[-1])
    app.slider.value = 0.4
    rebuilt = check_rebuilds(app, CollisionViewer)
    assert (rebuilt.level_index, rebuilt.orientation) == (index, 2)
    assert rebuilt.trace.tile == app.trace.tile
    assert rebuilt.fraction == pytest.approx(0.4)


def test_collision_viewer_with_given_levels():
    from labkit.hexpuzzle import Level
    from labkit.widgets import CollisionViewer

    level = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5, 1)], id="grazing")
    app = CollisionViewer([level])
    app.scrub(0.25)  # a direct call, not through the slider
    rebuilt = check_rebuilds(app, CollisionViewer)
    assert rebuilt.levels[0].to_dict() == level.to_dict()
    assert rebuilt.fraction == 0.25


def test_gauge_tuner():
    from labkit.widgets import GaugeTuner

    app = GaugeTuner(ticks=40)
    first = next(iter(app.sliders))
    app.sliders[first].value = 2.5
    app.moves.value, app.battles.value, app.ranged.value = 2, 2, 1
    rebuilt = check_rebuilds(app, GaugeTuner)
    assert rebuilt.result["per_action"] == app.result["per_action"]
    assert rebuilt.result["reach"] == app.result["reach"]


def test_pathfinding_playground():
    from labkit.widgets import PathfindingPlayground

    app = PathfindingPlayground(9, 6, seed=4)
    for y in range(5):
        app.paint(4, y, "wall")
    app.paint(2, 5, "hit tile")
    app.paint(6, 2, "one-way →")
    app.set_start(1, 1)
    app.set_target(8, 0)
    app.neighbourhood.value = "8-way"
    app.cost_field.value = "random 1-5"
    app.tool.value = "erase"
    rebuilt = check_rebuilds(app, PathfindingPlayground)
    np.testing.assert_array_equal(rebuilt.layer.tiles, app.layer.tiles)
    assert rebuilt.result.cost == app.result.cost
    np.testing.assert_array_equal(rebuilt.result.path, app.result.path)


def test_trace_viewer_from_a_simulation_and_from_a_file(tmp_path):
    from labkit.encounter.sim.runner import simulate
    from labkit.encounter.sim.settings import SimulationSettings
    from labkit.widgets import TraceViewer

    trace = simulate(SimulationSettings(seed=3, max_steps=30))
    app = TraceViewer(trace)
    app.show(7)
    assert "simulate(" in app.to_code()
    rebuilt = check_rebuilds(app, TraceViewer)
    assert rebuilt.trace.to_dict() == trace.to_dict()
    assert rebuilt.step.value == 7

    path = tmp_path / "game.json"
    trace.save(path)
    from_file = TraceViewer(str(path))
    from_file.show(4)
    assert repr(str(path)) in from_file.to_code()
    check_rebuilds(from_file, TraceViewer)


def test_trace_viewer_with_an_edited_trace_embeds_the_document():
    import dataclasses

    from labkit.encounter.sim.runner import simulate
    from labkit.encounter.sim.settings import SimulationSettings
    from labkit.widgets import TraceViewer

    trace = simulate(SimulationSettings(seed=5, max_steps=20))
    edited = dataclasses.replace(trace, events=trace.events[:-1])  # not what simulating gives
    app = TraceViewer(edited)
    assert "SimulationTrace.from_dict(" in app.to_code()
    assert check_rebuilds(app, TraceViewer).trace.events == edited.events


def _small_campaign():
    from labkit.hexpuzzle.shipped_campaign import campaign

    return campaign()[:8]


def test_difficulty_workbench_with_calibration():
    from labkit.hexpuzzle.difficulty.telemetry import load_telemetry
    from labkit.widgets import DifficultyWorkbench
    from labkit.widgets.workbench import sample_telemetry_path

    levels = _small_campaign()
    tele = load_telemetry(sample_telemetry_path())
    tele = tele[tele["level"].isin([lv.id for lv in levels])]
    app = DifficultyWorkbench(levels, tele, n_boot=20)
    app.run_calibration()
    first = next(iter(app.weight_sliders))
    app.weight_sliders[first].value = 12.5
    app.edge_sliders[1].value = 61
    rebuilt = check_rebuilds(app, DifficultyWorkbench)
    assert rebuilt.ranking() == app.ranking()
    assert rebuilt.fit_stats() == app.fit_stats()
    assert rebuilt.report.value == app.report.value


def test_difficulty_workbench_with_a_telemetry_path():
    from labkit.widgets import DifficultyWorkbench
    from labkit.widgets.workbench import sample_telemetry_path

    app = DifficultyWorkbench(_small_campaign(), str(sample_telemetry_path()), n_boot=10)
    app.baseline.value = 4.5
    assert "parse_telemetry" not in app.to_code()
    check_rebuilds(app, DifficultyWorkbench)


def test_level_workshop_including_an_invalid_document():
    from labkit.widgets import LevelWorkshop

    app = LevelWorkshop(radius=3)
    app.toggle_tile(0, 0)
    app.turn_tile(0, 0, 2)
    app.colour_tile(0, 0)
    app.toggle_tile(1, -1)
    app.matching.value = app.matching.options[3][1]
    app.set_tracks(1, 0)
    app.tool.value = "turn"
    app.path.value = "mine.json"
    app.move_limit.value = 5
    rebuilt = check_rebuilds(app, LevelWorkshop)
    assert rebuilt.document() == app.document()
    assert rebuilt.difficulty.total == app.difficulty.total

    app.paint_cell(0, 0)  # removes the cell and its tile
    app.paint_cell(4, 0)  # a lone far cell: the board is no longer connected
    rebuilt = check_rebuilds(app, LevelWorkshop)
    assert rebuilt.document() == app.document()
    assert (rebuilt.level is None) == (app.level is None)


def test_balance_tuner_after_a_tune_replays_it():
    from labkit.encounter.sim.settings import SimulationSettings
    from labkit.widgets import BalanceTuner

    app = BalanceTuner(SimulationSettings(max_steps=150), seeds=range(7, 67), start=30)
    app.parameter.value = "npcs"
    app.low.value, app.high.value = 1.0, 6.0
    app.metric.value, app.target.value = "monster_win", 0.4
    app.budget.value = 300
    app.path.value = "npcs_patch.json"
    tuned = app.run()
    assert tuned is not None
    rebuilt = check_rebuilds(app, BalanceTuner)
    assert rebuilt.seeds == list(range(7, 67)) and rebuilt.base == app.base
    assert (rebuilt.result.value, rebuilt.result.games) == (tuned.value, tuned.games)
    assert rebuilt.text.value == app.text.value


def test_balance_tuner_before_a_tune_and_with_a_response_function():
    import numpy as np

    from labkit.widgets import BalanceTuner
    from labkit.widgets._code import CodeError

    app = BalanceTuner(seeds=[3, 1, 4, 15, 9, 2, 6, 5, 35, 8])
    app.parameter.value = "/priority/base"
    app.target.value = 0.3
    rebuilt = check_rebuilds(app, BalanceTuner)
    assert rebuilt.result is None and "app.run()" not in app.to_code()
    assert rebuilt.seeds == [3, 1, 4, 15, 9, 2, 6, 5, 35, 8]
    with pytest.raises(CodeError, match="response"):
        BalanceTuner(response=lambda v, s: np.zeros(len(s))).to_code()


def test_difficulty_workbench_keeps_generate_like_this_and_the_generated_level():
    from labkit.hexpuzzle import generate
    from labkit.widgets import DifficultyWorkbench

    levels = [generate(1, radius=2, tiles=5), generate(2, radius=3, tiles=8)]
    app = DifficultyWorkbench(levels, n_boot=10)
    app.like.value = 1
    panel = app.target_panel
    panel.target.value, panel.seed.value = 47, 5
    panel.board.value, panel.rotations.value, panel.tiles.value = 2, 2, 7
    app.campaign.path.value, app.campaign.slot.value = "season-2.json", 3
    made = panel.generate()
    assert made is not None, panel.status.value
    taken = {t.cell for t in made.tiles}
    app.workshop.toggle_tile(*next(c for c in made.board.tracks if c not in taken))
    rebuilt = check_rebuilds(app, DifficultyWorkbench)
    assert len(rebuilt.workshop.level.tiles) == len(made.tiles) + 1  # the edit is kept
    assert rebuilt.liked() == levels[1] and rebuilt.target_panel.seed.value == 6
    assert rebuilt.target_panel.level == made and rebuilt.workshop.level.board == made.board
    assert made.metadata["generated"]["seed"] == 5 and rebuilt.campaign.slot.value == 3
