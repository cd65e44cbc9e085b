"""The searches a generator is compared with, at an equal solver budget (pcg_benchmark's three).

Each is a generator in :func:`~.evaluate.evaluate_generator`'s sense,
``f(target, rng, budget) -> Level | None``, and judges every candidate with labkit's own solver
and scorer, so a comparison measures the search, not the rules:

* :func:`random_search` — recipes drawn uniformly inside the target's constraints (radius, tile
  count, rotations built in, share of straight track, spare steps), one level built backwards
  from each (:func:`~labkit.hexpuzzle.generate`);
* :func:`mu_lambda` — a (μ+λ) evolution strategy on levels: μ = 4 parents from random recipes,
  λ = 8 children per generation by one to three small edits (a track, a turn, a tile more or
  less, a spare step: the edits of :func:`~labkit.hexpuzzle.generate_to_target`'s polish), the
  best μ of parents and children kept;
* :func:`genetic` — a steady-state genetic algorithm: 8 levels, binary tournaments, uniform
  crossover of two boards of one size (each cell's track and tile from either parent), then an
  edit, the child replacing the worst when it is better.

All three use pcg_benchmark's *gated* fitness (:func:`gated_fitness`): below full quality the
fitness is the quality share alone; at full quality it is 1 plus the control reward, so no
amount of control pays for a broken level. A search stops at the first level within ±2 that
meets the constraints, or when the budget is spent (then its fittest level is returned).
:func:`ours` wraps :func:`~labkit.hexpuzzle.generate_to_target` the same way.

Examples
--------
>>> from labkit.rng import make_rng
>>> lvl = random_search({"score": 30, "rotations": 1}, make_rng(1), budget=400)
>>> from labkit.hexpuzzle import score
>>> d = score(lvl)
>>> gated_fitness(lvl, {"score": 30, "rotations": 1}) == 2.0, abs(d.total - 30) <= 2, d.R
(True, True, 1)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from labkit.hexpuzzle.difficulty.scoring import score
from labkit.hexpuzzle.level import Board, Level, Tile
from labkit.hexpuzzle.solving.constraints import constraints
from labkit.hexpuzzle.solving.generator import GeneratorError, GeneratorOptionError, generate
from labkit.hexpuzzle.solving.solver import solver_calls
from labkit.hexpuzzle.solving.targets import _edit, generate_to_target

__all__ = ["BASELINES", "gated_fitness", "genetic", "mu_lambda", "ours", "random_search"]


def _range_reward(value: float, lo: float, hi: float, low: float = 0, high: float = 100) -> float:
    """pcg_benchmark's trapezoid: 1 on ``[lo, hi]``, falling to 0 at ``low`` and ``high``."""
    if lo <= value <= hi:
        return 1.0
    if value <= low or value >= high:
        return 0.0
    return (value - low) / (lo - low) if value < lo else (high - value) / (high - hi)


def gated_fitness(level: Level | None, target: dict, difficulty: Any = None) -> float:
    """pcg_benchmark's gated fitness: quality share below 1, else 1 + the score's reward.

    Quality is the share of: solvable, winnable (scorer status ``ok``), rotations, tiles and
    radius as the target asks (a control the target does not name is met). The reward is 1
    within ±2 of the target score.

    Examples
    --------
    >>> gated_fitness(None, {"score": 40})
    0.0
    """
    if level is None:
        return 0.0
    d = score(level) if difficulty is None else difficulty
    wanted = constraints(target.get("rotations"), target.get("tiles"), target.get("radius"))
    radius = max(max(abs(q), abs(r), abs(q + r)) for q, r in level.board.cells)
    lo, hi = wanted.rotations if "rotations" in target else (0, 99)  # as the target asks
    checks = [d.solution is not None and d.solution.solved, d.status == "ok",
              d.R is not None and lo <= d.R <= hi,
              wanted.tiles is None or wanted.tiles[0] <= d.N <= wanted.tiles[1],
              radius in wanted.radii]  # fmt: skip
    quality = sum(checks) / len(checks)
    if quality < 1 or d.total is None:
        return quality
    s = float(target["score"])
    return 1.0 + _range_reward(float(d.total), s - 2, s + 2)


class _Search:
    """Budget bookkeeping and the fittest level so far, shared by the three searches."""

    def __init__(self, target: dict, budget: int) -> None:
        self.target, self.budget, self.start = target, budget, solver_calls()
        self.wanted = constraints(target.get("rotations"), target.get("tiles"),
                                  target.get("radius"))  # fmt: skip
        self.best: tuple[float, Level | None] = (-1.0, None)

    @property
    def spent(self) -> bool:
        return solver_calls() - self.start >= self.budget

    @property
    def done(self) -> bool:
        return self.best[0] >= 2.0 or self.spent

    def judge(self, level: Level | None) -> float:
        fit = gated_fitness(level, self.target)
        if level is not None and fit > self.best[0]:
            self.best = (fit, level)
        return fit

    def random_level(self, rng: np.random.Generator) -> Level | None:
        """One level from a recipe drawn uniformly inside the constraints."""
        radii = [r for r in self.wanted.radii if self.wanted.tile_span(r) is not None]
        radius = radii[int(rng.integers(len(radii)))]
        lo, hi = self.wanted.tile_span(radius) or (1, 1)
        tiles = int(rng.integers(lo, hi + 1))
        rotations = int(rng.integers(self.wanted.rotations[0], self.wanted.rotations[1] + 1))
        straight = float(rng.uniform(0, 0.8))
        slack = int(rng.integers(0, math.ceil(0.4 * tiles) + 1))
        try:
            return generate(rng, radius=radius, tiles=tiles, rotations=rotations, slack=slack,
                            straight=straight, attempts=8)  # fmt: skip
        except GeneratorError:
            return None


def random_search(target: dict, rng: np.random.Generator, budget: int) -> Level | None:
    """Random recipes until one level hits the target or the budget is spent (see module)."""
    search = _Search(target, budget)
    while not search.done:
        search.judge(search.random_level(rng))
    return search.best[1]


def _mutant(rng: np.random.Generator, level: Level) -> Level:
    child = level
    for _ in range(int(rng.integers(1, 4))):
        edited = _edit(rng, child, bool(rng.integers(2)))
        child = edited if edited is not None else child
    return child


def _population(search: _Search, rng: np.random.Generator, size: int) -> list:
    out: list[tuple[float, Level]] = []
    while len(out) < size and not search.done:
        level = search.random_level(rng)
        if level is not None:
            out.append((search.judge(level), level))
    return out


def mu_lambda(target: dict, rng: np.random.Generator, budget: int, mu: int = 4,
              lam: int = 8) -> Level | None:  # fmt: skip
    """A (μ+λ) evolution strategy on levels (see module)."""
    search = _Search(target, budget)
    parents = _population(search, rng, mu)
    while parents and not search.done:
        children = []
        for _ in range(lam):
            child = _mutant(rng, parents[int(rng.integers(len(parents)))][1])
            children.append((search.judge(child), child))
            if search.done:
                break
        ranked = sorted(parents + children, key=lambda p: -p[0])
        parents = ranked[:mu]
    return search.best[1]


def _crossover(rng: np.random.Generator, a: Level, b: Level) -> Level:
    """Each cell's track and tile from either parent (parents on one board shape)."""
    if a.board.cells != b.board.cells:
        return a
    tracks: dict = {}
    tiles: list[Tile] = []
    by_cell = [{t.cell: t for t in a.tiles}, {t.cell: t for t in b.tiles}]
    for cell in sorted(a.board.cells):
        pick = int(rng.integers(2))
        tracks[cell] = (a.board if pick == 0 else b.board).tracks[cell]
        tile = by_cell[int(rng.integers(2))].get(cell)
        if tile is not None:
            tiles.append(Tile(f"t{len(tiles)}", tile.q, tile.r, tile.dir, tile.color))
    if len(tiles) < 2:
        return a
    slack = a.move_limit - len(a.tiles)
    return a.replace(board=Board(tracks), tiles=tuple(tiles), move_limit=len(tiles) + slack)


def genetic(target: dict, rng: np.random.Generator, budget: int, size: int = 8) -> Level | None:
    """A steady-state genetic algorithm with gated fitness (see module)."""
    search = _Search(target, budget)
    pop = _population(search, rng, size)
    while pop and not search.done:

        def pick() -> Level:
            i, j = rng.integers(len(pop), size=2)
            return pop[i][1] if pop[i][0] >= pop[j][0] else pop[j][1]

        child = _crossover(rng, pick(), pick())
        if rng.random() < 0.5:
            child = _mutant(rng, child)
        fit = search.judge(child)
        worst = min(range(len(pop)), key=lambda k: pop[k][0])
        if fit > pop[worst][0]:
            pop[worst] = (fit, child)
    return search.best[1]


def ours(target: dict, rng: np.random.Generator, budget: int) -> Level | None:
    """:func:`~labkit.hexpuzzle.generate_to_target` as a generator (``None`` when it gives up).

    Examples
    --------
    >>> from labkit.hexpuzzle import score
    >>> from labkit.rng import make_rng
    >>> score(ours({"score": 40, "tiles": 7}, make_rng(2), budget=500)).N
    7
    """
    controls = {k: target[k] for k in ("rotations", "tiles", "radius") if k in target}
    try:
        return generate_to_target(rng, score=target["score"], budget=budget, time_limit=3600,
                                  **controls)  # fmt: skip
    except GeneratorOptionError:
        return None


#: The generators compared by ``labkit puzzle evaluate`` and the benchmark, by name.
BASELINES = {"generate_to_target": ours, "random search": random_search,
             "(mu+lambda) ES": mu_lambda, "GA (gated fitness)": genetic}  # fmt: skip
