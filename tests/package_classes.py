"""Every class the labkit package defines, found by walking its modules (for convention tests)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import labkit


def classes_in_package(base: type) -> dict[str, type]:
    """``"module.QualName" -> class`` for each subclass of ``base`` defined in a labkit module."""
    found: dict[str, type] = {}
    names = ["labkit"] + [i.name for i in pkgutil.walk_packages(labkit.__path__, "labkit.")]
    for name in names:
        if name.endswith("__main__"):
            continue
        module = importlib.import_module(name)
        for obj in vars(module).values():
            if inspect.isclass(obj) and obj.__module__ == name and issubclass(obj, base):
                found[f"{name}.{obj.__qualname__}"] = obj
    return found
