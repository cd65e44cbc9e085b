"""The documentation site (``make docs``) in headless Chromium: every page reachable from the
home page is visited over a loopback ``http.server`` with other requests refused; a broken
internal link (page or anchor), a missing figure, an error cell, a blank widget snapshot, a
failed request or a console error fails the test. The home page and one API page are
screenshotted into build/browser/. The site is also opened straight from the file system."""

from __future__ import annotations

from urllib.parse import urldefrag, urlparse

import pytest

from tests.browser.jupyterlab import ROOT, SCREENSHOTS
from tests.browser.offline import images_broken, serve, watch

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def site(tmp_path_factory, executed_notebooks):
    from labkit_build.docs import build

    work = tmp_path_factory.mktemp("docs")
    return build(work / "html", src=work / "src", notebooks=NOTEBOOKS,
                 executed=executed_notebooks, progress=False)  # fmt: skip


@pytest.fixture
def site_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


def _local(url: str, origin: str) -> str | None:
    """The site-relative path of a link into the site (None: outside it)."""
    if not url.startswith(origin):
        return None
    path = urlparse(url).path.lstrip("/")
    return path + "index.html" if path.endswith("/") or not path else path


@pytest.mark.slow
def test_every_page_of_the_site(site, site_page):
    page = site_page
    problems: list[str] = []
    anchors: dict[str, set[str]] = {}
    wanted: list[tuple[str, str, str]] = []  # (from page, target page, fragment)
    with serve(site) as origin:
        visit = watch(page, origin)
        todo, seen = ["index.html"], set()
        while todo:
            rel = todo.pop(0)
            if rel in seen:
                continue
            seen.add(rel)
            visit.url = rel
            response = page.goto(origin + rel, wait_until="load")
            if response is None or response.status >= 400:
                problems.append(f"{rel}: HTTP {response.status if response else '?'}")
                continue
            ids = "els => els.map(e => e.id || e.getAttribute('name'))"
            anchors[rel] = set(page.eval_on_selector_all("[id], a[name]", ids))
            problems += [f"{rel}: figure not loaded: {s}" for s in images_broken(page)]
            # myst-nb renders an error output as class "output traceback"; a docstring's
            # doctest that shows a traceback on purpose is not a cell
            errors = page.locator(".output.traceback").count() + page.locator(
                ".cell_output", has_text="Traceback (most recent call last)").count()  # fmt: skip
            if errors:
                problems.append(f"{rel}: {errors} error cell(s)")
            for i in range(page.locator(".labkit-snapshot[data-labkit-app]").count()):
                app = page.locator(".labkit-snapshot[data-labkit-app]").nth(i)
                if not app.locator("img").count() or not app.locator(".lk-control").count():
                    problems.append(f"{rel}: widget app {i} shows no figure or no controls")
            for href in page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)"):
                url, fragment = urldefrag(href)
                target = _local(url, origin)
                if target is None or target.startswith("_sources/"):
                    continue
                if not (site / target).is_file():
                    problems.append(f"{rel}: broken link to {target}")
                    continue
                if fragment:
                    wanted.append((rel, target, fragment))
                if target.endswith(".html") and target not in seen:
                    todo.append(target)
            if rel == "index.html":
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / "docs-home.png"), full_page=True)
            if rel == "api/labkit_hexpuzzle.html":
                page.screenshot(path=str(SCREENSHOTS / "docs-api-hexpuzzle.png"))
        problems += visit.problems()
    for rel, target, fragment in wanted:
        if target in anchors and fragment not in anchors[target]:
            problems.append(f"{rel}: link to missing anchor {target}#{fragment}")
    expected = {"index.html", "api/index.html", *(f"notebooks/{n.stem}.html" for n in NOTEBOOKS)}
    assert expected <= seen, f"pages never reached from the home page: {expected - seen}"
    assert any(p.startswith("api/labkit_") for p in seen)
    assert not problems, "\n".join(problems[:40])


@pytest.mark.slow
def test_the_site_works_from_the_file_system(site, site_page):
    page = site_page
    failed: list[str] = []
    page.on("requestfailed", lambda req: failed.append(req.url))
    page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    for rel in ("index.html", "api/labkit_hexpuzzle.html", f"notebooks/{NOTEBOOKS[3].stem}.html"):
        page.goto((site / rel).as_uri(), wait_until="load")
        sheets = page.evaluate("document.styleSheets.length")
        assert sheets >= 2, f"{rel}: styles not loaded from the file system"
        assert not images_broken(page), rel
    page.goto((site / "index.html").as_uri())
    page.get_by_role("link", name="API reference").first.click()
    assert page.url.endswith("api/index.html")
    assert not failed, failed
