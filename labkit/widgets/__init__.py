"""Interactive apps (ipywidgets + matplotlib) over labkit's kernels.

Each app lives in its own module and is imported on first use, so ``import labkit.widgets`` costs
nothing. Every app keeps its logic in plain methods that tests call without a browser, exposes
``.ui`` (an ipywidgets container) and displays itself.
"""

from __future__ import annotations

import importlib
from typing import Any

from labkit import _renamed

_APPS = {
    "BalanceReport": "labkit.widgets.balance_report",
    "BalanceTuner": "labkit.widgets.balance_tuner",
    "CollisionViewer": "labkit.widgets.collision_viewer",
    "ProbabilityExplorer": "labkit.widgets.probability",
    "GaugeTuner": "labkit.widgets.gauge_tuner",
    "DifficultyWorkbench": "labkit.widgets.workbench",
    "FunnelView": "labkit.widgets.funnel_view",
    "LevelWorkshop": "labkit.widgets.workshop",
    "PathfindingPlayground": "labkit.widgets.playground",
    "TraceViewer": "labkit.widgets.trace_viewer",
    "KnobExplorer": "labkit.widgets.knob_explorer",
}

__all__ = sorted(_APPS)


def __getattr__(name: str) -> Any:
    if name in _APPS:
        return getattr(importlib.import_module(_APPS[name]), name)
    # old app names kept for one release (labkit._renamed.RENAMED_NAMES), with a warning
    return _renamed.old_name(__name__, name)


def __dir__() -> list[str]:
    return __all__
