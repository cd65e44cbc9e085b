"""``make docs``: the documentation site, from the executed notebooks and the docstrings.

Steps: stage ``docs/conf.py``, ``docs/index.md`` and the rules (``docs/rules/``) into ``SRC``
(default ``build/docs-src``);
execute every notebook with static figures (:func:`labkit_build.report.execute_notebook`) and turn
widget apps into static snapshots (:func:`labkit.share.snapshot.staticize`); write one API page per
domain listing every name in that package's ``__all__`` (classes, functions, exceptions,
constants, sub-modules); then run Sphinx (myst-nb renders the notebooks without executing them
again) into ``OUT`` (default ``build/docs/html``). The pages use relative links and local
scripts only, so the site works from the file system and from ``python -m http.server``.

Usage: ``python -m labkit_build.docs [OUT] [--src SRC] [--notebooks NB ...]``.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

from labkit.io import atomic_write

ROOT = Path(__file__).resolve().parent.parent

# Every public package, in the order a reader meets them, with one line on what it holds.
DOMAINS = (
    ("labkit", "Core", "the version, the error classes, kernel warm-up and the notebook stamp"),
    ("labkit.io", "Files", "validated JSON loading, version upgrades and atomic writes"),
    ("labkit.rng", "Random numbers", "seeds to generators, named independent streams"),
    ("labkit.hexpuzzle", "Hex puzzle", "levels, sweeps, solver, generator, difficulty"),
    ("labkit.pathfinding", "Pathfinding", "tiles, pass predicates, graphs, fast grid search"),
    ("labkit.mapturn", "Map turns", "world, gauge scheduler, active cache, actions"),
    ("labkit.encounter", "Encounters", "combat tables, sound, knowledge, simulation, replay"),
    ("labkit.widgets", "Widget apps", "interactive apps over the domains (ipywidgets)"),
)


def _kind(obj: object) -> str:
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if callable(obj):
        return "function"
    return "data"


DIRECTIVES = {"class": "autoclass", "exception": "autoexception", "function": "autofunction"}
HEADINGS = (("class", "Classes"), ("function", "Functions"), ("exception", "Errors"),
            ("data", "Constants and types"), ("module", "Modules"))  # fmt: skip


def public_names(module: ModuleType) -> list[str]:
    """The names a domain exports (``__all__``), in its order."""
    return list(getattr(module, "__all__", []))


def api_page(modname: str, title: str, blurb: str) -> str:
    """reStructuredText of one domain's API page: a summary table, then every name."""
    module = importlib.import_module(modname)
    names = public_names(module)
    kinds = {n: _kind(getattr(module, n)) for n in names}
    heading = f"{title}: ``{modname}``"
    lines = [heading, "=" * len(heading), "", f"{blurb[0].upper()}{blurb[1:]}.", "",
             f".. currentmodule:: {modname}", ""]  # fmt: skip
    summarised = [n for n in names if kinds[n] not in ("module", "data")]
    if summarised:
        lines += [".. autosummary::", "   :nosignatures:", ""]
        lines += [f"   {n}" for n in summarised]
        lines.append("")
    for kind, label in HEADINGS:
        chosen = [n for n in names if kinds[n] == kind]
        if not chosen:
            continue
        lines += [label, "-" * len(label), ""]
        for n in chosen:
            if kind == "module":
                lines += [f".. automodule:: {modname}.{n}", "   :members:", ""]
            elif kind in ("class", "exception"):
                lines += [f".. {DIRECTIVES[kind]}:: {n}", "   :members:", ""]
            elif kind == "data":  # the value, not the docstring of its type (float, dict...)
                value = getattr(module, n)
                shown = repr(value) if len(repr(value)) <= 60 else f"<{type(value).__name__}>"
                lines += [f".. py:data:: {n}", f"   :type: {type(value).__name__}",
                          f"   :value: {shown}", ""]  # fmt: skip
            else:
                lines += [f".. {DIRECTIVES[kind]}:: {n}", ""]
    return "\n".join(lines) + "\n"


def write_api(src: Path) -> list[Path]:
    """Write ``api/index.md`` and one page per domain under ``src``; returns the pages."""
    api = src / "api"
    api.mkdir(parents=True, exist_ok=True)
    pages = []
    for modname, title, blurb in DOMAINS:
        page = api / f"{modname.replace('.', '_')}.rst"
        with atomic_write(page) as fh:
            fh.write(api_page(modname, title, blurb))
        pages.append(page)
    rows = "\n".join(f"| [{t}]({p.stem}.rst) | `{m}` | {b} |"
                     for (m, t, b), p in zip(DOMAINS, pages))  # fmt: skip
    toc = "\n".join(p.stem for p in pages)
    index = (
        "# API reference\n\nEvery public name of labkit, grouped by domain (each package's "
        "`__all__`).\n\n| domain | package | what it holds |\n| --- | --- | --- |\n"
        f"{rows}\n\n```{{toctree}}\n:hidden:\n\n{toc}\n```\n"
    )
    with atomic_write(api / "index.md") as fh:
        fh.write(index)
    return pages


def stage_notebooks(
    src: Path, notebooks: list[Path], progress: bool = True, executed: dict | None = None
) -> list[Path]:
    """Execute each notebook (or take it from ``executed``, ``{path: executed node}``) and write
    it, widgets as snapshots, under ``src/notebooks``."""
    import copy

    import nbformat
    from tqdm.auto import tqdm

    from labkit.share.snapshot import staticize
    from labkit_build.report import execute_notebook

    folder = src / "notebooks"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for path in tqdm(notebooks, desc="executing notebooks", unit="nb", disable=not progress):
        nb = copy.deepcopy(executed[path]) if executed and path in executed else None
        nb = nb or execute_notebook(path)
        staticize(nb)
        target = folder / path.name
        with atomic_write(target) as fh:
            nbformat.write(nb, fh)
        written.append(target)
    return written


def build(
    out: Path,
    *,
    src: Path | None = None,
    notebooks: list[Path] | None = None,
    progress: bool = True,
    executed: dict | None = None,
    api: bool = True,
) -> Path:
    """Stage and build the site; returns the folder holding ``index.html``.

    ``api=False`` leaves the API reference out (an empty page; quick builds for tests)."""
    src = src or ROOT / "build" / "docs-src"
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb")) if notebooks is None else notebooks
    if src.exists():
        shutil.rmtree(src)  # a notebook removed since the last build must not linger
    src.mkdir(parents=True)
    for name in ("conf.py", "index.md"):
        shutil.copy2(ROOT / "docs" / name, src / name)
    shutil.copytree(ROOT / "docs" / "rules", src / "rules")  # the rules each system follows
    stage_notebooks(src, notebooks, progress, executed)
    if api:
        write_api(src)
    else:
        (src / "api").mkdir()
        (src / "api" / "index.md").write_text("# API reference\n\n(left out of this build)\n")
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E", "-j", "1",
           "-d", str(src / ".doctrees"), str(src), str(out)]  # fmt: skip
    subprocess.run(cmd, check=True, cwd=src)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m labkit_build.docs", description=__doc__)
    parser.add_argument("out", nargs="?", default=str(ROOT / "build" / "docs" / "html"))
    parser.add_argument("--src", help="staging folder (default build/docs-src)")
    parser.add_argument("--notebooks", nargs="*", help="only these notebooks (default: all)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    notebooks = [Path(n) for n in args.notebooks] if args.notebooks is not None else None
    out = build(Path(args.out), src=Path(args.src) if args.src else None, notebooks=notebooks)
    took = time.perf_counter() - start
    print(f"built the documentation site in {took:.0f} s: open {out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
