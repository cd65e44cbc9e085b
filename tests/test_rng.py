from __future__ import annotations

import numpy as np
import pytest

from labkit import rng


def test_same_seed_same_stream():
    a = rng.make_rng(5).integers(0, 1_000_000, 10)
    b = rng.make_rng(np.random.SeedSequence(5)).integers(0, 1_000_000, 10)
    assert np.array_equal(a, b)


def test_named_streams_do_not_depend_on_request_order_or_set():
    one = rng.streams(9, "map", "process", "policy/0")
    two = rng.streams(9, "policy/0")
    assert np.array_equal(one["policy/0"].random(5), two["policy/0"].random(5))


def test_named_streams_are_distinct():
    s = rng.streams(9, "map", "process")
    assert not np.array_equal(s["map"].random(5), s["process"].random(5))
    assert not np.array_equal(rng.stream(9, "map").random(5), rng.stream(10, "map").random(5))


def test_extra_draws_in_one_stream_do_not_shift_another():
    s = rng.streams(1, "map", "policy")
    s["policy"].random(1000)
    assert np.array_equal(s["map"].random(3), rng.stream(1, "map").random(3))


def test_generator_is_passed_through_and_entropy_recorded():
    g = rng.make_rng(77)
    assert rng.make_rng(g) is g
    assert rng.entropy(g) == 77
    assert rng.entropy(np.random.SeedSequence(12345)) == 12345


@pytest.mark.parametrize("bad", [-1, 1.5, "7", True])
def test_bad_seeds_are_rejected(bad):
    with pytest.raises((TypeError, ValueError), match="rng"):
        rng.make_rng(bad)
