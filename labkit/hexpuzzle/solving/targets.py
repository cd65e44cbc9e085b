"""Generate a level to a difficulty target: a structural score, or a first-try success rate.

:func:`generate_to_target` closes the loop from the target back to the level. The generator
(rule H8) takes a *recipe* — board radius, tile count, rotations built in, share of straight
track — and the score (H9) lands wherever it lands. The search here steers the recipe by what
each try scored, then polishes the best board by small edits:

1. **Recipe search (cross-entropy).** A recipe is a point ``z`` of the unit square ``[0, 1]^4``
   (radius, tiles, rotations, curvature; larger is harder in every coordinate). Each round
   draws a few recipes from a Gaussian around the current mean, builds one level from each,
   and moves the mean and spread toward the best of them and of the earlier elite (elitist
   cross-entropy). The first mean comes from the target (a rough ladder from easy to hard),
   except the board size, drawn at random no easier than the ladder's (so that easy targets
   are met on both boards, with more varied solutions).
2. **Slack sweep.** Every built board is tried with each move limit that changes the pressure
   part (spare steps ``0 … ⌈0.4·N⌉``), and the closest is kept; pressure is the one part that
   moves in small exact steps without touching the board.
3. **Local edits.** Between rounds the best level so far is edited — change a cell's track,
   turn, add or remove a tile, one more or one fewer spare step — and an edit is kept when it
   comes closer to the target (or as close, now and then, to cross plateaus).

Every candidate is judged by the real solver and scorer (:func:`~.difficulty.score`, and for a
success target the model's prediction on the scored level), must be solvable with its minimum
rotations inside ``rotations`` (at least one) and winnable within its move limit.

Decisions
---------
* Determinism: every random draw comes from the one ``rng``, in a fixed order, and the search
  stops at the first candidate within tolerance; the clock only *stops* a search (``time_limit``)
  and never steers it, so a target that is reached gives the same level for the same seed,
  byte for byte (:meth:`Level.to_json`).
* The level's ``metadata["generated"]`` records target, achieved value(s), ``tries`` (boards
  built), ``scored`` (candidates judged by the solver and scorer), the seed and the recipe.
  The seconds taken are in ``metadata["runtime"]``, which :meth:`Level.to_json` does not save
  (time differs run to run; the bytes must not).
* A target that is not reached — the best error stopped improving for ``PATIENCE`` rounds, or
  ``time_limit`` ran out — raises :class:`~.generator.GeneratorOptionError` naming the range of
  values the search did reach. Bad arguments raise :class:`labkit.ArgumentError`.
* Success targets take any ``model`` with a ``success(level, ability) -> float`` method (the
  fitted skill model of :mod:`labkit.hexpuzzle`); the model is trusted to lower success as the
  structural difficulty rises only for the first guess, not for correctness.

Examples
--------
>>> lvl = generate_to_target(3, score=40)
>>> abs(lvl.metadata["generated"]["achieved"]["score"] - 40) <= 2
True
>>> generate_to_target(3, score=40) == lvl
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import labkit
from labkit import ArgumentError
from labkit._args import check_int
from labkit.hexpuzzle.difficulty.scoring import score as score_level
from labkit.hexpuzzle.difficulty.skill import SkillModel
from labkit.hexpuzzle.level import Level, Tile, all_matchings
from labkit.hexpuzzle.solving.constraints import (
    TILE_SPAN,
    Constraints,
    check_reachable,
    constraints,
)
from labkit.hexpuzzle.solving.generator import GeneratorError, GeneratorOptionError, generate
from labkit.hexpuzzle.solving.solver import solver_calls
from labkit.rng import RngLike, entropy, make_rng, seed_sequence

__all__ = ["DEFAULT_TOLERANCE", "TILE_SPAN", "generate_to_target"]

#: Longest search generate_to_target runs, in seconds (about 11 days: "no limit" in practice).
MAX_TIME_LIMIT = 1e6
#: Default tolerance of each kind of target.
DEFAULT_TOLERANCE = {"score": 2.0, "success": 0.05}
#: Recipes tried per cross-entropy round, local edits between rounds, rounds without progress.
BATCH, EDITS, PATIENCE = 4, 24, 4
#: Largest share of straight track a recipe asks for (at the easy end of the curvature axis).
#: Straight track looks the same turned, so two boards that are mostly straight line up on most
#: of their cells: at 0.8, easy targets gave look-alike boards (issue 27's layout diversity).
STRAIGHTEST = 0.45
_MATCHINGS = all_matchings()


@dataclass
class _Candidate:
    level: Level
    value: float
    error: float
    recipe: dict[str, Any]


class _Objective:
    """What a candidate is worth: the value it reaches and how far that is from the target."""

    def __init__(self, kind, target, tolerance, model, ability, wanted: Constraints):
        self.kind, self.target, self.tolerance = kind, target, tolerance
        self.model, self.ability, self.wanted = model, ability, wanted
        self.scored = 0
        self.low, self.high = math.inf, -math.inf

    def judge(self, level: Level, recipe: dict[str, Any]) -> _Candidate | None:
        """Score ``level`` (solver and scorer); ``None`` unless it is a fitting, winnable level."""
        d = score_level(level)
        self.scored += 1
        lo, hi = self.wanted.rotations
        if d.status != "ok" or d.R is None or d.total is None or not lo <= d.R <= hi:
            return None
        tiles = self.wanted.tiles
        if tiles is not None and not tiles[0] <= d.N <= tiles[1]:
            return None  # an edit added or removed a tile the designer fixed
        if self.kind == "score":
            value = float(d.total)
        else:
            # A SkillModel takes the Difficulty just computed, so it does not solve the level
            # again; any other model gets the Level (its documented duck type).
            subject = d if isinstance(self.model, SkillModel) else level
            value = float(self.model.success(subject, self.ability))
            if not math.isfinite(value):
                raise ArgumentError("model.success returned a non-finite value", argument="model",
                                    value=value)  # fmt: skip
        self.low, self.high = min(self.low, value), max(self.high, value)
        return _Candidate(level, value, abs(value - self.target), recipe)


def _check(score, success, model, ability, tolerance, rotations, tiles, radius, time_limit, budget):
    if (score is None) == (success is None):
        raise ArgumentError("give exactly one of score= and success=", argument="score/success",
                            value={"score": score, "success": success})  # fmt: skip
    kind = "score" if score is not None else "success"
    target = score if score is not None else success
    lo, hi = (0.0, 100.0) if kind == "score" else (0.0, 1.0)
    number = isinstance(target, (int, float, np.number)) and not isinstance(target, bool)
    if not number or not lo <= float(target) <= hi:
        raise ArgumentError(f"must be a number in [{lo:g}, {hi:g}]", argument=kind, value=target)
    if kind == "success" and not callable(getattr(model, "success", None)):
        raise ArgumentError(
            "a success target needs a fitted skill model with .success(level, ability)",
            argument="model",
            value=model,
        )
    if not isinstance(ability, (int, float, np.number)) or not math.isfinite(ability):
        raise ArgumentError("must be a finite number", argument="ability", value=ability)
    tol = DEFAULT_TOLERANCE[kind] if tolerance is None else tolerance
    if (isinstance(tol, (bool, np.bool_)) or not isinstance(tol, (int, float, np.number))
            or not 0 < float(tol) <= hi):  # fmt: skip
        raise ArgumentError(f"must be a number in (0, {hi:g}]", argument="tolerance", value=tol)
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not 0 < time_limit <= MAX_TIME_LIMIT
    ):  # fmt: skip (True is not 1 second)
        raise ArgumentError(f"must be a number of seconds in (0, {MAX_TIME_LIMIT}]",
                            argument="time_limit", value=time_limit)  # fmt: skip
    if budget is not None:
        check_int(budget, "budget", 1, 10**9)
    wanted = constraints(rotations, tiles, radius)
    check_reachable(kind, float(target), float(tol), wanted)
    return kind, float(target), float(tol), wanted


def _first_guess(kind: str, target: float) -> float:
    """Where on the easy-to-hard ladder to start: structural totals run from about 17 to 85."""
    x = (target - 17.0) / 68.0 if kind == "score" else 1.0 - target
    return float(np.clip(x, 0.05, 0.95))


def _first_mean(gen: np.random.Generator, kind: str, target: float) -> np.ndarray:
    """The first recipe mean: the ladder's guess, with the board-size coordinate drawn at random
    no lower than the guess.

    On the ladder alone an easy target starts on the small board (radius 2) almost every time,
    and its short paths give short, look-alike solutions: at score 35, 5-6 % of 100 levels
    shared a solution with another (issue 27's solution diversity). A large board reaches easy
    scores too, with longer and more varied ways out; a hard target stays where the ladder puts
    it (the small board cannot reach it, and starting there wastes the budget).
    """
    mean = np.full(4, _first_guess(kind, target))
    mean[0] = max(mean[0], float(gen.random()))
    return mean


def _recipe(z: np.ndarray, wanted: Constraints) -> dict[str, Any]:
    """Decode a point of the recipe square (every coordinate: larger is harder)."""
    radii = [r for r in wanted.radii if wanted.tile_span(r) is not None]
    r = radii[min(int(z[0] * len(radii)), len(radii) - 1)]
    lo, hi = wanted.tile_span(r) or (0, 0)
    tiles = int(round(lo + z[1] * (hi - lo)))
    rot_lo, rot_hi = wanted.rotations
    k = rot_lo + min(int(z[2] * (rot_hi - rot_lo + 1)), rot_hi - rot_lo)
    straight = round(STRAIGHTEST * (1.0 - float(z[3])), 2)
    return {"radius": r, "tiles": tiles, "rotations": k, "straight": straight}


def _with_slack(level: Level, slack: int) -> Level:
    return level.replace(move_limit=len(level.tiles) + slack)


def _slack_sweep(objective: _Objective, level: Level, recipe: dict) -> _Candidate | None:
    """The built board at every move limit that changes the pressure part; the closest wins."""
    best = None
    for slack in range(int(math.ceil(0.4 * len(level.tiles))) + 1):
        found = objective.judge(_with_slack(level, slack), {**recipe, "slack": slack})
        if found is not None and (best is None or found.error < best.error):
            best = found
    return best


def _free_id(level: Level) -> str:
    used = {t.id for t in level.tiles}
    return next(f"t{i}" for i in range(len(used) + 1) if f"t{i}" not in used)


#: Edits drawn when the level must get harder / easier: tracks, turns, then add or remove a
#: tile and one spare step fewer or more (kinds 0-5 of :func:`_edit`).
_HARDER, _EASIER = (0, 1, 3, 4), (0, 1, 2, 5)


def _edit(gen: np.random.Generator, level: Level, harder: bool) -> Level | None:
    """One small random change of ``level`` (``None`` when the drawn edit does not apply)."""
    tiles, n, slack = level.tiles, len(level.tiles), level.move_limit - len(level.tiles)
    kinds = _HARDER if harder else _EASIER
    kind = kinds[int(gen.integers(len(kinds)))]
    if kind == 0:  # change a cell's track
        cells = sorted(level.board.cells)
        cell = cells[int(gen.integers(len(cells)))]
        tracks = dict(level.board.tracks)
        tracks[cell] = _MATCHINGS[int(gen.integers(len(_MATCHINGS)))]
        from labkit.hexpuzzle.level import Board

        return level.replace(board=Board(tracks))
    if kind == 1:  # turn a tile
        i, step = int(gen.integers(n)), int(gen.integers(1, 6))
        t = tiles[i]
        turned = Tile(t.id, t.q, t.r, (t.dir + step) % 6, t.color)
        return level.replace(tiles=tiles[:i] + (turned,) + tiles[i + 1 :])
    if kind == 2:  # remove a tile (keeping the spare steps)
        if n <= 2:
            return None
        i = int(gen.integers(n))
        return level.replace(tiles=tiles[:i] + tiles[i + 1 :], move_limit=level.move_limit - 1)
    if kind == 3:  # add a tile (keeping the spare steps)
        used = {t.cell for t in tiles}
        free = sorted(c for c in level.board.cells if c not in used)
        if not free:
            return None
        q, r = free[int(gen.integers(len(free)))]
        tile = Tile(_free_id(level), q, r, int(gen.integers(6)), int(gen.integers(4)))
        return level.replace(tiles=tiles + (tile,), move_limit=level.move_limit + 1)
    step = -1 if kind == 4 else 1  # one spare step fewer or more
    return _with_slack(level, slack + step) if 0 <= slack + step <= 20 else None


def _polish(objective, gen, best: _Candidate, budget: int) -> _Candidate:
    """Hill-climb from ``best`` by ``budget`` random edits; ties are kept a third of the time."""
    current = best
    for _ in range(budget):
        if best.error <= objective.tolerance:
            break
        # More tiles, turns and pressure raise the score and (the model's premise) lower success.
        harder = (current.value < objective.target) == (objective.kind == "score")
        edited = _edit(gen, current.level, harder)
        sideways = gen.random() < 1 / 3  # drawn every step, so the stream does not branch
        if edited is None:
            continue
        found = objective.judge(edited, {**current.recipe, "edited": True})
        if found is None:
            continue
        if found.error < current.error or (found.error == current.error and sideways):
            current = found
            if found.error < best.error:
                best = found
    return best


def generate_to_target(
    rng: RngLike,
    *,
    score: float | None = None,
    success: float | None = None,
    model: Any = None,
    ability: float = 0.0,
    tolerance: float | None = None,
    rotations: int | Sequence[int] | None = None,
    tiles: int | Sequence[int] | None = None,
    radius: int | Sequence[int] | None = None,
    time_limit: float = 10.0,
    budget: int | None = None,
    id: str = "generated",
    name: str = "",
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> Level:
    """A level whose structural score, or predicted first-try success, lies near a target.

    Parameters
    ----------
    rng : int, SeedSequence or Generator
        Randomness; the same seed gives the same level (see the module notes).
    score : float, optional
        Target structural total, 0–100 (rule H9). About 17–85 is reachable.
    success : float, optional
        Target first-try success probability, 0–1, for a player of ``ability`` under ``model``.
    model : object with ``success(level, ability) -> float``
        A fitted skill model; required with ``success``.
    ability : float
        The player's ability on the model's scale (0: a regular player).
    tolerance : float, optional
        Accepted distance from the target (default ±2 points, ±0.05 success).
    rotations : int or (lo, hi), optional
        Minimum rotations the level may need (1–3; default any of 1–3).
    tiles : int or (lo, hi), optional
        Tile count the level must have (default: whatever the search sees fit).
    radius : {2, 3} or (2, 3), optional
        Board radius (default: either, as the search sees fit).
    time_limit : float
        Seconds after which the search stops (it never steers the search). The clock is read
        between candidates, so a search may overrun by the construction of one board.
    budget : int, optional
        Solver calls (:func:`~.solver.solver_calls`) after which the search stops, like
        ``time_limit`` but the same on every machine; a board under construction is finished.
    id, name : str
        Level metadata.
    progress : callable, optional
        Called after every recipe round with ``{"tries", "best", "error", "seconds"}``.

    Returns
    -------
    Level
        Solvable, winnable, validated; ``metadata["generated"]`` says how it was made.

    Raises
    ------
    GeneratorOptionError
        The target was not reached; the message names the range the search did reach.
    labkit.ArgumentError
        Bad arguments (both or neither target, out of range, no model for a success target),
        or constraints no level can meet (the message names the reachable range).

    Examples
    --------
    A score target, with exactly one rotation needed:

    >>> from labkit.hexpuzzle import score, solve
    >>> level = generate_to_target(3, score=40, rotations=1, id="forty")
    >>> d = score(level)
    >>> level.id, abs(d.total - 40) <= 2, d.R, solve(level).status
    ('forty', True, 1, 'solved')

    Constraints on rotations and tiles together with the score, and a refused combination:

    >>> level = generate_to_target(4, score=55, rotations=2, tiles=9)
    >>> d = score(level)
    >>> abs(d.total - 55) <= 2, d.R, d.N
    (True, 2, 9)
    >>> generate_to_target(4, score=90, rotations=1, tiles=4)
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: score: cannot be reached with 1 rotation and 4 tiles: reachable scores ...

    A success target under any model with ``success(level, ability)`` (here a toy one):

    >>> class Toy:
    ...     def success(self, level, ability=0.0):
    ...         return 1 - score(level).total / 100
    >>> easy = generate_to_target(2, success=0.6, model=Toy())
    >>> abs(Toy().success(easy) - 0.6) <= 0.05
    True
    >>> generate_to_target(2, success=0.6)
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: model: ...
    """
    kind, target, tol, wanted = _check(
        score, success, model, ability, tolerance, rotations, tiles, radius, time_limit, budget
    )
    from labkit.hexpuzzle.level_file import MAX_ID

    if not isinstance(id, str) or not 0 < len(id) <= MAX_ID:  # what Level.load would refuse
        raise ArgumentError(f"must be text of 1 to {MAX_ID} characters", argument="id",
                            value=id)  # fmt: skip
    started, calls = time.perf_counter(), solver_calls()
    spent = (lambda: False) if budget is None else (lambda: solver_calls() - calls >= budget)
    if isinstance(rng, np.random.Generator):
        gen, seed = rng, None  # its state, not a seed, decides: nothing to record
    else:
        sequence = seed_sequence(rng)  # once, so that rng=None records the entropy it used
        gen, seed = make_rng(sequence), entropy(sequence)
    objective = _Objective(kind, target, tol, model, float(ability), wanted)
    mean = _first_mean(gen, kind, target)
    spread = np.full(4, 0.2)
    elite: list[tuple[float, np.ndarray]] = []
    best: _Candidate | None = None
    tries, stale, out_of_time = 0, 0, False
    while stale < PATIENCE and not out_of_time:
        before = math.inf if best is None else best.error
        batch = []
        for _ in range(BATCH):
            z = np.clip(mean + spread * gen.standard_normal(4), 0.0, 1.0)
            recipe = _recipe(z, wanted)
            tries += 1
            try:
                built = generate(gen, slack=0, attempts=8, **recipe)
            except GeneratorError:
                built = None
            found = None if built is None else _slack_sweep(objective, built, recipe)
            if found is not None:
                batch.append((found.error, z))
                if found.error <= 2.5 * tol:
                    # A near miss is cheaper to edit than another board is to build.
                    found = _polish(objective, gen, found, EDITS)
                if best is None or found.error < best.error:
                    best = found
            if best is not None and best.error <= tol:
                return _finish(best, objective, seed, tries, started, id, name, calls)
            # The clock may only stop the search, never change what it does next.
            if time.perf_counter() - started >= time_limit or spent():
                out_of_time = True
                break
        if out_of_time:
            break
        if best is not None:
            close = best.error <= 2.5 * tol  # near misses are cheaper to edit than to rebuild
            best = _polish(objective, gen, best, 2 * EDITS if close else EDITS)
            if best.error <= tol:
                return _finish(best, objective, seed, tries, started, id, name, calls)
        elite = sorted(elite + batch, key=lambda e: e[0])[: BATCH // 2]
        if elite:
            zs = np.array([z for _, z in elite])
            mean = 0.3 * mean + 0.7 * zs.mean(axis=0)
            spread = np.maximum(0.06, 0.5 * spread + 0.5 * zs.std(axis=0))
        if progress is not None:
            progress({"tries": tries, "best": None if best is None else best.value,
                      "error": None if best is None else best.error,
                      "seconds": time.perf_counter() - started})  # fmt: skip
        stale = 0 if best is not None and best.error < before else stale + 1
        out_of_time = time.perf_counter() - started >= time_limit or spent()
    seconds = time.perf_counter() - started
    why = f"the time limit of {time_limit:g} s ran out" if out_of_time else "it stopped improving"
    if spent():
        why = f"the budget of {budget} solver calls ran out"
    found_range = (
        "no valid level at all"
        if best is None
        else f"{kind} {_fmt(objective.low)}-{_fmt(objective.high)} (closest {_fmt(best.value)})"
    )
    raise GeneratorOptionError(
        f"{kind} {_fmt(target)} ± {_fmt(tol)} was not reached ({why} after {tries} tries, "
        f"{seconds:.1f} s); the search reached {found_range}",
        pointer=kind,
        value=target,
    )


def _fmt(x: float) -> str:
    return f"{x:.3g}" if abs(x) < 1 else f"{x:.4g}"


def _finish(best: _Candidate, objective, seed, tries, started, id, name, calls) -> Level:
    """Renumber the tiles, record how the level was made, and check it once more."""
    lvl = best.level
    tiles = tuple(Tile(f"t{i}", t.q, t.r, t.dir, t.color) for i, t in enumerate(lvl.tiles))
    target: dict[str, Any] = {objective.kind: objective.target, "tolerance": objective.tolerance}
    if objective.kind == "success":
        target["ability"] = objective.ability
    generated = {
        "by": "labkit.hexpuzzle.generate_to_target",
        "labkit": labkit.__version__,
        "seed": seed,
        "target": target,
        "tries": tries,
        "scored": objective.scored,
        "recipe": best.recipe,
    }
    if objective.wanted != Constraints():
        generated["constraints"] = objective.wanted.as_dict()
    level = lvl.replace(id=id, name=name or id, tiles=tiles)
    d = score_level(level)
    achieved: dict[str, Any] = {"score": d.total}
    if objective.kind == "success":
        achieved["success"] = round(float(objective.model.success(level, objective.ability)), 6)
    generated["achieved"] = achieved
    seconds = round(time.perf_counter() - started, 3)
    runtime = {"seconds": seconds, "solver_calls": solver_calls() - calls}
    return level.replace(metadata={"generated": generated, "runtime": runtime})
