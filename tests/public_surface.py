"""What code outside a domain may import from labkit: the names a public package exports.

Public packages are ``labkit`` itself and ``labkit.<name>`` for every non-underscore package or
module with an ``__all__`` (the domains, ``labkit.widgets``, ``labkit.io``, ``labkit.rng``). Used by
``tests/test_public_surface.py`` (notebooks, README, the apps' sources) and by the apps'
``to_code()`` test.
"""

from __future__ import annotations

import ast
import importlib
import json
import re


def deep_imports(code: str, where: str = "<code>", *, inside: str | None = None) -> list[str]:
    """Every labkit import in ``code`` of a name no public package's ``__all__`` holds.

    ``inside``: the package the code belongs to (its relative and own imports are allowed).
    """
    problems = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level or (inside and (module == inside or module.startswith(inside + "."))):
                continue
            if module != "labkit" and not module.startswith("labkit."):
                continue
            if not _public(module):
                problems.append(f"{where}: from {module} import {_names(node)}")
                continue
            exported = set(getattr(importlib.import_module(module), "__all__", ()))
            for alias in node.names:
                if alias.name not in exported and not _public(f"{module}.{alias.name}"):
                    problems.append(f"{where}: from {module} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("labkit.") and not _public(alias.name):
                    problems.append(f"{where}: import {alias.name}")
    return problems


def _names(node: ast.ImportFrom) -> str:
    return ", ".join(a.name for a in node.names)


def _public(module: str) -> bool:
    parts = module.split(".")
    if parts[0] != "labkit" or len(parts) > 2 or any(p.startswith("_") for p in parts):
        return False
    if len(parts) == 1:
        return True
    try:
        return hasattr(importlib.import_module(module), "__all__")
    except ImportError:
        return False


def notebook_code(text: str) -> str:
    """The code cells of a notebook (its JSON text), IPython magics and shell lines blanked."""
    lines = []
    for cell in json.loads(text)["cells"]:
        if cell["cell_type"] != "code":
            continue
        for line in "".join(cell["source"]).splitlines():
            lines.append("" if re.match(r"\s*[%!]", line) else line)
        lines.append("")
    return "\n".join(lines)


def markdown_code(text: str) -> str:
    """The ```python blocks of a Markdown text, doctest prompts stripped."""
    out = []
    for block in re.findall(r"```(?:python|py)\n(.*?)```", text, re.S):
        for line in block.splitlines():
            out.append(line[4:] if line.startswith((">>> ", "... ")) else line)
        out.append("")
    return "\n".join(out)
