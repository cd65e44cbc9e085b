"""labkit.hexpuzzle.difficulty.players: the rules of its docstrings, fast and exact.

Quitting (progression mode): after every level not won at the first try the player quits with
probability min(1, quit_rate × run), run = first-try failures in a row (reset by a first-try
win), its log-odds lowered by c·a with a = (skill − 0.5) / 0.25; quit decisions draw from the
stream ``"quit/{player.id}"``, games from ``"{level.id}/{player.id}"``.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.difficulty import players as pl
from labkit.hexpuzzle.difficulty.players import Game, Player, quits
from labkit.hexpuzzle.geometry import tile_path
from labkit.hexpuzzle.level import Level
from labkit.rng import make_rng, stream


class Fixed:
    """A generator whose ``random()`` returns the given values in turn."""

    def __init__(self, *values):
        self.values = list(values)

    def random(self):
        return self.values.pop(0)


def logistic(x):
    return 1 / (1 + math.exp(-x))


# -- quits ----------------------------------------------------------------------------------------


QUIT_CASES = [(0, 0.25, 0.0), (1, 0.25, 0.25), (3, 0.25, 0.75), (4, 0.25, 1.0), (9, 0.25, 1.0),
              (2, 0.5, 1.0)]  # fmt: skip


@pytest.mark.parametrize(("run", "rate", "q"), QUIT_CASES)
def test_the_chance_to_quit_is_rate_times_run_capped_at_one(run, rate, q):
    below, above = max(q - 1e-9, 0.0), min(q + 1e-9, 1 - 1e-12)  # draws lie in [0, 1)
    assert quits(run, rate, Fixed(below)) is (q > 0)
    assert quits(run, rate, Fixed(above)) is (q >= 1.0)
    assert quits(run, rate, Fixed(q)) is False  # u < q: a draw equal to q stays


@pytest.mark.parametrize(("ability", "c"), [(2.0, 1.0), (-2.0, 1.0), (1.0, 0.5), (-0.6, 3.0)])
def test_quit_ability_lowers_the_log_odds_by_c_times_ability(ability, c):
    q0 = 0.5  # run 2 at rate 0.25
    q = logistic(math.log(q0 / (1 - q0)) - c * ability)
    assert quits(2, 0.25, Fixed(q - 1e-9), ability=ability, c=c) is True
    assert quits(2, 0.25, Fixed(q + 1e-9), ability=ability, c=c) is False
    # certain outcomes stay certain: q 0 and q 1 are not moved by c
    assert quits(0, 0.25, Fixed(0.0), ability=ability, c=c) is False
    assert quits(4, 0.25, Fixed(0.999999), ability=ability, c=c) is True


def test_quits_returns_a_bool_and_draws_once():
    gen = Fixed(0.1, 0.9)
    assert quits(1, 0.25, gen) is True and gen.values == [0.9]
    assert quits(0, 0.25, gen) is False and gen.values == []  # a draw even when q is 0


# -- players and games ----------------------------------------------------------------------------


@pytest.mark.parametrize("skill", [-0.01, 1.01, float("nan")])
def test_a_skill_outside_zero_one_is_refused_naming_the_player(skill):
    with pytest.raises(ArgumentError) as err:
        Player("ada", skill)
    assert err.value.argument == "skill"
    assert "must be in [0, 1] (player 'ada')" in str(err.value)


def test_skills_at_the_ends_are_players():
    assert Player("a", 0.0).skill == 0.0 and Player("b", 1.0).skill == 1.0


@pytest.mark.parametrize(("skill", "depth"), [(0.0, 1), (0.3499, 1), (0.35, 2), (0.6999, 2),
                                              (0.7, 3), (1.0, 3)])  # fmt: skip
def test_look_ahead_is_one_to_three_rotations(skill, depth):
    assert Player("p", skill).lookahead == depth


def test_pace_is_one_for_an_expert_and_two_for_a_novice():
    assert Player("e", 1.0).pace == 1.0 and Player("n", 0.0).pace == 2.0
    assert Player("m", 0.25).pace == 1.75


def test_a_game_row_in_telemetry_column_order():
    g = Game("L1", "p1", 1, won=True, collisions=2, hints=3, rotations=4, undos=5, seconds=6.789)
    assert g.row() == ("L1", "p1", 1, True, 2, 3, 4, 5, 6.79, True)
    # first-try win only on attempt 1
    assert Game("L1", "p1", 2, won=True).row()[3] is False
    assert Game("L1", "p1", 1, won=False).row()[3] is False
    assert Game("L", "p", 1).row() == ("L", "p", 1, False, 0, 0, 0, 0, 0.0, False)
    assert (
        Game("L", "p", 1).actions == []
        and Game("L", "p", 1).actions is not Game("L", "p", 1).actions
    )


def test_make_players_ids_skills_and_limits():
    ps = pl.make_players(3, rng=7, skill=(0.2, 0.4), prefix="q")
    assert [p.id for p in ps] == ["q000", "q001", "q002"]
    expected = make_rng(7).uniform(0.2, 0.4, size=3)
    assert [p.skill for p in ps] == [float(s) for s in expected]
    assert [p.skill for p in pl.make_players(2, rng=1, skill=0.5)] == [0.5, 0.5]
    assert [p.skill for p in pl.make_players(2, rng=1, skill=(0.3, 0.3))] == [0.3, 0.3]
    assert [p.id for p in pl.make_players(1, rng=1)] == ["p000"]
    default = pl.make_players(50, rng=3)
    assert [p.skill for p in default] == [float(s) for s in make_rng(3).uniform(0, 1, 50)]
    assert pl.make_players(0, rng=1) == []
    assert len(pl.make_players(pl.MAX_PLAYERS, rng=1, skill=0.5)) == 100_000
    for bad in (-1, pl.MAX_PLAYERS + 1):
        with pytest.raises(ArgumentError, match="^n: "):
            pl.make_players(bad)


def test_skill_groups_draw_each_group_from_its_own_stream():
    ps = pl.skill_groups(2, rng=4)
    assert [p.id for p in ps] == ["novice000", "novice001", "regular000", "regular001",
                                  "expert000", "expert001"]  # fmt: skip
    for name, (lo, hi) in pl.SKILL_GROUPS.items():
        want = stream(make_rng(4), name).uniform(lo, hi, size=2)
        assert [p.skill for p in ps if p.id.startswith(name)] == [float(s) for s in want]
    assert pl.SKILL_GROUPS == {"novice": (0.0, 0.35), "regular": (0.35, 0.7), "expert": (0.7, 1.0)}
    assert pl.skill_groups(0, rng=1) == []
    for bad in (-1, pl.MAX_PLAYERS + 1):
        with pytest.raises(ArgumentError, match="^n_each: "):
            pl.skill_groups(bad)


# -- simulate_telemetry: progression and quitting -------------------------------------------------


def tiny_levels(n):
    base = Level.load(pl._shipped("02-one-turn.json"))
    return [Level.from_dict({**base.to_dict(), "id": f"t{i}"}) for i in range(n)]


def test_progression_quits_after_the_draw_on_the_run_of_first_try_failures(monkeypatch):
    """Outcomes scripted per level: quits() is called with the run the rule defines."""
    outcomes = {"t0": False, "t1": False, "t2": True, "t3": False, "t4": False}
    calls = []

    def fake_play(board, player, gen, max_attempts, learning):
        return [Game(board.level.id, player.id, 1, won=outcomes[board.level.id])]

    def fake_quits(run, rate, gen, *, ability, c):
        calls.append((run, rate, ability, c))
        return False

    monkeypatch.setattr(pl, "_play_board", fake_play)
    monkeypatch.setattr(pl, "quits", fake_quits)
    levels = tiny_levels(5)
    t = pl.simulate_telemetry(levels, [Player("x", 0.75)], rng=1, mode="progression",
                              quit_rate=0.3, quit_ability=1.5)  # fmt: skip
    assert t["level"].tolist() == ["t0", "t1", "t2", "t3", "t4"]
    # run 1, 2, reset by the first-try win, 1, 2; ability (0.75 - 0.5) / 0.25 = 1
    assert calls == [(1, 0.3, 1.0, 1.5), (2, 0.3, 1.0, 1.5), (0, 0.3, 1.0, 1.5),
                     (1, 0.3, 1.0, 1.5), (2, 0.3, 1.0, 1.5)]  # fmt: skip


def test_a_win_on_a_retry_is_not_a_first_try_win(monkeypatch):
    def fake_play(board, player, gen, max_attempts, learning):
        return [Game(board.level.id, player.id, 1), Game(board.level.id, player.id, 2, won=True)]

    runs = []
    monkeypatch.setattr(pl, "_play_board", fake_play)
    monkeypatch.setattr(pl, "quits", lambda run, *a, **k: runs.append(run) or False)
    pl.simulate_telemetry(tiny_levels(3), [Player("x", 0.5)], rng=1, mode="progression")
    assert runs == [1, 2, 3]


def test_quitting_stops_the_player_and_only_that_player(monkeypatch):
    def fake_play(board, player, gen, max_attempts, learning):
        return [Game(board.level.id, player.id, 1, won=False)]

    monkeypatch.setattr(pl, "_play_board", fake_play)
    monkeypatch.setattr(pl, "quits", lambda run, *a, **k: run >= 2)
    t = pl.simulate_telemetry(tiny_levels(4), [Player("a", 0.5), Player("b", 0.5)], rng=1,
                              mode="progression")  # fmt: skip
    assert list(zip(t["player"].tolist(), t["level"].tolist())) == [
        ("a", "t0"), ("a", "t1"), ("b", "t0"), ("b", "t1")]  # fmt: skip


def test_games_and_quits_draw_from_their_named_streams(monkeypatch):
    seen = []

    def fake_play(board, player, gen, max_attempts, learning):
        seen.append(("game", board.level.id, player.id, gen.random(), max_attempts, learning))
        return [Game(board.level.id, player.id, 1, won=False)]

    def fake_quits(run, rate, gen, *, ability, c):
        seen.append(("quit", player_of[0], gen.random()))
        return False

    player_of = ["a"]
    monkeypatch.setattr(pl, "_play_board", fake_play)
    monkeypatch.setattr(pl, "quits", fake_quits)
    pl.simulate_telemetry(tiny_levels(2), [Player("a", 0.5)], rng=9, mode="progression",
                          max_attempts=2, learning=0.3)  # fmt: skip
    root = make_rng(9)
    game0 = stream(make_rng(9), "t0/a").random()
    game1 = stream(make_rng(9), "t1/a").random()
    qgen = stream(root, "quit/a")
    q0, q1 = qgen.random(), qgen.random()
    assert seen == [("game", "t0", "a", game0, 2, 0.3), ("quit", "a", q0),
                    ("game", "t1", "a", game1, 2, 0.3), ("quit", "a", q1)]  # fmt: skip


def test_all_mode_plays_every_level_with_every_player_from_the_named_streams(monkeypatch):
    seen = []

    def fake_play(level, player, gen, *, max_attempts, learning):
        seen.append((level.id, player.id, gen.random(), max_attempts, learning))
        return [Game(level.id, player.id, 1, won=True)]

    monkeypatch.setattr(pl, "play", fake_play)
    players = [Player("a", 0.1), Player("b", 0.9)]
    t = pl.simulate_telemetry(tiny_levels(2), players, rng=5, max_attempts=4, learning=0.0)
    want = [(lv, p, stream(make_rng(5), f"{lv}/{p}").random(), 4, 0.0)
            for lv in ("t0", "t1") for p in ("a", "b")]  # fmt: skip
    assert seen == want and len(t) == 4


def test_a_number_of_players_is_made_from_the_players_stream(monkeypatch):
    seen = []
    monkeypatch.setattr(pl, "play", lambda level, player, gen, **k: seen.append(player) or [])
    pl.simulate_telemetry(tiny_levels(1), 3, rng=2)
    assert seen == pl.make_players(3, stream(make_rng(2), "players"))


def test_defaults_of_simulate_telemetry(monkeypatch):
    seen = []

    def fake_play(board, player, gen, max_attempts, learning):
        seen.append((max_attempts, learning))
        return [Game(board.level.id, player.id, 1, won=False)]

    quit_args = []
    monkeypatch.setattr(pl, "_play_board", fake_play)
    monkeypatch.setattr(pl, "quits", lambda run, rate, gen, *, ability, c: quit_args.append(
        (rate, c)) or False)  # fmt: skip
    pl.simulate_telemetry(tiny_levels(1), [Player("a", 0.5)], rng=1, mode="progression")
    assert seen == [(3, 0.1)] and quit_args == [(0.25, 0.0)]
    assert pl.QUIT_RATE == 0.25 and pl.MAX_ATTEMPTS == 3


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [({"mode": "some"}, "mode"), ({"quit_rate": -0.1}, "quit_rate"),
     ({"quit_rate": 1.1}, "quit_rate"), ({"quit_ability": -1}, "quit_ability"),
     ({"quit_ability": 10.5}, "quit_ability"), ({"learning": float("nan")}, "learning"),
     ({"learning": float("inf")}, "learning"), ({"learning": -0.01}, "learning")],
)  # fmt: skip
def test_simulate_telemetry_refuses_bad_options(kwargs, argument):
    with pytest.raises(ArgumentError) as err:
        pl.simulate_telemetry(tiny_levels(1), 1, rng=1, **kwargs)
    assert err.value.argument == argument


def test_options_at_their_limits_are_accepted(monkeypatch):
    monkeypatch.setattr(pl, "play", lambda *a, **k: [])
    for kwargs in ({"quit_rate": 0.0}, {"quit_rate": 1.0}, {"quit_ability": 10.0},
                   {"learning": 0.0}, {"learning": 10}):  # fmt: skip
        assert len(pl.simulate_telemetry(tiny_levels(1), 1, rng=1, **kwargs)) == 0


def test_duplicate_level_ids_are_refused():
    lv = tiny_levels(1)[0]
    with pytest.raises(ArgumentError) as err:
        pl.simulate_telemetry([lv, lv], 1, rng=1)
    assert err.value.argument == "levels"
    assert "ids must be unique" in str(err.value)


def test_play_refuses_a_level_without_tiles_and_stops_at_the_first_win(monkeypatch):
    lv = tiny_levels(1)[0]
    empty = Level.from_dict({**lv.to_dict(), "tiles": []})
    with pytest.raises(ArgumentError) as err:
        pl.play(empty, Player("a", 0.5))
    assert err.value.argument == "level"
    skills = []

    def fake_attempt(board, player, skill, attempt, gen):
        skills.append(round(skill, 10))
        return Game(board.level.id, player.id, attempt, won=attempt == 2)

    monkeypatch.setattr(pl, "_attempt", fake_attempt)
    games = pl.play(lv, Player("a", 0.5), rng=1, max_attempts=5, learning=0.2)
    assert [g.attempt for g in games] == [1, 2] and skills == [0.5, 0.7]
    skills.clear()
    assert len(pl.play(lv, Player("a", 0.5), rng=1)) == 2 and skills == [0.5, 0.6]


# -- what the first mutation run left alive (scripts/mutate.py players --only ...) ----------------


def test_ability_alone_or_c_alone_changes_nothing():
    # c = 0 (the default): today's rule whatever the ability; ability 0 (the default): exp(0) = 1
    assert quits(2, 0.25, Fixed(0.5 - 1e-9), ability=3.0) is True
    assert quits(2, 0.25, Fixed(0.5 + 1e-9), ability=3.0) is False
    assert quits(2, 0.25, Fixed(0.5 - 1e-9), c=2.0) is True
    assert quits(2, 0.25, Fixed(0.5 + 1e-9), c=2.0) is False


def test_noticing_and_carelessness_are_chances_that_move_the_right_way():
    turns = np.arange(6)
    for skill in (0.0, 0.3, 0.7, 1.0):
        p = Player("p", skill)
        notice, careless = p.notice(turns), p.careless(turns)
        assert ((notice > 0) & (notice <= 1)).all() and ((careless > 0) & (careless < 1)).all()
        assert (np.diff(notice) < 0).all()  # winding paths are missed more
        assert (np.diff(careless) > 0).all()  # and mistaken for free more
    weak, strong = Player("w", 0.2), Player("s", 0.8)
    assert (strong.notice(turns) > weak.notice(turns)).all()
    assert (strong.careless(turns) < weak.careless(turns)).all()
    for rate in ("hint_rate", "undo_rate", "rescue_rate"):
        assert 0 < getattr(weak, rate) < 1 and 0 < getattr(strong, rate) < 1
    assert strong.hint_rate < weak.hint_rate  # weaker players ask more
    assert strong.undo_rate > weak.undo_rate and strong.rescue_rate > weak.rescue_rate


def test_the_refusals_word_for_word():
    lv = tiny_levels(1)[0]
    empty = Level.from_dict({**lv.to_dict(), "tiles": []})
    with pytest.raises(ArgumentError) as err:
        pl.play(empty, Player("a", 0.5))
    assert str(err.value) == "level: has no tiles: nothing to play (got 't0')"
    with pytest.raises(ArgumentError) as err:
        pl.simulate_telemetry([lv, lv], 1, rng=1)
    assert (
        str(err.value)
        == "levels: ids must be unique to join telemetry to levels (got ['t0', 't0'])"
    )
    cases = [({"mode": "x"}, "mode: must be 'all' or 'progression' (got 'x')"),
             ({"quit_rate": 2}, "quit_rate: must be in [0, 1] (got 2)"),
             ({"learning": -1}, "learning: must be a number in [0, 10] (got -1)"),
             ({"quit_ability": 11},
              "quit_ability: must be a number in [0, 10] (got 11)")]  # fmt: skip
    for kwargs, said in cases:
        with pytest.raises(ArgumentError) as err:
            pl.simulate_telemetry([lv], 1, rng=1, **kwargs)
        assert str(err.value) == said
    with pytest.raises(ArgumentError) as err:
        Player("ada", 2)
    assert str(err.value) == "skill: must be in [0, 1] (player 'ada') (got 2)"


def test_a_numpy_integer_count_of_players_is_a_count(monkeypatch):
    seen = []
    monkeypatch.setattr(pl, "play", lambda level, player, gen, **k: seen.append(player.id) or [])
    pl.simulate_telemetry(tiny_levels(1), np.int64(2), rng=2)
    assert seen == ["p000", "p001"]


@pytest.mark.parametrize(("mode", "unit"), [("all", "level"), ("progression", "player")])
def test_the_progress_bar_only_when_asked(monkeypatch, capsys, mode, unit):
    def fake_play(board, player, gen, max_attempts, learning):
        return [Game(board.level.id, player.id, 1, won=True)]

    monkeypatch.setattr(pl, "_play_board", fake_play)
    monkeypatch.setattr(pl, "play", lambda level, player, gen, **k: [Game(level.id, player.id, 1)])
    pl.simulate_telemetry(tiny_levels(2), 1, rng=1, mode=mode)
    assert capsys.readouterr().err == ""
    pl.simulate_telemetry(tiny_levels(2), 1, rng=1, mode=mode, progress=True)
    err = capsys.readouterr().err
    assert re.search(r"(^|\r)simulating players: ", err) and f"{unit}/s" in err


def test_a_player_who_never_wins_plays_exactly_max_attempts(monkeypatch):
    monkeypatch.setattr(pl, "_attempt", lambda board, player, skill, attempt, gen: Game(
        board.level.id, player.id, attempt))  # fmt: skip
    lv = tiny_levels(1)[0]
    assert [g.attempt for g in pl.play(lv, Player("a", 0.5), rng=1, max_attempts=2)] == [1, 2]
    assert [g.attempt for g in pl.play(lv, Player("a", 0.5), rng=1)] == [1, 2, 3]


def test_the_models_chances_at_the_ends_of_skill():
    # The behavioural model's parameters (every simulated telemetry table depends on them):
    # careless taps 0.056 for a novice, 0.006 for an expert on a straight path, x1.35 per turn;
    # noticing 0.6 / 0.98 on a straight path, x0.94 per turn.
    novice, expert = Player("n", 0.0), Player("e", 1.0)
    assert novice.careless([0, 2]) == pytest.approx([0.056, 0.056 * 1.7])
    assert expert.careless([0, 2]) == pytest.approx([0.006, 0.006 * 1.7])
    assert novice.notice([0, 2]) == pytest.approx([0.6, 0.6 * 0.94**2])
    assert expert.notice([0, 2]) == pytest.approx([0.98, 0.98 * 0.94**2])
    assert (novice.hint_rate, expert.hint_rate) == pytest.approx((0.65, 0.15))
    assert (novice.undo_rate, expert.undo_rate) == pytest.approx((0.15, 0.75))
    assert (novice.rescue_rate, expert.rescue_rate) == pytest.approx((0.2, 0.95))


def test_players_of_one_skill_draw_nothing_from_a_given_generator():
    gen = np.random.default_rng(1)
    assert [p.skill for p in pl.make_players(3, gen, skill=(0.3, 0.3))] == [0.3, 0.3, 0.3]
    assert gen.random() == np.random.default_rng(1).random()  # the stream is left untouched
    drawn = np.random.default_rng(1)
    pl.make_players(3, drawn, skill=(0.3, 0.4))
    assert drawn.random() != np.random.default_rng(1).random()


# -- the game loop on a hand-made board (what the full mutation run left alive) ------------------


class Sure(np.random.Generator):
    """Every uniform draw is 0.5: an expert notices every free tile (chance ≥ 0.63 for paths of
    up to 7 turns) and is never careless (chance ≤ 0.03); the other draws are real."""

    def random(self, size=None, dtype=np.float64, out=None):
        return 0.5 if size is None else np.full(size, 0.5)


def one_turn(**changes):
    return Level.load(pl._shipped("02-one-turn.json")).replace(**changes)


def test_an_expert_who_sees_every_free_tile_wins_with_the_last_move_allowed():
    # one-turn: t0 and t2 exit at orientation 0; then t1 and t3 block each other until the board
    # turns one step clockwise (the look-ahead tries clockwise first), where t1, t3, t4 exit
    lv = one_turn(move_limit=5)  # exactly one move per tile: no move to spare
    game = pl._attempt(pl._Board(lv), Player("e", 1.0), 1.0, 1, Sure(np.random.PCG64(3)))
    assert game.won and (game.level, game.player, game.attempt) == ("one-turn", "e", 1)
    assert (game.collisions, game.hints, game.undos, game.rotations) == (0, 0, 0, 1)
    kinds = [kind for kind, _ in game.actions]
    assert kinds == ["tap", "tap", "rotate", "tap", "tap", "tap"]
    taps = [arg for kind, arg in game.actions if kind == "tap"]
    assert set(taps[:2]) == {"t0", "t2"} and set(taps[2:4]) == {"t1", "t3"} and taps[4] == "t4"
    assert game.actions[2] == ("rotate", 1) and game.seconds > 0
    # one move fewer and the last tile stays on the board
    short = pl._attempt(pl._Board(one_turn(move_limit=4)), Player("e", 1.0), 1.0, 1,
                        Sure(np.random.PCG64(3)))  # fmt: skip
    assert not short.won and [k for k, _ in short.actions].count("tap") == 4


def test_path_turns_are_read_at_every_orientation_of_a_symmetric_board():
    lv = one_turn()
    board = pl._Board(lv)
    assert board.n == 5 and board.turns.shape[1] == 5
    for o in range(6):
        turned = lv.board.rotated(o)
        want = [tile_path(turned, t.q, t.r, t.dir).turns for t in lv.tiles]
        assert board.turns[o].tolist() == want, o
    assert len({tuple(board.turns[o]) for o in range(6)}) > 1  # orientations do differ here


def test_a_board_that_cannot_turn_is_read_at_orientation_zero_only():
    doc = Level.hexagon(1, tiles=[("a", 0, 0, 0), ("b", 1, 0, 3)], move_limit=4).to_dict()
    doc["cells"] = [c for c in doc["cells"] if (c["q"], c["r"]) != (0, -1)]  # not six-fold
    lv = Level.from_dict(doc)
    assert not lv.board.symmetric
    board = pl._Board(lv)  # rotating this board would raise: only orientation 0 is read
    want = [tile_path(lv.board, t.q, t.r, t.dir).turns for t in lv.tiles]
    assert board.turns[0].tolist() == want and not board.turns[1:].any()
    games = pl.play(lv, Player("e", 1.0), rng=1)
    assert all(g.rotations == 0 for g in games)


class Zeros(np.random.Generator):
    """Every uniform draw is 0.0: a tile is noticed exactly when its chance is above 0."""

    def random(self, size=None, dtype=np.float64, out=None):
        return 0.0 if size is None else np.zeros(size)


def only_row(o, value=1.0):
    notice = np.zeros((6, 5))
    notice[o % 6] = value
    return notice


@pytest.mark.parametrize("start", [0, 2])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_look_ahead_steps_toward_the_nearest_orientation_with_a_noticed_free_tile(start, depth):
    board = pl._Board(one_turn())
    t0 = 1  # tile t0 alone: it exits at every orientation (nothing on its path)
    gen = Zeros(np.random.PCG64(1))
    for k in range(1, 4):
        for step in (1, -1):
            want = (1 if k == 3 else step) if k <= depth else 0  # 3 steps either way: clockwise
            got = pl._look_ahead(board, depth, only_row(start + step * k), start, t0, gen)
            assert got == want, (k, step)
    assert pl._look_ahead(board, depth, only_row(start), start, t0, gen) == 0  # not a rotation
    assert pl._look_ahead(board, depth, np.zeros((6, 5)), start, t0, gen) == 0  # chance 0: never
    assert pl._look_ahead(board, depth, np.ones((6, 5)), start, t0, gen) == 1  # clockwise first


def test_look_ahead_needs_the_noticed_tile_to_be_free_there_and_draws_per_tile():
    board = pl._Board(one_turn())
    t4 = 1 << 4  # t4 alone: it does not exit at orientation 2
    assert not board.free(2, t4)[4] and board.free(1, t4)[4]
    assert pl._look_ahead(board, 1, only_row(2), 1, t4, Zeros(np.random.PCG64(1))) == 0

    class Draws(np.random.Generator):
        def random(self, size=None, dtype=np.float64, out=None):
            values = np.array([0.9, 0.1, 0.9, 0.9, 0.9])  # t1 alone has a low draw
            return values[0] if size is None else values[:size]

    t1 = 1 << 1  # t1 alone: free at orientation 1 (t0, its blocker there, is gone)
    assert board.free(1, t1)[1]
    assert pl._look_ahead(board, 1, only_row(1, 0.5), 0, t1, Draws(np.random.PCG64(1))) == 1
