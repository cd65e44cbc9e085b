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
        # a mutant the tests pass in normal time is never stopped as a "timeout" (a fake kill)
        assert "timeout_constant = 10.0" in text


_HELD_LOCK_CHILD = """
import os, signal, sys
from tqdm import tqdm
tqdm(range(3), disable=True).close()  # the clean run made the lock
exec(sys.argv[1])
if os.fork() == 0:  # a mutant's process, killed while it held the lock
    tqdm.get_lock().acquire()
    os._exit(0)
os.wait()
if (pid := os.fork()) == 0:  # the next mutant's
    signal.alarm(3)  # the default action ends a child that waits for the lock
    tqdm(range(3), disable=True).close()
    os._exit(0)
_, status = os.waitpid(pid, 0)
sys.exit(0 if os.waitstatus_to_exitcode(status) == 0 else 1)
"""


@pytest.mark.parametrize("hook", [True, False])
def test_a_mutants_process_never_waits_for_a_tqdm_lock_another_process_holds(hook):
    # mutmut forks every mutant from one parent; tqdm's lock is a semaphore they share, and a
    # child killed while holding it made every later mutant time out (counted as a kill).
    import subprocess
    import sys

    snippet = _table().FORK_HOOK if hook else ""
    done = subprocess.run([sys.executable, "-c", _HELD_LOCK_CHILD, snippet], timeout=60,
                          check=False)  # fmt: skip
    assert done.returncode == (0 if hook else 1)
