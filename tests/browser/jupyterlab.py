"""Drive a real JupyterLab in Debian's headless Chromium (Playwright for Python, no download).

``LabServer`` starts JupyterLab from this venv on a free loopback port with a random token,
serving a *copy* of ``notebooks/`` (running cells in the browser autosaves outputs, and the
stored notebooks must stay clean) with ``data/`` linked beside it. ``run_notebook`` opens one
notebook, runs every cell through the Run menu, waits for the kernel to go idle and collects
what a person would see: error outputs, widget placeholders that never rendered, ipympl canvases.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "build" / "browser"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

# Quiet, deterministic JupyterLab: no kernel-picker dialog, no news pop-up.
LAB_SETTINGS = {
    # windowingMode none: every cell stays in the DOM, so text checks see the whole notebook.
    "@jupyterlab/notebook-extension/tracker": {
        "autoStartDefaultKernel": True,
        "windowingMode": "none",
    },
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false"},
}

# Texts a person sees when a widget view fails; ipywidgets 8 shows an error box (class
# jupyter-widgets-error-widget) reading "Click to show javascript error."
WIDGET_FAILURES = (
    "Error displaying widget",
    "Loading widget...",
    "Loading widget…",
    "Click to show javascript error",
)


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise RuntimeError(
            "Debian's chromium is not installed: run 'make test' as root (it installs it) "
            "or 'sudo apt-get install chromium'"
        )
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LabServer:
    """A JupyterLab server on loopback serving a scratch copy of the notebooks."""

    def __init__(self, workdir: Path, notebooks: list[Path]):
        self.workdir = workdir
        self.port = free_port()
        self.token = secrets.token_hex(16)
        nbdir = workdir / "notebooks"
        nbdir.mkdir(parents=True, exist_ok=True)
        for nb in notebooks:
            shutil.copy(nb, nbdir / nb.name)
        if (ROOT / "data").exists() and not (workdir / "data").exists():
            os.symlink(ROOT / "data", workdir / "data")
        self.nbdir = nbdir
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90) -> None:
        settings = self.workdir / "lab-settings"
        for plugin, values in LAB_SETTINGS.items():
            target = settings / f"{plugin}.jupyterlab-settings"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(values))
        env = {
            **os.environ,
            "JUPYTER_PLATFORM_DIRS": "1",
            "JUPYTERLAB_SETTINGS_DIR": str(settings),
            "JUPYTERLAB_WORKSPACES_DIR": str(self.workdir / "lab-workspaces"),
        }
        env.pop("LABKIT_STATIC_FIGURES", None)  # the browser must get interactive canvases
        env.pop("MPLBACKEND", None)
        self.log = open(self.workdir / "jupyterlab.log", "w")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "jupyterlab",
                "--no-browser",
                "--ip=127.0.0.1",
                f"--port={self.port}",
                f"--IdentityProvider.token={self.token}",
                f"--ServerApp.root_dir={self.nbdir}",
                "--ServerApp.open_browser=False",
                "--allow-root",
                "--LabApp.news_url=",
                "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=self.nbdir,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited early; see {self.log.name}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{self.url}/api/status?token={self.token}", timeout=2)
                return
            time.sleep(0.5)
        raise RuntimeError(f"JupyterLab did not answer within {timeout} s; see {self.log.name}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if getattr(self, "log", None):
            self.log.close()


@dataclass
class NotebookView:
    """What the browser showed after running every cell of one notebook."""

    name: str
    errors: list[str] = field(default_factory=list)
    widget_failures: list[str] = field(default_factory=list)
    widget_views: int = 0
    ipympl_canvases: int = 0
    sliders: int = 0
    screenshot: Path | None = None

    def problems(self) -> list[str]:
        out = [f"{self.name}: error output: {e[:500]}" for e in self.errors]
        out += [f"{self.name}: widget not rendered: {w!r}" for w in self.widget_failures]
        return out


def open_notebook(page, server: LabServer, name: str) -> None:
    # ?reset starts from an empty workspace, so earlier notebooks are not reopened.
    page.goto(f"{server.url}/lab/tree/{name}?reset&token={server.token}")
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=60_000)
    # The status bar reads "<kernel> | Idle" once the kernel has started and connected.
    page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for(timeout=90_000)


def run_all_cells(page, timeout_s: float) -> None:
    """Run every cell via the Run menu; return when each code cell ran or one failed."""
    page.locator(".jp-NotebookPanel:visible .jp-Cell").first.click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name=re.compile(r"^Run All Cells")).click()
    scope = page.locator(".jp-NotebookPanel:visible")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        time.sleep(0.5)
        prompts = scope.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
        running = any("*" in p for p in prompts)
        not_run = sum(1 for p in prompts if p.strip() in ("[ ]:", ""))
        failed = scope.locator(
            "[data-mime-type='application/vnd.jupyter.stderr']:has-text('Traceback')"
        ).count()
        idle = page.locator(".jp-StatusBar-Widget", has_text="| Idle").count()
        if idle and not running and (not_run == 0 or failed):
            return
    raise TimeoutError(f"cells still running after {timeout_s} s")


def shutdown_kernels(server: LabServer) -> None:
    """Delete every session through the REST API so finished notebooks free their kernels."""
    headers = {"Authorization": f"token {server.token}"}
    req = urllib.request.Request(f"{server.url}/api/sessions", headers=headers)
    with urllib.request.urlopen(req, timeout=10) as resp:
        sessions = json.load(resp)
    for s in sessions:
        urllib.request.urlopen(
            urllib.request.Request(
                f"{server.url}/api/sessions/{s['id']}", method="DELETE", headers=headers
            ),
            timeout=20,
        )


def inspect(page, name: str, settle_s: float = 3.0) -> NotebookView:
    """Collect errors, widget placeholders and canvases; wait a little for widgets to render."""
    view = NotebookView(name)
    deadline = time.monotonic() + settle_s * 5
    while True:
        body = page.locator(".jp-NotebookPanel:visible .jp-Notebook").inner_text()
        view.widget_failures = [w for w in WIDGET_FAILURES if w in body]
        if not view.widget_failures or time.monotonic() > deadline:
            break
        time.sleep(settle_s / 3)
    scope = page.locator(".jp-NotebookPanel:visible")
    for detail in scope.locator(".jupyter-widgets-error-widget").all_inner_texts():
        view.widget_failures.append(f"widget error box: {detail.strip()[:300]}")
    view.errors = scope.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
        ":has-text('Traceback'), .jp-OutputArea-output.jp-mod-error, "
        ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']"
    ).all_inner_texts()
    view.widget_views = scope.locator(".jupyter-widgets.widget-container, .widget-box").count()
    view.ipympl_canvases = scope.locator(".jupyter-matplotlib canvas").count()
    view.sliders = scope.locator(".widget-slider .noUi-handle, .widget-slider input").count()
    return view


def full_screenshot(page, path: Path, max_height: int = 14_000) -> Path:
    """Screenshot the whole notebook: grow the viewport to the notebook's scroll height."""
    # The notebook scrolls inside its own panel; its scroll height is the page we want.
    height = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll("
        "'.jp-NotebookPanel .jp-WindowedPanel-outer, .jp-NotebookPanel .jp-Notebook')]"
        ".map(e => e.scrollHeight), 800)"
    )
    width = page.viewport_size["width"]
    page.set_viewport_size({"width": width, "height": min(int(height) + 200, max_height)})
    page.evaluate(
        "() => document.querySelectorAll('.jp-NotebookPanel .jp-WindowedPanel-outer')"
        ".forEach(e => { e.scrollTop = 0; })"
    )
    time.sleep(1.0)
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": width, "height": 1000})
    return path


def _shown(cell) -> tuple:
    """What an app shows, apart from its controls: plot canvases, images and HTML/label text."""
    pictures = tuple(
        el.screenshot()
        for el in cell.locator(".jupyter-matplotlib canvas, .widget-output img").all()
        if el.is_visible()
    )
    texts = tuple(
        cell.locator(".widget-html-content, .widget-label, .widget-output pre").all_inner_texts()
    )
    return pictures, texts


def _settled(cell, timeout_s: float = 10.0) -> tuple:
    """What the app shows once two looks half a second apart agree (a first image may still be
    arriving), so that a later difference comes from the control that was moved."""
    last = _shown(cell)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = _shown(cell)
        if now == last:
            return now
        last = now
    return last


def _move_one_control(page, cell) -> str | None:
    """Move the app's first slider, else pick another option of its first dropdown, else press
    another button of its first toggle group. Returns what was moved, or None."""
    handle = cell.locator(".widget-slider .noUi-handle")
    if handle.count():
        knob = handle.first
        knob.scroll_into_view_if_needed()
        knob.focus()
        # A slider already at its maximum moves left instead.
        start = knob.get_attribute("aria-valuenow")
        at_max = start == knob.get_attribute("aria-valuemax")
        key = "ArrowLeft" if at_max else "ArrowRight"
        for _ in range(5):
            page.keyboard.press(key)
            time.sleep(0.2)
        return f"slider {key} {start} -> {knob.get_attribute('aria-valuenow')}"
    select = cell.locator(".widget-dropdown select:not([disabled])")  # a user cannot pick there
    if select.count():
        options = select.first.locator("option").all_inner_texts()
        current = select.first.input_value()
        values = select.first.evaluate("s => [...s.options].map(o => o.value)")
        other = next((v for v in values if v != current), None)
        if other is not None:
            select.first.select_option(other)
            return f"dropdown -> {options[values.index(other)]}"
    toggles = cell.locator(".widget-toggle-buttons").first.locator("button:not(.mod-active)")
    if toggles.count():
        toggles.first.click()
        return "toggle"
    return None


def nudge_controls(page, wait_s: float = 20.0) -> list[tuple[int, str, bool]]:
    """For each cell showing a widget app, move one control and see whether what the app shows
    (plot, image or text, not the control itself) changed. Returns (cell, control, changed).

    The redraw goes browser -> kernel -> figure -> browser, which on a busy machine can take
    seconds, so the check polls until what is shown differs, for at most ``wait_s`` seconds.
    """
    results = []
    cells = page.locator(".jp-NotebookPanel:visible .jp-Cell")
    for i in range(cells.count()):
        cell = cells.nth(i)
        if cell.locator(".jp-OutputArea .jupyter-widgets.widget-container").count() == 0:
            continue
        if cell.locator(".widget-slider, .widget-dropdown, .widget-toggle-buttons").count() == 0:
            continue
        cell.scroll_into_view_if_needed()
        before = _settled(cell)
        moved = _move_one_control(page, cell)
        if moved is None:
            continue
        deadline = time.monotonic() + wait_s
        changed = False
        while not changed and time.monotonic() < deadline:
            time.sleep(0.5)
            changed = _shown(cell) != before
        pictures = len(before[0])
        results.append((i, f"{moved}; {pictures} picture(s) compared", changed))
    return results
