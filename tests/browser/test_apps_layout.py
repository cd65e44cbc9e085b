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
    "ProbabilityExplorer": (
        "explorer = ProbabilityExplorer(n=1000)\nexplorer.solve_for(50)\nexplorer"
    ),
    "GaugeTuner": "GaugeTuner()",
    "CollisionViewer": "CollisionViewer()",
    "PathfindingPlayground": (
        "pg = PathfindingPlayground()\n"
        "# where the cells (5, 0) and (5, 9) are on the canvas, for the drag test\n"
        "pg.fig.canvas.draw()\n"
        "h = pg.fig.bbox.height\n"
        "import json\n"
        "print(json.dumps([(float(x), float(h - y)) for x, y in\n"
        "                  pg.ax.transData.transform([(5, 0), (5, 9)])]))\n"
        "pg"
    ),
    "DifficultyWorkbench": "DifficultyWorkbench(n_boot=20)",
    "LevelWorkshop": "LevelWorkshop(radius=3)",
    "TraceViewer": "TraceViewer(simulate(SimulationSettings(seed=3, max_steps=40)))",
    # A made-up response (NPC win rate 0.5 at life 4.3) in place of games: no game kernel to
    # compile, the answer line and its curve as a real Tune leaves them.
    "BalanceTuner": (
        "import numpy as np\n"
        "u = np.random.default_rng(0).random(4000)\n"
        "def falling(v, seeds):\n"
        "    return u[seeds] < 1 / (1 + np.exp(1.5 * (v - 4.3)))\n"
        "tuner = BalanceTuner(response=falling)\n"
        "tuner.run()\ntuner"
    ),
    # The workbench's second view, shown at once: its figure must be whole on first show.
    "SkillModel": 'bench = DifficultyWorkbench(n_boot=20)\nbench.mode.value = "skill model"\nbench',
    "BalanceReport": (
        'report = BalanceReport(b={"/characters/monster/life": 4}, seeds=40)\nreport.run()\nreport'
    ),
    "FunnelView": "FunnelView(players=200, draws=4)",
    # Games replaced by a made-up response (the docstring's): the layout, not the games, is tested.
    "KnobExplorer": (
        "def response(point, seeds):\n"
        '    return {"steps": 5.0 * point["b"] + 0 * seeds,\n'
        '            "npc_win": point["a"] / 10 + 0 * seeds}\n'
        'knobs = KnobExplorer({"a": (0.0, 10.0), "b": (0, 30)},\n'
        '                     ["npc_win=0.5±0.05", "steps=40:60"],\n'
        "                     response=response, games=1, trajectories=6, budget=30,\n"
        "                     tune_games=10, fresh=10)\n"
        "knobs.run_importance()\nknobs.run_tune()\nknobs"
    ),
}

# The answer line of each app (a regular expression of its text): at the default layout it and
# the figure it talks about fit on one screen of the notebook together (issue 24, item 6).
ANSWERS = {
    "ProbabilityExplorer": r"gives .*%",  # the goal seek's answer, about the hit curve
    "GaugeTuner": r"\(tick \d+\)",  # when each enemy reaches you, about the tick raster
    "CollisionViewer": r"tap",
    "PathfindingPlayground": r"SUCCESS",
    "DifficultyWorkbench": r"current weights",
    "LevelWorkshop": r"not a playable level",
    "TraceViewer": r"step \d+ of \d+",
    "BalanceTuner": r"gives .*95 %",
    "SkillModel": r"looks easier than",
    "BalanceReport": r"B − A",  # the table's differences, about the forest plot
    "FunnelView": r"reach the last level",
    "KnobExplorer": r"of \d+ knobs matter",  # the importance summary, about its bar chart
}

# What a newcomer types from the README: no notebook_header(), no %matplotlib magic; every app
# must still show its live canvas (issue 24).
SETUP = """\
from labkit import encounter
from labkit.widgets import *
simulate, SimulationSettings = encounter.simulate, encounter.SimulationSettings
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
  const textWidth = (el, text) => {
    const span = document.createElement('span');
    const style = getComputedStyle(el);
    span.style.font = style.font;
    span.style.letterSpacing = style.letterSpacing;
    span.style.whiteSpace = 'pre';
    span.style.position = 'absolute';
    span.style.visibility = 'hidden';
    span.textContent = (text === undefined ? el.textContent || '' : text).trim();
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
  // A dropdown cuts the option it shows when the option is wider than the box (its padding
  // holds the arrow); a designer then reads half a word (issue 47). Any option may be chosen:
  // the widest must fit.
  for (const el of root.querySelectorAll('select')) {
    if (!visible(el) || !el.options.length || el.multiple) continue;
    const style = getComputedStyle(el);
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const widths = [...el.options].map(o => [textWidth(el, o.text), o.text]);
    const [need, text] = widths.reduce((a, b) => (b[0] > a[0] ? b : a));
    if (need > room + 1)
      problems.push(`dropdown cuts its text (${Math.round(need)}px in ${Math.round(room)}px): ` +
                    `"${text}"`);
  }
  // Text a person cannot read without scrolling: inside a box that clips or scrolls its
  // content (overflow not visible), lying partly outside that box's visible area. This is how
  // a 304 px slider column squeezed into 244 px hides its values (issue 24).
  const clippers = el => {
    const out = [];
    for (let a = el.parentElement; a && a !== cell; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX !== 'visible' || st.overflowY !== 'visible') out.push(a);
    }
    return out;
  };
  const readable = root.querySelectorAll(
    '.widget-label, .widget-label-basic, .widget-readout, .widget-inline-hbox > label, ' +
    'button, .widget-html-content, select, input[type=text], input[type=number]');
  for (const el of readable) {
    if (!visible(el) || !(el.innerText || el.value || '').trim()) continue;
    const r = el.getBoundingClientRect();
    for (const box of clippers(el)) {
      const b = box.getBoundingClientRect();
      const left = b.left + box.clientLeft, top = b.top + box.clientTop;
      const right = left + box.clientWidth, bottom = top + box.clientHeight;
      if (r.left < left - 1 || r.right > right + 1 || r.top < top - 1 || r.bottom > bottom + 1) {
        problems.push(`hidden in a ${Math.round(box.clientWidth)}x${Math.round(box.clientHeight)}` +
                      `px scroll box (${Math.round(box.scrollWidth)}x` +
                      `${Math.round(box.scrollHeight)}px of content): ${name(el)}`);
        break;
      }
    }
    // Cut by an ellipsis: the box says "text-overflow: ellipsis" and its text does not fit.
    const st = getComputedStyle(el);
    if (st.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
      problems.push(`ellipsis cuts ${el.scrollWidth}px of text to ${el.clientWidth}px: ` +
                    name(el));
  }
  // One picture per app: no "Figure N" caption, no static copy of the figure under the app.
  for (const h of cell.querySelectorAll('.jupyter-matplotlib-header'))
    if (visible(h) && (h.innerText || '').trim())
      problems.push(`figure caption shown: "${h.innerText.trim()}"`);
  const stills = [...cell.querySelectorAll('.jp-OutputArea-output img')]
    .filter(i => visible(i) && !i.closest('.jupyter-widgets'));
  if (stills.length) problems.push(`${stills.length} static figure(s) beside the app`);
  const canvases = [...root.querySelectorAll('.jupyter-matplotlib-canvas-div canvas')]
    .filter(visible);
  for (const c of canvases) {
    const r = c.getBoundingClientRect();
    if (r.right > bound.right + 1 || r.left < bound.left - 1)
      problems.push(`figure ${Math.round(r.width)}px wide reaches ${Math.round(r.right -
                    bound.right)}px past the output area`);
    if (r.width < 50 || r.height < 50) problems.push(`figure canvas only ${r.width}x${r.height}`);
  }
  // How much is drawn in the top and bottom strips of each canvas (titles, axis labels), as
  // the share of pixels that are not the white background.
  const ink = canvases.map(c => {
    const g = c.getContext('2d');
    const strip = y0 => {
      const h = Math.max(1, Math.round(c.height * 0.07));
      const d = g.getImageData(0, y0 === 0 ? 0 : c.height - h, c.width, h).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 200 && d[i + 3] > 0) n++;
      return n / (d.length / 4);
    };
    return {top: strip(0), bottom: strip(1)};
  });
  return {problems, canvases: canvases.length, ink, width: Math.round(bound.width),
          height: Math.round(out.height)};
}
"""


# Where an app's answer line and its figure sit: the smallest element whose text matches the
# answer, the largest figure canvas, and the height of the notebook's visible area.
ANSWER_AND_FIGURE = """
(cell, pattern) => {
  const root = cell.querySelector('.jp-OutputArea-output .jupyter-widgets.widget-container');
  const re = new RegExp(pattern);
  let answer = null;
  for (const el of root.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || !re.test(el.innerText || '')) continue;
    if (!answer || r.width * r.height < answer.area)
      answer = {area: r.width * r.height, top: r.top, bottom: r.bottom,
                text: el.innerText.trim().slice(0, 100)};
  }
  const figures = [...root.querySelectorAll('.jupyter-matplotlib-canvas-div canvas')]
    .map(c => c.getBoundingClientRect()).filter(r => r.width > 50 && r.height > 50)
    .sort((a, b) => b.width * b.height - a.width * a.height);
  const screen = cell.closest('.jp-WindowedPanel-outer').clientHeight;
  if (!answer || !figures.length) return {answer, figure: !!figures.length, screen};
  const fig = figures[0];
  return {answer, figure: true, screen,
          span: Math.max(answer.bottom, fig.bottom) - Math.min(answer.top, fig.top)};
}
"""

# The app cells whose figures show nothing drawn yet (by their first line).
UNINKED = """
() => [...document.querySelectorAll('.jp-NotebookPanel .jp-CodeCell')]
  .filter(c => c.querySelector('.jp-OutputArea-output .jupyter-widgets.widget-container'))
  .filter(c => ![...c.querySelectorAll('.jupyter-matplotlib-canvas-div canvas')].some(k => {
    if (!k.width || !k.height) return false;
    const d = k.getContext('2d').getImageData(0, 0, k.width, k.height).data;
    for (let i = 0; i < d.length; i += 16) if (d[i + 3] > 0 && d[i] < 200) return true;
    return false;
  }))
  .map(c => (c.querySelector('.jp-InputArea').innerText || '').trim().split('\\n')[0])
"""

# The notebook's scrolling box.
SCROLLER = ".jp-NotebookPanel:visible .jp-WindowedPanel-outer"


def wait_for(condition, timeout_s: float, what: str):
    """Poll ``condition()`` until it is truthy; limits are generous for a loaded 2-core CI
    machine (the kernel and Chromium share it with the rest of the suite)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert value, f"{what}: not within {timeout_s} s"
    return value


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
    # ipympl canvases receive their first image from the kernel: wait until every app shows
    # some ink (at most a minute; a figure still blank then is the tests' to report).
    deadline = time.monotonic() + 60
    while page.evaluate(UNINKED) and time.monotonic() < deadline:
        time.sleep(0.5)
    yield page
    context.close()
    shutdown_kernels(lab)


@pytest.mark.parametrize("app", list(APPS))
def test_app_fits_the_default_layout(apps_page, app):
    page = apps_page
    cell = page.locator(".jp-NotebookPanel:visible .jp-CodeCell", has_text=f"# {app}").first
    cell.scroll_into_view_if_needed()
    measured = cell.evaluate(MEASURE)
    together = cell.evaluate(ANSWER_AND_FIGURE, ANSWERS[app])
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
    # The answer line and the figure it talks about are on screen together (issue 24, item 6).
    assert together["answer"], f"{app}: no answer matching {ANSWERS[app]!r} shown"
    assert together["span"] <= together["screen"], (
        f"{app}: the answer ({together['answer']['text']!r}) and its figure span "
        f"{round(together['span'])} px, more than the notebook's {together['screen']} px screen"
    )
    if app == "CollisionViewer":  # the answer line beside the board, not above it
        beside = cell.evaluate(
            """cell => {
              const answer = [...cell.querySelectorAll('.widget-html-content')]
                .find(e => /tap/.test(e.innerText)).getBoundingClientRect();
              const board = [...cell.querySelectorAll('.jupyter-matplotlib-canvas-div canvas')]
                .map(c => c.getBoundingClientRect()).find(r => r.height > 50);
              return answer.top < board.bottom && answer.bottom > board.top;
            }"""
        )
        assert beside, "the sweep's answer line is not beside its board"
    if app == "SkillModel":  # panel titles on top, axis labels below, on first show
        # (ipympl's transparent rubber-band canvas lies over the figure's: take the most ink)
        top = max(i["top"] for i in measured["ink"])
        bottom = max(i["bottom"] for i in measured["ink"])
        assert top > 0.002 and bottom > 0.002, f"skill figure half-drawn: {measured['ink']}"


def test_dragging_on_the_playground_paints_a_wall(apps_page):
    """Direct manipulation through the real front end: press on cell (5, 0), drag to (5, 9),
    release; the wall line cuts the map, so the status turns to NO_PATH."""
    page = apps_page
    cell = page.locator(
        ".jp-NotebookPanel:visible .jp-CodeCell", has_text="# PathfindingPlayground"
    )
    cell = cell.first
    cell.scroll_into_view_if_needed()
    printed = cell.locator("[data-mime-type='application/vnd.jupyter.stdout']").inner_text()
    (x0, y0), (x1, y1) = json.loads(printed.strip().splitlines()[-1])
    canvas = cell.locator(".jupyter-matplotlib-canvas-div canvas").last
    page.set_viewport_size({"width": 1400, "height": 1600})  # the whole canvas on screen
    canvas.scroll_into_view_if_needed()
    time.sleep(0.5)
    box = canvas.bounding_box()
    status = cell.locator(".widget-html-content", has_text="expanded").first
    assert "SUCCESS" in status.inner_text()
    # Figure pixels are CSS pixels here (dpi 100, device pixel ratio 1 in headless Chromium).
    page.mouse.move(box["x"] + x0, box["y"] + y0)
    page.mouse.down()
    # ipympl forwards a move only once the kernel has answered the last one: move slowly.
    steps = 20
    for k in range(1, steps + 1):
        page.mouse.move(
            box["x"] + x0 + (x1 - x0) * k / steps, box["y"] + y0 + (y1 - y0) * k / steps
        )
        time.sleep(0.35)
    page.mouse.up()
    deadline = time.monotonic() + 30
    while "NO_PATH" not in status.inner_text() and time.monotonic() < deadline:
        time.sleep(0.5)
    page.set_viewport_size({"width": 1400, "height": 1000})
    assert "NO_PATH" in status.inner_text(), (status.inner_text(), (x0, y0, x1, y1), box)


def test_every_app_is_checked():
    import labkit.widgets

    assert set(labkit.widgets.__all__) <= set(APPS), set(labkit.widgets.__all__) - set(APPS)


# Where the press lands: the figure's right margin (no axes there, so no app acts on it), near
# the top of the part on screen; the figure's top lies this far above the notebook's top.
ABOVE_PX = 120


def test_a_click_on_a_figure_never_scrolls_the_notebook(apps_page):
    """ipympl focuses a canvas on each press; a plain focus() scrolled a figure partly off
    screen into view (80-200 px), so a drag started on one cell ended on another (issue 24)."""
    page = apps_page
    page.set_viewport_size({"width": 1400, "height": 1000})
    scroller = page.locator(SCROLLER)
    moved = {}
    for app in APPS:
        cell = page.locator(".jp-NotebookPanel:visible .jp-CodeCell", has_text=f"# {app}").first
        canvases = [c for c in cell.locator(".jupyter-matplotlib-canvas-div canvas").all()
                    if c.is_visible()]  # fmt: skip
        if not canvases:
            moved[app] = "no figure shown"
            continue
        canvas = max(canvases, key=lambda c: c.bounding_box()["width"] * c.bounding_box()["height"])
        view = scroller.bounding_box()
        # the figure's top ABOVE_PX above the notebook's visible area, the rest on screen
        shift = canvas.bounding_box()["y"] - view["y"] + ABOVE_PX
        scroller.evaluate("(e, d) => { e.scrollTop += d; }", shift)
        box = canvas.bounding_box()
        before = scroller.evaluate("e => e.scrollTop")
        page.mouse.click(box["x"] + box["width"] - 3, view["y"] + 40)
        # the press reached the page: the clicked cell holds the focus (JupyterLab, ipympl)
        wait_for(lambda c=cell: c.evaluate("c => c.contains(document.activeElement)"), 30,
                 f"{app}: the press on its figure")  # fmt: skip
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                      "requestAnimationFrame(r)))")  # fmt: skip
        after = scroller.evaluate("e => e.scrollTop")
        if after != before:
            moved[app] = after - before
    assert not moved, f"a click on the figure scrolled the notebook by (px): {moved}"
