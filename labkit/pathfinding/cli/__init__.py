"""``labkit path find MAP.json --from X,Y --to X,Y [--diagonal] [--svg OUT.svg]``.

Exit codes: 0 for SUCCESS, TARGET_UNDER and NO_PATH (a normal result, P6); 2 for
INVALID_INPUT (the start lies outside the map); 1 for a bad file or argument.
"""

from __future__ import annotations

import argparse
import re

from labkit import LabkitError
from labkit._args import out_file_as


def _point(text: str) -> tuple[int, int]:
    from labkit._args import point

    return point(text)


def _find(args: argparse.Namespace) -> int:
    from labkit import io
    from labkit.pathfinding import EIGHT_WAY, DefaultPassPredicate, PathFinder, PathfindingStatus
    from labkit.pathfinding.draw import layer_svg
    from labkit.pathfinding.map_file import load_map

    mf = load_map(args.map)
    face = EIGHT_WAY if args.diagonal else mf.face
    layer = mf.game_map.event_layer
    assert layer is not None, "load_map rejects a map without an event layer"
    finder = PathFinder(layer, DefaultPassPredicate(), face, mf.cost)
    result = finder.find(args.start, args.target)
    print(f"status    {result.status.name}")
    print(f"cost      {result.cost:g}")
    print(f"expanded  {result.expanded}")
    print(f"steps     {max(len(result.path) - 1, 0)}")
    print("path      " + " ".join(f"{x},{y}" for x, y in result.path.tolist()))
    if args.svg:
        with io.atomic_write(args.svg) as fh:
            fh.write(layer_svg(layer, result, mf.cost))
        print(f"wrote     {args.svg}")
    return 2 if result.status is PathfindingStatus.INVALID_INPUT else 0


def register(subparsers: argparse._SubParsersAction) -> None:
    path = subparsers.add_parser("path", help="passability and pathfinding on JSON maps")
    sub = path.add_subparsers(dest="path_command", required=True)
    find = sub.add_parser("find", help="least-cost path between two cells of a map file")
    find.add_argument("map", help="a labkit.pathmap JSON file")
    find.add_argument("--from", dest="start", type=_point, required=True, metavar="X,Y")
    find.add_argument("--to", dest="target", type=_point, required=True, metavar="X,Y")
    find.add_argument("--diagonal", action="store_true", help="8-way neighbourhood")
    find.add_argument(
        "--svg", type=out_file_as(".svg"), help="also write a picture of the map and path"
    )
    # "-1,-1" is a value, not an option: argparse only knows plain negative numbers, so teach
    # this parser that a negative X,Y pair is one too (its own private matcher, documented in
    # the argparse source as the hook for exactly this).
    find._negative_number_matcher = re.compile(r"^-\d+$|^-\d*\.\d+$|^-?\d+,-?\d+$")
    find.set_defaults(func=_find)


__all__ = ["register", "LabkitError"]
