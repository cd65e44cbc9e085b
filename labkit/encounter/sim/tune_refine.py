"""A local refinement after a failed re-check (issue 29): the whole-number grid around the best
candidate, on paired seeds many more than the search's, then a confirmation on seeds no choice
has seen.

:func:`~labkit.encounter.tune_many` searches on a few hundred paired seeds; every trial shares
their luck, so a whole region can look in band and be a few points off on fresh seeds (the
re-check then says so). :func:`refine` learns from that re-check: it starts at the re-checked
candidate that came closest, plays its neighbours on the re-check's own fresh seeds (thousands,
paired: neighbours differ by their knobs only, and the centre's games are already played) and
moves a compass search — one step up and down per knob, the step halved when no neighbour does
better, whole-number knobs by whole steps — to the point the fresh games put deepest inside
every band. That choice was made on those games, so it too is re-played, on ``confirm`` seeds
that neither the search nor the refinement saw; only what holds there is met.

Examples
--------
>>> from labkit.encounter.sim.knobs import Knob
>>> knob = Knob("b", 0, 30, True)
>>> [p["b"] for p in neighbours([knob], {"b": 10}, {"b": 4})]
[6, 14]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from labkit.encounter.sim.knobs import Knob

__all__ = ["refine", "neighbours", "first_steps", "refine_and_confirm"]

# the compass's first step: an eighth of the range (whole knobs: at least 1)
_FIRST = 8


def first_steps(knobs: Sequence[Knob]) -> dict[str, float]:
    """The compass's first step per knob (an eighth of its range; whole knobs whole, >= 1)."""
    return {k.name: (max(1, round((k.high - k.low) / _FIRST)) if k.integer
                     else (k.high - k.low) / _FIRST) for k in knobs}  # fmt: skip


def neighbours(knobs: Sequence[Knob], centre: Mapping[str, Any],
               steps: Mapping[str, float]) -> list[dict[str, Any]]:  # fmt: skip
    """One step down and up per knob from ``centre``, kept inside the ranges (no repeats)."""
    out: list[dict[str, Any]] = []
    for k in knobs:
        for sign in (-1, 1):
            v = centre[k.name] + sign * steps[k.name]
            v = min(max(v, k.low), k.high)
            v = int(round(v)) if k.integer else float(v)
            if v != centre[k.name]:
                point = {**centre, k.name: v}
                if point not in out:
                    out.append(point)
    return out


def _smaller(knobs: Sequence[Knob], steps: dict[str, float]) -> dict[str, float] | None:
    """Halved steps, or None when every step is at its floor (1/64 of the range; whole
    knobs at least 1)."""
    small = {k.name: (max(1, steps[k.name] // 2) if k.integer else steps[k.name] / 2)
             for k in knobs}  # fmt: skip
    floor = {k.name: (max(1, round((k.high - k.low) / 64)) if k.integer
                      else (k.high - k.low) / 64) for k in knobs}  # fmt: skip
    if all(steps[k.name] <= floor[k.name] for k in knobs):
        return None
    return small


def refine(
    knobs: Sequence[Knob],
    centre: Mapping[str, Any],
    score: Callable[[Sequence[dict]], list[tuple[float, dict]]],
    budget: int,
    deep: float = -0.5,
) -> list[dict[str, Any]]:
    """Compass search from ``centre``: ``score(points)`` gives ``(score, record)`` per point
    (smaller is better; one batch per call); at most ``budget`` points scored (``centre``
    counts once), and none more once the centre's score is ``deep`` or less (tune_many's
    score: every target met with half its band to spare). Returns the scored records in the
    order played, each with ``"step"``.

    Examples
    --------
    A bowl with its bottom at b = 13, from b = 2:

    >>> from labkit.encounter.sim.knobs import Knob
    >>> knob = Knob("b", 0, 30, True)
    >>> score = lambda pts: [(abs(p["b"] - 13), dict(p)) for p in pts]
    >>> rows = refine([knob], {"b": 2}, score, budget=20)
    >>> min(rows, key=lambda r: r["score"])["b"], len(rows) <= 20
    (13, True)
    """
    steps = first_steps(knobs)
    seen: dict[tuple, float] = {}
    rows: list[dict[str, Any]] = []

    def key(p: Mapping[str, Any]) -> tuple:
        return tuple(sorted(p.items()))

    def play(points: Sequence[dict], step: int) -> None:
        for (s, rec), p in zip(score(points), points):
            seen[key(p)] = s
            rows.append({**rec, "score": s, "step": step})

    here = dict(centre)
    play([here], 0)
    step = 1
    while len(rows) < budget and seen[key(here)] > deep:
        near = neighbours(knobs, here, steps)
        todo = [p for p in near if key(p) not in seen][: budget - len(rows)]
        if todo:
            play(todo, step)
        # never empty: a range is wider than a step's clamp, and a batch holds at least one
        # point; on equal scores the earlier neighbour (i) wins, and no two share an i
        best = min((seen[key(p)], i, p) for i, p in enumerate(near) if key(p) in seen)
        if best[0] < seen[key(here)]:
            here = dict(best[2])  # a better neighbour: move, the same step
        else:
            smaller = _smaller(knobs, steps)
            if smaller is None:
                break
            steps = smaller
        step += 1
    return rows


def best_rows(rows: Sequence[dict], count: int) -> list[dict]:
    """The ``count`` best distinct scored records (smallest score; the earliest on a tie)."""
    order = sorted(range(len(rows)), key=lambda i: (rows[i]["score"], i))
    return [rows[i] for i in order[:count]]


def refine_and_confirm(knobs: Sequence[Knob], centre: Mapping[str, Any], budget: int,
                       first_trial: int, judge: Callable[..., list[dict]], refine_seeds: Any,
                       confirm_seeds: Any, confirm: int) -> tuple[Any, list[dict]]:  # fmt: skip
    """The refinement (records on ``refine_seeds``, a table) and the ``confirm`` best points
    re-played on ``confirm_seeds`` (records with stage ``"confirm"``). ``judge(points, seeds,
    trials, stage)`` plays and judges points (records with ``"score"``)."""
    import pandas as pd

    start = {k.name: centre[k.name] for k in knobs}
    count = [first_trial]

    def score(points: Sequence[dict]) -> list[tuple[float, dict]]:
        trials = list(range(count[0], count[0] + len(points)))
        count[0] += len(points)
        recs = judge(list(points), refine_seeds, trials, "refine")
        return [(float(r["score"]), r) for r in recs]

    rows = refine(knobs, start, score, budget)
    top = best_rows(rows, confirm)
    points = [{k.name: r[k.name] for k in knobs} for r in top]
    return pd.DataFrame(rows), judge(
        points, confirm_seeds, [int(r["trial"]) for r in top], "confirm"
    )
