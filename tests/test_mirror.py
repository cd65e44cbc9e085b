"""Tests mirror the package: every public module has a test file of its name.

``labkit/<domain>/<subpackage>/<module>.py`` is tested in
``tests/<domain>/<subpackage>/test_<module>.py`` (or ``test_<module>_<aspect>.py``), an app of
``labkit/widgets`` in ``tests/widgets/``; ``scripts/mirror_tests.py`` moves files there. A new
public module without its test file fails here; so does an entry of the lists below whose test
file has appeared (take it off the list).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Tested elsewhere on purpose.
EXCEPTIONS = {
    "encounter.status": "status enums: tests/test_statuses.py checks every Status in labkit",
    "hexpuzzle.status": "status enums: tests/test_statuses.py checks every Status in labkit",
    "mapturn.status": "status enums: tests/test_statuses.py checks every Status in labkit",
}
# Public modules still tested only under other names: empty since 2026-12-02, and to stay so
# (a new module gets its test file of its name).
NOT_YET_MIRRORED: set[str] = set()


def public_modules() -> list[str]:
    out = []
    for path in sorted((ROOT / "labkit").rglob("*.py")):
        rel = path.relative_to(ROOT / "labkit")
        if any(p.startswith("_") for p in rel.parts) or "__pycache__" in rel.parts:
            continue  # private modules, __init__ re-exports, __main__
        out.append(".".join(rel.with_suffix("").parts))
    return out


def has_test_file(module: str) -> bool:
    *folders, name = module.split(".")
    where = ROOT.joinpath("tests", *folders)
    return (where / f"test_{name}.py").exists() or any(where.glob(f"test_{name}_*.py"))


def test_every_public_module_has_a_test_file_of_its_name():
    missing = [m for m in public_modules() if not has_test_file(m)]
    unexplained = sorted(set(missing) - set(EXCEPTIONS) - NOT_YET_MIRRORED)
    assert not unexplained, (
        f"public modules without tests/<same path>/test_<name>.py: {unexplained}"
    )


def test_the_lists_hold_no_stale_entries():
    modules = set(public_modules())
    listed = set(EXCEPTIONS) | NOT_YET_MIRRORED
    assert listed <= modules, f"not modules (renamed or removed?): {sorted(listed - modules)}"
    done = sorted(m for m in NOT_YET_MIRRORED if has_test_file(m))
    assert not done, f"these have their test file now; take them off NOT_YET_MIRRORED: {done}"


def test_app_tests_live_in_tests_widgets():
    stray = sorted(p.parent.name for p in (ROOT / "tests").glob("widgets_*/test_*.py"))
    assert not stray, f"app tests outside tests/widgets: {stray}"
