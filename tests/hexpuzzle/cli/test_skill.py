"""``labkit puzzle skill`` and the shipped model."""

from __future__ import annotations

import subprocess
import sys

import pytest

from labkit._data import data_path
from labkit.hexpuzzle import SkillModel, shipped_skill_model
from labkit.hexpuzzle.shipped_campaign import campaign_path


def run(*args):
    return subprocess.run([sys.executable, "-m", "labkit", "puzzle", "skill", *args],
                          capture_output=True, text=True, timeout=600)  # fmt: skip


def test_skill_command_prints_the_report_and_saves_the_model(tmp_path):
    out = tmp_path / "model.json"
    res = run(str(data_path("telemetry", "sample.csv")), str(campaign_path()), "--folds", "3",
              "--out", str(out))  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "calibrate index" in res.stdout and "main-24" in res.stdout
    model = SkillModel.load(out)
    assert len(model.level_ids) == 24 and set(model.weights) >= {"baseline", "turns"}


def test_skill_command_errors_are_one_line(tmp_path):
    res = run(str(tmp_path / "missing.csv"), str(campaign_path()))
    assert res.returncode != 0 and "missing.csv" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    res = run(str(data_path("telemetry", "sample.csv")), str(campaign_path()), "--folds", "1")
    assert res.returncode != 0 and "--folds" in res.stderr


def test_shipped_model_ranks_the_campaign():
    model = shipped_skill_model()
    assert model.level_ids[0] == "main-01" and len(model.player_ids) > 300
    s = [model.success(i) for i in model.level_ids]
    assert s[0] > 0.95 > 0.3 > s[-1]
    lo, hi = model.difficulty_ci.T
    assert (lo < model.difficulty).all() and (model.difficulty < hi).all()
    with pytest.raises(Exception, match="no such level"):
        model.success("nowhere")


def test_telemetry_command_progression_mode(tmp_path):
    from labkit.hexpuzzle import load_telemetry

    out = tmp_path / "t.csv"
    res = subprocess.run(
        [sys.executable, "-m", "labkit", "puzzle", "telemetry", "--out", str(out), "--players",
         "3", "--seed", "4", "--mode", "progression"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    table = load_telemetry(out, frame=False)
    first = table[table["attempt"] == 1]
    assert len(set(first["player"].tolist())) == 9
    assert "progression mode" in out.read_text().splitlines()[1]
    per_player = [(first["player"] == p).sum() for p in set(first["player"].tolist())]
    assert min(per_player) < 24  # somebody quit
