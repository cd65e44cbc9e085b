"""Every widget app fits the default JupyterLab layout (issue 18).

A 1400 px window with the file browser open leaves an output area of about 1000 px. For each app
the check runs in real JupyterLab + Chromium: no widget output is wider than its cell, no text of
the app is clipped (a label or HTML box whose text is wider than the box), and the figure canvas
lies inside the output area (so its axis labels, which the figure keeps inside its own bounds,
are seen). A screenshot of every app goes to ``build/browser/app_<name>.png``.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.browser.jupyterlab import SCREENSHOTS, inspect, open_notebook, run_all_cells

APPS = {
    "ProbabilityExplorer": "ProbabilityExplorer(n=1000)",
    "GaugeTuner": "GaugeTuner()",
    "CollisionSweepViewer": "CollisionSweepViewer()",
    "PathfindingPlayground": "PathfindingPlayground()",
    "DifficultyWorkbench": "DifficultyWorkbench(n_boot=20)",
    "LevelWorkshop": "LevelWorkshop(radius=3)",
    "TraceViewer": "TraceViewer(simulate(SimulationSettings(seed=3, max_steps=40)))",
}

SETUP = """\
import labkit
labkit.notebook_header()
from labkit.widgets import *
from labkit.encounter.runner import simulate
from labkit.encounter.settings import SimulationSettings
"""

# For one app cell: what sticks out of its output area, and which texts are cut.
MEASURE = """
cell => {
  const area = cell.querySelector('.jp-OutputArea');
  const out = area.getBoundingClientRect();
  const inner = cell.querySelector('.jp-Cell-outputWrapper') || area;
  const bound = inner.getBoundingClientRect();
  const root = cell.querySelector('.jp-OutputArea-output .jupyter-widgets.widget-container');
  const problems = [];
  if (!root) return {problems: ['no widget output'], canvases: 0};
  const visible = el => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const name = el => (el.className || el.tagName).toString().slice(0, 60) + ' "' +
                     (el.innerText || el.title || '').trim().slice(0, 60) + '"';
  if (root.scrollWidth > bound.width + 1)
    problems.push(`app is ${root.scrollWidth}px wide in a ${Math.round(bound.width)}px cell`);
  for (const el of root.querySelectorAll('*')) {
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.right > bound.right + 1 && el.children.length === 0)
      problems.push(`sticks out by ${Math.round(r.right - bound.right)}px: ${name(el)}`);
  }
  // A text is cut when its natural width exceeds its box's content width (ellipsis or
  // overflow: hidden). Chromium reports neither for an ellipsised button, so the text is
  // measured on its own, in the element's font, in a hidden span.
  const textWidth = el => {
    const span = document.createElement('span');
    const style = getComputedStyle(el);
    span.style.font = style.font;
    span.style.letterSpacing = style.letterSpacing;
    span.style.whiteSpace = 'pre';
    span.style.position = 'absolute';
    span.style.visibility = 'hidden';
    span.textContent = (el.textContent || '').trim();
    document.body.appendChild(span);
    const width = span.getBoundingClientRect().width;
    span.remove();
    return width;
  };
  const texts = root.querySelectorAll(
    '.widget-label, .widget-label-basic, .widget-html-content, .widget-readout, button, ' +
    '.widget-inline-hbox > label');
  for (const el of texts) {
    if (!visible(el) || !(el.innerText || '').trim() || el.querySelector('table, p, br'))
      continue;  // multi-line HTML wraps by design
    const style = getComputedStyle(el);
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const scrolled = el.scrollWidth - parseFloat(style.paddingLeft) -
                     parseFloat(style.paddingRight);
    // HTML boxes wrap their text: only what overflows them counts.
    const html = el.classList.contains('widget-html-content');
    const need = html ? scrolled : Math.max(scrolled, textWidth(el));
    if (need > room + 1)
      problems.push(`text cut (${Math.round(need)}px in ${Math.round(room)}px): ${name(el)}`);
  }
  const canvases = [...root.querySelectorAll('.jupyter-matplotlib-canvas-div canvas')]
    .filter(visible);
  for (const c of canvases) {
    const r = c.getBoundingClientRect();
    if (r.right > bound.right + 1 || r.left < bound.left - 1)
      problems.push(`figure ${Math.round(r.width)}px wide reaches ${Math.round(r.right -
                    bound.right)}px past the output area`);
    if (r.width < 50 || r.height < 50) problems.push(`figure canvas only ${r.width}x${r.height}`);
  }
  return {problems, canvases: canvases.length, width: Math.round(bound.width),
          height: Math.round(out.height)};
}
"""


def _notebook(path) -> None:
    cells = [SETUP, *(f"# {name}\n{code}" for name, code in APPS.items())]
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "id": f"c{i}",
                "metadata": {},
                "source": s,
                "outputs": [],
                "execution_count": None,
            }
            for i, s in enumerate(cells)
        ],  # fmt: skip
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb))


def _open_file_browser(page) -> None:
    """The default layout: the left sidebar shows the file browser."""
    if not page.locator("#filebrowser").is_visible():
        page.locator(".jp-SideBar.jp-mod-left [data-id='filebrowser']").click()
    page.locator("#filebrowser").wait_for(state="visible")


@pytest.fixture(scope="module")
def apps_page(browser, lab):
    from tests.browser.jupyterlab import shutdown_kernels

    _notebook(lab.nbdir / "zz_apps_layout.ipynb")
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    open_notebook(page, lab, "zz_apps_layout.ipynb")
    _open_file_browser(page)
    run_all_cells(page, timeout_s=400)
    view = inspect(page, "zz_apps_layout")
    assert not view.problems(), view.problems()
    time.sleep(3)  # ipympl canvases receive their first image
    yield page
    context.close()
    shutdown_kernels(lab)


@pytest.mark.parametrize("app", list(APPS))
def test_app_fits_the_default_layout(apps_page, app):
    page = apps_page
    cell = page.locator(".jp-NotebookPanel:visible .jp-CodeCell", has_text=f"# {app}").first
    cell.scroll_into_view_if_needed()
    time.sleep(0.5)
    measured = cell.evaluate(MEASURE)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # A viewport taller than the app, so the element screenshot holds all of it.
    page.set_viewport_size({"width": 1400, "height": max(1000, measured["height"] + 300)})
    cell.scroll_into_view_if_needed()
    time.sleep(1.0)
    cell.locator(".jp-OutputArea").screenshot(path=str(SCREENSHOTS / f"app_{app}.png"))
    page.set_viewport_size({"width": 1400, "height": 1000})
    assert measured["width"] <= 1100, f"output area {measured['width']} px: not the default layout"
    assert measured["canvases"] >= 1, f"{app}: no figure canvas shown"
    assert not measured["problems"], f"{app}:\n" + "\n".join(measured["problems"])
