"""LevelWorkshop through its Python-side logic (no browser)."""

from __future__ import annotations

from labkit.hexpuzzle import Level
from labkit.hexpuzzle.coords import centre
from labkit.hexpuzzle.difficulty.scoring import score


def make(*args, **kw):
    from labkit.widgets import LevelWorkshop

    return LevelWorkshop(*args, **kw)


def test_build_a_level_by_clicking_and_see_it_scored():
    ws = make(radius=3)
    assert len(ws.level.board) == 37 and "no tiles" in ws.status.value
    ws.tool.value = "tile"
    assert ws.click(*centre(1, 1)) == (1, 1)
    ws.click(*centre(0, 0))
    assert [t.id for t in ws.level.tiles] == ["t0", "t1"]
    assert ws.move_limit.value == 10  # adding tiles leaves the limit alone
    ws.move_limit.value = 2
    ws.tool.value = "turn"
    for _ in range(5):
        ws.click(*centre(0, 0))
    ws.tool.value = "colour"
    ws.click(*centre(0, 0))
    assert ws.level.tile("t1").dir == 5 and ws.level.tile("t1").color == 1
    expected = score(Level.hexagon(3, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=2))
    assert ws.difficulty.total == expected.total and f"<b>{expected.total}</b>" in ws.status.value
    assert "solved" in ws.status.value
    assert ws.click(40.0, 40.0) is None


def test_tracks_cells_and_limits():
    ws = make()
    ws.toggle_tile(0, 0)
    ws.matching.value = (1, 0, 3, 2, 5, 4)
    ws.tool.value = "tracks"
    ws.apply(0, -1)
    assert ws.level.board.tracks[(0, -1)] == (1, 0, 3, 2, 5, 4)
    ws.tool.value = "cell"
    ws.apply(0, 0)  # removing a cell removes its tile
    assert (0, 0) not in ws.level.board and not ws.level.tiles
    ws.apply(3, 0)
    assert not ws.level.can_rotate and "rotation off" in ws.status.value
    assert not ws.paint_cell(5, 0) and "outside hex radius 4" in ws.status.value
    for cell in list(ws.cells):
        ws.paint_cell(*cell)
    assert ws.level is None and "invalid" in ws.status.value and "/cells" in ws.status.value


def test_move_limit_slider_changes_pressure_and_status():
    ws = make()
    for cell in [(0, 0), (1, 1), (-1, 0)]:
        ws.toggle_tile(*cell)
    ws.move_limit.value = 8
    loose = ws.difficulty.parts["pressure"]
    ws.move_limit.value = 3
    assert ws.difficulty.parts["pressure"] > loose
    ws.move_limit.value = 2
    assert ws.difficulty.status == "too_few_steps" and "too few steps" in ws.status.value


def test_save_and_load_back(tmp_path):
    from labkit.hexpuzzle.shipped_campaign import campaign

    original = campaign()[5]
    ws = make(original)
    assert ws.level == original
    ws.toggle_tile(*next(c for c in ws.cells if c not in ws.tiles))
    path = tmp_path / "harder.json"
    ws.path.value = str(path)
    ws.save_button.click()
    assert Level.load(path) == ws.level and "saved" in ws.status.value
    other = make(path)
    assert other.level == ws.level and len(other.level.tiles) == len(original.tiles) + 1
    ws.path.value = str(tmp_path / "missing.json")
    ws.load_button.click()
    assert "missing.json" in ws.status.value


def test_undo_and_redo_step_through_every_edit():
    ws = make()
    start = ws.document()
    ws.toggle_tile(0, 0)
    ws.tool.value = "turn"
    ws.apply(0, 0)
    ws.move_limit.value = 4
    after = ws.document()
    assert ws.paint_cell(9, 0) is False  # refused: not an edit, nothing to undo
    assert ws.undo() and ws.move_limit.value == 10
    assert ws.undo() and ws.level.tile("t0").dir == 0
    assert ws.undo() and ws.document() == start and not ws.undo()
    assert ws.redo() and ws.redo() and ws.redo() and not ws.redo()
    assert ws.document() == after
    ws.undo_button.click()
    assert ws.move_limit.value == 10 and ws.redo_button.click() is None
    assert ws.document() == after
    ws.undo()
    ws.toggle_tile(1, 0)  # a new edit drops what could be redone
    assert not ws.redo()


def test_the_move_limit_changes_only_when_the_user_changes_it():
    ws = make()
    ws.move_limit.value = 3
    for cell in [(0, 0), (1, 0), (-1, 0), (0, 1)]:
        ws.toggle_tile(*cell)
    assert ws.move_limit.value == 3 and ws.level.move_limit == 3
    ws.toggle_tile(0, 1)
    assert ws.move_limit.value == 3
    # four tiles, limit 3: the status says what the limit is short of
    ws.toggle_tile(0, 1)
    assert "move limit 3 is below the 4 operations" in ws.status.value
    assert "(4 taps + 0 rotations)" in ws.status.value


def test_unsolvable_says_which_tiles_can_never_leave():
    # Two tiles facing each other on a board that cannot turn: each blocks the other.
    facing = Level.hexagon(2, tiles=[("a", 0, 0, 0), ("b", 0, -1, 3)], rotation_enabled=False)
    ws = make(facing)
    assert ws.difficulty.solution.status == "unsolvable"
    assert "tiles a, b can never leave: they block each other" in ws.status.value
    assert "cannot turn" in ws.status.value
    # A tile whose track never reaches the edge, in any orientation, even alone.
    tracks = {(-1, 0): (5, 4, 3, 2, 1, 0), (-1, 1): (1, 0, 3, 2, 5, 4),
              (0, -1): (5, 4, 3, 2, 1, 0), (0, 0): (1, 0, 3, 2, 5, 4),
              (0, 1): (1, 0, 5, 4, 3, 2), (1, -1): (1, 0, 3, 2, 5, 4),
              (1, 0): (2, 3, 0, 1, 5, 4)}  # fmt: skip
    doc = {"version": 2, "id": "loop", "name": "loop", "rotationEnabled": True, "moveLimit": 5,
           "cells": [{"q": q, "r": r, "tracks": list(t)} for (q, r), t in tracks.items()],
           "tiles": [{"id": "ring", "q": 0, "r": 0, "dir": 5, "color": 0}]}  # fmt: skip
    ws = make(Level.from_json(doc))
    assert ws.stuck_tiles() == ["ring"]
    assert "tile ring can never leave: even alone on the board" in ws.status.value
