"""Options shared by the ``labkit sim`` commands (``cli``) and its balance commands
(``cli.balance``): the game options (argparse types with ranges, checked before any game), and
turning them into settings and seed lists.

Both command modules import this one, so neither imports the other's helpers (no cycle).

Examples
--------
>>> parse_seeds("3:6"), parse_seeds("1,5"), pair("1,2", "difficulty")
([3, 4, 5], [1, 5], (1, 2))
>>> balance_patch([balance_item("/combat/max_rounds=20"), balance_item("/weapons/fists/name=fist")])
{'/combat/max_rounds': 20, '/weapons/fists/name': 'fist'}
>>> parse_seeds("5:5")
Traceback (most recent call last):
...
labkit.LabkitError: --seeds: empty range 5:5 (B must be greater than A)
"""

from __future__ import annotations

import argparse
from typing import Any

from labkit import LabkitError
from labkit import _args as A

__all__ = [
    "game_options",
    "balance_item",
    "pair",
    "balance_patch",
    "settings_from_args",
    "parse_seeds",
    "cluster_options",
    "dask_client",
    "scheduler_address",
    "scheduler_file",
]


def balance_item(text: str) -> tuple[str, Any]:
    """``POINTER=VALUE`` (the value is JSON, or a plain string when it is not JSON)."""
    import json

    from labkit.io import FormatError, parse_json

    key, sep, value = text.partition("=")
    if not sep or not key.startswith("/") or len(key) < 2:
        raise argparse.ArgumentTypeError(
            f"needs POINTER=VALUE, e.g. /combat/max_rounds=20 (got {text[:60]!r})"
        )
    try:
        return key, parse_json(value)
    except FormatError:
        try:
            json.loads(value)
        except ValueError:
            return key, value  # not JSON at all: a plain string
        raise argparse.ArgumentTypeError(f"value is not usable JSON: {value[:60]!r}") from None


def game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--map-seed", type=A.seed, default=0, help="seed of the room map (default 0)")
    p.add_argument("--npcs", type=A.int_range(1, 64), default=3)
    p.add_argument("--monsters", type=A.int_range(1, 64), default=1)
    p.add_argument("--width", type=A.int_range(1, 64), default=4, help="rooms across (1-64)")
    p.add_argument("--height", type=A.int_range(1, 64), default=4, help="rooms down (1-64)")
    p.add_argument("--difficulty", type=A.int_pair(0, 3), default=(1, 1),
                   help="NPC,monster levels 0-3 (default 1,1)")  # fmt: skip
    p.add_argument("--policies", default="scavenger,hunter", help="NPC,monster policy names")
    p.add_argument("--max-steps", type=A.int_range(1, 10_000_000), default=300)
    p.add_argument(
        "--balance",
        action="append",
        type=balance_item,
        default=[],
        metavar="POINTER=VALUE",
        help="patch the balance, e.g. /characters/monster/life=4 (repeatable)",
    )


def pair(text: str, name: str, kind: type = int) -> tuple:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise LabkitError(f"--{name} needs two comma-separated values", value=text)
    try:
        return tuple(kind(p) for p in parts)
    except ValueError:
        raise LabkitError(f"--{name} needs two {kind.__name__}s", value=text) from None


def balance_patch(items: list[tuple[str, Any]]) -> dict:
    """The ``--balance`` items (already parsed by :func:`balance_item`) as one patch."""
    return dict(items)


def settings_from_args(args: argparse.Namespace, seed: int):
    from labkit.encounter.sim.settings import SimulationSettings

    difficulty = args.difficulty
    if isinstance(difficulty, str):  # given as text by a caller that skipped the parser's type
        difficulty = pair(difficulty, "difficulty")
    return SimulationSettings(
        map_seed=args.map_seed, seed=seed, npcs=args.npcs, monsters=args.monsters,
        width=args.width, height=args.height, difficulty=difficulty,
        max_steps=args.max_steps, snapshots=getattr(args, "snapshots", False),
        policies=pair(args.policies, "policies", str), balance=balance_patch(args.balance),
    )  # fmt: skip


def parse_seeds(value: str | list[int]) -> list[int]:
    """``--seeds`` as a list: ``A:B`` (A <= seed < B) or ``a,b,c`` (already a list: as is)."""
    if isinstance(value, list):
        return value
    try:
        return A.seed_range(value)
    except argparse.ArgumentTypeError as exc:
        raise LabkitError(f"--seeds: {exc}") from None


#: The comm schemes of dask.distributed a scheduler address may use.
SCHEDULER_SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")
#: A scheduler file is a few hundred bytes of JSON; anything over this is not one.
MAX_SCHEDULER_FILE = 2**20
#: Seconds to reach the scheduler, and to wait for its first worker (the options' defaults).
CONNECT_TIMEOUT = 30.0
WORKERS_TIMEOUT = 60.0


def scheduler_address(text: str) -> str:
    """``--scheduler``: ``SCHEME://HOST:PORT`` (or ``HOST:PORT``, meaning tcp), checked before
    connecting.

    Examples
    --------
    >>> scheduler_address("tcp://127.0.0.1:8786"), scheduler_address("10.0.0.2:8786")
    ('tcp://127.0.0.1:8786', 'tcp://10.0.0.2:8786')
    >>> scheduler_address("foo://bar")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: the scheme must be one of tcp, tls, inproc, ucx, ws, wss (got 'foo://bar')
    """
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "empty address (give tcp://HOST:PORT, or leave --scheduler out to play here)"
        )
    if not text.isprintable() or any(c.isspace() for c in text) or len(text) > 1000:
        raise argparse.ArgumentTypeError(f"not an address: {text[:60]!r}")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme not in SCHEDULER_SCHEMES:
        raise argparse.ArgumentTypeError(
            f"the scheme must be one of {', '.join(SCHEDULER_SCHEMES)} (got {text[:60]!r})"
        )
    host, colon, port = rest.rpartition(":")
    if scheme != "inproc" and (
        not colon or not host or not port.isdigit() or not 0 < int(port) < 65536
    ):
        raise argparse.ArgumentTypeError(f"needs HOST:PORT after {scheme}:// (got {text[:60]!r})")
    return f"{scheme}://{rest}"


def scheduler_file(text: str) -> str:
    """``--scheduler-file``: the address in the JSON file a scheduler wrote, read and checked
    now (an existing regular file of at most :data:`MAX_SCHEDULER_FILE` bytes, a JSON object
    with an ``address`` string that :func:`scheduler_address` accepts)."""
    from labkit.io import FormatError, parse_json, read_bytes

    if not text:
        raise argparse.ArgumentTypeError("empty path")
    try:
        doc = parse_json(read_bytes(text, max_bytes=MAX_SCHEDULER_FILE), file=text)
    except FormatError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    address = doc.get("address") if isinstance(doc, dict) else None
    if not isinstance(address, str):
        raise argparse.ArgumentTypeError(
            f"{text}: not a scheduler file (a JSON object with an 'address' string)"
        )
    try:
        return scheduler_address(address)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{text}: /address: {exc}") from None


def cluster_options(p: argparse.ArgumentParser) -> None:
    """``--scheduler ADDRESS`` or ``--scheduler-file FILE``: play on a running Dask cluster,
    with the two waits bounded (``--connect-timeout``, ``--workers-timeout``)."""
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", type=scheduler_address, metavar="ADDRESS",
                       help="dask.distributed scheduler address (tcp://HOST:8786)")  # fmt: skip
    where.add_argument("--scheduler-file", type=scheduler_file, metavar="FILE",
                       help="the JSON file `dask scheduler --scheduler-file FILE` wrote "
                            "(on a shared folder; read once, before connecting)")  # fmt: skip
    p.add_argument("--connect-timeout", type=A.float_range(0.1, 3600.0), metavar="SECONDS",
                   default=CONNECT_TIMEOUT, help="give up reaching the scheduler after this "
                   f"long (default {CONNECT_TIMEOUT:g})")  # fmt: skip
    p.add_argument("--workers-timeout", type=A.float_range(0.1, 86400.0), metavar="SECONDS",
                   default=WORKERS_TIMEOUT, help="give up when no worker has joined the "
                   f"scheduler after this long (default {WORKERS_TIMEOUT:g})")  # fmt: skip


def dask_client(args: argparse.Namespace) -> Any:
    """A ``distributed.Client`` for ``--scheduler``/``--scheduler-file``, or None for neither.

    Both waits are bounded: reaching the scheduler (``--connect-timeout``) and its first worker
    (``--workers-timeout``); either ends in a :class:`~labkit.LabkitError` naming the option.
    """
    address = getattr(args, "scheduler", None) or getattr(args, "scheduler_file", None)
    if not address:
        return None
    option = "--scheduler" if getattr(args, "scheduler", None) else "--scheduler-file"
    connect = getattr(args, "connect_timeout", CONNECT_TIMEOUT)
    wait = getattr(args, "workers_timeout", WORKERS_TIMEOUT)
    import logging

    from distributed import Client

    # The client logs its lost connection itself; the command says it in its one error line.
    logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
    try:
        # ``timeout`` also bounds the reconnection after a scheduler is lost mid-run
        client = Client(address, timeout=connect, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise LabkitError(
            f"{option}: no scheduler answered at {address} within {connect:g} s "
            f"(--connect-timeout): {type(exc).__name__}"
        ) from None
    try:
        client.wait_for_workers(1, timeout=wait)
    except (OSError, TimeoutError):
        client.close()
        raise LabkitError(
            f"{option}: the scheduler at {address} has no worker after {wait:g} s "
            "(--workers-timeout; start one with `dask worker ADDRESS`)"
        ) from None
    args.cluster_client = client  # the labkit command reads it when a run is cut off
    return client
