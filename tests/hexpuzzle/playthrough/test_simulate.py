"""The rules of playthrough/simulate.py, exact and from its docstrings (issue 32).

The games themselves are checked against closed forms in test_simulate_kernel.py; here the
tables, the measures of one cohort's counts, the cohort statistics and the Funnel's readers are
checked on hand-made numbers.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.playthrough import simulate
from labkit.hexpuzzle.playthrough.simulate import (
    GRID,
    RUNS,
    Funnel,
    FunnelWorld,
    ability_grid,
    measures,
    quit_logit,
    reorder,
    run,
    world_tables,
)


def _sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


# --- the measures of one cohort's counts -------------------------------------------------


def _counts(reached, first, cleared, attempts, left):
    return np.array([reached, first, cleared, attempts, left], dtype=np.int64)


def test_measures_divide_by_players_reached_and_cleared():
    t = FunnelWorld([0.0, 0.0, 0.0]).tables()
    c = _counts([100, 60, 30], [50, 20, 10], [80, 45, 24], [150, 90, 40], [40, 30, 6])
    m = measures(c, 100, t)
    np.testing.assert_allclose(m["reach"], [1.0, 0.6, 0.3])
    np.testing.assert_allclose(m["first_try"], [0.5, 20 / 60, 10 / 30])
    np.testing.assert_allclose(m["attempts_per_clear"], [150 / 80, 2.0, 40 / 24])
    np.testing.assert_allclose(m["quit_hazard"], [0.4, 0.5, 0.2])
    np.testing.assert_allclose(m["finished"], [0.24])  # cleared the last level, of all players
    assert "seconds" not in m  # no time data in this world


def test_nan_where_nobody_reached_and_where_nobody_cleared():
    # docstring: NaN where nobody reached / cleared (a level reached but never cleared has no
    # attempts per clear: NaN, not infinity)
    t = FunnelWorld([0.0, 0.0, 0.0]).tables()
    c = _counts([10, 4, 0], [0, 0, 0], [4, 0, 0], [20, 12, 0], [6, 4, 0])
    m = measures(c, 10, t)
    assert m["reach"].tolist() == [1.0, 0.4, 0.0]
    assert math.isnan(m["first_try"][2]) and math.isnan(m["quit_hazard"][2])
    assert m["attempts_per_clear"][0] == 5.0
    assert math.isnan(m["attempts_per_clear"][1]) and math.isnan(m["attempts_per_clear"][2])
    assert not np.isinf(m["attempts_per_clear"]).any()
    assert m["finished"].tolist() == [0.0]


def test_seconds_weigh_won_and_lost_attempts_per_player_reached():
    base = FunnelWorld([0.0, 0.0]).tables()
    from dataclasses import replace

    t = replace(base, seconds_won=np.array([30.0, 60.0]), seconds_lost=np.array([10.0, 20.0]))
    c = _counts([10, 5], [5, 2], [8, 4], [12, 10], [2, 1])
    m = measures(c, 10, t)
    # level 1: 8 won x 30 s + 4 lost x 10 s over 10 players; level 2: 4 x 60 + 6 x 20 over 5
    np.testing.assert_allclose(m["seconds"], [(8 * 30 + 4 * 10) / 10, (4 * 60 + 6 * 20) / 5])
    only_won = replace(base, seconds_won=np.array([1.0, 1.0]))
    assert "seconds" not in measures(c, 10, only_won)


# --- the tables ---------------------------------------------------------------------------


def test_ability_grid_spans_six_sd_each_side_in_grid_steps():
    g0, step = ability_grid(0.5, 2.0)
    assert g0 == 0.5 - 12.0 and step == pytest.approx(24.0 / (GRID - 1))
    assert g0 + step * (GRID - 1) == pytest.approx(12.5)
    tiny0, tiny = ability_grid(1.0, 0.0)  # sd 0: a tiny grid around the mean
    assert tiny0 == pytest.approx(1.0 - 6e-3) and tiny == pytest.approx(12e-3 / (GRID - 1))


def test_quit_logit_caps_run_at_ten_and_attempts_at_six():
    coef = {"baseline": -1.0, "ability": 0.5, "won": -2.0, "run": 0.3, "attempts": 0.2,
            "position": 0.7}  # fmt: skip
    got = quit_logit(coef, 1.5, position=4, won=True, attempt=3, run=2)
    assert got == pytest.approx(-1.0 + 0.75 - 2.0 + 0.6 + 0.4 + 0.28)
    capped = quit_logit(coef, 0.0, position=0, won=False, attempt=9, run=14)
    assert capped == pytest.approx(-1.0 + 0.3 * 10 + 0.2 * 5)
    assert quit_logit({}, 3.0, position=5, won=True, attempt=2, run=4) == 0.0  # absent: 0


def test_world_tables_hold_the_skill_models_win_logits():
    beta, alpha, learning = np.array([0.5, -1.0]), np.array([2.0, 0.5]), 0.3
    t = world_tables(["a", "b"], beta, ability_mean=0.2, ability_sd=1.0, learning=learning,
                     discrimination=alpha, p_quit=None, max_attempts=8)  # fmt: skip
    assert t.win.shape == (2, 8, GRID) and t.quit.shape == (2, 8, 2, RUNS, GRID)
    grid = t.grid
    for lv in range(2):
        for k in range(8):
            want = alpha[lv] * (grid - beta[lv]) + learning * (min(k + 1, 6) - 1)
            np.testing.assert_allclose(t.win[lv, k], want)
    assert np.all(t.quit == -np.inf)  # nobody stops
    assert t.level_ids == ("a", "b") and t.ability_mean == 0.2 and t.moves_on is True


def test_world_tables_turn_stop_chances_into_clipped_logits():
    def p_quit(theta, *, position, won, attempt, run):
        shape = np.broadcast(theta, position, won, attempt, run).shape
        p = np.full(shape, 0.25)
        p = np.where(np.broadcast_to(position, shape) == 1, 0.0, p)  # never stops there
        return np.where(np.broadcast_to(won, shape), 1.0 - 1e-20, p)  # almost surely stops

    t = world_tables(["a", "b"], np.zeros(2), ability_mean=0.0, ability_sd=1.0, learning=0.0,
                     discrimination=None, p_quit=p_quit, max_attempts=2)  # fmt: skip
    np.testing.assert_allclose(t.quit[0, :, 0], math.log(0.25 / 0.75))
    assert np.all(t.quit[1, :, 0] == -np.inf)
    assert np.all(t.quit[:, :, 1] == 30.0)  # logit of 1 - 1e-20 is about 46: clipped to 30


def test_funnel_world_draws_run_zero_after_a_first_try_win_else_one():
    w = FunnelWorld([0.0], quit={"baseline": -1.0, "run": 2.0})
    first = w.p_quit(0.0, position=0, won=True, attempt=1)
    later = w.p_quit(0.0, position=0, won=True, attempt=2)
    lost = w.p_quit(0.0, position=0, won=False, attempt=1)
    assert first == pytest.approx(_sigmoid(-1.0))
    assert later == pytest.approx(_sigmoid(1.0)) and lost == pytest.approx(_sigmoid(1.0))
    assert FunnelWorld([0.0]).p_quit(np.zeros(3), position=0, won=True, attempt=1).tolist() == [
        0.0,
        0.0,
        0.0,
    ]


@pytest.mark.parametrize(
    ("world", "field", "value"),
    [
        (FunnelWorld([]), "difficulty", []),
        (FunnelWorld([0.0, math.nan]), "difficulty", [0.0, math.nan]),
        (FunnelWorld([[0.0]]), "difficulty", [[0.0]]),
        (FunnelWorld([0.0], quit={"baseline": 0.0, "luck": 1.0}), "quit", ["luck"]),
        (FunnelWorld([0.0], ability_sd=-0.5), "ability_sd", -0.5),
        (FunnelWorld([0.0], ability_sd=math.inf), "ability_sd", math.inf),
        (FunnelWorld([0.0], max_attempts=0), "max_attempts", 0),
        (FunnelWorld([0.0], max_attempts=101), "max_attempts", 101),
        (FunnelWorld([0.0, 1.0], level_ids=["only"]), "level_ids", ("only",)),
    ],
)
def test_funnel_world_refuses_bad_fields_naming_them(world, field, value):
    with pytest.raises(ArgumentError) as exc:
        world.tables()
    assert exc.value.argument == field
    if not (isinstance(value, list) and any(isinstance(v, float) and math.isnan(v)
                                            for v in value)):  # fmt: skip
        assert exc.value.value == value


def test_funnel_world_names_levels_l01_on_and_keeps_given_ids():
    assert FunnelWorld([0.0] * 10).tables().level_ids[::9] == ("L01", "L10")
    assert FunnelWorld([0.0, 1.0], level_ids=["x", "y"]).tables().level_ids == ("x", "y")
    assert FunnelWorld([0.0], max_attempts=100).tables().win.shape[1] == 100


def test_reorder_moves_what_belongs_to_a_level_and_keeps_the_place():
    from dataclasses import replace

    t = FunnelWorld([0.0, 1.0, 2.0], quit={"baseline": -1.0, "position": 3.0}).tables()
    t = replace(t, seconds_won=np.array([1.0, 2.0, 3.0]), seconds_lost=np.array([4.0, 5.0, 6.0]))
    r = reorder(t, [2, 0, 1])
    assert r.level_ids == ("L03", "L01", "L02")
    np.testing.assert_array_equal(r.win, t.win[[2, 0, 1]])
    np.testing.assert_array_equal(r.quit, t.quit)  # position and run stay
    assert r.seconds_won.tolist() == [3.0, 1.0, 2.0] and r.seconds_lost.tolist() == [6, 4, 5]
    for bad in ([0, 1], [0, 0, 1], [1, 2, 3]):
        with pytest.raises(ArgumentError) as exc:
            reorder(t, bad)
        assert exc.value.argument == "order" and exc.value.value == bad


# --- cohorts, statistics and the Funnel's readers -----------------------------------------


def test_counts_play_every_player_across_chunks(monkeypatch):
    monkeypatch.setattr(simulate, "CHUNK", 7)
    t = FunnelWorld([-20.0, -20.0], max_attempts=1).tables()  # everybody wins everything
    c = simulate.counts(t, 30, np.random.default_rng(0))
    assert c.tolist() == [[30, 30], [30, 30], [30, 30], [30, 30], [0, 0]]


def test_run_gives_medians_and_2_5_97_5_percentiles_over_the_cohorts(monkeypatch):
    # stand-in counts: cohort b reaches level 2 with b of 40 players (b = 0 .. 40)
    def fake_counts(tables, players, gen):
        b = fake_counts.calls
        fake_counts.calls += 1
        return _counts([players, b], [players, 0], [players, 0], [players, b], [players - b, b])

    fake_counts.calls = 0
    monkeypatch.setattr(simulate, "counts", fake_counts)
    worlds = [FunnelWorld([0.0, 0.0]).tables()] * 41
    f = run(worlds, 40, rng=9)
    # 41 evenly spaced values b/40: median 20/40, 2.5 % -> index 1, 97.5 % -> index 39
    np.testing.assert_allclose(f.stats["reach"][1], [0.5, 1 / 40, 39 / 40])
    np.testing.assert_allclose(f.stats["reach"][0], [1.0, 1.0, 1.0])
    assert f.samples["reach"].shape == (41, 2) and f.samples["reach"][:, 1].tolist() == [
        b / 40 for b in range(41)
    ]
    assert f.draws == 41 and f.players == 40 and f.notes == {"seed": 9}
    assert math.isnan(f.stats["first_try"][1, 0]) is False and f.stats["first_try"][1, 0] == 0
    assert list(f.stats) == ["reach", "first_try", "attempts_per_clear", "quit_hazard",
                             "finished"]  # fmt: skip


def test_run_records_a_seed_only_for_an_integer_rng():
    w = [FunnelWorld([0.0]).tables()]
    assert run(w, 5, rng=np.int64(3)).notes == {"seed": 3}
    assert run(w, 5, rng=np.random.default_rng(3)).notes == {"seed": None}
    assert run(w, 5, rng=None).notes == {"seed": None}


def test_run_cohorts_draw_from_named_streams_of_the_seed():
    w = FunnelWorld([0.0, 0.5], quit={"baseline": -1.0})
    f3 = run([w.tables()] * 3, 200, rng=4)
    f2 = run([w.tables()] * 2, 200, rng=4)  # cohort b's stream does not depend on the others
    np.testing.assert_array_equal(f3.samples["reach"][:2], f2.samples["reach"])
    assert not np.array_equal(f3.samples["reach"][0], f3.samples["reach"][1])


def test_run_refuses_no_worlds_and_a_bad_player_count():
    with pytest.raises(ArgumentError) as exc:
        run([], 10)
    assert exc.value.argument == "worlds" and exc.value.value == 0
    w = [FunnelWorld([0.0]).tables()]
    for bad in (0, simulate.MAX_PLAYERS + 1, 2.5):
        with pytest.raises(ArgumentError) as exc:
            run(w, bad)
        assert exc.value.argument == "players"


def _hand_funnel():
    stats = {"reach": np.array([[1.0, 1.0, 1.0], [0.6, 0.5, 0.7], [0.3, 0.2, 0.4]]),
             "quit_hazard": np.array([[0.4, 0.3, 0.5], [0.5, 0.4, 0.6], [0.1, 0.0, 0.2]]),
             "first_try": np.array([[0.12345, 0.1, 0.2]] * 3),
             "finished": np.array([[0.27, 0.2, 0.3]])}  # fmt: skip
    return Funnel(("a", "b", "c"), stats, players=500, draws=8)


def test_funnel_readers_value_interval_finished():
    f = _hand_funnel()
    assert f.value("first_try") == [0.123, 0.123, 0.123]  # rounded to 3 decimals
    assert f.interval("reach").tolist() == [[1.0, 1.0], [0.5, 0.7], [0.2, 0.4]]
    assert f.finished == 0.27
    with pytest.raises(ArgumentError) as exc:
        f.value("seconds")
    assert exc.value.argument == "name" and exc.value.value == "seconds"
    assert "first_try" in str(exc.value) and "reach" in str(exc.value)


def test_widened_marks_the_levels_whose_check_says_the_data_disagree():
    from dataclasses import replace

    from labkit.hexpuzzle.playthrough.simulate import CHECK

    assert _hand_funnel().widened == ()  # no check
    f = replace(_hand_funnel(), check=(CHECK["none"], CHECK["misses"], CHECK["fits"]))
    assert f.widened == (False, True, False)


def test_exits_are_the_levels_losing_most_of_all_players():
    f = _hand_funnel()  # lost: a 1.0 x 0.4, b 0.6 x 0.5, c 0.3 x 0.1
    assert f.exits() == [("a", 0.4), ("b", 0.3), ("c", pytest.approx(0.03))]
    assert f.exits(1) == [("a", 0.4)]
    assert repr(f) == (
        "Funnel(3 levels, 27% finish; most leave at a 40%, b 30%; 8 draws × 500 players)"
    )


def test_rows_carry_each_measure_with_its_interval_in_measure_order():
    rows = _hand_funnel().rows()
    assert [r["position"] for r in rows] == [1, 2, 3] and rows[2]["level"] == "c"
    assert list(rows[1]) == ["position", "level", "reach", "reach_low", "reach_high",
                             "first_try", "first_try_low", "first_try_high", "quit_hazard",
                             "quit_hazard_low", "quit_hazard_high"]  # fmt: skip
    assert (rows[1]["reach"], rows[1]["reach_low"], rows[1]["reach_high"]) == (0.6, 0.5, 0.7)
    assert rows[2]["quit_hazard_high"] == 0.2


# --- messages, defaults and streams pinned exactly (survivors of make mutate) ---------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: FunnelWorld([]).tables(),
         "difficulty: must be one finite number per level (got [])"),
        (lambda: FunnelWorld([0.0], quit={"x": 1.0}).tables(),
         "quit: unknown terms; the terms are ('baseline', 'ability', 'won', 'run', 'attempts', "
         "'position') (got ['x'])"),
        (lambda: FunnelWorld([0.0], ability_sd=-1).tables(), "ability_sd: must be >= 0 (got -1)"),
        (lambda: FunnelWorld([0.0, 1.0], level_ids=["a"]).tables(),
         "level_ids: must name 2 levels (got ('a',))"),
        (lambda: reorder(FunnelWorld([0.0, 1.0]).tables(), [0, 0]),
         "order: must be a permutation of the levels (got [0, 0])"),
        (lambda: run([], 3), "worlds: need at least one world (got 0)"),
        (lambda: FunnelWorld([0.0]).funnel(draws=0), "draws: must be between 1 and 10000 (got 0)"),
        (lambda: FunnelWorld([0.0]).funnel(draws=10_001),
         "draws: must be between 1 and 10000 (got 10001)"),
    ],
)  # fmt: skip
def test_refusals_read_as_documented(make, message):
    with pytest.raises(ArgumentError) as exc:
        make()
    assert str(exc.value) == message


def test_reorder_with_only_won_times_leaves_the_times_alone():
    from dataclasses import replace

    t = replace(FunnelWorld([0.0, 1.0]).tables(), seconds_won=np.array([1.0, 2.0]))
    r = reorder(t, [1, 0])
    assert r.seconds_won.tolist() == [1.0, 2.0] and r.seconds_lost is None


def test_world_tables_carry_the_times_given():
    won, lost = np.array([30.0, 40.0]), np.array([5.0, 6.0])
    t = world_tables(["a", "b"], np.zeros(2), ability_mean=0.0, ability_sd=1.0, learning=0.0,
                     discrimination=None, p_quit=None, max_attempts=2,
                     times=(won, lost))  # fmt: skip
    assert t.seconds_won is won and t.seconds_lost is lost
    untimed = world_tables(["a"], np.zeros(1), ability_mean=0.0, ability_sd=1.0, learning=0.0,
                           discrimination=None, p_quit=None, max_attempts=1)  # fmt: skip
    assert untimed.seconds_won is None


@pytest.mark.filterwarnings("error")  # log(0) and 0/0 are expected here, not warned about
def test_tables_and_measures_raise_no_numpy_warnings():
    def p_quit(theta, *, position, won, attempt, run):
        shape = np.broadcast(theta, position, won, attempt, run).shape
        return np.where(np.broadcast_to(position, shape) == 0, 0.0, 1e-20)

    t = world_tables(["a", "b"], np.zeros(2), ability_mean=0.0, ability_sd=1.0, learning=0.0,
                     discrimination=None, p_quit=p_quit, max_attempts=1)  # fmt: skip
    assert np.all(t.quit[0] == -np.inf)
    assert np.all(t.quit[1] == -30.0)  # logit of 1e-20 is about -46: clipped to -30
    m = measures(_counts([4, 0], [0, 0], [0, 0], [4, 0], [4, 0]), 4, t)
    assert math.isnan(m["first_try"][1]) and math.isnan(m["attempts_per_clear"][0])


def test_one_clear_is_enough_for_attempts_per_clear():
    m = measures(_counts([5], [1], [1], [7], [0]), 5, FunnelWorld([0.0]).tables())
    assert m["attempts_per_clear"].tolist() == [7.0]


def test_no_quit_model_stops_nobody_in_the_shape_of_the_question():
    p = FunnelWorld([0.0]).p_quit(np.zeros(3), position=np.zeros((2, 1)),
                                  won=np.zeros((4, 1, 1), bool),
                                  attempt=np.ones((5, 1, 1, 1)))  # fmt: skip
    assert p.shape == (5, 4, 2, 3) and not p.any()


def test_counts_play_the_documented_draws_and_count_in_int64():
    from labkit.hexpuzzle.playthrough import _kernels

    t = FunnelWorld([0.0, 0.5, 1.0], ability_mean=0.3, ability_sd=1.5,
                    quit={"baseline": -1.0}).tables()  # fmt: skip
    got = simulate.counts(t, 500, np.random.default_rng(7))
    gen = np.random.default_rng(7)  # abilities first, then one uint64 seed per player
    theta = 0.3 + 1.5 * gen.standard_normal(500)
    seeds = gen.integers(0, 2**64, size=500, dtype=np.uint64)
    want = np.zeros((5, 3), dtype=np.int64)
    _kernels.play(theta, seeds, t.grid0, t.step, t.win, t.quit, t.moves_on, want)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, want)


def test_run_accepts_a_single_player():
    f = run([FunnelWorld([0.0]).tables()], 1, rng=0)
    assert f.players == 1 and f.value("reach") == [1.0]


def test_funnel_world_defaults_and_seed():
    w = FunnelWorld([-30.0], ability_sd=0.0, max_attempts=1)
    f = w.funnel()
    assert (f.players, f.draws) == (10_000, 20)
    assert f.notes == {"seed": None}
    g = w.funnel(10, draws=2, rng=5)
    assert g.notes == {"seed": 5}
    ref = run([w.tables()] * 2, 10, rng=5)
    np.testing.assert_array_equal(g.samples["reach"], ref.samples["reach"])


def test_exits_default_to_three_and_break_ties_in_level_order():
    ids = tuple(f"x{i}" for i in range(20))
    lost = np.round(np.random.default_rng(0).random(20), 1)  # many ties
    stats = {"reach": np.column_stack([np.ones(20)] * 3),
             "quit_hazard": np.column_stack([lost] * 3), "finished": np.zeros((1, 3))}  # fmt: skip
    f = Funnel(ids, stats, players=10, draws=1)
    order = sorted(range(20), key=lambda i: (-lost[i], i))
    assert [lid for lid, _ in f.exits(20)] == [ids[i] for i in order]
    assert len(f.exits()) == 3


def test_funnel_plot_draw_and_html_pass_through(monkeypatch):
    from labkit.hexpuzzle.playthrough import draw, report

    seen = []
    monkeypatch.setattr(draw, "plot_funnel", lambda f, ax=None, baseline=None: seen.append(
        ("plot", f, ax, baseline)) or "plotted")  # fmt: skip
    monkeypatch.setattr(draw, "draw_funnel", lambda axes, n: {"axes": axes, "n": n})
    monkeypatch.setattr(draw, "update_funnel", lambda art, f, base: seen.append(
        ("update", art, f, base)))  # fmt: skip
    monkeypatch.setattr(report, "html_table", lambda f: f"<table {len(f.level_ids)}>")
    f, base = _hand_funnel(), _hand_funnel()
    assert f.plot("AX", baseline=base) == "plotted" and seen[0] == ("plot", f, "AX", base)
    art = f.draw(["a", "b", "c"], baseline=base)
    assert art == {"axes": ["a", "b", "c"], "n": 3} and seen[1] == ("update", art, f, base)
    again = {"kept": True}
    assert f.draw(again) is again and seen[2] == ("update", again, f, None)
    assert f._repr_html_() == "<table 3>"
