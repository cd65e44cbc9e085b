"""pyproject.toml and environment.yml must list the same dependencies."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# conda-forge names that differ from PyPI's.
CONDA_ALIASES = {"dask[distributed]": {"dask", "distributed"}}


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ ;]", requirement.strip(), maxsplit=1)[0].lower()


def pyproject_names() -> set[str]:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(meta["dependencies"])
    for extra in meta["optional-dependencies"].values():
        reqs += extra
    names: set[str] = set()
    for r in reqs:
        names |= CONDA_ALIASES.get(_name(r), {_name(r)})
    return names


def environment_names() -> set[str]:
    names = set()
    in_deps = False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if re.match(r"^\S", line):  # a top-level key starts a new section
            in_deps = line.startswith("dependencies:")
            continue
        m = re.match(r"^\s+- ([A-Za-z0-9_.\-\[\]]+)", line)
        if in_deps and m and m.group(1) not in ("pip", "python", "pip:", "-e"):
            names.add(_name(m.group(1)))
    return names


def test_environment_matches_pyproject():
    missing_in_env = pyproject_names() - environment_names()
    extra_in_env = environment_names() - pyproject_names()
    assert not missing_in_env, f"in pyproject.toml but not environment.yml: {missing_in_env}"
    assert not extra_in_env, f"in environment.yml but not pyproject.toml: {extra_in_env}"


def test_drift_detector_sees_differences():
    # The parser must actually read names (an empty parse would make the test above vacuous).
    assert {"numpy", "numba", "pytest", "tcod", "dask", "distributed"} <= environment_names()
    assert {"numpy", "numba", "pytest", "tcod", "dask", "distributed"} <= pyproject_names()


def test_wheel_ships_every_module_and_data_file(installed_wheel):
    import zipfile

    wheel, _ = installed_wheel
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "labkit").rglob("*.py")}
    data = {
        "labkit/" + p.relative_to(ROOT).as_posix()
        for p in (ROOT / "data").rglob("*")
        if p.is_file()
    }
    assert data, "no data files found to check"
    assert not modules - names, f"modules missing from the wheel: {sorted(modules - names)}"
    assert not data - names, f"data files missing from the wheel: {sorted(data - names)}"
    # the checkout's build tooling (make docs, make report) is not part of what users install
    assert not [
        n for n in names if n.startswith(("tests/", "benchmarks/", "notebooks/", "labkit_build/"))
    ]


def test_installed_wheel_reads_its_own_data(installed_wheel, tmp_path):
    import os
    import subprocess
    import sys

    _, site = installed_wheel
    env = {k: v for k, v in os.environ.items() if k not in ("LABKIT_DATA_DIR", "PYTHONPATH")}
    env["PYTHONPATH"] = str(site)
    code = (
        "import labkit, labkit._data as d\n"
        "from labkit.encounter import load_balance\n"
        "from labkit.hexpuzzle import campaign\n"
        "print(labkit.__file__); print(d.data_dir())\n"
        "print(len(campaign()), load_balance().edition)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    package, data, summary = out.stdout.splitlines()
    assert Path(package).is_relative_to(site)
    assert Path(data) == site / "labkit" / "data"
    assert summary.split()[0] == "24"
