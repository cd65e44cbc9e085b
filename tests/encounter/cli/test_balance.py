"""``labkit sim sweep`` (resumable) and ``labkit sim tune``."""

from __future__ import annotations

import csv
import json

import pytest

from labkit import ArgumentError
from labkit.cli import main
from labkit.encounter.cli.balance import parse_grid


def test_sweep_resumes_from_its_directory_and_writes_csv(tmp_path, capsys):
    out, rows = tmp_path / "sw", tmp_path / "rows.csv"
    argv = ["sim", "sweep", "--grid", "/characters/monster/life=3:9:5", "--grid", "npcs=2,3",
            "--seeds", "0:8", "--max-steps", "150", "--workers", "2", "--quiet",
            "--out", str(out), "--baseline", "0"]  # fmt: skip
    assert main([*argv, "--csv", str(rows)]) == 0
    first = capsys.readouterr().out
    assert "point 3 (/characters/monster/life=8, npcs=3): n=8" in first
    assert "vs point 0" in first and "32 games in" in first
    # the baseline against itself has no interval of a change, and says why
    assert "vs point 0: +0.000 [no interval] (8 pairs)\n    (the baseline itself)" in first
    table = list(csv.DictReader(rows.open()))
    assert len(table) == 32 and table[0]["/characters/monster/life"] == "3"
    parts = sorted(out.glob("part-*.parquet"))
    parts[0].unlink()
    assert main(argv) == 0  # plays the missing chunk only, prints the same table
    assert capsys.readouterr().out == first[: first.index("saved")]
    changed = [a.replace("0:8", "0:9") for a in argv]
    assert main(changed) == 1
    assert "different sweep" in capsys.readouterr().err


def test_tune_prints_the_value_and_writes_the_patch(tmp_path, capsys):
    patch = tmp_path / "patch.json"
    rc = main(["sim", "tune", "--param", "/characters/monster/life", "--target", "0.5",
               "--bounds", "1,12", "--seeds", "0:80", "--start", "40", "--budget", "400",
               "--max-steps", "150", "--workers", "2", "--quiet",
               "--patch-out", str(patch)])  # fmt: skip
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "gives npc_win = 0.5" in text and "/characters/monster/life = 1:" in text
    value = json.loads(patch.read_text())["/characters/monster/life"]
    assert isinstance(value, int) and 1 <= value <= 12


def test_bad_grid_and_parameter_are_one_line_errors(capsys):
    # both are bad arguments (an ArgumentError: exit 2), each one line on stderr naming it
    assert main(["sim", "sweep", "--grid", "/characters/monster/life=3:x", "--quiet"]) == 2
    assert "--grid" in capsys.readouterr().err
    assert main(["sim", "sweep", "--grid", "/nope=1", "--seeds", "0:2", "--quiet"]) == 2
    assert "grid['/nope']" in capsys.readouterr().err
    with pytest.raises(ArgumentError, match="NAME=VALUES"):
        parse_grid(["life"])
    assert parse_grid(["difficulty=[1,2]"]) == {"difficulty": ["[1", "2]"]}  # lists: use JSON


def test_compare_prints_the_table_resumes_and_writes_parquet(tmp_path, capsys):
    import pandas as pd

    from labkit.encounter.rules.balance import DEFAULT_PATH

    variant = tmp_path / "b.json"
    variant.write_text(json.dumps({"format": "labkit.balance_patch", "version": 1,
                                   "balance": {"/characters/monster/life": 2}}))  # fmt: skip
    out, table = tmp_path / "games", tmp_path / "t.parquet"
    argv = ["sim", "compare", "--balance-a", str(DEFAULT_PATH), "--balance-b", str(variant),
            "--seeds", "0:40", "--workers", "2", "--quiet", "--out", str(out),
            "--bootstrap", "200", "--table-out", str(table)]  # fmt: skip
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert "NPC win rate" in first and "balance (1 - win-rate gap)" in first
    assert "80 games in" in first and "(0 changes)" in first and "(1 changes)" in first
    t = pd.read_parquet(table).set_index("metric")
    assert t.loc["npc_win", "diff_lo"] > 0 and t.loc["npc_win", "pairs"] == 40
    sorted(out.glob("part-*.parquet"))[0].unlink()
    assert main(argv) == 0  # the missing games are played again, the same table printed
    assert capsys.readouterr().out == first


def test_tune_precision_reaches_tune_and_its_answer(monkeypatch, capsys):
    import labkit.encounter.sim.tune as tm

    real = tm.tune

    def response(v, seeds):  # NPC win chance v / 10, one fixed uniform per seed
        return (seeds * 0.6180339887) % 1.0 < v / 10

    monkeypatch.setattr(tm, "tune", lambda *a, **k: real(*a, **{**k, "response": response}))
    rc = main(["sim", "tune", "--param", "/characters/monster/life", "--target", "0.5",
               "--bounds", "1,9", "--seeds", "0:400", "--start", "40", "--budget", "2000",
               "--precision", "0.3", "--workers", "1", "--quiet"])  # fmt: skip
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "gives npc_win = 0.5 ± 0.3:" in text, text  # a hit within the wide band asked for


def test_tune_several_targets_confirm_reaches_tune_many(monkeypatch):
    import labkit.encounter.sim.tune_many as tm

    seen = {}

    def record(*a, **k):
        seen.update(k)
        raise RuntimeError("recorded")

    monkeypatch.setattr(tm, "tune_many", record)
    with pytest.raises(RuntimeError, match="recorded"):
        main(["sim", "tune", "--target", "npc_win=0.5±0.05", "--knob",
              "/characters/monster/life=2:10", "--games", "20", "--fresh", "30",
              "--confirm", "123", "--workers", "1", "--quiet"])  # fmt: skip
    # the seed list holds the search's, the re-check's and this confirmation's seeds
    assert seen["confirm"] == 123 and len(seen["seeds"]) == 20 + 30 + 123
