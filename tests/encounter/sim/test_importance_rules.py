"""Importance, rule by rule and exactly (sim/importance.py): the seed blocks, what one
evaluation plays, and how the estimates become the table, the ranking, the tiers and the
sentence. The estimators are replaced by stand-ins returning known estimates (they have tests of
their own, tests/encounter/sim/test_importance_estimators.py), so every cell is known."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from labkit import ArgumentError
from labkit.encounter.sim import importance as im
from labkit.encounter.sim.importance import SEED_BLOCK, Importance, importance
from labkit.rng import stream

LIFE = "/characters/monster/life"
LIFE_LABEL = "monster life (wounds it takes)"


def msg(call, *args, **kw):
    with pytest.raises(ArgumentError) as info:
        call(*args, **kw)
    return str(info.value)


def test_games_in_words():
    assert im._games(1) == "1 game" and im._games(2) == "2 games" and im._games(0) == "0 games"
    assert SEED_BLOCK == "seed block"


# -- seeds and blocks ---------------------------------------------------------------------------


def test_seeds_are_cut_into_whole_blocks():
    assert im._check("npc_win", 3, range(10), "morris").tolist() == [[0, 1, 2], [3, 4, 5],
                                                                      [6, 7, 8]]  # fmt: skip
    assert im._check("steps", 2, range(5, 9), "sobol").tolist() == [[5, 6], [7, 8]]
    assert im._check("steps", 2, range(1, 12, 3), "sobol").tolist() == [[1, 4], [7, 10]]
    assert im._check("steps", 1, [9, 3], "sobol").tolist() == [[9], [3]]
    assert im._check("steps", 2, range(9, 0, -2), "sobol").tolist() == [[9, 7], [5, 3]]
    assert im._check("steps", 1, range(0, 2), "sobol").dtype == np.int64
    assert im._check("steps", 1, [0, 1], "sobol").dtype == np.int64


def test_seed_and_option_errors():
    need = "seeds: needs at least two blocks of {} distinct seeds >= 0 (got {})"
    assert msg(im._check, "steps", 3, range(5), "sobol") == need.format(3, 5)
    assert msg(im._check, "steps", 1, [4, 4, 5], "sobol") == need.format(1, 3)
    assert msg(im._check, "steps", 1, [3, -1], "sobol") == need.format(1, 2)
    assert msg(im._check, "steps", 1, range(-1, 5), "sobol") == need.format(1, 6)
    assert msg(im._check, "steps", 1, [], "sobol") == need.format(1, 0)
    assert msg(im._check, "steps", 1, range(3), "fast") == (
        "method: must be 'morris' or 'sobol' (got 'fast')")  # fmt: skip
    assert msg(im._check, "wins", 1, range(3), "morris") == (
        "outcome: unknown outcome, known: npc_win, monster_win, step_limit, mutual_death, "
        "steps, turns, encounters (got 'wins')")  # fmt: skip
    for bad in (0, True, 1.0, "2"):
        assert msg(im._check, "steps", bad, range(3), "morris") == (
            f"games: must be an integer >= 1 (got {bad!r})")  # fmt: skip


# -- evaluations and the table, with stand-in estimators ----------------------------------------


class Spy:
    """A response that records what it plays: steps = 10 a + b + (seed % 3)."""

    def __init__(self):
        self.calls = []

    def __call__(self, point, seeds):
        self.calls.append((dict(point), np.asarray(seeds).tolist()))
        return {"steps": 10 * point["a"] + point["b"] + seeds % 3, "npc_win": seeds % 2}


KNOBS = {"a": (0, 6), "b": (0.0, 2.0), LIFE: (2, 10)}
MU_STAR = (np.array([2.0, 8.0, np.nan, 1.0]), np.array([1.5, 7.0, np.nan, 0.5]),
           np.array([2.5, 9.0, np.nan, 1.5]))  # fmt: skip
MU = (np.array([-2.0, 8.0, np.nan, 0.5]), np.array([-3.0, 6.0, np.nan, 0.0]),
      np.array([-1.0, 9.5, np.nan, 1.0]))  # fmt: skip
SIGMA = (np.array([0.1, 0.2, np.nan, 0.3]), np.array([0.0, 0.1, np.nan, 0.2]),
         np.array([0.2, 0.3, np.nan, 0.4]))  # fmt: skip
# bootstrap of mu_star: b always above a (tiers apart), a and the life knob tied
BOOT = np.array([[2.0, 8, 2.0, 9], [2.1, 8, 2.5, 9], [1.9, 8, 1.5, 9], [2.0, 8, 2.0, 9]])


@pytest.fixture
def morris(monkeypatch):
    seen = {}

    def fake(ks, r, p, gen, boots, by_path):
        seen.update(ks=ks, r=r, p=p, boots=boots, draw=gen.random())
        seen["f"] = by_path([(np.array([0.0, 0.5, 1.0]), 0), (np.array([1.0, 0.0, 0.25]), 3)])
        found = [("mu_star", *MU_STAR), ("mu", *MU), ("sigma", *SIGMA)]
        return found, 42, BOOT

    monkeypatch.setattr(im, "_morris", fake)
    return seen


def test_an_evaluation_is_the_mean_outcome_of_one_seed_block(morris):
    spy = Spy()
    imp = importance(
        None,
        KNOBS,
        seeds=range(30),
        games=3,
        trajectories=5,
        levels=6,
        bootstrap=17,
        rng=4,
        outcome="steps",
        response=spy,
        progress=False,
    )
    ks = morris["ks"]
    assert [(k.name, k.low, k.high, k.integer) for k in ks] == [
        ("a", 0, 6, True), ("b", 0.0, 2.0, False), (LIFE, 2, 10, True)]  # fmt: skip
    assert (morris["r"], morris["p"], morris["boots"]) == (5, 6, 17)
    assert morris["draw"] == stream(4, "importance").random()  # the design's own stream
    # u = (0, 0.5, 1) on block 0, then (1, 0, 0.25) on block 3 (seeds 9, 10, 11)
    assert spy.calls == [({"a": 0, "b": 1.0, LIFE: 10}, [0, 1, 2]),
                         ({"a": 6, "b": 0.0, LIFE: 4}, [9, 10, 11])]  # fmt: skip
    assert morris["f"].tolist() == [0 + 1.0 + 1, 60 + 0.0 + 1]  # seeds % 3: 0 1 2 -> mean 1
    assert imp.evaluations == 42 and imp.games == 6 and imp.games_per_evaluation == 3
    assert (imp.method, imp.outcome, imp.threshold) == ("morris", "steps", 0.05)


def test_the_outcome_column_is_the_one_asked_for(morris):
    importance(None, KNOBS, seeds=range(30), games=3, trajectories=5, outcome="npc_win",
               response=Spy(), progress=False)  # fmt: skip
    assert morris["f"].tolist() == [1 / 3, 2 / 3]  # seeds 0 1 2: one odd; 9 10 11: two


def test_the_morris_table(morris):
    imp = importance(None, KNOBS, seeds=range(30), games=3, trajectories=5, outcome="steps",
                     response=Spy(), progress=False)  # fmt: skip
    t = imp.table
    assert list(t.columns) == ["knob", "label", "unit", "low", "high", "index", "value", "lo",
                               "hi", "matters", "rank", "tier"]  # fmt: skip
    assert t["index"].tolist() == ["mu_star"] * 4 + ["mu"] * 4 + ["sigma"] * 4
    assert t["knob"].tolist() == ["a", "b", LIFE, SEED_BLOCK] * 3
    first = t.iloc[:4]
    assert first["label"].tolist() == ["a", "b", LIFE_LABEL, "seed block (3 games)"]
    assert first["unit"].tolist() == ["", "", "wounds it takes", "games"]
    assert first["low"].tolist()[:3] == [0, 0.0, 2] and math.isnan(first["low"].iloc[3])
    assert first["high"].tolist()[:3] == [6, 2.0, 10] and math.isnan(first["high"].iloc[3])
    for (_, rows), (v, lo, hi) in zip(t.groupby("index", sort=False), (MU_STAR, MU, SIGMA)):
        np.testing.assert_array_equal(rows["value"], v)
        np.testing.assert_array_equal(rows["lo"], lo)
        np.testing.assert_array_equal(rows["hi"], hi)
    # matters: mu_star's low end above 0.05 x the largest mu_star (8, seed block included)
    assert first["matters"].tolist() == [True, True, False, False]
    assert t["matters"].tolist() == first["matters"].tolist() * 3
    # rank by mu_star, largest first; an undefined one (nan) last; the seed block has none
    assert t["rank"].tolist()[:3] == [2, 1, 3] and t["rank"].isna().tolist()[3]
    assert t["tier"].tolist()[:3] == [2, 1, 2] and t["tier"].isna().tolist()[3]
    assert str(t["rank"].dtype) == "Int64" and str(t["tier"].dtype) == "Int64"
    assert imp.matters == ["b", "a"]  # in ranking order
    assert imp.noise == (1.0, 0.5, 1.5)
    assert imp.main == "mu_star" and imp.ranking() == ["b", "a", LIFE]
    assert imp.tiers() == [["b"], ["a", LIFE]]


def test_a_threshold_of_ones_own(morris):
    imp = importance(None, KNOBS, seeds=range(30), games=3, trajectories=5, outcome="steps",
                     response=Spy(), progress=False, threshold=0.2)  # fmt: skip
    # 0.2 x 8 = 1.6: a's low end 1.5 no longer clears it
    assert imp.matters == ["b"] and imp.threshold == 0.2


def test_the_sentence_and_the_html(morris):
    imp = importance(None, KNOBS, seeds=range(30), games=3, trajectories=5, outcome="steps",
                     response=Spy(), progress=False)  # fmt: skip
    assert imp.summary() == (
        "2 of 3 knobs matter for how a game lasts (mu_star, change over the range): "
        "b 8.000 [7.000, 9.000]; a 2.000 [1.500, 2.500]; the other 1 do not; noise (the seed "
        "block, 3 games an evaluation) 1.000 [0.500, 1.500] (6 games)."
    )
    assert repr(imp) == f"Importance({imp.summary()})"
    row = "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"
    assert imp._repr_html_() == (
        f"<b>Importance</b>: {imp.summary()}<table><tr><th>knob</th><th>mu_star</th>"
        "<th>95% interval</th><th>matters</th></tr>"
        + row.format("b", "8.000", "7.000–9.000", "yes")
        + row.format("a", "2.000", "1.500–2.500", "yes")
        + row.format(LIFE_LABEL, "nan", "nan–nan", "")
        + row.format("seed block (3 games)", "1.000", "0.500–1.500", "")
        + "</table>"
    )
    none = importance(None, KNOBS, seeds=range(30), games=3, trajectories=5, outcome="steps",
                      response=Spy(), progress=False, threshold=10.0)  # fmt: skip
    assert none.matters == [] and none.summary() == (
        "no knob stands out for how a game lasts; noise (the seed block, 3 games an "
        "evaluation) 1.000 [0.500, 1.500] (6 games)."
    )


def test_html_escapes_labels():
    table = pd.DataFrame([
        {"knob": "<x>", "label": "<x>", "index": "total", "value": 0.5, "lo": 0.4, "hi": 0.6,
         "matters": True, "rank": 1, "tier": 1},
        {"knob": SEED_BLOCK, "label": "seed block (2 games)", "index": "total", "value": 0.1,
         "lo": 0.0, "hi": 0.2, "matters": False, "rank": pd.NA, "tier": pd.NA},
    ])  # fmt: skip
    imp = Importance("sobol", "steps", 2, table, ["<x>"], (0.1, 0.0, 0.2), 10, 20, 0.01)
    page = imp._repr_html_()
    assert "<td>&lt;x&gt;</td>" in page and "<x>" not in page
    assert imp.summary() == (
        "1 of 1 knobs matter for how a game lasts (total, share of variance): <x> 0.500 "
        "[0.400, 0.600]; noise (the seed block, 2 games an evaluation) 0.100 [0.000, 0.200] "
        "(20 games)."
    )


def test_sobol_evaluations_take_the_seed_block_from_the_last_column(monkeypatch):
    seen = {}

    def fake(ks, blocks, n, by_rows, gen, boots):
        seen.update(n=n, boots=boots, blocks=blocks.tolist(), draw=gen.random())
        rows = np.array([[0.0, 0.5, 0.0, 0.0], [1.0, 1.0, 0.99, 0.999], [0.5, 0.2, 0.5, 1.0],
                         [0.2, 0.0, 0.0, 0.34]])  # fmt: skip
        seen["f"] = by_rows(rows)
        v = np.array([0.6, 0.3, 0.005, 0.2])
        lo, hi = v - np.array([0.1, 0.1, 0.01, 0.05]), v + 0.1
        first = (v / 2, lo / 2, hi / 2)
        boot = np.tile(v, (5, 1)) + np.linspace(-0.01, 0.01, 5)[:, None]
        return [("first", *first), ("total", v, lo, hi)], 99, boot

    monkeypatch.setattr(im, "_sobol", fake)
    spy = Spy()
    imp = importance(None, KNOBS, seeds=range(9), games=3, method="sobol", n=16, bootstrap=5,
                     outcome="steps", response=spy, progress=False)  # fmt: skip
    assert (seen["n"], seen["boots"], seen["blocks"]) == (16, 5, [[0, 1, 2], [3, 4, 5],
                                                                  [6, 7, 8]])  # fmt: skip
    assert seen["draw"] == stream(0, "importance").random()
    # the last column picks the block: 0 -> 0, 0.999 -> 2, 1.0 -> 2 (the last), 0.34 -> 1
    assert [s for _, s in spy.calls] == [[0, 1, 2], [6, 7, 8], [6, 7, 8], [3, 4, 5]]
    assert [p for p, _ in spy.calls] == [
        {"a": 0, "b": 1.0, LIFE: 2},
        {"a": 6, "b": 2.0, LIFE: 10},
        {"a": 3, "b": 0.4, LIFE: 6},
        {"a": 1, "b": 0.0, LIFE: 2},
    ]
    t = imp.table
    assert t["index"].tolist() == ["first"] * 4 + ["total"] * 4
    # matters: the total's low end above 0.01 of the variance (no scaling)
    assert t[t["index"] == "total"]["matters"].tolist() == [True, True, False, False]
    assert imp.matters == ["a", "b"] and imp.threshold == 0.01 and imp.main == "total"
    assert imp.noise == pytest.approx((0.2, 0.15, 0.3))
    assert t["rank"].tolist()[:3] == [1, 2, 3] and imp.evaluations == 99
    assert imp.summary().startswith("2 of 3 knobs matter for how a game lasts (total, share "
                                    "of variance): a 0.600 [0.500, 0.700]; b 0.300")  # fmt: skip


def test_morris_needs_two_blocks_per_path(morris):
    assert msg(importance, None, KNOBS, seeds=range(9), games=1, trajectories=5,
               response=Spy(), progress=False) == (
        "seeds: needs 10 blocks of 1 seeds (got 9)")  # fmt: skip
    importance(
        None,
        KNOBS,
        seeds=range(10),
        games=1,
        trajectories=5,
        outcome="steps",
        response=Spy(),
        progress=False,
    )  # exactly enough


def test_design_sizes_are_checked_before_the_knobs_and_the_games():
    assert msg(importance, None, {"x": (3, 1)}, seeds=range(10), games=1, method="sobol",
               n=12, response=Spy()) == "n: must be a power of two >= 8 (got 12)"  # fmt: skip
    assert msg(importance, None, {"x": (3, 1)}, seeds=range(10), games=1, levels=3,
               response=Spy()) == "levels: must be an even integer >= 2 (got 3)"  # fmt: skip
    assert msg(importance, None, {"x": (3, 1)}, seeds=range(10), games=1,
               response=Spy()).startswith("knobs['x']: needs low < high")  # fmt: skip


def test_the_player_gets_the_caller_s_executor_and_is_closed(monkeypatch, morris):
    made = []

    class Player:
        def __init__(self, base, *, executor, response, progress):
            self.args = (base, executor, response, progress)
            self.closed, self.games = False, 7
            made.append(self)

        def play(self, points, seeds):
            return [np.zeros((len(s), 7)) for s in seeds]

        def close(self):
            self.closed = True

    monkeypatch.setattr(im, "GamePlayer", Player)
    spy = Spy()
    imp = importance(None, KNOBS, seeds=range(30), games=3, trajectories=5, executor="pool",
                     response=spy, progress="bar")  # fmt: skip
    (p,) = made
    assert p.args == (None, "pool", spy, "bar") and p.closed and imp.games == 7


def test_resuming_needs_an_int_rng_and_holds_the_folder(tmp_path, morris, monkeypatch):
    for rng in (np.random.default_rng(0),):  # (labkit.rng refuses a bool or float seed itself)
        assert msg(importance, None, KNOBS, seeds=range(30), games=3, trajectories=5,
                   response=Spy(), progress=False, rng=rng, out=tmp_path / "x") == (
            f"rng: must be an int to resume from out (got {rng!r})")  # fmt: skip
    import labkit.encounter.sim.importance_parts as parts

    manifests = []
    real = parts.resumable

    def spy_resumable(play, out, manifest, **kw):
        manifests.append((out, manifest))
        lock = (tmp_path / "run" / ".lock").read_text()
        assert lock.startswith("an importance run (process ")  # held while it plays
        return real(play, out, manifest, **kw)

    monkeypatch.setattr(parts, "resumable", spy_resumable)
    importance(
        None,
        KNOBS,
        seeds=range(30),
        games=3,
        trajectories=5,
        levels=6,
        rng=3,
        outcome="steps",
        response=Spy(),
        progress=False,
        out=tmp_path / "run",
    )
    ((out, manifest),) = manifests
    assert out == tmp_path / "run"
    assert manifest == {
        "knobs": {"a": [0, 6], "b": [0.0, 2.0], LIFE: [2, 10]}, "method": "morris",
        "outcome": "steps", "games": 3,
        "seeds": parts.seeds_digest(np.arange(30).reshape(10, 3)), "n": None, "rng": 3,
        "trajectories": 5, "levels": 6, "base": None,
    }  # fmt: skip
    assert list((tmp_path / "run").glob("part-*.json"))  # the evaluations were saved


def test_a_sobol_manifest_records_n_and_the_base(tmp_path, monkeypatch):
    import labkit.encounter.sim.importance_parts as parts
    from labkit.encounter.sim.settings import SimulationSettings

    manifests = []
    monkeypatch.setattr(
        parts, "resumable", lambda play, out, manifest, **kw: manifests.append(manifest) or play
    )

    def fake(ks, blocks, n, by_rows, gen, boots):
        v = np.array([0.5, 0.1])
        return [("first", v, v, v), ("total", v, v, v)], 1, np.tile(v, (3, 1))

    monkeypatch.setattr(im, "_sobol", fake)
    base = SimulationSettings(npcs=2)
    importance(base, {"max_steps": (40, 300)}, seeds=range(10), games=1, method="sobol", n=8,
               executor="unused", progress=False, out=tmp_path / "s")  # fmt: skip
    (m,) = manifests
    assert (m["n"], m["trajectories"], m["levels"]) == (8, None, None)
    assert m["base"] == base.to_dict() and m["method"] == "sobol"


def _sobol_stand_in(monkeypatch, total, lo):
    def fake(ks, blocks, n, by_rows, gen, boots):
        v, low = np.asarray(total, float), np.asarray(lo, float)
        hi = np.where(np.isnan(v), np.nan, v + 0.1)
        boot = np.tile(np.nan_to_num(v), (4, 1)) + np.linspace(-1e-3, 1e-3, 4)[:, None]
        return [("first", v, low, hi), ("total", v, low, hi)], 10, boot

    monkeypatch.setattr(im, "_sobol", fake)


def test_a_sobol_knob_matters_when_its_low_end_is_above_the_threshold_itself(monkeypatch):
    # not scaled by the largest total (Morris is): totals of at most 0.5 here
    knobs = {f"k{i}": (0.0, 1.0) for i in range(4)}
    _sobol_stand_in(monkeypatch, [0.5, 0.1, 0.05, 0.04, 0.0], [0.4, 0.015, 0.008, 0.01, 0.0])
    imp = importance(None, knobs, seeds=range(4), games=1, method="sobol", n=8,
                     outcome="steps", response=Spy(), progress=False)  # fmt: skip
    # k1: 0.015 > 0.01 matters; k2: 0.008 does not (it would at 0.01 x 0.5); k3: exactly 0.01
    assert imp.matters == ["k0", "k1"]


def test_knobs_rank_by_their_estimate_ties_in_order_and_no_estimate_last(monkeypatch):
    knobs = {f"k{i:02d}": (0.0, 1.0) for i in range(20)}
    v = [0.3, 0.1] * 10
    v[3], v[5] = -1.5, np.nan  # a noisy negative total, and a knob with no estimate
    _sobol_stand_in(monkeypatch, [*v, 0.0], [0.0] * 21)
    imp = importance(None, knobs, seeds=range(4), games=1, method="sobol", n=8,
                     outcome="steps", response=Spy(), progress=False)  # fmt: skip
    total = imp.table[imp.table["index"] == "total"].set_index("knob")["rank"]
    high = [f"k{i:02d}" for i in range(0, 20, 2)]
    low = [f"k{i:02d}" for i in range(1, 20, 2) if i not in (3, 5)]
    assert [total[k] for k in high] == list(range(1, 11))  # equal estimates: knob order
    assert [total[k] for k in low] == list(range(11, 19))
    assert (total["k03"], total["k05"]) == (19, 20)


def test_importance_called_with_its_defaults(monkeypatch):
    seen = {}

    def fake_morris(ks, r, p, gen, boots, by_path):
        seen.update(r=r, p=p, boots=boots)
        return [("mu_star", *MU_STAR), ("mu", *MU), ("sigma", *SIGMA)], 1, BOOT

    def fake_sobol(ks, blocks, n, by_rows, gen, boots):
        seen.update(n=n, boots=boots, games=blocks.shape[1])
        v = np.array([0.5, 0.2, 0.1, 0.0])
        return [("first", v, v, v), ("total", v, v, v)], 1, np.tile(v, (3, 1))

    class Player:
        def __init__(self, base, *, executor, response, progress):
            seen.update(progress=progress, executor=executor)

        def close(self):
            pass

        games = 0

    monkeypatch.setattr(im, "_morris", fake_morris)
    monkeypatch.setattr(im, "_sobol", fake_sobol)
    monkeypatch.setattr(im, "GamePlayer", Player)
    imp = importance(None, KNOBS, response=Spy())
    assert (seen["r"], seen["p"], seen["boots"]) == (20, 4, 500)
    assert (seen["progress"], seen["executor"]) == (True, None)
    assert (imp.method, imp.outcome, imp.games_per_evaluation) == ("morris", "npc_win", 20)
    importance(None, KNOBS, response=Spy(), method="sobol")
    assert (seen["n"], seen["games"], seen["boots"]) == (512, 20, 500)


def test_a_base_is_ignored_with_a_response(tmp_path, monkeypatch):
    import labkit.encounter.sim.importance_parts as parts
    from labkit.encounter.sim.settings import SimulationSettings

    manifests = []
    monkeypatch.setattr(
        parts, "resumable", lambda play, out, manifest, **kw: manifests.append(manifest) or play
    )
    _sobol_stand_in(monkeypatch, [0.5, 0.0], [0.4, 0.0])
    # "x" is no field of the game's settings: fine, since the response plays, not the game
    imp = importance(SimulationSettings(npcs=2), {"x": (0, 3)}, seeds=range(4), games=1,
                     method="sobol", n=8, outcome="steps", response=Spy(), progress=False,
                     out=tmp_path / "r")  # fmt: skip
    assert imp.matters == ["x"] and manifests[0]["base"] is None


def test_the_plot_draws_this_importance_on_the_given_axes(monkeypatch):
    import labkit.encounter.draw_search as ds

    drawn = []
    monkeypatch.setattr(ds, "draw_importance", lambda imp, ax=None, **style: drawn.append(
        (imp, ax, style)) or "artists")  # fmt: skip
    imp = Importance("morris", "steps", 3, pd.DataFrame(), [], (0.0, 0.0, 0.0), 1, 3, 0.05)
    assert imp.plot(ax="axes", color="red") == "artists"
    assert drawn == [(imp, "axes", {"color": "red"})]
