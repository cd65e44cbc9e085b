"""The size of every grid (a JSON array of arrays) in JSON text, found before parsing it.

A 3000 x 3000 tower floor is 18 MB of JSON: parsing it into nine million Python ints takes
seconds before the loader can see that a floor is at most 256 x 256. :func:`grids` reads the
text once with numpy instead — brackets and commas outside strings, grouped by depth — and
reports each array of arrays with its JSON pointer, its row count and its widest row, so a
loader refuses an oversized grid by its stated limit without building one cell.

Element counts are commas + 1 (an empty row counts as one cell: a limit of N cells never
refuses a row that the parser would accept, it only errs towards letting the parser decide).
Text that is not valid JSON gives some answer or none; the parser then reports it exactly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from labkit.io import MAX_DEPTH

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
# inside strings, the bytes that would count as structure become "_" (length kept, so
# positions in the scanned text are positions in the file)
_NEUTRAL = bytes.maketrans(b"[]{},", b"_____")
_SPACE = b" \t\r\n"
# byte -> 1 "[", 5 "{", 3 "]" or "}", 2 ",", 0 anything else (odd: a bracket), by translate
_KIND = bytes(1 if c == ord("[") else 5 if c == ord("{") else 3 if c in b"]}" else
              2 if c == ord(",") else 0 for c in range(256))  # fmt: skip


class Grid(NamedTuple):
    """One array of arrays: where it is (pointer parts), how many rows, the widest row."""

    parts: tuple[str | int, ...]
    rows: int
    widest: int


def grids(data: bytes, *, side: int, cells: int | None = None) -> Iterator[Grid]:
    """Each array of arrays in ``data`` with more than ``side`` rows or columns or ``cells``.

    Examples
    --------
    >>> text = b'{"floors": {"F1": {"map": [[0, 0, 0], [0, 0, 0]]}}, "s": "[[,,,]]"}'
    >>> list(grids(text, side=2))
    [Grid(parts=('floors', 'F1', 'map'), rows=2, widest=3)]
    >>> list(grids(text, side=3, cells=6))
    []
    """
    if b"[" not in data:
        return
    bare = _STRING.sub(lambda m: m.group().translate(_NEUTRAL), data)
    scan = _Scan(np.frombuffer(bare.translate(_KIND), np.uint8), MAX_DEPTH)
    for at in scan.oversized(side, cells):
        yield Grid(scan.parts(at, data), int(scan.count[at]), int(scan.widest[at]))


class _Scan:
    """Brackets of the text in file order with their depth, element counts and parents.

    Work and memory grow with the number of brackets, not of cells: commas are only summed
    between consecutive brackets, and each run of commas is given to the
    bracket open at its depth (one ``searchsorted`` per depth, depth bounded by the parser's
    nesting limit).
    """

    def __init__(self, kind: np.ndarray, max_depth: int) -> None:
        where = np.flatnonzero(kind & 1)
        brackets = kind[where]
        step = np.where(brackets == 3, -1, 1).astype(np.int32)
        depth_after = np.cumsum(step)
        commas = np.flatnonzero(kind == 2)
        commas_after = np.diff(np.searchsorted(commas, where), append=len(commas))
        opening = np.flatnonzero(step > 0)  # event numbers of the opening brackets
        self.pos = where[opening]
        self.depth = depth_after[opening]  # 1 for the outermost
        self.square = brackets[opening] == 1
        self.count = np.ones(len(opening), dtype=np.int64)
        self.parent = np.full(len(opening), -1, dtype=np.int64)
        self.opened: dict[int, np.ndarray] = {}
        self.depth_after, self.commas_after, self.opening = depth_after, commas_after, opening
        deepest = int(self.depth.max(initial=0))
        if deepest > max_depth:
            self.widest = np.zeros(len(opening), dtype=np.int64)
            return  # the parser refuses it by its nesting limit
        for d in range(1, deepest + 1):
            here = np.flatnonzero(self.depth == d)
            self.opened[d] = here
            runs = np.flatnonzero(depth_after == d)  # events after which we are at depth d
            # the commas after such an event belong to the last bracket opened at depth d
            owner = here[np.searchsorted(opening[here], runs, side="right") - 1]
            self.count += np.bincount(owner, weights=commas_after[runs],
                                      minlength=len(opening)).astype(np.int64)  # fmt: skip
            if d > 1:
                above = self.opened[d - 1]
                self.parent[here] = above[np.searchsorted(self.pos[above], self.pos[here]) - 1]
        self.widest = np.zeros(len(opening), dtype=np.int64)
        rows = self.square & (self.parent >= 0)
        rows &= self.square[np.maximum(self.parent, 0)]
        np.maximum.at(self.widest, self.parent[rows], self.count[rows])

    def oversized(self, side: int, cells: int | None) -> np.ndarray:
        big = (self.widest > 0) & ((self.count > side) | (self.widest > side))
        if cells is not None:
            big |= (self.widest > 0) & (self.count * self.widest > cells)
        return np.flatnonzero(big)

    def parts(self, at: int, data: bytes) -> tuple[str | int, ...]:
        """The JSON pointer parts of bracket ``at`` (keys read back from the file's text)."""
        out: list[str | int] = []
        while self.parent[at] >= 0:
            up = int(self.parent[at])
            if self.square[up]:
                # commas directly inside ``up`` before ``at``: runs at up's depth in between
                first, last = int(self.opening[up]), int(self.opening[at])
                runs = np.arange(first, last)
                runs = runs[self.depth_after[runs] == self.depth[up]]
                out.append(int(self.commas_after[runs].sum()))
            else:
                out.append(_key_before(data, int(self.pos[at])))
            at = up
        return tuple(reversed(out))


def _key_before(data: bytes, at: int) -> str:
    """The object key written just before the value starting at byte ``at`` ("?" if unclear)."""
    j = at - 1
    while j >= 0 and data[j] in _SPACE:
        j -= 1
    if j < 0 or data[j] != ord(":"):
        return "?"
    j -= 1
    while j >= 0 and data[j] in _SPACE:
        j -= 1
    start = data.rfind(b'"', 0, j)
    if j < 0 or data[j] != ord('"') or start < 0 or b"\\" in data[start:j]:
        return "?"  # a key with escapes: only loaders' plain keys ("map", "cost") matter
    try:
        return str(json.loads(data[start : j + 1]))
    except ValueError:
        return "?"
