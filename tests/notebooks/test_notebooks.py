"""Every notebook in notebooks/ runs top to bottom on the project's kernel, and is stored clean.

A notebook may set its own budget in its metadata: ``{"labkit": {"budget_seconds": 600}}``
(default 300 s per cell); exceeding it fails the test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
DEFAULT_BUDGET = 300


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no notebook"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_stored_without_outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    dirty = [
        i
        for i, cell in enumerate(nb["cells"])
        if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count"))
    ]
    assert not dirty, f"{path.name}: cells {dirty} carry outputs; clear them before committing"


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_clean(path, notebook_runs):
    from nbclient.exceptions import CellExecutionError

    try:
        nb = notebook_runs.get(path)  # static figures, the notebook's own budget per cell
    except CellExecutionError as exc:
        pytest.fail(f"{path.name} failed:\n{exc}")
    errors = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]
    assert not errors, f"{path.name}: error outputs {errors}"
    assert any(cell.get("outputs") for cell in nb.cells if cell.cell_type == "code"), (
        f"{path.name}: executed but shows nothing"
    )
