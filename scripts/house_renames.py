"""One name per idea: move labkit's modules to their house names and rewrite every reference.

Re-runnable. Each run, for every row of :data:`MOVES` (old file -> new file):

1. ``git mv`` the old file to the new one when the old one is still there (a run on a tree that
   already has the move skips it; an old file *and* a new file is a merge to sort out by hand and
   stops the script);
2. rewrite every reference to the old module in ``labkit/``, ``tests/``, ``notebooks/*.ipynb``,
   ``benchmarks/``, ``scripts/``, ``docs/``, ``README.md``, ``Makefile`` and ``pyproject.toml``:
   dotted paths (``import``, ``from … import``, ``mock.patch("…")``, ``:mod:`…```), file paths
   (``labkit/hexpuzzle/sweep.py``), ``from package import old_leaf`` (split out of a longer import
   list when needed, and the file's ``old_leaf.`` uses renamed with it), and relative imports
   (a moved file's relative imports become absolute, so they keep meaning what they meant);
3. regenerate the deprecation table ``labkit/_renamed.py``: importing an old *public* module
   path (no ``_``-prefixed part) still works for one release and warns with the new path;
4. regenerate ``pyproject.toml``'s package list from the folders that hold an ``__init__.py``.

So after merging branches written against the old names, running it again rewrites only the
references those branches brought in. Text between ``house-renames: off`` and
``house-renames: on`` markers (and any file saying ``house-renames: skip-file``) is left alone:
the places that must name the old paths (this table, the deprecation table and its test, the
design page's table of names).

    python scripts/house_renames.py            # apply
    python scripts/house_renames.py --check    # list what it would change, change nothing
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# house-renames: off
#: (old file, new file, why). A file that becomes a package keeps its module path
#: (``cli.py`` -> ``cli/__init__.py``); only its relative imports change.
MOVES: list[tuple[str, str, str]] = [
    # one word, one meaning
    ("labkit/hexpuzzle/sweep.py", "labkit/hexpuzzle/collision.py",
     "hexpuzzle's swept-hexagon collision; 'sweep' is encounter's parameter sweep"),
    ("labkit/widgets/collision_sweep.py", "labkit/widgets/collision_viewer.py",
     "the collision viewer app"),
    ("labkit/encounter/sim/world.py", "labkit/encounter/sim/room_map.py",
     "encounter's seeded room map; 'world' is mapturn's floors and hero"),
    ("labkit/mapturn/skills.py", "labkit/mapturn/battle.py",
     "skill states and battles; 'skill' is hexpuzzle's player-skill model"),
    # unclear names
    ("labkit/hexpuzzle/tap.py", "labkit/hexpuzzle/tap_trace.py",
     "judging a tap: trace_tap() and TapTrace"),
    ("labkit/hexpuzzle/mainline.py", "labkit/hexpuzzle/shipped_campaign.py",
     "the 24 recipes of the shipped campaign.json"),
    ("labkit/encounter/sim/outcome_only.py", "labkit/encounter/sim/fast_outcome.py",
     "a game's outcome row from the kernel, without its trace"),
    ("labkit/encounter/sim_draw.py", "labkit/encounter/draw_sim.py", "draw_* like draw_solver"),
    ("labkit/encounter/compare_draw.py", "labkit/encounter/draw_compare.py", "draw_*"),
    ("labkit/encounter/search_draw.py", "labkit/encounter/draw_search.py", "draw_*"),
    ("labkit/_demo.py", "labkit/_tour_kernel.py", "the kernel the tour notebook shows"),
    # one spelling per format module: <thing>_file
    ("labkit/hexpuzzle/_levelfile.py", "labkit/hexpuzzle/level_file.py", "the level format"),
    ("labkit/pathfinding/mapfile.py", "labkit/pathfinding/map_file.py", "the map format"),
    ("labkit/mapturn/_tower_doc.py", "labkit/mapturn/tower_file.py", "the tower format's writer"),
    ("labkit/encounter/rules/_balance_doc.py", "labkit/encounter/rules/balance_file.py",
     "the balance format's writer"),
    # one CLI layout: labkit/<domain>/cli/ with one module per command group
    ("labkit/encounter/cli.py", "labkit/encounter/cli/__init__.py", "labkit sim"),
    ("labkit/encounter/cli_balance.py", "labkit/encounter/cli/balance.py", "sim sweep, sim tune"),
    ("labkit/encounter/cli_compare.py", "labkit/encounter/cli/compare.py", "sim compare"),
    ("labkit/encounter/cli_options.py", "labkit/encounter/cli/options.py", "shared options"),
    ("labkit/encounter/cli_search.py", "labkit/encounter/cli/search.py", "sim importance"),
    ("labkit/mapturn/cli.py", "labkit/mapturn/cli/__init__.py", "labkit mapturn"),
    ("labkit/pathfinding/cli.py", "labkit/pathfinding/cli/__init__.py", "labkit path"),
    # sharing in one place
    ("labkit/_bundle.py", "labkit/share/bundle.py", "labkit bundle"),
    ("labkit/_bundle_zip.py", "labkit/share/bundle_zip.py", "reading a bundle someone sent"),
    ("labkit/_verify.py", "labkit/share/verify.py", "labkit verify"),
    ("labkit/_snapshot.py", "labkit/share/snapshot.py", "widget apps as static HTML"),
    # build tooling out of the installed package
    ("labkit/_docs.py", "labkit_build/docs.py", "make docs"),
    ("labkit/_report.py", "labkit_build/report.py", "make report"),
]  # fmt: skip
# house-renames: on

#: Packages the moves create, with the docstring of their ``__init__.py``.
NEW_PACKAGES = {
    "labkit/share": (
        '"""Sharing a notebook: ``labkit bundle`` packs it with its data, ``labkit verify``\n'
        "re-runs a bundle someone sent and compares it with what it recorded.\n\n"
        "* :mod:`labkit.share.bundle` makes a bundle; :mod:`labkit.share.bundle_zip` reads one,\n"
        "  checked whole before any entry is extracted; :mod:`labkit.share.verify` re-executes\n"
        "  and compares;\n"
        "* :mod:`labkit.share.snapshot` renders widget apps as static HTML (a bundle's notebook,\n"
        '  and the docs and report built by ``labkit_build``).\n"""\n'
    ),
    "labkit_build": (
        '"""Build tooling of the checkout, not shipped in the wheel: ``make docs``\n'
        '(:mod:`labkit_build.docs`) and ``make report`` (:mod:`labkit_build.report`)."""\n'
    ),
}

SCAN = ["labkit", "labkit_build", "tests", "benchmarks", "scripts", "docs", "notebooks"]
SCAN_FILES = ["README.md", "Makefile", "pyproject.toml"]
SUFFIXES = {".py", ".md", ".ipynb", ".toml", ".rst", ".txt", ".cfg", ".yml", ".yaml", ""}
DEPRECATION_TABLE = ROOT / "labkit" / "_renamed.py"


def module_of(path: str) -> str:
    parts = list(Path(path).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def renames() -> dict[str, str]:
    """Old module path -> new module path (moves that keep the path are left out)."""
    out = {}
    for old, new, _ in MOVES:
        if module_of(old) != module_of(new):
            out[module_of(old)] = module_of(new)
    return out


def is_public(module: str) -> bool:
    return not any(part.startswith("_") for part in module.split("."))


# ---------------------------------------------------------------------------- rewriting text


@functools.cache
def _patterns(table_items: tuple[tuple[str, str], ...]) -> tuple[re.Pattern, re.Pattern]:
    """One alternation each for dotted paths and file paths, longest first (one pass a file)."""
    dotted = "|".join(re.escape(old) for old, _ in sorted(table_items, key=lambda r: -len(r[0])))
    files = "|".join(re.escape(old) for old, _, _ in sorted(MOVES, key=lambda r: -len(r[0])))
    return (
        re.compile(rf"(?<![\w.])(?:{dotted})(?![\w])"),
        re.compile(rf"(?<![\w/.])(?:{files})(?![\w])"),
    )


def _dotted(text: str, table: dict[str, str]) -> str:
    """Dotted module paths and file paths."""
    dotted, files = _patterns(tuple(sorted(table.items())))
    text = dotted.sub(lambda m: table[m[0]], text)
    by_file = {old: new for old, new, _ in MOVES}
    return files.sub(lambda m: by_file[m[0]], text)


_FROM = re.compile(
    r"^(?P<indent>[ \t]*(?:>>> |\.\.\. )?[ \t]*)"
    r"from[ \t]+(?P<dots>\.*)(?P<base>[\w.]*)[ \t]+import[ \t]+"
    r"(?P<names>\([^)]*\)|[^\n#]*?)(?P<tail>[ \t]*(?:#[^\n]*)?)$",
    re.M,
)


def _package(path: Path) -> str:
    """The package a Python file's relative imports start from."""
    rel = path.relative_to(ROOT)
    module = module_of(str(rel))
    return module if rel.name == "__init__.py" else module.rpartition(".")[0]


def _from_imports(text: str, table: dict[str, str], package: str | None, moved: bool) -> str:
    """``from X import a, b`` statements whose module, or a module they import, was renamed.

    ``package`` is the package relative imports resolve in (``None``: not a Python file);
    ``moved``: the file itself moved, so every relative import becomes absolute.
    """
    local: dict[str, str] = {}

    def fix(m: re.Match) -> str:
        dots, base = m["dots"], m["base"]
        if dots and package is None:
            return m[0]
        if dots:
            parent = package.split(".")
            parent = parent[: len(parent) - (len(dots) - 1)]
            absolute = ".".join(parent + ([base] if base else []))
        else:
            absolute = base
        if not absolute.startswith(("labkit", "labkit_build")):
            return m[0]
        raw = m["names"].strip()
        parts = [p.strip() for p in raw.strip("()").replace("\n", " ").split(",") if p.strip()]
        names = []
        for p in parts:
            name, _, alias = p.partition(" as ")
            names.append((name.strip(), alias.strip() or None))
        keep, split = [], []
        for name, alias in names:
            sub = f"{absolute}.{name}"
            if sub in table:
                new_pkg, _, new_leaf = table[sub].rpartition(".")
                if alias is None and new_leaf != name:
                    taken = rf"(?<![\w.]){new_leaf}(?:\.[A-Za-z_]|\s*\(|\s*=[^=])"
                    taken_by_import = rf"^[^#\n]*\bimport\b[^#\n]*(?<![\w.]){new_leaf}\b"
                    if re.search(taken, text) or re.search(taken_by_import, text, re.M):
                        alias = name  # the new name is taken in this file: keep the local one
                    else:
                        local[name] = new_leaf
                split.append((new_pkg, new_leaf, alias))
            else:
                keep.append((name, alias))
        new_base = _dotted(absolute, table)
        if not split and new_base == absolute and not (dots and moved):
            return m[0]
        indent = m["indent"]
        lines = []
        if keep:
            # still relative when the file stayed and its module did too
            if dots and not moved and new_base == absolute:
                head = dots + base
            elif dots and not moved and new_base.rpartition(".")[0] == absolute.rpartition(".")[0]:
                head = dots + new_base.rpartition(".")[2]  # ``.skills`` -> ``.battle``
            else:
                head = new_base
            listed = ", ".join(n + (f" as {a}" if a else "") for n, a in keep)
            if raw.startswith("(") and "\n" in raw:
                body = "".join(f"{indent}    {n}{f' as {a}' if a else ''},\n" for n, a in keep)
                lines.append(f"{indent}from {head} import (\n{body}{indent})")
            else:
                lines.append(f"{indent}from {head} import {listed}")
        for new_pkg, new_leaf, alias in split:
            as_alias = f" as {alias}" if alias else ""
            # ``from . import skills`` -> ``from . import battle``: relative stays relative
            head = dots + base if dots and not moved and new_pkg == absolute else new_pkg
            lines.append(f"{indent}from {head} import {new_leaf}{as_alias}")
        if m["tail"].strip() and lines:
            lines[0] += m["tail"]
        return "\n".join(lines)

    text = _FROM.sub(fix, text)
    for old_leaf, new_leaf in local.items():
        # the module's local name, where it is used as a module (``old_leaf.attribute``)
        text = re.sub(rf"(?<![\w.]){re.escape(old_leaf)}\.(?=[A-Za-z_])", new_leaf + ".", text)
        if old_leaf.startswith("_"):
            # a private module's name means nothing else: ``monkeypatch.setattr(_bundle, …)``
            text = re.sub(rf"(?<![\w.]){re.escape(old_leaf)}(?![\w])", new_leaf, text)
    return text


def _regions(text: str, rewrite) -> str:
    """Apply ``rewrite`` outside ``house-renames: off`` … ``house-renames: on`` regions."""
    if "house-renames: skip-file" in text:
        return text
    pieces = re.split(r"(house-renames: off.*?house-renames: on)", text, flags=re.S)
    return "".join(p if p.startswith("house-renames: off") else rewrite(p) for p in pieces)


def _relative_roles(text: str, table: dict[str, str], package: str) -> str:
    """Sphinx roles naming a module relative to the file's package (``:mod:`.sweep```)."""

    def fix(m: re.Match) -> str:
        name = m[2]
        for cut in range(name.count(".") + 1, 0, -1):
            head = ".".join(name.split(".")[:cut])
            old = f"{package}.{head}"
            if old in table:
                new = table[old] + name[len(head) :]
                inside = new.startswith(package + ".")
                return m[1] + ("." + new[len(package) + 1 :] if inside else new) + "`"
        return m[0]

    return re.sub(r"(:\w+:`~?)\.([\w.]+)`", fix, text)


def rewrite_text(text: str, table, package, moved) -> str:
    def one(chunk: str) -> str:
        chunk = _from_imports(chunk, table, package, moved)
        if package:
            chunk = _relative_roles(chunk, table, package)
        return _dotted(chunk, table)

    return _regions(text, one)


def rewrite_notebook(text: str, table) -> str:
    nb = json.loads(text)
    changed = False
    for cell in nb.get("cells", []):
        src = cell.get("source", "")
        joined = "".join(src) if isinstance(src, list) else src
        new = rewrite_text(joined, table, None, False)
        if new != joined:
            changed = True
            cell["source"] = new.splitlines(keepends=True) if isinstance(src, list) else new
    if not changed:
        return text
    return json.dumps(nb, indent=1, ensure_ascii=False) + ("\n" if text.endswith("\n") else "")


# ---------------------------------------------------------------------------- the steps


def git(*args: str) -> None:
    subprocess.run(["git", *args], cwd=ROOT, check=True)


def move_files(check: bool) -> list[str]:
    done = []
    for old, new, _ in MOVES:
        src, dst = ROOT / old, ROOT / new
        if not src.exists():
            continue
        if dst.exists():
            sys.exit(f"both {old} and {new} exist: merge them by hand, then run again")
        done.append(f"git mv {old} {new}")
        if check:
            continue
        pkg = dst.parent
        pkg.mkdir(parents=True, exist_ok=True)
        rel = str(pkg.relative_to(ROOT))
        if not (pkg / "__init__.py").exists() and dst.name != "__init__.py":
            (pkg / "__init__.py").write_text(NEW_PACKAGES.get(rel, f'"""{rel}."""\n'))
            git("add", str(pkg / "__init__.py"))
        # relative imports of a moved file: made absolute against where the file was
        text = src.read_text(encoding="utf-8")
        src.write_text(_from_imports(text, renames(), _package(src), True), encoding="utf-8")
        git("mv", old, new)
    return done


def files_to_scan() -> list[Path]:
    out = []
    for top in SCAN:
        base = ROOT / top
        if base.exists():
            out += [p for p in base.rglob("*") if p.is_file() and p.suffix in SUFFIXES]
    out += [ROOT / f for f in SCAN_FILES if (ROOT / f).exists()]
    skip = {"build", ".venv", "__pycache__", ".ipynb_checkpoints", "numba-cache"}
    return sorted(p for p in out if not skip & set(p.relative_to(ROOT).parts))


def rewrite_references(check: bool) -> list[str]:
    table = renames()
    changed = []
    for path in files_to_scan():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if path.suffix == ".ipynb":
            new = rewrite_notebook(text, table)
        elif path.suffix == ".py":
            new = rewrite_text(text, table, _package(path) if _in_package(path) else None, False)
        else:
            new = rewrite_text(text, table, None, False)
        if new != text:
            changed.append(str(path.relative_to(ROOT)))
            if not check:
                path.write_text(new, encoding="utf-8")
    return changed


def _in_package(path: Path) -> bool:
    return (path.parent / "__init__.py").exists()


def deprecation_table() -> str:
    rows = "".join(
        f'    "{old}": "{new}",\n' for old, new in sorted(renames().items()) if is_public(old)
    )
    template = (ROOT / "labkit" / "_renamed.py").read_text(encoding="utf-8")
    return re.sub(
        r"RENAMED: dict\[str, str\] = \{.*?\}\n",
        lambda m: "RENAMED: dict[str, str] = {\n" + rows + "}\n",
        template,
        count=1,
        flags=re.S,
    )


def write_deprecation_table(check: bool) -> bool:
    new = deprecation_table()
    if new == DEPRECATION_TABLE.read_text(encoding="utf-8"):
        return False
    if not check:
        DEPRECATION_TABLE.write_text(new, encoding="utf-8")
    return True


def write_package_list(check: bool) -> bool:
    path = ROOT / "pyproject.toml"
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^packages = \[\n(.*?)^\]", text, flags=re.S | re.M)
    assert m, "pyproject.toml has no packages list"
    data = [line for line in m[1].splitlines() if '"labkit.data' in line]
    code = sorted(
        module_of(str(p.relative_to(ROOT)))
        for p in (ROOT / "labkit").rglob("__init__.py")
        if "__pycache__" not in p.parts
    )
    body = "".join(f'    "{name}",\n' for name in code) + "".join(line + "\n" for line in data)
    new = text[: m.start(1)] + body + text[m.end(1) :]
    if new == text:
        return False
    if not check:
        path.write_text(new, encoding="utf-8")
    return True


def tidy(files: list[str]) -> None:
    """Sort the imports the rewrite split or renamed (ruff, when it is installed)."""
    ruff = shutil.which("ruff") or shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff and files:
        subprocess.run([ruff, "check", "--fix", "--select", "I", "--quiet", *files], cwd=ROOT)
        subprocess.run([ruff, "format", "--quiet", *files], cwd=ROOT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report, change nothing")
    args = parser.parse_args(argv)
    moved = move_files(args.check)
    for line in moved:
        print(line)
    changed = rewrite_references(args.check) + [line.split()[-1] for line in moved]
    for name in changed:
        print("rewrote", name)
    if changed and not args.check:
        tidy([name for name in changed if name.endswith(".py")])
    if write_deprecation_table(args.check):
        print("rewrote labkit/_renamed.py")
    if write_package_list(args.check):
        print("rewrote pyproject.toml packages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
