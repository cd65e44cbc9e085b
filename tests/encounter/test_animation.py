"""Animating a played game: ``sim animate`` writes the same GIF twice, and the trace viewer saves
that GIF too."""

from __future__ import annotations

import hashlib

import pytest
from PIL import Image

pytestmark = pytest.mark.filterwarnings("ignore:Animation was deleted without rendering")


def sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(autouse=True)
def _agg(monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")


def test_sim_animate_cli_and_trace_viewer_save(tmp_path):
    from labkit.cli import main
    from labkit.encounter import SimulationTrace
    from labkit.widgets import TraceViewer

    game = tmp_path / "game.json"
    assert main(["sim", "run", "--seed", "2", "--max-steps", "10", "--out", str(game)]) == 0
    out = tmp_path / "game.gif"
    assert main(["sim", "animate", str(game), "--out", str(out), "--fps", "5"]) == 0
    again = tmp_path / "again.gif"
    assert main(["sim", "animate", str(game), "--out", str(again), "--fps", "5"]) == 0
    assert sha(out) == sha(again)
    loaded = SimulationTrace.load(game)
    with Image.open(out) as im:
        assert 1 < im.n_frames <= loaded.steps + 1  # identical frames are merged
    viewer = TraceViewer(str(game))
    viewer.save(str(tmp_path / "viewer.gif"), fps=5)
    assert sha(tmp_path / "viewer.gif") == sha(out)
    assert main(["sim", "animate", str(game), "--out", str(tmp_path / "x.txt")]) == 2
