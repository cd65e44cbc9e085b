"""Tile paths, tap outcomes and the game rules (SPEC H4-H6)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from labkit import ArgumentError
from labkit.hexpuzzle import Level, LevelError, PuzzleError, PuzzleState, tile_path, trace_tap
from labkit.hexpuzzle.coords import centre, port_midpoint

from .helpers import random_level, ring_loop_level

# --- paths (H4) ----------------------------------------------------------------------------


def test_path_shape_straight_legs_and_exit_run():
    lvl = Level.hexagon(2)
    p = tile_path(lvl.board, 0, 0, 2)  # down-right: (1,0), (2,0), then off the board
    assert [v[0] for v in p.visits] == [(1, 0), (2, 0)]
    assert p.points.shape == (1 + 1 + 2 * 20 + 1, 2)
    assert np.allclose(p.points[0], centre(0, 0))
    assert np.allclose(p.points[1], port_midpoint(0, 0, 2))
    exit_mid = port_midpoint(2, 0, 2)
    assert np.allclose(p.points[-2], exit_mid)
    assert math.dist(p.points[-1], exit_mid) == pytest.approx(2.0)
    assert p.turns == 0 and p.outcome == "exit"


def test_tile_at_the_rim_heading_out_leaves_directly():
    p = tile_path(Level.hexagon(2).board, 0, -2, 0)
    assert (
        p.visits == ()
        and p.points.shape == (3, 2)
        and p.length == pytest.approx(0.866 + 2, abs=1e-3)
    )


def test_bezier_track_follows_h4_control_points():
    lvl = Level.hexagon(1, tracks={c: [1, 0, 3, 2, 5, 4] for c in Level.hexagon(1).board.cells})
    p = tile_path(lvl.board, 0, 0, 3)  # enters (0,1) through port 0, leaves through port 1
    (cell, entry, exit) = p.visits[0]
    assert (cell, entry, exit) == ((0, 1), 0, 1)
    assert p.outcome == "loop" and p.turns == 3  # three sharp turns close a small loop
    c = np.array(centre(0, 1))
    m0, m1 = np.array(port_midpoint(0, 1, 0)), np.array(port_midpoint(0, 1, 1))
    ctrl = [m0, m0 + 0.5 * (c - m0), m1 + 0.5 * (c - m1), m1]
    t = 0.35  # sample 7 of 20
    want = sum(
        w * q for w, q in zip([(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3], ctrl)
    )
    assert np.allclose(p.points[1 + 7], want)


def test_loop_is_detected_and_covers_one_cycle():
    lvl = ring_loop_level()
    p = tile_path(lvl.board, 0, 0, 0)
    assert p.outcome == "loop"
    assert [v[0] for v in p.visits] == [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, 0)]
    assert np.allclose(p.points[-1], port_midpoint(0, -1, 3))  # closes where the cycle began
    assert trace_tap(lvl, "spin").outcome == "loop"


def test_loop_that_touches_a_tile_is_blocked():
    lvl = ring_loop_level(tiles=(("spin", 0, 0, 0), ("rock", 1, 0, 0)))
    t = trace_tap(lvl, "spin")
    assert t.outcome == "blocked" and t.blocker == "rock"


def test_paths_are_cached_per_board_and_read_only():
    lvl = random_level(1)
    t = lvl.tiles[0]
    a = tile_path(lvl.board, t.q, t.r, t.dir)
    assert tile_path(lvl.rotated(6).board, t.q, t.r, t.dir) is a
    with pytest.raises(ValueError):
        a.points[0, 0] = 1.0


# --- tap outcome (H5, H6) ------------------------------------------------------------------


def test_seed_example_grazing_contact_blocks():
    lvl = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 3)])
    route = [v[0] for v in tile_path(lvl.board, 1, 1, 0).visits]
    assert (0, 0) not in route
    t = trace_tap(lvl, "mover")
    assert t.outcome == "blocked" and t.blocker == "post"
    # Contact where x = 1.5 meets the hexagon's slanted edge: y = (1.76 - 1.5) * √3.
    assert t.point == pytest.approx((1.5, (1.76 - 1.5) * 3**0.5))
    assert t.contact == pytest.approx(centre(1, 1)[1] - t.point[1])
    assert np.allclose(t.travelled()[-1], t.point)


@pytest.mark.parametrize("d", range(6))
def test_neighbours_do_not_touch_at_rest_but_block_when_approached(d):
    from labkit.hexpuzzle.coords import neighbour, opposite

    near = neighbour(0, 0, d)
    toward = Level.hexagon(2, tiles=[("a", 0, 0, d), ("b", *near, d)])
    t = trace_tap(toward, "a")
    # Gap between touching hexagons: √3 (centre distance) − 1.76·√3/2 (collision apothem).
    assert t.outcome == "blocked" and t.contact == pytest.approx(3**0.5 - 0.88 * 3**0.5)
    away = Level.hexagon(2, tiles=[("a", 0, 0, opposite(d)), ("b", *near, d)])
    assert trace_tap(away, "a").contact is None


def test_every_other_tile_counts_but_not_itself_nor_removed_ones():
    lvl = Level.hexagon(2, tiles=[("a", 0, 1, 0), ("b", 0, -2, 5)])
    assert trace_tap(lvl, "a").blocker == "b"
    game = PuzzleState(lvl)
    assert game.tap("b").outcome == "exit"
    assert trace_tap(game, "a").outcome == "exit"
    with pytest.raises(LevelError, match="already left"):
        trace_tap(game, "b")
    with pytest.raises(LevelError, match="no tile"):
        trace_tap(lvl, "zzz")
    with pytest.raises(TypeError):
        trace_tap("level.json", "a")


def test_a_bad_tile_id_is_an_argument_error_naming_it():
    lvl = Level.hexagon(2, tiles=[("a", 0, 1, 0), ("b", 0, -2, 5)])
    with pytest.raises(ArgumentError) as err:
        trace_tap(lvl, "zzz")
    assert str(err.value) == "tile_id: no tile with this id (got 'zzz')"
    assert err.value.argument == "tile_id" and err.value.pointer is None
    game = PuzzleState(lvl)
    game.tap("b")
    with pytest.raises(
        ArgumentError, match=r"^tile_id: this tile has already left the board \(got 'b'\)$"
    ):
        trace_tap(game, "b")


def test_trace_matches_first_contact_over_the_other_tiles():
    from labkit.hexpuzzle import first_contact

    for seed in range(10):
        lvl = random_level(seed, radius=3, n_tiles=15)
        for i, tile in enumerate(lvl.tiles):
            t = trace_tap(lvl, tile.id)
            others = np.delete(lvl.tile_centres, i, axis=0)
            s, j = first_contact(t.path, others)
            if j < 0:
                assert t.outcome in ("exit", "loop") and t.contact is None
            else:
                assert t.outcome == "blocked" and t.contact == pytest.approx(s)
                assert t.blocker == [x.id for x in lvl.tiles if x.id != tile.id][j]


# --- the game (H6) -------------------------------------------------------------------------


def test_steps_queue_and_status():
    lvl = Level.hexagon(2, tiles=[("a", 0, 1, 0), ("b", 0, -2, 5), ("c", 2, 0, 2)], move_limit=3)
    game = PuzzleState(lvl)
    done = game.tap_queue(["a", "b", "c"])  # a is blocked by b: the queue is cleared
    assert [t.outcome for t in done] == ["blocked"] and game.steps_left == 2
    done = game.tap_queue(["b", "b", "a"])  # the second "b" is gone: dropped without cost
    assert [t.tile for t in done] == ["b", "a"] and game.steps_left == 0
    assert game.status == "lost" and game.remaining == ("c",)
    with pytest.raises(PuzzleError, match="over"):
        game.tap("c")
    game.undo()
    assert game.steps_left == 2 and game.remaining == ("a", "b", "c")
    game.undo()
    assert game.steps_left == 3 and not game.can_undo
    assert [t.outcome for t in game.tap_queue(["c", "b", "a"])] == ["exit"] * 3
    assert game.status == "won"


def test_unknown_tile_in_queue_fails_before_anything_moves():
    game = PuzzleState(Level.hexagon(2, tiles=[("a", 0, 0, 0)]))
    with pytest.raises(LevelError):
        game.tap_queue(["a", "nope"])
    assert game.remaining == ("a",) and game.steps_used == 0


def test_rotation_costs_no_step_and_changes_the_rules():
    lvl = Level.hexagon(2, tiles=[("a", 0, 0, 0), ("b", 0, -1, 0)], tracks=[1, 0, 3, 2, 5, 4])
    game = PuzzleState(lvl)
    before = trace_tap(game, "b").visits
    game.rotate(+1)
    assert game.steps_left == lvl.move_limit and game.rotations == 1 and game.orientation == 1
    assert trace_tap(game, "b").visits != before
    game.rotate(-1)
    assert game.orientation == 0 and game.rotations == 2
    with pytest.raises(ArgumentError, match="step: rotate one step"):
        game.rotate(2)


def test_fixed_boards_refuse_rotation():
    with pytest.raises(PuzzleError, match="cannot rotate"):
        PuzzleState(Level.hexagon(2, rotation_enabled=False, tiles=[("a", 0, 0, 0)])).rotate(1)


def test_restart_is_a_fresh_load_and_undo_needs_history():
    lvl = random_level(4)
    game = PuzzleState(lvl)
    with pytest.raises(PuzzleError, match="nothing to undo"):
        game.undo()
    game.rotate(1)
    game.tap(lvl.tiles[0].id)
    game.restart()
    assert game.snapshot() == PuzzleState(lvl).snapshot() and not game.can_undo
    assert game.level is lvl


LEVELS = [random_level(s, n_tiles=n, move_limit=m) for s, n, m in [(0, 5, 7), (1, 7, 9), (2, 4, 4)]]


class GameMachine(RuleBasedStateMachine):
    """Undo restores exactly; restart equals a fresh load; six turns are the identity."""

    @initialize(level=st.sampled_from(LEVELS))
    def start(self, level):
        self.level = level
        self.game = PuzzleState(level)
        self.stack = []

    def _act(self, action):
        before = self.game.snapshot()
        acted = action()
        if acted:
            self.stack.append(before)

    @precondition(lambda self: self.game.status == "playing")
    @rule(data=st.data())
    def tap(self, data):
        tile = data.draw(st.sampled_from(self.game.remaining))
        used = self.game.steps_used
        self._act(lambda: self.game.tap(tile))
        assert self.game.steps_used == used + 1

    @precondition(lambda self: self.game.status == "playing")
    @rule(data=st.data())
    def queue(self, data):
        ids = data.draw(st.lists(st.sampled_from([t.id for t in self.level.tiles]), max_size=4))
        used = self.game.steps_used
        done = []
        self._act(lambda: done.extend(self.game.tap_queue(ids)) or done)
        assert self.game.steps_used == used + len(done)
        assert all(t.outcome == "exit" for t in done[:-1])

    @precondition(lambda self: self.game.status == "playing")
    @rule(step=st.sampled_from([1, -1]))
    def rotate(self, step):
        self._act(lambda: self.game.rotate(step) or True)

    @precondition(lambda self: self.game.status == "playing")
    @rule()
    def six_turns(self):
        snap = self.game.snapshot()
        outcomes = [trace_tap(self.game, t).outcome for t in self.game.remaining]
        for _ in range(6):
            self._act(lambda: self.game.rotate(1) or True)
        assert self.game.orientation == snap.orientation
        assert self.game.rotations == snap.rotations + 6
        assert [trace_tap(self.game, t).outcome for t in self.game.remaining] == outcomes

    @precondition(lambda self: self.stack)
    @rule()
    def undo(self):
        self.game.undo()
        assert self.game.snapshot() == self.stack.pop()

    @rule()
    def restart(self):
        self.game.restart()
        self.stack.clear()
        assert self.game.snapshot() == PuzzleState(self.level).snapshot()

    @invariant()
    def consistent(self):
        g = self.game
        assert 0 <= g.steps_used <= self.level.move_limit
        assert g.status == (
            "won" if not g.remaining else "lost" if g.steps_left == 0 else "playing"
        )
        assert g.can_undo == bool(self.stack)


TestGameMachine = GameMachine.TestCase
TestGameMachine.settings = settings(max_examples=40, stateful_step_count=25, deadline=None)


# --- display and CLI -----------------------------------------------------------------------


def test_objects_render_svg_with_sweep_artists():
    from labkit.hexpuzzle import draw

    lvl = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 3)])
    t = trace_tap(lvl, "mover")
    for obj in (lvl, PuzzleState(lvl), t):
        text = obj._repr_svg_()
        assert text.lstrip().startswith("<?xml") and "</svg>" in text
    from matplotlib.figure import Figure

    plot = draw.BoardPlot(Figure().add_subplot())
    plot.show_level(lvl)
    assert len(plot.tiles.get_paths()) == 2 and len(plot.tracks.get_segments()) == 19 * 3
    plot.show_trace(t)
    assert plot.minkowski.get_visible()
    assert np.allclose(plot.contact.get_xydata()[0], t.point)
    assert np.allclose(plot.scrub(0.0), centre(1, 1))
    assert np.allclose(plot.scrub(1.0), t.point)


def test_cli_validate_show_trace(tmp_path, capsys):
    import json

    from labkit.cli import main

    good = tmp_path / "good.json"
    Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5)], id="g").save(good)
    bad = tmp_path / "bad.json"
    doc = json.loads(good.read_text())
    doc["cells"][3]["tracks"] = [1, 1, 3, 2, 5, 4]
    bad.write_text(json.dumps(doc))
    assert main(["puzzle", "validate", str(good)]) == 0
    assert main(["puzzle", "validate", str(good), str(bad)]) == 1
    out = capsys.readouterr()
    assert "ok       " in out.out and "INVALID  " in out.out and "/cells/3/tracks" in out.out
    assert "1 of 2" in out.err
    svg = tmp_path / "out.svg"
    assert main(["puzzle", "show", str(good), "--svg", str(svg), "--tap", "mover"]) == 0
    assert svg.read_text().count("</svg>") == 1
    assert main(["puzzle", "tap-trace", str(good), "mover"]) == 0
    assert "blocked by 'post'" in capsys.readouterr().out
    assert main(["puzzle", "tap-trace", str(good), "post", "--json", "--orientation", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] in ("exit", "blocked", "loop")
    # a tile id the level lacks is a bad argument: exit 2, like argparse's own refusals
    assert main(["puzzle", "tap-trace", str(good), "ghost"]) == 2
    capsys.readouterr()
    # the old verb, kept for one release: the same answer, a one-line note on stderr
    assert main(["puzzle", "tap-trace", str(good), "post", "--json"]) == 0
    new = capsys.readouterr()
    assert main(["puzzle", "trace", str(good), "post", "--json"]) == 0
    old = capsys.readouterr()
    assert old.out == new.out and new.err == ""
    assert old.err == (
        "labkit puzzle trace is renamed labkit puzzle tap-trace: use the new verb "
        "(the old one goes in the next release)\n"
    )


def test_the_old_trace_verb_is_not_listed(capsys):
    from labkit.cli import main

    assert main(["puzzle", "--help"]) == 0
    listing = capsys.readouterr().out
    assert "tap-trace" in listing and "\n    trace " not in listing


def test_shipped_levels_load_and_validate():
    from pathlib import Path

    from labkit.cli import main

    files = sorted((Path(__file__).resolve().parents[2] / "data" / "levels").glob("0*.json"))
    assert len(files) >= 4
    assert main(["puzzle", "validate", *map(str, files)]) == 0
