"""The contact table: which tiles each tile's path meets, checked against trace on random levels."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.contacts import contact_table
from labkit.hexpuzzle.tap_trace import trace_tap
from tests.hexpuzzle.helpers import random_level


def _view(level: Level, mask: int):
    """A duck-typed game view: ``level`` with only the tiles of ``mask`` on the board."""
    active = np.array([bool(mask >> i & 1) for i in range(len(level.tiles))], dtype=np.bool_)
    return SimpleNamespace(level=level, active=active)


def _exits_by_trace(level: Level, orientation: int, mask: int) -> int:
    turned = level.rotated(orientation)
    view = _view(turned, mask)
    out = 0
    for i, t in enumerate(level.tiles):
        if mask >> i & 1 and trace_tap(view, t.id).outcome == "exit":
            out |= 1 << i
    return out


@pytest.mark.parametrize("seed", range(8))
def test_contact_table_agrees_with_trace(seed):
    level = random_level(seed, radius=2 + seed % 2, n_tiles=5 + seed)
    table = contact_table(level)
    rng = np.random.default_rng(seed)
    for _ in range(12):
        o = int(rng.integers(6))
        mask = int(rng.integers(1, table.full + 1))
        assert table.exitable(o, mask) == _exits_by_trace(level, o, mask)
