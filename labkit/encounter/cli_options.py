"""Options shared by the ``labkit sim`` commands (``cli``) and its balance commands
(``cli_balance``): the game options, and turning their text into settings and seed lists.

Both command modules import this one, so neither imports the other's helpers (no cycle).

Examples
--------
>>> parse_seeds("3:6"), parse_seeds("1,5"), pair("1,2", "difficulty")
([3, 4, 5], [1, 5], (1, 2))
>>> balance_patch(["/combat/max_rounds=20", "/weapons/fists/name=fist"])
{'/combat/max_rounds': 20, '/weapons/fists/name': 'fist'}
"""

from __future__ import annotations

import argparse

from labkit import LabkitError

__all__ = ["game_options", "pair", "balance_patch", "settings_from_args", "parse_seeds"]


def game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--map-seed", type=int, default=0, help="seed of the room map (default 0)")
    p.add_argument("--npcs", type=int, default=3)
    p.add_argument("--monsters", type=int, default=1)
    p.add_argument("--width", type=int, default=4, help="rooms across")
    p.add_argument("--height", type=int, default=4, help="rooms down")
    p.add_argument("--difficulty", default="1,1", help="NPC,monster levels 0-3 (default 1,1)")
    p.add_argument("--policies", default="scavenger,hunter", help="NPC,monster policy names")
    p.add_argument("--max-steps", type=int, default=300)
    p.add_argument(
        "--balance",
        action="append",
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


def balance_patch(items: list[str]) -> dict:
    import json

    patch = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.startswith("/"):
            raise LabkitError("--balance needs POINTER=VALUE, e.g. /combat/max_rounds=20",
                              value=item)  # fmt: skip
        try:
            patch[key] = json.loads(value)
        except json.JSONDecodeError:
            patch[key] = value
    return patch


def settings_from_args(args: argparse.Namespace, seed: int):
    from labkit.encounter.sim.settings import SimulationSettings

    return SimulationSettings(
        map_seed=args.map_seed, seed=seed, npcs=args.npcs, monsters=args.monsters,
        width=args.width, height=args.height, difficulty=pair(args.difficulty, "difficulty"),
        max_steps=args.max_steps, snapshots=getattr(args, "snapshots", False),
        policies=pair(args.policies, "policies", str), balance=balance_patch(args.balance),
    )  # fmt: skip


def parse_seeds(text: str) -> list[int]:
    try:
        if ":" in text:
            a, b = text.split(":")
            return list(range(int(a), int(b)))
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise LabkitError("--seeds must be A:B or a,b,c", value=text) from None
