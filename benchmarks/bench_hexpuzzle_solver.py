"""Hex puzzle solver and generator (issue 8): solve the 24-level campaign; generate a campaign.

* Solving: every campaign level solved from a cold contact-table cache (the table is the solver's
  real work: one sweep pass per tile and orientation), against the same code with its kernels run
  as plain Python (``labkit._jit.plain_python()``). The row's notes give states expanded per second.
* Generating: the whole 24-level main line (``campaign.build``), wall time; the target is < 60 s.
"""

from __future__ import annotations

import time

from benchmarks import Row, benchmark, compare, median_time
from labkit import _jit
from labkit.hexpuzzle import shipped_campaign as campaign
from labkit.hexpuzzle.solving import contacts
from labkit.hexpuzzle.solving.solver import solve


def _solve_all(levels) -> int:
    contacts._CACHE.clear()
    return sum(solve(level).expanded for level in levels)


@benchmark("hexpuzzle solve campaign")
def bench_solve_campaign():
    levels = campaign.campaign()
    expanded = _solve_all(levels)  # compile outside the timing

    def plain():
        with _jit.plain_python():
            _solve_all(levels)

    row = compare(
        "hexpuzzle solve 24 campaign levels",
        lambda: _solve_all(levels),
        plain,
        reference="same solver, kernels as plain Python",
        target=10,
        repeat=5,
        reference_repeat=1,
    )
    warm = median_time(lambda: [solve(level) for level in levels], repeat=5)
    row.notes = (
        f"{expanded} states expanded, {expanded / row.labkit_s:,.0f} states/s cold "
        f"(contact tables built each run), {expanded / warm:,.0f} states/s with tables cached"
    )
    row.extra = {
        "states_expanded": expanded,
        "states_per_s": expanded / row.labkit_s,
        "states_per_s_warm": expanded / warm,
    }
    return row


@benchmark("hexpuzzle generate campaign")
def bench_generate_campaign():
    campaign.slot_level(campaign.SEED, 0)  # compile outside the timing
    contacts._CACHE.clear()
    start = time.perf_counter()
    doc = campaign.build(progress=False)
    wall = time.perf_counter() - start
    totals = [e["score"]["total"] for e in doc["levels"]]
    return Row(
        "hexpuzzle generate 24-level campaign",
        wall,
        None,
        "target: under 60 s on one core",
        None,
        notes=f"{wall:.1f} s, scores {min(totals)}-{max(totals)}, meets 60 s: {wall < 60}",
        extra={"wall_s": wall, "under_60s": wall < 60},
    )
