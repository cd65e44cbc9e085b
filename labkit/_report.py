"""``make report``: execute every notebook and render it to static HTML under ``build/report/``.

Figures are rendered with the inline backend (``LABKIT_STATIC_FIGURES=1``) so the HTML carries
real images for people who do not run Python. Usage: ``python -m labkit._report OUTDIR``.
"""

from __future__ import annotations

import html
import os
import sys
import time
from pathlib import Path

from labkit.io import atomic_write

ROOT = Path(__file__).resolve().parent.parent


def execute_notebook(path: Path, timeout: int = 900):
    """Execute one notebook in its own folder with static figures; return the executed node."""
    import nbformat
    from nbclient import NotebookClient

    os.environ["LABKIT_STATIC_FIGURES"] = "1"
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return nb


def build(outdir: Path, notebooks: list[Path] | None = None) -> list[Path]:
    from nbconvert import HTMLExporter
    from tqdm.auto import tqdm

    notebooks = notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    outdir.mkdir(parents=True, exist_ok=True)
    exporter = HTMLExporter()
    written = []
    rows = []
    for path in tqdm(notebooks, desc="executing notebooks", unit="nb"):
        start = time.perf_counter()
        nb = execute_notebook(path)
        body, _ = exporter.from_notebook_node(nb)
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
            f"<!doctype html><title>labkit report</title><h1>labkit notebooks</h1>"
            f"<ul>{items}</ul>\n"
        )
    return written


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    outdir = Path(argv[0]) if argv else ROOT / "build" / "report"
    written = build(outdir)
    print(f"wrote {len(written)} notebooks and index.html to {outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
