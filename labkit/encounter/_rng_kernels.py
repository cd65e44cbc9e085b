"""numpy's ``Generator`` in numba, on raw outputs drawn beforehand (for the game kernel).

Each named stream's raw 64-bit outputs are drawn in Python (``bit_generator.random_raw``) and
consumed here exactly as numpy's ``Generator`` consumes them, bit for bit: ``random`` = the top
53 bits; ``integers(n)`` = Lemire's bounded method on 32-bit halves, the spare half kept for
the next 32-bit draw (PCG64's own buffer); ``random_interval`` = masked rejection, as numpy's
``shuffle``/``permutation`` use it. ``st`` is ``[position, has spare half, spare half,
overflow]`` (uint64): a stream that runs out sets the overflow flag and returns zeros (never
looping), and the caller replays the game with longer buffers.
"""

from __future__ import annotations

import numpy as np

from labkit._jit import Covered, kernel

_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_S11 = np.uint64(11)


_PCG64_DRAWS = Covered(
    "numpy's PCG64 draws rebuilt from raw words; checked bit for bit against numpy's Generator",
    "test_the_kernel_draws_numpys_numbers",
)


@kernel(reference=_PCG64_DRAWS)
def _u64(raw, st):
    i = st[0]
    if i >= raw.shape[0]:
        st[3] = 1
        return np.uint64(0)
    st[0] = i + np.uint64(1)
    return raw[i]


@kernel(reference=_PCG64_DRAWS)
def _u32(raw, st):
    if st[1] != 0:
        st[1] = 0
        return st[2]
    v = _u64(raw, st)
    st[1] = 1
    st[2] = v >> _S32
    return v & _M32


@kernel(reference=_PCG64_DRAWS)
def _random(raw, st):
    return np.float64(_u64(raw, st) >> _S11) * (1.0 / 9007199254740992.0)


@kernel(reference=_PCG64_DRAWS)
def _integers(raw, st, n):
    """numpy ``Generator.integers(n)`` for 1 <= n < 2**32 (no draw when n == 1)."""
    rng = np.uint64(n - 1)
    if rng == 0:
        return 0
    excl = rng + np.uint64(1)
    m = _u32(raw, st) * excl
    left = m & _M32
    if left < excl:
        threshold = (_M32 - rng) % excl
        while left < threshold and st[3] == 0:
            m = _u32(raw, st) * excl
            left = m & _M32
    return np.int64(m >> _S32)


@kernel(reference=_PCG64_DRAWS)
def _interval(raw, st, mx):
    """numpy's ``random_interval``: uniform in 0..mx by masked rejection (mx < 2**32)."""
    if mx == 0:
        return 0
    mask = np.uint64(mx)
    for s in (1, 2, 4, 8, 16, 32):
        mask |= mask >> np.uint64(s)
    while True:
        v = _u32(raw, st) & mask
        if v <= np.uint64(mx) or st[3] != 0:
            return np.int64(v)
