"""lab.sweep of a notebook-defined game on the local pool and on a Dask LocalCluster: the same
table as in this process (the play functions travel by value, numba ones compile there)."""

from __future__ import annotations

from labkit.lab import Game, sweep
from labkit.lab import grid_sweep as gs

SOURCE = """
import numba

def play(hp, damage, seed):
    x = (seed * 2654435761 + 12345) % 2147483647 or 1
    a = b = hp
    turn = 0
    while a > 0 and b > 0:
        x = x * 48271 % 2147483647
        if x % 2:
            if turn == 0:
                b -= damage
            else:
                a -= damage
        turn = 1 - turn
    return 1.0 if b <= 0 else 0.0

fast = numba.njit(play)
"""


def _games():
    ns: dict = {"__name__": "__main__"}  # as a notebook cell defines them
    exec(SOURCE, ns)
    knobs = {"hp": (1, 20), "damage": (1, 5)}
    return [Game.from_function(f"duel {k}", ns[k], knobs=knobs, outcomes={"win": "rate"})
            for k in ("play", "fast")]  # fmt: skip


GRID, SEEDS = {"hp": [2, 7], "damage": [1, 3]}, range(300)


def test_a_notebook_game_plays_the_same_games_on_a_dask_cluster(client):
    for g in _games():
        here = sweep(g, GRID, SEEDS, executor=None).table
        there = sweep(g, GRID, SEEDS, executor=client).table
        assert here.equals(there) and 0 < here["win"].mean() < 1


def test_the_default_local_pool_plays_the_same_games(monkeypatch):
    python, numba_game = _games()
    here = {g.name: sweep(g, GRID, SEEDS).table for g in (python, numba_game)}
    monkeypatch.setattr(gs, "LOCAL_POOL_SECONDS", 0.0)  # a pool even for a tiny sweep
    monkeypatch.setattr(gs, "BLOCK_SECONDS", 1e-5)  # and many blocks
    started = []
    real = gs.local_pool
    monkeypatch.setattr(gs, "local_pool", lambda n: started.append(n) or real(n))
    for g in (python, numba_game):
        assert sweep(g, GRID, SEEDS).table.equals(here[g.name])
    assert len(started) == 2 and all(n >= 1 for n in started)
