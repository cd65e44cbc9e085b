"""Re-executing a notebook gives the same numbers and figures (timings and the stamp aside).

What differs run to run by nature is left out: wall-clock figures (a number with a time or rate
unit), the stamp cell, memory addresses in a default ``repr``, temporary folders, and the outputs
of a cell tagged ``timing`` (a speed measurement; its code, asserts included, still runs).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))

# Wall-clock figures differ run to run by nature; everything else must not.
TIMING = re.compile(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*(?:ns|µs|us|ms|s|sec|seconds|it/s|s/it)\b")


ADDRESS = re.compile(r" at 0x[0-9a-f]+")
TEMP = re.compile(re.escape(tempfile.gettempdir()) + r"/[^\s/'\"]+")


def _fingerprint(nb) -> list:
    rows: list = []
    last_stream_cell = None
    for cell in nb.cells:
        if cell.cell_type != "code" or "notebook_header" in cell.source:
            continue  # the stamp prints the time of the run
        if "timing" in cell.get("metadata", {}).get("tags", []):
            continue  # a speed measurement, by its author's tag
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
                        k: (_untimed(v) if k == "text/plain" else v)
                        for k, v in data.items()
                        if k in ("text/plain", "image/png", "image/svg+xml")
                    }
                )
    return [_untimed(r) if isinstance(r, str) else r for r in rows]


def _untimed(text: str) -> str:
    text = ADDRESS.sub(" at <address>", TEMP.sub("<tmp>", text))
    # a table of timings pads its columns to the widest figure, so the padding varies too
    return re.sub(r"[ \t]+", " ", re.sub(r"[ \t]*" + TIMING.pattern, "<t>", text))


def test_fingerprint_sees_a_changed_figure_and_ignores_timings():
    import nbformat

    def nb(text: str, png: str) -> object:
        cell = nbformat.v4.new_code_cell("x")
        cell.outputs = [
            nbformat.v4.new_output("stream", name="stdout", text=text),
            nbformat.v4.new_output("display_data", data={"image/png": png, "text/plain": "<F>"}),
        ]
        return nbformat.v4.new_notebook(cells=[cell])

    assert _fingerprint(nb("took 1.5 s\n", "AAA")) == _fingerprint(nb("took 0.2 s\n", "AAA"))
    assert _fingerprint(nb("took 1.5 s\n", "AAA")) != _fingerprint(nb("took 1.5 s\n", "AAB"))
    assert _fingerprint(nb("won 3\n", "AAA")) != _fingerprint(nb("won 4\n", "AAA"))
    tagged = nb("1692 games/s\n", "A")
    tagged.cells[0].metadata["tags"] = ["timing"]
    assert _fingerprint(tagged) == []
    where = f"wrote {tempfile.gettempdir()}/share-1a2b/x.zip from <Layer at 0x7fd00c317190>\n"
    same = f"wrote {tempfile.gettempdir()}/share-9z8y/x.zip from <Layer at 0x7fd4b7606490>\n"
    assert _fingerprint(nb(where, "A")) == _fingerprint(nb(same, "A"))
    assert _fingerprint(nb(" 9.5 s  a\n10.5 s  b\n", "A")) == _fingerprint(
        nb("10.5 s  a\n9.5 s  b\n", "A")
    )


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_outputs_are_reproducible(path, notebook_runs):
    # run 0 is the one tests/notebooks and the report read; run 1 is executed for this test only
    # (first: no other worker asks for it, while run 0 may be executing elsewhere meanwhile)
    second = _fingerprint(notebook_runs.get(path, 1))
    first = _fingerprint(notebook_runs.get(path, 0))
    assert first, f"{path.name} produced no outputs to compare"
    for i, (a, b) in enumerate(zip(first, second)):
        assert a == b, f"{path.name}: output {i} differs between two runs"
    assert len(first) == len(second)
