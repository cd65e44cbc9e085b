"""The import graph of ``labkit`` keeps its layers (DESIGN section 1).

The graph is read from the source with :mod:`ast` (nothing is imported), so a cycle is caught
even where Python would happen to tolerate it. Two graphs are checked:

* the *module-level* graph (what runs at import time) must have no cycle;
* the *logic* graph adds imports made inside functions (and ``importlib.import_module("…")``
  with a literal name), because a lazy import that closes a loop (a model calling its parser,
  which builds the model) is still a cycle in the design. The one lazy edge left out is the one
  the design asks for: a model importing its drawing module (``draw``, ``draw_*``, ``*_draw``)
  inside its notebook display hook (``_repr_svg_``, ``_repr_html_``, ``_repr_png_``). The root
  package's facade functions and a kernel's warm-up factory are edges like any other.

Blocks under ``if TYPE_CHECKING:`` are never edges. Domains may not import each other except
``mapturn -> pathfinding`` (the chase); a domain never imports ``widgets`` or ``labkit.cli``;
widgets use only public names of the domains.

``python tests/test_layering.py`` prints the graph summary.
"""

from __future__ import annotations

import ast
import pathlib
from collections import defaultdict

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1] / "labkit"
DOMAINS = ("hexpuzzle", "pathfinding", "mapturn", "encounter")
ALLOWED_CROSSING = {("mapturn", "pathfinding")}


def _modules() -> dict[str, tuple[pathlib.Path, bool]]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_package)
    return out


MODULES = _modules()


DISPLAY_HOOKS = {"_repr_svg_", "_repr_html_", "_repr_png_"}


class _Imports(ast.NodeVisitor):
    """Collect (node, lazy, in a display hook) for every import outside ``if TYPE_CHECKING:``."""

    def __init__(self) -> None:
        self.found: list[tuple[ast.Import | ast.ImportFrom, bool, bool]] = []
        self.depth = 0
        self.hook = 0  # inside a ``_repr_*_`` display hook

    def visit_If(self, node: ast.If) -> None:
        if "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def _function(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        hook = node.name in DISPLAY_HOOKS
        self.hook += hook
        self._function(node)
        self.hook -= hook

    def _found(self, node: ast.Import | ast.ImportFrom) -> None:
        self.found.append((node, self.depth > 0, self.hook > 0))

    visit_Import = visit_ImportFrom = _found

    def visit_Call(self, node: ast.Call) -> None:
        # importlib.import_module("labkit.x"): an import by name is an import
        name = ast.unparse(node.func)
        if (
            name.endswith("import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            self._found(ast.Import(names=[ast.alias(name=node.args[0].value)]))
        self.generic_visit(node)


def _resolve(name: str) -> str | None:
    """The longest labkit module that ``name`` lies in (``None`` outside labkit)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _edges() -> list[tuple[str, str, bool, list[str], bool]]:
    """Every import edge ``(importer, imported module, lazy, names imported, in a repr hook)``."""
    edges = []
    for module, (path, is_package) in MODULES.items():
        package = module if is_package else module.rpartition(".")[0]
        visitor = _Imports()
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        for node, lazy, hook in visitor.found:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _resolve(alias.name)
                    if target and target != module:
                        edges.append((module, target, lazy, [], hook))
                continue
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                # "from pkg import submodule" depends on the submodule, not on pkg's __init__
                target = sub if sub in MODULES else _resolve(base)
                if target and target != module:
                    names = [] if sub in MODULES else [alias.name]
                    edges.append((module, target, lazy, names, hook))
    return edges


EDGES = _edges()


def _is_drawing(module: str) -> bool:
    leaf = module.rpartition(".")[2]
    return leaf == "draw" or leaf.startswith("draw_") or leaf.endswith("_draw")


def _graph(logic: bool) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for importer, target, lazy, _, hook in EDGES:
        if lazy and not logic:
            continue
        if hook and _is_drawing(target):
            continue  # a model drawing itself in a notebook (DESIGN section 1)
        graph[importer].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _domain(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in DOMAINS else None


def test_tarjan_finds_a_planted_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_every_domain() -> None:
    # guards against a walker that silently finds nothing (then every check below would pass)
    per_domain = defaultdict(int)
    for module in MODULES:
        per_domain[_domain(module)] += 1
    assert all(per_domain[d] >= 5 for d in DOMAINS), dict(per_domain)
    assert ("labkit.hexpuzzle.tap_trace", "labkit.hexpuzzle.collision") in {e[:2] for e in EDGES}


def test_the_walker_sees_lazy_imports_and_display_hooks() -> None:
    source = (
        "import labkit.io\n"
        "def f():\n    from labkit import rng\n"
        "def _example():\n    importlib.import_module('labkit.hexpuzzle')\n"
        "class A:\n    def _repr_svg_(self):\n        from labkit.hexpuzzle import draw\n"
        "if TYPE_CHECKING:\n    import labkit.mapturn\n"
    )
    visitor = _Imports()
    visitor.visit(ast.parse(source))
    seen = [(ast.unparse(node), lazy, hook) for node, lazy, hook in visitor.found]
    assert seen == [
        ("import labkit.io", False, False),
        ("from labkit import rng", True, False),
        ("import labkit.hexpuzzle", True, False),
        ("from labkit.hexpuzzle import draw", True, True),
    ]


@pytest.mark.parametrize("logic", [False, True], ids=["module-level", "logic"])
def test_no_import_cycles(logic: bool) -> None:
    assert cycles(_graph(logic)) == []


def test_domains_do_not_import_each_other() -> None:
    bad = sorted(
        f"{importer} -> {target}"
        for importer, target, _, _, _ in EDGES
        if _domain(importer)
        and _domain(target)
        and _domain(importer) != _domain(target)
        and (_domain(importer), _domain(target)) not in ALLOWED_CROSSING
    )
    assert bad == []


# What the lab (the research layer, for any game) may import: the foundation only.
LAB_MAY_IMPORT = ("labkit", "labkit.rng", "labkit._jit", "labkit.io", "labkit._args",
                  "labkit.glossary", "labkit._version")  # fmt: skip


def test_the_lab_imports_no_domain_and_only_the_foundation() -> None:
    lab = [e for e in EDGES if e[0].startswith("labkit.lab")]
    assert lab, "the walker sees no import of labkit.lab"
    bad = sorted(
        f"{importer} -> {target}"
        for importer, target, _, _, _ in lab
        if not target.startswith("labkit.lab") and target not in LAB_MAY_IMPORT
    )
    assert bad == []


def test_domains_do_not_import_widgets_or_the_command() -> None:
    bad = sorted(
        f"{importer} -> {target}"
        for importer, target, _, _, _ in EDGES
        if _domain(importer) and (target == "labkit.cli" or target.startswith("labkit.widgets"))
    )
    assert bad == []


def test_widgets_use_public_names_only() -> None:
    bad = sorted(
        f"{importer} -> {target} {names}"
        for importer, target, _, names, _ in EDGES
        if importer.startswith("labkit.widgets")
        and _domain(target)
        and (
            any(part.startswith("_") for part in target.split(".")[2:])
            or any(name.startswith("_") for name in names)
        )
    )
    assert bad == []


def test_no_module_is_shadowed_by_an_exported_name() -> None:
    # A subpackage named like a function the domain exports (``solve/`` beside ``solve()``)
    # makes ``import labkit.hexpuzzle.solve.solver as m`` fail: the attribute is the function.
    # A plain module so named (``trace.py`` beside ``trace()``) cannot be reached as
    # ``labkit.hexpuzzle.trace`` at all, nor mocked by that dotted name.
    import importlib

    clashes = []
    for domain in DOMAINS:
        exported = set(importlib.import_module(f"labkit.{domain}").__all__)
        for module in MODULES:
            parts = module.split(".")
            if len(parts) == 3 and parts[1] == domain and parts[2] in exported:
                clashes.append(module)
    assert clashes == []


def summary() -> str:
    """Modules per domain, edges and cycles of both graphs, one line each."""
    per_domain: dict[str, int] = defaultdict(int)
    for module in MODULES:
        per_domain[_domain(module) or "labkit (root, widgets)"] += 1
    lines = [f"modules: {len(MODULES)}"]
    lines += [f"  {name}: {count}" for name, count in sorted(per_domain.items())]
    for logic in (False, True):
        graph = _graph(logic)
        n_edges = sum(len(t) for t in graph.values())
        name = "logic graph" if logic else "module-level graph"
        lines.append(f"{name}: {n_edges} edges, cycles: {len(cycles(graph))}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary())
