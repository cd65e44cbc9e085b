"""``make report`` pages work with no network: every widget app is a static snapshot showing its
figure and its controls' values, and no page asks for anything outside its own folder.

The report is built once (every notebook executed, as ``make report`` does), served from a
loopback ``http.server`` and opened in headless Chromium with every other request refused.
"""

from __future__ import annotations

import json

import pytest

from tests.browser.jupyterlab import ROOT, SCREENSHOTS
from tests.browser.offline import images_broken, serve, watch

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _shows_an_app(path) -> bool:
    nb = json.loads(path.read_text(encoding="utf-8"))
    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    return "labkit.widgets" in source or "from labkit import widgets" in source


@pytest.fixture(scope="module")
def report(tmp_path_factory, executed_notebooks):
    from labkit_build.report import build

    out = tmp_path_factory.mktemp("report")
    build(out, NOTEBOOKS, executed=executed_notebooks)
    return out


@pytest.fixture
def offline_page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900}, offline=False)
    page = context.new_page()
    yield page
    context.close()


@pytest.mark.slow
def test_every_report_page_works_offline(report, offline_page):
    page = offline_page
    pages = sorted(report.glob("*.html"))
    assert {p.stem for p in pages} == {"index", *(n.stem for n in NOTEBOOKS)}
    problems = []
    with serve(report) as origin:
        visit = watch(page, origin)
        for html in pages:
            visit.url = html.name
            page.goto(origin + html.name, wait_until="load")
            assert page.locator("body").inner_text().strip(), f"{html.name} is blank"
            problems += [f"{html.name}: image not loaded: {s}" for s in images_broken(page)]
            if html.stem == "index":
                links = page.eval_on_selector_all("a", "as => as.map(a => a.getAttribute('href'))")
                assert sorted(links) == sorted(f"{n.stem}.html" for n in NOTEBOOKS)
                continue
            stderr = page.locator("[data-mime-type='application/vnd.jupyter.stderr']")
            errors = stderr.filter(has_text="Traceback").count()
            if errors:
                problems.append(f"{html.name}: {errors} error output(s)")
            snapshots = page.locator(".labkit-snapshot[data-labkit-app]")
            notebook = ROOT / "notebooks" / f"{html.stem}.ipynb"
            if _shows_an_app(notebook):
                if not snapshots.count():
                    problems.append(f"{html.name}: shows a widget app but no snapshot")
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"report-{html.stem}.png"), full_page=True)
            for i in range(snapshots.count()):
                snap = snapshots.nth(i)
                figures = snap.locator("img").count()
                controls = snap.locator(".lk-control").count()
                box = snap.bounding_box()
                if not figures or not controls or not box or box["height"] < 100:
                    problems.append(
                        f"{html.name}: app {i} looks blank ({figures} figures, {controls} "
                        f"controls, box {box})"
                    )
            text = page.locator("body").inner_text()
            for failure in ("Error displaying widget", "Loading widget", "javascript error"):
                if failure in text:
                    problems.append(f"{html.name}: shows {failure!r}")
        problems += visit.problems()
    assert not problems, "\n".join(problems)


def test_the_offline_checker_sees_a_cdn_script():
    from labkit_build.report import external_resources

    page = (
        '<link rel="stylesheet" href="//cdn.example/a.css"><img src="data:image/png;base64,AA">'
        '<style>@import url("https://fonts.example/f.css");</style><a href="https://x.org">x</a>'
    )
    assert external_resources(page) == ["//cdn.example/a.css", "https://fonts.example/f.css"]


def test_the_browser_check_catches_a_cdn_script_a_missing_image_and_an_error(tmp_path, browser):
    (tmp_path / "bad.html").write_text(
        '<!doctype html><script src="https://cdn.example.org/widgets.js"></script>'
        '<img src="missing.png"><script>console.error("boom")</script><p>text</p>'
    )
    context = browser.new_context()
    page = context.new_page()
    try:
        with serve(tmp_path) as origin:
            visit = watch(page, origin)
            visit.url = "bad.html"
            page.goto(origin + "bad.html", wait_until="load")
            broken = images_broken(page)
    finally:
        context.close()
    problems = "\n".join(visit.problems())
    assert "non-local request refused: https://cdn.example.org/widgets.js" in problems
    assert "missing.png (HTTP 404)" in problems
    assert "console error: boom" in problems
    assert broken == ["missing.png"]
