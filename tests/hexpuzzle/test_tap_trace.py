"""A tap's trace (SPEC H5, H6): the first contact over the other tiles, and its errors."""

from __future__ import annotations

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import Level, LevelError, PuzzleState, tile_path, trace_tap
from labkit.hexpuzzle.coords import centre
from tests.hexpuzzle.helpers import random_level


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
