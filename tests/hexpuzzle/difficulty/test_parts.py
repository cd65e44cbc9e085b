"""The six parts of the difficulty score and their weights, as SPEC H9 writes them, and the
scorer's records using exactly these parts in this order."""

from __future__ import annotations

from labkit.hexpuzzle.difficulty import scoring
from labkit.hexpuzzle.difficulty.parts import PARTS, WEIGHTS
from labkit.hexpuzzle.level import Level


def test_the_weights_are_h9s_points_at_full_strength():
    # SPEC H9: size ×15, turns ×20, layers ×20, blocking ×15, rotation ×20, pressure ×10
    assert WEIGHTS == {"size": 15, "turns": 20, "layers": 20, "blocking": 15, "rotation": 20,
                       "pressure": 10}  # fmt: skip
    assert sum(WEIGHTS.values()) == 100  # the score's range is 0-100


def test_the_parts_are_the_weights_keys_in_order():
    assert PARTS == ("size", "turns", "layers", "blocking", "rotation", "pressure")


def test_the_scorer_uses_these_parts_and_weights():
    assert scoring.PARTS == PARTS and scoring.WEIGHTS == WEIGHTS
    d = scoring.score(Level.hexagon(2, tiles=[("a", 0, 0, 0), ("b", 1, 0, 3)]))
    assert tuple(d.parts) == PARTS
    assert all(0 <= d.parts[p] <= WEIGHTS[p] for p in PARTS)
