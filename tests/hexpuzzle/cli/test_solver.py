"""The solver's commands: solve, hint, score, generate and campaign (SPEC H7, H8; issue 27's
constraints)."""

from __future__ import annotations

import argparse
import json

import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import shipped_campaign as camp
from labkit.hexpuzzle.cli.solver import register_solver_commands


def _run(*argv):
    parser = argparse.ArgumentParser()
    register_solver_commands(parser.add_subparsers(dest="cmd", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_campaign_constraints(tmp_path, capsys):
    out = tmp_path / "c.json"
    assert _run("campaign", "--curve", "30:40:2", "--tiles", "6-7", "--rotations", "1",
                "--out", str(out), "--seed", "3") == 0  # fmt: skip
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:3]]
    assert all(r[4] == "1" and r[5] in ("6", "7") for r in rows)
    with pytest.raises(ArgumentError, match=r"--tiles: .*reachable: 4-37"):
        _run("campaign", "--curve", "30:40:2", "--tiles", "2", "--rotations", "3",
             "--out", str(out))  # fmt: skip
    with pytest.raises(SystemExit):
        _run("campaign", "--tiles", "5-4", "--out", str(out))


def test_cli_solve_hint_score(capsys):
    assert _run("solve", "data/levels/03-two-turns.json") == 0
    assert "solved with 2 rotation(s)" in capsys.readouterr().out
    assert _run("solve", "data/levels/03-two-turns.json", "--json") == 0
    assert json.loads(capsys.readouterr().out)["rotations"] == 2
    assert _run("hint", "data/levels/02-one-turn.json") == 0
    assert capsys.readouterr().out.strip() == "one-turn: tap t0"
    assert _run("score", "data/levels/02-one-turn.json", str(camp.campaign_path())) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 + 1 + 24 and lines[2].split()[:3] == ["one-turn", "34", "intermediate"]


def test_cli_generate_and_campaign_slot(tmp_path, capsys):
    assert _run("generate", "--seed", "5", "--count", "2", "--out", str(tmp_path)) == 0
    files = sorted(p.name for p in tmp_path.glob("*.json"))
    assert files == ["gen-5-00.json", "gen-5-01.json"]
    assert _run("solve", str(tmp_path / files[0])) == 0
    assert "wrote 2 level(s)" in capsys.readouterr().out


def test_cli_campaign_writes_a_reproducible_file(tmp_path, monkeypatch, capsys):
    small = (camp._recipe(2, [4, 4], [1, 1], [2, 2], 0.5),) * 2
    monkeypatch.setattr(camp, "RECIPES", small)
    out1, out2 = tmp_path / "a.json", tmp_path / "b.json"
    assert _run("campaign", "--out", str(out1), "--seed", "3") == 0
    assert _run("campaign", "--out", str(out2), "--seed", "3") == 0
    assert out1.read_bytes() == out2.read_bytes()
    assert [lv.id for lv in camp.load(out1)] == ["main-01", "main-02"]
    assert "2 levels" in capsys.readouterr().out
