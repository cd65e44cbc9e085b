"""Mutation testing of labkit's rule and kernel modules with mutmut (``make mutate``).

Each module is mutated alone and run against its own test files (and its doctests) only, so
one module takes minutes, not hours. For every module this script builds a scratch project under
``build/mutate/<name>/`` (a copy of ``labkit/``, ``data/`` and ``tests/`` plus a
``pyproject.toml`` whose ``[tool.mutmut]`` names the one file and its tests), runs
``mutmut run`` there with one worker, and collects the verdicts into
``build/mutate/report.md`` (kill rate and every surviving mutant's diff, per module). Your
checkout is never modified: mutmut copies the scratch project again into ``mutants/``.

Kernels are mutated in their Python form: mutmut skips decorated functions, so in the scratch
copy of a ``_kernels.py`` each ``@kernel(...)`` decorator is rewritten as the equivalent call
after the function (``f = kernel(...)(f)``), and the tests run with ``LABKIT_DISABLE_JIT=1``
(mutmut's in-process switch between mutants cannot reach a compiled function).

``--compiled`` judges a kernel module's mutants again as they run in normal use: each mutant is
written into the scratch copy (``mutmut apply``) and the module's tests run in a new process
with the JIT on and a fresh, empty numba cache of its own (a cached kernel is not recompiled when
a kernel it calls changes in another file, and a shared cache would hand one mutant's machine
code to the next). Compiled code differs from Python where it matters to mutants: integers wrap,
indexing is not bounds-checked, types are fixed at compile time. The verdicts go to
``build/mutate/<name>/compiled.json``; the report has a table of them, and lists every mutant
whose compiled verdict differs from its Python one.

Usage::

    python scripts/mutate.py                 # every module (long: run it over a lunch break)
    python scripts/mutate.py rng io sound    # some modules
    python scripts/mutate.py --list          # the module table
    python scripts/mutate.py --report        # rebuild the report from earlier runs
    python scripts/mutate.py players --only '*x_quits*'   # some functions of a module first
    python scripts/mutate.py hex-solver-kernels --compiled     # then each mutant compiled
    python scripts/mutate.py hex-kernels --compiled --sample 60   # survivors + 60 others

Each run starts afresh (mutmut's cached verdicts would ignore new tests).
Equivalent mutants (no test can tell them apart) are listed with a reason in
``tests/MUTANTS.md``; the report marks them.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "mutate"

# name: (module file, its test files, mutate as Python with the JIT off)
MODULES: dict[str, tuple[str, list[str], bool]] = {
    "rng": ("labkit/rng.py", ["tests/test_rng.py", "tests/test_rng_names.py"], False),
    "io": (
        "labkit/io.py",
        [
            "tests/test_io.py",
            "tests/test_io_contract.py",
            "tests/test_atomic_saves.py",
            "tests/test_io_rules.py",
        ],
        False,
    ),
    "hex-kernels": (
        "labkit/hexpuzzle/_kernels.py",
        [
            "tests/hexpuzzle/test_collision.py",
            "tests/hexpuzzle/test_collision_grazing.py",
            "tests/hexpuzzle/test_collision_kernel_args.py",
        ],
        True,
    ),
    "hex-scorer": (
        "labkit/hexpuzzle/difficulty/scoring.py",
        [
            "tests/hexpuzzle/difficulty/test_scoring.py",
            "tests/hexpuzzle/difficulty/test_scoring_rounding.py",
            "tests/hexpuzzle/difficulty/test_scoring_contract.py",
            "tests/hexpuzzle/test_shipped_campaign.py",
        ],
        False,
    ),
    "hex-solver": (
        "labkit/hexpuzzle/solving/solver.py",
        ["tests/hexpuzzle/solving/test_solver.py", "tests/hexpuzzle/test_solver_contract.py"],
        False,
    ),
    "hex-solver-kernels": (
        "labkit/hexpuzzle/solving/_kernels.py",
        ["tests/hexpuzzle/solving/test_solver.py", "tests/hexpuzzle/test_solver_kernels.py"],
        True,
    ),
    "mapturn-scheduler": (
        "labkit/mapturn/scheduler.py",
        [
            "tests/mapturn/test_clock.py",
            "tests/mapturn/test_acceptance.py",
            "tests/mapturn/test_persistence.py",
            "tests/mapturn/test_actions.py",
            "tests/mapturn/test_behaviour.py",
            "tests/mapturn/test_scheduler_rules.py",
        ],
        False,
    ),  # fmt: skip
    "mapturn-skills": (
        "labkit/mapturn/battle.py",
        [
            "tests/mapturn/test_battle_threshold.py",
            "tests/mapturn/test_skill_rules.py",
            "tests/mapturn/test_acceptance.py",
            "tests/mapturn/test_actions.py",
        ],
        False,
    ),
    "mapturn-kernels": ("labkit/mapturn/_kernels.py", ["tests/mapturn/test_timeline.py"], True),
    "encounter-tables": (
        "labkit/encounter/rules/tables.py",
        ["tests/encounter/rules/test_tables.py", "tests/encounter/test_tables_contract.py"],
        False,
    ),
    "encounter-sound": (
        "labkit/encounter/rules/sound.py",
        [
            "tests/encounter/rules/test_sound.py",
            "tests/encounter/test_earshot.py",
            "tests/encounter/test_sound_errors.py",
        ],
        False,
    ),
    "encounter-cards": (
        "labkit/encounter/rules/cards.py",
        ["tests/encounter/rules/test_cards.py", "tests/encounter/test_cards_rules.py"],
        False,
    ),
    "encounter-kernels": (
        "labkit/encounter/_kernels.py",
        [
            "tests/encounter/rules/test_combat.py",
            "tests/encounter/rules/test_tables.py",
            "tests/encounter/rules/test_sound.py",
            "tests/encounter/test_earshot.py",
            "tests/encounter/test_kernel_contract.py",
        ],
        True,
    ),  # fmt: skip
    "pathfinding-kernels": (
        "labkit/pathfinding/_kernels.py",
        [
            "tests/pathfinding/test_grid.py",
            "tests/pathfinding/test_graph_search.py",
            "tests/pathfinding/test_kernels_reference.py",
        ],
        True,
    ),
    "pathfinding-predicate": (
        "labkit/pathfinding/predicate.py",
        [
            "tests/pathfinding/test_predicate.py",
            "tests/pathfinding/test_graph_search.py",
            "tests/pathfinding/test_pass_table.py",
            "tests/pathfinding/test_predicate_wrappers.py",
        ],
        False,
    ),
}

# Wave 2 and wave 3 (issue 32): one row per module -- name, file, its mirror tests (JIT off only
# for a ``_kernels.py``). A module moved or renamed is a one-line change here. The issue's own
# list comes first, so a run cut short has covered the modules it names.
H, E, M = "tests/hexpuzzle/", "tests/encounter/", "tests/mapturn/"
D, P, S = "labkit/hexpuzzle/difficulty/", "labkit/hexpuzzle/playthrough/", "labkit/encounter/sim/"
V = "labkit/hexpuzzle/evaluation/"
# skill.py's known-truth tests (difficulty/test_skill.py) take 40 s a run: its fast mirror instead
_SKILL = [H + "difficulty/test_skill_rules.py", H + "test_skill_exact.py"]
_DROPOUT = [H + "test_skill_dropout.py", H + "test_skill_exact.py"]
# skill_quit.py: its fast rules first (p_quit, interval, repr and design are not called by _DROPOUT)
_QUIT = [H + "difficulty/test_skill_quit_rules.py", *_DROPOUT]
# The rules (quitting, streams, options) fast; the simulated games' own tests take 13 s a run.
_PLAYERS = [
    H + "difficulty/test_players_reference.py",
    H + "difficulty/test_players_rules.py",
    H + "test_players_progression.py",
    H + "difficulty/test_players_weights.py",
]
_FUNNEL = [H + "test_funnel.py", H + "playthrough/test_simulate_kernel.py"] + [
    H + f"playthrough/test_{m}.py"
    for m in (
        "compare",
        "holdout",
        "improve",
        "improve_rules",
        "model",
        "report",
        "simulate",
        "truth",
    )
]
_FUNNEL_KERNEL = [H + "playthrough/test_simulate_kernel.py", H + "playthrough/test_simulate.py"]
# A notebook's kernel imports the installed labkit, not mutmut's mutated copy (and reads the
# installed data folder): the kernel tests of tests/share/ cannot judge a mutant. The mirror tests
# replace the kernel.
_VERIFY = ["tests/share/test_verify.py"]
_CURVE = [H + "solving/test_curve_rules.py", H + "solving/test_curve.py", H + "test_curve_exact.py"]
# The rules with a stand-in engine (exact tables, no games), then the real games. Not
# test_sweep_exact.py: its resumes run in a child process, which imports the installed labkit,
# never mutmut's mutant (mutmut puts mutants/ on sys.path in its own process only).
_SWEEP = [E + "sim/test_sweep_rules.py", E + "sim/test_sweep.py"]
_TUNE = [E + "sim/test_tune_rules.py", E + "sim/test_tune.py", E + "test_sweep_exact.py"]
# The exact rules and McNemar by hand; not test_compare.py: its known-truth checks play real
# games for every mutant (12 s) and pin nothing the rules file does not.
_PAIRED = [E + "sim/test_paired_rules.py", E + "sim/test_paired.py"]
_COMPARE = [E + "sim/test_compare_rules.py", E + "sim/test_compare.py"]
_IMPORTANCE = [E + "sim/test_importance_rules.py", E + "sim/test_importance.py"]
_TUNE_MANY = [E + "sim/test_tune_many_rules.py", E + "sim/test_tune_many.py"]
_RATINGS = [E + "sim/test_ratings_rules.py", E + "sim/test_ratings.py"]
_EVALUATE = [H + "evaluation/test_evaluate_rules.py", H + "evaluation/test_evaluate.py"]
# Wave 3's smaller parts of multi-target tuning, importance and the funnel: each module's own
# tests, then the rules of the module that uses it.
_REFINE = [E + "sim/test_tune_refine.py", E + "sim/test_tune_many_rules.py"]
_KNOBS = [
    E + "sim/test_knobs.py",
    "tests/test_renamed_names.py",  # the old name OUTCOMES, with its warning
    E + "sim/test_tune_many_rules.py",
    E + "sim/test_importance_rules.py",
]
_TARGETS = [E + "sim/test_targets.py", E + "sim/test_tune_many_rules.py"]
_ESTIMATORS = [
    E + "sim/test_importance_estimators_rules.py",
    E + "sim/test_importance_estimators.py",
    E + "sim/test_importance_rules.py",
]
# the study-folder and file refusals of issue 46 are tested in the hostile-files suite
_PARTS = [E + "sim/test_importance_parts.py", *_IMPORTANCE, "tests/test_hostile_files.py"]
_REPORT = [H + "playthrough/test_report.py", H + "playthrough/test_simulate.py",
           H + "cli/test_funnel.py", "tests/test_hostile_files.py"]  # fmt: skip
WAVES: list[tuple[str, str, list[str]]] = [
    ("mapturn-cache", "labkit/mapturn/cache.py", [M + "test_cache.py", M + "test_tick_order.py"]),
    ("hex-curve", "labkit/hexpuzzle/solving/curve.py", _CURVE),
    ("skill-fit", D + "skill_fit.py", [H + "difficulty/test_skill_fit.py"]),
    ("skill-quit", D + "skill_quit.py", _QUIT),
    ("skill-joint", D + "skill_joint.py", [H + "difficulty/test_skill_joint_rules.py",
                                           H + "difficulty/test_skill_joint.py", *_DROPOUT]),
    ("skill", D + "skill.py", _SKILL),
    ("players", D + "players.py", _PLAYERS),
    ("verify", "labkit/share/verify.py", _VERIFY),
    ("bundle", "labkit/share/bundle.py", ["tests/share/test_bundle_rules.py"]),
    ("snapshot", "labkit/share/snapshot.py", ["tests/share/test_snapshot.py"]),
    ("encounter-sweep", S + "sweep.py", _SWEEP),
    ("encounter-tune", S + "tune.py", _TUNE),
    ("funnel-model", P + "model.py", _FUNNEL),
    ("funnel-simulate", P + "simulate.py", _FUNNEL),
    ("funnel-truth", P + "truth.py", _FUNNEL),
    ("funnel-holdout", P + "holdout.py", _FUNNEL),
    ("funnel-compare", P + "compare.py", _FUNNEL),
    ("funnel-improve", P + "improve.py", _FUNNEL),
    # the kernel's reference and rule tests: through the Python kernel the whole funnel suite
    # takes longer than mutmut's first pass can wait (killed after 7 min)
    ("funnel-kernels", P + "_kernels.py", [H + "test_funnel.py", *_FUNNEL_KERNEL]),
    ("encounter-compare", S + "compare.py", _COMPARE),
    ("encounter-paired", S + "paired.py", _PAIRED),
    ("encounter-ratings", S + "ratings.py", _RATINGS),
    ("encounter-importance", S + "importance.py", _IMPORTANCE),
    ("encounter-tune-many", S + "tune_many.py", _TUNE_MANY),
    ("hex-evaluation", V + "evaluate.py", _EVALUATE),
    ("hex-evaluation-measures", V + "measures.py", [H + "evaluation/test_measures.py"]),
    ("hex-evaluation-baselines", V + "baselines.py", [H + "evaluation/test_baselines.py"]),
    ("encounter-tune-refine", S + "tune_refine.py", _REFINE),
    ("encounter-knobs", S + "knobs.py", _KNOBS),
    ("encounter-targets", S + "targets.py", _TARGETS),
    ("encounter-importance-estimators", S + "importance_estimators.py", _ESTIMATORS),
    ("encounter-importance-parts", S + "importance_parts.py", _PARTS),
    ("funnel-report", P + "report.py", _REPORT),
]  # fmt: skip
for _name, _file, _tests in WAVES:
    MODULES[_name] = (_file, _tests, _file.endswith("_kernels.py"))
# Issue 32: "a result checked only by a printed doctest number counts as unpinned" -- the wave-2
# and wave-3 modules are judged by their tests alone, not by their own doctests.
NO_DOCTESTS = {name for name, _, _ in WAVES}
# mutmut writes a copy of every function per mutant into the mutated module, docstring and all,
# so pytest would collect each doctest once per mutant (hex-curve: 245 copies of
# campaign_from_curve's doctests, 50 s for every mutant). Only the doctests of the public names
# run (mutmut's wrapper keeps the original docstring; its copies are named ``x_f__mutmut_*``).
ONLY_ORIGINAL_DOCTESTS = "not __mutmut_"


def undecorate_kernels(source: str) -> str:
    """Rewrite ``@kernel...`` decorators of module-level functions as calls after them.

    ``@kernel(example=f)\\ndef k(...): ...`` becomes ``def k(...): ...\\nk = kernel(example=f)(k)``
    -- the same object bound to the same name, but a function mutmut will mutate.
    """
    lines = source.splitlines(keepends=True)
    tree = ast.parse(source)
    edits = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or not node.decorator_list:
            continue
        decorators = [ast.get_source_segment(source, d) for d in node.decorator_list]
        if not all(re.match(r"kernel\b", d or "") for d in decorators):
            continue
        first = node.decorator_list[0].lineno - 1
        start = node.lineno - 1  # the ``def`` line
        call = node.name
        for d in reversed(decorators):
            call = f"{d}({call})"
        edits.append((first, start, node.end_lineno, f"{node.name} = {call}\n"))
    for first, start, end, assign in reversed(edits):
        lines[end:end] = [assign]
        del lines[first:start]
    return "".join(lines)


def fence_warmup_examples(source: str) -> str:
    """Put each warm-up factory (``_example*``, ``_grid_example``) between no-mutate fences.

    A kernel's ``_example*`` factory only builds arguments for ``labkit warmup`` to compile the
    kernel with; it holds no rule, so its mutants say nothing about the tests of the rules (they
    used to count as "no tests" or survivors against the kernel's kill rate).
    """
    lines = source.splitlines(keepends=True)
    tree = ast.parse(source)
    spans = [
        (node.lineno - 1 - len(node.decorator_list), node.end_lineno)
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and re.fullmatch(r"_(\w+_)?example(_\w+)?", node.name)
    ]
    for start, end in reversed(spans):
        lines[end:end] = ["# pragma: no mutate end\n"]
        lines[start:start] = ["# pragma: no mutate start\n"]
    return "".join(lines)


SKIP = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", ".hypothesis")


def mirror_selection(name: str) -> list[str]:
    """What judges a mutant of ``name``: its mirror tests, and its own doctests unless the
    module is in NO_DOCTESTS."""
    module, tests, _ = MODULES[name]
    return tests if name in NO_DOCTESTS else [*tests, module]


def scratch_kernel(module: str) -> str:
    """A kernel module's source as mutmut mutates it: decorators as calls, warm-ups fenced."""
    return fence_warmup_examples(undecorate_kernels((ROOT / module).read_text(encoding="utf-8")))


def prepare(name: str) -> Path:
    module, tests, jit_off = MODULES[name]
    missing = [t for t in [module, *tests] if not (ROOT / t).exists()]
    if missing:  # a moved test file would silently weaken the run: say so and stop
        raise SystemExit(f"scripts/mutate.py: {name}: no such file: {', '.join(missing)}")
    work = OUT / name
    work.mkdir(parents=True, exist_ok=True)
    # A fresh copy and fresh verdicts each run: mutmut's cache keys verdicts on the mutated
    # function, so a new test would not re-judge a cached survivor.
    (work / "diffs.json").unlink(missing_ok=True)
    for folder in ("labkit", "data", "tests", "mutants"):
        shutil.rmtree(work / folder, ignore_errors=True)
    for folder in ("labkit", "data", "tests"):
        shutil.copytree(ROOT / folder, work / folder, ignore=SKIP)
    with open(work / "tests" / "conftest.py", "a", encoding="utf-8") as conftest:
        conftest.write(FORK_HOOK)
    if jit_off:
        (work / module).write_text(scratch_kernel(module), "utf-8")
    selection = mirror_selection(name)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    text = text.split("\n[tool.mutmut]")[0]
    text += (
        "\n[tool.mutmut]\n"
        'source_paths = ["labkit"]\n'
        f"only_mutate = [{json.dumps(module)}]\n"
        'also_copy = ["data"]\n'
        # The module's own doctests count among its tests (not for NO_DOCTESTS).
        f"pytest_add_cli_args_test_selection = {json.dumps(selection)}\n"
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q", "-x", "-k", '
        f"{json.dumps(ONLY_ORIGINAL_DOCTESTS)}]\n"
        # mutmut's CPU limit per mutant is (estimate + constant) x multiplier x 2 seconds, where the
        # estimate sums the test *calls* that reach the function, not their fixtures: players'
        # game loop is reached from a fixture, estimated at 0.002 s, so with the defaults a mutant
        # that the tests simply pass in 5 s was stopped at 11 s of CPU and counted as a kill
        # (152 fake "timeouts"). A 10 s floor: a surviving mutant runs to its end; a mutant that
        # loops for ever costs 40 s of CPU before it counts as caught.
        "timeout_multiplier = 2.0\n"
        "timeout_constant = 10.0\n"
    )
    (work / "pyproject.toml").write_text(text, encoding="utf-8")
    return work


# tqdm guards every bar with one multiprocessing lock, a semaphore that forked processes share.
# mutmut forks each mutant from one parent and kills a child that runs past its timeout; a child
# killed while it held that lock (inside a bar's creation or close) leaves it held, and every
# later child then waits at its first progress bar until it is killed too: each counted as a
# caught "timeout" (hex-curve: 150 of 417 mutants, not one of them a real kill). Each mutant's
# process gets its own lock instead. Appended to the scratch copy's tests/conftest.py, which the
# clean run imports in mutmut's parent before it forks.
FORK_HOOK = """

# --- added by scripts/mutate.py (scratch copy only): a fresh tqdm lock in every forked child
def _mutate_fresh_tqdm_lock():
    import threading

    import tqdm.std

    classes = [tqdm.std.tqdm]
    while classes:
        cls = classes.pop()
        classes.extend(cls.__subclasses__())
        if "_lock" in vars(cls):
            cls._lock = threading.RLock()


import os as _mutate_os  # noqa: E402

_mutate_os.register_at_fork(after_in_child=_mutate_fresh_tqdm_lock)
"""


def run(name: str, only: list[str] | None = None) -> None:
    work = prepare(name)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # mutmut puts its mutants/ first on the path
    # A fresh numba cache for every module run: kernels compile as in normal use (JIT on unless
    # the module *is* a kernel file), never from a cache that an earlier run's mutated copy wrote.
    # Within a run mutmut forks each mutant from the clean run, and no mutant changes a compiled
    # function (mutmut leaves decorated kernels alone), so the compiled kernels stay valid.
    cache = work / "numba-cache"
    shutil.rmtree(cache, ignore_errors=True)
    env["NUMBA_CACHE_DIR"] = str(cache)
    env["MPLBACKEND"] = "Agg"
    env["HYPOTHESIS_PROFILE"] = "mutate"  # tests/conftest.py: fewer examples, no shrinking
    # mutmut forks every mutant from the process that ran the clean tests. GNU OpenMP (numba's
    # default threading layer here) is not fork-safe: once a parallel kernel (the skill fit's)
    # has run there, a child calling one hangs or is terminated, and mutmut counts that as a
    # caught "timeout" (hex-curve: 54 spurious timeouts, 5 of them mutants no test kills).
    # numba's fork-safe layer (workqueue) computes the same kernels.
    env["NUMBA_THREADING_LAYER"] = "forksafe"
    if MODULES[name][2]:
        env["LABKIT_DISABLE_JIT"] = "1"
    mutmut = [sys.executable, "-m", "mutmut"]
    started = time.monotonic()
    print(f"== {name}: mutating {MODULES[name][0]} against {', '.join(MODULES[name][1])}")
    with open(work / "mutmut.log", "w") as log:
        # ``only``: mutmut's own filter (fnmatch on mutant names); the rest stay "not checked"
        subprocess.run([*mutmut, "run", "--max-children", "1", *(only or [])], cwd=work, env=env,
                       stdout=log, stderr=subprocess.STDOUT, check=False)  # fmt: skip
    subprocess.run([*mutmut, "export-cicd-stats"], cwd=work, env=env, check=False,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    (work / "seconds").write_text(f"{time.monotonic() - started:.0f}\n")


def _mutant_verdicts(work: Path) -> dict[str, int | None]:
    """Every mutant of a run and mutmut's exit code for it (None: not checked)."""
    out: dict[str, int | None] = {}
    for meta in (work / "mutants").rglob("*.meta"):
        out.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return out


def compiled(name: str, sample: int | None = None, seed: int = 0) -> None:
    """Judge the mutants of kernel module ``name`` with the JIT on, a fresh numba cache each.

    Needs the module's ``mutmut run`` (its ``mutants/``). ``sample``: every mutant that survived
    the Python run plus this many of the others, drawn with ``seed`` (default: all of them).
    Verdicts are saved after every mutant, so a stopped run resumes where it was.
    """
    module, tests, jit_off = MODULES[name]
    if not jit_off:
        raise SystemExit(
            f"scripts/mutate.py: {name} is not a kernel module: --compiled is for those"
        )
    work = OUT / name
    python_verdicts = _mutant_verdicts(work) if (work / "mutants").exists() else {}
    if not python_verdicts:
        raise SystemExit(f"scripts/mutate.py: {name}: run it first (no mutants in {work})")
    keys = sorted(python_verdicts)
    if sample is not None:
        survived = [k for k in keys if python_verdicts[k] == 0]
        others = [k for k in keys if python_verdicts[k] != 0]
        keys = sorted(survived + random.Random(seed).sample(others, min(sample, len(others))))
    # today's tests (the scratch copy holds those of the Python run)
    shutil.rmtree(work / "tests", ignore_errors=True)
    shutil.copytree(ROOT / "tests", work / "tests", ignore=SKIP)
    saved = work / "compiled.json"
    done = json.loads(saved.read_text(encoding="utf-8")) if saved.exists() else {}
    target = work / module
    # the kernel as prepare() wrote it for the Python run, not as found: a run stopped while a
    # mutant was applied leaves that mutant in the scratch copy
    original = scratch_kernel(module)
    target.write_text(original, encoding="utf-8")
    env = dict(os.environ)
    env.pop("LABKIT_DISABLE_JIT", None)
    env.update(PYTHONPATH=str(work), MPLBACKEND="Agg", HYPOTHESIS_PROFILE="mutate")
    selection = mirror_selection(name)
    pytest = [sys.executable, "-m", "pytest", *selection, "-p", "no:cacheprovider", "-q", "-x",
              "-k", ONLY_ORIGINAL_DOCTESTS]  # fmt: skip

    def judge(limit: float | None) -> tuple[str, float]:
        cache = tempfile.mkdtemp(prefix="numba-cache-", dir=work)
        started = time.monotonic()
        try:
            r = subprocess.run(pytest, cwd=work, env={**env, "NUMBA_CACHE_DIR": cache},
                               timeout=limit, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, check=False)  # fmt: skip
            verdict = "survived" if r.returncode == 0 else "killed"
        except subprocess.TimeoutExpired:
            verdict = "timeout"
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        return verdict, time.monotonic() - started

    started = time.monotonic()
    print(f"== {name} compiled: {len(keys)} mutants, {len(done)} judged before")
    clean, seconds = judge(None)
    if clean != "survived":  # the unmutated kernels must pass, or every verdict is noise
        raise SystemExit(f"scripts/mutate.py: {name}: the tests fail compiled without a mutant")
    limit = 3 * seconds + 30
    try:
        for n, key in enumerate(keys, 1):
            if key in done:
                continue
            target.write_text(original, encoding="utf-8")
            subprocess.run([sys.executable, "-m", "mutmut", "apply", key], cwd=work, env=env,
                           check=True, stdout=subprocess.DEVNULL)  # fmt: skip
            done[key], _ = judge(limit)
            part = saved.with_suffix(".part")  # whole or not at all: a report may read it now
            part.write_text(json.dumps(done, indent=0, sort_keys=True), encoding="utf-8")
            os.replace(part, saved)
            print(f"  {n}/{len(keys)} {key}: {done[key]}", flush=True)
    finally:
        target.write_text(original, encoding="utf-8")
    (work / "compiled-seconds").write_text(f"{time.monotonic() - started:.0f}\n")


def compiled_report(names: list[str]) -> list[str]:
    """The table of compiled verdicts and the mutants whose verdict changed with the JIT."""
    eq = equivalents()
    rows, changed = [], []
    for name in names:
        saved = OUT / name / "compiled.json"
        if not saved.exists():
            continue
        done = json.loads(saved.read_text(encoding="utf-8"))
        python_verdicts = _mutant_verdicts(OUT / name)
        survived = [k for k, v in done.items() if v == "survived"]
        equiv = [k for k in survived if k in eq]
        killed = len(done) - len(survived)
        tested = len(done) - len(equiv)
        rate = f"{killed / tested:.1%}" if tested else "n/a"
        seconds_file = OUT / name / "compiled-seconds"
        seconds = seconds_file.read_text().strip() if seconds_file.exists() else "?"
        rows.append(f"| {name} | {len(python_verdicts)} | {len(done)} | {killed} | "
                    f"{len(survived)} ({len(equiv)}) | {rate} | {seconds} |")  # fmt: skip
        for key, verdict in sorted(done.items()):
            code = python_verdicts.get(key)
            was = {0: "survived", None: "not checked", 33: "no tests"}.get(code, "killed")
            if was in ("survived", "killed") and (verdict == "survived") != (was == "survived"):
                note = f" -- equivalent: {eq[key]}" if key in eq else ""
                changed.append(f"- `{key}`: {was} in Python, {verdict} compiled{note}")
    if not rows:
        return []
    return ["", "## Kernels compiled (`--compiled`: JIT on, a fresh numba cache per mutant)", "",
            "| module | mutants | judged compiled | killed + timeout | survived (equivalent) | "
            "kill rate excl. equivalent | seconds |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |", *rows, "",
            "Verdicts that differ from the Python run:" if changed else
            "No verdict differs from the Python run.", *changed]  # fmt: skip


def equivalents() -> dict[str, str]:
    """``tests/MUTANTS.md`` rows ``| mutant name | reason |``."""
    path = ROOT / "tests" / "MUTANTS.md"
    out = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) >= 2 and "__mutmut_" in cells[0]:
                out[cells[0].strip("`")] = cells[1]
    return out


def module_results(name: str) -> dict | None:
    work = OUT / name
    if not (work / "mutants").exists():
        return None
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    res = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"], cwd=work,
                         env=env, capture_output=True, text=True, check=False)  # fmt: skip
    status = {}
    for line in res.stdout.splitlines():
        if ": " in line and "__mutmut_" in line:
            key, verdict = line.strip().rsplit(": ", 1)
            status[key] = verdict
    # Survivors' diffs are kept beside the run: every report lists every module's survivors,
    # and one ``mutmut show`` costs a second.
    saved = work / "diffs.json"
    diffs = json.loads(saved.read_text(encoding="utf-8")) if saved.exists() else {}
    for key, verdict in status.items():
        if verdict == "survived" and key not in diffs:
            show = subprocess.run([sys.executable, "-m", "mutmut", "show", key], cwd=work,
                                  env=env, capture_output=True, text=True, check=False)  # fmt: skip
            diffs[key] = show.stdout.strip()
    saved.write_text(json.dumps(diffs), encoding="utf-8")
    seconds = (work / "seconds").read_text().strip() if (work / "seconds").exists() else "?"
    return {"status": status, "diffs": diffs, "seconds": seconds}


def report(names: list[str]) -> str:
    eq = equivalents()
    head = ["# Mutation testing report (`make mutate`)", "",
            "| module | file | mutants | killed | timeout | survived (equivalent) | other | "
            "kill rate | kill rate excl. equivalent | seconds |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]  # fmt: skip
    body = []
    for name in names:
        r = module_results(name)
        file = MODULES[name][0]
        if r is None:
            head.append(f"| {name} | {file} | not run | | | | | | | |")
            continue
        counts: dict[str, int] = {}
        for verdict in r["status"].values():
            counts[verdict] = counts.get(verdict, 0) + 1
        total = len(r["status"])
        killed = counts.get("killed", 0) + counts.get("timeout", 0)
        survived = [k for k, v in r["status"].items() if v == "survived"]
        equiv = [k for k in survived if k in eq]
        other = total - killed - len(survived)
        rate = killed / total if total else float("nan")
        tested = total - len(equiv)
        rate_eq = killed / tested if tested else float("nan")
        head.append(
            f"| {name} | {file} | {total} | {counts.get('killed', 0)} | "
            f"{counts.get('timeout', 0)} | {len(survived)} ({len(equiv)}) | {other} | "
            f"{rate:.1%} | {rate_eq:.1%} | {r['seconds']} |"
        )
        if other:
            rest = [f"{v} {n}" for v, n in sorted(counts.items())
                    if v not in ("killed", "timeout", "survived")]  # fmt: skip
            body.append(f"\n{name}: other verdicts: " + ", ".join(rest))
        if survived:
            body.append(f"\n## {name}: surviving mutants\n")
            for key in survived:
                note = f" -- equivalent: {eq[key]}" if key in eq else ""
                body.append(f"### `{key}`{note}\n\n```diff\n{r['diffs'].get(key, '')}\n```\n")
    return "\n".join(head + compiled_report(names) + body) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help=f"default: all of {', '.join(MODULES)}")
    parser.add_argument("--list", action="store_true", help="print the module table")
    parser.add_argument("--report", action="store_true", help="only rebuild the report")
    parser.add_argument("--only", action="append", metavar="GLOB",
                        help="mutate only the mutants whose name matches, e.g. '*x_quits*' "
                        "(repeatable; the others are reported as not checked)")  # fmt: skip
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="judge a kernel module's mutants again, compiled, each with a fresh "
        "numba cache (after its run; resumes where a stopped one was)",
    )
    parser.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help="with --compiled: the Python run's survivors plus N other mutants",
    )
    args = parser.parse_args(argv)
    if args.list:
        for name, (file, tests, jit_off) in MODULES.items():
            print(f"{name:22} {file:36} {' '.join(tests)}{'  (JIT off)' if jit_off else ''}")
        return 0
    unknown = [m for m in args.modules if m not in MODULES]
    if unknown:
        parser.error(f"unknown module(s) {unknown}; see --list")
    names = args.modules or list(MODULES)
    if args.compiled:
        # a kill (SIGTERM) runs the clean-up too: the scratch copy gets its kernel back
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
        for name in names:
            compiled(name, args.sample)
    elif not args.report:
        for name in names:  # one at a time: mutmut is CPU heavy
            run(name, args.only)
    text = report(list(MODULES))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "report.md").write_text(text, encoding="utf-8")
    print(text.split("\n\n## ")[0])
    print(f"full report with every survivor: {OUT / 'report.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
