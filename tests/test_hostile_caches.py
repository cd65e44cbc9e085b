"""Every memoising cache (issue 46: "a cache kept between two calls that differ in one option"):
each is called twice with arguments that differ in exactly one thing that changes the answer,
and the second answer must be the one a fresh process gives (the cache cleared, or a new
object). The caches, from ``grep -rn "lru_cache|functools.cache|_cache|_CACHE|cache ="``:

* the funnel's worlds (``playthrough.model._RECENT``) and its check (``_CHECKS``);
* the patched balance (``settings._patched``) and the kernel's tables (``_game_args._tables``,
  ``_game_args._key``);
* the hex puzzle's contact tables (``solving.contacts._CACHE``), a board's rotations and tile
  paths (``Board.rotated``, ``Board.memo``);
* the paired table's weighted sums (``paired._Weighted._cache``);
* a map-turn world's passable grid (``World._passable_cache``);
* the games a ``GamePlayer`` already played (``knobs.GamePlayer._seen``: importance, tune_many).

Caches without an argument (``default_balance``, ``_default_doc_text``, ``name_fonts``) hold one
answer per process; they have nothing that could differ.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from labkit.hexpuzzle.playthrough import model as pm
from labkit.hexpuzzle.playthrough.truth import TrueModel

IDS = ["L01", "L02", "L03"]
DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def fresh_funnels():
    pm._CHECKS.clear()
    pm._RECENT.clear()
    yield
    pm._CHECKS.clear()
    pm._RECENT.clear()


def _same_funnel(f, g) -> None:
    assert f.check == g.check
    for name in g.stats:
        np.testing.assert_array_equal(f.stats[name], g.stats[name])


def _first_tries_only(rows):
    """The same players reaching and leaving the same levels, every won level won at the first
    attempt (the attempts lost before a win dropped): only the first-try counts change."""
    key = list(zip(rows["level"].tolist(), rows["player"].tolist()))
    won = rows["won"].astype(bool)
    wins = {k for k, w in zip(key, won) if w}
    out = rows[[not (k in wins and not w) for k, w in zip(key, won)]].copy()
    out["attempt"] = np.where(out["won"].astype(bool), 1, out["attempt"])
    out["first_try"] = (out["attempt"] == 1) & out["won"].astype(bool)
    return out


def test_the_funnel_check_is_not_reused_for_data_with_other_first_tries(fresh_funnels):
    """The check's key held the players and reach only: data that differ in first tries got
    the first data's check ('fits the data' where the data disagree)."""
    truth = TrueModel([-0.5, 0.0, 0.5], quit={"baseline": -2.0})
    rows = truth.telemetry(300, rng=5)
    lucky = _first_tries_only(rows)
    a, b = pm.observed_counts_of(rows, IDS), pm.observed_counts_of(lucky, IDS)
    assert (a["players"], a["reached"], a["stopped"]) == (b["players"], b["reached"], b["stopped"])
    assert a["first_try"] != b["first_try"]  # the one thing that differs
    args = {"players": 2000, "draws": 10, "rng": 0}
    pm.funnel(IDS, truth, telemetry=rows, **args)
    second = pm.funnel(IDS, truth, telemetry=lucky, **args)
    pm._CHECKS.clear()
    pm._RECENT.clear()
    fresh = pm.funnel(IDS, truth, telemetry=lucky, **args)
    assert "disagree" in fresh.check[0]  # the data's first tries are far off the model's
    _same_funnel(second, fresh)


def test_the_funnel_in_the_datas_order_does_not_take_another_orders_check(fresh_funnels):
    """A funnel in the data's own order is checked on itself; after a funnel of another order
    it took that order's check (played on the stream 'check'), so its answer depended on what
    ran before it in the session."""
    truth = TrueModel([-0.5, 0.0, 0.5], quit={"baseline": -2.0})
    rows = TrueModel([-0.3, 0.0, 0.8], quit={"baseline": -1.7}).telemetry(300, rng=0)
    args = {"players": 300, "draws": 5, "rng": 0, "telemetry": rows}
    pm.funnel(["L02", "L01", "L03"], truth, **args)
    second = pm.funnel(IDS, truth, **args)
    pm._CHECKS.clear()
    pm._RECENT.clear()
    _same_funnel(second, pm.funnel(IDS, truth, **args))
    # and the other way round: another order after the data's own
    other = pm.funnel(["L02", "L01", "L03"], truth, **args)
    pm._CHECKS.clear()
    pm._RECENT.clear()
    _same_funnel(other, pm.funnel(["L02", "L01", "L03"], truth, **args))


def test_an_edited_level_under_the_same_id_gets_its_own_prediction(fresh_funnels):
    """The worlds' key held the levels' ids only: a level edited under its id (predicted from
    its parts) was played with the old level's difficulty."""
    from labkit.hexpuzzle.difficulty.skill import SkillModel
    from labkit.hexpuzzle.level import Level

    model = SkillModel.load(DATA / "telemetry" / "skill_model.json")
    level = Level.load(DATA / "levels" / "02-one-turn.json")
    ring = Level.load(DATA / "levels" / "04-ring-loop.json")
    edited = dataclasses.replace(ring, id=level.id)
    assert model.difficulty_of(level) != model.difficulty_of(edited)
    args = {"players": 500, "draws": 4, "rng": 3}
    pm.funnel(["main-01", level], model, **args)
    second = pm.funnel(["main-01", edited], model, **args)
    pm._CHECKS.clear()
    pm._RECENT.clear()
    fresh = pm.funnel(["main-01", edited], model, **args)
    _same_funnel(second, fresh)
    assert not np.array_equal(
        fresh.stats["first_try"], pm.funnel(["main-01", level], model, **args).stats["first_try"]
    )


def test_the_funnels_worlds_differ_in_attempts_and_moving_on(fresh_funnels):
    truth = TrueModel([0.0, 1.0, 2.0], quit={"baseline": -1.0})
    for option in ({"max_attempts": 2}, {"moves_on": False}, {"uncertainty": False},
                   {"draws": 6}):  # fmt: skip
        args = {"players": 200, "draws": 5, "rng": 4}
        pm.funnel(IDS, truth, **args)
        second = pm.funnel(IDS, truth, **{**args, **option})
        pm._RECENT.clear()
        pm._CHECKS.clear()
        _same_funnel(second, pm.funnel(IDS, truth, **{**args, **option}))


def test_the_balance_and_kernel_tables_follow_each_patch():
    from labkit.encounter.sim import _game_args as ga
    from labkit.encounter.sim import settings as st
    from labkit.encounter.sim.pool import play_chunk

    life = "/characters/monster/life"
    base = st.SimulationSettings(max_steps=150)
    jobs = [(i, 0, i, i) for i in range(40)]

    def played(patch):
        return play_chunk({0: base.replace(balance=patch).to_dict()}, jobs, "outcome")

    for first, second in (({life: 5}, {life: 3}), ({}, {"/combat/max_rounds": 1}),
                          ({life: 3}, {life: 3, "/characters/npc/life": 9})):  # fmt: skip
        played(first)
        again = played(second)
        got = base.replace(balance=second).resolved_balance().to_dict()
        assert got == st._patched.__wrapped__(json.dumps(second, sort_keys=True)).to_dict()
        st._patched.cache_clear()
        ga._tables.cache_clear()
        assert again == played(second)
        assert again != played(first), (first, second)  # the option changes the games
    assert ga._key("policy/npc-0") != ga._key("policy/npc-1") == ga._key.__wrapped__("policy/npc-1")


def test_contact_tables_follow_rotation_and_every_tile():
    from labkit.hexpuzzle.level import Level
    from labkit.hexpuzzle.solving import contacts

    def table(level):
        t = contacts.contact_table(level)
        return t.exits.tolist(), t.blockers.tolist(), t.rotations

    lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5), ("c", -1, 0, 2)])
    for other in (
        dataclasses.replace(lvl, rotation_enabled=False),  # one option each
        Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5), ("c", -1, 0, 3)]),
        Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5), ("c", 0, 1, 2)]),
    ):
        contacts._CACHE.clear()
        first = table(lvl)
        second = table(other)
        contacts._CACHE.clear()
        assert second == table(other) != first


def test_a_boards_rotations_and_tile_paths_follow_their_arguments():
    from labkit.hexpuzzle.geometry import tile_path
    from labkit.hexpuzzle.level import Level

    board = Level.hexagon(2, tracks=(1, 0, 3, 2, 5, 4)).board
    board.rotated(1)
    second = board.rotated(2)
    new = Level.hexagon(2, tracks=(1, 0, 3, 2, 5, 4)).board
    assert second.tracks == new.rotated(2).tracks != board.rotated(1).tracks
    tile_path(board, 0, 0, 1)
    again = tile_path(board, 0, 0, 2)
    assert repr(again) == repr(tile_path(Level.hexagon(2, tracks=(1, 0, 3, 2, 5, 4)).board, 0, 0,
                                         2))  # fmt: skip
    assert repr(again) != repr(tile_path(board, 0, 0, 1))


def test_weighted_quantiles_and_sums_are_each_their_own():
    from labkit.encounter.sim.paired import _Weighted

    gen = np.random.default_rng(0)
    cols = {"a": gen.integers(0, 50, 30).astype(float), "b": gen.normal(0, 1, 30)}
    w = gen.poisson(1.0, (5, 30)).astype(float)
    shared = _Weighted(cols, w)
    for name, q in (("a", 0.1), ("a", 0.9), ("b", 0.9), ("b", 0.5)):
        got = shared.quantile(name, q)
        np.testing.assert_array_equal(got, _Weighted(cols, w).quantile(name, q))
    np.testing.assert_array_equal(shared.sd("b"), _Weighted(cols, w).sd("b"))
    assert not np.array_equal(shared.quantile("a", 0.1), shared.quantile("a", 0.9))


def test_the_passable_grid_follows_every_change_and_floor():
    from labkit.mapturn import World, example_tower_path, load_tower

    world = World(load_tower(example_tower_path()))
    first = world.passable("F1").copy()
    ys, xs = np.nonzero(~first)
    x, y = int(xs[0]), int(ys[0])  # a cell nobody may stand on
    world.hide_block("F1", x, y)
    assert world.passable("F1")[y, x]
    world.show_block("F1", x, y)
    np.testing.assert_array_equal(world.passable("F1"), first)
    world.remove_block("F1", x, y)
    expected = first.copy()
    expected[y, x] = True
    np.testing.assert_array_equal(world.passable("F1"), expected)
    # another floor after this one: its own grid, as a fresh world gives it
    fresh = World(load_tower(example_tower_path()))
    np.testing.assert_array_equal(world.passable("F2"), fresh.passable("F2"))
    assert world.passable("F2").shape != first.shape or not np.array_equal(
        world.passable("F2"), expected)  # fmt: skip


def test_the_game_players_outcomes_follow_each_point_and_refuse_what_a_fresh_player_refuses():
    """``GamePlayer`` keeps each (point, seed)'s outcomes; 3.0 and True equal 3 and 1 as dict
    keys, so a point the settings refuse (a whole field given 3.0) was answered from a game
    played for 3."""
    from concurrent.futures import ThreadPoolExecutor

    from labkit.encounter.sim.knobs import GamePlayer
    from labkit.encounter.sim.settings import SimulationError, SimulationSettings

    life = "/characters/monster/life"
    seeds = [np.arange(20)]
    with ThreadPoolExecutor(1) as pool:
        player = GamePlayer(SimulationSettings(max_steps=150), executor=pool)
        (three,) = player.play([{life: 3}], seeds)
        (six,) = player.play([{life: 6}], seeds)
        fresh = GamePlayer(SimulationSettings(max_steps=150), executor=pool)
        np.testing.assert_array_equal(six, fresh.play([{life: 6}], seeds)[0])
        assert not np.array_equal(three, six)
        for bad in ({life: 3.0}, {life: True}, {"npcs": 3.0}):
            with pytest.raises(SimulationError, match="must be an integer"):
                fresh.play([bad], seeds)
            with pytest.raises(SimulationError, match="must be an integer"):
                player.play([bad], seeds)


def _logistic(point, seeds):
    """A stand-in game: the NPC win chance rises with knob ``a`` (its own luck per seed)."""
    gen = np.random.default_rng(np.asarray(seeds))
    win = gen.random(len(seeds)) < 1 / (1 + np.exp(-(float(point["a"]) - 5)))
    return {"npc_win": win.astype(float)}


def test_a_tune_study_folder_resumed_with_another_rng_is_refused(tmp_path):
    """A tune_many study folder is a cache of trials: resumed with another ``rng=`` it went on
    from trials that run never draws, and answered as the first run did."""
    from labkit.encounter.sim.sweep import SweepError
    from labkit.encounter.sim.tune_many import tune_many

    args = {"budget": 8, "games": 30, "fresh": 30, "confirm": 60, "response": _logistic,
            "seeds": range(5000), "progress": False}  # fmt: skip
    knobs, targets = {"a": (0.0, 10.0)}, ["npc_win=0.5±0.05"]
    first = tune_many(None, knobs, targets, rng=0, out=tmp_path / "t", **args)
    other = tune_many(None, knobs, targets, rng=1, **args)
    assert not first.trials.equals(other.trials)  # the option changes the answer
    with pytest.raises(SweepError, match=r"holds a different tune \(rng differs\)"):
        tune_many(None, knobs, targets, rng=1, out=tmp_path / "t", **args)
    again = tune_many(None, knobs, targets, rng=0, out=tmp_path / "t", **args)
    assert again.trials.equals(first.trials) and again.best == first.best
