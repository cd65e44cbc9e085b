"""Passability and pathfinding (SPEC P0–P7, seed 003).

The fast grid search lives in :mod:`labkit.pathfinding.grid`.
"""

from __future__ import annotations

from labkit.pathfinding.grid import grid_costs, grid_path

__all__ = ["grid_costs", "grid_path"]
