"""TraceViewer: scrubbing a format-3 trace moves the artists in place."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.encounter.records.trace import TraceError
from labkit.encounter.sim.runner import simulate
from labkit.encounter.sim.settings import SimulationSettings


@pytest.fixture(scope="module")
def trace():
    return simulate(SimulationSettings(seed=2, map_seed=1))


def test_slider_moves_actors_corpses_and_text(trace):
    from labkit.widgets.trace_viewer import TraceViewer

    v = TraceViewer(trace)
    actors, corpses = v.artists["actors"], v.artists["corpses"]
    assert len(actors.get_offsets()) == trace.settings.npcs + trace.settings.monsters
    assert "step 0 of" in v.status.value
    move = next(e for e in trace.events if e["category"] == "move")
    before = np.array(actors.get_offsets())
    v.step.value = move["step"]  # what a user's slider drag does
    assert f"step {move['step']} of" in v.status.value and "move" in v.events.value
    assert not np.array_equal(before, actors.get_offsets())
    assert v.artists["actors"] is actors  # updated in place, not redrawn
    v.step.value = trace.steps
    deaths = trace.select("death")
    assert len(corpses.get_offsets()) == len(deaths)
    assert len(actors.get_offsets()) == len(trace.survivors)
    sounds = [e for e in trace.events if e["category"] == "sound" and e["step"] == trace.steps]
    shown = sum(p.get_visible() for p in v.artists["sounds"])
    assert shown == sum(len(e["state"]["sources"]) for e in sounds)
    v.show(10**6)  # clamped to the last step
    assert v.step.value == trace.steps


def test_format_2_trace_is_refused():
    from labkit.widgets.trace_viewer import TraceViewer

    with pytest.raises(TraceError, match="format-3"):
        TraceViewer(simulate(SimulationSettings(seed=1, max_steps=20), version=2))


def test_the_journal_sits_beside_the_step_slider_not_under_the_board():
    # issue 47: the "heard" lines were below the screen that holds the step slider
    from labkit.encounter import SimulationSettings, simulate
    from labkit.widgets import TraceViewer

    v = TraceViewer(simulate(SimulationSettings(seed=3, max_steps=30)))

    def column_of(widget, box=None):
        box = box or v.ui
        for child in getattr(box, "children", ()):
            if child is widget or column_of(widget, child) is not None:
                return child
        return None

    row = next(c for c in v.ui.children if column_of(v.step, c) is not None)
    # one row: the slider's column holds the journal, the board is the column beside it
    assert type(row).__name__ == "HBox"
    assert column_of(v.step, row) is column_of(v.events, row)
    assert column_of(v.pane.widget, row) not in (None, column_of(v.step, row))
