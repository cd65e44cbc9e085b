"""The baseline generators (issue 27): each keeps to its solver-call budget; the gated fitness."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit.hexpuzzle import Level, score
from labkit.hexpuzzle.evaluation import baselines
from labkit.hexpuzzle.evaluation.baselines import (
    BASELINES,
    _crossover,
    _range_reward,
    gated_fitness,
)
from labkit.hexpuzzle.solving.generator import GeneratorOptionError, generate
from labkit.hexpuzzle.solving.solver import solver_calls
from labkit.rng import make_rng
from tests.hexpuzzle.evaluation.test_measures import _level
from tests.hexpuzzle.helpers import random_level

SEARCHES = ["random search", "(mu+lambda) ES", "GA (gated fitness)"]


def test_gated_fitness_gates_on_quality():
    level = _level()
    total = score(level).total
    assert gated_fitness(level, {"score": total}) == 2.0
    assert gated_fitness(level, {"score": total, "tiles": 9}) == pytest.approx(0.8)


# --- pcg_benchmark's reward and gate, from their definitions --------------------------------
def test_the_range_reward_is_a_trapezoid():
    assert [_range_reward(v, 40, 50) for v in (40, 45, 50)] == [1.0, 1.0, 1.0]
    assert _range_reward(30, 40, 50) == pytest.approx(30 / 40)  # rising from 0 at 0
    assert _range_reward(75, 40, 50) == pytest.approx(25 / 50)  # falling to 0 at 100
    assert [_range_reward(v, 40, 50) for v in (0, 100, -5, 105)] == [0.0] * 4
    assert _range_reward(100, 90, 100) == _range_reward(0, 0, 10) == 1.0  # a range to the end
    assert _range_reward(15, 40, 50, low=10, high=60) == pytest.approx(5 / 30)
    assert _range_reward(55, 40, 50, low=10, high=60) == pytest.approx(5 / 10)


def test_gated_fitness_is_one_plus_the_score_reward_at_full_quality():
    level = _level()  # a radius-2 level of 3 tiles that needs no rotation
    t = score(level).total
    assert 5 < t < 90
    # within +-2 of the target: 1 + 1; outside: 1 + the trapezoid over [s - 2, s + 2]
    for s in (t - 2, t, t + 2):
        assert gated_fitness(level, {"score": s}) == 2.0
    assert gated_fitness(level, {"score": t + 10}) == pytest.approx(1 + t / (t + 8))
    assert gated_fitness(level, {"score": t - 5}) == pytest.approx(1 + (100 - t) / (100 - t + 3))


def test_gated_fitness_counts_each_quality_check():
    level = _level()
    t = score(level).total
    for control in ({"rotations": 1}, {"tiles": 4}, {"radius": 3}, {"tiles": (4, 6)}):
        assert gated_fitness(level, {"score": t, **control}) == pytest.approx(4 / 5), control
    for control in ({"tiles": 3}, {"tiles": (2, 4)}, {"radius": 2}, {}):
        assert gated_fitness(level, {"score": t, **control}) == 2.0, control
    # an unsolvable level: not solvable, not winnable, no rotation count; tiles and radius met
    facing = Level.hexagon(2, tiles=[("a", 0, 0, 2), ("b", 1, 0, 5)])
    assert gated_fitness(facing, {"score": 40}) == pytest.approx(2 / 5)
    assert gated_fitness(facing, {"score": 40, "rotations": 1}) == pytest.approx(2 / 5)
    assert gated_fitness(None, {"score": 40}) == 0.0


def test_gated_fitness_uses_the_difficulty_it_is_given():
    level, other = _level(), random_level(1)
    d = score(other)
    assert gated_fitness(level, {"score": d.total}, d) == gated_fitness(other, {"score": d.total})
    assert gated_fitness(level, {"score": 40}, score(level)) == gated_fitness(level, {"score": 40})


# --- crossover --------------------------------------------------------------------------------
def test_crossover_takes_each_cell_from_either_parent():
    a, b = random_level(1), random_level(2)
    assert a.board.cells == b.board.cells
    slack = a.move_limit - len(a.tiles)
    tiles_of = [{t.cell: (t.dir, t.color) for t in p.tiles} for p in (a, b)]
    from_a = from_b = tile_a = tile_b = 0
    for seed in range(16):
        child = _crossover(make_rng(seed), a, b)
        if child is a:
            continue
        assert child.board.cells == a.board.cells
        for cell in a.board.cells:
            track = child.board.tracks[cell]
            assert track in (a.board.tracks[cell], b.board.tracks[cell])
            if a.board.tracks[cell] != b.board.tracks[cell]:
                from_a += track == a.board.tracks[cell]
                from_b += track == b.board.tracks[cell]
        for t in child.tiles:  # a tile of either parent, on its own cell
            assert (t.dir, t.color) in (tiles_of[0].get(t.cell), tiles_of[1].get(t.cell))
        kept = {t.cell for t in child.tiles}
        tile_a += sum(c in kept for c in tiles_of[0] if c not in tiles_of[1])
        tile_b += sum(c in kept for c in tiles_of[1] if c not in tiles_of[0])
        assert [t.id for t in child.tiles] == [f"t{i}" for i in range(len(child.tiles))]
        assert [t.cell for t in child.tiles] == sorted(t.cell for t in child.tiles)
        assert len(child.tiles) >= 2 and child.move_limit == len(child.tiles) + slack
    # uniform crossover: each cell's track, and its tile, from either parent at even odds
    assert 0.4 < from_a / (from_a + from_b) < 0.6
    assert 0.35 < tile_a / (tile_a + tile_b) < 0.65


def test_crossover_of_two_board_shapes_or_too_few_tiles_gives_the_first_parent():
    a, big = random_level(1), random_level(2, radius=3)
    assert _crossover(make_rng(0), a, big) is a
    one = Level.hexagon(2, tiles=[("x", 0, 0, 0)])
    other = Level.hexagon(2, tiles=[("y", 1, 0, 0)])
    kids = [_crossover(make_rng(s), one, other) for s in range(12)]
    assert all(k is one or len(k.tiles) == 2 for k in kids)
    assert any(k is one for k in kids) and any(k is not one for k in kids)


# --- the searches: budget, stop at a hit, the fittest level returned ------------------------
@pytest.fixture
def judged(monkeypatch):
    """Every (level, fitness) a search judges, in order."""
    seen: list = []
    real = baselines.gated_fitness

    def record(level, target, difficulty=None):
        fit = real(level, target, difficulty)
        seen.append((level, fit))
        return fit

    monkeypatch.setattr(baselines, "gated_fitness", record)
    return seen


@pytest.mark.parametrize("name", SEARCHES)
def test_a_search_returns_its_fittest_level_when_the_budget_runs_out(name, judged):
    target = {"score": 97, "tiles": 4}  # out of reach: the search spends its budget
    before = solver_calls()
    level = BASELINES[name](target, make_rng(3), 150)
    assert solver_calls() - before >= 150
    fits = [f for lv, f in judged if lv is not None]
    assert len(fits) >= 2 and max(fits) < 2
    best = next(lv for lv, f in judged if lv is not None and f == max(fits))
    assert level is best  # the first of the fittest
    assert len(level.tiles) == 4  # recipes are drawn inside the constraints


@pytest.mark.parametrize("name", SEARCHES)
def test_a_search_stops_at_its_first_hit(name, judged):
    target = {"score": 30, "rotations": 1}
    hit = BASELINES[name](target, make_rng(1), 2000)
    assert judged[-1] == (hit, 2.0)
    assert all(f < 2 for _, f in judged[:-1])


def test_searches_draw_recipes_inside_the_constraints():
    target = {"score": 50, "tiles": (5, 6), "radius": 3, "rotations": (2, 3)}
    search = baselines._Search(target, 10)
    rng = make_rng(4)
    made = [lv for lv in (search.random_level(rng) for _ in range(6)) if lv is not None]
    assert len(made) >= 4
    seen = set()
    for lv in made:
        d = score(lv)
        slack = lv.move_limit - d.N
        assert len(lv.board) == 37 and 5 <= d.N <= 6 and 2 <= d.R <= 3
        assert 0 <= slack <= math.ceil(0.4 * d.N)
        seen |= {("tiles", d.N), ("rotations", d.R)}
    # drawn across the ranges, not at one end
    assert seen == {("tiles", 5), ("tiles", 6), ("rotations", 2), ("rotations", 3)}
    assert np.isfinite(search.judge(made[0])) and search.best[1] is made[0]
    # the constraints a search draws inside are the target's own
    wanted = baselines._Search({"score": 50, "rotations": 2, "tiles": 7, "radius": 2}, 1).wanted
    assert (wanted.rotations, wanted.tiles, wanted.radii) == ((2, 2), (7, 7), (2,))


def test_the_spare_steps_are_drawn_uniformly_from_none_to_two_fifths_of_the_tiles(monkeypatch):
    # the module's rule: recipes drawn uniformly inside the constraints; the spare steps of a
    # recipe run from 0 to ceil(0.4 * tiles), each as likely as the others
    asked = []
    monkeypatch.setattr(baselines, "generate", lambda rng, **kw: asked.append(kw))
    search = baselines._Search({"score": 50, "tiles": (5, 9), "radius": 3}, 10)
    rng = make_rng(7)
    for _ in range(3000):
        search.random_level(rng)
    by_tiles: dict[int, list[int]] = {}
    for kw in asked:
        by_tiles.setdefault(kw["tiles"], []).append(kw["slack"])
        assert 0 <= kw["straight"] < 0.8 and kw["attempts"] == 8 and kw["radius"] == 3
    assert sorted(by_tiles) == [5, 6, 7, 8, 9]
    for tiles, slacks in by_tiles.items():
        top = math.ceil(0.4 * tiles)  # 2, 3, 3, 4, 4
        counts = np.bincount(slacks, minlength=top + 1)
        assert len(counts) == top + 1, (tiles, counts)
        expected = len(slacks) / (top + 1)
        assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected)), (tiles, counts)


def test_the_fittest_is_the_first_of_the_fittest_whatever_the_fitness(monkeypatch):
    # a fitness below 1 for every level, all alike: the first level judged is kept
    judged = []

    def flat(level, target, difficulty=None):
        judged.append(level)
        return 0.5

    monkeypatch.setattr(baselines, "gated_fitness", flat)
    level = baselines.random_search({"score": 50, "tiles": 6, "rotations": 1}, make_rng(1), 120)
    made = [lv for lv in judged if lv is not None]
    assert len(made) >= 2 and level is made[0]


# --- the two evolutionary searches, step by step ---------------------------------------------
def test_a_mutant_is_one_to_three_edits_in_a_row(monkeypatch):
    calls: list = []

    def edit(rng, level, harder):  # a stand-in edit: one spare step more, or does not apply
        calls[-1].append((level.move_limit, harder))
        return None if rng.random() < 0.3 else level.replace(move_limit=level.move_limit + 1)

    monkeypatch.setattr(baselines, "_edit", edit)
    level = _level()
    counts, flags = set(), []
    for seed in range(100):
        calls.append([])
        child = baselines._mutant(make_rng(seed), level)
        edits = calls[-1]
        counts.add(len(edits))
        flags += [h for _, h in edits]
        # each edit works on the last child (an edit that does not apply keeps it)
        applied = child.move_limit - level.move_limit
        assert [m for m, _ in edits][0] == level.move_limit
        assert all(b - a in (0, 1) for (a, _), (b, _) in zip(edits, edits[1:]))
        assert 0 <= applied <= len(edits)
    assert counts == {1, 2, 3}
    assert 0.4 < np.mean(flags) < 0.6  # harder and easier edits alike


@pytest.fixture
def steps(monkeypatch, judged):
    """What the searches hand to _mutant and _crossover, next to what they judged."""
    seen: dict = {"mutant": [], "crossover": []}
    real_mutant, real_cross = baselines._mutant, baselines._crossover

    def mutant(rng, level):
        seen["mutant"].append((len(judged), level))
        return real_mutant(rng, level)

    def crossover(rng, a, b):
        seen["crossover"].append((len(judged), a, b))
        return real_cross(rng, a, b)

    monkeypatch.setattr(baselines, "_mutant", mutant)
    monkeypatch.setattr(baselines, "_crossover", crossover)
    return seen


TARGET_OUT_OF_REACH = {"score": 97, "tiles": (5, 6), "radius": 2}


def test_mu_lambda_breeds_from_the_best_mu_of_parents_and_children(judged, steps):
    baselines.mu_lambda(TARGET_OUT_OF_REACH, make_rng(7), 250)  # mu = 4, lambda = 8
    mu, lam = 4, 8
    parents = [(f, lv) for lv, f in judged[:mu]]
    assert len(judged) >= mu + 2 * lam and len(steps["mutant"]) >= 2 * lam
    assert steps["mutant"][0][0] == mu  # the first child comes after mu parents
    for g in range((len(judged) - mu) // lam):
        for at, level in steps["mutant"][lam * g : lam * g + lam]:
            assert mu + lam * g <= at < mu + lam * g + lam  # lambda children per generation
            assert any(level is p for _, p in parents), g  # bred from a parent
        children = [(f, lv) for lv, f in judged[mu + lam * g : mu + lam * g + lam]]
        parents = sorted(parents + children, key=lambda p: -p[0])[:mu]


def test_the_genetic_search_breeds_from_its_population_and_replaces_the_worst(judged, steps):
    baselines.genetic(TARGET_OUT_OF_REACH, make_rng(8), 450)  # 8 levels
    size = 8
    pop = [(f, lv) for lv, f in judged[:size]]
    crosses = steps["crossover"]
    assert len(crosses) >= 20 and crosses[0][0] == size
    mutated, ranks = 0, []
    for k, (at, a, b) in enumerate(crosses):
        assert at == size + k  # one child judged per crossing
        for parent in (a, b):
            fit = next(f for f, m in pop if m is parent)  # a member of the population
            below = sum(f < fit for f, _ in pop) + 0.5 * (sum(f == fit for f, _ in pop) - 1)
            ranks.append(below / (size - 1))
        worst_fit = min(f for f, _ in pop)
        child, fit = judged[size + k]
        if fit > worst_fit:
            pop[min(range(size), key=lambda i: pop[i][0])] = (fit, child)
        mutated += any(m_at == at for m_at, _ in steps["mutant"])
    assert 0.2 < mutated / len(crosses) < 0.8  # an edit after half the crossings
    # binary tournaments: the fitter of two members drawn at random is about 2/3 of the way up
    # the population on average; a member drawn at random would be half way
    assert np.mean(ranks) > 0.58


def test_ours_hands_the_target_rng_and_budget_to_generate_to_target(monkeypatch):
    seen = []

    def fake(rng, **kwargs):
        seen.append((rng, kwargs))
        if kwargs["score"] > 90:
            raise GeneratorOptionError("not reached", argument="score", value=kwargs["score"])
        return "level"

    monkeypatch.setattr(baselines, "generate_to_target", fake)
    rng = make_rng(0)
    target = {"score": 40, "tiles": (5, 7), "radius": 3, "rotations": 2}
    assert baselines.ours(target, rng, 123) == "level"
    assert baselines.ours({"score": 95}, rng, 5) is None  # gave up: no level
    (got, kwargs), (_, other) = seen
    assert got is rng and kwargs["budget"] == 123 and kwargs["score"] == 40
    assert {k: kwargs[k] for k in ("tiles", "radius", "rotations")} == {
        "tiles": (5, 7), "radius": 3, "rotations": 2}  # fmt: skip
    # the budget, not the clock, ends the search: an hour's limit
    assert kwargs["time_limit"] >= 3600 and other["time_limit"] >= 3600
    assert set(other) == {"score", "budget", "time_limit"}


def test_ours_is_generate_to_target_with_the_targets_controls():
    target = {"score": 40, "tiles": 7, "radius": 3, "rotations": 2}
    level = BASELINES["generate_to_target"](target, make_rng(2), 500)
    d = score(level)
    assert (d.N, d.R, len(level.board)) == (7, 2, 37) and abs(d.total - 40) <= 2
    assert BASELINES["generate_to_target"]({"score": 94}, make_rng(2), 20) is None


@pytest.mark.parametrize("name", SEARCHES)
def test_baselines_keep_to_their_budget(name):
    target = {"score": 35, "rotations": 1}
    before = solver_calls()
    level = BASELINES[name](target, make_rng(5), 60)
    spent = solver_calls() - before
    # one candidate may be under way when the budget runs out: a build (8 attempts of 7
    # searches) and its score, no more
    assert spent <= 60 + 8 * 7 + 1
    assert level is None or gated_fitness(level, target) >= 0


def test_gated_fitness_reads_rotations_and_the_hex_radius_as_asked():
    ring = generate(make_rng(0), radius=2, tiles=5, rotations=1, slack=2)  # needs one rotation
    t = score(ring).total
    assert gated_fitness(ring, {"score": t, "rotations": 1}) == 2.0
    assert gated_fitness(ring, {"score": t, "rotations": 2}) == pytest.approx(4 / 5)
    # a radius-1 board and one cell farther out: the hex radius is 2 by |q|, |r| or |q + r|
    for far in ((2, -1), (-1, 2), (1, 1)):
        doc = Level.hexagon(1, tiles=[("a", 0, 0, 0)]).to_dict()
        doc["cells"].append({"q": far[0], "r": far[1], "tracks": [3, 4, 5, 0, 1, 2]})
        level = Level.from_dict(doc)
        total = score(level).total
        assert gated_fitness(level, {"score": total, "radius": 2}) == 2.0, far
        assert gated_fitness(level, {"score": total, "radius": 3}) == pytest.approx(4 / 5), far


def test_a_search_is_seeded():
    target = {"score": 35, "rotations": 1}
    first = baselines.random_search(target, make_rng(3), 30)
    assert first is not None and baselines.random_search(target, make_rng(3), 30) == first
