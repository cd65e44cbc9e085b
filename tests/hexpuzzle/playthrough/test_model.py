"""The funnel kernel's tables say what the skill model says (win and quit chances)."""

from __future__ import annotations

import numpy as np

from labkit.hexpuzzle import (
    campaign,
)


def test_the_kernel_tables_say_what_the_skill_model_says():
    from labkit.hexpuzzle import shipped_skill_model
    from labkit.hexpuzzle.playthrough.model import model_tables

    model, levels = shipped_skill_model(), campaign()
    t = model_tables(model, levels)
    g = t.grid[::6]
    for i in (0, 9, 23):
        for k in (1, 3):
            said = model.success(levels[i].id, g, attempt=k)
            np.testing.assert_allclose(1 / (1 + np.exp(-t.win[i, k - 1, ::6])), said, rtol=1e-9)
        for won in (False, True):
            for run in (0, 1, 4):
                p = model.quit_model.p_quit(g, position=i, won=won, attempt=2, run=run)
                np.testing.assert_allclose(1 / (1 + np.exp(-t.quit[i, 1, int(won), run, ::6])), p,
                                           rtol=1e-9)  # fmt: skip
