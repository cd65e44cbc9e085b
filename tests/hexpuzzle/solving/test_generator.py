"""Generator (SPEC H8): backwards placement is a solution, seeded reproducibility, filtering."""

from __future__ import annotations

import json

import numpy as np
import pytest

from labkit.hexpuzzle.game import PuzzleState
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.generator import (
    GeneratorError,
    generate,
    generate_many,
    place_backwards,
    random_board,
)
from labkit.hexpuzzle.solving.solver import solve


@pytest.mark.parametrize("seed", range(4))
def test_reverse_placement_order_is_a_solution(seed):
    rng = np.random.default_rng(seed)
    board = random_board(rng, 2)
    batches = [(0, 3), (1, 2), (2, 2)]  # placed at 0, then 1, then 2; played 2 -> 1 -> 0
    placed = place_backwards(rng, board, batches)
    assert len(placed) == 7
    level = Level("built", board, tuple(placed), move_limit=len(placed))
    game = PuzzleState(level)
    for _ in range(2):
        game.rotate(1)  # play starts at the orientation of the last batch placed
    played = list(reversed(placed))
    for tile in played[:2]:
        assert game.tap(tile.id).outcome == "exit"
    game.rotate(-1)
    for tile in played[2:4]:
        assert game.tap(tile.id).outcome == "exit"
    game.rotate(-1)
    for tile in played[4:]:
        assert game.tap(tile.id).outcome == "exit"
    assert game.status == "won"


@pytest.mark.parametrize(
    "options",
    [
        dict(radius=2, tiles=5, rotations=1, slack=2),
        dict(radius=2, tiles=(6, 8), rotations=(2, 2), slack=(0, 1), straight=0.3),
        dict(radius=3, tiles=10, rotations=(1, 3), slack=0),
    ],
)
def test_generated_levels_need_the_asked_rotations(options):
    level = generate(11, **options)
    sol = solve(level)
    lo, hi = (
        (options["rotations"],) * 2
        if isinstance(options["rotations"], int)
        else options["rotations"]
    )
    assert sol.solved and lo <= sol.rotations <= hi
    tiles = options["tiles"]
    lo_t, hi_t = (tiles, tiles) if isinstance(tiles, int) else tiles
    assert lo_t <= len(level.tiles) <= hi_t
    slack = level.move_limit - len(level.tiles)
    assert slack >= 0 and len(level.board) == (19 if options["radius"] == 2 else 37)


def test_same_seed_same_json_and_different_seeds_differ():
    a = generate(42, radius=2, tiles=6, rotations=(1, 2))
    b = generate(42, radius=2, tiles=6, rotations=(1, 2))
    c = generate(43, radius=2, tiles=6, rotations=(1, 2))
    assert json.dumps(a.to_dict()) == json.dumps(b.to_dict())
    assert a.to_dict() != c.to_dict()
    # The generator accepts a Generator and draws from it (shared state).
    g = np.random.default_rng(9)
    assert generate(g, tiles=4, rotations=1) != generate(g, tiles=4, rotations=1)


def test_generate_many_uses_independent_named_streams():
    levels = generate_many(3, 3, progress=False, tiles=4, rotations=1, prefix="x")
    assert [lv.id for lv in levels] == ["x-00", "x-01", "x-02"]
    again = generate_many(3, 2, progress=False, tiles=4, rotations=1, prefix="x")
    assert [lv.to_dict() for lv in again] == [lv.to_dict() for lv in levels[:2]]

    def body(level):  # the level without its name: board, tiles, limits
        doc = level.to_dict()
        return {k: v for k, v in doc.items() if k not in ("id", "name")}

    # Each level has its own stream: no two are the same level, and another seed gives
    # other levels again.
    bodies = [json.dumps(body(lv), sort_keys=True) for lv in levels]
    assert len(set(bodies)) == 3
    other = generate_many(4, 3, progress=False, tiles=4, rotations=1, prefix="x")
    assert not {json.dumps(body(lv), sort_keys=True) for lv in other} & set(bodies)


def test_bad_arguments_and_impossible_requests():
    with pytest.raises(ValueError, match="tiles"):
        generate(1, tiles=(5, 3))
    with pytest.raises(ValueError, match="rotations"):
        generate(1, rotations=0)
    with pytest.raises(ValueError, match="straight"):
        generate(1, straight=1.5)
    with pytest.raises(GeneratorError, match="attempts"):
        generate(1, radius=2, tiles=19, rotations=3, attempts=2)


def test_generated_move_limit_stays_within_the_import_limit():
    # H2: moveLimit is 1-999. 5 tiles + up to 999 spare steps could give 1004: a file that
    # `labkit puzzle validate` would reject. The request is refused up front, naming slack.
    with pytest.raises(ValueError, match="slack"):
        generate(1, radius=2, tiles=5, rotations=1, slack=(995, 999))
    level = generate(1, radius=2, tiles=5, rotations=1, slack=994)
    assert level.move_limit == 999
    assert Level.from_json(level.to_dict()) == level


def test_cli_names_a_bad_generator_option_in_one_line(tmp_path, capsys):
    from labkit.cli import main

    out = tmp_path / "levels"
    argv = ["puzzle", "generate", "--seed", "1", "--slack", "995", "999", "--tiles", "5", "6"]
    assert main([*argv, "--out", str(out)]) == 2  # a bad argument, like every other (exit 2)
    err = capsys.readouterr().err
    assert err.startswith("labkit: error: slack: must satisfy") and "(995, 999)" in err
    assert not out.exists() or not any(out.iterdir())  # nothing half-written
