"""Open static pages in headless Chromium with the network cut off: only the page's own local
server may answer; anything else is refused and counted, as are failed requests, HTTP errors,
console errors and uncaught page errors."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from dataclasses import dataclass, field
from pathlib import Path


@contextlib.contextmanager
def serve(folder: Path):
    """``python -m http.server`` on a free loopback port serving ``folder``; yields its URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass


@dataclass
class Visit:
    """What went wrong while one page loaded."""

    url: str
    refused: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return (
            [f"{self.url}: non-local request refused: {u}" for u in self.refused]
            + [f"{self.url}: request failed: {u}" for u in self.failed]
            + [f"{self.url}: console error: {m}" for m in self.console]
        )


def watch(page, origin: str) -> Visit:
    """Refuse every request outside ``origin`` (and data: URLs stay local) and record problems.

    Returns a :class:`Visit` whose ``url`` the caller sets before each ``goto``.
    """
    visit = Visit(url="")

    def route(r):
        url = r.request.url
        if url.startswith(origin) or url.startswith(("data:", "blob:", "about:")):
            r.continue_()
        else:
            visit.refused.append(url)
            r.abort("blockedbyclient")

    page.route("**/*", route)
    page.on(
        "requestfailed",
        lambda req: None if req.url in visit.refused else visit.failed.append(req.url),
    )
    page.on(
        "response",
        lambda resp: (
            visit.failed.append(f"{resp.url} (HTTP {resp.status})") if resp.status >= 400 else None
        ),
    )
    page.on("console", lambda msg: visit.console.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: visit.console.append(str(exc)))
    return visit


def images_broken(page) -> list[str]:
    """The ``src`` (cut short) of every image on the page that did not load."""
    return page.eval_on_selector_all(
        "img",
        "els => els.filter(i => !(i.complete && i.naturalWidth > 0))"
        ".map(i => (i.getAttribute('src') || '').slice(0, 80))",
    )
