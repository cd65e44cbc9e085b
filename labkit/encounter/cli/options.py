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


def cluster_options(p: argparse.ArgumentParser) -> None:
    """``--scheduler ADDRESS`` or ``--scheduler-file FILE``: play on a running Dask cluster."""
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="dask.distributed scheduler address (tcp://HOST:8786)",
    )
    where.add_argument("--scheduler-file", type=A.in_file, metavar="FILE",
                       help="the JSON file `dask scheduler --scheduler-file FILE` wrote "
                            "(on a shared folder)")  # fmt: skip


def dask_client(args: argparse.Namespace) -> Any:
    """A ``distributed.Client`` for ``--scheduler``/``--scheduler-file``, or None for neither."""
    address = getattr(args, "scheduler", None)
    file = getattr(args, "scheduler_file", None)
    if not address and not file:
        return None
    from distributed import Client

    return Client(address) if address else Client(scheduler_file=file)
