"""The observed difficulty index against a plain reference; bootstrap multiplicities equal
duplicated rows."""

from __future__ import annotations

import numpy as np

from labkit.hexpuzzle.difficulty.observed import COMPONENTS, INDEX_WEIGHTS, Rows, observed_index
from labkit.hexpuzzle.difficulty.players import simulate_telemetry


def reference_index(table, sizes):
    """Plain loops over rows: the documented formula, one level at a time."""
    out = {}
    for lid, n in sizes.items():
        rows = [r for r in table.tolist() if r[0] == lid]
        first = [r for r in rows if r[2] == 1]
        comps = [
            np.mean([not r[9] for r in first]),
            np.mean([min(1.0, r[4] / n) for r in rows]),
            np.mean([r[5] > 0 for r in rows]),
            np.mean([r[7] > 0 for r in rows]),
            np.mean([min(1.0, r[8] / 240.0) for r in rows]),
        ]
        a = [INDEX_WEIGHTS[c] for c in COMPONENTS]
        out[lid] = 100 * np.dot(comps, a) / sum(a)
    return out


def test_observed_index_matches_plain_reference_and_weighted_means():
    from labkit.hexpuzzle.shipped_campaign import campaign

    levels = campaign()[:4]
    table = simulate_telemetry(levels, 12, rng=5)
    sizes = {lv.id: len(lv.tiles) for lv in levels}
    obs = observed_index(table, levels)
    assert np.allclose(obs.index, list(reference_index(table, sizes).values()))
    # Bootstrap multiplicities are the same as duplicated rows.
    rows = Rows(table, sizes, 240.0)
    counts = np.random.default_rng(0).integers(0, 3, rows.n_players)
    doubled = np.repeat(table, counts[rows.player])
    assert np.allclose(rows.means(counts[rows.player].astype(float)),
                       Rows(doubled, sizes, 240.0).means(), equal_nan=True)  # fmt: skip
