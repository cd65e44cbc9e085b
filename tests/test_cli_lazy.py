"""``labkit --help`` loads no domain package and no numba; the listed help lines stay true."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

import pytest

from labkit.cli import DOMAIN_CLIS, build_parser, main

PROBE = (
    "import sys, contextlib, io\n"
    "from labkit.cli import main\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    try:\n"
    "        main(sys.argv[1:])\n"
    "    except SystemExit:\n"
    "        pass\n"
    "import json\n"
    "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('labkit.', 'numba')))))\n"
)


def _loaded(*argv: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def test_help_imports_no_domain_and_no_numba() -> None:
    loaded = _loaded("--help")
    assert not [m for m in loaded if m.startswith("numba")]
    loaded = [m for m in loaded if m.startswith("labkit.")]
    assert "labkit.cli" in loaded  # the probe saw the command run
    assert not [m for m in loaded if m.split(".")[1] in ("hexpuzzle", "encounter", "mapturn")]
    assert not [m for m in loaded if m.startswith("labkit.pathfinding")]


def test_a_domain_command_imports_only_its_domain() -> None:
    loaded = [m for m in _loaded("path", "--help") if m.startswith("labkit.")]
    assert "labkit.pathfinding.cli" in loaded
    assert not [m for m in loaded if m.split(".")[1] in ("hexpuzzle", "encounter", "mapturn")]


@pytest.mark.parametrize("command", sorted(DOMAIN_CLIS))
def test_listed_help_lines_match_what_each_domain_registers(command: str) -> None:
    module_name, help_line = DOMAIN_CLIS[command]
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    importlib.import_module(module_name).register(sub)
    registered = {a.dest: a.help for a in sub._choices_actions}
    assert registered == {command: help_line}


def test_the_full_parser_still_knows_every_command(capsys) -> None:
    parser = build_parser()  # no argv: every domain registered for real
    with pytest.raises(SystemExit):
        parser.parse_args(["puzzle", "--help"])
    assert "validate" in capsys.readouterr().out
    assert main(["info"]) == 0
