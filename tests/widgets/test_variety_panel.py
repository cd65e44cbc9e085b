"""The workbench's "How varied are generated levels?" (issue 27, item 4): pictures and answer.

The generator is replaced by one that always returns the same shipped level (one rotation
needed), asked for at that level's own score (the difficulty slider's) with 1 and with 2
rotations, two levels per ask:
by hand, quality and "within ±2" hold for the 1-rotation asks only (2 of 4), and of two copies
of one level pcg_benchmark's pass counts one as distinct (2 of 4 by either measure).
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("ipywidgets")

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


@pytest.fixture
def same_level(monkeypatch):
    from labkit.hexpuzzle import score
    from labkit.hexpuzzle.evaluation import baselines
    from labkit.hexpuzzle.shipped_campaign import campaign
    from labkit.widgets import _variety_panel

    level = next(lv for lv in campaign() if score(lv).R == 1)
    total = score(level).total
    assert _variety_panel.ROTATIONS == (1, 2)
    asked = []

    def fixed(target, rng, budget):
        asked.append(target)
        return level

    monkeypatch.setattr(baselines, "ours", fixed)
    return total, asked


def test_the_button_in_the_workbench_draws_both_pictures_and_answers_in_counts(same_level):
    from labkit.hexpuzzle import Level
    from labkit.widgets import DifficultyWorkbench

    total, asked = same_level
    bench = DifficultyWorkbench([Level.hexagon(2, tiles=[("a", 1, 1, 0)], id="one")])
    bench.target_panel.target.value = total  # the difficulty the panel asks for
    panel = bench.variety
    assert panel.ui in bench.index_view.children
    assert panel.pane.widget.layout.display == "none"  # no empty axes before the first run
    lines: list[str] = []
    panel.progress.observe(lambda ch: lines.append(ch["new"]), names="value")
    panel.levels = 2
    panel.button.click()
    assert len(asked) == 4 and panel.report is not None
    # the progress line named each level while it was made, then cleared
    made = [ln for ln in lines if "making level" in ln]
    assert [m.split("making level ")[1].split(":")[0] for m in made] == [
        "1 of 4", "2 of 4", "3 of 4", "4 of 4"]  # fmt: skip
    assert "with 2 rotations" in made[-1] and lines[-1] == ""
    answer = re.sub(r"<[^>]+>", "", panel.answer.value)
    assert f"Of 4 levels asked for at score {total}, 2 of 4 are playable and as asked" in answer
    assert "2 of 4 have the score within ±2 points and the rotations asked for" in answer
    assert "2 of 4 are different puzzles by how they are solved" in answer
    assert "2 of 4 are different boards, even turned" in answer
    # the pictures: expressive range (all 4 levels in one cell) and the control map
    expressive, control = panel.fig.axes[:2]  # then their two colour bars
    assert panel.pane.widget.layout.display is None
    shares = expressive.collections[0].get_array()
    assert shares.count() == 1 and shares.max() == 1.0  # one cell holds every level
    values = [t.get_text() for t in control.texts]
    assert values == ["100 %", "0 %"]  # rotations 1: both within; rotations 2: none
    assert [t.get_text() for t in control.get_xticklabels()] == [f"{total:g}"]
    labels = [answer, expressive.get_title(), control.get_title()]
    labels += [ax.get_xlabel() for ax in (expressive, control)]
    labels += [ax.get_ylabel() for ax in (expressive, control)]
    assert expressive.get_xlabel() == "score (points)"
    assert control.get_ylabel() == "rotations asked for (rotations)"
    assert not [m for text in labels for m in SNAKE.findall(text)]
    # the shared code rebuilds the run: same asks, same answer
    namespace: dict = {}
    exec(bench.to_code(), namespace)
    assert namespace["bench"].variety.answer.value == panel.answer.value and len(asked) == 8


def test_a_second_run_redraws_instead_of_stacking_pictures(same_level):
    from labkit.widgets._variety_panel import VarietyPanel

    panel = VarietyPanel(levels=1)
    panel.run()
    panel.run()
    assert len(panel.fig.axes) == 4 and not panel.button.disabled
    # it fits the 1000 px output area and keeps every label inside (as the apps' layout test)
    fig = panel.fig
    w, h = fig.get_size_inches() * fig.dpi
    fig.canvas.draw()
    boxes = [ax.get_tightbbox(fig.canvas.get_renderer()).extents for ax in fig.axes]
    assert w <= 980 and all(-1 <= x0 and -1 <= y0 and x1 <= w + 1 and y1 <= h + 1
                            for x0, y0, x1, y1 in boxes), boxes  # fmt: skip


def test_the_asks_follow_the_difficulty_slider(same_level):
    # issue 47: the panel always asked for scores 35 and 50, whatever the slider said
    from labkit.hexpuzzle import Level
    from labkit.widgets import DifficultyWorkbench

    _, asked = same_level
    bench = DifficultyWorkbench([Level.hexagon(2, tiles=[("a", 1, 1, 0)], id="one")])
    bench.variety.levels = 1
    for difficulty in (62, 40):
        bench.target_panel.target.value = difficulty
        asked.clear()
        bench.variety.run()
        assert sorted({a["score"] for a in asked}) == [difficulty]
        assert sorted(a["rotations"] for a in asked) == [1, 2]
        assert f"score {difficulty}" in bench.variety.answer.value
