"""Re-executing a notebook gives the same numbers and figures (timings and the stamp aside)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
# Two notebooks with figures and seeded numbers: the tour and the first domain notebook.
CHOSEN = NOTEBOOKS[:2]

# Wall-clock figures differ run to run by nature; everything else must not.
TIMING = re.compile(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*(?:ns|µs|us|ms|s|sec|seconds|it/s|s/it)\b")


def _execute(path: Path):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    return nb


def _fingerprint(nb) -> list:
    rows: list = []
    last_stream_cell = None
    for cell in nb.cells:
        if cell.cell_type != "code" or "notebook_header" in cell.source:
            continue  # the stamp prints the time of the run
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                if out.get("name") == "stdout":
                    # one printout may reach the notebook in one chunk or in several (it depends
                    # on timing): consecutive stdout chunks of a cell count as one text
                    if rows and isinstance(rows[-1], str) and cell is last_stream_cell:
                        rows[-1] += out["text"]
                    else:
                        rows.append(out["text"])
                    last_stream_cell = cell
                    continue
            last_stream_cell = None
            if out.get("output_type") in ("execute_result", "display_data"):
                data = out.get("data", {})
                rows.append(
                    {
                        k: (TIMING.sub("<t>", v) if k == "text/plain" else v)
                        for k, v in data.items()
                        if k in ("text/plain", "image/png", "image/svg+xml")
                    }
                )
    return [TIMING.sub("<t>", r) if isinstance(r, str) else r for r in rows]


def test_two_notebooks_are_chosen():
    assert len(CHOSEN) == 2, "need at least two notebooks to check reproducibility"


@pytest.mark.notebook
@pytest.mark.parametrize("path", CHOSEN, ids=[p.name for p in CHOSEN])
def test_notebook_outputs_are_reproducible(path, monkeypatch):
    monkeypatch.setenv("LABKIT_STATIC_FIGURES", "1")
    first, second = _fingerprint(_execute(path)), _fingerprint(_execute(path))
    assert first, f"{path.name} produced no outputs to compare"
    for i, (a, b) in enumerate(zip(first, second)):
        assert a == b, f"{path.name}: output {i} differs between two runs"
    assert len(first) == len(second)
