from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from labkit.hexpuzzle import STRAIGHT, Level, LevelError, all_matchings
from labkit.hexpuzzle.coords import (
    rotate_cell,
)
from labkit.hexpuzzle.level import _rotate_tracks, is_matching

from .helpers import random_level

GOOD = {
    "version": 2,
    "id": "my-level",
    "name": "转个方向",
    "rotationEnabled": True,
    "moveLimit": 3,
    "cells": [{"q": 0, "r": 0, "tracks": [3, 4, 5, 0, 1, 2]}, {"q": 1, "r": 0, "tracks": STRAIGHT}],
    "tiles": [{"id": "t0", "q": 0, "r": 0, "dir": 1, "color": 0}],
}


def doc(**changes):
    d = copy.deepcopy(GOOD)
    d["cells"] = [dict(c, tracks=list(c["tracks"])) for c in d["cells"]]
    d.update(changes)
    return d


# --- matchings and rotation (H3) -----------------------------------------------------------


def test_fifteen_matchings():
    ms = all_matchings()
    assert len(set(ms)) == 15 and all(is_matching(m) for m in ms)


@given(st.sampled_from(all_matchings()), st.integers(-12, 12))
def test_rotating_tracks_keeps_a_matching(tracks, k):
    turned = _rotate_tracks(tracks, k % 6)
    assert is_matching(turned)
    assert _rotate_tracks(turned, (-k) % 6) == tracks


def test_rotation_rule_of_h3():
    lvl = random_level(5)
    one = lvl.rotated(1)
    for (q, r), old in lvl.board.tracks.items():
        new = one.board.tracks[rotate_cell(q, r)]
        for i in range(6):
            assert new[(i + 1) % 6] == (old[i] + 1) % 6
    assert one.tiles == lvl.tiles  # the board turns beneath the tiles


@given(st.integers(0, 40), st.integers(-7, 7))
def test_six_rotations_are_identity_and_inverse(seed, k):
    lvl = random_level(seed % 5, radius=2 + seed % 2, n_tiles=3)
    assert lvl.rotated(6) == lvl
    assert lvl.rotated(k).rotated(-k) == lvl
    assert lvl.rotated(k) == lvl.rotated(k + 6)
    assert lvl.rotated(1).rotated(1) is lvl.rotated(2)  # orbit shared (cached paths survive)


def test_asymmetric_board_cannot_rotate():
    lvl = Level.from_json(doc())  # two cells: not six-fold symmetric
    assert not lvl.can_rotate
    with pytest.raises(LevelError, match="symmetric"):
        lvl.rotated(1)


def test_rotation_enabled_false_disables_rotation():
    lvl = Level.hexagon(2, rotation_enabled=False)
    assert lvl.board.symmetric and not lvl.can_rotate


def test_board_constructors():
    assert len(Level.hexagon(2).board) == 19
    assert len(Level.hexagon(3).board) == 37
    assert Level.hexagon(3).can_rotate


@pytest.mark.parametrize("bad", [0, 1000, True, 2.5])
def test_a_level_object_keeps_the_move_limit_of_h2(bad):
    # Level.replace says "validated again": a level that could not be loaded back must not exist.
    level = Level.hexagon(2, tiles=[("a", 0, 0, 0)])
    with pytest.raises(LevelError) as err:
        level.replace(move_limit=bad)
    assert err.value.pointer == "/moveLimit"


# Every rule of a level's tiles, on a level built directly (not loaded): the error names the
# tile's pointer, the rule and the value. (Level files meet most of these rules earlier, at
# parsing; a generated or replaced level meets them here.)
@pytest.mark.parametrize(
    "tiles, message",
    [
        ([("a", 0, 0, 0), ("a", 1, 0, 0)], "/tiles/1/id: duplicate tile id (got 'a')"),
        ([("a", 0, 0, 0), ("b", 5, 0, 0)], "/tiles/1: tile is not on a board cell (got (5, 0))"),
        ([("a", 0, 0, 0), ("b", 0, 0, 1)], "/tiles/1: cell already holds tile 'a' (got (0, 0))"),
        ([("a", 0, 0, 0), ("b", 1, 0, 6)], "/tiles/1/dir: dir must be 0-5 (got 6)"),
        ([("a", 0, 0, 0), ("b", 1, 0, -1)], "/tiles/1/dir: dir must be 0-5 (got -1)"),
        ([("a", 0, 0, 0, 4), ("b", 1, 0, 0)], "/tiles/0/color: color must be 0-3 (got 4)"),
    ],
)
def test_each_tile_rule_names_the_tile_and_the_value(tiles, message):
    from labkit.hexpuzzle.level import Tile

    good = Level.hexagon(1, tiles=[("z", 0, 0, 0)])
    with pytest.raises(LevelError) as info:
        good.replace(tiles=tuple(Tile(*t) for t in tiles))
    assert str(info.value) == message


def test_well_formed_tiles_pass_in_any_order():
    lvl = Level.hexagon(1, tiles=[("b", 1, 0, 5, 3), ("a", 0, 0, 0), ("c", 0, 1, 2)])
    assert [t.id for t in lvl.tiles] == ["b", "a", "c"]
