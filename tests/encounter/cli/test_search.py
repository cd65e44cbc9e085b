"""``labkit sim importance`` and ``labkit sim tune``'s several-target form."""

from __future__ import annotations

import csv
import json

import pytest

from labkit import ArgumentError
from labkit.cli import main
from labkit.encounter.cli.search import parse_knobs


def test_importance_prints_knobs_by_name_and_unit_and_writes_table_and_chart(tmp_path, capsys):
    table, chart = tmp_path / "imp.csv", tmp_path / "imp.png"
    argv = ["sim", "importance", "--knob", "/characters/monster/life=2:8",
            "--knob", "max_steps=40:300", "--trajectories", "4", "--games", "2",
            "--seeds", "0:100", "--workers", "1", "--quiet", "--csv", str(table),
            "--plot", str(chart), "--out", str(tmp_path / "run")]  # fmt: skip
    rc = main(argv)
    text = capsys.readouterr().out
    assert rc == 0, text
    assert list((tmp_path / "run").glob("part-*.json"))
    assert main(argv) == 0  # resumed from its parts: the same table, no game played again
    assert capsys.readouterr().out == text.replace("(32 games)", "(0 games)")
    assert "monster life (wounds it takes) 2 to 8: mu_star" in text
    assert "step limit (steps) 40 to 300: mu_star" in text
    assert "seed block (2 games): mu_star" in text and "noise" in text
    rows = list(csv.DictReader(table.open()))
    assert len(rows) == 3 * 3 and {r["index"] for r in rows} == {"mu_star", "mu", "sigma"}
    assert chart.stat().st_size > 1000


def test_tune_several_targets_prints_sentences_and_the_recheck(tmp_path, capsys):
    patch = tmp_path / "patch.json"
    rc = main(["sim", "tune", "--target", "npc_win=0.5±0.3", "--target", "steps=10:300",
               "--knob", "/characters/monster/life=2:10", "--budget", "4", "--games", "20",
               "--fresh", "30", "--workers", "1", "--quiet", "--out", str(tmp_path / "study"),
               "--patch-out", str(patch)])  # fmt: skip
    text = capsys.readouterr().out
    assert rc in (0, 1), text
    assert "the NPC side wins 20–80 % of games" in text
    assert "a game lasts 10–300 steps on average" in text
    assert "Re-played on 30 fresh seeds" in text and "monster life (wounds it takes) = " in text
    assert (tmp_path / "study" / "study.journal").exists()
    if rc == 0:
        assert isinstance(json.loads(patch.read_text())["/characters/monster/life"], int)


def test_single_target_form_still_asks_for_its_options(capsys):
    assert main(["sim", "tune", "--target", "npc_win=0.5±0.02", "--quiet"]) == 2
    assert "--knob" in capsys.readouterr().err


def test_parse_knobs():
    assert parse_knobs(["npcs=2:4", "/priority/base=0.3:0.7"]) == {
        "npcs": (2, 4), "/priority/base": (0.3, 0.7)}  # fmt: skip
    for bad in ("npcs=2", "npcs=a:b", "=1:2"):
        with pytest.raises(ArgumentError, match="--knob"):
            parse_knobs([bad])
