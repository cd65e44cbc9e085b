"""Shared builders for the hex puzzle tests."""

from __future__ import annotations

import numpy as np

from labkit.hexpuzzle import Level, all_matchings
from labkit.hexpuzzle.coords import hexagon_cells


def complete(pairs: dict[int, int]) -> list[int]:
    """A full matching that contains ``pairs`` (both ways), the rest paired in order."""
    tracks = [-1] * 6
    for a, b in pairs.items():
        tracks[a], tracks[b] = b, a
    free = [i for i in range(6) if tracks[i] < 0]
    for a, b in zip(free[::2], free[1::2]):
        tracks[a], tracks[b] = b, a
    return tracks


def ring_loop_level(tiles=(("spin", 0, 0, 0),)) -> Level:
    """Radius-1 board whose tracks carry a tile from the centre round the ring and back."""
    turns = {
        (0, 0): {0: 5},
        (0, -1): {3: 2},
        (1, -1): {5: 3},
        (1, 0): {0: 4},
        (0, 1): {1: 5},
        (-1, 1): {2: 0},
        (-1, 0): {3: 2},
    }
    tracks = {c: complete(p) for c, p in turns.items()}
    return Level.hexagon(1, tracks=tracks, tiles=tiles, id="ring")


def random_level(seed: int, radius: int = 2, n_tiles: int = 6, move_limit: int = 12) -> Level:
    """A level with random tracks and tiles on distinct random cells."""
    rng = np.random.default_rng(seed)
    cells = hexagon_cells(radius)
    matchings = all_matchings()
    tracks = {c: matchings[rng.integers(len(matchings))] for c in cells}
    spots = rng.choice(len(cells), size=n_tiles, replace=False)
    tiles = [
        (f"t{i}", *cells[s], int(rng.integers(6)), int(rng.integers(4)))
        for i, s in enumerate(spots)
    ]
    return Level.hexagon(
        radius, tracks=tracks, tiles=tiles, move_limit=move_limit, id=f"random-{seed}"
    )
