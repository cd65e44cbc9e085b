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
    with pytest.raises(ValueError, match="name: must be a non-empty string"):
        rng.stream(1, bad)


# The derivation of a named stream is part of every saved result: campaign files, traces and
# batch tables record only seeds and names, so the same (seed, name) must give the same numbers
# in every labkit version. These values pin it (sha256 of each name part, 4 bytes little-endian,
# appended to the spawn key).
GOLDEN = {
    "map": [126939671, 2703409975, 1461451205],
    "policy/3": [3094996269, 308880015, 3639349554],
    "level/0": [1436047581, 1460350143, 2056614429],
}


@pytest.mark.parametrize("name", list(GOLDEN))
def test_stream_derivation_is_stable_across_versions(name):
    assert rng.stream(42, name).integers(0, 2**32, 3).tolist() == GOLDEN[name]


def test_a_root_with_a_bigger_pool_keeps_its_pool_size():
    wide = np.random.SeedSequence(42, pool_size=8)
    assert rng.stream(wide, "policy/3").integers(0, 2**32, 3).tolist() == [
        2601570188, 4234739527, 4129132296
    ]  # fmt: skip


def test_seed_zero_is_a_valid_seed():
    assert rng.entropy(0) == 0
    assert np.array_equal(rng.make_rng(0).random(3), np.random.default_rng(0).random(3))


def test_list_entropy_is_recorded_as_a_list_of_ints():
    assert rng.entropy(np.random.SeedSequence([1, 2, 3])) == [1, 2, 3]


def test_child_seeds_are_the_seed_sequences_spawned_children():
    kids = rng.child_seeds(7, 3)
    want = np.random.SeedSequence(7).spawn(3)
    assert [k.spawn_key for k in kids] == [w.spawn_key for w in want] == [(0,), (1,), (2,)]
    states = [tuple(k.generate_state(4)) for k in kids]
    assert states == [tuple(w.generate_state(4)) for w in want] and len(set(states)) == 3


def test_a_generator_not_seeded_from_a_seed_sequence_is_refused():
    from numpy.random.bit_generator import ISeedSequence

    class Fixed(ISeedSequence):
        def generate_state(self, n_words, dtype=np.uint32):
            return np.arange(1, n_words + 1, dtype=dtype)

    g = np.random.Generator(np.random.PCG64(Fixed()))
    with pytest.raises(TypeError, match="^rng: this Generator was not seeded from a SeedSequence$"):
        rng.seed_sequence(g)
    assert rng.seed_sequence(np.random.default_rng(5)).entropy == 5


def test_bad_seeds_and_names_are_argument_errors_naming_the_value():
    from labkit import ArgumentError
    from labkit.rng import make_rng, stream

    with pytest.raises(ArgumentError) as err:
        make_rng(-3)
    assert str(err.value) == "rng: a seed must be non-negative (got -3)" and err.value.value == -3
    for bad in ("", 7):
        with pytest.raises(ArgumentError) as err:
            stream(1, bad)
        assert str(err.value) == f"name: must be a non-empty string (got {bad!r})"
        assert err.value.argument == "name" and err.value.value == bad


def test_a_generator_not_made_from_a_seed_sequence_is_refused():
    import numpy as np

    from labkit.rng import seed_sequence

    seeded = np.random.default_rng(5)
    assert seed_sequence(seeded) is seeded.bit_generator.seed_seq
    bare = np.random.Generator(np.random.PCG64(np.random.SeedSequence(5)))
    assert seed_sequence(bare).entropy == 5
    legacy = np.random.MT19937()
    legacy._legacy_seeding(5)  # how RandomState(5) seeds: no SeedSequence behind it
    with pytest.raises(TypeError, match="not seeded from a SeedSequence"):
        seed_sequence(np.random.Generator(legacy))
