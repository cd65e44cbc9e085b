"""The seams between hexpuzzle modules: one level reader for the CLI, public read-only state."""

from __future__ import annotations

import ast
import copy
import json
import pickle
from pathlib import Path

import pytest

from labkit.cli import main
from labkit.hexpuzzle import Level, LevelError, PuzzleState, campaign, trace_tap

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGN = ROOT / "data" / "levels" / "campaign.json"
LEVEL = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5), ("c", -1, 0, 2)])


def test_validate_reads_a_campaign_file(capsys):
    assert main(["puzzle", "validate", str(CAMPAIGN)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    ids = [lv.id for lv in campaign()]
    assert len(lines) == len(ids) == 24
    for i, (line, level_id) in enumerate(zip(lines, ids)):
        assert line.startswith(f"ok       {CAMPAIGN}[{i}]: {level_id!r}")
        assert line.endswith("solver: solved")


def test_validate_reports_every_bad_level_of_a_list(tmp_path, capsys):
    good = LEVEL.to_dict()
    bad = {**good, "moveLimit": 0}
    path = tmp_path / "levels.json"
    path.write_text(json.dumps([good, bad, bad]))
    assert main(["puzzle", "validate", str(path)]) == 1
    out = capsys.readouterr()
    assert out.out.count("INVALID") == 2 and "/1/moveLimit" in out.out
    assert "2 of 3 level(s) invalid" in out.err


def test_show_and_trace_read_levels_the_same_way(tmp_path, capsys):
    one = tmp_path / "one.json"
    one.write_text(json.dumps([LEVEL.to_dict()]))  # a list holding one level is one level
    assert main(["puzzle", "tap-trace", str(one), "a", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == trace_tap(LEVEL, "a").outcome
    assert main(["puzzle", "tap-trace", str(CAMPAIGN), "t1"]) == 1
    assert "holds 24 levels" in capsys.readouterr().err


def test_the_dead_solvability_scaffold_is_gone():
    source = (ROOT / "labkit" / "hexpuzzle" / "cli" / "__init__.py").read_text()
    names = {n.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}
    assert "_solvability" not in names and "_levels_in" not in names


def test_tile_centres_and_masks_are_read_only():
    with pytest.raises(ValueError, match="read-only"):
        LEVEL.tile_centres[0, 0] = 99.0
    with pytest.raises(ValueError, match="read-only"):
        LEVEL.active[0] = False
    state = PuzzleState(LEVEL)
    with pytest.raises(ValueError, match="read-only"):
        state.active[0] = False
    assert trace_tap(LEVEL, "a").outcome == trace_tap(state, "a").outcome


@pytest.mark.parametrize(
    "duplicate", [copy.copy, copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))]
)
def test_copies_and_pickles_keep_the_arrays_read_only(duplicate):
    level, state = duplicate(LEVEL), duplicate(PuzzleState(LEVEL))
    assert level == LEVEL and state.remaining == ("a", "b", "c")
    for arr in (level.tile_centres, level.active, state.active):
        with pytest.raises(ValueError, match="read-only"):
            arr[0] = 0


def test_the_state_mask_follows_play_and_traces_keep_theirs():
    lvl = Level.hexagon(2, tiles=[("a", 0, 0, 0), ("b", 1, 1, 3)])
    state = PuzzleState(lvl)
    assert state.active.tolist() == [True, True] and lvl.active.tolist() == [True, True]
    judged = state.tap("a")
    assert judged.outcome == "exit"
    assert state.active.tolist() == [False, True]
    assert judged.active.tolist() == [True, True]  # judged before "a" left
    assert lvl.active.tolist() == [True, True]  # the level itself is untouched


def test_boards_cache_tile_paths_through_a_public_method():
    board = LEVEL.board
    made = []
    first = board.memo((9, 9, 9), lambda: made.append(1) or "path")
    again = board.memo((9, 9, 9), lambda: made.append(1) or "other")
    assert first == again == "path" and made == [1]


def test_no_module_reaches_into_another_modules_privates():
    # the three reaches the review found: level._all, state._active, board._paths
    offenders = []
    for path in (ROOT / "labkit" / "hexpuzzle").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in {"_all", "_active", "_paths", "_centres", "_index"}
                and not (isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"})
            ):
                offenders.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert offenders == []


def test_a_bad_level_in_a_campaign_names_its_place(tmp_path, capsys):
    doc = json.loads(CAMPAIGN.read_text())
    doc["levels"][3]["level"]["moveLimit"] = 0
    path = tmp_path / "campaign.json"
    path.write_text(json.dumps(doc))
    assert main(["puzzle", "validate", str(path)]) == 1
    assert "/levels/3/level/moveLimit" in capsys.readouterr().out
    with pytest.raises(LevelError):
        Level.load(path)
