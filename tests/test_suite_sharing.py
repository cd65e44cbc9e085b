"""The suite's own sharing between pytest-xdist workers (tests/conftest.py): a notebook executed
once per session whichever worker asks first, and a worker never idles behind another's run."""

from __future__ import annotations

import fcntl
from pathlib import Path

from tests.conftest import NotebookRuns


def _counting(monkeypatch) -> list:
    ran: list = []

    def execute(path):
        ran.append(path.name)
        return {"cells": [path.name]}

    monkeypatch.setattr(NotebookRuns, "_execute", staticmethod(execute))
    return ran


def test_a_run_is_executed_once_for_every_worker(tmp_path, monkeypatch):
    ran = _counting(monkeypatch)
    first, second = NotebookRuns(tmp_path), NotebookRuns(tmp_path)  # two workers, one store
    path = Path("nb/01_x.ipynb")
    assert first.get(path) == {"cells": ["01_x.ipynb"]}
    assert second.get(path) == {"cells": ["01_x.ipynb"]}
    assert ran == ["01_x.ipynb"]
    second.get(path, 1)  # the reproducibility run is its own
    assert ran == ["01_x.ipynb", "01_x.ipynb"]


def test_get_all_takes_the_free_notebooks_first(tmp_path, monkeypatch):
    ran = _counting(monkeypatch)
    runs = NotebookRuns(tmp_path)
    a, b = Path("nb/a.ipynb"), Path("nb/b.ipynb")
    with open(tmp_path / "a-run0.lock", "w") as held:  # another worker is executing a
        fcntl.flock(held, fcntl.LOCK_EX)
        assert runs.get(a, wait=False) is None
        assert runs.get(b, wait=False) == {"cells": ["b.ipynb"]}
    assert runs.get_all([a, b]) == {a: {"cells": ["a.ipynb"]}, b: {"cells": ["b.ipynb"]}}
    assert ran == ["b.ipynb", "a.ipynb"]


def test_a_failed_run_is_remembered_and_raised_to_every_reader(tmp_path, monkeypatch):
    calls: list = []

    def execute(path):
        calls.append(path)
        return ValueError("cell 3 failed")

    monkeypatch.setattr(NotebookRuns, "_execute", staticmethod(execute))
    for runs in (NotebookRuns(tmp_path), NotebookRuns(tmp_path)):
        try:
            runs.get(Path("nb/c.ipynb"))
        except ValueError as exc:
            assert "cell 3 failed" in str(exc)
        else:
            raise AssertionError("the failure was not raised")
    assert len(calls) == 1


def test_the_longest_units_of_work_are_units_of_this_suite():
    from tests.conftest import LONGEST_UNITS, ONE_TEST_A_UNIT, unit_of_work

    root = Path(__file__).resolve().parent.parent
    files = [p.relative_to(root).as_posix() for p in (root / "tests").rglob("test_*.py")]
    units = {unit_of_work(f + "::t") for f in files}  # a file's unit, or its tests' prefix
    assert len(set(LONGEST_UNITS)) == len(LONGEST_UNITS)
    stale = [u for u in LONGEST_UNITS if u not in units]
    assert not stale, f"stale names: {stale}"
    one = ONE_TEST_A_UNIT[0] + "[00_tour.ipynb]"
    assert unit_of_work(one) == one  # handed out test by test
    assert unit_of_work("tests/browser/test_notebooks_in_browser.py::t[00]") != unit_of_work(
        "tests/browser/test_docs_site.py::t"
    )
    assert unit_of_work("tests/a/test_b.py::T::t[1]") == "tests/a/test_b.py"
