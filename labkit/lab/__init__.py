"""The research layer, for any game: a :class:`Game` and the studies that take one.

A *game* is a name, its knobs (what a designer may turn), its outcomes (what a played game
reports) and one play function. Make one from a plain per-game function in one call,
:meth:`Game.from_function`, written in pure Python or with numba's ``@njit`` in a
notebook; every study runs it on the local cores or on a Dask cluster as it runs the built-in
games. :func:`sweep` plays a grid of knob values on the same seeds (common random numbers).

Importing :mod:`labkit.lab` is cheap: the names below load their modules on first use.

Examples
--------
>>> from labkit import lab
>>> def coin(edge, seed):
...     return {"heads": float((seed * 7919 + 13) % 100 < edge)}
>>> g = lab.Game.from_function("coin", coin, knobs={"edge": (0, 100)},
...                            outcomes={"heads": "rate"})
>>> res = lab.sweep(g, {"edge": [0, 100]}, range(10))
>>> res.table.groupby("edge")["heads"].mean().tolist()
[0.0, 1.0]
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Game", "Knob", "Outcome", "PlayError", "sweep", "SweepResult",
           "StudyError"]  # fmt: skip

_HOME = {
    "Game": "labkit.lab.game",
    "Knob": "labkit.lab.game",
    "Outcome": "labkit.lab.game",
    "PlayError": "labkit.lab.game",
    "sweep": "labkit.lab.grid_sweep",
    "SweepResult": "labkit.lab.grid_sweep",
    "StudyError": "labkit.lab.study_folder",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        value = getattr(importlib.import_module(_HOME[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'labkit.lab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
