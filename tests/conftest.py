"""Shared test set-up: hypothesis profiles and static matplotlib."""

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
