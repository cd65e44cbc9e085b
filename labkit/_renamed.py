"""Old module paths that still import, for one release, with a ``DeprecationWarning``.

Modules were renamed so that one word means one thing across labkit (docs/design.md, "Module
names"). ``import labkit.hexpuzzle.sweep`` (or ``from labkit.hexpuzzle import sweep``) still
works: it warns with the new path and returns the new module itself, so attributes, private
names and ``mock.patch`` targets all resolve as before. The aliases are served by a finder on
``sys.meta_path`` rather than files, so nothing that walks the package (warm-up, the status and
error scans, the docs, the wheel) sees them. :data:`RENAMED` is written by
``scripts/house_renames.py``; drop it in the release after next.

Public *names* renamed for the same reason (``encounter.World`` is ``RoomMap``, mapturn's
``World`` keeps its name) are listed in :data:`RENAMED_NAMES`: each module that held an old name,
and the domain package that re-exported it, has a module ``__getattr__`` calling
:func:`old_name`, which warns with the new name and returns the new object itself.

house-renames: skip-file
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Any

#: Old public module path -> new module path.
RENAMED: dict[str, str] = {
    "labkit.encounter.cli_balance": "labkit.encounter.cli.balance",
    "labkit.encounter.cli_compare": "labkit.encounter.cli.compare",
    "labkit.encounter.cli_options": "labkit.encounter.cli.options",
    "labkit.encounter.cli_search": "labkit.encounter.cli.search",
    "labkit.encounter.compare_draw": "labkit.encounter.draw_compare",
    "labkit.encounter.search_draw": "labkit.encounter.draw_search",
    "labkit.encounter.sim.outcome_only": "labkit.encounter.sim.fast_outcome",
    "labkit.encounter.sim.world": "labkit.encounter.sim.room_map",
    "labkit.encounter.sim_draw": "labkit.encounter.draw_sim",
    "labkit.hexpuzzle.mainline": "labkit.hexpuzzle.shipped_campaign",
    "labkit.hexpuzzle.sweep": "labkit.hexpuzzle.collision",
    "labkit.hexpuzzle.tap": "labkit.hexpuzzle.tap_trace",
    "labkit.mapturn.skills": "labkit.mapturn.battle",
    "labkit.pathfinding.mapfile": "labkit.pathfinding.map_file",
    "labkit.widgets.collision_sweep": "labkit.widgets.collision_viewer",
}


#: Module -> {old public name: new name}, for one release (the module's ``__getattr__`` serves it).
RENAMED_NAMES: dict[str, dict[str, str]] = {
    # encounter's room map; "World" is mapturn's floors, blocks and hero
    "labkit.encounter": {
        "World": "RoomMap",
        "Direction": "Compass",
        "Frame": "PlaybackFrame",
    },
    "labkit.encounter.sim.room_map": {"World": "RoomMap"},
    # a compass point (a sound's sector, a room move); "Direction" is pathfinding's move
    "labkit.encounter.rules.sound": {
        "Direction": "Compass",
        "DIRECTION_VECTORS": "COMPASS_VECTORS",
    },
    # the board after one played-back step; "Frame" was also hexpuzzle's animation frame
    "labkit.encounter.records.playback": {"Frame": "PlaybackFrame"},
    "labkit.encounter.records.replay": {"Frame": "PlaybackFrame"},
    # judging one tap; "trace" is encounter's SimulationTrace; "replay" is encounter's re-run
    "labkit.hexpuzzle": {
        "Trace": "TapTrace",
        "trace": "trace_tap",
        "replay": "play_actions",
        "sweep_animation": "collision_animation",
    },
    "labkit.hexpuzzle.tap_trace": {
        "Trace": "TapTrace",
        "trace": "trace_tap",
        "OUTCOMES": "TAP_OUTCOMES",
    },  # fmt: skip
    "labkit.hexpuzzle.solving.solver": {"replay": "play_actions"},
    # one tap's collision, animated; "sweep" is encounter's parameter sweep
    "labkit.hexpuzzle.animation": {
        "Frame": "AnimationFrame",
        "sweep_animation": "collision_animation",
    },
    # a shipped example map; "data_path" is labkit._data's path into the data folder
    "labkit.pathfinding": {"data_path": "shipped_map_path"},
    "labkit.pathfinding.map_file": {"data_path": "shipped_map_path"},
    # the collision viewer app; "sweep" is encounter's parameter sweep
    "labkit.widgets": {"CollisionSweepViewer": "CollisionViewer"},
    "labkit.widgets.collision_viewer": {"CollisionSweepViewer": "CollisionViewer"},
    # module constants that meant different things in different modules
    # the six axial steps of a hex cell; mapturn's grid steps are keyed by U/D/L/R
    "labkit.hexpuzzle.coords": {"DIRECTIONS": "HEX_DIRECTIONS"},
    "labkit.mapturn.world": {"DIRECTIONS": "GRID_DIRECTIONS"},
    # how a fight ends, the per-game outcomes a simulation measures (a tap's: TAP_OUTCOMES)
    "labkit.encounter.rules.combat": {"OUTCOMES": "FIGHT_OUTCOMES"},
    "labkit.encounter.sim.knobs": {"OUTCOMES": "GAME_OUTCOMES"},
}


def old_name(module: str, name: str) -> Any:
    """``module``'s renamed public ``name``: the new object, with a ``DeprecationWarning``.

    A module's ``__getattr__(name)`` returns ``old_name(__name__, name)``; a name not in
    :data:`RENAMED_NAMES` raises the usual ``AttributeError``.
    """
    new = RENAMED_NAMES.get(module, {}).get(name)
    if new is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    _warn_renamed(f"{module}.{name}", f"{module}.{new}")
    return getattr(sys.modules[module], new)


def _warn_renamed(old: str, new: str) -> None:
    """The one-release warning for a renamed name, pointing at the line that used the old one
    (that line called a module ``__getattr__`` or a property, which called us)."""
    warnings.warn(f"{old} is renamed {new}: use the new name (the old one goes in the next "
                  "release)", DeprecationWarning, stacklevel=4)  # fmt: skip


#: Class -> {old public attribute: new name}, for one release (its property calls
#: :func:`old_attribute`).
RENAMED_ATTRIBUTES: dict[str, dict[str, str]] = {
    # the session's seeded RoomMap; "world" is mapturn's World
    "labkit.encounter.sim.session.GameSession": {"world": "room_map"},
}


def old_attribute(obj: object, old: str, new: str) -> Any:
    """``obj.new`` for the renamed attribute ``obj.old``, with a ``DeprecationWarning``."""
    cls = type(obj).__name__
    _warn_renamed(f"{cls}.{old}", f"{cls}.{new}")
    return getattr(obj, new)


class _Alias(importlib.abc.Loader):
    """Loads an old path as the new module, warning once per import of the old path."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} is renamed {self.new}: import it from there "
            "(the old path goes in the next release)",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """The new module has run already."""


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
        new = RENAMED.get(name)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(name, _Alias(new))


def install() -> None:
    """Put the finder on ``sys.meta_path`` once (``import labkit`` calls this)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
