"""How different two levels are: by their solutions, and by their layouts up to rotation.

Two measures, each turned into a *diversity share* of a set of levels the way pcg_benchmark
(Khalifa et al., 2025) does it:

* **Solutions** (pcg_benchmark's measure). A level's solution — the solver's minimum-rotation
  one — is written as a string (:func:`solution_string`): a rotation is ``r`` when it turns the
  way the first rotation turned and ``l`` otherwise; a tap is the letter ``a``–``f`` of the
  tile's heading on the board, counted from the heading of the first tile tapped, so a picture
  turned as a whole spells the same string (as pcg_benchmark's Sokoban strings are read after
  flipping the first move to a fixed side), followed by its way off the board, one letter per
  cell crossed (straight on, or which way it turns): a tap moves a tile along a whole route, as
  a Sokoban move is one step. Each move is one word of the string (one *letter* of the
  comparison). Taps of one removal layer may be made in any order, so their words are sorted.
  Runs of a repeated move are collapsed to one. Two levels are
  ``1 − difflib.SequenceMatcher(a, b).ratio()`` apart over their moves (the better of the two
  orders, so that the distance is symmetric); at 0.5 or more they count as distinct.
* **Layouts** (:func:`layout_distance`). The share of cells whose content (track, and the tile
  with its heading, if any) differs, at the best way of lining the two levels up, each turned
  every way that leaves it the same puzzle: the board turned beneath the tiles (a game
  orientation, :meth:`Level.rotated`) and the whole picture turned (36 turns of each; 216
  relative alignments). So the distance is symmetric and does not change when either level is
  turned. Zero exactly when :func:`~labkit.hexpuzzle.solving.curve.puzzle_key` says
  "the same puzzle" (colours and the move limit are not the layout). Distinct at 0.5 or more.

:func:`diversity` is pcg_benchmark's greedy cluster pass: the similarity of a pair is
``1 − min(1, distance / 0.5)``; while some level's summed similarity (itself included) exceeds
1, the most crowded level gets ``1 − (sum − 1) / (its similar levels)`` and leaves the set;
the rest get 1. The share is the fraction of levels whose value is 1.

Examples
--------
>>> from labkit.hexpuzzle import Level
>>> a = Level.hexagon(2, tiles=[("x", 1, 0, 0), ("y", 0, 0, 3)])
>>> layout_distance(a, turn_picture(a, 2)), layout_distance(a, a.rotated(1))
(0.0, 0.0)
>>> solution_string(a) == solution_string(turn_picture(a, 2))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher

import numpy as np

from labkit.hexpuzzle import coords
from labkit.hexpuzzle.geometry import tile_path
from labkit.hexpuzzle.level import Level, Tile, all_matchings
from labkit.hexpuzzle.solving.solver import Solution, solve

__all__ = ["DISTINCT", "diversity", "layout_codes", "layout_distance", "solution_distance",
           "solution_string", "turn_picture"]  # fmt: skip

#: Distance at which two levels count as distinct (pcg_benchmark's default threshold).
DISTINCT = 0.5
#: Every cell of the largest board (radius 3); smaller boards leave cells empty.
_CELLS = coords.hexagon_cells(3)
_INDEX = {c: i for i, c in enumerate(_CELLS)}
_TRACKS = {m: i for i, m in enumerate(all_matchings())}


def turn_picture(level: Level, k: int) -> Level:
    """The whole picture turned ``k`` steps: board and tiles together (the same puzzle).

    Examples
    --------
    >>> from labkit.hexpuzzle import Level
    >>> lvl = Level.hexagon(2, tiles=[("x", 1, 0, 0)])
    >>> t = turn_picture(lvl, 1).tiles[0]
    >>> (t.q, t.r, t.dir)
    (0, 1, 1)
    """
    tiles = tuple(
        Tile(t.id, *coords.rotate_cell(t.q, t.r, k), (t.dir + k) % 6, t.color) for t in level.tiles
    )
    return level.replace(board=level.board.rotated(k), tiles=tiles)


def solution_string(level: Level, solution: Solution | None = None) -> str:
    """The solver's solution as pcg_benchmark compares it: letters, repeats collapsed.

    Returns ``""`` for an unsolved level.

    Examples
    --------
    >>> from labkit.hexpuzzle import Level
    >>> solution_string(Level.hexagon(2, tiles=[("x", 1, 0, 0), ("y", -1, 0, 0)]))
    'as ass'
    """
    sol = solve(level) if solution is None else solution
    if not sol.solved:
        return ""
    tiles = {t.id: t for t in level.tiles}
    first_turn = next((a.arg for a in sol.actions if a.kind == "rotate"), 1)
    first = next(tiles[layer[0]].dir for st in sol.stages for layer in st.layers)
    letters: list[str] = []
    for k, stage in enumerate(sol.stages):
        if k:
            letters.append("r" if _turn(sol, k) == first_turn else "l")
        board = level.board.rotated(stage.orientation)
        for layer in stage.layers:
            letters += sorted(_tap_word(board, tiles[t], first) for t in layer)
    collapsed = [c for i, c in enumerate(letters) if i == 0 or c != letters[i - 1]]
    return " ".join(collapsed)


def _tap_word(board, tile: Tile, first: int) -> str:
    """A tap: its heading from the first tap's (``a``-``f``), then its way out, cell by cell:
    ``s`` straight on, ``g``/``h`` one or two steps clockwise, ``i``/``j`` two or one steps
    counter-clockwise."""
    path = tile_path(board, tile.q, tile.r, tile.dir)
    way = "".join("sgh?ij"[(out - entry - 3) % 6] for _, entry, out in path.visits)
    return "abcdef"[(tile.dir - first) % 6] + way


def _turn(sol: Solution, k: int) -> int:
    """The step (+1 or -1) of the ``k``-th rotation of ``sol`` (k counted from 1)."""
    return [a.arg for a in sol.actions if a.kind == "rotate"][k - 1]


def solution_distance(a: str, b: str) -> float:
    """``1 − SequenceMatcher(a, b).ratio()`` over the letters (moves) of two solution strings:
    0 for equal strings, 1 for nothing in common.

    difflib's matcher is greedy and its ratio can depend on which string comes first (``a b a``
    against ``b c a`` matches one move, the other way round two), so the better of the two
    orders is taken: the distance is symmetric, and never larger than either order's.

    Examples
    --------
    >>> solution_distance("as r bg", "as r bg"), solution_distance("as r", "bg l")
    (0.0, 1.0)
    >>> round(solution_distance("as r bg", "as r cs"), 3)
    0.333
    >>> a, b = "as r as", "r bs as"
    >>> round(solution_distance(a, b), 3), round(solution_distance(b, a), 3)
    (0.333, 0.333)
    """
    x, y = a.split(), b.split()
    ratio = max(SequenceMatcher(None, x, y, autojunk=False).ratio(),
                SequenceMatcher(None, y, x, autojunk=False).ratio())  # fmt: skip
    return 1.0 - ratio


def layout_codes(level: Level) -> np.ndarray:
    """``(36, 37)`` cell codes of ``level`` at every alignment (board turn × picture turn).

    Row ``6·b + j``: the board turned ``b`` steps, the tiles turned ``j`` with the picture;
    a code is ``track × 7 + tile heading + 1`` (0 without a tile), −1 off the board.
    """
    out = np.full((36, len(_CELLS)), -1, dtype=np.int64)
    turns = 6 if level.board.symmetric else 1  # a board that cannot turn has one alignment
    for b in range(turns):
        board = level.board.rotated(b)
        for j in range(turns):
            row = out[6 * b + j]
            for cell, tracks in board.tracks.items():
                row[_INDEX[cell]] = _TRACKS[tuple(tracks)] * 7
            for t in level.tiles:
                row[_INDEX[coords.rotate_cell(t.q, t.r, j)]] += (t.dir + j) % 6 + 1
    if turns == 1:
        out[1:] = out[0]
    return out


def _codes_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Best-aligned share of differing cells between codes ``a`` (36, C) and ``b`` (36, C).

    Both levels turn: ``a``'s six board turns (rows ``6·k``, tiles unturned) against all 36
    alignments of ``b``. Turning both pictures alike changes no count, so these 216 are every
    way of lining the two up, and the distance is symmetric and the same for any turn of
    either level.
    """
    mine = a[::6, None, :]  # (6, 1, C) against (36, C): (6, 36, C)
    used = (mine >= 0) | (b >= 0)
    differ = ((mine != b) & used).sum(axis=-1) / np.maximum(used.sum(axis=-1), 1)
    return float(differ.min())


def layout_distance(a: Level, b: Level) -> float:
    """Share of cells that differ between two levels at their best alignment (0 to 1).

    Examples
    --------
    >>> from labkit.hexpuzzle import Level
    >>> a = Level.hexagon(2, tiles=[("x", 1, 0, 0)])
    >>> b = a.replace(tiles=(a.tiles[0].__class__("x", 1, 0, 3),))
    >>> round(layout_distance(a, b), 4), round(1 / 19, 4)
    (0.0526, 0.0526)
    """
    return _codes_distance(layout_codes(a), layout_codes(b))


def _pairwise(items: Sequence, distance) -> np.ndarray:
    n = len(items)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            out[i, j] = out[j, i] = distance(items[i], items[j])
    return out


def distances(levels: Sequence[Level | None], measure: str) -> np.ndarray:
    """Pairwise distances of ``levels`` by ``"solution"`` or ``"layout"`` (``None``: a missing
    level, at distance 0 from every other missing one and 1 from the rest)."""
    if measure == "solution":
        strings = [None if lv is None else solution_string(lv) for lv in levels]
        return _pairwise(strings, lambda a, b: _missing(a, b) if None in (a, b)
                         else solution_distance(a, b))  # fmt: skip
    codes = [None if lv is None else layout_codes(lv) for lv in levels]
    return _pairwise(codes, lambda a, b: _missing(a, b) if a is None or b is None
                     else _codes_distance(a, b))  # fmt: skip


def _missing(a, b) -> float:
    return 0.0 if a is None and b is None else 1.0


def diversity(dist: np.ndarray, threshold: float = DISTINCT) -> np.ndarray:
    """pcg_benchmark's per-level diversity values (1: distinct) from a distance matrix.

    Examples
    --------
    Three levels, two of them the same puzzle: one of the pair is marked down.

    >>> d = np.array([[0, 0, 1], [0, 0, 1], [1, 1, 0]], float)
    >>> diversity(d).tolist()
    [0.5, 1.0, 1.0]
    """
    sim = 1.0 - np.minimum(1.0, np.asarray(dist, float) / threshold)
    np.fill_diagonal(sim, 1.0)
    values = np.ones(len(sim))
    left = list(range(len(sim)))
    while left:
        sub = sim[np.ix_(left, left)]
        sums = sub.sum(axis=1)
        if sums.max() <= 1:
            break
        k = int(np.argmax(sums))
        crowd = int((sub[k] > 0).sum())
        values[left[k]] = min(max(1.0 - (sums[k] - 1.0) / crowd, 0.0), 1.0)
        left.pop(k)
    return values
