"""The six parts of a level's difficulty score and their weights (points at full strength).

A module of its own so that the drawings (:mod:`labkit.hexpuzzle.draw_solver`) can label their
bars without importing the scorer, which draws itself through them
(:meth:`~labkit.hexpuzzle.difficulty.scoring.Difficulty.plot`).

Examples
--------
>>> from labkit.hexpuzzle.difficulty.parts import PARTS, WEIGHTS
>>> PARTS[0], sum(WEIGHTS.values())
('size', 100)
"""

__all__ = ["PARTS", "WEIGHTS"]

#: The six parts and their weights (points at full strength).
WEIGHTS = {"size": 15, "turns": 20, "layers": 20, "blocking": 15, "rotation": 20, "pressure": 10}
PARTS = tuple(WEIGHTS)
