"""``labkit sim`` commands: ``run`` one game to a trace, ``replay`` a trace, ``batch`` sweeps.

Examples (shell)::

    labkit sim run --map-seed 1 --seed 2 --npcs 3 --monsters 1 --difficulty 1,2 --out t.json
    labkit sim replay t.json            # exit 1 and the first divergence on a mismatch
    labkit sim batch --seeds 0:1000 --out results.csv
    labkit sim batch --seeds 0:1000 --scheduler tcp://127.0.0.1:8786 --out results.csv
"""

from __future__ import annotations

import argparse

from labkit import LabkitError


def _game_options(p: argparse.ArgumentParser) -> None:
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


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("sim", help="encounter simulation: run, replay, batch")
    sub = parser.add_subparsers(dest="sim_command", metavar="COMMAND", required=True)
    run = sub.add_parser("run", help="play one game headless and save its trace")
    _game_options(run)
    run.add_argument("--seed", type=int, default=0, help="process seed (fights, policies)")
    run.add_argument("--snapshots", action="store_true", help="store per-step actor states")
    run.add_argument("--format", type=int, choices=(2, 3), default=3, help="trace format")
    run.add_argument("--out", help="trace file to write (JSON)")
    run.add_argument("--journal", type=int, default=0, metavar="N", help="print N events")
    run.set_defaults(func=_cmd_run)
    rep = sub.add_parser("replay", help="re-run a trace; exit 1 on the first divergence")
    rep.add_argument("trace", help="trace JSON file")
    rep.set_defaults(func=_cmd_replay)
    bat = sub.add_parser("batch", help="play many games (local processes or Dask)")
    _game_options(bat)
    bat.add_argument("--seeds", default="0:100", help="A:B (range) or a,b,c (default 0:100)")
    bat.add_argument("--fixed-map", action="store_true", help="keep --map-seed for every game")
    bat.add_argument("--workers", type=int, help="local processes (default: one per core)")
    bat.add_argument("--scheduler", help="dask.distributed scheduler address")
    bat.add_argument("--chunksize", type=int, help="games per task")
    bat.add_argument("--out", help="CSV file for the rows")
    bat.add_argument("--quiet", action="store_true", help="no progress bar")
    bat.set_defaults(func=_cmd_batch)


def _pair(text: str, name: str, kind: type = int) -> tuple:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise LabkitError(f"--{name} needs two comma-separated values", value=text)
    try:
        return tuple(kind(p) for p in parts)
    except ValueError:
        raise LabkitError(f"--{name} needs two {kind.__name__}s", value=text) from None


def _balance(items: list[str]) -> dict:
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


def _settings(args: argparse.Namespace, seed: int):
    from labkit.encounter.sim.settings import SimulationSettings

    return SimulationSettings(
        map_seed=args.map_seed, seed=seed, npcs=args.npcs, monsters=args.monsters,
        width=args.width, height=args.height, difficulty=_pair(args.difficulty, "difficulty"),
        max_steps=args.max_steps, snapshots=getattr(args, "snapshots", False),
        policies=_pair(args.policies, "policies", str), balance=_balance(args.balance),
    )  # fmt: skip


def _cmd_run(args: argparse.Namespace) -> int:
    from labkit.encounter.records.journal import describe
    from labkit.encounter.sim.runner import simulate

    trace = simulate(_settings(args, args.seed), version=args.format)
    s = trace.summary()
    print(f"{s['end_reason']}: winner {s['winner']} after {s['steps']} steps, {s['turns']} "
          f"turns, {s['events']} events, {s['encounters']} encounters")  # fmt: skip
    print(f"dead: {', '.join(s['deaths']) or 'none'}; survivors: "
          f"{', '.join(s['survivors']) or 'none'}")  # fmt: skip
    for e in trace.events[: args.journal]:
        print(f"{e['sequence']:5d} t{e['turn']:<3d} {e['actor'] or '':<10} {describe(e)}")
    if args.out:
        trace.save(args.out)
        print(f"saved {args.out} (format {trace.version})")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from labkit.encounter.records.replay import replay
    from labkit.encounter.records.trace import SimulationTrace

    trace = SimulationTrace.load(args.trace)
    found = replay(trace)
    if found is None:
        print(f"{args.trace}: no divergence ({len(trace.events)} events, format {trace.version})")
        return 0
    print(f"{args.trace}: {found}")
    return 1


def _seeds(text: str) -> list[int]:
    try:
        if ":" in text:
            a, b = text.split(":")
            return list(range(int(a), int(b)))
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise LabkitError("--seeds must be A:B or a,b,c", value=text) from None


def _cmd_batch(args: argparse.Namespace) -> int:
    from labkit.encounter.sim.batch import run_batch

    seeds = _seeds(args.seeds)
    if not seeds:
        raise LabkitError("--seeds selects no game", value=args.seeds)
    settings = _settings(args, seeds[0])
    client = executor = None
    if args.scheduler:
        from distributed import Client

        client = executor = Client(args.scheduler)
    elif args.workers:
        from labkit.encounter.sim.batch import local_executor

        executor = local_executor(args.workers)
    try:
        result = run_batch(settings, seeds, executor=executor, progress=not args.quiet,
                           chunksize=args.chunksize, fixed_map=args.fixed_map)  # fmt: skip
    finally:
        if client is not None:
            client.close()
        elif executor is not None:
            executor.shutdown()
    r = result.summary()[0]
    print(f"{r['n']} games: NPC win {r['npc_win']:.3f} [{r['npc_win_lo']:.3f}, "
          f"{r['npc_win_hi']:.3f}], monster win {r['monster_win']:.3f} "
          f"[{r['monster_win_lo']:.3f}, {r['monster_win_hi']:.3f}], step limit "
          f"{r['step_limit']}, mutual death {r['mutual_death']}, mean steps "
          f"{r['mean_steps']:.1f} [{r['mean_steps_lo']:.1f}, "
          f"{r['mean_steps_hi']:.1f}]")  # fmt: skip
    if args.out:
        result.to_csv(args.out)
        print(f"saved {args.out} ({len(result)} rows)")
    return 0
