"""labkit puzzle telemetry / calibrate, through register_calibration_commands."""

from __future__ import annotations

import argparse
import json

from labkit.hexpuzzle.cli.calibration import register_calibration_commands
from labkit.hexpuzzle.difficulty.telemetry import load_telemetry


def run(argv):
    parser = argparse.ArgumentParser()
    register_calibration_commands(parser.add_subparsers(dest="cmd", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_telemetry_then_calibrate(tmp_path, capsys):
    from labkit.hexpuzzle.shipped_campaign import campaign

    levels = campaign()[:10]
    files = []
    for lv in levels:
        files.append(str(tmp_path / f"{lv.id}.json"))
        lv.save(files[-1])
    out = tmp_path / "t.csv"
    assert run(["telemetry", "--out", str(out), "--levels", *files, "--players", "2"]) == 0
    table = load_telemetry(out, frame=False)
    assert set(table["level"].tolist()) == {lv.id for lv in levels}
    assert len(set(table["player"].tolist())) == 6
    capsys.readouterr()
    report = tmp_path / "cal.json"
    code = run(["calibrate", str(out), "--levels", str(tmp_path), "--boot", "10",
                "--json", str(report)])  # fmt: skip
    text = capsys.readouterr().out
    assert code == 0 and "R² =" in text and "main-01" in text
    doc = json.loads(report.read_text())
    assert doc["format"] == "labkit.hexpuzzle.calibration" and doc["n_levels"] == 10
