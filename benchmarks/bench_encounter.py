"""Encounter: hit-curve sampling and Chebyshev sound propagation against numpy equivalents."""

from __future__ import annotations

import numpy as np
from scipy import stats as sps

from benchmarks import benchmark, compare
from labkit.encounter import tables
from labkit.encounter.rules import combat, sound

SECTOR_OF_ANGLE = np.array([0, 1, 2, 3, 4, 5, 6, 7, 0], dtype=np.int8)


def numpy_hits(index: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The best numpy equivalent: one vector of uniforms against looked-up probabilities."""
    return rng.random(index.size) < tables.HIT.take(np.clip(index, -4, 4) + 4)


@benchmark("encounter sample_hits 1e7")
def bench_sample_hits():
    n = 10_000_000
    index = np.random.default_rng(1).integers(-5, 6, size=n)
    combat.sample_hits(index[:10], rng=0)  # compile outside the timing
    hits = combat.sample_hits(index, rng=np.random.default_rng(2))
    assert np.array_equal(hits, numpy_hits(index, np.random.default_rng(2)))
    clipped = np.clip(index, -4, 4) + 4
    tried = np.bincount(clipped, minlength=9)
    landed = np.bincount(clipped[hits], minlength=9)
    p = tables.HIT
    chi2 = float((((landed - tried * p) ** 2) / (tried * p * (1 - p))).sum())
    row = compare(
        "encounter sample_hits 1e7 draws",
        lambda: combat.sample_hits(index, rng=np.random.default_rng(3)),
        lambda: numpy_hits(index, np.random.default_rng(3)),
        reference="numpy Generator.random < table.take(clip(index))",
        target=1.25,
        repeat=5,
    )
    row.extra = {
        "draws_per_s": n / row.labkit_s,
        "chi2": chi2,
        "chi2_df": 9,
        "chi2_p": float(sps.chi2.sf(chi2, 9)),
    }
    row.notes = (
        f"{n / row.labkit_s:.3g} draws/s; chi2={chi2:.2f} (9 df, p={row.extra['chi2_p']:.2f})"
    )
    return row


def _sound_case():
    rng = np.random.default_rng(20261129)
    k, size = 200, 512
    sources = np.c_[rng.integers(0, size, k), rng.integers(0, size, k), rng.integers(2, 25, k)]
    return (size, size), sources


def _directions(xs, ys, src, gx, gy):
    heard = src >= 0
    dx = np.where(heard, xs[src] - gx, 0)
    dy = np.where(heard, ys[src] - gy, 0)
    bearing = np.degrees(np.arctan2(dx, -dy)) % 360.0
    direction = SECTOR_OF_ANGLE[np.rint(bearing / 45.0).astype(np.int64)]
    direction[(dx == 0) & (dy == 0)] = sound.Compass.HERE
    direction[~heard] = sound.Compass.NONE
    return direction


def numpy_sound(shape, sources):
    """Vectorised over the grid, one source at a time (the natural numpy formulation)."""
    gy, gx = np.indices(shape)
    strength = np.zeros(shape, dtype=np.int32)
    src = np.full(shape, -1, dtype=np.int64)
    for k, (sx, sy, level) in enumerate(sources):
        s = level - np.maximum(np.abs(gx - sx), np.abs(gy - sy))
        better = s > strength  # strict: the lower index keeps ties; s <= 0 never wins
        strength[better] = s[better]
        src[better] = k
    return strength, _directions(sources[:, 0], sources[:, 1], src, gx, gy)


def numpy_sound_boxes(shape, sources):
    """The best numpy version: each source touches only its (2N-1)-square of cells."""
    h, w = shape
    gy, gx = np.indices(shape)
    strength = np.zeros(shape, dtype=np.int32)
    src = np.full(shape, -1, dtype=np.int64)
    for k, (sx, sy, level) in enumerate(sources):
        r = level - 1
        if r < 0:
            continue
        y0, y1, x0, x1 = max(sy - r, 0), min(sy + r + 1, h), max(sx - r, 0), min(sx + r + 1, w)
        sub_s, sub_k = strength[y0:y1, x0:x1], src[y0:y1, x0:x1]
        s = level - np.maximum(np.abs(gx[y0:y1, x0:x1] - sx), np.abs(gy[y0:y1, x0:x1] - sy))
        better = s > sub_s
        sub_s[better] = s[better]
        sub_k[better] = k
    return strength, _directions(sources[:, 0], sources[:, 1], src, gx, gy)


@benchmark("encounter propagate_sound 512x512")
def bench_sound():
    shape, sources = _sound_case()
    ours = sound.propagate_sound(shape, sources)
    for ref in (numpy_sound, numpy_sound_boxes):
        theirs = ref(shape, sources)
        assert np.array_equal(ours[0], theirs[0]) and np.array_equal(ours[1], theirs[1])
    cells = shape[0] * shape[1]
    rows = []
    for name, ref, target in (
        ("numpy, per-source boxes", numpy_sound_boxes, 20.0),
        ("numpy, whole grid per source", numpy_sound, None),
    ):
        row = compare(
            f"encounter propagate_sound 512x512x200 vs {name}",
            lambda: sound.propagate_sound(shape, sources),
            lambda ref=ref: ref(shape, sources),
            reference=name,
            target=target,
            repeat=7,
            reference_repeat=3,
        )
        row.extra = {"cells_per_s": cells / row.labkit_s, "sources": len(sources)}
        row.notes = f"{cells / row.labkit_s:.3g} cells/s; levels 2-24"
        rows.append(row)
    return rows
