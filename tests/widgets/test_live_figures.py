"""Apps are live wherever they are shown (issue 24, item 1).

In a Jupyter kernel an app's figure must be ipympl's canvas even when the notebook never ran
``%matplotlib widget`` (a fresh notebook, the README's tour); it carries no "Figure N" caption
and is not in pyplot's figure list (so the inline backend cannot show a second, static copy).
The kernel is imitated by an IPython shell with a ``kernel`` attribute.
"""

from __future__ import annotations

import pytest


class _Shell:
    kernel = object()  # what ipykernel's shell has and plain IPython has not

    class events:  # ipympl registers a post_execute hook on import
        @staticmethod
        def register(*_):
            pass

        @staticmethod
        def unregister(*_):
            pass


@pytest.fixture
def in_kernel(monkeypatch):
    import IPython

    monkeypatch.delenv("LABKIT_STATIC_FIGURES", raising=False)
    monkeypatch.setattr(IPython, "get_ipython", lambda: _Shell())
    import matplotlib

    matplotlib.use("Agg")  # the notebook's backend is *not* the widget one
    yield
    import matplotlib.pyplot as plt

    # pyplot hooked itself into the imitated shell; unhook it while that shell is still there, or
    # a later test's plt.ioff() in the same process unregisters from no shell at all
    plt.uninstall_repl_displayhook()


def test_an_app_in_a_fresh_kernel_gets_the_live_canvas(in_kernel):
    import ipywidgets as W
    import matplotlib.pyplot as plt

    from labkit.widgets import GaugeTuner

    before = set(plt.get_fignums())
    app = GaugeTuner()
    assert isinstance(app.fig.canvas, W.DOMWidget), type(app.fig.canvas)
    assert app.pane.interactive and app.pane.widget is app.fig.canvas
    assert app.fig.canvas.header_visible is False  # no "Figure N" caption
    assert set(plt.get_fignums()) == before  # nothing for a backend to show a second time


def test_static_figures_stay_static_on_request(in_kernel, monkeypatch):
    monkeypatch.setenv("LABKIT_STATIC_FIGURES", "1")
    from labkit.widgets import GaugeTuner

    app = GaugeTuner()
    assert not app.pane.interactive and app.pane.note == ""


def test_a_kernel_without_ipympl_says_so_with_the_fix(in_kernel, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "ipympl.backend_nbagg", None)  # import fails
    from labkit.widgets import GaugeTuner

    app = GaugeTuner()
    assert not app.pane.interactive
    assert "pip install ipympl" in app.pane.note and "restart the kernel" in app.pane.note


def _shown_by(app_display, monkeypatch) -> list:
    import IPython.display

    shown: list = []
    monkeypatch.setattr(IPython.display, "display", lambda *objs, **_: shown.extend(objs))
    app_display()
    return shown


def test_every_app_displays_itself_the_same_way():
    """KnobExplorer had no display of its own: a cell ending in it showed a repr."""
    import labkit.widgets
    from labkit.widgets._code import CodeMixin

    for name in labkit.widgets.__all__:
        cls = getattr(labkit.widgets, name)
        assert cls._ipython_display_ is CodeMixin._ipython_display_, name


def test_a_live_app_keeps_a_press_on_its_figure_from_scrolling(in_kernel, monkeypatch):
    """ipympl focuses its canvas on each press; the app's script makes that focus keep the
    notebook's scroll (issue 24, item 6), for elements inside the app's root box only."""
    from IPython.display import Javascript

    from labkit.widgets import GaugeTuner
    from labkit.widgets._figure import APP_CLASS

    app = GaugeTuner()
    shown = _shown_by(app._ipython_display_, monkeypatch)
    assert shown[0] is app.ui and APP_CLASS in app.ui._dom_classes
    scripts = [s.data for s in shown if isinstance(s, Javascript)]
    assert len(scripts) == 1 and "preventScroll: true" in scripts[0]
    assert f"closest('.{APP_CLASS}')" in scripts[0]


def test_a_static_app_adds_no_script(in_kernel, monkeypatch):
    """Reports and docs (static figures) keep their outputs free of scripts."""
    monkeypatch.setenv("LABKIT_STATIC_FIGURES", "1")
    from labkit.widgets import GaugeTuner

    app = GaugeTuner()
    assert _shown_by(app._ipython_display_, monkeypatch) == [app.ui]


def test_a_canvas_shown_after_its_first_frames_gets_a_whole_frame(in_kernel):
    # issue 47: FunnelView's chart was blank on one of three opens until a level was dragged.
    # The app drew (and sent) its frames while the cell ran; the front-end's "initialized" came
    # after, resized (cleared) the browser's copy, and the next frame was a *diff* against a
    # picture the browser no longer had: only the changed pixels showed.
    from labkit.widgets._figure import FigurePane, new_figure

    fig, ax = new_figure(figsize=(3, 2))
    pane = FigurePane(fig)
    canvas = fig.canvas
    modes: list[str] = []
    canvas.send_binary = lambda data: modes.append(canvas._current_image_mode)
    ax.plot([0, 1], [0, 1])
    canvas.draw()  # the app's first frames, sent before anything is on screen
    ax.plot([0, 1], [1, 0])
    canvas.draw()
    assert modes == ["full", "diff"]
    canvas._handle_custom_msg({"type": "initialized"}, [])  # the view appears
    canvas._handle_custom_msg({"type": "draw"}, [])  # the front-end asks for the frame
    assert modes[-1] == "full", modes
    assert pane.widget is canvas


def test_the_funnel_view_sends_no_frame_while_its_cell_runs(in_kernel, monkeypatch):
    # issue 47: FunnelView's chart stayed blank on some opens. It drew (canvas.draw()) in its
    # constructor, which sends a frame at once, before the browser has a view to take it; the
    # later frames were diffs against it. Frames must wait for the browser's request.
    from ipympl.backend_nbagg import Canvas

    from labkit.hexpuzzle import TrueModel
    from labkit.widgets import FunnelView

    sent: list[int] = []
    monkeypatch.setattr(Canvas, "send_binary", lambda self, data: sent.append(len(data)))
    view = FunnelView(["L01", "L02"], TrueModel([0.5, -0.5], quit={"baseline": -1.5}),
                      players=200, draws=2)  # fmt: skip
    assert view.pane.interactive and sent == []
    view.fig.canvas.handle_draw({})  # the browser asks: the whole laid-out picture goes
    assert len(sent) == 1
