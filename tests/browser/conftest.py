"""Fixtures for the JupyterLab end-to-end suite: one server and one headless Chromium."""

from __future__ import annotations

import pytest

from tests.browser.jupyterlab import (
    CHROMIUM_ARGS,
    ROOT,
    LabServer,
    chromium_path,
    shutdown_kernels,
)

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="session")
def executed_notebooks(notebook_runs):
    """Every notebook executed once with static figures, shared with tests/notebooks."""
    return notebook_runs.get_all(NOTEBOOKS)


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    server = LabServer(tmp_path_factory.mktemp("lab"), NOTEBOOKS)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, lab):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    yield page
    context.close()
    shutdown_kernels(lab)
