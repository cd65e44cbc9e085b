"""players: a plain reference player on the game's own rules, compared game for game.

The reference below is written from the rules of the ``players`` module docstring (scan, tap,
look-ahead, stuck, hint, undo or rescue, the ``6·N + 30`` action cap, the move limit, the time
per action and the draw order) on :class:`~labkit.hexpuzzle.game.PuzzleState` and
:func:`~labkit.hexpuzzle.tap_trace.trace_tap` (which tiles exit, collisions, steps, rotation)
and :func:`~labkit.hexpuzzle.solving.solver.solve` (hints), never on the contact table bitmasks.
Same seed, same generator: the same action log, counts and seconds.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest

from labkit.hexpuzzle import campaign
from labkit.hexpuzzle.difficulty import players as pl
from labkit.hexpuzzle.difficulty.players import Player
from labkit.hexpuzzle.game import PuzzleState
from labkit.hexpuzzle.geometry import tile_path
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.solver import solve
from labkit.hexpuzzle.tap_trace import trace_tap

# seconds per action (the docstring's "Time per action")
SCAN, PER_TILE, TAP, PER_TURN, ROTATE, STUCK, HINT, UNDO = 1.0, 0.3, 1.5, 0.5, 1.2, 4.0, 2.0, 1.5


def exits(level: Level, orientation: int, active) -> list[bool]:
    """Which tiles would exit if tapped at ``orientation`` with ``active`` on the board."""
    view = SimpleNamespace(level=level.rotated(orientation), active=np.asarray(active))
    return [
        bool(on) and trace_tap(view, t.id).outcome == "exit" for t, on in zip(level.tiles, active)
    ]


def turns(level: Level, orientation: int, tile) -> int:
    return tile_path(level.rotated(orientation).board, tile.q, tile.r, tile.dir).turns


def reference_attempt(level: Level, player: Player, skill: float, attempt: int, gen) -> dict:
    me = Player(player.id, min(1.0, skill))
    state = PuzzleState(level)
    tiles, n = level.tiles, len(level.tiles)
    out = dict(collisions=0, hints=0, rotations=0, undos=0, seconds=0.0, actions=[])
    hinted = None  # the hint's action, taken as the next action

    def spend(seconds):
        out["seconds"] += seconds * me.pace * gen.lognormal(0.0, 0.3)

    def rotate(step):
        state.rotate(step)
        out["rotations"] += 1
        out["actions"].append(("rotate", step))
        spend(ROTATE)

    for _action in range(6 * n + 30):
        if state.status != "playing":  # won, or every step used
            break
        o = state.orientation
        if hinted is not None:
            kind, arg = hinted
            hinted = None
            if kind == "rotate":
                rotate(arg)
                continue
            tile_id = arg
        else:
            free = exits(level, o, state.active)
            draws = gen.random(n)
            seen = []
            for i, t in enumerate(tiles):
                if not state.active[i]:
                    continue
                k = turns(level, o, t)
                if free[i] and draws[i] < me.notice(k):
                    seen.append(i)
                elif not free[i] and draws[i] < me.careless(k):
                    seen.append(i)  # a careless tap
            spend(SCAN + PER_TILE * len(state.remaining))
            if not seen:
                step = 0
                if level.can_rotate:
                    for k, s in itertools.product(range(1, me.lookahead + 1), (1, -1)):
                        o2 = (o + s * k) % 6
                        free2 = exits(level, o2, state.active)
                        draws = gen.random(n)
                        if any(free2[i] and draws[i] < me.notice(turns(level, o2, t))
                               for i, t in enumerate(tiles)):  # fmt: skip
                            step = s
                            break
                if step:
                    rotate(step)
                    continue
                spend(STUCK)
                asks = gen.random() < me.hint_rate
                if asks or not level.can_rotate:
                    out["hints"] += 1
                    out["actions"].append(("hint", None))
                    spend(HINT)
                    plan = solve(state)
                    if not plan.solved or not plan.actions:
                        break  # no plan: the player gives up the attempt
                    hinted = tuple(plan.actions[0])
                else:
                    rotate(int(gen.choice((1, -1))))
                continue
            tile_id = tiles[seen[int(gen.integers(len(seen)))]].id
        k = turns(level, o, level.tile(tile_id))
        trace = state.tap(tile_id)
        out["actions"].append(("tap", tile_id))
        spend(TAP + PER_TURN * k)
        if trace.outcome == "exit":
            continue
        out["collisions"] += 1
        hopeless = state.steps_left < len(state.remaining)
        if gen.random() < (me.rescue_rate if hopeless else me.undo_rate):
            state.undo()
            out["undos"] += 1
            out["actions"].append(("undo", None))
            spend(UNDO)
    out["won"] = state.status == "won"
    out["attempt"] = attempt
    return out


def reference_play(level, player, seed, *, max_attempts=3, learning=0.1) -> list[dict]:
    gen = np.random.default_rng(seed)
    games = []
    for attempt in range(1, max_attempts + 1):
        skill = player.skill + learning * (attempt - 1)
        games.append(reference_attempt(level, player, skill, attempt, gen))
        if games[-1]["won"]:
            break
    return games


def assert_same_games(level, player, seed, **kw):
    mine = reference_play(level, player, seed, **kw)
    theirs = pl.play(level, player, np.random.default_rng(seed), **kw)
    assert len(theirs) == len(mine), (level.id, player.skill, seed)
    for ref, game in zip(mine, theirs):
        where = (level.id, player.skill, seed, ref["attempt"])
        assert game.attempt == ref["attempt"], where
        assert game.actions == ref["actions"], where
        for name in ("won", "collisions", "hints", "rotations", "undos"):
            assert getattr(game, name) == ref[name], (where, name)
        assert game.seconds == pytest.approx(ref["seconds"], abs=1e-9), where
    return mine


# -- levels ------------------------------------------------------------------------------------


def shipped(name: str) -> Level:
    return Level.load(pl._shipped(name))


MAIN = {lv.id: lv for lv in campaign()}
SKILLS = (0.0, 0.3, 0.6, 1.0)
SEEDS = (0, 1, 2)
LEVELS = {
    "one-turn": shipped("02-one-turn.json"),
    "two-turns": shipped("03-two-turns.json"),
    "strip": shipped("05-strip.json"),  # cannot rotate
    "main-06": MAIN["main-06"],
    "main-12": MAIN["main-12"],
    "main-19": MAIN["main-19"],  # 17 tiles, 3 turns: hints and look-ahead at depth
    # a move limit the players reach (exactly the tiles: no step to spare)
    "tight": shipped("02-one-turn.json").replace(id="tight", move_limit=5),
    "main-12-tight": MAIN["main-12"].replace(id="main-12-tight", move_limit=7),
    # cannot rotate and cannot be won: hints find no plan
    "fixed": shipped("02-one-turn.json").replace(id="fixed", rotation_enabled=False),
}


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_the_game_loop_plays_as_the_reference_player(name):
    level = LEVELS[name]
    for skill, seed in itertools.product(SKILLS, SEEDS):
        assert_same_games(level, Player("p", skill), seed)


def test_the_compared_games_reach_every_rule():
    """The comparison covers what it claims: hints, plans, undos, rescues, the limit, the cap."""
    seen = dict(hint=0, hinted_rotate=0, hinted_tap=0, gave_up=0, undo=0, rescue_chance=0,
                limit=0, careless=0, lookahead=0, cap=0, random_turn=0)  # fmt: skip
    for level in LEVELS.values():
        for skill, seed in itertools.product(SKILLS, SEEDS):
            for g in reference_play(level, Player("p", skill), seed):
                acts = g["actions"]
                taps = sum(a[0] == "tap" for a in acts)
                seen["hint"] += g["hints"]
                seen["undo"] += g["undos"]
                seen["careless"] += g["collisions"]
                seen["limit"] += taps - g["undos"] >= level.move_limit and not g["won"]
                seen["cap"] += len(acts) >= 6 * len(level.tiles) + 30
                for a, b in itertools.pairwise(acts):
                    if a[0] == "hint":
                        seen["hinted_" + b[0]] += 1
                seen["gave_up"] += bool(acts) and acts[-1][0] == "hint"
                seen["lookahead"] += g["rotations"]
    for rule, count in seen.items():
        if rule not in ("rescue_chance", "random_turn", "cap"):
            assert count > 0, rule


def test_the_action_cap_abandons_a_game_that_never_ends(monkeypatch):
    """6·N + 30 actions: a player that sees nothing and never asks turns the board until then."""
    level = shipped("02-one-turn.json")
    n = len(level.tiles)

    class Blind(Player):
        def notice(self, turns):
            return np.zeros_like(np.asarray(turns, dtype=float))

        def careless(self, turns):
            return np.zeros_like(np.asarray(turns, dtype=float))

        @property
        def hint_rate(self):
            return 0.0

    monkeypatch.setattr(pl, "Player", Blind)  # _attempt rebuilds its player from the module's
    game = pl._attempt(pl._Board(level), Player("p", 0.5), 0.5, 1, np.random.default_rng(5))
    assert not game.won
    assert game.rotations == 6 * n + 30 == len(game.actions)
    assert {a[0] for a in game.actions} == {"rotate"}


# -- _Board.free / _Board.on ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["one-turn", "two-turns", "strip", "main-06"])
def test_board_free_and_on_agree_with_trace_tap_for_every_orientation_and_remaining_set(name):
    level = LEVELS[name]
    board = pl._Board(level)
    n = len(level.tiles)
    orientations = range(6) if level.can_rotate else range(1)
    for remaining in range(1 << n):
        active = [bool(remaining >> i & 1) for i in range(n)]
        assert board.on(remaining).tolist() == active
        for o in orientations:
            assert board.free(o, remaining).tolist() == exits(level, o, active), (o, remaining)


def test_board_free_on_a_big_level_for_random_remaining_sets():
    level = MAIN["main-19"]
    board = pl._Board(level)
    n = len(level.tiles)
    gen = np.random.default_rng(3)
    for _ in range(40):
        active = gen.random(n) < gen.random()
        remaining = sum(1 << i for i in range(n) if active[i])
        assert board.on(remaining).tolist() == active.tolist()
        for o in range(6):
            assert board.free(o, remaining).tolist() == exits(level, o, active), (o, remaining)


@pytest.mark.parametrize("name", ["one-turn", "strip", "main-12"])
def test_board_turns_are_the_path_turns_at_each_orientation(name):
    level = LEVELS[name]
    board = pl._Board(level)
    for o in range(6) if level.board.symmetric else range(1):
        assert board.turns[o].tolist() == [turns(level, o, t) for t in level.tiles]
