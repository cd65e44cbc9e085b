"""Hex puzzle: the swept-collision kernel against shapely 2 and its own py_func; trace_tap() taps/s.

Workload: 10,000 track-like paths of 20 segments (a centre that turns by at most ±35° per
step of 0.5 R, like the sampled Béziers) among 60 or 10 tiles scattered over a 24 R × 24 R
field. The shapely peer does the same job the fastest way shapely 2 offers: one STRtree bulk
query for (path, hexagon) pairs that intersect, a vectorised intersection, then each piece's
coordinates projected back onto its path (``line_locate_point``) and the earliest kept.

The kernel runs on one thread (no ``prange``: see :mod:`labkit.hexpuzzle._kernels`), so every
row here, the tests/s row included, is a one-core figure.
"""

from __future__ import annotations

import time

import numpy as np

from benchmarks import Row, benchmark, compare, median_time
from labkit import _jit
from labkit.hexpuzzle import (
    MINKOWSKI_RADIUS,
    Level,
    _kernels,
    all_matchings,
    first_contacts,
    trace_tap,
)
from labkit.hexpuzzle.coords import hexagon_cells, hexagon_vertices

N_PATHS, N_SEGMENTS, FIELD = 10_000, 20, 12.0


def workload(n_obstacles: int, n_paths: int = N_PATHS, seed: int = 2026):
    rng = np.random.default_rng(seed)
    heading = rng.uniform(0, 2 * np.pi, n_paths)[:, None] + np.cumsum(
        rng.uniform(-0.6, 0.6, (n_paths, N_SEGMENTS)), axis=1
    )
    steps = 0.5 * np.stack([np.cos(heading), np.sin(heading)], axis=-1)
    start = rng.uniform(-FIELD, FIELD, (n_paths, 1, 2))
    paths = np.concatenate([start, start + np.cumsum(steps, axis=1)], axis=1)
    centres = rng.uniform(-FIELD, FIELD, (n_obstacles, 2))
    return np.ascontiguousarray(paths), centres


def shapely_first_contacts(paths, centres, radius=MINKOWSKI_RADIUS):
    import shapely

    lines = shapely.linestrings(paths)
    polys = shapely.polygons(np.stack([hexagon_vertices(x, y, radius) for x, y in centres]))
    li, pi = shapely.STRtree(polys).query(lines, predicate="intersects")
    pieces = shapely.intersection(lines[li], polys[pi])
    points, owner = shapely.get_coordinates(pieces, return_index=True)
    where = shapely.line_locate_point(lines[li][owner], shapely.points(points))
    best = np.full(len(paths), np.inf)
    np.minimum.at(best, li[owner], where)
    index = np.full(len(paths), -1)
    first = np.isclose(where, best[li[owner]])
    # ties and order: the lowest obstacle index among the earliest pieces
    for path, poly in sorted(zip(li[owner][first], pi[owner][first]), reverse=True):
        index[path] = poly
    return best, index


def _agreement(paths, centres) -> float:
    ours = first_contacts(paths, centres)
    theirs = shapely_first_contacts(paths, centres)
    same = (ours[1] == theirs[1]) & (
        np.isclose(ours[0], theirs[0], atol=1e-6) | (np.isinf(ours[0]) & np.isinf(theirs[0]))
    )
    return float(same.mean())


def _tests_performed(paths, centres) -> int:
    """Segment-hexagon pairs the kernel decides: every hexagon against every segment up to the
    first hit segment (it stops there). Most pairs are settled by the per-path candidate
    pre-filter rather than by a per-segment test; the count is the same as before it existed."""
    dist, _ = first_contacts(paths, centres)
    seg = np.hypot(*np.diff(paths, axis=1).transpose(2, 0, 1))
    cum = np.cumsum(seg, axis=1)
    examined = np.where(np.isinf(dist), N_SEGMENTS, (cum < dist[:, None]).sum(axis=1) + 1)
    return int(np.minimum(examined, N_SEGMENTS).sum()) * len(centres)


def _vs_shapely(n_obstacles: int) -> Row:
    paths, centres = workload(n_obstacles)
    first_contacts(paths[:2], centres)  # compile outside the timing
    row = compare(
        f"hexpuzzle first_contacts 10k paths x 20 seg x {n_obstacles} tiles",
        lambda: first_contacts(paths, centres),
        lambda: shapely_first_contacts(paths, centres),
        reference=f"shapely {__import__('shapely').__version__} STRtree+intersection",
        target=100,
        repeat=7,
        reference_repeat=3,
    )
    hit = np.isfinite(first_contacts(paths, centres)[0]).mean()
    row.notes = f"{hit:.0%} of paths blocked; results agree on {_agreement(paths, centres):.2%}"
    return row


@benchmark("hexpuzzle first_contacts vs shapely (60 tiles)")
def bench_shapely_60():
    return _vs_shapely(60)


@benchmark("hexpuzzle first_contacts vs shapely (10 tiles)")
def bench_shapely_10():
    return _vs_shapely(10)


@benchmark("hexpuzzle first_contacts vs py_func")
def bench_py_func():
    paths, centres = workload(60, n_paths=300)
    first_contacts(paths[:2], centres)

    def plain():
        with _jit.plain_python("labkit.hexpuzzle._kernels"):
            return _kernels.sweep_many(paths, centres, MINKOWSKI_RADIUS)

    return compare(
        "hexpuzzle first_contacts 300 paths x 20 seg x 60 tiles",
        lambda: first_contacts(paths, centres),
        plain,
        reference="kernel .py_func (same 300 paths)",
        target=200,
        repeat=7,
        reference_repeat=3,
    )


@benchmark("hexpuzzle segment-hexagon tests per second")
def bench_tests_per_second():
    # No-hit workload (tiles far from every path: the pre-filter settles all pairs at once);
    # and the mixed workload above, counting the pairs decided up to each path's first hit.
    paths, centres = workload(60)
    far = centres + 1000.0
    first_contacts(paths[:2], far)
    t_far = median_time(lambda: first_contacts(paths, far), repeat=5)
    n_far = N_PATHS * N_SEGMENTS * len(far)
    t_mix = median_time(lambda: first_contacts(paths, centres), repeat=5)
    n_mix = _tests_performed(paths, centres)
    return Row(
        "hexpuzzle segment-hexagon tests/s (one core)",
        t_mix,
        None,
        "target 1e8 tests/s",
        None,
        notes=f"single-threaded; segment-hexagon pairs decided: mixed {n_mix / t_mix:.2e}/s, "
        f"all-miss {n_far / t_far:.2e}/s (mostly by the per-path candidate pre-filter)",
        extra={"mixed_tests_per_s": n_mix / t_mix, "all_miss_tests_per_s": n_far / t_far},
    )


def trace_board(seed: int = 7) -> Level:
    rng = np.random.default_rng(seed)
    cells = hexagon_cells(3)
    matchings = all_matchings()
    tracks = {c: matchings[rng.integers(len(matchings))] for c in cells}
    spots = rng.choice(len(cells), 20, replace=False)
    tiles = [(f"t{i}", *cells[s], int(rng.integers(6))) for i, s in enumerate(spots)]
    return Level.hexagon(3, tracks=tracks, tiles=tiles)


@benchmark("hexpuzzle trace_tap() taps per second")
def bench_trace():
    level = trace_board()
    orientations = [level.rotated(k) for k in range(6)]
    ids = [t.id for t in level.tiles]

    def judge_all():
        for lvl in orientations:
            for tile_id in ids:
                trace_tap(lvl, tile_id)

    judge_all()  # paths cached per orientation, as in a solver's inner loop
    seconds = median_time(judge_all, repeat=7)
    taps = len(orientations) * len(ids)
    start = time.perf_counter()
    cold = trace_board(seed=8)
    for k in range(6):
        for tile_id in ids:
            trace_tap(cold.rotated(k), tile_id)
    cold_s = time.perf_counter() - start
    return Row(
        "hexpuzzle trace_tap() 37 cells, 20 tiles, 6 orientations",
        seconds / taps,
        None,
        "target 20,000 taps/s",
        None,
        notes=f"{taps / seconds:,.0f} taps/s with cached paths; "
        f"{taps / cold_s:,.0f} taps/s cold (paths built on first use)",
        extra={"taps_per_s": taps / seconds, "cold_taps_per_s": taps / cold_s},
    )
