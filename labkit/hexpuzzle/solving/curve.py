"""Campaigns to a difficulty curve: one level per target, distinct, rotations rising with it.

:func:`campaign_from_curve` calls :func:`~labkit.hexpuzzle.generate_to_target` once per slot
of a curve of targets — structural scores, or first-try success rates under a skill model —
and returns the levels as a :class:`~labkit.hexpuzzle.Campaign` (a list of levels with the
campaign's seed and curve; it reports and plots target against achieved, and saves itself).
:func:`parse_curve` reads the ``--curve`` option of ``labkit puzzle campaign``: ``A:B:N`` (a
linear ramp of N targets) or a CSV file.

Decisions
---------
* Slot ``k`` is generated from the named stream ``curve/k`` of ``rng`` (``curve/k/j`` for the
  j-th retry when it came out equal to an earlier level), so one seed gives the same campaign.
* Where the curve rises (a higher score, or a lower success rate, than the slot before) a slot
  needs at least as many rotations as the slot before; where it falls or stays, it may need
  fewer. A slot that cannot meet its target under that rule raises, naming the slot.
* So that one early three-rotation level does not force three rotations on everything after
  it, rotations are first capped by the slot's place on the curve: the easiest third of the
  targets' range at most 1, the middle third at most 2 (the main line's ramp). A slot that
  misses its target under the cap is searched again without it.
* "Distinct" means no two levels are the same puzzle up to rotation: neither the board turned
  beneath the tiles (a game orientation) nor the whole picture turned (:func:`puzzle_key`).

Examples
--------
>>> levels = campaign_from_curve([30, 45, 60], 5, progress=False)
>>> [lv.id for lv in levels]
['curve-01', 'curve-02', 'curve-03']
>>> all(abs(r["achieved"] - r["target"]) <= 2 for r in levels.rows())
True
"""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.hexpuzzle.campaign_file import Campaign
from labkit.hexpuzzle.coords import rotate_cell
from labkit.hexpuzzle.difficulty.scoring import score
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.constraints import check_reachable, constraints
from labkit.hexpuzzle.solving.generator import GeneratorError, GeneratorOptionError
from labkit.hexpuzzle.solving.targets import DEFAULT_TOLERANCE, generate_to_target
from labkit.rng import RngLike, entropy, stream

__all__ = ["Campaign", "campaign_from_curve", "parse_curve", "puzzle_key"]

#: Retries of a slot whose level equals an earlier one.
RETRIES = 4
MAX_SLOTS = 200


def puzzle_key(level: Level) -> tuple:
    """The same value for two levels exactly when they are one puzzle up to rotation.

    Both the board turned beneath the tiles and the whole picture turned count as the same
    puzzle; ids, colours and the move limit are ignored.

    Examples
    --------
    >>> lvl = Level.hexagon(2, tracks=(1, 0, 3, 2, 5, 4), tiles=[("a", 1, 0, 2)])
    >>> puzzle_key(lvl) == puzzle_key(lvl.rotated(2).replace(id="other"))
    True
    """
    boards = [tuple(sorted(level.board.rotated(m).tracks.items())) for m in range(6)]
    tile_sets = [
        tuple(sorted((*rotate_cell(t.q, t.r, j), (t.dir + j) % 6) for t in level.tiles))
        for j in range(6)
    ]
    return min(boards), min(tile_sets)


def parse_curve(text: str | os.PathLike, *, argument: str = "curve") -> list[float]:
    """Targets from ``"A:B:N"`` (N evenly spaced values from A to B) or a CSV file.

    A CSV file holds one target per row, in its ``target`` column if it has a header naming
    one, else in its first column. Errors name ``argument`` and the bad value.

    Examples
    --------
    >>> parse_curve("25:75:5")
    [25.0, 37.5, 50.0, 62.5, 75.0]
    """
    spec = os.fspath(text)
    parts = spec.split(":")
    if len(parts) == 3 and not os.path.exists(spec):
        try:
            a, b, n = float(parts[0]), float(parts[1]), int(parts[2])
        except ValueError:
            raise ArgumentError("expected START:STOP:COUNT, e.g. 25:75:24", argument=argument,
                                value=spec) from None  # fmt: skip
        if not 1 <= n <= MAX_SLOTS:
            raise ArgumentError(f"COUNT must be 1-{MAX_SLOTS}", argument=argument, value=spec)
        return [float(v) for v in np.linspace(a, b, n)]
    if not os.path.isfile(spec):
        raise ArgumentError(
            "neither START:STOP:COUNT nor a CSV file", argument=argument, value=spec
        )
    with open(spec, newline="", encoding="utf-8-sig") as fh:
        rows = [row for row in csv.reader(fh) if row and any(c.strip() for c in row)]
    column = 0
    if rows and rows[0] and not _is_number(rows[0][0]):
        header = [c.strip().lower() for c in rows[0]]
        column = header.index("target") if "target" in header else 0
        rows = rows[1:]
    out = []
    for i, row in enumerate(rows, start=1):
        cell = row[column].strip() if column < len(row) else ""
        if not _is_number(cell):
            raise ArgumentError(f"{spec}: row {i}: a target must be a number", argument=argument,
                                value=cell)  # fmt: skip
        out.append(float(cell))
    if not 1 <= len(out) <= MAX_SLOTS:
        raise ArgumentError(f"{spec}: a curve has 1-{MAX_SLOTS} targets", argument=argument,
                            value=len(out))  # fmt: skip
    return out


def _is_number(text: str) -> bool:
    try:
        return np.isfinite(float(text))
    except ValueError:
        return False


def _rotation_cap(values: Sequence[float], k: int, kind: str) -> int:
    """At most 1, 2 or 3 rotations for the easiest, middle and hardest third of the range."""
    lo, hi = min(values), max(values)
    if hi == lo:
        return 3
    hardness = (values[k] - lo) / (hi - lo)
    if kind == "success":
        hardness = 1.0 - hardness
    return min(3, 1 + int(hardness * 3))


def campaign_from_curve(
    targets: Sequence[float],
    rng: RngLike,
    *,
    model: Any = None,
    ability: float = 0.0,
    progress: bool = True,
    time_limit: float = 10.0,
    prefix: str = "curve",
    rotations: int | Sequence[int] | None = None,
    tiles: int | Sequence[int] | None = None,
    radius: int | Sequence[int] | None = None,
) -> Campaign:
    """One level per target of a difficulty curve.

    Parameters
    ----------
    targets : sequence of float
        Structural scores (0–100) or, with ``model``, first-try success rates (0–1).
    rng : int or SeedSequence
        Seed; slot ``k`` uses the named stream ``curve/k``.
    model : object with ``success(level, ability)``, optional
        A fitted skill model: the targets are then success rates for a player of ``ability``.
    progress : bool
        Show a tqdm bar over the slots.
    time_limit : float
        Seconds per slot (see :func:`generate_to_target`).
    prefix : str
        Level ids are ``{prefix}-01`` ….
    rotations, tiles, radius : int or (lo, hi), optional
        Constraints every level must meet (see :func:`generate_to_target`); the rising-curve
        rule on rotations works inside ``rotations``. A target no level meeting them can reach
        is refused before any search, naming the reachable range.

    Returns
    -------
    Campaign
        The levels in curve order; :meth:`Campaign.report` compares targets and achieved. Its
        ``seed`` is ``entropy(rng)`` and its ``generator`` is ``{"by":
        "labkit.hexpuzzle.campaign_from_curve", "kind": "score" or "success", "curve": the
        targets}``; each level's ``metadata["generated"]`` adds the same ``seed`` and the
        ``stream`` it was drawn from (``curve/k``, or ``curve/k/j`` for a retry).

    Raises
    ------
    GeneratorOptionError
        A slot's target could not be met (with or without its cap); the message names the slot
        (``slot k of n: ...``), argument and value are the search's.
    GeneratorError
        Every try of a slot repeated an earlier level (the value is the slot's target).
    labkit.ArgumentError
        Bad targets or constraints, or a target the constraints make impossible.

    Examples
    --------
    A rising curve: each level within ±2 of its target, rotations never falling, and the same
    seed giving the same levels.

    >>> levels = campaign_from_curve([30, 50], 5, progress=False)
    >>> [(r["id"], r["target"], r["within"]) for r in levels.rows()]
    [('curve-01', 30.0, True), ('curve-02', 50.0, True)]
    >>> rotations = [r["rotations"] for r in levels.rows()]
    >>> rotations == sorted(rotations)
    True
    >>> [lv.to_dict() for lv in campaign_from_curve([30, 50], 5, progress=False)] == [
    ...     lv.to_dict() for lv in levels]
    True
    >>> campaign_from_curve([30, 120], 5)
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: targets[1]: score targets must be numbers in [0, 100] (got 120)
    """
    from tqdm.auto import tqdm

    values = list(targets) if not isinstance(targets, (str, bytes)) else None
    if not values or len(values) > MAX_SLOTS:
        raise ArgumentError(f"must list 1-{MAX_SLOTS} targets", argument="targets", value=targets)
    kind = "success" if model is not None else "score"
    hi = 1.0 if kind == "success" else 100.0
    for k, v in enumerate(values):  # all checked before minutes of search begin
        if not isinstance(v, (int, float, np.number)) or not 0 <= float(v) <= hi:
            raise ArgumentError(f"{kind} targets must be numbers in [0, {hi:g}]",
                                argument=f"targets[{k}]", value=v)  # fmt: skip
    wanted = constraints(rotations, tiles, radius)
    for k, v in enumerate(values):
        try:
            check_reachable(kind, float(v), DEFAULT_TOLERANCE[kind], wanted)
        except ArgumentError as exc:
            why = exc.message.split(": ", 1)[-1]  # the message without its argument name
            raise ArgumentError(why, argument=f"targets[{k}]", value=v) from None
    rot_lo, rot_hi = wanted.rotations
    out = Campaign()
    seen: set[tuple] = set()
    previous: tuple[float, int] | None = None
    for k in tqdm(range(len(values)), desc="campaign", unit="level", disable=not progress):
        target = values[k]
        rises = previous is not None and (
            target > previous[0] if kind == "score" else target < previous[0]
        )
        low = previous[1] if rises and previous is not None else rot_lo
        low = min(max(low, rot_lo), rot_hi)
        options = {kind: target, "model": model, "ability": ability, "tiles": tiles,
                   "radius": radius, "time_limit": time_limit,
                   "id": f"{prefix}-{k + 1:02d}"}  # fmt: skip
        cap = min(max(low, _rotation_cap(values, k, kind)), rot_hi)
        level = None
        for retry in range(RETRIES):
            name = f"curve/{k}" if retry == 0 else f"curve/{k}/{retry}"
            try:
                try:
                    candidate = generate_to_target(
                        stream(rng, name), rotations=(low, cap), **options
                    )
                except GeneratorOptionError:
                    if cap == rot_hi:
                        raise
                    candidate = generate_to_target(
                        stream(rng, name), rotations=(low, rot_hi), **options
                    )
            except GeneratorOptionError as exc:  # capped or not: the message names the slot
                raise GeneratorOptionError(
                    f"slot {k + 1} of {len(values)}: {exc.message}", argument=exc.argument,
                    value=exc.value,
                ) from None  # fmt: skip
            if puzzle_key(candidate) not in seen:
                made = {**candidate.metadata["generated"], "seed": entropy(rng), "stream": name}
                level = candidate.replace(metadata={**candidate.metadata, "generated": made})
                break
        if level is None:
            raise GeneratorError(f"slot {k + 1}: every try repeated an earlier level",
                                 value=target)  # fmt: skip
        seen.add(puzzle_key(level))
        previous = (float(target), int(score(level).R or 1))  # R is set: the search checked it
        out.append(level)
    out.seed = entropy(rng)
    out.generator = {"by": "labkit.hexpuzzle.campaign_from_curve", "kind": kind,
                     "curve": [lv.metadata["generated"]["target"][kind] for lv in out]}  # fmt: skip
    return out
