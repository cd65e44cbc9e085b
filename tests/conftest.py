"""Shared test set-up: hypothesis profiles, static matplotlib, notebook runs shared by tests."""

from __future__ import annotations

import os
import time

import matplotlib
import pytest
from hypothesis import HealthCheck, Phase, settings

matplotlib.use("Agg")

# CI profile: derandomised (same examples every run) and bounded; a dev profile explores more.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=300, deadline=None)
# Mutation testing (scripts/mutate.py): a killed mutant needs one failing example, not a shrunk
# one, and every test runs once per mutant.
settings.register_profile(
    "mutate",
    derandomize=True,
    max_examples=50,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def installed_wheel(tmp_path_factory):
    """labkit built into a wheel from a copy of this tree and installed (no dependencies) into a
    fresh folder, as ``pip install labkit`` would lay it out. Returns (wheel, site folder)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    if os.environ.get("PYTEST_XDIST_WORKER"):  # one build for all workers of the session
        import fcntl

        work = tmp_path_factory.getbasetemp().parent / "wheel"
        work.mkdir(exist_ok=True)
        with open(work.parent / "wheel.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (work / "site").is_dir():
                _build_wheel(root, work)
    else:
        work = tmp_path_factory.mktemp("wheel")
        _build_wheel(root, work)
    (wheel,) = (work / "dist").glob("labkit-*.whl")
    return wheel, work / "site"


def _build_wheel(root, work) -> None:
    import shutil
    import subprocess
    import sys

    # Build from a copy: an in-tree build would leave build/ and *.egg-info in the checkout.
    src = work / "src"
    skip = shutil.ignore_patterns(".*", "build", "__pycache__", "*.egg-info", "*.nbi", "*.nbc")
    shutil.copytree(root, src, ignore=skip)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(work / "dist"), str(src)], check=True)
    (wheel,) = (work / "dist").glob("labkit-*.whl")
    site = work / "site"
    partial = work / "site.partial"
    subprocess.run([*pip, "install", "--no-deps", "--target", str(partial), str(wheel)], check=True)
    partial.rename(site)


class NotebookRuns:
    """Each notebook executed at most twice per test session, on demand, and shared.

    Three kinds of test read executed notebooks: "runs clean" (tests/notebooks), "two runs give
    the same outputs" (tests/notebooks/test_reproducible.py) and the offline report and docs
    (tests/browser). Executing each notebook three or four times cost minutes of the 20-minute
    budget; here run 0 serves all three and run 1 only the reproducibility check. A run that
    failed is remembered and re-raised, not executed again. Callers get deep copies, so no test
    sees another's edits.

    With ``store`` (a folder every pytest-xdist worker of the session sees) a run is shared
    between workers too: the first worker to ask executes it under an OS lock on the run's file
    and writes it there; a worker asking meanwhile waits on the lock and reads the file.
    """

    def __init__(self, store=None) -> None:
        self._done: dict[tuple, object] = {}
        self._store = store

    def get(self, path, run: int = 0, *, wait: bool = True):
        """The executed notebook (a copy). With ``wait=False`` and another worker executing it
        right now, None at once instead of waiting for it."""
        import copy

        key = (str(path), run)
        if key not in self._done:
            result = self._shared(path, run, wait) if self._store else self._execute(path)
            if result is None:
                return None
            self._done[key] = result
        result = self._done[key]
        if isinstance(result, Exception):
            raise result
        return copy.deepcopy(result)

    def get_all(self, paths) -> dict:
        """Run 0 of every notebook in ``paths``: first those no other worker is executing (so two
        workers asking for all of them work side by side), then the rest, waiting for them."""
        got = {path: self.get(path, wait=False) for path in paths}
        return {path: nb if nb is not None else self.get(path) for path, nb in got.items()}

    @staticmethod
    def _execute(path):
        import nbformat

        from labkit_build.report import execute_notebook

        meta = nbformat.read(path, as_version=4).metadata
        budget = meta.get("labkit", {}).get("budget_seconds", 300)  # per cell
        try:
            return execute_notebook(path, timeout=budget)
        except Exception as exc:  # a cell failed or overran: every reader sees why
            return exc

    def _shared(self, path, run: int, wait: bool = True):
        import fcntl
        import pickle

        self._store.mkdir(parents=True, exist_ok=True)
        done = self._store / f"{path.stem}-run{run}.pickle"
        asked = time.perf_counter()
        with open(self._store / f"{path.stem}-run{run}.lock", "w") as lock:
            try:  # released when the file closes, also on a crash
                fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                return None  # another worker is executing it now
            waited = time.perf_counter() - asked
            if not done.exists():
                result = self._execute(path)
                self._log(f"{path.stem} run {run}: waited {waited:.1f} s, executed in "
                          f"{time.perf_counter() - asked - waited:.1f} s")  # fmt: skip
                try:
                    blob = pickle.dumps(result)
                except Exception:  # an exception that does not pickle: keep its message
                    blob = pickle.dumps(RuntimeError(f"{type(result).__name__}: {result}"))
                partial = done.with_suffix(".partial")
                partial.write_bytes(blob)
                partial.replace(done)
            if waited > 1:
                self._log(f"{path.stem} run {run}: waited {waited:.1f} s for another worker")
            return pickle.loads(done.read_bytes())

    def _log(self, line: str) -> None:
        """One line in the store's ``log.txt``: where the suite's minutes go (read it when the
        run was slow)."""
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(self._store / "log.txt", "a") as f:
            f.write(f"{time.strftime('%H:%M:%S')} {worker} {line}\n")


@pytest.fixture(scope="session")
def notebook_runs(tmp_path_factory) -> NotebookRuns:
    # under pytest-xdist every worker's basetemp sits in one folder of the session
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return NotebookRuns()
    return NotebookRuns(tmp_path_factory.getbasetemp().parent / "notebook-runs")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A skipped test is a failed one: ``make test`` installs everything the suite needs, so a
    skip only ever hides a missing tool or package (say which, and fail loudly)."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped, and this suite never skips: {report.longrepr}"


def pytest_xdist_make_scheduler(config, log):
    """Under pytest-xdist (``make test``), one test file is one unit of work, so a module's
    expensive fixtures (a Dask cluster, a docs build) are made once. The browser suite is two
    units, each with its own JupyterLab server and Chromium (a worker starts them once): the
    notebooks run in JupyterLab, and the rest (apps, stories, docs, report); as one unit it was
    the longest chain of the run. (``--dist loadgroup`` cannot group: with pytest 9 its marks no
    longer reach the scheduler.)"""
    from xdist.scheduler import LoadScopeScheduling

    class FilesBrowserTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of_work(nodeid)

        def _assign_work_unit(self, node) -> None:
            # longest first: handed out in xdist's order (most tests first), a ten-minute
            # browser unit could start last and leave the other core idle at the end
            for scope in LONGEST_UNITS:
                found = [u for u in self.workqueue if u == scope or u.startswith(scope + "::")]
                if found:
                    self.workqueue.move_to_end(found[0], last=False)
                    break
            super()._assign_work_unit(node)

    return FilesBrowserTogether(config, log)


def unit_of_work(nodeid: str) -> str:
    """The unit of work a test belongs to under pytest-xdist: its file, a browser unit, or (for
    the tests that execute a notebook again, each a minute) the test itself."""
    if nodeid.startswith("tests/browser/test_notebooks_in_browser.py"):
        return "tests/browser/notebooks"
    if nodeid.startswith("tests/browser/"):
        return "tests/browser"
    if nodeid.startswith(ONE_TEST_A_UNIT):
        return nodeid
    return nodeid.split("::", 1)[0]


# Handed out test by test, so both workers share them (their notebook runs are shared anyway).
ONE_TEST_A_UNIT = ("tests/notebooks/test_reproducible.py::test_notebook_outputs_are_reproducible",)


# The units that take longest (seconds in one `pytest -n 2 --durations=0` run on a cold numba
# cache, 2026-12-02), handed out first; every other unit follows in xdist's own order.
LONGEST_UNITS = (
    "tests/browser/notebooks",  # 459 s: every notebook in JupyterLab
    "tests/browser",  # 441 s: docs site (executes the notebooks), apps, stories, report
    "tests/notebooks/test_reproducible.py",  # 298 s: every notebook a second time (test by test)
    "tests/test_hostile.py",  # 123 s: interrupted and killed processes
    "tests/notebooks/test_notebooks.py",  # 102 s
    "tests/encounter/test_cluster_cli.py",  # 84 s: dask scheduler and worker processes
    "tests/test_jit.py",  # 55 s
    "tests/test_docs.py",  # 49 s
)
