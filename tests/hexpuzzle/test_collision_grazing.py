"""Grazing contacts of the swept collision, computed from the geometry alone (SPEC H5).

"Touching exactly at the boundary counts as contact." Paths here glide along each of the six
edges of the collision hexagon, brush past each vertex, or stop on it. The expected contacts come
from closed forms (a flat-top hexagon's vertices at ``centre + r·(cos k·60°, sin k·60°)``; a path
along an edge's own line first touches the hexagon at that edge's near vertex) and the
construction is cross-checked with shapely; nothing is taken from the kernel or its reference.
The points lie on the boundary only up to rounding, which is exactly what the kernel's boundary
slack is for: on slanted edges many of these paths miss without it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from shapely.geometry import LineString, Point, Polygon  # noqa: E402

from labkit.hexpuzzle import first_contact, first_contacts

R = 1.76  # the Minkowski hexagon around a tile: two tile tops of 0.88R (SPEC H5)
EDGES = range(6)  # edge k joins vertex k and vertex k+1 (k·60°, (k+1)·60°, y down)


def vertex(centre, k, radius=R):
    angle = math.radians(60.0 * (k % 6))
    return np.array([centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)])


def hexagon(centre, radius=R):
    return Polygon([tuple(vertex(centre, k, radius)) for k in range(6)])


def centres(n, seed):
    """Obstacle centres off the lattice, so the arithmetic never lands exactly."""
    return np.random.default_rng(seed).uniform(-40.0, 40.0, size=(n, 2))


def glide(centre, k, before, along):
    """A path on edge k's own line: from ``before`` outside vertex k, to a point ``along`` of
    the way to vertex k+1. It first touches the hexagon at vertex k, after ``before``."""
    a, b = vertex(centre, k), vertex(centre, k + 1)
    unit = (b - a) / np.linalg.norm(b - a)
    return np.array([a - before * unit, a + along * (b - a)])


@pytest.mark.parametrize("edge", EDGES)
def test_gliding_along_every_edge_is_contact_at_the_near_vertex(edge):
    rng = np.random.default_rng(100 + edge)
    cs = centres(150, seed=edge)
    befores = rng.uniform(0.2, 3.0, len(cs))
    alongs = rng.uniform(0.05, 0.95, len(cs))
    for c, before, along in zip(cs, befores, alongs):
        path = glide(c, edge, before, along)
        # The construction, checked independently: the path touches the hexagon (shapely
        # distance ~ 0) and its first `before` stays outside.
        assert LineString(path).distance(hexagon(c)) < 1e-9
        assert Point(path[0]).distance(hexagon(c)) == pytest.approx(before * math.sin(math.pi / 3))
        dist, index = first_contact(path, [c])
        assert index == 0, (edge, c, before, along)
        assert dist == pytest.approx(before, abs=1e-9)


@pytest.mark.parametrize("edge", EDGES)
def test_gliding_along_every_edge_in_a_batch_is_contact(edge):
    cs = centres(150, seed=50 + edge)
    paths = np.stack([glide(c, edge, 1.0, 0.5) for c in cs])
    # One obstacle per path: shift each path so that all share the first centre.
    paths = paths - cs[:, None, :] + cs[0]
    dist, index = first_contacts(paths, cs[:1])
    assert (index == 0).all(), int((index != 0).sum())
    assert np.allclose(dist, 1.0, atol=1e-9)


@pytest.mark.parametrize("edge", EDGES)
def test_a_hair_outside_an_edge_is_a_miss(edge):
    # The slack that makes touching count is far below any real gap.
    for c in centres(40, seed=200 + edge):
        path = glide(c, edge, 1.0, 0.5)
        mid = (vertex(c, edge) + vertex(c, edge + 1)) / 2
        outward = (mid - c) / np.linalg.norm(mid - c)
        assert first_contact(path + 1e-7 * outward, [c]) == (math.inf, -1)


@pytest.mark.parametrize("k", range(6))
def test_brushing_past_every_vertex_is_contact_there(k):
    # The line through vertex k perpendicular to its radius meets the hexagon at that vertex
    # only (the circumscribed circle's tangent): contact after exactly `before`.
    for c in centres(100, seed=300 + k):
        v = vertex(c, k)
        radial = (v - c) / R
        tangent = np.array([-radial[1], radial[0]])
        path = np.array([v - 2.5 * tangent, v + 2.5 * tangent])
        assert LineString(path).distance(hexagon(c)) < 1e-9
        dist, index = first_contact(path, [c])
        assert index == 0, (k, c)
        assert dist == pytest.approx(2.5, abs=1e-9)
        # Moved outward by a hair, it passes by.
        assert first_contact(path + 1e-7 * radial, [c])[1] == -1


@pytest.mark.parametrize("k", range(6))
def test_stopping_exactly_on_every_vertex_is_contact(k):
    for c in centres(100, seed=400 + k):
        v = vertex(c, k)
        radial = (v - c) / R
        # Coming straight in, and coming in along the other edge's line.
        assert first_contact([v + 3.0 * radial, v], [c]) == (pytest.approx(3.0, abs=1e-9), 0)
        a = vertex(c, k - 1)
        along = (v - a) / np.linalg.norm(v - a)
        assert first_contact([v + 2.0 * along, v], [c])[1] == 0


def test_grazing_on_the_lattice_the_spec_example():
    # SPEC H5: straight tracks everywhere, tile at (1,1) heading up, other tile at (0,0).
    # Centres by H1: x = 1.5q, y = sqrt(3)(r + q/2); the path runs up along x = 1.5, which
    # crosses the hexagon of radius 1.76 around (0, 0) where |x| = 1.5 < 1.76: blocked.
    x, y = 1.5, math.sqrt(3) * 1.5
    dist, index = first_contact([[x, y], [x, y - 10.0]], [[0.0, 0.0]])
    # First contact on the slanted lower-right edge (between 0 deg and 60 deg vertices):
    # sqrt(3)·(1.76 − 1.5) below the centre line.
    want = y - math.sqrt(3) * (R - 1.5)
    assert index == 0 and dist == pytest.approx(want, abs=1e-9)


def test_the_batch_prefilter_keeps_obstacles_touched_exactly_on_its_bounding_box():
    # first_contacts narrows each path to obstacles whose (slack-widened) bounding box meets the
    # path's own box. A path lying exactly on that box's edge still touches the hexagon (its
    # top/bottom edge, or its left/right vertex): the filter must keep it, as the plain sweep
    # does. The box is x in [-H, H], y in [-A, A] around a centre at the origin.
    from labkit.hexpuzzle import _kernels

    A = R * _kernels._C30 * (1.0 + _kernels.SLACK)
    H = R * (1.0 + _kernels.SLACK)
    paths = {
        "along the top edge": [[-0.5, -A], [0.5, -A]],
        "along the bottom edge": [[-0.5, A], [0.5, A]],
        "down past the left vertex": [[-H, -0.1], [-H, 0.1]],
        "down past the right vertex": [[H, -0.1], [H, 0.1]],
        "leaving the right vertex": [[H, 0.0], [H + 1.0, 0.0]],
        "arriving at the left vertex": [[-H - 1.0, 0.0], [-H, 0.0]],
    }
    centre = [[0.0, 0.0]]
    for name, path in paths.items():
        single = first_contact(path, centre)
        dist, index = first_contacts(np.array([path]), centre)
        assert single[1] == 0 and index[0] == 0, name
        assert dist[0] == pytest.approx(single[0], abs=1e-12), name
