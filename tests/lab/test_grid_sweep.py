"""lab.sweep on a designer's game: a known truth, the engines, bad play functions, the folder."""

from __future__ import annotations

import json
import math
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.lab import Game, PlayError, StudyError, sweep
from labkit.lab.examples import dice_duel


def exact_attacker_win(hp: int, damage: int) -> float:
    """P(attacker wins): each side needs h = ceil(hp/damage) hits, each turn hits with 1/2; the
    attacker, rolling first in every round, wins when its h-th hit comes on a turn no later than
    the defender's: sum over a of P(A = a) P(D >= a), A and D negative binomial (h, 1/2)."""
    h = -(-hp // damage)
    pmf = [math.comb(a - 1, h - 1) * 0.5**a if a >= h else 0.0 for a in range(0, 600)]
    tail = np.cumsum(pmf[::-1])[::-1]  # P(D >= a)
    return float(sum(pmf[a] * tail[a] for a in range(600)))


def test_the_exact_reference_agrees_with_a_hand_count():
    assert exact_attacker_win(1, 1) == pytest.approx(2 / 3)  # P(A <= D), A, D geometric(1/2)
    assert exact_attacker_win(4, 5) == pytest.approx(2 / 3)


@pytest.mark.parametrize("jit", [False, True], ids=["python", "numba"])
def test_the_dice_duel_s_win_chance_is_the_exact_one(jit):
    n = 20_000 if jit else 3_000
    grid = {"hp": [1, 6, 12], "damage": [1, 4]}
    res = sweep(dice_duel(jit=jit), grid, range(n))
    est = res.estimates()
    z = 3.29  # 99.9 % each, six points
    for _, r in est.iterrows():
        p = exact_attacker_win(int(r["hp"]), int(r["damage"]))
        half = z * math.sqrt(p * (1 - p) / n)
        assert abs(r["estimate"] - p) < half, (r["hp"], r["damage"], r["estimate"], p)
        assert r["lo"] <= r["estimate"] <= r["hi"] and r["n"] == n


def test_every_engine_gives_the_same_table():
    g, grid, seeds = dice_duel(), {"hp": [3, 9], "damage": [1, 2, 3]}, range(40)
    here = sweep(g, grid, seeds).table
    with ThreadPoolExecutor(2) as pool:
        threads = sweep(g, grid, seeds, executor=pool).table
    with ProcessPoolExecutor(2) as pool:
        procs = sweep(g, grid, seeds, executor=pool).table
    assert here.equals(threads) and here.equals(procs)
    assert here.columns.tolist() == ["point", "hp", "damage", "seed", "attacker_win"]
    assert here["seed"].tolist()[:3] == [0, 1, 2] and len(here) == 6 * 40


def test_a_notebook_function_travels_to_worker_processes():
    ns: dict = {}
    exec("def play(hp, damage, seed):\n    return float((seed + hp * damage) % 3 == 0)\n", ns)
    g = Game.from_function("mod", ns["play"], knobs={"hp": (1, 9), "damage": (1, 3)},
                           outcomes={"hit": "rate"})  # fmt: skip
    with ProcessPoolExecutor(2) as pool:
        t = sweep(g, {"hp": [1, 2], "damage": [1]}, range(6), executor=pool).table
    assert t["hit"].tolist() == [float((s + h * 1) % 3 == 0) for h in (1, 2) for s in range(6)]


def test_a_game_that_cannot_be_pickled_plays_here_with_one_note():
    import threading

    lock = threading.Lock()

    def play(hp, damage, seed):
        with lock:
            return 1.0

    g = Game.from_function("locked", play, knobs={"hp": (1, 9), "damage": (1, 3)},
                           outcomes={"win": "rate"})  # fmt: skip
    with ProcessPoolExecutor(2) as pool, pytest.warns(RuntimeWarning, match="cannot be sent"):
        t = sweep(g, {"hp": [1, 2], "damage": [1]}, range(3), executor=pool).table
    assert t["win"].sum() == 6


def test_a_non_deterministic_play_is_refused_naming_the_game_and_seed(tmp_path):
    rng = np.random.default_rng(1)

    def play(hp, damage, seed):
        return float(rng.random() < 0.5)  # ignores its seed

    g = Game.from_function("leaky", play, knobs={"hp": (1, 9), "damage": (1, 3)},
                           outcomes={"win": "rate"})  # fmt: skip
    said = (
        r"game 'leaky': outcome 'win' differs when the same game is played again .* at "
        r"hp=1, damage=1, seed=\d+; draw every"
    )
    with pytest.raises(PlayError, match=said):
        sweep(g, {"hp": [1], "damage": [1]}, range(64), out=tmp_path / "s")
    assert not list((tmp_path / "s").glob("part-*"))  # nothing half-written


def test_a_play_that_fails_late_writes_only_whole_checked_parts(tmp_path):
    def play(hp, damage, seed):
        return math.nan if hp == 9 else 1.0

    g = Game.from_function("late", play, knobs={"hp": (1, 9), "damage": (1, 3)},
                           outcomes={"win": "rate"})  # fmt: skip
    with pytest.raises(PlayError, match=r"game 'late': outcome 'win' = nan \(not a number\) at "
                       r"hp=9, damage=1, seed=0"):  # fmt: skip
        sweep(g, {"hp": [1, 9], "damage": [1]}, range(5), out=tmp_path)
    import pyarrow.parquet as pq

    for part in tmp_path.glob("part-*.parquet"):
        assert not np.isnan(pq.read_table(part).column("win").to_numpy()).any()


@pytest.mark.parametrize(
    ("grid", "seeds", "said"),
    [
        ({"hp": [0]}, range(3), "grid['hp']: game 'dice duel': knob hp must be between 1 and 50"),
        ({"armour": [1]}, range(3), "game 'dice duel' has no knob 'armour'"),
        ({"hp": [3]}, [1, 1], "a seed is given twice"),
        ({"hp": [3]}, [-1], "seeds must be >= 0"),
        ({"hp": [3]}, [], "no seeds to play"),
        ({"hp": []}, range(3), "knob hp has no values"),
    ],
)
def test_bad_arguments_are_one_line_before_any_game(grid, seeds, said):
    with pytest.raises(ArgumentError) as err:
        sweep(dice_duel(), {"damage": [1], **grid}, seeds)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_a_resumed_sweep_equals_an_uninterrupted_one_and_plays_only_what_is_missing(tmp_path):
    g, grid = dice_duel(), {"hp": [2, 5], "damage": [1, 2]}
    whole = sweep(g, grid, range(30)).table
    first = sweep(g, grid, range(30), out=tmp_path)
    assert first.table.equals(whole)
    parts = sorted(tmp_path.glob("part-*.parquet"))
    parts[-1].unlink()  # as if killed before the last part
    calls = []
    again = sweep(g, grid, range(30), out=tmp_path, progress=lambda d, t: calls.append((d, t)))
    assert again.table.equals(whole) and calls and calls[0][0] > 0 and calls[-1] == (120, 120)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["game"]["name"] == "dice duel" and manifest["game"]["code"] == g.code


def test_a_folder_of_another_game_or_sweep_or_an_edited_part_is_refused(tmp_path):
    g = dice_duel()
    sweep(g, {"hp": [2], "damage": [1]}, range(8), out=tmp_path)
    other = Game.from_function("coin", lambda edge, seed: 1.0, knobs={"edge": (0, 1)},
                               outcomes={"heads": "rate"})  # fmt: skip
    with pytest.raises(StudyError, match="holds a sweep of game 'dice duel', not 'coin'"):
        sweep(other, {"edge": [0]}, range(8), out=tmp_path)
    with pytest.raises(StudyError, match=r"holds a different sweep \(seeds differs\)"):
        sweep(g, {"hp": [2], "damage": [1]}, range(9), out=tmp_path)
    import pyarrow as pa
    import pyarrow.parquet as pq

    part = next(tmp_path.glob("part-*.parquet"))
    t = pq.read_table(part)
    flipped = t.set_column(2, "attacker_win", pa.array(1 - t.column(2).to_numpy()))
    pq.write_table(flipped.replace_schema_metadata(t.schema.metadata), part)
    with pytest.raises(StudyError, match=f"{part.name}: its rows do not match its checksum"):
        sweep(g, {"hp": [2], "damage": [1]}, range(8), out=tmp_path)


def test_a_worker_thread_keeps_its_game_when_another_thread_brings_another():
    """Several threads per worker: another study's task may clear the worker's games between
    this task's store and its read. Played here as that interleaving, every time: the store of
    the first game runs the second game's whole task before the first task reads."""
    from labkit.lab import _workers

    first, second = _workers.pack(dice_duel()), _workers.pack(dice_duel(jit=True))
    assert isinstance(first, tuple) and isinstance(second, tuple) and first[0] != second[0]
    points = {"hp": np.array([3]), "damage": np.array([2])}
    seeds = np.arange(5, dtype=np.int64)
    inner = []

    class Interleaved(dict):
        def __setitem__(self, key, value):
            super().__setitem__(key, value)
            if key == first[0]:  # the other thread's task, right after this store
                inner.append(_workers.play_task(second, points, seeds, (0, 1, 0, 5)))

    saved = _workers._GAMES
    _workers._GAMES = Interleaved()
    try:
        block, got = _workers.play_task(first, points, seeds, (0, 1, 0, 5))
    finally:
        _workers._GAMES = saved
    alone = dice_duel().play_block(points, seeds)
    assert block == (0, 1, 0, 5) and len(inner) == 1
    assert all(np.array_equal(got[k], np.asarray(alone[k], dtype=got[k].dtype)) for k in alone)
