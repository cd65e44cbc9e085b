"""``labkit mapturn`` commands: ``play`` a scripted run, ``timeline`` of gauges."""

from __future__ import annotations

import argparse

from labkit import LabkitError
from labkit import _args as A


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("mapturn", help="map-turn clock, enemy gauges, skill states")
    sub = parser.add_subparsers(dest="mapturn_command", metavar="COMMAND", required=True)
    play = sub.add_parser("play", help="play a scripted run on a tower and print the tick log")
    play.add_argument("tower", help="tower JSON file, e.g. data/mapturn/tower.json")
    play.add_argument("--actions", default="", help="U/D/L/R moves, pU pick up, [id] use, ~ UI")
    play.add_argument("--load", help="start from this save file")
    play.add_argument("--save", type=A.out_file_as(".json"),
                      help="write the final state to this save file (JSON)")  # fmt: skip
    play.set_defaults(func=_cmd_play)
    tl = sub.add_parser("timeline", help="which enemy acts on which tick (gauge rule)")
    tl.add_argument("--time-costs", type=_costs, required=True,
                    help="comma-separated timeCosts, e.g. 1,2,3 (0 or 0.01-1e6)")  # fmt: skip
    tl.add_argument("--ticks", type=A.int_range(1, 1_000_000), default=100,
                    help="ticks to run (1-1000000)")  # fmt: skip
    tl.add_argument("--width", type=A.int_range(1, 1000), default=60,
                    help="ticks shown in the raster (1-1000)")  # fmt: skip
    tl.set_defaults(func=_cmd_timeline)


def _costs(text: str) -> list[float]:
    import math

    try:
        costs = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"comma-separated numbers, got {text[:60]!r}") from None
    if not 1 <= len(costs) <= 100:
        raise argparse.ArgumentTypeError(f"1-100 timeCosts, got {len(costs)}")
    for c in costs:
        if not (math.isfinite(c) and (c == 0 or 0.01 <= c <= 1e6)):
            raise argparse.ArgumentTypeError(f"a timeCost is 0 or 0.01-1e6, got {c!r}")
    return costs


def format_event(event: tuple) -> str:
    """One log entry in words: ``turn   3  F1:9:5:bat  chase``."""
    turn, who, what, *rest = event
    extra = " ".join(str(v) for v in rest)
    return f"turn {turn:4d}  {who:<22} {what} {extra}".rstrip()


def _cmd_play(args: argparse.Namespace) -> int:
    from labkit.mapturn.actions import Actions
    from labkit.mapturn.defs import load_tower
    from labkit.mapturn.scheduler import MapTurn
    from labkit.mapturn.world import World

    engine = MapTurn(World(load_tower(args.tower)))
    if args.load:
        engine.restore_file(args.load)
    act = Actions(engine)
    hero = engine.world.hero
    print(f"tower {engine.tower.name!r}: hero on {hero.floor} at ({hero.x}, {hero.y}), "
          f"clock {engine.state.clock}, map turn {engine.state.map_turn}")  # fmt: skip
    for token in _tokens(args.actions):
        mark = len(engine.log)
        result = act.run(token)[0]
        print(f"{token:<8} -> {result.kind.words} (+{result.time})"
              f"{f', {result.battles} battle(s)' if result.battles else ''}")  # fmt: skip
        for event in engine.log[mark:]:
            print("    " + format_event(event))
    status = "dead" if hero.dead else f"HP {hero.hp}"
    skills = ", ".join(f"{k}({v['remainBattles']})" for k, v in
                       engine.skills.active_status_skills.items()) or "none"  # fmt: skip
    print(f"end: {hero.floor} ({hero.x}, {hero.y}) {status}; clock {engine.state.clock}, "
          f"map turn {engine.state.map_turn}; statuses: {skills}")  # fmt: skip
    if args.save:
        engine.save(args.save)
        print(f"saved {args.save}")
    return 0


def _tokens(script: str) -> list[str]:
    """Split a script into single actions (``pU`` and ``[id]`` are one action each)."""
    out, i = [], 0
    while i < len(script):
        c = script[i]
        if c.isspace():
            i += 1
            continue
        if c == "[":
            end = script.find("]", i)
            end = len(script) - 1 if end < 0 else end
            out.append(script[i : end + 1])
            i = end + 1
        elif c == "p":
            out.append(script[i : i + 2])
            i += 2
        else:
            out.append(c)
            i += 1
    return out


def _cmd_timeline(args: argparse.Namespace) -> int:
    from labkit.mapturn.timeline import gauge_timeline

    costs = args.time_costs
    try:
        tl = gauge_timeline(costs, args.ticks)
    except ValueError as exc:
        raise LabkitError(str(exc)) from None
    shown = min(args.ticks, args.width)
    raster = tl.raster(1, shown)
    print(f"{len(costs)} enemies over {args.ticks} ticks (raster: ticks 1-{shown}; "
          f"digit = actions in that tick)")  # fmt: skip
    for i, cost in enumerate(costs):
        row = "".join("." if k == 0 else (str(k) if k < 10 else "+") for k in raster[i])
        print(f"  timeCost {cost:>6g}  {row}  {int(tl.actions[i])} actions, "
              f"gauge {tl.gauges[i]:g}")  # fmt: skip
    return 0
