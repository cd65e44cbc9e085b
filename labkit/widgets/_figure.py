"""One way for every app to hold a matplotlib figure, live wherever the app is shown.

In a live Jupyter kernel an app's figure is built on ipympl's canvas directly, whatever backend
the notebook selected: displaying an app makes it clickable without ``%matplotlib widget`` or
``labkit.notebook_header()`` first. The canvas *is* a widget; apps put it in their layout and call
``draw_idle``. Its "Figure N" caption is hidden (the app's own title says what it shows).

Elsewhere (tests, scripts, ``make report`` and the docs, which set ``LABKIT_STATIC_FIGURES=1``,
or a kernel without ipympl) the figure is drawn to a PNG inside an ``Output`` widget and
re-drawn after each change; in a kernel without ipympl the app says so in one line, with the
fix.

Figures never go through pyplot's figure list, so no backend shows a second, static copy of an
app's figure under the cell.
"""

from __future__ import annotations

import functools
import itertools
import os
from typing import Any

#: What a kernel without ipympl shows above an app's figure.
NO_IPYMPL = (
    "This figure is a still picture: ipympl is not installed in this kernel. "
    "Run <code>pip install ipympl</code> and restart the kernel to click and drag on it."
)

_numbers = itertools.count(1)
# plt.subplots' keywords that belong to the figure; the rest go to Figure.subplots.
_FIGURE_KEYS = ("figsize", "dpi", "facecolor", "edgecolor", "frameon", "layout")

#: Families with CJK glyphs, in order of preference: the shipped levels have Chinese names, and
#: matplotlib's DejaVu Sans draws them as boxes. ``make test`` installs Debian's
#: fonts-wqy-microhei (1.6 MB); a designer's machine usually has one of the others.
CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Source Han Sans SC", "WenQuanYi Micro Hei",
                "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB",
                "SimHei", "Arial Unicode MS")  # fmt: skip
_CJK_FILES = ("cjk", "wqy", "wenquanyi", "sourcehan", "msyh", "pingfang", "simhei", "hiragino")


@functools.cache
def name_fonts() -> list[str]:
    """Font families for text naming things (a level's name may be in any script): matplotlib's
    sans-serif with the first CJK family found as its fallback for missing glyphs.

    A font installed after matplotlib cached its font list is added from its file, so it works
    without clearing matplotlib's cache.

    Examples
    --------
    >>> name_fonts()[0]
    'sans-serif'
    """
    from matplotlib import font_manager

    def found() -> list[str]:
        known = {f.name for f in font_manager.fontManager.ttflist}
        return [f for f in CJK_FAMILIES if f in known]

    if not found():
        for path in font_manager.findSystemFonts():
            if any(part in os.path.basename(path).lower() for part in _CJK_FILES):
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):  # a file FreeType cannot read
                    continue
    return ["sans-serif", *found()[:1]]


def _in_kernel() -> bool:
    """True inside a Jupyter kernel (a front-end can show widgets), not plain IPython."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def static_wanted() -> bool:
    """Whether figures are still pictures by request (``LABKIT_STATIC_FIGURES=1``)."""
    return os.environ.get("LABKIT_STATIC_FIGURES", "") not in ("", "0")


def live_canvas_available() -> bool:
    """Whether new figures get ipympl's live canvas: in a kernel, ipympl importable, not static.

    Examples
    --------
    >>> live_canvas_available()  # outside a Jupyter kernel
    False
    """
    if static_wanted() or not _in_kernel():
        return False
    try:
        import ipympl.backend_nbagg  # noqa: F401
    except ImportError:
        return False
    return True


def new_figure(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """``plt.subplots(*args, **kwargs)``, outside pyplot: a live ipympl canvas in a kernel.

    Examples
    --------
    >>> fig, (left, right) = new_figure(1, 2, figsize=(4, 2), width_ratios=[2, 1])
    >>> type(fig.canvas).__name__, [round(v) for v in fig.get_size_inches()]
    ('FigureCanvasAgg', [4, 2])
    """
    from matplotlib.figure import Figure

    fig_kwargs = {k: kwargs.pop(k) for k in _FIGURE_KEYS if k in kwargs}
    fig = Figure(**fig_kwargs)
    if live_canvas_available():
        from ipympl.backend_nbagg import Canvas, FigureManager

        canvas = Canvas(fig)
        canvas.header_visible = False  # no "Figure N" caption above the app's picture
        # No toolbar over the figure's left edge (it hid the y axis labels), no footer of raw
        # cursor coordinates, no resize grip: the app's controls are the way to change it.
        canvas.toolbar_visible = False
        canvas.footer_visible = False
        canvas.resizable = False
        FigureManager(canvas, next(_numbers))
    else:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    return fig, fig.subplots(*args, **kwargs)


class FigurePane:
    """The widget that shows ``fig`` (live canvas or static image) and how to refresh it.

    Examples
    --------
    >>> fig, ax = new_figure()
    >>> pane = FigurePane(fig)
    >>> pane.interactive, pane.note
    (False, '')
    >>> pane.refresh()  # outside IPython: nothing to re-display, artists already hold the state
    """

    def __init__(self, fig: Any) -> None:
        import ipywidgets as w

        self.fig = fig
        self.interactive = isinstance(fig.canvas, w.DOMWidget)
        #: The one line saying why the figure is a still picture in a live kernel ("" if not).
        self.note = (
            NO_IPYMPL if not self.interactive and _in_kernel() and not static_wanted() else ""
        )
        self.output: Any = None if self.interactive else w.Output()
        if self.interactive:
            self.widget = fig.canvas
            # A canvas displayed on its own gets its pixel size when displayed; one inside a
            # layout only once the front-end's "initialized" message comes back, and a view
            # rendered in between can stay 0 x 0 for good (blank figure under its title).
            # Giving the size now, as ipympl itself does on "initialized", closes that gap.
            fig.canvas.manager.resize(*fig.bbox.size)
            # An app draws (and sends) its first frames while its cell runs; the front-end's
            # "initialized" comes after, and ipympl's answer to it resizes (clears) the
            # browser's copy of the picture. The next frame must be whole: a diff against the
            # cleared picture showed only the changed pixels (a blank chart, issue 47).
            fig.canvas.on_msg(_whole_frame_when_shown)
        elif self.note:
            self.widget = w.VBox([w.HTML(f"<i>{self.note}</i>"), self.output])
        else:
            self.widget = self.output

    def refresh(self) -> None:
        """Show the figure's current artists."""
        if self.interactive:
            self.fig.canvas.draw_idle()
            return
        from IPython import get_ipython

        if get_ipython() is None:
            return  # no front-end (tests, scripts): the artists alone carry the state
        import io

        from IPython.display import Image, display

        buffer = io.BytesIO()
        self.fig.savefig(buffer, format="png")
        output = self.output
        assert output is not None, "a static pane always has its Output widget"
        with output:
            output.clear_output(wait=True)
            display(Image(buffer.getvalue()))


def _whole_frame_when_shown(canvas: Any, content: Any, _buffers: Any) -> None:
    """After ipympl's own handler (registered first) answered "initialized": a whole frame."""
    if isinstance(content, dict) and content.get("type") == "initialized":
        canvas._force_full = True
        canvas._png_is_old = True
        canvas.draw_idle()


# ipympl focuses its canvas on every mouse press (so that keys reach the figure) with a plain
# ``focus()``, and a browser scrolls a focused element into view: a press on a figure whose top
# or bottom lies off screen scrolled the notebook by up to a few hundred pixels, so a drag
# started on one cell ended on another (issue 24). JupyterLab focuses its own cells with
# ``preventScroll``; this gives the canvases of labkit's apps the same, keeping their keyboard
# focus. Installed once per page; only elements inside an app's root box (class APP_CLASS).
APP_CLASS = "labkit-app"
KEEP_SCROLL_JS = """
(() => {
  if (window.__labkitKeepScroll) return;
  window.__labkitKeepScroll = true;
  const focus = HTMLElement.prototype.focus;
  HTMLElement.prototype.focus = function (options) {
    if (this.closest && this.closest('.APP_CLASS')) {
      options = Object.assign({}, options, {preventScroll: true});
    }
    return focus.call(this, options);
  };
})();
""".replace("APP_CLASS", APP_CLASS)


def show_app(ui: Any) -> None:
    """Display an app's root box; with live canvases, also the one-line script that keeps a
    press on its figure from scrolling the notebook (:data:`KEEP_SCROLL_JS`)."""
    from IPython.display import Javascript, display

    ui.add_class(APP_CLASS)
    display(ui)
    if live_canvas_available():
        display(Javascript(KEEP_SCROLL_JS))
