"""``puzzle funnel`` prints the funnel, writes its CSV and refuses a bad --players."""

from __future__ import annotations

import subprocess
import sys

import pytest

from labkit.hexpuzzle import campaign, fit_skill_model, load_telemetry


@pytest.fixture(scope="module")
def shipped_fit():
    from labkit._data import data_path

    rows = load_telemetry(data_path("telemetry", "progression.csv"), frame=False)
    levels = campaign()
    return levels, rows, fit_skill_model(rows, levels)


def test_cli_prints_the_funnel_and_writes_csv(tmp_path, shipped_fit):
    from labkit.hexpuzzle.shipped_campaign import campaign_path

    _, _, model = shipped_fit
    model.save(tmp_path / "model.json")
    out = tmp_path / "funnel.csv"
    res = subprocess.run([sys.executable, "-m", "labkit", "puzzle", "funnel",
                          str(campaign_path()), str(tmp_path / "model.json"), "--players", "500",
                          "--draws", "4", "--out", str(out)],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "most players leave at main-" in res.stdout and "main-24" in res.stdout
    header = out.read_text().splitlines()[0].split(",")
    assert header[:4] == ["position", "level", "reach", "reach_low"]
    assert len(out.read_text().splitlines()) == 25
    bad = subprocess.run([sys.executable, "-m", "labkit", "puzzle", "funnel",
                          str(campaign_path()), str(tmp_path / "model.json"), "--players", "0"],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert bad.returncode != 0 and "--players" in bad.stderr


def test_cli_plays_the_datas_attempt_cap_or_the_one_asked_for(tmp_path, shipped_fit):
    from labkit.hexpuzzle.shipped_campaign import campaign_path

    _, rows, model = shipped_fit
    model.save(tmp_path / "model.json")
    cap = int(rows["attempt"].max())
    base = [sys.executable, "-m", "labkit", "puzzle", "funnel", str(campaign_path()),
            str(tmp_path / "model.json"), "--players", "300", "--draws", "3"]  # fmt: skip
    res = subprocess.run(base, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert f"{cap} attempts per level" in res.stdout.splitlines()[0]
    assert "check" in res.stdout.splitlines()[1]  # the file keeps its data's counts
    res = subprocess.run(base + ["--attempts", "7"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and "7 attempts per level" in res.stdout.splitlines()[0]
    bad = subprocess.run(base + ["--attempts", "0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "--attempts" in bad.stderr
