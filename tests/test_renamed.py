"""Renamed modules (scripts/house_renames.py): the old public paths still import, with a warning.

house-renames: skip-file (this test names the old paths on purpose)
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from labkit._renamed import RENAMED

ROOT = Path(__file__).resolve().parents[1]


def _script():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        return importlib.import_module("house_renames")
    finally:
        sys.path.remove(str(ROOT / "scripts"))


def test_the_table_is_the_scripts_public_renames():
    script = _script()
    public = {old: new for old, new in script.renames().items() if script.is_public(old)}
    assert RENAMED == public
    assert len(RENAMED) >= 10  # a walker that found nothing would make the checks below vacuous


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_an_old_path_warns_and_is_the_new_module(old, monkeypatch):
    new = RENAMED[old]
    parent_name, _, leaf = old.rpartition(".")
    parent = importlib.import_module(parent_name)
    assert not (ROOT / (old.replace(".", "/") + ".py")).exists(), "the old file is still there"
    assert leaf not in getattr(parent, "__all__", ()), "the alias would hide an exported name"
    monkeypatch.delitem(sys.modules, old, raising=False)
    with pytest.warns(DeprecationWarning, match=rf"^{old} is renamed {new}: import it from there"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    monkeypatch.delattr(parent, leaf, raising=False)  # the import system set it


def test_an_unknown_old_path_is_still_an_error():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("labkit.hexpuzzle.no_such_module")


def test_nothing_in_the_checkout_uses_an_old_path():
    # the script's dry run finds nothing to move or rewrite: every import uses the new names
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "house_renames.py"), "--check"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    assert out.stdout == ""
