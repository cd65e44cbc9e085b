"""``labkit sim importance`` and the several-target form of ``labkit sim tune``.

Examples (shell)::

    labkit sim importance --knob /characters/monster/life=2:10 --knob npcs=2:4 --method morris
    labkit sim importance --knob /characters/monster/life=2:10 --knob /priority/base=0.3:0.7 \\
        --method sobol --n 512 --games 2 --csv importance.csv --plot importance.png
    labkit sim tune --target npc_win=0.5±0.02 --target steps=60:90 --target 'step_limit<0.05' \\
        --knob /characters/monster/life=2:10 --knob max_steps=60:300 --budget 300 --out DIR

``--knob NAME=LOW:HIGH`` (repeatable): whole-number ends make a whole-number knob (``2:10``),
real ends a real one (``0.3:0.7``). Knobs are printed by their words and unit, targets as
sentences. ``tune --out DIR`` keeps the Optuna study in ``DIR/study.journal``: the same command
again continues it.
"""

from __future__ import annotations

import argparse
from typing import Any

from labkit import ArgumentError
from labkit import _args as A
from labkit._args import int_range


def parse_knobs(items: list[str]) -> dict[str, tuple]:
    """``["/a=2:10", "/b=0.3:0.7"]`` -> ``{"/a": (2, 10), "/b": (0.3, 0.7)}``.

    Examples
    --------
    >>> parse_knobs(["/characters/monster/life=2:10", "/priority/base=0.3:0.7"])
    {'/characters/monster/life': (2, 10), '/priority/base': (0.3, 0.7)}
    >>> parse_knobs(["npcs=2:3", "npcs=3:4"])
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: --knob: names a knob already given (got 'npcs=3:4')
    >>> parse_knobs(["life=2"])
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: --knob: needs NAME=LOW:HIGH, e.g. ...=2:10 (got 'life=2')
    """
    knobs: dict[str, tuple] = {}
    for item in items:
        name, sep, rng = item.partition("=")
        ends = rng.split(":")
        if not sep or not name or len(ends) != 2:
            raise ArgumentError("needs NAME=LOW:HIGH, e.g. /characters/monster/life=2:10",
                                argument="--knob", value=item)  # fmt: skip
        try:
            values = tuple(int(e) if e.strip().lstrip("-").isdigit() else float(e) for e in ends)
        except ValueError:
            raise ArgumentError("LOW and HIGH must be numbers", argument="--knob",
                                value=item) from None  # fmt: skip
        if name.strip() in knobs:  # the later range would silently replace the first
            raise ArgumentError("names a knob already given", argument="--knob", value=item)
        knobs[name.strip()] = values
    return knobs


def register(sub: argparse._SubParsersAction, game_options: Any, engine_options: Any,
             make_executor: Any) -> None:  # fmt: skip
    """Add ``importance`` to the ``labkit sim`` group (``make_executor(args)`` reads the
    engine options: ``(executor, closer)``)."""
    im = sub.add_parser("importance", help="which knob moves the outcome (Morris, Sobol)")
    game_options(im)
    im.add_argument(
        "--knob",
        action="append",
        required=True,
        metavar="NAME=LOW:HIGH",
        help="settings field or balance pointer and its range (repeatable)",
    )
    im.add_argument("--method", choices=("morris", "sobol"), default="morris")
    im.add_argument(
        "--outcome",
        default="npc_win",
        help="npc_win, monster_win, step_limit, mutual_death, steps, turns, encounters",
    )
    im.add_argument("--games", type=int, default=20, help="games per evaluation (seed block)")
    im.add_argument("--n", type=int, default=512, help="Sobol base rows (a power of two)")
    im.add_argument("--trajectories", type=int, default=20, help="Morris paths")
    im.add_argument("--seeds", default="0:1000000", help="seed pool, cut into blocks")
    im.add_argument("--rng", type=A.seed, default=0, help="seed of the design and bootstrap")
    im.add_argument("--out", help="directory of the evaluations (the same command resumes)")
    im.add_argument("--csv", type=A.out_file_as(".csv"), help="write the tidy table as CSV")
    im.add_argument("--plot", type=A.out_file_as(".png", ".svg", ".pdf"),
                    help="save the bar chart (PNG, SVG, PDF)")  # fmt: skip
    engine_options(im)
    im.set_defaults(func=_cmd_importance, make_executor=make_executor)


def add_tune_options(tu: argparse.ArgumentParser) -> None:
    """The several-target options of ``labkit sim tune`` (used when a ``--knob`` is given)."""
    tu.add_argument("--knob", action="append", metavar="NAME=LOW:HIGH",
                    help="several-target form: a knob and its range (repeatable)")  # fmt: skip
    # Defaults are None so that the one-parameter form can refuse them (MANY_ONLY).
    tu.add_argument("--games", type=int_range(2, MAX_GAMES), metavar="N",
                    help="several targets: games per trial (default 400)")  # fmt: skip
    tu.add_argument("--fresh", type=int_range(2, MAX_GAMES), metavar="N",
                    help="several targets: fresh games per re-checked candidate "
                         "(default 2000)")  # fmt: skip
    tu.add_argument("--sampler", choices=("tpe", "nsga2"), help="several targets (default tpe)")
    tu.add_argument(
        "--enough",
        type=int_range(1, MAX_TRIALS),
        help="several targets: stop after this many trials meet every target",
    )
    tu.add_argument("--refine", type=int_range(0, MAX_TRIALS),
                    help="several targets: trials of the budget kept for a local refinement "
                         "when the re-check fails (confirmed on further fresh seeds)")  # fmt: skip
    tu.add_argument("--confirm", type=int_range(2, MAX_GAMES), metavar="N",
                    help="several targets: the most games the confirmation may play "
                         "(default 40000)")  # fmt: skip
    tu.add_argument("--out", help="several targets: directory of the study (resumable)")


#: ``labkit sim tune`` options of the several-target form (with ``--knob``) only.
MANY_ONLY = ("games", "fresh", "sampler", "enough", "refine", "confirm", "out")
#: Most trials of the several-target form, and games per trial or per re-check.
MAX_TRIALS = 10_000
MAX_GAMES = 1_000_000


def _executor(args: argparse.Namespace) -> tuple[Any, Any]:
    # the engine options' reader comes with the parser (cli.balance owns it: no import loop)
    return args.make_executor(args)


def _cmd_importance(args: argparse.Namespace) -> int:
    from labkit.encounter.cli.options import parse_seeds, settings_from_args
    from labkit.encounter.sim.importance import importance

    knobs = parse_knobs(args.knob)
    seeds = parse_seeds(args.seeds)
    base = settings_from_args(args, 0)
    executor, close = _executor(args)
    try:
        imp = importance(base, knobs, seeds=seeds, method=args.method, outcome=args.outcome,
                         games=args.games, n=args.n, trajectories=args.trajectories,
                         rng=args.rng, executor=executor, progress=not args.quiet,
                         out=args.out)  # fmt: skip
    finally:
        if close is not None:
            close()
    print(imp.summary())
    tiers = imp.tiers()
    if any(len(tier) > 1 for tier in tiers):
        labels = imp.table.drop_duplicates("knob").set_index("knob")["label"]
        print("ties (the data cannot order them): " + "; ".join(
            " = ".join(labels[k] for k in tier) for tier in tiers if len(tier) > 1))  # fmt: skip
    t = imp.table[imp.table["index"] == imp.main].sort_values("rank", na_position="last")
    for r in t.itertuples():
        rng = "" if r.knob == "seed block" else f" {_num(r.low)} to {_num(r.high)}"
        flag = "  matters" if r.matters else ""
        print(f"  {r.label}{rng}: {imp.main} {r.value:.3f} [{r.lo:.3f}, {r.hi:.3f}]{flag}")
    if args.csv:
        from labkit.io import atomic_write

        with atomic_write(args.csv) as fh:
            imp.table.to_csv(fh, index=False)
        print(f"saved {args.csv} ({len(imp.table)} rows)")
    if args.plot:
        art = imp.plot()
        art["ax"].figure.set_size_inches(7, 1 + 0.45 * len(t))
        art["ax"].figure.tight_layout()
        art["ax"].figure.savefig(args.plot)
        print(f"saved {args.plot}")
    return 0


def _num(v: float) -> str:
    return f"{int(v)}" if float(v).is_integer() else f"{v:g}"


def cmd_tune_many(args: argparse.Namespace) -> int:
    """``labkit sim tune --knob ... --target ...``: exit 0 when every target is met (each
    95 % interval inside its band on the confirmation's seeds), 1 when not."""
    import sys
    import warnings

    from labkit.encounter.cli.options import parse_seeds, settings_from_args
    from labkit.encounter.sim.importance_parts import JournalRepaired
    from labkit.encounter.sim.tune_many import CONFIRM, tune_many

    knobs = parse_knobs(args.knob)
    if args.budget is not None and args.budget > MAX_TRIALS:
        raise ArgumentError(f"with --knob it counts trials: at most {MAX_TRIALS}",
                            argument="--budget", value=args.budget)  # fmt: skip
    games = 400 if args.games is None else args.games
    fresh = 2000 if args.fresh is None else args.fresh
    refine = args.refine or 0
    confirm = CONFIRM if args.confirm is None else args.confirm
    base = settings_from_args(args, 0)
    # the search's, the re-check's and the largest confirmation's seeds
    wanted = games + fresh + confirm
    seeds = args.seeds if args.seeds != "0:4000" else f"0:{wanted}"
    executor, close = _executor(args)
    try:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always", JournalRepaired)
            t = tune_many(base, knobs, args.target, budget=args.budget or 300,
                          seeds=parse_seeds(seeds), games=games, fresh=fresh,
                          sampler=args.sampler or "tpe", enough=args.enough, out=args.out,
                          refine=refine, confirm=confirm,
                          executor=executor, progress=not args.quiet)  # fmt: skip
    finally:
        if close is not None:
            close()
    for w in said:  # a repaired journal in one line; any other warning as Python says it
        if issubclass(w.category, JournalRepaired):
            print(f"note: {w.message}", file=sys.stderr)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    print("Targets:")
    for target in t.targets:
        print(f"  {target.sentence()}")
    print(f"{len(t.trials)} trials on {t.search_games} paired seeds, "
          f"{int(t.trials['feasible'].sum())} with every estimate in its band there")  # fmt: skip
    print(f"Re-played on {t.fresh_games} fresh seeds to choose one, then the choice on "
          f"{t.confirm_games} confirmation seeds no choice has seen:")  # fmt: skip
    for r in t.checked.to_dict("records"):
        values = ", ".join(f"{k.label} = {k.text(r[k.name])}" for k in t.knobs)
        stage = "confirmation" if r["stage"] == "confirm" else "choice"
        print(f"  trial {r['trial']} ({stage}): {values}")
        for target in t.targets:
            n = target.name
            fmt = _rate if target.outcome in ("npc_win", "monster_win", "step_limit",
                                              "mutual_death") else _mean  # fmt: skip
            print(f"    {target.sentence()}: {fmt(r['est:' + n])} [{fmt(r['lo:' + n])}, "
                  f"{fmt(r['hi:' + n])}] {t.verdict(r, target)}")  # fmt: skip
    print(t.summary())
    if args.patch_out and t.best is not None:
        from labkit.io import save_json

        save_json(args.patch_out, t.patch())
        print(f"saved {args.patch_out}")
    return 0 if t.met else 1


def _rate(v: float) -> str:
    return f"{100 * v:.1f} %"


def _mean(v: float) -> str:
    return f"{v:.1f}"
