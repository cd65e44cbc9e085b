"""``labkit mapturn play`` and ``labkit mapturn timeline``."""

from __future__ import annotations

from labkit.cli import main
from labkit.mapturn import example_tower_path


def test_play_prints_the_tick_log_and_saves(tmp_path, capsys):
    save = tmp_path / "s.json"
    assert main(["mapturn", "play", str(example_tower_path()), "--actions", "[focus]RRRR",
                 "--save", str(save)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "[focus]  -> status on (+0)" in out
    assert "F1:9:5:bat             chase" in out and "battle True 3" in out
    assert "clock 6, map turn 6; statuses: focus(1)" in out
    assert main(["mapturn", "play", str(example_tower_path()), "--load", str(save)]) == 0
    assert "clock 6, map turn 6" in capsys.readouterr().out


def test_timeline_prints_a_raster(capsys):
    assert main(["mapturn", "timeline", "--time-costs", "1,2,3", "--ticks", "6"]) == 0
    out = capsys.readouterr().out
    assert "..1..1  2 actions" in out and ".1.1.1  3 actions" in out


def test_bad_input_is_a_clean_error(capsys):
    assert main(["mapturn", "timeline", "--time-costs", "1,-2"]) == 2  # argparse usage error
    assert "--time-costs" in capsys.readouterr().err
    assert main(["mapturn", "play", "missing.json"]) == 1
    assert "file not found" in capsys.readouterr().err
