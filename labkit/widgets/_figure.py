"""One way for every app to hold a matplotlib figure.

Under ipympl (``%matplotlib widget``, what ``labkit.notebook_header`` selects in JupyterLab) the
figure's canvas *is* a widget: apps put it in their layout and call ``draw_idle``. Under a static
backend (tests, ``make report``) the figure is shown as an image inside an ``Output`` widget and
re-displayed after each change. Figures are created with ``plt.ioff()`` so ipympl does not show
the canvas a second time on its own.
"""

from __future__ import annotations

from typing import Any


def new_figure(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """``plt.subplots(*args, **kwargs)`` without ipympl's automatic display."""
    import matplotlib.pyplot as plt

    with plt.ioff():
        return plt.subplots(*args, **kwargs)


class FigurePane:
    """The widget that shows ``fig`` (live canvas or static image) and how to refresh it.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig, ax = new_figure()
    >>> pane = FigurePane(fig)
    >>> pane.interactive
    False
    >>> pane.refresh()  # outside IPython: nothing to re-display, artists already hold the state
    """

    def __init__(self, fig: Any) -> None:
        import ipywidgets as w

        self.fig = fig
        self.interactive = isinstance(fig.canvas, w.DOMWidget)
        self.widget = fig.canvas if self.interactive else w.Output()
        if self.interactive:
            # A canvas displayed on its own gets its pixel size when displayed; one inside a
            # layout only once the front-end's "initialized" message comes back, and a view
            # rendered in between can stay 0 x 0 for good (blank figure under its title).
            # Giving the size now, as ipympl itself does on "initialized", closes that gap.
            fig.canvas.manager.resize(*fig.bbox.size)

    def refresh(self) -> None:
        """Show the figure's current artists."""
        if self.interactive:
            self.fig.canvas.draw_idle()
            return
        from IPython import get_ipython
        from IPython.display import display

        if get_ipython() is None:
            return  # no front-end (tests, scripts): the artists alone carry the state
        with self.widget:
            self.widget.clear_output(wait=True)
            display(self.fig)
