"""round_robin's and policy_balance's tables from hand-made games (a stand-in sweep): every
column from its rule, the pairings in design order, the options handed to the sweep."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from labkit import ArgumentError
from labkit.encounter.rules.combat import wilson_interval
from labkit.encounter.sim import ratings
from labkit.encounter.sim import sweep as sw
from labkit.encounter.sim.paired import game_measures, paired_table
from labkit.encounter.sim.settings import SimulationSettings

LIFE = "/characters/monster/life"


def frame(winners: dict[int, list]) -> pd.DataFrame:
    """Games per design point: the winners by seed 0, 1, … (None: nobody won), rows shuffled."""
    rows = []
    for point, who in winners.items():
        for seed, w in enumerate(who):
            rows.append({
                "point": point, "seed": seed, "winner": w or "none",
                "end_reason": "victory" if w else "step_limit", "turns": 10 + seed + point,
                "alive_npc-0": w == "npc", "survival_npc-0": 10 + seed if w == "npc" else 4,
                "alive_monster-0": w == "monster", "survival_monster-0": 9 + seed,
            })  # fmt: skip
    return pd.DataFrame(rows).sample(frac=1.0, random_state=1).reset_index(drop=True)


@pytest.fixture
def sweeps(monkeypatch):
    calls = []

    def fake(base, points, seeds, **kw):
        calls.append({"base": base, "points": points, "seeds": list(seeds), **kw})
        return GAMES[0]

    monkeypatch.setattr(sw, "sweep", fake)
    return calls


GAMES: list[pd.DataFrame] = [pd.DataFrame()]
N, M = "npc", "monster"


def same(got: dict, want: dict) -> bool:
    """Equal dicts, an undefined (NaN) value equal to another (a row without an interval)."""
    nan = [k for k, v in want.items() if isinstance(v, float) and math.isnan(v)]
    return got.keys() == want.keys() and all(math.isnan(got[k]) for k in nan) and {
        k: v for k, v in got.items() if k not in nan} == {
        k: v for k, v in want.items() if k not in nan}  # fmt: skip


def sorted_games(g, point):
    return g[g["point"] == point].sort_values("seed").reset_index(drop=True)


def test_round_robin_rows_follow_the_pairings_rules(sweeps):
    GAMES[0] = frame({0: [N, M, N, None, N, M, N, N], 1: [M, M, None, None, N, M, M, M],
                      2: [None] * 8})  # fmt: skip
    rr = ratings.round_robin(seeds=range(8), npc=["s", ("h", {LIFE: 4})], monster=["x"],
                             executor="pool", out="dir", progress=True)  # fmt: skip
    p = rr["pairings"]
    assert p[["npc", "monster"]].values.tolist() == [["s", "x"], ["h life=4", "x"]]
    for k in (0, 1):
        g = sorted_games(GAMES[0], k)
        m = game_measures(g)
        t = paired_table(m, m, metrics=["npc_win", "monster_win", "balance"], bootstrap=400,
                         rng=k).set_index("metric")  # fmt: skip
        nw, mw = int(m["npc_win"].sum()), int(m["monster_win"].sum())
        lo, hi = wilson_interval(nw, nw + mw)
        row = p.iloc[k].to_dict()
        assert same(row, {
            "npc": row["npc"], "monster": "x", "games": 8,
            "npc_win": t.loc["npc_win", "a"], "npc_win_lo": t.loc["npc_win", "a_lo"],
            "npc_win_hi": t.loc["npc_win", "a_hi"], "monster_win": t.loc["monster_win", "a"],
            "balance": t.loc["balance", "a"], "balance_lo": t.loc["balance", "a_lo"],
            "balance_hi": t.loc["balance", "a_hi"], "npc_share_of_decided": nw / (nw + mw),
            "decided_lo": float(lo), "decided_hi": float(hi), "npc_wins": nw,
            "monster_wins": mw, "draws": 8 - nw - mw,
        })  # fmt: skip
    assert (p.loc[0, "npc_wins"], p.loc[0, "monster_wins"], p.loc[0, "draws"]) == (5, 2, 1)
    assert p.loc[0, "npc_win"] == 5 / 8 and p.loc[1, "npc_share_of_decided"] == 1 / 6
    assert p.loc[0, "npc_win_lo"] < 5 / 8 < p.loc[0, "npc_win_hi"]
    # the sweep: both pairings, the loadout in its point, the options handed on
    [call] = sweeps
    assert call["seeds"] == list(range(8)) and call["base"] == SimulationSettings()
    assert call["points"] == [{LIFE: 5, "policies": ["s", "x"]}, {LIFE: 4, "policies": ["h", "x"]}]
    assert (call["executor"], call["out"], call["progress"]) == ("pool", "dir", True)


def test_a_pairing_nobody_won_has_no_decided_share_interval(sweeps):
    GAMES[0] = frame({0: [None] * 5, 1: [N, M, N, M, N]})
    p = ratings.round_robin(seeds=range(5), npc=["s", "h"], monster=["x"])["pairings"]
    assert p.loc[0, "npc_share_of_decided"] == 0.0 and p.loc[0, "draws"] == 5
    assert math.isnan(p.loc[0, "decided_lo"]) and math.isnan(p.loc[0, "decided_hi"])
    assert (sweeps[0]["executor"], sweeps[0]["out"], sweeps[0]["progress"]) == (None, None, False)


def test_policy_balance_compares_each_pairing_paired_by_seed(sweeps):
    # pairings (s, x), (h, x); version A's points 0-1, version B's 2-3
    GAMES[0] = frame({0: [N, M, N, M, N, M], 1: [M, M, M, N, M, M],
                      2: [N, N, N, M, N, M], 3: [M, N, M, N, M, N]})  # fmt: skip
    t = ratings.policy_balance({}, {LIFE: 4}, range(6), npc=["s", "h"], monster=["x"],
                               balanced=0.8, executor="pool", progress=True)  # fmt: skip
    assert t[["npc", "monster"]].values.tolist() == [["s", "x"], ["h", "x"]]
    for k in (0, 1):
        want = paired_table(game_measures(sorted_games(GAMES[0], k)),
                            game_measures(sorted_games(GAMES[0], k + 2)), metrics=["balance"],
                            bootstrap=400, rng=k).iloc[0]  # fmt: skip
        assert same(t.iloc[k].to_dict(), {
            "npc": t.loc[k, "npc"], "monster": "x", "balance_a": want["a"],
            "balance_a_lo": want["a_lo"], "balance_a_hi": want["a_hi"], "balance_b": want["b"],
            "balance_b_lo": want["b_lo"], "balance_b_hi": want["b_hi"], "diff": want["diff"],
            "diff_lo": want["diff_lo"], "diff_hi": want["diff_hi"],
            "b_balanced": bool(want["b"] >= 0.8), "games": 6, "note": want["note"],
        })  # fmt: skip
    # balance = 1 − |npc win rate − monster win rate|: B's (s, x) 4 of 6 against 2 of 6
    assert t.loc[0, "balance_b"] == pytest.approx(1 - abs(4 / 6 - 2 / 6))
    assert t.loc[1, "balance_b"] == 1.0 and bool(t.loc[1, "b_balanced"])
    [call] = sweeps
    assert [pt[LIFE] for pt in call["points"]] == [5, 5, 4, 4]
    assert [pt["policies"] for pt in call["points"]] == [["s", "x"], ["h", "x"]] * 2
    assert (call["executor"], call["progress"]) == ("pool", True)
    assert call["base"] == SimulationSettings()


def test_policy_balance_is_balanced_from_the_threshold_on(sweeps):
    GAMES[0] = frame({0: [N, M, N, M], 1: [N, M, N, N]})  # B's balance 1 − |3/4 − 1/4| = 0.5
    t = ratings.policy_balance({}, {LIFE: 4}, range(4), npc=["s"], monster=["x"], balanced=0.5)
    assert t.loc[0, "balance_b"] == 0.5 and bool(t.loc[0, "b_balanced"])
    t = ratings.policy_balance({}, {LIFE: 4}, range(4), npc=["s"], monster=["x"], balanced=0.51)
    assert not bool(t.loc[0, "b_balanced"])
    t = ratings.policy_balance({}, {LIFE: 4}, range(4), npc=["s"], monster=["x"])  # 0.8
    assert not bool(t.loc[0, "b_balanced"])
    assert (sweeps[-1]["executor"], sweeps[-1]["progress"]) == (None, False)
    base = SimulationSettings(npcs=2)
    ratings.policy_balance({}, {}, range(4), base=base, npc=["s"], monster=["x"])
    assert sweeps[-1]["base"] is base
    # 4 seeds are too few for a balance interval (paired_table's MIN_SEEDS, issue 45): none
    assert np.isnan(t.loc[0, "diff_lo"]) and np.isnan(t.loc[0, "balance_a_lo"])


def test_policy_balance_says_why_an_unsettled_change_has_no_interval(sweeps):
    # 12 seeds: A's pairing is an even game (6 NPC wins, 6 monster wins), so which side leads
    # is not settled and a change of balance cannot carry an interval; B leads clearly
    GAMES[0] = frame({0: [N, M] * 6, 1: [N] * 12})
    t = ratings.policy_balance({}, {LIFE: 4}, range(12), npc=["s"], monster=["x"])
    assert np.isnan(t.loc[0, "diff_lo"]) and np.isnan(t.loc[0, "diff_hi"])
    note = t.loc[0, "note"]
    assert note.startswith("A: too close to even at 12 seeds to say which side leads")
    assert "no trustworthy interval" in note and "more seeds may settle it" in note
    # 4 seeds: too few for any balance interval, and the note says how many it needs
    GAMES[0] = frame({0: [N, M, N, M], 1: [N, N, N, M]})
    t = ratings.policy_balance({}, {LIFE: 4}, range(4), npc=["s"], monster=["x"])
    assert np.isnan(t.loc[0, "diff_lo"])
    assert t.loc[0, "note"].startswith("4 seeds are too few for a trustworthy interval")
    assert "at least 10 seeds" in t.loc[0, "note"]
    # a settled change has no note
    GAMES[0] = frame({0: [N, N, N, M] * 10, 1: [N] * 40})
    t = ratings.policy_balance({}, {LIFE: 4}, range(40), npc=["s"], monster=["x"])
    assert t.loc[0, "note"] == "" and not np.isnan(t.loc[0, "diff_lo"])


def test_entries_are_labelled_by_their_loadout_and_bad_ones_refused(sweeps):
    from labkit import ArgumentError

    GAMES[0] = frame({0: [N, M], 1: [M, N]})
    weapon = "/characters/npc/weapon"
    rr = ratings.round_robin(seeds=range(2), npc=[("h", {LIFE: 4, weapon: "revolver"})],
                             monster=["x", ("y", {"npcs": 2})])  # fmt: skip
    assert rr["pairings"][["npc", "monster"]].values.tolist() == [
        ["h life=4 weapon=revolver", "x"], ["h life=4 weapon=revolver", "y npcs=2"]]  # fmt: skip
    assert sweeps[0]["points"][1]["policies"] == ["h", "y"] and sweeps[0]["points"][1]["npcs"] == 2
    for bad in (("h",), ("h", {LIFE: 4}, 3), (3, {}), ("h", [LIFE]), 7):
        with pytest.raises(ArgumentError) as exc:
            ratings.round_robin(seeds=range(2), npc=[bad], monster=["x"])
        assert str(exc.value) == (
            f"npc/monster: an entry is a policy name or (policy, {{pointer: value}}) (got {bad!r})"
        )


def test_the_win_matrix_adds_up_repeated_pairings_and_halves_draws():
    p = pd.DataFrame({"npc": ["s", "s", "h"], "monster": ["x", "x", "x"], "npc_wins": [3, 1, 0],
                      "monster_wins": [2, 2, 5], "draws": [3, 1, 2]})  # fmt: skip
    w, names = ratings.win_matrix(p)
    assert names == ["npc: s", "npc: h", "monster: x"]
    assert w.tolist() == [[0, 0, 3 + 1.5 + 1 + 0.5], [0, 0, 1.0], [2 + 1.5 + 2 + 0.5, 6.0, 0]]


def test_beats_need_an_interval_wholly_on_one_side_of_a_half():
    p = pd.DataFrame({"npc": ["a", "a", "b", "b"], "monster": ["x", "y", "x", "y"],
                      "decided_lo": [0.6, 0.1, 0.1, 0.6],
                      "decided_hi": [0.9, 0.4, 0.4, 0.9]})  # fmt: skip
    assert ratings.cycles(p) == [["monster: x", "npc: b", "monster: y", "npc: a"]]
    edge = p.copy()
    edge.loc[0, "decided_lo"] = 0.5  # a at x: touching a half is no win
    assert ratings.cycles(edge) == []
    edge = p.copy()
    edge.loc[1, "decided_hi"] = 0.5  # y at a: touching a half is no win either
    assert ratings.cycles(edge) == []
    undecided = p.assign(decided_lo=0.3, decided_hi=0.7)
    assert ratings.cycles(undecided) == []


def test_a_round_robin_where_one_side_never_loses_has_empty_ratings(sweeps):
    GAMES[0] = frame({0: [N, N, N], 1: [N, N, None]})
    rr = ratings.round_robin(seeds=range(3), npc=["s", "h"], monster=["x"])
    assert sorted(rr) == ["cycles", "games", "pairings", "players", "ratings", "wins"]
    assert rr["ratings"].empty
    assert list(rr["ratings"].columns) == ["player", "strength", "lo", "hi", "games"]
    assert rr["players"] == ["npc: s", "npc: h", "monster: x"] and rr["cycles"] == []
    assert rr["wins"].tolist() == [[0, 0, 3.0], [0, 0, 2.5], [0.0, 0.5, 0]]
    assert rr["games"] is GAMES[0]
    base = SimulationSettings(npcs=2)
    ratings.round_robin(base, seeds=range(3), npc=["s", "h"], monster=["x"])
    assert sweeps[-1]["base"] is base


# --- Bradley–Terry by hand ---------------------------------------------------------------------
def test_two_players_strengths_and_intervals_by_hand():
    r = ratings.bradley_terry([[0, 75], [25, 0]], ["strong", "weak"], tol=1e-14)
    d = math.log(3)  # P(strong beats weak) = 3/4
    assert r["player"].tolist() == ["strong", "weak"] and r.index.tolist() == [0, 1]
    assert list(r.columns) == ["player", "strength", "lo", "hi", "games"]
    assert r["strength"].tolist() == pytest.approx([d / 2, -d / 2], abs=1e-10)
    # information of the difference: 100 games × ¾ × ¼; each strength is half of it (mean 0)
    se = math.sqrt(1 / (100 * 0.75 * 0.25)) / 2
    z = 1.959963984540054
    assert r["lo"].tolist() == pytest.approx([d / 2 - z * se, -d / 2 - z * se], abs=1e-9)
    assert r["hi"].tolist() == pytest.approx([d / 2 + z * se, -d / 2 + z * se], abs=1e-9)
    assert r["games"].tolist() == [100.0, 100.0]


def test_three_players_sum_to_zero_strongest_first_and_count_their_games():
    wins = [[0, 30, 40], [20, 0, 30], [10, 20, 0]]
    r = ratings.bradley_terry(wins, ["a", "b", "c"])
    assert r["player"].tolist() == ["a", "b", "c"]
    assert sum(r["strength"]) == pytest.approx(0.0, abs=1e-12)
    assert r.set_index("player")["games"].to_dict() == {"a": 100.0, "b": 100.0, "c": 100.0}
    flipped = ratings.bradley_terry(np.array(wins).T, ["a", "b", "c"])
    assert flipped["player"].tolist() == ["c", "b", "a"]
    # the likelihood's own equations at the fit: each player's wins = their expected wins
    s = r.set_index("player")["strength"].reindex(["a", "b", "c"]).to_numpy()
    w = np.array(wins, float)
    p = 1 / (1 + np.exp(s[None, :] - s[:, None]))
    # (to 1e-9 games: the fit's own tol 1e-12, not choix's default 1e-8, leaves 1e-8)
    np.testing.assert_allclose(((w + w.T) * p).sum(1), w.sum(1), rtol=0, atol=1e-9)
    # equal players keep their given order
    tie = ratings.bradley_terry([[0, 5, 5], [5, 0, 5], [5, 5, 0]], ["x", "y", "z"])
    assert tie["player"].tolist() == ["x", "y", "z"]


def test_single_games_are_enough_to_connect_players():
    r = ratings.bradley_terry([[0, 1], [1, 0]])
    assert r["player"].tolist() == ["0", "1"] and r["strength"].tolist() == pytest.approx([0, 0])


def test_bad_win_matrices_are_refused_word_for_word():
    from labkit import ArgumentError

    def refusal(*args):
        with pytest.raises(ArgumentError) as exc:
            ratings.bradley_terry(*args)
        return str(exc.value)

    square = "wins: must be a square matrix of at least 2 players (got {})"
    assert refusal([[0, 1, 2]]) == square.format((1, 3))
    assert refusal([[0, 1], [1, 0], [1, 1]]) == square.format((3, 2))
    assert refusal([[3]]) == square.format((1, 1))
    assert refusal([1, 2]) == square.format((2,))
    assert refusal([[0, -1], [2, 0]]) == "wins: must hold game counts >= 0 (got -1.0)"
    assert refusal([[0, np.nan], [2, 0]]).startswith("wins: must hold game counts >= 0")
    assert refusal([[0, 1], [1, 0]], ["a"]) == "players: needs 2 names (got 1)"
    assert refusal([[0, 5], [0, 0]], ["a", "b"]) == (
        "wins: the strengths are not defined: some player never lost (or never won) against "
        "the rest (got ['a', 'b'])")  # fmt: skip


def test_players_must_reach_each_other_both_ways():
    edge = np.array([[False, False, True], [True, False, False], [True, False, False]])
    assert not ratings._strongly_connected(edge)  # nobody beats player 1
    ring = np.array([[False, True, False], [False, False, True], [True, False, False]])
    assert ratings._strongly_connected(ring)


def test_a_pairings_intervals_are_400_resamples_from_its_own_stream(sweeps):
    # 200 games: fine enough that the resample count and the stream show in the intervals
    gen = np.random.default_rng(0)
    who = [[N, M, None][i] for i in gen.choice(3, 200, p=[0.5, 0.35, 0.15])]
    GAMES[0] = frame({0: [N, M], 1: who})
    p = ratings.round_robin(seeds=range(200), npc=["s", "h"], monster=["x"])["pairings"]
    m = game_measures(sorted_games(GAMES[0], 1))
    t = paired_table(m, m, metrics=["npc_win", "monster_win", "balance"], bootstrap=400,
                     rng=1).set_index("metric")  # fmt: skip
    for col, metric in (("npc_win", "npc_win"), ("balance", "balance")):
        got = (p.loc[1, f"{col}_lo"], p.loc[1, f"{col}_hi"])
        assert got == (t.loc[metric, "a_lo"], t.loc[metric, "a_hi"])


def test_the_decided_share_of_an_even_pairing_and_of_one_decided_game(sweeps):
    GAMES[0] = frame({0: [N, M, N, M], 1: [None, None, N]})
    p = ratings.round_robin(seeds=range(4), npc=["s", "h"], monster=["x"])["pairings"]
    lo, hi = wilson_interval(2, 4)
    assert (p.loc[0, "npc_share_of_decided"], p.loc[0, "decided_lo"]) == (0.5, float(lo))
    assert p.loc[0, "decided_hi"] == float(hi)
    assert p.loc[1, "npc_share_of_decided"] == 1.0  # one decided game, won by the NPC


def test_a_knob_one_entry_leaves_out_keeps_the_bases_value(sweeps):
    GAMES[0] = frame({0: [N, M], 1: [M, N]})
    base = SimulationSettings(balance={LIFE: 7})
    ratings.round_robin(base, seeds=range(2), npc=["s", ("h", {LIFE: 3})], monster=["x"])
    assert [pt[LIFE] for pt in sweeps[0]["points"]] == [7, 3]


def test_bradley_terry_leaves_the_callers_matrix_alone():
    wins = np.array([[4.0, 30, 40], [20, 0, 30], [10, 20, 0]])
    ratings.bradley_terry(wins)
    assert wins[0, 0] == 4.0


def test_two_groups_that_barely_met_get_strengths_the_fit_can_settle_on():
    # two groups of three, every pair inside a group 50 games each way, and one thousandth of a
    # game each way between the groups: every player is as strong as any other (symmetry). At
    # 1e-12 the fit's L1 change stalls at rounding noise; it settles at a looser tolerance.
    w = np.zeros((6, 6))
    for i in range(6):
        for j in range(6):
            if i != j and (i < 3) == (j < 3):
                w[i, j] = 50
    w[0, 3] = w[3, 0] = 0.001
    r = ratings.bradley_terry(w)
    assert r["strength"].abs().max() < 1e-8 and len(r) == 6


def test_a_fit_that_never_settles_is_refused_in_words(monkeypatch):
    import choix

    calls = []

    def stalls(w, alpha=None, max_iter=100, tol=1e-8):  # choix's defaults
        calls.append((tol, max_iter, alpha))
        raise RuntimeError(f"Did not converge after {max_iter} iterations")

    monkeypatch.setattr(choix, "ilsr_pairwise_dense", stalls)
    with pytest.raises(ArgumentError) as err:
        ratings.bradley_terry([[0, 75], [25, 0]])
    assert (
        str(err.value) == "wins: the strengths do not settle (the players barely met) (got (2, 2))"
    )
    # up to 10,000 iterations at each tolerance, tenfold looser each time, without a prior
    assert [c[0] for c in calls] == pytest.approx([1e-12, 1e-11, 1e-10, 1e-9, 1e-8])
    assert {(c[1], c[2]) for c in calls} == {(10_000, 0.0)}
    calls.clear()
    with pytest.raises(ArgumentError):
        ratings.bradley_terry([[0, 75], [25, 0]], tol=1e-10)  # from the tolerance asked for
    assert [c[0] for c in calls] == [1e-10, 1e-9, 1e-8]
    calls.clear()
    with pytest.raises(ArgumentError):
        ratings.bradley_terry([[0, 75], [25, 0]], tol=1e-6)  # looser than 1e-8: tried alone
    assert [c[0] for c in calls] == [1e-6]
