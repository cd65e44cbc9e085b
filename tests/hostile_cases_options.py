"""Hostile input, issue 46 (4, 5): cluster options, and numbers and options typed and bounded.

Builders shared by ``tests/test_hostile_options.py`` and ``scripts/hostile_audit.py --options``:
:func:`cluster_cases`, :func:`api_cases` and :func:`cli_cases`, each with the part of its
one-line error it must give. Every case is refused before any game, level, fit or connection
(the API cases replace the work with a function that fails the test if reached). The numba
cache's cases are subprocess runs: ``tests/test_jit_cache.py``.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
LIFE = "/characters/monster/life=1:5"
BATCH = ["sim", "batch", "--seeds", "0:4", "--quiet"]


def _file(tmp: Path, name: str, text: str) -> str:
    path = tmp / name
    path.write_text(text)
    return str(path)


def _dangling(tmp: Path) -> str:
    link = tmp / "dangling.json"
    if not os.path.lexists(link):
        link.symlink_to(tmp / "gone.json")
    return str(link)


def cluster_cases() -> list[tuple[str, Callable[[Path], list[str]], str]]:
    """Scheduler options refused before connecting (exit 2, one line)."""
    sf = "--scheduler-file"
    return [
        ("--scheduler ''", lambda t: [*BATCH, "--scheduler", ""],
         "argument --scheduler: empty address"),
        ("--scheduler foo://bar", lambda t: [*BATCH, "--scheduler", "foo://bar"],
         "the scheme must be one of tcp, tls, inproc, ucx, ws, wss (got 'foo://bar')"),
        ("--scheduler tcp://host (no port)", lambda t: [*BATCH, "--scheduler", "tcp://host"],
         "needs HOST:PORT after tcp:// (got 'tcp://host')"),
        ("--scheduler-file dangling link", lambda t: [*BATCH, sf, _dangling(t)],
         "dangling.json: file not found"),
        ("--scheduler-file /dev/zero", lambda t: [*BATCH, sf, "/dev/zero"],
         "/dev/zero: not a regular file (a character device)"),
        ("--scheduler-file a folder", lambda t: [*BATCH, sf, str(t)],
         "not a regular file (a directory)"),
        ("--scheduler-file not JSON", lambda t: [*BATCH, sf, _file(t, "s.json", "tcp://x:1")],
         "s.json"),
        ("--scheduler-file without address", lambda t: [*BATCH, sf, _file(t, "s.json", "{}")],
         "not a scheduler file (a JSON object with an 'address' string)"),
        ("--scheduler-file bad address",
         lambda t: [*BATCH, sf, _file(t, "s.json", json.dumps({"address": "foo://x"}))],
         "/address: the scheme must be one of"),
        ("--scheduler-file 2 MB", lambda t: [*BATCH, sf, _file(t, "s.json", " " * 2**21 + "{}")],
         "over this format's limit of 1048576"),
        ("--connect-timeout 0", lambda t: [*BATCH, "--scheduler", "tcp://h:1",
                                           "--connect-timeout", "0"],
         "argument --connect-timeout: must be between 0.1 and 3600 (got 0)"),
        ("--workers-timeout nan", lambda t: [*BATCH, "--scheduler", "tcp://h:1",
                                             "--workers-timeout", "nan"],
         "argument --workers-timeout: must be between 0.1 and 86400 (got nan)"),
    ]  # fmt: skip


# --- the API -----------------------------------------------------------------------------------


def _never(*a: Any, **k: Any) -> Any:
    raise AssertionError("work started before the options were checked")


def _compare(**kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        import labkit.encounter.sim.compare as c

        keep, c.play_pair = c.play_pair, _never
        try:
            return c.compare({}, {}, range(4), **kw)
        finally:
            c.play_pair = keep

    return call


def _compare_seeds(n: int, bootstrap: int) -> Any:
    import labkit.encounter.sim.compare as c

    keep, c.play_pair = c.play_pair, _never
    try:
        return c.compare({}, {}, range(n), bootstrap=bootstrap)
    finally:
        c.play_pair = keep


class _Text:
    """A generator that returns a string where a Level belongs."""

    def __call__(self, target: Any, rng: Any, budget: Any) -> Any:
        return "not a level"


def _evaluate(generate: Any = None, **kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle.evaluation.evaluate import evaluate_generator

        args = {"n": 1, "seeds": [0], "budget": 10, **kw}
        return evaluate_generator(generate or _never, [{"score": 40}], **args)

    return call


@functools.cache
def _skill_rows() -> Any:
    import numpy as np

    from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill

    theta = np.random.default_rng(2).normal(0, 1, 8)  # 8 players
    return telemetry_from_skill(["a", "b", "c"], [0.0, 0.5, 1.0], theta, rng=3)


def _compare_fits(**kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        import labkit.hexpuzzle.difficulty.skill as skill
        from labkit.hexpuzzle.difficulty.skill_compare import compare_fits

        keep, skill.fit_skill_model = skill.fit_skill_model, _never
        try:
            return compare_fits(_skill_rows(), ["a", "b", "c"], features=False, **kw)
        finally:
            skill.fit_skill_model = keep

    return call


def _importance(knobs: Any = None, **kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.encounter.sim.importance import importance

        return importance(None, knobs or {"a": (0.0, 1.0), "b": (0, 5)}, response=_never,
                          progress=False, **kw)  # fmt: skip

    return call


def _tune_many(**kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.encounter.sim.tune_many import tune_many

        return tune_many(None, {"a": (0.0, 1.0)}, ["npc_win=0.5±0.05"], response=_never,
                         progress=False, **kw)  # fmt: skip

    return call


def api_cases() -> list[tuple[str, Callable[[Path], Any], str]]:
    """Numbers and types of the API: (name, call, part of the one-line error)."""
    nan = float("nan")
    return [
        ("compare survival_turns [nan]", _compare(survival_turns=[nan]),
         "survival_turns[0]: must be an integer (got nan)"),
        ("compare survival_turns [0]", _compare(survival_turns=[0]),
         "survival_turns[0]: must be between 1 and 100000"),
        ("compare survival_turns 'ab'", _compare(survival_turns="ab"),
         "survival_turns: must be a list of turns"),
        ("compare survival_turns range(1e9)", _compare(survival_turns=range(1, 10**9)),
         "survival_turns: at most 20 turns"),
        ("compare bootstrap x seeds before games", lambda t: _compare_seeds(10**6, 10_000),
         "bootstrap: 10000 resamples x 1000000 seeds is more than 50000000 draws"),
        ("compare metrics unknown before games", _compare(metrics=["bogus"]),
         "metrics: unknown metric"),
        ("evaluate generator returns a string", _evaluate(_Text()),
         "generate: must return a Level or None (seed 0, target 0, level 0) (got 'str')"),
        ("evaluate budget 1e6", _evaluate(budget=10**6), "budget: must be between 1 and 100000"),
        ("evaluate seeds x n x budget", _evaluate(budget=100_000, n=200, seeds=range(10)),
         "10 seeds x 1 targets x 200 levels x 100000 solver calls is over 10000000"),
        ("compare_fits folds 1", _compare_fits(folds=1), "folds: must be between 2 and 20"),
        ("compare_fits folds 0", _compare_fits(folds=0), "folds: must be between 2 and 20"),
        ("compare_fits folds True", _compare_fits(folds=True), "folds: must be an integer"),
        ("compare_fits folds > players", _compare_fits(folds=20),
         "folds: must be at most the"),
        ("compare_fits folds 21", _compare_fits(folds=21), "folds: must be between 2 and 20"),
        ("compare_fits options text", _compare_fits(options="x"), "options: must map names"),
        ("importance n 2^30", _importance(method="sobol", n=2**30), "n: must be at most 2^20"),
        ("importance n x knobs", _importance({f"k{i}": (0.0, 1.0) for i in range(40)},
                                             method="sobol", n=2**15),
         "n x (knobs + 3) = 1409024 evaluations, over 1000000"),
        ("importance trajectories 1e9", _importance(trajectories=10**9),
         "trajectories at most 100000"),
        ("importance levels 1002", _importance(levels=1002),
         "levels: levels must be at most 1000 and trajectories at most 100000"),
        ("tune_many budget 1e9", _tune_many(budget=10**9), "budget: must be at most 10000"),
        ("tune_many games 1e9", _tune_many(games=10**9), "games: must be at most 1000000"),
        ("tune_many budget x games", _tune_many(budget=10_000, games=20_000),
         "budget: 10000 trials x 20000 games is over 100000000 games"),
        ("importance bootstrap 1e9", _importance(bootstrap=10**9),
         "bootstrap: must be between 1 and 10000"),
        ("importance bootstrap x evaluations", _importance(method="sobol", n=2**17,
                                                           bootstrap=10_000),
         "10000 resamples x 655360 evaluations is over 50000000"),
        ("importance games 1e6", _importance(games=10**6, seeds=range(3 * 10**6)),
         "games: must be between 1 and 100000"),
        ("importance games x evaluations", _importance(method="sobol", n=2**17, games=5000,
                                                       seeds=range(10_000)),
         "655360 evaluations x 5000 games is over 1000000000"),
    ]  # fmt: skip


def cli_cases() -> list[tuple[str, Callable[[Path], list[str]], str]]:
    """Command lines refused before any game, fit or file written (exit 1/2, one line)."""
    tel = str(DATA / "telemetry" / "sample.csv")
    camp = str(DATA / "levels" / "campaign.json")
    tune = ["sim", "tune", "--target", "npc_win=0.5±0.05", "--quiet"]
    one = ["sim", "tune", "--target", "0.5", "--param", "/characters/monster/life",
           "--bounds", "1,5", "--quiet"]  # fmt: skip
    cmp = ["sim", "compare", "--seeds", "0:4", "--quiet"]
    return [
        ("importance --knob twice", lambda t: ["sim", "importance", "--knob", "npcs=2:3",
                                               "--knob", "npcs=3:4", "--quiet"],
         "--knob: names a knob already given (got 'npcs=3:4')"),
        ("sweep --grid twice", lambda t: ["sim", "sweep", "--grid", "npcs=2,3", "--grid",
                                          "npcs=3,4", "--quiet"],
         "--grid: names a parameter already given (got 'npcs=3,4')"),
        ("importance --rng 1e23", lambda t: ["sim", "importance", "--knob", LIFE, "--rng",
                                             "99999999999999999999999", "--quiet"],
         "argument --rng: must be between 0 and"),
        ("tune --knob twice", lambda t: [*tune, "--knob", LIFE, "--knob", LIFE],
         "--knob: names a knob already given"),
        ("tune --knob with --param", lambda t: [*tune, "--knob", LIFE, "--param", "npcs"],
         "--param: belongs to the one-parameter form"),
        ("tune --knob with --bounds", lambda t: [*tune, "--knob", LIFE, "--bounds", "1,5"],
         "--bounds: belongs to the one-parameter form"),
        ("tune --knob with --start", lambda t: [*tune, "--knob", LIFE, "--start", "20"],
         "--start: belongs to the one-parameter form"),
        ("tune --param with --games", lambda t: [*one, "--games", "40"],
         "--games: belongs to the several-target form"),
        ("tune --param with --sampler", lambda t: [*one, "--sampler", "nsga2"],
         "--sampler: belongs to the several-target form"),
        ("tune --knob --budget 1e9", lambda t: [*tune, "--knob", LIFE, "--budget", "100000000"],
         "--budget: with --knob it counts trials: at most 10000"),
        ("tune --knob --games 1e9", lambda t: [*tune, "--knob", LIFE, "--games", "1000000000"],
         "argument --games: must be between 2 and 1000000"),
        ("tune --knob --refine 1e6", lambda t: [*tune, "--knob", LIFE, "--refine", "1000000"],
         "argument --refine: must be between 0 and 10000"),
        ("tune --knob --confirm 1e9", lambda t: [*tune, "--knob", LIFE, "--confirm",
                                                 "1000000000"],
         "argument --confirm: must be between 2 and 1000000"),
        ("tune --param with --confirm", lambda t: [*one, "--confirm", "100"],
         "--confirm: belongs to the several-target form"),
        ("tune --precision 0.5", lambda t: [*one, "--precision", "0.5"],
         "argument --precision: must be strictly between 0 and 0.5"),
        ("tune --precision nan", lambda t: [*one, "--precision", "nan"],
         "argument --precision: must be strictly between 0 and 0.5"),
        ("tune --knob with --precision", lambda t: [*tune, "--knob", LIFE, "--precision",
                                                    "0.05"],
         "--precision: belongs to the one-parameter form"),
        ("tune --patch-out .txt", lambda t: [*one, "--patch-out", str(t / "p.txt")],
         "argument --patch-out: must end in .json"),
        ("compare --bootstrap x --seeds", lambda t: [*cmp[:3], "0:1000000", "--bootstrap",
                                                     "10000", "--quiet"],
         "--bootstrap: 10000 resamples x 1000000 seeds is more than 50000000 draws"),
        ("compare --table-out folder", lambda t: [*cmp, "--table-out", str(_folder(t, "d.csv"))],
         "argument --table-out: cannot write"),
        ("compare --table-out .xlsx", lambda t: [*cmp, "--table-out", str(t / "t.xlsx")],
         "argument --table-out: must end in .csv or .parquet"),
        ("importance --csv folder", lambda t: ["sim", "importance", "--knob", LIFE, "--csv",
                                               str(_folder(t, "i.csv"))], "argument --csv"),
        ("importance --plot .gif", lambda t: ["sim", "importance", "--knob", LIFE, "--plot",
                                              str(t / "p.gif")], "must end in .png or .svg"),
        ("importance --n 2^30", lambda t: ["sim", "importance", "--knob", LIFE, "--method",
                                           "sobol", "--n", str(2**30), "--quiet"],
         "n: must be at most 2^20"),
        ("sweep --csv .xlsx", lambda t: ["sim", "sweep", "--grid", "npcs=2,3", "--csv",
                                         str(t / "s.xlsx")], "argument --csv: must end in .csv"),
        ("puzzle skill --folds 1000", lambda t: ["puzzle", "skill", tel, camp, "--folds",
                                                 "1000"],
         "argument --folds: must be between 0 and 20"),
        ("puzzle skill --folds > players", lambda t: ["puzzle", "skill", _few_players(t), camp,
                                                      "--folds", "20"],
         "--folds: must be at most the"),
        ("puzzle skill --out folder", lambda t: ["puzzle", "skill", tel, camp, "--out",
                                                 str(_folder(t, "m.json"))], "argument --out"),
        ("puzzle evaluate --budget 10^6", lambda t: ["puzzle", "evaluate", "--budget",
                                                     str(10**6)],
         "argument --budget: must be between 1 and 100000"),
        ("puzzle evaluate calls product", lambda t: ["puzzle", "evaluate", "--budget", "100000",
                                                     "--n", "100"],
         "solver calls is over 10000000"),
        *suffix_cases(),
    ]  # fmt: skip


def suffix_cases() -> list[tuple[str, Callable[[Path], list[str]], str]]:
    """Issue 46 III: an output whose format is fixed must carry its suffix (``sim batch --out
    t.xlsx`` wrote CSV text under a spreadsheet's name); refused before any work."""
    tel = str(DATA / "telemetry" / "sample.csv")
    camp = str(DATA / "levels" / "campaign.json")
    model = str(DATA / "telemetry" / "skill_model.json")
    level = str(DATA / "levels" / "01-grazing.json")
    return [
        ("batch --out .xlsx", lambda t: [*BATCH, "--out", str(t / "p.xlsx")],
         "argument --out: must end in .csv (got"),
        ("run --out .csv", lambda t: ["sim", "run", "--out", str(t / "p.csv")],
         "argument --out: must end in .json (got"),
        ("puzzle funnel --out .xlsx", lambda t: ["puzzle", "funnel", camp, model, "--out",
                                                 str(t / "p.xlsx")],
         "argument --out: must end in .csv (got"),
        ("puzzle telemetry --out .json", lambda t: ["puzzle", "telemetry", "--out",
                                                    str(t / "p.json")],
         "argument --out: must end in .csv (got"),
        ("puzzle calibrate --json .csv", lambda t: ["puzzle", "calibrate", tel, "--json",
                                                    str(t / "p.csv")],
         "argument --json: must end in .json (got"),
        ("puzzle campaign --out .csv", lambda t: ["puzzle", "campaign", "--out",
                                                  str(t / "p.csv")],
         "argument --out: must end in .json (got"),
        ("puzzle show --svg .png", lambda t: ["puzzle", "show", level, "--svg",
                                              str(t / "p.png")],
         "argument --svg: must end in .svg (got"),
        ("path find --svg .png", lambda t: ["path", "find", str(DATA / "maps" / "corridors.json"),
                                            "--from", "1,1", "--to", "1,1", "--svg",
                                            str(t / "p.png")],
         "argument --svg: must end in .svg (got"),
        ("bundle --out .tar", lambda t: ["bundle", str(DATA.parent / "notebooks" / "x.ipynb"),
                                         "--out", str(t / "p.tar")],
         "argument --out: must end in .zip (got"),
        ("mapturn play --save .txt", lambda t: ["mapturn", "play", str(DATA / "mapturn" /
                                                                        "tower.json"),
                                                "--save", str(t / "p.txt")],
         "argument --save: must end in .json (got"),
    ]  # fmt: skip


def _folder(tmp: Path, name: str) -> Path:
    path = tmp / name
    path.mkdir(exist_ok=True)
    return path


def _few_players(tmp: Path) -> str:
    """The sample telemetry cut to its first three players (folds 20 > players 3)."""
    lines = (DATA / "telemetry" / "sample.csv").read_text(encoding="utf-8").splitlines()
    head = [ln for ln in lines if ln.startswith("#") or ln.startswith("level")]
    body = [ln for ln in lines if ln not in head]
    column = head[-1].split(",").index("player")
    keep = sorted({ln.split(",")[column] for ln in body})[:3]
    chosen = [ln for ln in body if ln.split(",")[column] in keep]
    return _file(tmp, "few.csv", "\n".join([*head, *chosen]) + "\n")
