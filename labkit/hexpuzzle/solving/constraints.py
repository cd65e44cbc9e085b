"""What a designer may ask of a generated level besides its difficulty: rotations, tiles, radius.

:func:`generate_to_target` and :func:`campaign_from_curve` take the three constraints as an
exact value or an inclusive ``(lo, hi)`` range. :func:`constraints` checks and normalises them
and refuses a combination no level can meet — tiles that do not fit on the board, or fewer tiles
than the rotations need (one batch of tiles per orientation visited) — and
:func:`check_reachable` refuses a score no level with those constraints can have, naming the
range that is reachable.

The reachable score range is the rule H9 formula's own bounds, part by part: size and rotation
are fixed by the tile count N and the rotations R; turns may be 0–20 points; layers 0 up to the
N removal layers; at least one tile must wait for a rotation (blocking at least 15/N) and at most
every tile (15); pressure 0–10. A target outside those bounds is impossible, not merely hard; a
target inside them may still be out of the search's reach, which the search itself reports.

Examples
--------
>>> c = constraints(rotations=2, tiles=9)
>>> c.rotations, c.tiles, c.radii
((2, 2), (9, 9), (2, 3))
>>> score_bounds(c)
(15, 76)
>>> check_reachable("score", 90, 2.0, c)
Traceback (most recent call last):
...
labkit.ArgumentError: score: cannot be reached with 2 rotations and 9 tiles: reachable ...
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from labkit import ArgumentError
from labkit.hexpuzzle import coords

__all__ = ["Constraints", "TILE_SPAN", "check_reachable", "constraints", "score_bounds"]

#: Tile counts the search spans per board radius when the tile count is free (more is slow).
TILE_SPAN = {2: (3, 11), 3: (8, 19)}
RADII = (2, 3)


@dataclass(frozen=True)
class Constraints:
    """Rotations, tile count and board radius a generated level must have (inclusive ranges).

    ``tiles`` is ``None`` when the designer left it free (the search then spans
    :data:`TILE_SPAN`); ``radii`` lists the allowed board radii.

    Examples
    --------
    >>> c = constraints(tiles=(6, 8), radius=2)
    >>> c.tile_span(2), c.allows(rotations=1, tiles=7, radius=2), c.allows(1, 9, 2)
    ((6, 8), True, False)
    """

    rotations: tuple[int, int] = (1, 3)
    tiles: tuple[int, int] | None = None
    radii: tuple[int, ...] = RADII

    def tile_span(self, radius: int) -> tuple[int, int] | None:
        """Tile counts the search may build on ``radius`` (``None``: none fit)."""
        if self.tiles is None:
            return TILE_SPAN[radius]  # the search's own span (the generator copes with few tiles)
        lo, hi = self.tiles
        lo = max(lo, self.rotations[0] + 1)
        hi = min(hi, len(coords.hexagon_cells(radius)))
        return (lo, hi) if lo <= hi else None

    def allows(self, rotations: int | None, tiles: int, radius: int) -> bool:
        """Whether a level with these properties meets the constraints."""
        lo, hi = self.rotations
        fits_tiles = self.tiles is None or self.tiles[0] <= tiles <= self.tiles[1]
        return (
            rotations is not None
            and lo <= rotations <= hi
            and fits_tiles
            and (radius in self.radii)
        )

    def describe(self) -> str:
        """The constraints in words (for messages)."""
        out = [_words(self.rotations, "rotation")]
        if self.tiles is not None:
            out.append(_words(self.tiles, "tile"))
        if self.radii != RADII:
            lo, hi = self.radii[0], self.radii[-1]
            out.append(f"radius {lo}" if lo == hi else f"radius {lo}-{hi}")
        return " and ".join(out)

    def as_dict(self) -> dict:
        """Plain JSON (recorded in a generated level's metadata)."""
        return {"rotations": list(self.rotations),
                "tiles": None if self.tiles is None else list(self.tiles),
                "radius": list(self.radii)}  # fmt: skip


def _words(span: tuple[int, int], noun: str) -> str:
    lo, hi = span
    return f"{lo} {noun}{'s' * (lo != 1)}" if lo == hi else f"{lo}-{hi} {noun}s"


def _span(value, name: str, lo: int, hi: int) -> tuple[int, int]:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        pair: tuple = (int(value), int(value))
    elif isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2:
        pair = tuple(value)
    else:
        raise ArgumentError(f"must be {lo}-{hi} or a (lo, hi) pair within {lo}-{hi}",
                            argument=name, value=value)  # fmt: skip
    ok = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in pair)
    if not ok or not lo <= pair[0] <= pair[1] <= hi:
        raise ArgumentError(f"must be {lo}-{hi} or a (lo, hi) pair within {lo}-{hi}",
                            argument=name, value=value)  # fmt: skip
    return int(pair[0]), int(pair[1])


def constraints(rotations=None, tiles=None, radius=None) -> Constraints:
    """Checked constraints from exact values, ``(lo, hi)`` ranges or ``None`` (free).

    Raises :class:`labkit.ArgumentError` naming the argument when a value is out of range or
    the combination cannot be met (tiles that do not fit the board, too few for the rotations).

    Examples
    --------
    >>> constraints(rotations=3, tiles=3)
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: tiles: 3 rotations need at least 4 tiles (one batch per orientation); ...
    """
    rot = (1, 3) if rotations is None else _span(rotations, "rotations", 1, 3)
    r_lo, r_hi = (RADII[0], RADII[-1]) if radius is None else _span(radius, "radius", 2, 3)
    radii = tuple(range(r_lo, r_hi + 1))
    most = len(coords.hexagon_cells(radii[-1]))
    span = None if tiles is None else _span(tiles, "tiles", 1, 61)
    if span is not None:
        least = rot[0] + 1
        if span[1] < least or span[0] > most:
            why = (f"{_words(rot[:1] * 2, 'rotation')} need at least {least} tiles (one batch "
                   "per orientation)" if span[1] < least
                   else f"a radius-{radii[-1]} board holds at most {most} tiles")  # fmt: skip
            raise ArgumentError(f"{why}; reachable: {least}-{most} tiles", argument="tiles",
                                value=tiles)  # fmt: skip
    out = Constraints(rot, span, radii)
    if not any(out.tile_span(r) for r in radii):
        raise ArgumentError(f"no board of radius {radii[0]}-{radii[-1]} fits {out.describe()}",
                            argument="tiles", value=tiles)  # fmt: skip
    return out


def _parts_bounds(n: int, r: int) -> tuple[float, float]:
    size, rotation = min(1.0, n / 37) * 15, min(1.0, r / 4) * 20
    layers = min(1.0, max(0, n - 1) / 9) * 20
    low = size + rotation + 15 / n  # one tile at least waits for a rotation
    high = size + rotation + 20 + layers + 15 + 10
    return low, high


def score_bounds(c: Constraints) -> tuple[int, int]:
    """Lowest and highest structural total (H9) any level meeting ``c`` can have."""
    lows, highs = [], []
    for radius in c.radii:
        # free tiles: the search's edits may add or remove tiles, so any count that fits counts
        free = (c.rotations[0] + 1, len(coords.hexagon_cells(radius)))
        span = free if c.tiles is None else c.tile_span(radius)
        if span is None:
            continue
        for n in range(span[0], span[1] + 1):
            for r in range(c.rotations[0], c.rotations[1] + 1):
                lo, hi = _parts_bounds(n, r)
                lows.append(lo)
                highs.append(hi)
    return int(math.floor(min(lows) + 0.5)), int(math.floor(max(highs) + 0.5))


def check_reachable(kind: str, target: float, tolerance: float, c: Constraints) -> None:
    """Refuse a score target no level meeting ``c`` can come within ``tolerance`` of."""
    if kind != "score":
        return  # a success rate depends on the model; the search reports what it reached
    lo, hi = score_bounds(c)
    if target + tolerance < lo or target - tolerance > hi:
        raise ArgumentError(f"cannot be reached with {c.describe()}: reachable scores are "
                            f"{lo}-{hi}", argument="score", value=target)  # fmt: skip
