"""labkit benchmarks: ``python -m benchmarks [--only NAME] [--json PATH]`` (``make bench``).

Each ``benchmarks/bench_*.py`` module defines functions decorated with :func:`benchmark`; each
returns a :class:`Row` (or a list of rows) built with :func:`compare`. Every figure is the median
of several runs in one process, labkit and its reference/peer measured back to back.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

REGISTRY: list[tuple[str, Callable[[], object]]] = []


@dataclass
class Row:
    """One benchmark result: ``ratio`` = reference median / labkit median (higher is better)."""

    name: str
    labkit_s: float
    reference_s: float | None
    reference: str
    target: float | None
    notes: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def ratio(self) -> float | None:
        if self.reference_s is None or self.labkit_s <= 0:
            return None
        return self.reference_s / self.labkit_s

    @property
    def meets(self) -> bool | None:
        if self.target is None or self.ratio is None:
            return None
        return self.ratio >= self.target

    def as_dict(self) -> dict:
        return {**asdict(self), "ratio": self.ratio, "meets": self.meets}


def benchmark(name: str) -> Callable:
    """Register a benchmark function under ``name``."""

    def wrap(fn: Callable) -> Callable:
        REGISTRY.append((name, fn))
        return fn

    return wrap


def median_time(fn: Callable[[], object], repeat: int = 5, warmup: int = 1) -> float:
    """Median wall time in seconds of ``fn()`` over ``repeat`` runs, after ``warmup`` runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def compare(
    name: str,
    labkit_fn: Callable,
    reference_fn: Callable | None,
    *,
    reference: str,
    target: float | None,
    repeat: int = 5,
    reference_repeat: int | None = None,
    notes: str = "",
) -> Row:
    """Time ``labkit_fn`` and ``reference_fn`` back to back and build a :class:`Row`."""
    ours = median_time(labkit_fn, repeat=repeat)
    theirs = None
    if reference_fn is not None:
        theirs = median_time(reference_fn, repeat=reference_repeat or repeat)
    return Row(name, ours, theirs, reference, target, notes)
