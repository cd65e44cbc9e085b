"""The swept-collision kernel against a plain, readable reference (SPEC H5, J1)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from labkit.hexpuzzle import _kernels, first_contact, first_contacts
from labkit.hexpuzzle.coords import hexagon_vertices


def reference_first_contact(path, centres, radius=1.76):
    """Cyrus–Beck written out edge by edge: six outward normals from the hexagon's vertices."""
    path = [tuple(map(float, p)) for p in path]
    slack = radius * math.sqrt(3) / 2 * 1e-12
    travelled = 0.0
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        dx, dy = x1 - x0, y1 - y0
        best = (2.0, -1)
        for j, (cx, cy) in enumerate(centres):
            verts = hexagon_vertices(cx, cy, radius)
            t_in, t_out, inside = 0.0, 1.0, True
            for a in range(6):
                (ax, ay), (bx, by) = verts[a], verts[(a + 1) % 6]
                nx, ny = by - ay, -(bx - ax)  # perpendicular to the edge
                norm = math.hypot(nx, ny)
                nx, ny = nx / norm, ny / norm
                if nx * (cx - ax) + ny * (cy - ay) > 0:  # point it away from the centre
                    nx, ny = -nx, -ny
                # inside edge a: n·(p0 + t·d − v_a) <= slack
                num = nx * (ax - x0) + ny * (ay - y0) + slack
                den = nx * dx + ny * dy
                if den == 0:
                    if num < 0:
                        inside = False
                elif den > 0:
                    t_out = min(t_out, num / den)
                else:
                    t_in = max(t_in, num / den)
            if inside and t_in <= t_out and t_in < best[0]:
                best = (t_in, j)
        length = math.hypot(dx, dy)
        if best[1] >= 0:
            return travelled + best[0] * length, best[1]
        travelled += length
    return math.inf, -1


def random_case(rng):
    n = int(rng.integers(2, 9))
    path = np.cumsum(rng.normal(0, 2.0, size=(n, 2)), axis=0)
    k = int(rng.integers(0, 7))
    centres = rng.uniform(-6, 6, size=(k, 2))
    radius = float(rng.uniform(0.2, 2.0))
    return path, centres, radius


def test_kernel_matches_reference_on_thousands_of_random_cases():
    rng = np.random.default_rng(20260101)
    hits = 0
    for _ in range(3000):
        path, centres, radius = random_case(rng)
        got = first_contact(path, centres, radius)
        want = reference_first_contact(path, centres, radius)
        assert got[1] == want[1], (path, centres, radius)
        if want[1] >= 0:
            hits += 1
            assert got[0] == pytest.approx(want[0], rel=1e-9, abs=1e-9)
        else:
            assert math.isinf(got[0])
    assert 500 < hits < 2900  # the cases exercise both outcomes


def test_py_func_matches_compiled():
    rng = np.random.default_rng(7)
    for _ in range(200):
        path, centres, radius = random_case(rng)
        active = np.ones(len(centres), dtype=np.bool_)
        fast = _kernels.sweep(path, centres, active, -1, radius)
        slow = _kernels.sweep.py_func(path, centres, active, -1, radius)
        assert fast[1] == slow[1] and (
            fast[0] == slow[0] or math.isinf(fast[0]) and math.isinf(slow[0])
        )


def test_batch_equals_one_by_one():
    rng = np.random.default_rng(11)
    paths = np.cumsum(rng.normal(0, 1.5, size=(300, 12, 2)), axis=1)
    centres = rng.uniform(-8, 8, size=(15, 2))
    dist, index = first_contacts(paths, centres, 1.76)
    for p, d, j in zip(paths, dist, index):
        assert (d, j) == first_contact(p, centres, 1.76) or (math.isinf(d) and j == -1)
    assert (index >= 0).any() and (index < 0).any()


finite = st.floats(-20, 20, allow_nan=False)
points = st.lists(st.tuples(finite, finite), min_size=2, max_size=6)
obstacles = st.lists(st.tuples(finite, finite), min_size=1, max_size=5)


@given(points, obstacles, st.tuples(finite, finite))
def test_translation_invariance(path, centres, shift):
    path, centres, shift = np.array(path), np.array(centres), np.array(shift)
    a = first_contact(path, centres)
    b = first_contact(path + shift, centres + shift)
    if a[1] != b[1]:
        # Only a boundary case may flip under rounding: then a hair's change of radius flips it.
        shrunk = first_contact(path, centres, 1.76 * (1 - 1e-7))
        grown = first_contact(path, centres, 1.76 * (1 + 1e-7))
        assert shrunk != grown, (a, b)
        return
    assert a[0] == pytest.approx(b[0], abs=1e-7)


@given(points, obstacles, st.floats(0.01, 0.99))
def test_splitting_a_segment_changes_nothing(path, centres, f):
    path, centres = np.array(path), np.array(centres)
    split = np.insert(path, 1, path[0] + f * (path[1] - path[0]), axis=0)
    a, b = first_contact(path, centres), first_contact(split, centres)
    assert a[1] == b[1]
    if a[1] >= 0:
        assert a[0] == pytest.approx(b[0], abs=1e-7)


@given(points, obstacles)
def test_a_path_stopping_short_never_hits(path, centres):
    path, centres = np.array(path), np.array(centres)
    s, j = first_contact(path, centres)
    if j < 0 or s < 1e-6:
        return
    seg = np.hypot(*np.diff(path, axis=0).T)
    cum = np.concatenate([[0], np.cumsum(seg)])
    stop = s * (1 - 1e-6) - 1e-9
    k = int(np.searchsorted(cum, stop, side="right")) - 1
    end = path[k] + (stop - cum[k]) / seg[k] * (path[k + 1] - path[k])
    short = np.vstack([path[: k + 1], end])
    assert first_contact(short, centres)[1] == -1


def test_boundary_contact_counts():
    hexagon = hexagon_vertices(0.0, 0.0, 1.76)
    # Ending exactly on a vertex, and gliding along the top edge.
    assert first_contact([[5.0, 0.0], hexagon[0]], [[0.0, 0.0]])[1] == 0
    top = hexagon[4:6]
    assert first_contact([top[0] + [-3, 0], top[0] + [-2, 0]], [[0.0, 0.0]])[1] == -1
    assert first_contact([top[0] + [-3, 0], top[0]], [[0.0, 0.0]]) == (pytest.approx(3.0), 0)


def test_long_segments_do_not_tunnel():
    assert first_contact([[-1e6, 0.3], [1e6, 0.3]], [[0.0, 0.0]])[1] == 0
    assert first_contact([[-1e6, 0.3], [1e6, 0.3]], [[0.0, 0.0]])[0] == pytest.approx(
        1e6 - 1.6, abs=0.2
    )


def test_earliest_contact_wins_and_ties_go_to_lower_index():
    path = [[0.0, 0.0], [10.0, 0.0]]
    assert first_contact(path, [[8.0, 0.0], [4.0, 0.0]])[1] == 1
    assert first_contact(path, [[4.0, 5.0], [4.0, 0.0], [4.0, 0.0]])[1] == 1


def test_start_inside_is_contact_at_zero():
    assert first_contact([[0.1, 0.0], [9.0, 0.0]], [[0.0, 0.0]]) == (0.0, 0)
    assert first_contact([[0.1, 0.0]], [[0.0, 0.0]]) == (0.0, 0)


@pytest.mark.parametrize(
    "path, centres, radius, match",
    [
        ([[0, 0, 0]], [[0, 0]], 1.0, "path: must have shape"),
        ([[0, 0], [np.nan, 1]], [[0, 0]], 1.0, "finite"),
        ([[0, 0], [1, 1]], [[np.inf, 0]], 1.0, "finite"),
        ([[0, 0], [1, 1]], [[0, 0]], 0.0, "radius: must be a positive"),
        ([[0, 0], [1, 1]], [[0, 0]], -1.0, "radius"),
        ([[0, 0], [1, 1]], [[0, 0]], math.inf, "radius"),
        (np.empty((0, 2)), [[0, 0]], 1.0, "at least one point"),
    ],
)
def test_bad_arguments_raise_clear_errors(path, centres, radius, match):
    with pytest.raises(ValueError, match=match):
        first_contact(path, centres, radius)


def test_batch_bad_arguments():
    with pytest.raises(ValueError, match=r"paths: must have shape \(m, n, 2\)"):
        first_contacts(np.zeros((3, 2)), [[0, 0]], 1.0)
    with pytest.raises(ValueError, match="at least 2 points"):
        first_contacts(np.zeros((3, 1, 2)), [[0, 0]], 1.0)


def test_batch_prefilter_is_bit_for_bit_the_plain_sweep():
    # sweep_many narrows each path to candidate hexagons (sorted by x, bisected); sweeping every
    # obstacle with the single-path kernel must give exactly the same numbers.
    rng = np.random.default_rng(2026)
    for k in (0, 1, 3, 10, 60):
        heading = rng.uniform(0, 2 * np.pi, (200, 1)) + np.cumsum(
            rng.uniform(-0.6, 0.6, (200, 20)), axis=1
        )
        steps = 0.5 * np.stack([np.cos(heading), np.sin(heading)], axis=-1)
        start = rng.uniform(-12, 12, (200, 1, 2))
        paths = np.ascontiguousarray(np.concatenate([start, start + np.cumsum(steps, 1)], 1))
        centres = rng.uniform(-12, 12, (k, 2))
        dist, index = _kernels.sweep_many(paths, centres, 1.76)
        active = np.ones(k, dtype=np.bool_)
        for p in range(len(paths)):
            d, j = _kernels.sweep(paths[p], centres, active, -1, 1.76)
            assert (dist[p], index[p]) == (d, j) or (math.isinf(d) and index[p] == j == -1)
        if k >= 10:
            assert (index >= 0).any() and (index < 0).any()


def test_batch_ties_go_to_the_lower_index_whatever_the_x_order():
    # Equal centres (x order of the candidates arbitrary) and mirror-image hexagons entered at
    # the same parameter: the lowest index wins, as in the single sweep.
    paths = np.array([[[0.0, 0.0], [10.0, 0.0]], [[5.0, -5.0], [5.0, 5.0]]])
    centres = np.array([[4.0, 5.0], [4.0, 0.0], [4.0, 0.0], [9.0, 3.0], [1.0, 3.0]])
    dist, index = first_contacts(paths, centres)
    assert index.tolist() == [1, 1]
    assert dist[0] == first_contact(paths[0], centres)[0]
    mirrored = np.array([[6.0, 0.0], [4.0, 0.0]])  # x order: index 1 first
    dist, index = first_contacts(paths[1:], mirrored)
    assert (float(dist[0]), int(index[0])) == first_contact(paths[1], mirrored)
    assert index[0] == 0 and first_contact(paths[1], mirrored[::-1])[1] == 0


def test_batch_py_func_matches_compiled():
    rng = np.random.default_rng(5)
    paths = np.cumsum(rng.normal(0, 1.5, size=(60, 8, 2)), axis=1)
    centres = rng.uniform(-8, 8, size=(12, 2))
    fast = _kernels.sweep_many(paths, centres, 1.76)
    slow = _kernels.sweep_many.py_func(paths, centres, 1.76)
    assert np.array_equal(fast[0], slow[0]) and np.array_equal(fast[1], slow[1])
