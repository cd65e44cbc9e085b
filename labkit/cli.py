"""The ``labkit`` command.

``labkit info`` and ``labkit warmup`` live here; each domain adds its own sub-command group from
``labkit/<domain>/cli.py``, a module exposing ``register(subparsers)``. Domain CLI modules import
their heavy dependencies inside the command functions so that ``labkit --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
from collections.abc import Sequence
from typing import NoReturn

import labkit

# Domain command groups: command -> (module whose register(subparsers) adds it, its help line).
# Only the domain named on the command line is imported; the others appear in ``labkit --help``
# from this table, so that the help (and any command outside a domain) never loads numba or a
# domain package. tests/test_cli.py checks that these lines match what each module registers.
DOMAIN_CLIS = {
    "puzzle": ("labkit.hexpuzzle.cli", "hex track puzzle: validate, show, tap-trace levels"),
    "path": ("labkit.pathfinding.cli", "passability and pathfinding on JSON maps"),
    "mapturn": ("labkit.mapturn.cli", "map-turn clock, enemy gauges, skill states"),
    "sim": (
        "labkit.encounter.cli",
        "encounter simulation: run, replay, batch, sweep, tune, animate",
    ),
}


def _cmd_info(args: argparse.Namespace) -> int:
    import numpy

    from labkit import _jit

    try:
        import llvmlite

        llvm = llvmlite.__version__
    except ImportError:  # pragma: no cover - numba always brings llvmlite
        llvm = "not installed"
    rows = {
        "labkit": labkit.__version__,
        "python": f"{platform.python_version()} ({sys.executable})",
        "numpy": numpy.__version__,
        "llvmlite": llvm,
        **_jit.info(),
        "cpu count": str(os.cpu_count()),
        "platform": platform.platform(),
    }
    width = max(map(len, rows))
    for key, value in rows.items():
        print(f"{key:<{width}}  {value}")
    return 0


WARMUP_DOMAINS = ("hexpuzzle", "pathfinding", "mapturn", "encounter")  # _jit.DOMAINS, unimported


def _domain(text: str) -> str:
    if text not in WARMUP_DOMAINS:
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from "
                                         f"{', '.join(WARMUP_DOMAINS)})")  # fmt: skip
    return text


def _cmd_warmup(args: argparse.Namespace) -> int:
    from labkit import _jit

    start = time.perf_counter()
    timings = _jit.warmup(progress=not args.quiet, domains=args.domains or None)
    total = time.perf_counter() - start
    for name, seconds in sorted(timings.items()):
        print(f"{seconds:8.3f} s  {name}")
    print(f"compiled {len(timings)} kernels in {total:.2f} s (cache: {_jit.CACHE_DIR})")
    return 0


def _cmd_bundle(args: argparse.Namespace) -> int:
    from labkit.share.bundle import bundle

    manifest = bundle(args.notebook, args.out, timeout=args.timeout)
    packed = [f for f in manifest["files"] if not f["external"]]
    print(f"wrote {args.out}: {manifest['notebook']} executed, {len(packed)} data file(s) packed"
          f", {len(manifest['packages'])} package versions recorded")  # fmt: skip
    for f in manifest["files"]:
        where = " (external: hash only)" if f["external"] else ""
        print(f"  {f['sha256'][:16]}  {f['path']}{where}")
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from labkit.share.verify import verify

    verdict = verify(args.bundle, timeout=args.timeout)
    for line in verdict.lines():
        print(line)
    return 0 if verdict.ok else 1


def _command(argv: Sequence[str]) -> str | None:
    """The sub-command named in ``argv`` (its first word that is not an option), if any."""
    return next((a for a in argv if not a.startswith("-")), None)


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error: ``labkit sim batch: error: argument --workers: ...``."""

    def error(self, message: str) -> NoReturn:
        from labkit import _shorten

        self.exit(2, f"{self.prog}: error: {_shorten(message, 400)} (see --help)\n")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``labkit`` parser; with ``argv``, only the domain it names is imported (all if None)."""
    parser = _Parser(
        prog="labkit",
        description="labkit: research toolkit for turn- and grid-based game mechanics.",
    )
    from labkit._args import int_range, out_file_as

    timeout = int_range(1, 86_400)  # share.bundle.MAX_TIMEOUT, without importing it for --help
    parser.add_argument("--version", action="version", version=f"labkit {labkit.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    info = sub.add_parser("info", help="versions, numba cache and threading facts")
    info.set_defaults(func=_cmd_info)
    warm = sub.add_parser("warmup", help="compile every numba kernel now (cached on disk)")
    # no `choices=` here: Python 3.11's argparse checks an empty `nargs="*"` list against the
    # choices and refuses the plain `labkit warmup` that `make lab` runs; each name is checked
    warm.add_argument("domains", nargs="*", type=_domain, metavar="DOMAIN",
                      help="only these domains' kernels (hexpuzzle, pathfinding, mapturn, "
                      "encounter; default all)")  # fmt: skip
    warm.add_argument("--quiet", action="store_true", help="no progress bar")
    warm.set_defaults(func=_cmd_warmup)
    bun = sub.add_parser("bundle", help="execute a notebook fresh and pack it with its data")
    bun.add_argument("notebook", help="the .ipynb file")
    bun.add_argument("--out", required=True, type=out_file_as(".zip"),
                     help="the bundle to write (NAME.zip)")  # fmt: skip
    bun.add_argument("--timeout", type=timeout, default=600, help="seconds per cell (default 600)")
    bun.set_defaults(func=_cmd_bundle)
    ver = sub.add_parser(
        "verify",
        help="re-execute a bundle here and compare cell by cell",
        description="Re-execute a bundle's notebook in this environment and compare it cell by "
        "cell with what it recorded. This runs the notebook's code: verify bundles you trust.",
    )
    ver.add_argument("bundle", help="a zip written by 'labkit bundle'")
    ver.add_argument("--timeout", type=timeout, default=600, help="seconds per cell (default 600)")
    ver.set_defaults(func=_cmd_verify)
    wanted = None if argv is None else _command(argv)
    for command, (name, help_line) in DOMAIN_CLIS.items():
        if argv is not None and command != wanted:
            sub.add_parser(command, help=help_line)  # listed only; never parsed
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                raise
            continue  # that domain is not part of this install
        module.register(sub)
    return parser


def _terminate(signum: int, frame: object) -> None:
    # SIGTERM becomes an exception so that atomic writes remove their temporary files and
    # process pools shut their workers down (the default action would kill us mid-way).
    raise SystemExit(128 + signum)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``labkit`` console script; returns the exit status.

    Exit status: 0 success, 1 a bad file or a failed check (one ``labkit: error:`` line on
    stderr), 2 a bad argument (argparse's usage line), 130/143 interrupted (SIGINT/SIGTERM).
    """
    import concurrent.futures
    import signal

    previous = None
    try:
        previous = signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread (e.g. called from a test runner's worker)
        pass
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        parser = build_parser(argv)  # the named domain's CLI imports its package (shipped data)
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # argparse's usage error (2) or --help/--version (0)
            return exc.code if isinstance(exc.code, int) else 2
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        try:
            return int(args.func(args) or 0)
        except Exception as exc:
            # A dask scheduler gone mid-run: its futures are cancelled, its comm closes or the
            # client's calls fail; whichever surfaces, the client is no longer running.
            client = getattr(args, "cluster_client", None)
            cancelled = isinstance(exc, concurrent.futures.CancelledError)
            lost = client is not None and client.status != "running"
            if isinstance(exc, labkit.LabkitError) or not (cancelled or lost):
                raise
            import shlex

            again = labkit._shorten("labkit " + shlex.join(argv), 300)
            raise labkit.LabkitError(
                f"the run was cut off: the cluster's scheduler went away "
                f"({type(exc).__name__}); re-run `{again}` (with --out it resumes from the "
                "games saved)"
            ) from None
    except labkit.ArgumentError as exc:
        print(f"labkit: error: {exc}", file=sys.stderr)
        return 2
    except labkit.LabkitError as exc:
        print(f"labkit: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # Output piped into e.g. `head`, which stopped reading: not the command's failure.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"labkit: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except MemoryError:
        print("labkit: error: out of memory", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("labkit: interrupted", file=sys.stderr)
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
