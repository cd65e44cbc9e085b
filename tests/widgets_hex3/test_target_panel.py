"""'Generate a level like this at difficulty X' in the workshop and the workbench (no browser)."""

from __future__ import annotations

import pytest

from labkit.hexpuzzle import Level, generate, score, solve

pytest.importorskip("ipywidgets")


def test_workshop_generates_a_level_like_this_and_opens_it():
    from labkit.widgets import LevelWorkshop

    ws = LevelWorkshop(radius=3)
    panel = ws.target_panel
    assert panel.radius() == 3
    seen = []
    panel.on_level = lambda lv: (seen.append(lv), ws._take(lv))
    panel.target.value = 55
    level = panel.generate()
    assert abs(score(level).total - 55) <= 2 and len(level.board) == 37
    assert ws.level.board == level.board and ws.difficulty.total == score(level).total
    assert panel.seed.value == 1 and panel.bar.bar_style == "success"
    assert f"score {score(level).total} for target 55" in panel.status.value
    again = panel.generate(55)  # the next seed: another level
    assert again.board != level.board and len(seen) == 2


def test_a_missed_target_says_so_and_opens_nothing():
    from labkit.widgets import LevelWorkshop

    ws = LevelWorkshop(radius=2)
    before = ws.level
    ws.target_panel.time_limit = 0.3
    assert ws.target_panel.generate(99) is None
    assert "not found" in ws.target_panel.status.value and ws.target_panel.bar.bar_style == "danger"
    assert ws.level == before and not ws.target_panel.button.disabled


def test_workbench_opens_the_new_level_in_a_workshop():
    from labkit.widgets import DifficultyWorkbench, LevelWorkshop

    levels = [generate(1, radius=2, tiles=5), generate(2, radius=3, tiles=9)]
    bench = DifficultyWorkbench(levels)
    bench.like.value = 1
    assert bench.liked() is levels[1] and bench.target_panel.radius() == 3
    level = bench.target_panel.generate(45)
    assert isinstance(bench.workshop, LevelWorkshop) and bench.workshop.level == Level.from_json(
        bench.workshop.document()
    )
    assert bench.workshop_box.children == (bench.workshop.ui,)
    assert bench.workshop.level.board == level.board and solve(bench.workshop.level).solved
    assert len(level.board) == 37 and abs(score(level).total - 45) <= 2


def test_generate_like_this_takes_the_board_and_the_rotations():
    from labkit.widgets import LevelWorkshop

    ws = LevelWorkshop(radius=3)
    panel = ws.target_panel
    panel.board.value, panel.rotations.value = 2, 1  # 19 cells, exactly one rotation
    assert panel.radius() == 2
    level = panel.generate(40)
    assert level is not None, panel.status.value
    assert len(level.board) == 19 and score(level).R == 1
    assert abs(score(level).total - 40) <= 2
