"""Foundation: the demo kernel against its own plain-Python ``py_func``."""

from __future__ import annotations

from benchmarks import benchmark, compare
from labkit import _tour_kernel


@benchmark("demo chebyshev_rings 256x256 vs py_func")
def bench_demo():
    args = (256, 256, 100, 37)
    _tour_kernel.chebyshev_rings(*args)  # compile outside the timing
    return compare(
        "demo chebyshev_rings 256x256",
        lambda: _tour_kernel.chebyshev_rings(*args),
        lambda: _tour_kernel.chebyshev_rings.py_func(*args),
        reference="kernel .py_func",
        target=50,
        reference_repeat=3,
    )
