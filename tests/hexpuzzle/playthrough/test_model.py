"""The funnel kernel's tables say what the skill model says (win and quit chances)."""

from __future__ import annotations

import numpy as np

from labkit.hexpuzzle import (
    campaign,
)


def test_the_kernel_tables_say_what_the_skill_model_says():
    from labkit.hexpuzzle import shipped_skill_model
    from labkit.hexpuzzle.playthrough.model import model_tables

    model, levels = shipped_skill_model(), campaign()
    t = model_tables(model, levels)
    g = t.grid[::6]
    for i in (0, 9, 23):
        for k in (1, 3):
            said = model.success(levels[i].id, g, attempt=k)
            np.testing.assert_allclose(1 / (1 + np.exp(-t.win[i, k - 1, ::6])), said, rtol=1e-9)
        for won in (False, True):
            for run in (0, 1, 4):
                p = model.quit_model.p_quit(g, position=i, won=won, attempt=2, run=run)
                np.testing.assert_allclose(1 / (1 + np.exp(-t.quit[i, 1, int(won), run, ::6])), p,
                                           rtol=1e-9)  # fmt: skip


# --- the rules on stand-in models (exact values, from the docstrings) -----------------------

import math  # noqa: E402

import pytest  # noqa: E402

from labkit import ArgumentError  # noqa: E402
from labkit.hexpuzzle.playthrough import model as pm  # noqa: E402
from labkit.hexpuzzle.playthrough.simulate import world_tables  # noqa: E402
from labkit.hexpuzzle.playthrough.truth import TrueModel, TrueQuitModel  # noqa: E402
from labkit.rng import make_rng, stream  # noqa: E402


def _sigmoid(x):
    return 1 / (1 + math.exp(-x))


class _Named:
    def __init__(self, id=None, level_id=None):
        self.id, self.level_id = id, level_id


def test_level_id_of_text_a_level_and_a_row():
    assert pm._level_id("L07") == "L07"
    assert pm._level_id(_Named(id="x")) == "x"
    assert pm._level_id(_Named(level_id="y")) == "y"  # no id: a difficulty row's level_id
    assert pm._level_id(_Named(id=7)) == "7"


class _Stand:
    """A skill model's duck type: played levels a, b; anything else predicted as 2.5."""

    level_ids = ("a", "b")
    difficulty = np.array([0.5, -1.0])
    ability_sd = 1.3

    def difficulty_of(self, level):
        lid = pm._level_id(level)
        return {"a": 0.5, "b": -1.0}.get(lid, 2.5)


def test_plan_reads_played_levels_from_the_fit_and_predicts_the_rest(monkeypatch):
    monkeypatch.setattr(pm, "_prediction_variance", lambda model, level: 0.49)
    index, beta, var = pm._plan(_Stand(), ["b", "new", "a"])
    assert index.tolist() == [1, -1, 0]
    assert beta.tolist() == [-1.0, 2.5, 0.5] and var.tolist() == [0.0, 0.49, 0.0]

    class Changed(_Stand):  # a played id whose level now scores differently: predicted
        def difficulty_of(self, level):
            return 3.0 if pm._level_id(level) == "a" else super().difficulty_of(level)

    index, beta, var = pm._plan(Changed(), ["a", "b"])
    assert index.tolist() == [-1, 1] and beta.tolist() == [3.0, -1.0]
    assert var.tolist() == [0.49, 0.0]


def test_prediction_variance_is_x_cov_x_plus_tau_squared():
    from labkit.hexpuzzle import campaign, score
    from labkit.hexpuzzle.difficulty.calibration import strengths

    level = campaign()[5]
    x = np.concatenate([[1.0], strengths(score(level))])
    cov = np.diag(np.arange(1.0, len(x) + 1))

    class M:
        weights_cov, residual_sd = cov, 0.5

    assert pm._prediction_variance(M(), level) == pytest.approx(float(x @ cov @ x) + 0.25)

    class NoTau:
        weights_cov = cov

    assert pm._prediction_variance(NoTau(), level) == pytest.approx(float(x @ cov @ x))

    class WrongShape:
        weights_cov, residual_sd = np.eye(2), 2.0

    assert pm._prediction_variance(WrongShape(), level) == 4.0
    assert pm._prediction_variance(object(), level) == 0.0


def test_discrimination_of_played_levels_and_one_for_new_ones():
    class A:
        discrimination = [2.0, 0.5]

    assert pm._discrimination(A(), np.array([1, -1, 0])).tolist() == [0.5, 1.0, 2.0]
    assert pm._discrimination(object(), np.array([0])) is None


def test_attempts_come_from_the_call_the_model_its_fit_or_three():
    class K:
        max_attempts = 5

    class Info:
        fit_info = {"max_attempts": 4}

    class Empty:
        fit_info = None

    assert pm._attempts(K(), 2) == 2 and pm._attempts(K(), None) == 5
    assert pm._attempts(Info(), None) == 4 and pm._attempts(Empty(), None) == 3
    assert pm._attempts(object(), None) == 3
    for bad in (0, 101):
        with pytest.raises(ArgumentError) as exc:
            pm._attempts(object(), bad)
        assert exc.value.argument == "max_attempts" and exc.value.value == bad


def test_model_tables_are_the_world_tables_of_the_fitted_parameters(monkeypatch):
    monkeypatch.setattr(pm, "_prediction_variance", lambda model, level: 0.0)
    m = _Stand()
    t = pm.model_tables(m, ["b", "a"], max_attempts=2, moves_on=False)
    want = world_tables(["b", "a"], np.array([-1.0, 0.5]), ability_mean=0.0, ability_sd=1.3,
                        learning=0.0, discrimination=None, p_quit=None, max_attempts=2,
                        moves_on=False)  # fmt: skip
    np.testing.assert_array_equal(t.win, want.win)
    np.testing.assert_array_equal(t.quit, want.quit)
    assert (t.level_ids, t.ability_sd, t.moves_on) == (("b", "a"), 1.3, False)
    truth = TrueModel([0.0, 1.0], learning=0.4, quit={"baseline": -2.0})
    tt = pm.model_tables(truth, ["L01", "L02"], times=(np.ones(2), np.zeros(2)))
    np.testing.assert_allclose(tt.win[0, 1] - tt.win[0, 0], 0.4)  # the model's learning
    assert np.isfinite(tt.quit).all() and tt.seconds_won.tolist() == [1.0, 1.0]


def test_every_cohort_plays_its_own_parameter_draw():
    truth = TrueModel([0.0, 1.0, -0.5], difficulty_sd=0.4, quit={"baseline": -2.0})
    worlds = pm._drawn_tables(truth, ["L01", "L02", "L03"], 3, make_rng(stream(9, "p")),
                              max_attempts=3, moves_on=True)  # fmt: skip
    d = truth.parameter_draws(3, make_rng(stream(9, "p")))
    for b, t in enumerate(worlds):
        grid = t.grid
        want = grid[None, :] - d["difficulty"][b][:, None]
        np.testing.assert_allclose(t.win[:, 0, :], want)
    assert not np.array_equal(worlds[0].win, worlds[1].win)


def test_a_new_levels_draws_do_not_depend_on_its_place(monkeypatch):
    monkeypatch.setattr(pm, "_prediction_variance", lambda model, level: 0.25)

    class Drawn(_Stand):
        max_attempts = 1

        quit_model = TrueQuitModel({"baseline": -1.0})

        def parameter_draws(self, n, rng):
            return {"difficulty": np.tile(self.difficulty, (n, 1)), "ability_sd": np.ones(n),
                    "quit": np.full((n, 1), -1.0)}  # fmt: skip

    one = pm._drawn_tables(Drawn(), ["a", "new"], 2, make_rng(3), max_attempts=1)
    two = pm._drawn_tables(Drawn(), ["new", "b", "a"], 2, make_rng(3), max_attempts=1)
    for b in range(2):
        np.testing.assert_allclose(one[b].win[1], two[b].win[0])  # same draw of "new"
        np.testing.assert_allclose(one[b].win[0], two[b].win[2])  # "a": its fitted value
    noise = make_rng(stream(make_rng(3), "new-level/new")).standard_normal(2)
    np.testing.assert_allclose(one[1].win[1, 0], one[1].grid - (2.5 + 0.5 * noise[1]))
    np.testing.assert_allclose(one[0].quit, math.log(_sigmoid(-1.0) / (1 - _sigmoid(-1.0))))


def test_funnel_refuses_an_empty_campaign_bad_draws_and_a_model_without_quitting():
    truth = TrueModel([0.0], quit={"baseline": -1.0})
    with pytest.raises(ArgumentError) as exc:
        pm.funnel([], truth)
    assert exc.value.argument == "campaign" and str(exc.value).startswith("campaign: has no levels")
    for bad in (0, 1001):
        with pytest.raises(ArgumentError) as exc:
            pm.funnel(["L01"], truth, draws=bad)
        assert str(exc.value) == f"draws: must be between 1 and 1000 (got {bad})"
    silent = TrueModel([0.0])
    with pytest.raises(ArgumentError) as exc:
        pm.funnel(["L01"], silent)
    assert str(exc.value) == (
        "model: has no quit model, so it cannot say where players stop: fit it with "
        f"dropout='model' (labkit puzzle skill) (got {repr(repr(silent))})"
    )


def test_funnel_notes_defaults_and_streams():
    truth = TrueModel([0.0, 1.0], difficulty_sd=0.3, quit={"baseline": -1.0})
    f = pm.funnel(["L01", "L02"], truth, players=50, rng=4)
    assert (f.draws, f.players) == (50, 50)
    assert f.notes == {"seed": 4, "uncertainty": True, "model": repr(truth)}
    # by hand: parameters from the stream "parameters", cohorts from "cohort/{b}" of the seed
    root = make_rng(4)
    worlds = pm._drawn_tables(truth, ["L01", "L02"], 50, stream(root, "parameters"),
                              max_attempts=3, moves_on=True)  # fmt: skip
    from labkit.hexpuzzle.playthrough.simulate import run

    ref = run(worlds, 50, root)
    np.testing.assert_array_equal(f.samples["reach"], ref.samples["reach"])
    fixed = pm.funnel(["L01", "L02"], truth, players=50, draws=3, rng=4, uncertainty=False)
    assert fixed.notes["uncertainty"] is False
    ref = run([pm.model_tables(truth, ["L01", "L02"])] * 3, 50, make_rng(4))
    np.testing.assert_array_equal(fixed.samples["reach"], ref.samples["reach"])
    g = pm.funnel(["L01", "L02"], truth, players=50, draws=2, rng=np.random.default_rng(4))
    assert g.notes["seed"] is None


def test_funnel_times_come_from_the_telemetry_or_the_models_own_data():
    from labkit.hexpuzzle.difficulty.telemetry import make_table

    truth = TrueModel([0.0, 0.5], quit={"baseline": -1.0})
    rows = make_table([("L01", "p", 1, True, 0, 0, 0, 0, 10.0, True),
                       ("L02", "p", 1, False, 0, 0, 0, 0, 20.0, False),
                       ("L02", "p", 2, False, 0, 0, 0, 0, 40.0, True)])  # fmt: skip
    f = pm.funnel(["L01", "L02"], truth, players=200, draws=2, rng=1, telemetry=rows)
    assert "seconds" in f.stats
    truth.source = (rows,)
    g = pm.funnel(["L01", "L02"], truth, players=200, draws=2, rng=1)
    np.testing.assert_array_equal(g.stats["seconds"], f.stats["seconds"])
    truth.source = None
    assert "seconds" not in pm.funnel(["L01", "L02"], truth, players=20, draws=2, rng=1).stats


def test_another_order_of_the_same_levels_reuses_the_worlds_reordered():
    truth = TrueModel([0.0, 1.0, 2.0], difficulty_sd=0.5, quit={"baseline": -1.0})
    pm._RECENT.clear()
    pm.funnel(["L01", "L02", "L03"], truth, players=10, draws=3, rng=8)
    assert len(pm._RECENT) == 1
    key, cached_model, (ids, worlds) = pm._RECENT[0]
    assert cached_model is truth and ids == ["L01", "L02", "L03"]
    again = pm._worlds(truth, ["L03", "L01", "L02"], 3, make_rng(8), 8, True, 3, True)
    for w, old in zip(again, worlds):
        np.testing.assert_array_equal(w.win, old.win[[2, 0, 1]])
    assert len(pm._RECENT) == 1  # a hit adds nothing
    # no seed: never reused (the draws differ run to run)
    fresh = pm._worlds(truth, ["L03", "L01", "L02"], 3, make_rng(8), None, True, 3, True)
    assert len(pm._RECENT) == 2 and fresh is not again
    for seed in (20, 21, 22, 23):
        pm._worlds(truth, ["L01"], 1, make_rng(seed), seed, True, 3, True)
    assert len(pm._RECENT) == 4  # the last four
    assert [k[2] for k, _, _ in pm._RECENT] == [23, 22, 21, 20]
    pm._RECENT.clear()


class _Only:
    def __init__(self, level_id):
        self.level_id = level_id  # a difficulty row: no `id` attribute at all


def test_level_id_of_a_row_without_an_id_attribute():
    assert pm._level_id(_Only("z")) == "z"


class _Sloped(_Stand):
    """Played levels with discriminations; the LLTM's uncertainty for new levels."""

    discrimination = [2.0, 0.5]
    max_attempts = 2
    residual_sd = 0.5

    def __init__(self, quit=None, draws_learning=True):
        self.quit_model, self._learning = quit, draws_learning

    def parameter_draws(self, n, rng):
        d = {"difficulty": np.tile(self.difficulty, (n, 1)), "ability_sd": np.ones(n)}
        if self._learning:
            d["learning"] = np.full(n, 0.25)
        return d


def test_the_fitted_discrimination_reaches_every_table(monkeypatch):
    monkeypatch.setattr(pm, "_prediction_variance", lambda model, level: 0.0)
    m = _Sloped(quit=TrueQuitModel({"baseline": -1.0}))
    for t in (pm.model_tables(m, ["b", "new", "a"]),
              *pm._drawn_tables(m, ["b", "new", "a"], 2, make_rng(1), max_attempts=2)):  # fmt: skip
        g = t.grid
        np.testing.assert_allclose(t.win[0, 0], 0.5 * (g + 1.0))
        np.testing.assert_allclose(t.win[2, 0], 2.0 * (g - 0.5))
        assert t.win.shape[1] == 2  # the model's max_attempts
        slope = (t.win[1, 0, -1] - t.win[1, 0, 0]) / (g[-1] - g[0])
        assert slope == pytest.approx(1.0)  # a new level: discrimination 1


def test_a_new_levels_variance_comes_from_the_model():
    from labkit.hexpuzzle import campaign

    level = campaign()[3].replace(id="fresh")
    _, _, var = pm._plan(_Sloped(), [level, "a"])
    assert var.tolist() == [pytest.approx(0.25), 0.0]  # no weights_cov: tau squared only


def test_drawn_tables_without_quit_or_learning_draws_keep_the_fitted_ones():
    qm = TrueQuitModel({"baseline": -1.0, "won": 0.5})
    worlds = pm._drawn_tables(_Sloped(quit=qm, draws_learning=False), ["a", "b"], 2,
                              make_rng(0), max_attempts=2)  # fmt: skip
    for t in worlds:
        np.testing.assert_allclose(t.win[:, 1], t.win[:, 0])  # no learning drawn: 0
        p = qm.p_quit(t.grid, position=0, won=True, attempt=1, run=0)
        np.testing.assert_allclose(1 / (1 + np.exp(-t.quit[0, 0, 1, 0])), p)


def test_drawn_quit_coefficients_are_read_in_the_models_term_order():
    from labkit.hexpuzzle.difficulty.skill_quit import QUIT_TERMS, QuitModel

    values = dict(zip(QUIT_TERMS, [-1.0, -0.8, -2.0, 0.6, 1.0, 1.2, 1.4, 0.1, 0.05]))
    qm = QuitModel(dict(reversed(list(values.items()))))  # given in another order
    m = _Sloped(quit=qm)
    m.parameter_draws = lambda n, rng: {"difficulty": np.tile(m.difficulty, (n, 1)),
                                        "ability_sd": np.full(n, m.ability_sd),
                                        "quit": np.tile(qm.vector, (n, 1))}  # fmt: skip
    (t,) = pm._drawn_tables(m, ["a", "b"], 1, make_rng(0), max_attempts=2)
    direct = pm.model_tables(m, ["a", "b"], max_attempts=2)
    np.testing.assert_allclose(t.quit, direct.quit)


def test_attempts_of_one_are_allowed():
    assert pm._attempts(object(), 1) == 1


def test_funnel_attempts_and_moving_on_reach_the_worlds_with_or_without_uncertainty():
    truth = TrueModel([0.0, 1.0], quit={"baseline": -1.0}, max_attempts=4)
    for uncertainty in (True, False):
        pm._RECENT.clear()
        pm.funnel(["L01", "L02"], truth, players=10, draws=2, rng=3, uncertainty=uncertainty,
                  max_attempts=2, moves_on=False)  # fmt: skip
        worlds = pm._RECENT[0][2][1]
        assert {w.win.shape[1] for w in worlds} == {2} and not worlds[0].moves_on
        pm._RECENT.clear()
        pm.funnel(["L01", "L02"], truth, players=10, draws=2, rng=3, uncertainty=uncertainty)
        assert pm._RECENT[0][2][1][0].win.shape[1] == 4  # the model's own
    pm._RECENT.clear()


def test_funnel_default_players_and_refusals_name_their_values():
    truth = TrueModel([0.0], quit={"baseline": -1.0})
    assert pm.funnel(["L01"], truth, draws=1, rng=0).players == 10_000
    with pytest.raises(ArgumentError) as exc:
        pm.funnel([], truth)
    assert exc.value.value == []

    class NoQuitAttribute:
        ability_sd = 1.0

    with pytest.raises(ArgumentError) as exc:
        pm.funnel(["L01"], NoQuitAttribute())
    assert exc.value.argument == "model"


def _timed(*rows):
    from labkit.hexpuzzle.difficulty.telemetry import make_table

    return make_table([(lv, "p", a, won and a == 1, 0, 0, 0, 0, float(s), won)
                       for lv, a, s, won in rows])  # fmt: skip


@pytest.mark.filterwarnings("error")  # a level without wins (or losses): no empty-mean warning
def test_level_times_mean_won_and_lost_seconds_with_the_campaigns_for_a_missing_kind():
    rows = _timed(("a", 1, 30, False), ("a", 2, 10, True), ("a", 3, 50, False),
                  ("b", 1, 20, True), ("b", 2, 40, True),  # b: never lost
                  ("c", 1, 90, False))  # c: never won  # fmt: skip
    won, lost = pm.level_times(rows, ["a", "b", "c", "d"])
    # won: a 10, b 30, c (none) -> the campaign's mean 20; lost: a 40, c 90, b -> 65
    np.testing.assert_allclose(won[:3], [10.0, 30.0, 20.0])
    np.testing.assert_allclose(lost[:3], [40.0, 65.0, 90.0])
    assert np.isnan(won[3]) and np.isnan(lost[3])  # d: nobody played it, no time


@pytest.mark.filterwarnings("error")  # only wins anywhere: lost times stay NaN, unwarned
def test_level_times_need_some_time_above_zero():
    assert pm.level_times(_timed(("a", 1, 0, True), ("a", 2, 0, False)), ["a"]) is None
    assert pm.level_times(_timed(), ["a"]) is None
    one = pm.level_times(_timed(("a", 1, 0.5, True)), ["a"])
    assert one is not None and one[0].tolist() == [0.5] and np.isnan(one[1][0])
    lost = pm.level_times(_timed(("a", 1, 3.0, False)), ["a"])
    assert np.isnan(lost[0][0]) and lost[1].tolist() == [3.0]


# --- the check's floor: the data's own reach interval (issue 45) ---------------------------

BETA8 = np.linspace(-1.0, 1.0, 8)
FAMILY8 = TrueModel(BETA8, quit={"baseline": -3.0, "won": -0.7}, ability_sd=1.0, learning=0.3)


def _sessions(ability, *, position, won, attempt, run):
    return np.where(np.asarray(position) == 3, 0.3, 0.01)  # a session ends after level 4


def _wilson_by_scipy(rows, ids):
    """The data's 95 % Wilson interval of reach per level, counted here (not by the model)."""
    from scipy.stats import binomtest

    level, player = rows["level"].astype(str), rows["player"].astype(str)
    n = len(np.unique(player))
    out = []
    for lid in ids:
        ci = binomtest(len(np.unique(player[level == lid])), n).proportion_ci(method="wilson")
        out.append((ci.low, ci.high))
    return np.array(out)


def test_in_the_datas_order_the_reach_band_holds_the_datas_own_interval():
    # the stand-in model stops players smoothly; its data stop after a session (level 4)
    rows = TrueModel(BETA8, quit_rule=_sessions, ability_sd=1.0, learning=0.3).telemetry(600, rng=3)
    ids = list(FAMILY8.level_ids)
    wilson = _wilson_by_scipy(rows, ids)
    f = pm.funnel(ids, FAMILY8, players=2000, draws=10, rng=0, telemetry=rows)
    lo, hi = f.interval("reach").T
    assert np.all(lo <= wilson[:, 0] + 1e-9) and np.all(hi >= wilson[:, 1] - 1e-9)
    alone = pm.funnel(ids, FAMILY8, players=2000, draws=10, rng=0, telemetry=rows, check=False)
    a_lo, a_hi = alone.interval("reach").T
    assert np.any((a_lo > wilson[:, 0]) | (a_hi < wilson[:, 1]))  # the floor did something
    assert np.all(lo <= a_lo) and np.all(hi >= a_hi)  # and never narrowed the model's band


def test_in_another_order_the_floor_widens_each_place_on_both_sides():
    # data of the model's own world: the data's interval (600 players) sticks out of the exact
    # model's band (2000 players a cohort, no parameter uncertainty)
    rows = FAMILY8.telemetry(600, rng=3)
    ids = list(reversed(FAMILY8.level_ids))
    kw = {"players": 2000, "draws": 10, "rng": 0, "telemetry": rows}
    f, alone = pm.funnel(ids, FAMILY8, **kw), pm.funnel(ids, FAMILY8, check=False, **kw)
    (lo, hi), (a_lo, a_hi) = f.interval("reach").T, alone.interval("reach").T
    assert np.all(lo <= a_lo) and np.all(hi >= a_hi) and np.any(hi - lo > a_hi - a_lo + 0.01)
    # where no check misses and nothing is clipped at 0 or 1: the same widening below and above
    # (a miss widens around the value instead: module notes)
    free = (lo > 0) & (hi < 1) & ~np.array(f.widened)
    assert free.sum() >= 3
    np.testing.assert_allclose((a_lo - lo)[free], (hi - a_hi)[free], atol=1e-12)
