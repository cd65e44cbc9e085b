"""argparse types for the ``labkit`` command: every option checked before any work starts.

Each factory returns a callable for ``add_argument(type=...)``; a bad value becomes argparse's
one-line usage error (exit 2) naming the option, never a traceback or a silent fallback.

Examples
--------
>>> count = int_range(1, 10)
>>> count("3")
3
>>> count("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be between 1 and 10 (got 0)
>>> point("-1,-1")
(-1, -1)
>>> seed_range("0:3")
[0, 1, 2]
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable

#: Seeds are non-negative and below 2**63 (numpy's SeedSequence takes them; the CSV keeps them).
MAX_SEED = 2**63 - 1

__all__ = ["int_range", "float_range", "seed", "point", "int_pair", "seed_range", "out_file",
           "out_dir", "MAX_SEED"]  # fmt: skip


def _int(text: str) -> int:
    try:
        return int(text.strip().replace("_", ""), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text[:40]!r}") from None


def int_range(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """An integer type limited to ``[lo, hi]`` (``None``: unbounded on that side)."""

    def parse(text: str) -> int:
        value = _int(text)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            if hi is None:
                raise argparse.ArgumentTypeError(f"must be >= {lo} (got {value})")
            if lo is None:
                raise argparse.ArgumentTypeError(f"must be <= {hi} (got {value})")
            raise argparse.ArgumentTypeError(f"must be between {lo} and {hi} (got {value})")
        return value

    parse.__name__ = "integer"
    return parse


def float_range(lo: float, hi: float) -> Callable[[str], float]:
    """A finite number in ``[lo, hi]``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}") from None
        if not (math.isfinite(value) and lo <= value <= hi):
            raise argparse.ArgumentTypeError(f"must be between {lo:g} and {hi:g} (got {text})")
        return value

    parse.__name__ = "number"
    return parse


seed = int_range(0, MAX_SEED)
seed.__name__ = "seed"


def point(text: str) -> tuple[int, int]:
    """``X,Y`` as two integers (negative ones too: ``-1,-1``)."""
    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"expected X,Y (two integers), got {text[:40]!r}")
    x, y = (_int(p) for p in parts)
    return x, y


def int_pair(lo: int, hi: int) -> Callable[[str], tuple[int, int]]:
    """``A,B`` as two integers, each within ``[lo, hi]``."""
    one = int_range(lo, hi)

    def parse(text: str) -> tuple[int, int]:
        parts = text.split(",")
        if len(parts) != 2:
            raise argparse.ArgumentTypeError(f"expected A,B (two integers), got {text[:40]!r}")
        a, b = (one(p) for p in parts)
        return a, b

    parse.__name__ = "pair"
    return parse


def seed_range(text: str, *, max_count: int = 1_000_000) -> list[int]:
    """``A:B`` (``A <= seed < B``) or ``a,b,c``: at least one seed, at most ``max_count``."""
    if ":" in text:
        parts = text.split(":")
        if len(parts) != 2:
            raise argparse.ArgumentTypeError(f"expected A:B or a,b,c, got {text[:40]!r}")
        a, b = (seed(p) for p in parts)
        if b <= a:
            raise argparse.ArgumentTypeError(f"empty range {a}:{b} (B must be greater than A)")
        if b - a > max_count:
            raise argparse.ArgumentTypeError(f"{b - a} seeds, more than the limit of {max_count}")
        return list(range(a, b))
    items = [p for p in text.split(",") if p.strip()]
    if not items:
        raise argparse.ArgumentTypeError("selects no seed")
    if len(items) > max_count:
        raise argparse.ArgumentTypeError(f"{len(items)} seeds, more than the limit of {max_count}")
    return [seed(p) for p in items]


def _writable(text: str, check: Callable[[str], object], what: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("empty path")
    try:
        check(text)
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot write {what}{text!r}: {exc.strerror}") from None
    return text


def out_file(text: str) -> str:
    """An output file path that can be written (not a directory, parent not a file)."""
    from labkit.io import check_writable

    return _writable(text, check_writable, "")


def out_file_as(*suffixes: str) -> Callable[[str], str]:
    """An output file path as :func:`out_file` whose suffix is one of ``suffixes`` (the format
    written follows the suffix, so any other suffix would name the wrong format).

    Examples
    --------
    >>> out_file_as(".csv", ".parquet")("t.xlsx")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must end in .csv or .parquet (got 't.xlsx')
    """

    def parse(text: str) -> str:
        if not text.lower().endswith(suffixes):
            raise argparse.ArgumentTypeError(
                f"must end in {' or '.join(suffixes)} (got {text[:80]!r})"
            )
        return out_file(text)

    parse.__name__ = "output file"
    return parse


def out_dir(text: str) -> str:
    """An output folder (existing or to be created) that files can be written into."""
    from labkit.io import check_writable_dir

    return _writable(text, check_writable_dir, "into ")


def in_file(text: str) -> str:
    """An existing input path (kept as text; the format's loader checks the rest)."""
    if not text:
        raise argparse.ArgumentTypeError("empty path")
    if not os.path.lexists(text):
        raise argparse.ArgumentTypeError(f"no such file: {text!r}")
    return text


def check_int(value: object, argument: str, lo: int | None = None, hi: int | None = None) -> int:
    """For public functions: ``value`` as an int in ``[lo, hi]``, else :class:`ArgumentError`.

    Examples
    --------
    >>> check_int(10**9, "count", 0, 10_000)
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: count: must be between 0 and 10000 (got 1000000000)
    """
    import numbers

    from labkit import ArgumentError

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ArgumentError("must be an integer", argument=argument, value=value)
    value = int(value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"between {lo} and {hi}" if lo is not None and hi is not None else (
            f">= {lo}" if lo is not None else f"<= {hi}")  # fmt: skip
        raise ArgumentError(f"must be {span}", argument=argument, value=value)
    return value
