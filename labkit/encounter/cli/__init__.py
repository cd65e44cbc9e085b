"""``labkit sim`` commands: ``run`` one game to a trace, ``replay`` a trace, ``batch`` sweeps.

Examples (shell)::

    labkit sim run --map-seed 1 --seed 2 --npcs 3 --monsters 1 --difficulty 1,2 --out t.json
    labkit sim replay t.json            # exit 1 and the first divergence on a mismatch
    labkit sim batch --seeds 0:1000 --out results.csv
    labkit sim batch --seeds 0:1000 --scheduler tcp://127.0.0.1:8786 --out results.csv
    labkit sim batch --seeds 0:1000 --scheduler-file /shared/scheduler.json --out results.csv
"""

from __future__ import annotations

import argparse
from typing import Any

from labkit import _args as A
from labkit.encounter.cli.options import (
    cluster_options,
    dask_client,
    game_options,
    parse_seeds,
    settings_from_args,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sim", help="encounter simulation: run, replay, batch, sweep, tune, animate"
    )
    sub = parser.add_subparsers(dest="sim_command", metavar="COMMAND", required=True)
    run = sub.add_parser("run", help="play one game headless and save its trace")
    game_options(run)
    run.add_argument("--seed", type=A.seed, default=0, help="process seed (fights, policies)")
    run.add_argument("--snapshots", action="store_true", help="store per-step actor states")
    run.add_argument("--format", type=int, choices=(2, 3), default=3, help="trace format")
    run.add_argument("--out", type=A.out_file_as(".json"), help="trace file to write (JSON)")
    run.add_argument("--journal", type=A.int_range(0, None), default=0, metavar="N",
                     help="print N events")  # fmt: skip
    run.set_defaults(func=_cmd_run)
    rep = sub.add_parser("replay", help="re-run a trace; exit 1 on the first divergence")
    rep.add_argument("trace", help="trace JSON file")
    rep.set_defaults(func=_cmd_replay)
    bat = sub.add_parser("batch", help="play many games (local processes or Dask)")
    game_options(bat)
    bat.add_argument("--seeds", type=A.seed_range, default="0:100",
                     help="A:B (A <= seed < B) or a,b,c (default 0:100; <= 1,000,000)")  # fmt: skip
    bat.add_argument("--fixed-map", action="store_true", help="keep --map-seed for every game")
    bat.add_argument("--workers", type=A.int_range(1, 256),
                     help="local processes (default: one per core)")  # fmt: skip
    cluster_options(bat)
    bat.add_argument("--chunksize", type=A.int_range(1, 100_000), help="games per task")
    bat.add_argument("--out", type=A.out_file_as(".csv"), help="CSV file for the rows")
    bat.add_argument("--quiet", action="store_true", help="no progress bar")
    bat.set_defaults(func=_cmd_batch)
    ani = sub.add_parser("animate", help="write a trace's game as an animation (GIF or MP4)")
    ani.add_argument("trace", type=A.in_file, help="trace JSON file (format 3)")
    ani.add_argument("--out", type=A.out_file, required=True,
                     help="game.gif, or game.mp4 when ffmpeg is present")  # fmt: skip
    ani.add_argument("--fps", type=A.float_range(0.1, 60.0), default=4,
                     help="frames (game steps) per second")  # fmt: skip
    ani.add_argument("--last", type=A.int_range(0, None), help="stop after this step")
    ani.set_defaults(func=_cmd_animate)
    from labkit.encounter.cli import balance, compare

    balance.register(sub, game_options)  # sweep, tune
    compare.register(sub, game_options)  # compare


def _cmd_animate(args: argparse.Namespace) -> int:
    from labkit._animation import check_target
    from labkit.encounter.animation import animate, save_animation

    check_target(args.out)  # before the frames are drawn
    anim = animate(args.trace, last=args.last)
    path = save_animation(anim, args.out, fps=args.fps)
    print(f"wrote {path}: {len(anim.frames)} frames at {args.fps:g} per second")
    return 0


def _cmd_run(args: argparse.Namespace) -> int:
    from labkit.encounter.records.journal import describe
    from labkit.encounter.sim.runner import simulate

    trace = simulate(settings_from_args(args, args.seed), version=args.format)
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


def _cmd_batch(args: argparse.Namespace) -> int:
    from labkit.encounter.sim.batch import run_batch

    seeds = parse_seeds(args.seeds)
    settings = settings_from_args(args, seeds[0])
    executor: Any = None  # a dask Client or a process pool: run_batch needs submit/map only
    client = executor = dask_client(args)
    if client is None and args.workers:
        from labkit.encounter.sim.batch import local_executor

        executor = local_executor(args.workers)
    try:
        result = run_batch(settings, seeds, executor=executor, progress=not args.quiet,
                           chunksize=args.chunksize, fixed_map=args.fixed_map)  # fmt: skip
    except BaseException:
        if client is None and executor is not None:
            from labkit.encounter.sim.batch import stop_pool

            stop_pool(executor)  # interrupted: end the workers now, not after the queue
            executor = None
        raise
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
