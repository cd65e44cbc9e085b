"""Every exported callable has a runnable Examples section (run by ``--doctest-modules``).

Exception classes are exempt: their examples are the ``Raises`` cases of the functions that raise
them. ``PENDING`` lists the names still without one, so that a new export without an example
fails at once and the list can only shrink (a name that gained its example must leave it).
"""

from __future__ import annotations

import importlib
import inspect

import pytest

PACKAGES = (
    "labkit",
    "labkit.rng",
    "labkit.io",
    "labkit.hexpuzzle",
    "labkit.pathfinding",
    "labkit.mapturn",
    "labkit.encounter",
    "labkit.widgets",
)

# Names still without an Examples section: remove a name here when its docstring gains one.
# Empty: every exported callable has its example (add a name only with a reason beside it).
PENDING: dict[str, set[str]] = {}


def _exported() -> list[tuple[str, str]]:
    out = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj):
                continue
            if isinstance(obj, type) and issubclass(obj, BaseException):
                continue
            out.append((package, name))
    return out


EXPORTED = _exported()


def _has_examples(obj: object) -> bool:
    doc = inspect.getdoc(obj) or ""
    return "Examples\n--------" in doc and ">>>" in doc.split("Examples\n--------", 1)[1]


@pytest.mark.parametrize(("package", "name"), EXPORTED, ids=[f"{p}.{n}" for p, n in EXPORTED])
def test_every_exported_callable_has_examples(package: str, name: str) -> None:
    obj = getattr(importlib.import_module(package), name)
    pending = name in PENDING.get(package, set())
    if pending:
        assert not _has_examples(obj), f"{package}.{name} has Examples now: drop it from PENDING"
    else:
        assert _has_examples(obj), f"{package}.{name} has no Examples section"


def test_pending_names_are_still_exported() -> None:
    exported = set(EXPORTED)
    stale = {(p, n) for p, names in PENDING.items() for n in names} - exported
    assert stale == set()
