"""Shared test set-up: hypothesis profiles, static matplotlib, notebook runs shared by tests."""

from __future__ import annotations

import os

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
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    work = tmp_path_factory.mktemp("wheel")
    # Build from a copy: an in-tree build would leave build/ and *.egg-info in the checkout.
    src = work / "src"
    skip = shutil.ignore_patterns(".*", "build", "__pycache__", "*.egg-info", "*.nbi", "*.nbc")
    shutil.copytree(root, src, ignore=skip)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(work / "dist"), str(src)], check=True)
    (wheel,) = (work / "dist").glob("labkit-*.whl")
    site = work / "site"
    subprocess.run([*pip, "install", "--no-deps", "--target", str(site), str(wheel)], check=True)
    return wheel, site


class NotebookRuns:
    """Each notebook executed at most twice per test session, on demand, and shared.

    Three kinds of test read executed notebooks: "runs clean" (tests/notebooks), "two runs give
    the same outputs" (tests/notebooks/test_reproducible.py) and the offline report and docs
    (tests/browser). Executing each notebook three or four times cost minutes of the 20-minute
    budget; here run 0 serves all three and run 1 only the reproducibility check. A run that
    failed is remembered and re-raised, not executed again. Callers get deep copies, so no test
    sees another's edits.
    """

    def __init__(self) -> None:
        self._done: dict[tuple, object] = {}

    def get(self, path, run: int = 0):
        import copy

        from labkit_build.report import execute_notebook

        key = (str(path), run)
        if key not in self._done:
            import nbformat

            meta = nbformat.read(path, as_version=4).metadata
            budget = meta.get("labkit", {}).get("budget_seconds", 300)  # per cell
            try:
                self._done[key] = execute_notebook(path, timeout=budget)
            except Exception as exc:  # a cell failed or overran: every reader sees why
                self._done[key] = exc
        result = self._done[key]
        if isinstance(result, Exception):
            raise result
        return copy.deepcopy(result)


@pytest.fixture(scope="session")
def notebook_runs() -> NotebookRuns:
    return NotebookRuns()
