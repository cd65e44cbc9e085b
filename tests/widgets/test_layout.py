"""Every app fits a 1000 px output area and keeps its axis labels inside its figure (issue 18).

The browser suite (tests/browser/test_apps_layout.py) checks the same in a real JupyterLab; this
is the fast Python side: the figure is at most 980 px wide at its own dpi, and after a draw every
text (titles, axis labels, tick labels, legends, colour bars) lies inside the figure, so nothing a
designer needs to read is cut off at the canvas edge.
"""

from __future__ import annotations

import pytest

WIDTH_PX = 980


def _apps():
    from labkit import widgets

    def trace_viewer():
        from labkit.encounter.sim.runner import simulate
        from labkit.encounter.sim.settings import SimulationSettings

        return widgets.TraceViewer(simulate(SimulationSettings(seed=3, max_steps=40)))

    return {
        "ProbabilityExplorer": lambda: widgets.ProbabilityExplorer(n=500),
        "GaugeTuner": widgets.GaugeTuner,
        "CollisionViewer": widgets.CollisionViewer,
        "PathfindingPlayground": widgets.PathfindingPlayground,
        "DifficultyWorkbench": lambda: widgets.DifficultyWorkbench(n_boot=10),
        "LevelWorkshop": lambda: widgets.LevelWorkshop(radius=3),
        "TraceViewer": trace_viewer,
    }


@pytest.mark.parametrize("name", list(_apps()))
def test_figure_fits_and_shows_every_label(name):
    app = _apps()[name]()
    fig = app.fig
    w, h = fig.get_size_inches() * fig.dpi
    assert w <= WIDTH_PX, f"{name}: figure {w:.0f} px wide"
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    outside = []
    # An axes' tight box holds its drawn title, axis labels, tick labels and legend.
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        box = ax.get_tightbbox(renderer)
        if box.x0 < -1 or box.y0 < -1 or box.x1 > w + 1 or box.y1 > h + 1:
            what = ax.get_title() or ax.get_xlabel() or ax.get_label()
            outside.append((what, [round(v) for v in box.extents]))
    whole = fig.get_tightbbox(renderer)  # in inches; adds figure-level texts and legends
    if whole.x0 < -0.01 or whole.y0 < -0.01 or whole.x1 * fig.dpi > w + 1:
        outside.append(("figure", [round(v * fig.dpi) for v in whole.extents]))
    if whole.y1 * fig.dpi > h + 1:
        outside.append(("figure", [round(v * fig.dpi) for v in whole.extents]))
    assert not outside, f"{name}: drawn outside the {w:.0f}x{h:.0f} px figure: {outside}"
    for ax in fig.axes:
        if ax.axison and ax.get_label() != "<colorbar>":
            assert ax.get_xlabel() or ax.get_xticklabels(), f"{name}: axes without x label"


@pytest.mark.parametrize("name", list(_apps()))
def test_every_app_keys_what_it_draws(name):
    app = _apps()[name]()
    keyed = [ax for ax in app.fig.axes if ax.get_legend() is not None] + app.fig.legends
    colour_bars = [ax for ax in app.fig.axes if ax.get_label() == "<colorbar>"]
    assert keyed or colour_bars, f"{name}: nothing drawn has a legend or a colour bar"
