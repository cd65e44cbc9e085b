"""A funnel's CSV never writes a spreadsheet formula."""

from __future__ import annotations

from labkit.hexpuzzle import (
    FunnelWorld,
)


def test_csv_never_writes_a_formula(tmp_path):
    f = FunnelWorld([0.0], level_ids=["=HYPERLINK(1)"]).funnel(100, draws=2, rng=0)
    f.save(tmp_path / "f.csv")
    assert "\n1,'=HYPERLINK(1)," in (tmp_path / "f.csv").read_text()
