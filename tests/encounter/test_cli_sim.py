"""``labkit sim run|replay|batch``."""

from __future__ import annotations

import csv
import json

from labkit.cli import main
from labkit.encounter.records.trace import SimulationTrace


def test_run_writes_a_trace_that_replays(tmp_path, capsys):
    out = tmp_path / "t.json"
    rc = main(["sim", "run", "--map-seed", "3", "--seed", "4", "--npcs", "2", "--monsters", "2",
               "--width", "5", "--height", "4", "--difficulty", "2,1", "--max-steps", "150",
               "--snapshots", "--out", str(out), "--journal", "3"])  # fmt: skip
    assert rc == 0
    text = capsys.readouterr().out
    assert "saved" in text and "spawn" in text
    t = SimulationTrace.load(out)
    assert (t.settings.map_seed, t.settings.seed, t.settings.difficulty) == (3, 4, (2, 1))
    assert t.snapshots is not None and len(t.snapshots) == t.steps
    assert main(["sim", "replay", str(out)]) == 0
    assert "no divergence" in capsys.readouterr().out


def test_replay_of_an_edited_trace_exits_1_with_the_divergence(tmp_path, capsys):
    out = tmp_path / "t.json"
    assert main(["sim", "run", "--seed", "1", "--format", "2", "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    k = next(i for i, e in enumerate(doc["events"]) if e["category"] == "decision")
    doc["events"][k]["state"]["action"] = "dance"
    out.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["sim", "replay", str(out)]) == 1
    text = capsys.readouterr().out
    assert f"first divergence at event {k}" in text and "dance" in text


def test_bad_input_is_a_clear_error(tmp_path, capsys):
    assert main(["sim", "run", "--difficulty", "1"]) == 2  # argparse's usage error
    assert "--difficulty" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "labkit.encounter.trace", "version": 9}')
    assert main(["sim", "replay", str(bad)]) == 1
    assert "/version" in capsys.readouterr().err


def test_batch_writes_csv(tmp_path, capsys):
    out = tmp_path / "r.csv"
    rc = main(["sim", "batch", "--seeds", "0:6", "--workers", "2", "--quiet",
               "--balance", "/characters/monster/life=3", "--out", str(out)])  # fmt: skip
    assert rc == 0
    assert "6 games" in capsys.readouterr().out
    rows = list(csv.DictReader(out.open()))
    assert [r["seed"] for r in rows] == [str(i) for i in range(6)]
