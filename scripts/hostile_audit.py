"""Audit labkit against hostile files and command lines; print the counts per verdict.

Every generated malformed file (``tests/hostile_cases.py``: mutations of a valid document of
each format, whole-file hostility, telemetry CSV cases, plus FIFO / directory / device paths)
goes through the format's Python loader and through the ``labkit`` command that reads it; every
bad command line (``bad_argument_sets``) through ``labkit``. Verdicts:

* clean      — a LabkitError naming the file and pointer/line, or exit 1/2 with one stderr line
               (or an accepted file that writes back unchanged / a trace whose replay diverges);
* traceback  — any other exception, or a non-1/2 exit;
* accepted   — a file that must be refused loaded, or loaded with a value changed; a bad
               command line that exits 0;
* hang       — over the time budget (30 s a file, 60 s a command);
* noisy      — an error that printed more than one stderr line.

Usage::

    PYTHONPATH=. python scripts/hostile_audit.py [--quick] [--verbose]
    PYTHONPATH=. python scripts/hostile_audit.py --surfaces   # issue 33's class table
    PYTHONPATH=. python scripts/hostile_audit.py --wave3      # escaping, grids, wave 3's inputs
    PYTHONPATH=. python scripts/hostile_audit.py --options    # issue 46: cache, clusters, numbers,
                                                              # caches' keys, threads per worker
    PYTHONPATH=. python scripts/hostile_audit.py --files      # issue 46: files, telemetry, folders

Exit status 0 when every case is clean.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hostile_cases import (  # noqa: E402
    FORMATS,
    Case,
    all_cases,
    bad_argument_sets,
    in_child,
    judge_python,
    run_cli,
)


def special_paths(tmp: Path) -> list[tuple[str, str]]:
    """Paths that are not regular files: a FIFO (must not block), a folder, a device."""
    fifo = tmp / "fifo.json"
    os.mkfifo(fifo)
    return [("fifo", str(fifo)), ("directory", str(tmp)), ("device", "/dev/zero"),
            ("missing", str(tmp / "missing.json"))]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer mutations per format")
    parser.add_argument("--verbose", action="store_true", help="print every non-clean case")
    parser.add_argument("--no-cli", action="store_true", help="Python loaders only")
    parser.add_argument("--only-args", action="store_true", help="bad command lines only")
    parser.add_argument("--kinds", help="comma-separated formats to audit (default: all)")
    parser.add_argument("--surfaces", action="store_true",
                        help="only the issue-33 surfaces (bundles, sweep folders, escaping, "
                        "numbers): the class x cases x clean table")  # fmt: skip
    parser.add_argument("--wave3", action="store_true",
                        help="escaping in every app and repr, grid limits, wave 3's new "
                        "inputs (tests/test_hostile_iii.py): class x cases x clean")  # fmt: skip
    parser.add_argument("--options", action="store_true",
                        help="issue 46's numba cache, cluster options and typed/bounded "
                        "options (tests/test_hostile_options.py and the cache tests)")  # fmt: skip
    parser.add_argument("--files", action="store_true",
                        help="issue 46's study folders, balance files, model files, impossible "
                        "telemetry and funnel numbers (tests/test_hostile_files.py)")  # fmt: skip
    args = parser.parse_args()
    if args.files:
        return surfaces_table(FILES_TESTS, FILES)
    if args.options:
        return surfaces_table(OPTIONS_FILES, OPTIONS)
    if args.surfaces:
        return surfaces_table()
    if args.wave3:
        return surfaces_table("test_hostile_iii.py", WAVE3)
    os.environ.setdefault("MPLBACKEND", "Agg")
    py = collections.Counter()
    cli = collections.Counter()
    argv_counts = collections.Counter()
    per_kind = collections.Counter()
    problems = []
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        cases = [] if args.only_args else list(all_cases(*((4, 2) if args.quick else (10, 5))))
        for kind in [] if args.only_args else [*FORMATS, "telemetry"]:
            for name, path in special_paths(_fresh(tmp)):
                cases.append(Case(kind, f"path:{name}", b"", mutation=f"path:{path}"))
        if args.kinds:
            cases = [c for c in cases if c.kind in args.kinds.split(",")]
        for i, case in enumerate(cases):
            per_kind[case.kind] += 1
            if case.mutation.startswith("path:"):
                path = Path(case.mutation[5:])
            else:
                path = tmp / f"case-{i}.{'csv' if case.kind == 'telemetry' else 'json'}"
                path.write_bytes(case.data)
            verdict, detail = in_child(judge_python, case, path, seconds=30)
            py[verdict] += 1
            if verdict != "clean":
                problems.append(("python", case.kind, case.name, verdict, detail))
            if not args.no_cli:
                argv = _cli_argv(case.kind, str(path))
                if argv:
                    v, rc, out, err = _cli(argv)
                    if case.expect == "error" and rc == 0 and v == "clean":
                        v = "accepted"
                    cli[v] += 1
                    if v != "clean":
                        problems.append(("cli", case.kind, case.name, v, f"rc={rc} {err[:200]}"))
            if not case.mutation.startswith("path:"):
                path.unlink()
        for name, argv in bad_argument_sets(_fresh(tmp)):
            v, rc, out, err = _cli(argv)
            if v == "clean" and rc == 0:
                v = "accepted"
            argv_counts[v] += 1
            if v != "clean":
                problems.append(("argv", "cli", name, v, f"rc={rc} {err[:200]}"))
    if args.verbose or problems:
        for p in problems:
            print(" | ".join(p))
    total_files = sum(py.values())
    print(f"\nmalformed files: {total_files} ({dict(per_kind)})")
    print(f"  Python loaders: {_fmt(py)}")
    if not args.no_cli:
        runs = f"{sum(cli.values())} runs; balance, calibration: no command"
        print(f"  labkit command: {_fmt(cli)} ({runs})")
    print(f"bad argument sets: {sum(argv_counts.values())}: {_fmt(argv_counts)}")
    return 0 if not problems else 1


_counter = 0


#: Issue 33's classes: the corpus tests of tests/test_hostile.py that pin each one (a case is
#: one test or one parameter set; clean = it fails clean with its pinned one-line error).
SURFACES = {
    "bundles: malformed zip/manifest/notebook": "test_a_malformed_bundle",
    "bundles: options before work": "test_bundle_options_are_refused",
    "bundles: external paths never opened": "test_verify_never_opens",
    "bundles: API timeout": "test_verify_refuses_a_negative_timeout",
    "bundles: SIGTERM during bundle": "test_sigterm_during_bundle",
    "sweep folders": "test_sweep_parts_without|test_a_part_from_another|test_an_edited_part|"
                     "test_a_part_without_identity|test_a_second_process|test_the_sweep_lock",
    "escaping: HTML and terminal": "test_score_shows_control|test_apps_and_reprs_escape|"
                                   "test_gauge_tuner_escapes|test_the_snapshot_sanitises",
    "numbers: sweep sizes": "test_sweep_sizes_are_refused",
    "numbers: tune (API and CLI)": "test_tune_arguments_are_checked|test_sim_tune_options|"
                                   "test_sim_sweep_grid_range",
    "numbers: generate_to_target": "test_generate_to_target_checks",
    "campaigns": "test_a_campaign_",
    "issue 32: parse positions, floor limit": "test_parse_errors_name_line|"
                                              "test_a_huge_floor|test_rows_of_numbers",
}  # fmt: skip


#: Issues 32.4/32.5/33.5 (tests/test_hostile_iii.py): a case is one parameter set of a test.
WAVE3 = {
    "escaping: every app (labkit.widgets)": r"test_every_app_",
    "escaping: reprs from hostile files": r"test_every_repr_",
    "escaping: puzzle skill on the terminal": r"test_puzzle_skill_shows",
    "grid limits before parsing (tower, map)": r"test_a_huge_grid|test_grid_sizes_read",
    "funnel (API)": r"api_refuses.*\[funnel",
    "sim compare (API)": r"api_refuses.*\[compare",
    "puzzle evaluate (API)": r"api_refuses.*\[evaluate",
    "generator constraints": r"api_refuses.*\[generate",
    "improve_campaign": r"api_refuses.*\[improve",
    "sim importance (API)": r"api_refuses.*\[importance",
    "multi-target tune (API)": r"api_refuses.*\[tune_many",
    "telemetry loading": r"api_refuses.*\[telemetry",
    "quit models (object and file)": r"api_refuses.*\[(QuitModel|quit model)",
    "one command line per command": r"test_wave3_commands_",
}


#: Issue 46.1/.4/.5 (tests/test_hostile_options.py, the numba cache's and the clusters' tests).
OPTIONS_FILES = ("test_hostile_options.py", "test_jit_cache.py",
                 "encounter/cli/test_options_cluster.py", "test_hostile_caches.py",
                 "test_hostile_threads.py")  # fmt: skip
OPTIONS = {
    "numba cache: planted, foreign or huge files": r"test_jit_cache.*(can_write|another_owner|"
                                                   r"untrusted|size_limit)",
    "numba cache: corrupt entries recompile": r"test_jit_cache.*corrupt",
    "clusters: options before connecting": r"test_cluster_options_are_refused",
    "clusters: bounded waits, lost scheduler": r"test_options_cluster.*(timeout|connected_to|lost)",
    "numbers: sim compare (API)": r"api_numbers.*\[compare (survival|metrics|bootstrap)",
    "numbers: evaluate_generator (API)": r"api_numbers.*\[evaluate",
    "numbers: compare_fits (API)": r"api_numbers.*\[compare_fits",
    "numbers: importance sizes and products (API)": r"api_numbers.*\[importance",
    "numbers: tune_many trials and games (API)": r"api_numbers.*\[tune_many",
    "options: duplicate or ignored (CLI)": r"cli_options.*\[(\w+ --(knob|grid) twice|"
                                           r"tune --\w+ with)",
    "options: output paths and suffixes (CLI)": r"cli_options.*(--patch-out|--table-out|--csv|"
                                                r"--plot|--out folder)",
    "numbers: bounds and products (CLI)": r"cli_options.*(--budget|--games 1e9|--n 2|--folds|"
                                          r"calls product|--refine|--bootstrap x|--rng)",
    # issue 46 III: paths the tests' data never reached
    "options: output suffix matches the format (CLI)": r"cli_options.*\[(batch --out|run --out|"
                                                       r"puzzle \w+ --(out|json|svg) \.|"
                                                       r"path find --svg|bundle --out \.|"
                                                       r"mapturn play --save \.)",
    "caches: a second call differing in one option": r"test_hostile_caches\.py::",
    "several threads per worker (every study)": r"test_hostile_threads\.py::",
}  # fmt: skip


#: Issue 46.2/.3/.6 (tests/test_hostile_files.py and the held-out predictor's by-hand test): a
#: refusal case is one parameter set, named by its class; the other tests pin what is repaired,
#: counted or stated instead of refused.
FILES_TESTS = ("test_hostile_files.py", "hexpuzzle/playthrough/test_holdout.py")
FILES = {
    "importance folders": r"refuses.*\[importance |test_an_importance_run",
    "tune journals": r"refuses.*\[tune journal|test_a_torn_last_journal|test_a_refused_journal",
    "balance files and compare(games=)": r"refuse.*\[balance |test_a_whole_balance|"
                                         r"test_games_played_by",
    "model files": r"refuses.*\[model |test_the_shipped_model_and",
    "impossible telemetry": r"refuses.*\[telemetry |test_impossible_rows|test_a_fit_counts|"
                            r"test_shipped_telemetry|test_two_levels|test_retries_above|"
                            r"wins_or_loses_alike",
    "numbers (funnel goals, holdout, max_rows, funnel size)": r"refuse.*\[numbers |"
                                                             r"test_puzzle_funnel_shows|"
                                                             r"test_the_funnel_size_cap|"
                                                             r"test_max_rows_is_crossed",
    "held-out predictor: by-hand reference": r"test_the_held_out_prediction",
}  # fmt: skip


def surfaces_table(test_file: str | tuple[str, ...] = "test_hostile.py",
                   classes: dict | None = None) -> int:  # fmt: skip
    """Run the pinned cases of ``test_file`` and print the class x cases x clean table."""
    classes = SURFACES if classes is None else classes
    import re

    import pytest

    class Collect:
        def __init__(self) -> None:
            self.outcomes: dict[str, str] = {}

        def pytest_runtest_logreport(self, report):  # noqa: ANN001 - pytest's hook
            if report.when == "call" or report.outcome != "passed":
                self.outcomes[report.nodeid] = report.outcome

    collect = Collect()
    files = (test_file,) if isinstance(test_file, str) else test_file
    argv = [*(str(ROOT / "tests" / f) for f in files), "-q", "-p", "no:cacheprovider",
            "--no-header"]  # fmt: skip
    if classes is SURFACES:
        argv += ["-k", " or ".join(p for v in SURFACES.values() for p in v.split("|"))]
    pytest.main(argv, plugins=[collect])
    width = max(map(len, classes))
    print(f"\n{'class':<{width}}  cases  clean")
    total = ok = 0
    for cls, names in classes.items():
        hit = {n: o for n, o in collect.outcomes.items() if re.search(names, n)}
        clean = sum(o == "passed" for o in hit.values())
        total, ok = total + len(hit), ok + clean
        print(f"{cls:<{width}}  {len(hit):>5}  {clean:>5}")
    print(f"{'all':<{width}}  {total:>5}  {ok:>5}")
    return 0 if total == ok and total else 1  # no case collected (an import broke): not clean


def _cli(argv: list[str]) -> list:
    result = in_child(run_cli, argv, seconds=60)
    if len(result) == 2:  # the child was killed or failed outside run_cli
        return [result[0], None, "", result[1]]
    return result


def _fresh(tmp: Path) -> Path:
    global _counter
    _counter += 1
    d = tmp / f"d{_counter}"
    d.mkdir()
    return d


def _cli_argv(kind: str, path: str) -> list[str]:
    if kind == "telemetry":
        return ["puzzle", "calibrate", path, "--boot", "1", "--levels",
                str(ROOT / "data" / "levels")]  # fmt: skip
    return FORMATS[kind].cli(path)


def _fmt(counter: collections.Counter) -> str:
    keys = ["clean", "traceback", "accepted", "hang", "noisy"]
    return ", ".join(f"{k} {counter.get(k, 0)}" for k in keys)


if __name__ == "__main__":
    sys.exit(main())
