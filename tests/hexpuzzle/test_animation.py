"""Animations: a solution played tap by tap, a sweep scrubbed; GIF files are identical for the
same input (also from another process), MP4 only with ffmpeg."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from labkit import ArgumentError
from labkit.hexpuzzle import Level, animate, collision_animation, save_animation, solve, trace_tap
from labkit.hexpuzzle.coords import centre
from labkit.hexpuzzle.draw import OUTCOME_COLOURS

# "a" is blocked by "b" at first; the solver clears c, b, then a.
pytestmark = pytest.mark.filterwarnings("ignore:Animation was deleted without rendering")

LEVEL = Level.hexagon(2, tiles=[("a", 1, 1, 5), ("b", 0, 0, 5), ("c", -1, 0, 5)], id="three",
                      move_limit=5)  # fmt: skip


def sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(autouse=True)
def _agg(monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")


def test_the_plan_plays_the_solution_tap_by_tap():
    solution = solve(LEVEL)
    assert solution.solved
    anim = animate(LEVEL, frames_per_tap=5, size=3)
    plan = anim.plan
    taps = [a for a in solution.actions if a.kind == "tap"]
    assert len(plan) == 4 + len(taps) * (5 + 2 + 4)
    assert plan[0].title.startswith("three · start") and plan[-1].title.endswith("won")
    with_turn = animate(LEVEL, [("rotate", 1), "c", "b", "a"], frames_per_tap=5, size=3).plan
    assert len(with_turn) == 4 + 4 + 3 * (5 + 2 + 4)
    turned = with_turn[5].title
    assert turned.startswith("three · 1: rotate +1") and "orientation 1" in turned
    first = next(f for f in plan if f.trace is not None)
    assert first.trace.tile == taps[0].arg and first.fraction == 0.0
    tile = LEVEL.tile(taps[0].arg)
    assert first.active[LEVEL.tile_index(tile.id)] == np.False_  # drawn as the moving hexagon
    sweep = [f.fraction for f in plan if f.trace is first.trace]
    assert sweep[:5] == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_the_swept_hexagon_moves_along_the_trace():
    anim = animate(LEVEL, [("tap", "a")], frames_per_tap=4, size=3)
    judged = trace_tap(LEVEL, "a")
    assert judged.outcome == "blocked"
    centres = []
    for i, f in enumerate(anim.plan):
        if f.trace is None:
            continue
        anim._func(i)
        centres.append(np.asarray(anim.fig.axes[0].patches[-1].get_xy())[:6].mean(axis=0))
    assert np.allclose(centres[0], centre(1, 1))  # starts on its own cell
    assert np.allclose(centres[3], judged.position(judged.length))  # ends where it stops
    line = anim.fig.axes[0].lines[1]  # the travelled path, coloured by outcome
    assert line.get_color() == OUTCOME_COLOURS[judged.outcome]


def test_bad_actions_and_unsolvable_levels_are_named():
    with pytest.raises(ArgumentError, match="actions\\[0\\]"):
        animate(LEVEL, [("jump", "a")])
    stuck = Level.hexagon(1, tiles=[("a", 0, 0, 0), ("b", 0, -1, 3)], id="stuck")
    if not solve(stuck).solved:
        with pytest.raises(ArgumentError, match="actions"):
            animate(stuck)
    with pytest.raises(ArgumentError, match="must end in .gif or .mp4"):
        save_animation(animate(LEVEL, size=2), "out.avi")


def test_gif_is_deterministic_and_shows_the_play(tmp_path):
    one, two = tmp_path / "one.gif", tmp_path / "two.gif"
    save_animation(animate(LEVEL, frames_per_tap=4, size=3), one, fps=8, dpi=50)
    save_animation(animate(LEVEL, frames_per_tap=4, size=3), two, fps=8, dpi=50)
    assert sha(one) == sha(two)
    code = (
        "from labkit.hexpuzzle import animate, save_animation;"
        "from tests.hexpuzzle.test_animation import LEVEL;"
        f"save_animation(animate(LEVEL, frames_per_tap=4, size=3), {str(tmp_path / 'three.gif')!r},"
        " fps=8, dpi=50)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert sha(tmp_path / "three.gif") == sha(one)  # another process, same bytes
    with Image.open(one) as im:
        assert im.size == (150, 150)
        assert im.n_frames > 5
        im.seek(0)
        start = np.asarray(im.convert("RGB"))
        im.seek(im.n_frames - 1)
        end = np.asarray(im.convert("RGB"))
    assert (start != end).any()  # tiles left the board


def test_collision_animation_and_the_collision_viewer(tmp_path):
    from labkit.widgets import CollisionViewer

    judged = trace_tap(LEVEL, "a")
    anim = collision_animation(judged, frames=6, size=3)
    assert [f.fraction for f in anim.plan[:6]] == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    viewer = CollisionViewer([LEVEL])
    viewer.select_tile("a")
    viewer.save(tmp_path / "viewer.gif", frames=6)
    save_animation(collision_animation(judged, frames=6), tmp_path / "direct.gif", fps=15)
    assert sha(tmp_path / "viewer.gif") == sha(tmp_path / "direct.gif")


def test_mp4_without_ffmpeg_says_so(tmp_path, monkeypatch):
    # the machine may have ffmpeg (make test installs it): take it away for this test
    monkeypatch.setattr("labkit._animation.shutil.which", lambda name: None)
    with pytest.raises(ArgumentError, match="ffmpeg"):
        save_animation(animate(LEVEL, size=2), tmp_path / "x.mp4")
    assert not list(tmp_path.iterdir())


def test_mp4_with_ffmpeg_is_deterministic(tmp_path):
    for name in ("a.mp4", "b.mp4"):
        save_animation(animate(LEVEL, frames_per_tap=3, size=2), tmp_path / name, dpi=50)
    assert sha(tmp_path / "a.mp4") == sha(tmp_path / "b.mp4")
