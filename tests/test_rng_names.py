"""Named streams (DESIGN §3, labkit.rng): every part of a path-like name counts, so names that
share a prefix ("policy", "policy/3", "policy/3/x") are distinct, independent streams."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from labkit import rng

NAMES = ["policy", "policy/3", "policy/4", "policy/30", "policy/3/x", "level/0", "level/1",
         "map", "map/0", "process"]  # fmt: skip


def draws(name, seed=9, n=8):
    return rng.stream(seed, name).integers(0, 2**62, n)


def test_names_sharing_a_prefix_give_distinct_streams():
    seen = {name: tuple(draws(name)) for name in NAMES}
    for a, b in itertools.combinations(NAMES, 2):
        assert seen[a] != seen[b], (a, b)


@pytest.mark.parametrize("name", ["policy/3", "level/1", "map/0"])
def test_a_child_is_not_its_parent_nor_a_sibling(name):
    parent, _, last = name.rpartition("/")
    sibling = f"{parent}/{int(last) + 1}"
    assert not np.array_equal(draws(name), draws(parent))
    assert not np.array_equal(draws(name), draws(sibling))


def test_same_name_same_stream_and_order_of_requests_does_not_matter():
    a = rng.streams(5, "policy/3", "policy", "policy/4")
    b = rng.streams(5, "policy/4", "policy/3")
    assert np.array_equal(a["policy/3"].random(4), b["policy/3"].random(4))
    assert np.array_equal(a["policy/4"].random(4), b["policy/4"].random(4))


def test_streams_of_a_seed_sequence_child_differ_from_the_parents():
    parent = np.random.SeedSequence(5)
    (child,) = parent.spawn(1)
    assert not np.array_equal(rng.stream(parent, "policy/3").random(4),
                              rng.stream(child, "policy/3").random(4))  # fmt: skip


def test_many_children_are_pairwise_distinct():
    firsts = {int(draws(f"policy/{i}", n=1)[0]) for i in range(200)}
    assert len(firsts) == 200


@pytest.mark.parametrize("bad", ["", None, 3])
def test_a_stream_needs_a_name(bad):
    with pytest.raises(ValueError, match="stream name"):
        rng.stream(1, bad)
