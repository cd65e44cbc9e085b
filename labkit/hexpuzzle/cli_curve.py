"""``labkit puzzle campaign --curve A:B:N | FILE.csv``: levels generated to a score curve.

Called by the ``campaign`` command of :mod:`.cli_solver` when ``--curve`` is given: parses the
curve (:func:`~labkit.hexpuzzle.curve.parse_curve`), generates one level per target
(:func:`~labkit.hexpuzzle.curve.campaign_from_curve`, with a progress bar), writes the campaign
file atomically and prints target against achieved per slot.
"""

from __future__ import annotations

from labkit import ArgumentError


def curve_campaign(curve: str, out: str, seed: int, time_limit: float) -> int:
    """Generate, write and report a campaign to ``curve``; returns the exit status."""
    from labkit.hexpuzzle.curve import campaign_from_curve, parse_curve

    targets = parse_curve(curve, argument="--curve")
    bad = [t for t in targets if not 0 <= t <= 100]
    if bad:
        raise ArgumentError("score targets must lie in 0-100", argument="--curve", value=bad[0])
    if not time_limit > 0:
        raise ArgumentError("must be positive", argument="--time-limit", value=time_limit)
    levels = campaign_from_curve(targets, seed, time_limit=time_limit)
    levels.save(out, seed=seed)
    rows = levels.rows()
    print(f"{'slot':>4} {'target':>7} {'score':>5} {'rot':>3} {'tiles':>5}  level")
    for r in rows:
        print(
            f"{r['slot']:>4} {r['target']:>7.1f} {r['achieved']:>5} {r['rotations']:>3} "
            f"{r['tiles']:>5}  {r['id']}"
        )
    within = sum(bool(r["within"]) for r in rows)
    print(f"wrote {out}: {len(rows)} levels, {within} within ±2 of their target")
    return 0
