"""``make docs`` smoke test: one notebook page and the whole API reference build, the notebook's
widget app appears as a static snapshot, and every public name of every domain has an entry."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "03_gauge_scheduler.ipynb"  # short, and shows a widget app


@pytest.fixture(scope="module")
def site(tmp_path_factory, notebook_runs):
    from labkit_build.docs import build

    work = tmp_path_factory.mktemp("docs")
    executed = {NOTEBOOK: notebook_runs.get(NOTEBOOK)}  # the run tests/notebooks checks too
    return build(
        work / "html", src=work / "src", notebooks=[NOTEBOOK], executed=executed, progress=False
    )


@pytest.mark.slow
def test_the_notebook_page_shows_its_app_as_a_snapshot(site):
    page = (site / "notebooks" / f"{NOTEBOOK.stem}.html").read_text(encoding="utf-8")
    assert 'class="labkit-snapshot" data-labkit-app="1"' in page
    snapshot = page[page.index('class="labkit-snapshot" data-labkit-app="1"') :]
    assert "data:image/png;base64," in snapshot[:200_000]  # the app's figure
    assert "moves per cycle" in snapshot and "lk-value" in snapshot  # its controls' values
    assert "application/vnd.jupyter.widget-view+json" not in page
    assert "Traceback" not in page
    home = (site / "index.html").read_text(encoding="utf-8")
    assert f'href="notebooks/{NOTEBOOK.stem}.html"' in home
    assert 'href="api/index.html"' in home


@pytest.mark.slow
def test_every_public_name_has_an_api_entry(site):
    from labkit_build.docs import DOMAINS, public_names

    missing = []
    for modname, _, _ in DOMAINS:
        page = site / "api" / f"{modname.replace('.', '_')}.html"
        text = page.read_text(encoding="utf-8")
        ids = set(re.findall(r'id="([^"]+)"', text))
        module = importlib.import_module(modname)
        names = public_names(module)
        assert names, f"{modname} exports nothing"
        for name in names:
            anchors = {f"{modname}.{name}", f"module-{modname}.{name}"}
            if not anchors & ids:
                missing.append(f"{modname}.{name}")
    assert not missing, f"no API entry for {missing}"


@pytest.mark.slow
def test_pages_load_nothing_from_outside(site):
    from labkit_build.report import external_resources

    outside = {}
    for page in site.rglob("*.html"):
        found = external_resources(page.read_text(encoding="utf-8"))
        if found:
            outside[str(page.relative_to(site))] = found
    assert not outside


@pytest.mark.slow
def test_an_error_cell_is_rendered_as_the_browser_test_looks_for_it(tmp_path):
    """The docs browser test finds error cells by myst-nb's class "output traceback"."""
    import nbformat

    from labkit_build.docs import build

    path = tmp_path / "broken.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Broken"),
                                         nbformat.v4.new_code_cell("1 / 0")])  # fmt: skip
    nb.cells[1].outputs = [nbformat.v4.new_output("error", ename="ZeroDivisionError",
                                                  evalue="division by zero",
                                                  traceback=["Traceback (most recent call last)",
                                                             "ZeroDivisionError"])]  # fmt: skip
    out = build(tmp_path / "html", src=tmp_path / "src", notebooks=[path], executed={path: nb},
                progress=False, api=False)  # fmt: skip
    page = (out / "notebooks" / "broken.html").read_text(encoding="utf-8")
    assert "output traceback" in page
