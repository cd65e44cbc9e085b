"""Run every benchmark module and print one row per benchmark (see benchmarks/__init__.py)."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import platform
import sys
from pathlib import Path

import benchmarks
from benchmarks import REGISTRY, Row


def _fmt_s(v: float | None) -> str:
    if v is None:
        return "-"
    if v < 1e-3:
        return f"{v * 1e6:.1f} µs"
    if v < 1:
        return f"{v * 1e3:.2f} ms"
    return f"{v:.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="run benchmarks whose name contains NAME (repeatable)",
    )
    parser.add_argument("--json", type=Path, help="also write the rows as JSON to PATH")
    args = parser.parse_args(argv)

    for mod in pkgutil.iter_modules(benchmarks.__path__):
        if mod.name.startswith("bench_"):
            importlib.import_module(f"benchmarks.{mod.name}")
    selected = [(n, f) for n, f in REGISTRY if not args.only or any(o in n for o in args.only)]
    if not selected:
        print(f"no benchmark matches {args.only}", file=sys.stderr)
        return 2

    print(f"labkit benchmarks · python {platform.python_version()} · {os.cpu_count()} cpus")
    header = (
        f"{'benchmark':<44} {'labkit':>10} {'reference':>10} {'ratio':>9} {'target':>7}"
        f"  meets  reference / notes"
    )
    print(header)
    print("-" * len(header))
    rows: list[Row] = []
    for _name, fn in selected:
        out = fn()
        for row in out if isinstance(out, list) else [out]:
            rows.append(row)
            ratio = "-" if row.ratio is None else f"{row.ratio:.1f}x"
            target = "-" if row.target is None else f"{row.target:g}x"
            meets = {True: "yes", False: "NO", None: "-"}[row.meets]
            print(
                f"{row.name:<44} {_fmt_s(row.labkit_s):>10} {_fmt_s(row.reference_s):>10} "
                f"{ratio:>9} {target:>7}  {meets:<5}  {row.reference}"
                + (f" · {row.notes}" if row.notes else ""),
                flush=True,
            )
    if args.json:
        from labkit.io import atomic_write

        with atomic_write(args.json) as fh:
            json.dump([r.as_dict() for r in rows], fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
