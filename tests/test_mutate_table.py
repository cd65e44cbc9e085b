"""``make mutate``'s table names files that exist: a module mutated against fewer tests than
listed (a test file moved or renamed) would report a kill rate its tests do not earn."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _table():
    spec = importlib.util.spec_from_file_location("mutate", ROOT / "scripts" / "mutate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_module_and_test_file_of_the_table_exists():
    table = _table().MODULES
    assert len(table) > 30
    missing = {name: [p for p in [module, *tests] if not (ROOT / p).exists()]
               for name, (module, tests, _) in table.items()}  # fmt: skip
    assert not {k: v for k, v in missing.items() if v}


def test_a_missing_file_stops_the_run_naming_it(monkeypatch):
    mutate = _table()
    monkeypatch.setitem(mutate.MODULES, "ghost", ("labkit/rng.py", ["tests/test_gone.py"], False))
    with pytest.raises(SystemExit, match="ghost: no such file: tests/test_gone.py"):
        mutate.prepare("ghost")


def test_wave_modules_are_judged_by_their_tests_and_no_mutant_copy_runs_a_doctest(
    monkeypatch, tmp_path
):
    mutate = _table()
    monkeypatch.setattr(mutate, "OUT", tmp_path)
    for name, doctests in [("mapturn-cache", False), ("rng", True)]:
        text = (mutate.prepare(name) / "pyproject.toml").read_text(encoding="utf-8")
        module, tests, _ = mutate.MODULES[name]
        selection = [*tests, module] if doctests else tests
        assert "pytest_add_cli_args_test_selection = " + str(selection).replace("'", '"') in text
        assert '"-k", "not __mutmut_"]' in text
