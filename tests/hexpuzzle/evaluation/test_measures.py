"""Generator evaluation's measures (issue 27): the layout and solution distances and diversity, on
hand-made pairs and the shipped main line."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle import Level, Tile, all_matchings, campaign
from labkit.hexpuzzle.coords import hexagon_cells
from labkit.hexpuzzle.evaluation.measures import (
    distances,
    diversity,
    layout_codes,
    layout_distance,
    solution_distance,
    solution_string,
    turn_picture,
)
from labkit.hexpuzzle.solving.solver import Action, Solution, Stage
from tests.hexpuzzle.helpers import complete, random_level, ring_loop_level
from tests.hexpuzzle.solving.test_curve import turned_picture

#: A hand-made radius-2 level: straight tracks, three tiles, one blocking another.
TRACKS = (3, 4, 5, 0, 1, 2)  # every port to its opposite


def _level(dirs=(0, 3, 1)) -> Level:
    tiles = [("a", 0, 0, dirs[0]), ("b", 1, 0, dirs[1]), ("c", -1, 1, dirs[2])]
    return Level.hexagon(2, tracks=TRACKS, tiles=tiles, move_limit=5)


# --- the measures on hand-made pairs -----------------------------------------------------
def test_identical_levels_are_at_distance_zero_by_both_measures():
    a, b = _level(), _level()
    assert layout_distance(a, b) == 0.0
    assert solution_distance(solution_string(a), solution_string(b)) == 0.0


def test_a_rotated_level_is_the_same_layout_and_the_same_solution():
    a = _level()
    by_hand = turned_picture(a, 2)  # the picture turned cell by cell (test_curve's helper)
    assert layout_distance(a, by_hand) == 0.0
    assert layout_distance(a, a.rotated(1)) == 0.0  # the board turned beneath the tiles
    assert solution_string(a) == solution_string(by_hand) == solution_string(turn_picture(a, 4))


def test_one_tap_different_is_one_cell_of_nineteen_and_not_distinct():
    a, b = _level(), _level(dirs=(0, 3, 4))  # tile c heads the other way
    assert layout_distance(a, b) == pytest.approx(1 / 19)
    d = solution_distance(solution_string(a), solution_string(b))
    assert 0 < d < 0.5  # alike by their solutions too


def test_solution_distance_is_difflib_over_moves():
    # "as r bg" vs "as r cs": 2 of 3 moves match, ratio = 2*2/6
    assert solution_distance("as r bg", "as r cs") == pytest.approx(1 / 3)
    assert solution_distance("as", "") == 1.0


def test_diversity_is_pcg_benchmarks_greedy_pass():
    three_same = np.zeros((3, 3))
    assert diversity(three_same).tolist() == pytest.approx([1 / 3, 1 / 2, 1.0])
    apart = np.ones((4, 4)) - np.eye(4)
    assert diversity(apart).tolist() == [1.0] * 4
    # a pair at 0.25 (half-similar): the first gets 1 - 0.5/2
    half = np.array([[0, 0.25], [0.25, 0]])
    assert diversity(half).tolist() == [0.75, 1.0]


def test_the_shipped_main_line_is_pairwise_distinct_by_both_measures():
    levels = campaign()
    for measure in ("solution", "layout"):
        d = distances(levels, measure)
        off = d[np.triu_indices(len(levels), 1)]
        assert off.min() >= 0.5, measure
        assert diversity(d).tolist() == [1.0] * 24


# --- solution strings, read by hand from the rules (measures' module docstring) ------------
def _turning_level() -> Level:
    """Radius 2, straight on except four cells that turn p's way out (each entry -> exit)."""
    turns = {(0, 0): {3: 1}, (1, -1): {4: 0}, (1, -2): {3: 2}, (2, -2): {5: 0}}
    tracks = {c: complete(turns[c]) if c in turns else TRACKS for c in hexagon_cells(2)}
    tiles = [("p", 0, 1, 0), ("q", 0, 2, 0), ("r", -2, 1, 2)]
    return Level.hexagon(2, tracks=tracks, tiles=tiles)


def test_a_tap_is_its_heading_then_its_way_out_cell_by_cell():
    # p (heading 0: "a") enters (0,0) at 3 and leaves at 1: one step clockwise of straight on
    # (port 0) = "g"; (1,-1) 4 -> 0: one step counter-clockwise of 1 = "j"; (1,-2) 3 -> 2: two
    # steps clockwise of 0 = "h"; (2,-2) 5 -> 0: two steps counter-clockwise of 2 = "i"; off.
    # q (heading 0, behind p) crosses p's cell straight on, then p's way: "asgjhi". r (heading 2
    # from the first tap's 0: "c") waits for p and crosses three cells straight on: "csss".
    level = _turning_level()
    assert solution_string(level) == "agjhi asgjhi csss"
    for k in range(1, 6):  # a picture turned as a whole spells the same string
        assert solution_string(turn_picture(level, k)) == "agjhi asgjhi csss"


def test_taps_of_one_layer_are_sorted_and_repeats_collapse():
    # four unblocked tiles heading up: 1, 2, 2 and 3 cells to the edge
    level = Level.hexagon(2, tiles=[("z", 0, 1, 0), ("y1", 1, 0, 0), ("x", -1, 0, 0),
                                    ("y2", 2, 0, 0)])  # fmt: skip
    assert solution_string(level) == "as ass asss"
    two = Level.hexagon(2, tiles=[("y1", 1, 0, 0), ("y2", 2, 0, 0)])
    assert solution_string(two) == "ass"  # the same move twice is one letter


def test_the_first_rotation_is_r_and_the_other_way_is_l():
    # the solver needs one counter-clockwise turn to free the spinning tile (ring_loop_level):
    # the first rotation reads "r" whichever way it turns
    assert solution_string(ring_loop_level()) == "r ag"
    # a solution handed in is read as given: turn -1, then +1 (the other way), then -1 again
    level = Level.hexagon(2, tiles=[("a", 0, 0, 0), ("b", 1, 0, 1), ("c", -1, 0, 3),
                                    ("d", 0, 1, 3)])  # fmt: skip
    sol = Solution(
        "solved",
        actions=(
            Action("tap", "a"),
            Action("rotate", -1),
            Action("tap", "b"),
            Action("rotate", 1),
            Action("tap", "c"),
            Action("rotate", -1),
            Action("tap", "d"),
        ),  # fmt: skip
        rotations=3,
        stages=(
            Stage(0, (("a",),)),
            Stage(5, (("b",),)),
            Stage(0, (("c",),)),
            Stage(5, (("d",),)),
        ),  # fmt: skip
    )
    # straight tracks turn into straight tracks: a crosses 2 cells up, b 1 up-right, c 2 down
    # (heading 3 from a's 0: "d"), d 1 down
    assert solution_string(level, sol) == "ass r bs l dss r ds"
    assert solution_string(level, Solution("unsolvable")) == ""
    # a repeat at the very start collapses too: a and d's moves, then c's
    level = Level.hexagon(2, tiles=[("a", 1, 0, 0), ("d", 2, 0, 0), ("c", -1, 0, 3)])
    sol = Solution("solved", actions=tuple(Action("tap", t) for t in "adc"), rotations=0,
                   stages=(Stage(0, (("a", "d"), ("c",))),))  # fmt: skip
    assert solution_string(level, sol) == "ass dss"


def test_an_unsolvable_level_has_the_empty_string():
    facing = Level.hexagon(2, tiles=[("a", 0, 0, 2), ("b", 1, 0, 5)])  # head to head
    assert solution_string(facing) == ""


def test_solution_distance_counts_every_move_however_long():
    long = " ".join(["as", "r"] * 150)  # 300 moves: difflib's autojunk would drop popular ones
    assert solution_distance(long, long) == 0.0
    # 300 moves in common out of 301 + 301: ratio 2 * 300 / 602
    assert solution_distance("bs " + long, "cs " + long) == pytest.approx(1 - 600 / 602)


def test_solution_distance_is_symmetric_at_the_better_order():
    # "as r as" against "r bs as": matching "as" first leaves nothing after it (1 of 3 moves);
    # matching "r" first leaves "as" to match too (2 of 3): the levels share two moves
    a, b = "as r as", "r bs as"
    assert solution_distance(a, b) == solution_distance(b, a) == pytest.approx(1 - 4 / 6)
    # the same before one differing move and 300 common ones: 302 of 304 + 304 in common
    long = " ".join(["as", "r"] * 150)
    a, b = "a b a p " + long, "b c a q " + long
    assert solution_distance(a, b) == solution_distance(b, a) == pytest.approx(1 - 604 / 608)


# --- layout codes and the layout distance --------------------------------------------------
def _row_by_hand(board_tracks, tiles) -> list[int]:
    """One alignment's codes from the rule: track number x 7 + heading + 1, -1 off the board."""
    number = {m: i for i, m in enumerate(all_matchings())}
    on = {(t.q, t.r): t.dir for t in tiles}
    return [
        -1 if c not in board_tracks
        else number[tuple(board_tracks[c])] * 7 + (on[c] + 1 if c in on else 0)
        for c in hexagon_cells(3)
    ]  # fmt: skip


def test_layout_codes_follow_the_rule_at_every_alignment():
    level = _turning_level()
    codes = layout_codes(level)
    assert codes.shape == (36, 37) and codes.dtype.kind == "i"
    for b in range(6):
        board = level.board.rotated(b).tracks
        for j in range(6):
            tiles = turned_picture(level, j).tiles  # cells and headings turned by hand
            assert codes[6 * b + j].tolist() == _row_by_hand(board, tiles), (b, j)


def test_a_board_that_cannot_turn_has_one_alignment_in_every_row():
    doc = _turning_level().to_dict()
    doc["cells"] = [c for c in doc["cells"] if (c["q"], c["r"]) != (2, 0)]  # not six-fold
    level = Level.from_dict(doc)
    assert not level.board.symmetric
    codes = layout_codes(level)
    assert codes.shape == (36, 37)
    assert (codes == np.array(_row_by_hand(level.board.tracks, level.tiles))).all()
    assert layout_distance(level, level) == 0.0


def test_one_cell_changed_in_track_and_tile_is_one_cell_of_nineteen():
    a = random_level(3)
    t = a.tiles[0]
    tracks = dict(a.board.tracks)
    tracks[t.cell] = next(m for m in all_matchings() if m != tracks[t.cell])
    moved = (Tile(t.id, t.q, t.r, (t.dir + 1) % 6),) + a.tiles[1:]
    b = Level.hexagon(2, tracks=tracks, tiles=moved, move_limit=a.move_limit)
    assert layout_distance(a, b) == layout_distance(b, a) == pytest.approx(1 / 19)


def test_cells_on_one_board_only_differ():
    for tracks in all_matchings():  # the same tracks on every cell, no tiles
        small, big = Level.hexagon(2, tracks=tracks), Level.hexagon(3, tracks=tracks)
        # the 18 cells of the outer ring are on one board only: 18 of the 37 cells in play
        assert layout_distance(small, big) == layout_distance(big, small) == pytest.approx(18 / 37)
    one, bare = Level.hexagon(0, tiles=[("a", 0, 0, 0)]), Level.hexagon(0)
    assert layout_distance(one, bare) == 1.0  # the single cell differs


@pytest.mark.parametrize("seed", [0, 4, 7])
def test_the_layout_distance_is_symmetric_and_blind_to_turns(seed):
    a, b = random_level(seed), random_level(seed + 100)
    d = layout_distance(a, b)
    assert 0 < d <= 1
    assert layout_distance(b, a) == d
    for k in (1, 2, 5):  # either level turned either way is the same puzzle, at the same distance
        assert layout_distance(a.rotated(k), b) == d
        assert layout_distance(a, b.rotated(k)) == d
        assert layout_distance(turn_picture(a, k), b) == d
        assert layout_distance(a, turn_picture(b.rotated(k), k + 1)) == d


def test_turn_picture_turns_board_tiles_and_keeps_colours():
    level = random_level(5)
    for k in range(6):
        turned, by_hand = turn_picture(level, k), turned_picture(level, k)
        assert turned.board == by_hand.board and turned.tiles == by_hand.tiles


# --- the distance matrix and the greedy pass ------------------------------------------------
@pytest.mark.parametrize("measure", ["solution", "layout"])
def test_distances_are_each_pair_by_its_measure_and_missing_levels(measure):
    a, b = _level(), _level(dirs=(0, 3, 4))
    levels = [a, None, turn_picture(a, 1), b, None]
    d = distances(levels, measure)
    if measure == "solution":
        ab = solution_distance(solution_string(a), solution_string(b))
    else:
        ab = layout_distance(a, b)
    assert 0 < ab < 1
    m, x = 1.0, ab  # m: a level against a missing one
    expected = [[0, m, 0, x, m], [m, 0, m, m, 0], [0, m, 0, x, m], [x, m, x, 0, m],
                [m, 0, m, m, 0]]  # fmt: skip
    np.testing.assert_allclose(d, expected, rtol=0, atol=1e-12)


def test_diversity_marks_down_only_the_crowded_and_counts_only_similar_neighbours():
    # the docstring's three: a far level's negative "similarity" must not offset the pair's
    d = np.array([[0, 0, 1], [0, 0, 1], [1, 1, 0]], float)
    assert diversity(d).tolist() == [0.5, 1.0, 1.0]
    # one level half-similar to two others that are apart: it is the most crowded (sum 2)
    # and the only one marked down, by (2 - 1) / 3 similar levels (itself included)
    mid = np.array([[0, 0.25, 1], [0.25, 0, 0.25], [1, 0.25, 0]])
    assert diversity(mid).tolist() == pytest.approx([1.0, 2 / 3, 1.0])
    # a pair of twins among four: the first twin's crowd is the two of them, not all four
    twins = np.ones((4, 4)) - np.eye(4)
    twins[0, 1] = twins[1, 0] = 0
    assert diversity(twins).tolist() == [0.5, 1.0, 1.0, 1.0]
