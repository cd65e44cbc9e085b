"""Seeds in, numpy ``Generator`` out; named, independent random streams.

Every labkit function that draws random numbers takes ``rng``: an ``int``, a
``numpy.random.SeedSequence``, a ``numpy.random.Generator`` or ``None`` (fresh OS entropy, for
exploration only — results then cannot be reproduced). Simulations split one seed into *named*
streams. A stream's identity is derived from its name (a stable hash appended to the spawn key),
not from the order in which streams are requested, so adding a new consumer never shifts the
draws of the existing ones.

Examples
--------
>>> from labkit import rng
>>> a = rng.streams(42, "map", "process")
>>> b = rng.streams(42, "process")
>>> bool(a["process"].random() == b["process"].random())
True
>>> rng.entropy(42)
42
"""

from __future__ import annotations

import hashlib

import numpy as np

from labkit import ArgumentError

RngLike = int | np.integer | np.random.SeedSequence | np.random.Generator | None

__all__ = ["RngLike", "seed_sequence", "make_rng", "stream", "streams", "entropy", "child_seeds"]


def seed_sequence(seed: RngLike) -> np.random.SeedSequence:
    """Normalise ``seed`` to a ``SeedSequence``.

    A ``Generator`` gives the sequence it was seeded from (numpy keeps it on the bit generator).

    Examples
    --------
    >>> seed_sequence(7).entropy
    7
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        bits = seed.bit_generator
        seq = bits.seed_seq  # public since numpy 1.25 (labkit needs >= 1.26)
        if not isinstance(seq, np.random.SeedSequence):
            raise TypeError("rng: this Generator was not seeded from a SeedSequence")
        return seq
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"rng: expected an int seed, SeedSequence, Generator or None, got {seed!r}")
    if seed < 0:
        raise ArgumentError("a seed must be non-negative", argument="rng", value=seed)
    return np.random.SeedSequence(int(seed))


def make_rng(seed: RngLike) -> np.random.Generator:
    """Return a ``Generator``; a ``Generator`` passed in is returned unchanged (shared state).

    Examples
    --------
    >>> g = make_rng(3)
    >>> make_rng(g) is g
    True
    >>> bool(make_rng(3).random() == make_rng(3).random())
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.Generator(np.random.PCG64(seed_sequence(seed)))


def _name_key(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:4], "little")


def stream(seed: RngLike, name: str) -> np.random.Generator:
    """One named child stream of ``seed``, independent of every other name.

    Names may be paths such as ``"policy/3"``; each part is hashed into the spawn key.

    Examples
    --------
    >>> a, b = stream(7, "map"), stream(7, "map")
    >>> bool(a.random() == b.random()), bool(stream(7, "map").random() == stream(7, "ai").random())
    (True, False)
    """
    if not isinstance(name, str) or not name:
        raise ArgumentError("must be a non-empty string", argument="name", value=name)
    root = seed_sequence(seed)
    key = tuple(root.spawn_key) + tuple(_name_key(part) for part in name.split("/"))
    child = np.random.SeedSequence(root.entropy, spawn_key=key, pool_size=root.pool_size)
    return np.random.Generator(np.random.PCG64(child))


def streams(seed: RngLike, *names: str) -> dict[str, np.random.Generator]:
    """Several named streams at once: ``{name: Generator}``.

    Examples
    --------
    >>> s = streams(3, "map", "process")
    >>> sorted(s), bool(s["map"].random() == stream(3, "map").random())
    (['map', 'process'], True)
    """
    root = seed_sequence(seed)
    return {name: stream(root, name) for name in names}


def child_seeds(seed: RngLike, n: int) -> list[np.random.SeedSequence]:
    """``n`` independent child sequences (for parallel chunks or batch rows).

    Examples
    --------
    >>> kids = child_seeds(5, 3)
    >>> len(kids), len({int(k.generate_state(1)[0]) for k in kids})
    (3, 3)
    """
    return seed_sequence(seed).spawn(int(n))


def entropy(seed: RngLike) -> int | list[int]:
    """The entropy that reproduces ``seed``'s streams, for recording in saved results.

    Examples
    --------
    >>> entropy(42), entropy(make_rng(42))
    (42, 42)
    """
    ent = seed_sequence(seed).entropy
    if isinstance(ent, (list, tuple, np.ndarray)):
        return [int(v) for v in ent]
    return int(ent)  # type: ignore[arg-type]  # a SeedSequence always has its entropy
