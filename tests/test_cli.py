from __future__ import annotations

import subprocess
import sys

from labkit.cli import main


def test_help_lists_commands(capsys):
    try:
        main(["--help"])
    except SystemExit as exc:
        assert exc.code == 0
    out = capsys.readouterr().out
    assert "info" in out and "warmup" in out


def test_info_prints_versions(capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    for key in (
        "labkit",
        "python",
        "numpy",
        "numba",
        "llvmlite",
        "numba cache",
        "cpu count",
        "threading layer",
    ):
        assert key in out


def test_console_script_runs():
    out = subprocess.run(
        [sys.executable, "-m", "labkit", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("labkit ")


def test_missing_shipped_data_is_one_line_not_a_traceback(tmp_path):
    import os

    env = {**os.environ, "LABKIT_DATA_DIR": str(tmp_path / "nowhere")}
    out = subprocess.run(
        # the encounter commands read the shipped balance as they load (only the named
        # domain's commands load: labkit/cli.py)
        [sys.executable, "-m", "labkit", "sim", "--help"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("labkit: error: ") and "nowhere" in out.stderr


def test_warmup_without_domains_compiles_all_and_names_a_wrong_one(monkeypatch, capsys):
    from labkit import _jit
    from labkit.cli import WARMUP_DOMAINS

    asked = []
    monkeypatch.setattr(_jit, "warmup", lambda progress, domains: asked.append(domains) or {})
    assert main(["warmup", "--quiet"]) == 0  # what `make lab` runs: every domain
    assert main(["warmup", "--quiet", "mapturn", "encounter"]) == 0
    assert asked == [None, ["mapturn", "encounter"]]
    capsys.readouterr()
    assert main(["warmup", "puzzles"]) == 2
    assert "invalid choice: 'puzzles'" in capsys.readouterr().err and len(asked) == 2
    assert WARMUP_DOMAINS == _jit.DOMAINS
