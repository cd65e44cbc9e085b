"""Every notebook, run in a real JupyterLab in headless Chromium, shows what we built.

Checks per notebook: no error output; every widget view rendered (no "Error displaying widget"
or "Loading widget…" left); an interactive ipympl canvas wherever the notebook draws with
matplotlib; for each widget app, moving one control (its first slider, else a dropdown, else a
toggle) changes the plot or text the app shows.
Screenshots of every notebook go to build/browser/ for a person to look at.
"""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import NOTEBOOKS
from tests.browser.jupyterlab import (
    SCREENSHOTS,
    full_screenshot,
    inspect,
    nudge_controls,
    open_notebook,
    run_all_cells,
)


def _source(path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_renders_in_jupyterlab(lab, page, path):
    budget = (
        json.loads(path.read_text(encoding="utf-8"))
        .get("metadata", {})
        .get("labkit", {})
        .get("budget_seconds", 300)
    )
    open_notebook(page, lab, path.name)
    run_all_cells(page, timeout_s=budget)
    view = inspect(page, path.stem)
    nudged = nudge_controls(page)
    shot = full_screenshot(page, SCREENSHOTS / f"{path.stem}.png")
    assert shot.exists()
    assert not view.problems(), "\n".join(view.problems())
    source = _source(path)
    if "plt." in source or "matplotlib" in source or "labkit.widgets" in source:
        assert view.ipympl_canvases >= 1, f"{path.name}: draws but shows no interactive canvas"
    if "labkit.widgets" in source or "from labkit import widgets" in source:
        assert nudged, f"{path.name}: shows a widget app but no control was found to move"
    unchanged = [(cell, control) for cell, control, changed in nudged if not changed]
    assert not unchanged, f"{path.name}: moving a control changed nothing shown: {unchanged}"


BROKEN_WIDGET = """
import ipywidgets as w
from traitlets import Unicode

class Broken(w.DOMWidget):
    _model_name = Unicode("NoSuchModel").tag(sync=True)
    _model_module = Unicode("labkit-no-such-module").tag(sync=True)
    _model_module_version = Unicode("0.0.1").tag(sync=True)
    _view_name = Unicode("NoSuchView").tag(sync=True)
    _view_module = Unicode("labkit-no-such-module").tag(sync=True)
    _view_module_version = Unicode("0.0.1").tag(sync=True)

Broken()
"""


def test_broken_widget_fails_with_a_clear_message(lab, page):
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "id": "broken",
                "metadata": {},
                "source": BROKEN_WIDGET,
                "outputs": [],
                "execution_count": None,
            }
        ],
        "metadata": {
            "kernelspec": {
                "name": "python3",
                "display_name": "Python 3 (labkit)",
                "language": "python",
            }
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (lab.nbdir / "zz_broken_widget.ipynb").write_text(json.dumps(nb))
    open_notebook(page, lab, "zz_broken_widget.ipynb")
    run_all_cells(page, timeout_s=120)
    view = inspect(page, "zz_broken_widget")
    full_screenshot(page, SCREENSHOTS / "zz_broken_widget.png")
    problems = view.problems()
    assert problems, "a widget whose front-end model does not exist went unnoticed"
    assert any("widget not rendered" in p for p in problems), problems
