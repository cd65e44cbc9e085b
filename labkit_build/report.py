"""``make report``: execute every notebook and render it to static HTML under ``build/report/``.

Figures are rendered with the inline backend (``LABKIT_STATIC_FIGURES=1``) so the HTML carries
real images for people who do not run Python. Widget apps become static snapshots (their figure
and their controls' values, :mod:`labkit.share.snapshot`), and the page template loads nothing from
outside the page (no require.js, MathJax, Mermaid or widget manager from a CDN): a report opens
offline as it does online. Usage: ``python -m labkit_build.report OUTDIR [NOTEBOOK ...]``.
"""

from __future__ import annotations

import html
import re
import sys
import time
from pathlib import Path

from labkit.io import atomic_write

ROOT = Path(__file__).resolve().parent.parent


def execute_notebook(path: Path, timeout: int = 900):
    """Execute one notebook in its own folder with static figures; return the executed node."""
    import nbformat

    from labkit.share.bundle import environment
    from labkit_build.notebook_client import SteadyClient

    nb = nbformat.read(path, as_version=4)
    client = SteadyClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    # the kernel inherits the variable; the caller's environment is left as it was
    with environment(LABKIT_STATIC_FIGURES="1"):
        client.execute()
    return nb


# The lab template without the blocks that load scripts from a CDN: require.js (old widget and
# JS outputs), MathJax (no notebook here writes math), Mermaid, and the widget manager (apps are
# static snapshots).
OFFLINE_TEMPLATE = """{%- extends "lab/index.html.j2" -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
"""

_EXTERNAL = re.compile(
    r"<(?:script|link|img|iframe|source|video|audio)\b[^>]*?\b(?:src|href)\s*=\s*[\"']?"
    r"((?:[a-z][a-z0-9+.-]*:)?//[^\"'\s>]+)"
    r"|@import\s+(?:url\()?[\"']?((?:https?:)?//[^\"')\s]+)"
    r"|url\(\s*[\"']?((?:https?:)?//[^\"')\s]+)",
    re.IGNORECASE,
)


def external_resources(page: str) -> list[str]:
    """Every script, style, image or frame ``page`` would load from outside its own folder.

    Examples
    --------
    >>> external_resources('<script src="https://cdn.example/x.js"></script><img src="a.png">')
    ['https://cdn.example/x.js']
    """
    return [next(g for g in m.groups() if g) for m in _EXTERNAL.finditer(page)]


def offline_exporter():
    """An nbconvert ``HTMLExporter`` (lab look) whose pages load nothing from the network."""
    import jinja2
    from nbconvert import HTMLExporter

    return HTMLExporter(
        template_name="lab",
        extra_loaders=[jinja2.DictLoader({"labkit-offline.html.j2": OFFLINE_TEMPLATE})],
        template_file="labkit-offline.html.j2",
    )


def render_offline(nb, exporter=None) -> str:
    """HTML of an executed notebook with widget apps as static snapshots; checked offline."""
    from labkit import LabkitError
    from labkit.share.snapshot import staticize

    staticize(nb)
    body, _ = (exporter or offline_exporter()).from_notebook_node(nb)
    outside = external_resources(body)
    if outside:
        raise LabkitError(f"the report page would load {len(outside)} outside resources",
                          value=outside[:3])  # fmt: skip
    return body


def build(
    outdir: Path, notebooks: list[Path] | None = None, executed: dict | None = None
) -> list[Path]:
    """Execute (or take from ``executed``, ``{path: executed node}``) and render each notebook."""
    import copy

    from tqdm.auto import tqdm

    notebooks = notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    outdir.mkdir(parents=True, exist_ok=True)
    exporter = offline_exporter()
    written = []
    rows = []
    for path in tqdm(notebooks, desc="executing notebooks", unit="nb"):
        start = time.perf_counter()
        nb = copy.deepcopy(executed[path]) if executed and path in executed else None
        nb = nb or execute_notebook(path)
        body = render_offline(nb, exporter)
        target = outdir / (path.stem + ".html")
        with atomic_write(target) as fh:
            fh.write(body)
        written.append(target)
        rows.append((path.stem, time.perf_counter() - start))
    items = "\n".join(
        f'<li><a href="{html.escape(name)}.html">{html.escape(name)}</a> ({secs:.1f} s)</li>'
        for name, secs in rows
    )
    with atomic_write(outdir / "index.html") as fh:
        fh.write(
            f"<!doctype html><meta charset='utf-8'><title>labkit report</title>"
            f"<h1>labkit notebooks</h1>"
            f"<ul>{items}</ul>\n"
        )
    return written


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    outdir = Path(argv[0]) if argv else ROOT / "build" / "report"
    written = build(outdir, [Path(a) for a in argv[1:]] or None)
    print(f"wrote {len(written)} notebooks and index.html to {outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
