"""Move test files so the tests mirror the package: tests/<domain>/<subpackage>/test_<module>.py.

Re-runnable (a second run moves nothing); run from the repository root::

    python scripts/mirror_tests.py            # move with git mv, rewrite imports and paths
    python scripts/mirror_tests.py --dry-run  # print the moves only

Where a file goes:

* an app's test (in ``tests/widgets*`` or listed in ``WIDGET_TESTS``) goes to ``tests/widgets/``,
  renamed after its app module where ``RENAME`` says so;
* ``tests/<domain>/test_<name>.py`` goes beside the module ``<name>`` when exactly one module of
  that name exists in a subpackage of ``labkit/<domain>/`` (a command module of the same name
  aside); otherwise it stays (a test spanning modules, or one whose module is at the domain's
  top level already); ``test_cli_<name>.py`` goes to ``tests/<domain>/cli/test_<name>.py`` when
  ``labkit/<domain>/cli/<name>.py`` exists;
* ``RENAME`` maps a test file to the name it should have (split or misnamed files).

After moving, relative imports in the moved files become absolute (``from .helpers`` ->
``from tests.mapturn.helpers``), imports of a moved test module (``tests.hexpuzzle.test_curve``)
and paths written in text files (``tests/hexpuzzle/test_sweep.py`` in scripts/mutate.py, docs)
follow, every new folder gets an ``__init__.py`` (test ids stay unique: pytest imports each test
file as a module of its package), and a fixture a moved file takes from a ``conftest.py`` that
no longer encloses it is imported by name. A destination that exists already is an error.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
PACKAGE = ROOT / "labkit"
DOMAINS = ("hexpuzzle", "pathfinding", "mapturn", "encounter")
# App tests kept in domain folders (they test labkit.widgets apps).
WIDGET_TESTS = {
    "tests/encounter/test_balance_tuner.py",
    "tests/encounter/test_probability_explorer.py",
    "tests/encounter/test_trace_viewer.py",
    "tests/hexpuzzle/test_widget.py",
    "tests/mapturn/test_gauge_tuner.py",
    "tests/pathfinding/test_playground.py",
}
# Old path -> new path, where the rule above cannot guess the module's name.
RENAME = {
    "tests/encounter/test_probability_explorer.py": "tests/widgets/test_probability.py",
    "tests/hexpuzzle/test_widget.py": "tests/widgets/test_collision_viewer.py",
    # the modules scripts/house_renames.py renamed: their tests follow the new names
    "tests/widgets/test_collision_sweep.py": "tests/widgets/test_collision_viewer.py",
    "tests/hexpuzzle/test_sweep.py": "tests/hexpuzzle/test_collision.py",
    "tests/hexpuzzle/test_sweep_grazing.py": "tests/hexpuzzle/test_collision_grazing.py",
    "tests/hexpuzzle/test_sweep_kernel_args.py": "tests/hexpuzzle/test_collision_kernel_args.py",
    "tests/test_bundle.py": "tests/share/test_bundle.py",
    "tests/test_share_exact.py": "tests/share/test_verify_exact.py",
}
# Tests that span a domain's modules although one module shares their name.
KEEP = {"tests/hexpuzzle/test_funnel.py"}  # funnel() and its CLI, not only cli/funnel.py
LEAVE = ("browser", "notebooks", "data")  # folders that are not module tests
TEXT_SUFFIXES = {".py", ".md", ".toml", ".cfg", ".ini", ".txt", ".yml", ".yaml", ""}
TEXT_FOLDERS = ("tests", "scripts", "docs", "benchmarks", "labkit")
TEXT_FILES = ("Makefile", "pyproject.toml", "README.md")


def modules_by_name(domain: str) -> dict[str, list[Path]]:
    """Module name -> its files inside a subpackage of ``labkit/<domain>`` (depth >= 1)."""
    found: dict[str, list[Path]] = {}
    for path in (PACKAGE / domain).rglob("*.py"):
        rel = path.relative_to(PACKAGE / domain)
        if len(rel.parts) > 1 and "__pycache__" not in rel.parts:
            found.setdefault(path.stem, []).append(rel)
    return found


def plan() -> dict[str, str]:
    """Old -> new path (repository-relative, posix) of every test file that moves."""
    moves: dict[str, str] = {}
    by_domain = {d: modules_by_name(d) for d in DOMAINS}
    for path in sorted(TESTS.rglob("test_*.py")):
        rel = path.relative_to(ROOT).as_posix()
        parts = path.relative_to(TESTS).parts
        if parts[0] in LEAVE or rel in KEEP:
            continue
        if rel in RENAME:
            new = RENAME[rel]
        elif parts[0].startswith("widgets") or rel in WIDGET_TESTS:
            new = f"tests/widgets/{path.name}"
        elif len(parts) == 2 and parts[0] in DOMAINS:
            name = path.stem[len("test_") :]
            if (PACKAGE / parts[0] / f"{name}.py").exists():
                continue  # the test of the domain's top-level module of that name: it stays
            homes = by_domain[parts[0]].get(name, [])
            if name.startswith("cli_") and Path("cli", name[4:] + ".py") in by_domain[parts[0]].get(
                name[4:], []
            ):
                new = f"tests/{parts[0]}/cli/test_{name[4:]}.py"  # test_cli_skill: cli/skill.py
            else:
                # A name shared with a command module: the test is of the library module.
                if len(homes) > 1:
                    homes = [h for h in homes if h.parts[0] != "cli"]
                if len(homes) != 1:
                    continue
                new = f"tests/{parts[0]}/{homes[0].parent.as_posix()}/{path.name}"
        else:
            continue
        if new != rel:
            moves[rel] = new
    targets = list(moves.values())
    clashes = {t for t in targets if targets.count(t) > 1 or (ROOT / t).exists()}
    if clashes:
        sys.exit(f"destinations taken (split or rename by hand first): {sorted(clashes)}")
    return moves


def module_of(rel: str) -> str:
    return rel[: -len(".py")].replace("/", ".")


def absolute_imports(source: str, old: str) -> str:
    """Relative imports of the file at ``old`` written absolutely."""
    package = module_of(old).rsplit(".", 1)[0].split(".")

    def fix(m: re.Match) -> str:
        dots, rest = len(m.group(2)), m.group(3)
        base = package[: len(package) - dots + 1]
        target = ".".join(base + ([rest] if rest else []))
        return f"{m.group(1)}from {target} import"

    return re.sub(r"^(\s*)from (\.+)([\w.]*) import", fix, source, flags=re.M)


def fixtures_left_behind(source: str, old: str, new: str) -> list[tuple[str, str]]:
    """(conftest module, fixture) for fixtures the file uses from a conftest it leaves."""
    old_dirs = {p for p in (ROOT / old).parents if TESTS in (p, *p.parents)}
    new_dirs = {p for p in (ROOT / new).parents if TESTS in (p, *p.parents)}
    used = {
        a.arg
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef)
        for a in node.args.args
    }
    out = []
    for folder in sorted(old_dirs - new_dirs):
        conftest = folder / "conftest.py"
        if not conftest.exists():
            continue
        tree = ast.parse(conftest.read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in used:
                if any("fixture" in ast.unparse(d) for d in node.decorator_list):
                    out.append((module_of(conftest.relative_to(ROOT).as_posix()), node.name))
    return out


def text_files() -> list[Path]:
    files = [ROOT / f for f in TEXT_FILES if (ROOT / f).exists()]
    for folder in TEXT_FOLDERS:
        files += [
            p
            for p in (ROOT / folder).rglob("*")
            if p.is_file()
            and p.suffix in TEXT_SUFFIXES
            and "__pycache__" not in p.parts
            and p != Path(__file__).resolve()  # its own tables name the old paths
        ]
    return files


def apply(moves: dict[str, str]) -> None:
    if not moves:
        return
    for old, new in moves.items():
        source = (ROOT / old).read_text()
        source = absolute_imports(source, old)
        lines = [
            f"from {mod} import {name}  # noqa: F401 - fixture from the old folder's conftest"
            for mod, name in fixtures_left_behind(source, old, new)
        ]
        if lines:
            block = "\n".join(lines) + "\n"
            source = re.sub(r"^(from __future__ import annotations\n)", r"\1\n" + block, source,
                            count=1, flags=re.M)  # fmt: skip
        (ROOT / new).parent.mkdir(parents=True, exist_ok=True)
        folder = (ROOT / new).parent
        while folder != TESTS:
            init = folder / "__init__.py"
            if not init.exists():
                init.write_text("")
                subprocess.run(["git", "add", str(init)], cwd=ROOT, check=True)
            folder = folder.parent
        subprocess.run(["git", "mv", old, new], cwd=ROOT, check=True)
        (ROOT / new).write_text(source)
    # Paths and module names of moved files, wherever they are written.
    swaps = [(old, new) for old, new in moves.items()]
    swaps += [(module_of(old), module_of(new)) for old, new in moves.items()]
    pattern = re.compile("|".join(re.escape(o) + r"(?![\w])" for o, _ in swaps))
    table = dict(swaps)
    for path in text_files():
        text = path.read_text(errors="surrogateescape")
        new_text = pattern.sub(lambda m: table[m.group(0)], text)
        if new_text != text:
            path.write_text(new_text, errors="surrogateescape")
    # Folders emptied of tests (the old widgets_* folders) go.
    for folder in sorted(TESTS.glob("widgets_*")):
        left = [p for p in folder.rglob("*") if p.is_file() and p.name != "__init__.py"
                and "__pycache__" not in p.parts]  # fmt: skip
        if not left:
            subprocess.run(["git", "rm", "-rq", str(folder)], cwd=ROOT, check=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    moves = plan()
    for old, new in moves.items():
        print(f"{old} -> {new}")
    if not args.dry_run:
        apply(moves)
    print(f"{len(moves)} files {'to move' if args.dry_run else 'moved'}")


if __name__ == "__main__":
    main()
