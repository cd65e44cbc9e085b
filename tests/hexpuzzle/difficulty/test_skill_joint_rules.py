"""skill_joint's bookkeeping written out by hand: the quit decisions and their covariates, where
each parameter sits and its prior, the items' derivatives, and the information in blocks."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle import telemetry_from_skill
from labkit.hexpuzzle.difficulty import _skill_kernels, skill_joint
from labkit.hexpuzzle.difficulty.skill_quit import ATTEMPT_CAP, N_TERMS, RUN_CAP, design

IDS = [f"L{i:02d}" for i in range(9)]
BETA = np.linspace(-1.5, 2.0, 9)


def _table(seed, players, gaps=False):
    """Rows (level, player, attempt, won) of simulated players; with ``gaps`` some levels are
    skipped by some players (a level left out of a player's sequence)."""
    theta = np.random.default_rng(seed).normal(0, 1.2, players)
    t = telemetry_from_skill(IDS, BETA, theta, rng=seed, max_attempts=3, learning=0.5,
                             quit_ability=1.0)  # fmt: skip
    lvl = np.array([IDS.index(v) for v in t["level"].tolist()])
    _, pid = np.unique(t["player"], return_inverse=True)
    pid, att, won = pid.ravel(), np.asarray(t["attempt"]), np.asarray(t["won"], bool)
    if gaps:
        keep = ~((lvl == 2) & (pid % 3 == 0))
        lvl, pid, att, won = lvl[keep], pid[keep], att[keep], won[keep]
    shuffle = np.random.default_rng(seed + 1).permutation(len(lvl))  # row order must not matter
    return lvl[shuffle], pid[shuffle], att[shuffle], won[shuffle]


def reference_decisions(level, player, attempt, won, ends=None):
    """The docstring of ``decisions``, player by player, level by level."""
    rows = sorted(zip(player.tolist(), level.tolist(), attempt.tolist(), won.tolist()))
    last, distinct = ends if ends is not None else (max(level), len(set(level.tolist())))
    out = []
    for p in sorted(set(player.tolist())):
        mine = [r for r in rows if r[0] == p]
        levels = sorted({r[1] for r in mine})
        run = 0
        for pos, lv in enumerate(levels):
            tries = [r for r in mine if r[1] == lv]
            first = any(r[2] == 1 and r[3] for r in tries)
            run = 0 if first else run + 1
            is_end = pos == len(levels) - 1
            if is_end and (lv == last or len(levels) >= distinct):
                continue  # no decision after the campaign's end or after every level
            out.append((p, lv, any(r[3] for r in tries), run, len(tries), pos, is_end))
    return out


@pytest.mark.parametrize("gaps", [False, True])
def test_decisions_follow_each_players_levels_in_campaign_order(gaps):
    level, player, attempt, won = _table(seed=3, players=70, gaps=gaps)
    d = skill_joint.decisions(level, player, attempt, won, 70)
    got = list(zip(*(d[k].tolist() for k in ("player", "level", "won", "run", "attempt",
                                              "position", "quit"))))  # fmt: skip
    assert got == reference_decisions(level, player, attempt, won)
    assert any(r[3] >= 2 for r in got) and any(r[6] for r in got)  # runs and quits both occur
    assert d["attempt"].dtype.kind == d["run"].dtype.kind == "i" and d["won"].dtype == bool


def test_the_first_players_run_starts_with_their_first_level():
    # by hand: player 0 loses L0 once, then wins it; wins L1 at once; loses L2 twice
    # player 1 wins L0 and L1 at once, then quits
    rows = [(0, 0, 1, 0), (0, 0, 2, 1), (0, 1, 1, 1), (0, 2, 1, 0), (0, 2, 2, 0), (0, 3, 1, 1),
            (1, 0, 1, 1), (1, 1, 1, 1)]  # (player, level, attempt, won)  # fmt: skip
    player, level, attempt, won = (np.array(c) for c in zip(*rows))
    d = skill_joint.decisions(level, player, attempt, won.astype(bool), 2)
    # player 0 played every level, the last one last: no decision after L3
    assert d["player"].tolist() == [0, 0, 0, 1, 1] and d["level"].tolist() == [0, 1, 2, 0, 1]
    assert d["run"].tolist() == [1, 0, 1, 0, 0]
    assert d["attempt"].tolist() == [2, 1, 2, 1, 1]
    assert d["won"].tolist() == [True, True, False, True, True]
    assert d["position"].tolist() == [0, 1, 2, 0, 1]
    assert d["quit"].tolist() == [False, False, False, False, True]


def test_decisions_of_some_players_use_the_whole_tables_end():
    level, player, attempt, won = _table(seed=4, players=40)
    some = player < 5
    ends = (int(level.max()), len(np.unique(level)))
    d = skill_joint.decisions(level[some], player[some], attempt[some], won[some], 40, ends=ends)
    want = reference_decisions(level[some], player[some], attempt[some], won[some], ends=ends)
    assert list(zip(d["player"].tolist(), d["level"].tolist(), d["quit"].tolist())) == [
        (r[0], r[1], r[6]) for r in want
    ]
    # a campaign end the rows alone do not show: a decision after the rows' last level
    ends = (int(level.max()) + 1, len(np.unique(level)) + 1)
    d = skill_joint.decisions(level[some], player[some], attempt[some], won[some], 40, ends=ends)
    assert len(d["player"]) == len(reference_decisions(level[some], player[some], attempt[some],
                                                       won[some], ends=ends))  # fmt: skip


def test_each_decision_is_an_item_whose_covariates_are_its_own():
    level, player, attempt, won = _table(seed=5, players=60, gaps=True)
    n = len(IDS)
    ev = skill_joint.events(level, player, attempt, won, n, 60, retries=True, dropout=True)
    d = skill_joint.decisions(level, player, attempt, won, 60)
    rows = design(d["won"], np.minimum(d["run"], RUN_CAP), np.minimum(d["attempt"], ATTEMPT_CAP),
                  d["position"])  # fmt: skip
    assert ev.x.shape[1] == N_TERMS - 1
    for p in range(60):
        want: dict[tuple, list[float]] = {}
        for k in np.flatnonzero(d["player"] == p):
            tally = want.setdefault(tuple(rows[k]), [0.0, 0.0])
            tally[0 if d["quit"][k] else 1] += 1
        got: dict[tuple, list[float]] = {}
        for e in range(ev.indptr[p], ev.indptr[p + 1]):
            if ev.item[e] >= n * ATTEMPT_CAP:
                tally = got.setdefault(tuple(ev.x[ev.item[e] - n * ATTEMPT_CAP]), [0.0, 0.0])
                tally[0] += ev.y1[e]
                tally[1] += ev.y0[e]
        assert got == want, p
    assert (ev.n_decisions, ev.n_quits) == (len(d["quit"]), int(d["quit"].sum()))
    # the pattern keys decode to the same covariates
    np.testing.assert_array_equal(skill_joint.pattern_design(ev.patterns, n), ev.x)


@pytest.mark.parametrize("retries", [False, True])
@pytest.mark.parametrize("dropout", [False, True])
@pytest.mark.parametrize("two_pl", [False, True])
def test_the_layout_puts_each_parameter_in_its_place_with_its_prior(retries, dropout, two_pl):
    n = 5
    lay = skill_joint.Layout(n, retries, dropout, two_pl)
    names = ["beta"] * n + ["log_sigma"] + ["learning"] * retries + ["quit"] * (
        N_TERMS * dropout) + ["log_alpha"] * (n * two_pl)  # fmt: skip
    assert lay.size == len(names)
    where = {k: [i for i, m in enumerate(names) if m == k] for k in set(names)}
    assert (
        list(range(lay.size))[lay.beta] == where["beta"] and lay.log_sigma == where["log_sigma"][0]
    )
    assert lay.learning == (where["learning"][0] if retries else None)
    assert (list(range(lay.size))[lay.quit] if dropout else None) == where.get("quit")
    assert (list(range(lay.size))[lay.log_alpha] if two_pl else None) == where.get("log_alpha")
    sd = {"beta": 5.0, "learning": 3.0, "quit": 3.0, "log_alpha": 0.3}
    want = [0.0 if k == "log_sigma" else 1 / sd[k] ** 2 for k in names]  # σ has a flat prior
    np.testing.assert_allclose(lay.prior_precision(), want, rtol=1e-15)


def _events(seed, players, dropout=True):
    level, player, attempt, won = _table(seed, players)
    return skill_joint.events(level, player, attempt, won, len(IDS), players, retries=True,
                              dropout=dropout)  # fmt: skip


@pytest.mark.parametrize(
    ("retries", "dropout", "two_pl", "quit_items"),
    [(True, True, True, True), (False, True, False, True), (True, False, True, True),
     (False, False, False, False)],
)  # fmt: skip
def test_each_items_log_odds_and_its_derivatives(retries, dropout, two_pl, quit_items):
    # quit items with dropout=False in the layout: their log-odds are 0, whatever the parameters
    ev = _events(seed=6, players=30, dropout=quit_items)
    lay = skill_joint.Layout(len(IDS), retries, dropout, two_pl)
    par = np.random.default_rng(7).normal(0, 0.4, lay.size)
    z = np.array([-1.3, 0.0, 0.7])
    s, c, sigma = skill_joint._offsets(par, lay, ev)
    s2, c2, sigma2, D, E = skill_joint._items(par, lay, ev)
    np.testing.assert_allclose(s2, s, rtol=1e-14)
    np.testing.assert_allclose(c2, c, rtol=1e-14, atol=1e-15)
    assert sigma == sigma2 == pytest.approx(np.exp(par[lay.log_sigma]))
    # by hand: response item (level l, extra attempts e)
    n, cap = len(IDS), ATTEMPT_CAP
    alpha = np.exp(par[lay.log_alpha]) if two_pl else np.ones(n)
    lam = par[lay.learning] if retries else 0.0
    for l_ in (0, 4, 8):
        for e in (0, 2, cap - 1):
            j = l_ * cap + e
            assert s[j] == pytest.approx(alpha[l_])
            assert c[j] == pytest.approx(-alpha[l_] * par[lay.beta][l_] + lam * e)
    if quit_items:
        nr = n * cap
        if dropout:
            g = par[lay.quit]
            np.testing.assert_allclose(s[nr:], g[1])
            np.testing.assert_allclose(c[nr:], ev.x @ np.r_[g[0], g[2:]])
        else:
            assert not s[nr:].any() and not c[nr:].any()

    # dη/dpar = D + E·z, against central differences of η = s·σ·z + c
    def eta(p):
        s_, c_, sg = skill_joint._offsets(p, lay, ev)
        return s_[:, None] * sg * z[None, :] + c_[:, None]

    h = 1e-6
    Dd, Ed = D.toarray(), E.toarray()
    for i in range(lay.size):
        step = np.zeros(lay.size)
        step[i] = h
        num = (eta(par + step) - eta(par - step)) / (2 * h)
        np.testing.assert_allclose(Dd[:, i, None] + Ed[:, i, None] * z[None, :], num, atol=1e-6)


def test_evaluate_returns_the_per_entry_parts_only_when_asked(monkeypatch):
    ev = _events(seed=10, players=25)
    lay = skill_joint.Layout(len(IDS), True, True, False)
    par = np.zeros(lay.size)
    z, logw = skill_joint.nodes(11)
    total, grad, u, v, mean, parts = skill_joint.evaluate(par, lay, ev, z, logw)
    assert (len(u), len(v), len(mean), parts) == (1, 1, 1, None)
    total2, grad2, u, v, mean, (D, E) = skill_joint.evaluate(par, lay, ev, z, logw, want=True)
    assert (len(u), len(v), len(mean)) == (len(ev.item), len(ev.item), ev.n_players)
    assert total2 == total and (grad2 == grad).all() and D.shape == (ev.n_items, lay.size)
    # the threaded kernel from THREAD_ENTRIES entries on
    used = []
    for name in ("marginal", "marginal_threads"):
        real = getattr(_skill_kernels, name)
        spy = lambda *a, real=real, name=name: used.append(name) or real(*a)  # noqa: E731
        monkeypatch.setattr(_skill_kernels, name, spy)
    for entries, kernel in ((len(ev.item), "marginal_threads"), (len(ev.item) + 1, "marginal")):
        monkeypatch.setattr(skill_joint, "THREAD_ENTRIES", entries)
        used.clear()
        assert skill_joint.evaluate(par, lay, ev, z, logw)[0] == pytest.approx(total, rel=1e-12)
        assert used == [kernel]


def test_the_information_is_the_same_summed_in_blocks_and_is_sum_of_score_outer_products(
    monkeypatch,
):
    ev = _events(seed=11, players=23)
    ev.weight = np.random.default_rng(0).integers(1, 4, ev.n_players).astype(float)
    lay = skill_joint.Layout(len(IDS), True, True, True)
    par = np.random.default_rng(12).normal(0, 0.3, lay.size)
    z, logw = skill_joint.nodes(15)
    whole, mean = skill_joint._information(par, lay, ev, z, logw)
    _, _, u, v, m, (D, E) = skill_joint.evaluate(par, lay, ev, z, logw, want=True)
    want = np.diag(lay.prior_precision())
    for p in range(ev.n_players):
        sl = slice(ev.indptr[p], ev.indptr[p + 1])
        score = D[ev.item[sl]].toarray() * u[sl, None] + E[ev.item[sl]].toarray() * v[sl, None]
        score = score.sum(axis=0)
        want += ev.weight[p] * np.outer(score, score)
    np.testing.assert_allclose(whole, want, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(mean, m)
    monkeypatch.setattr(skill_joint, "INFO_BLOCK", 5)  # 23 rows: blocks of 5, the last of 3
    blocks, _ = skill_joint._information(par, lay, ev, z, logw)
    np.testing.assert_allclose(blocks, whole, rtol=1e-12, atol=1e-12)


def test_the_nodes_are_a_normal_grid_over_five_sds():
    z, logw = skill_joint.nodes()
    assert len(z) == skill_joint.NODES == 41 and (z[0], z[-1]) == (-5.0, 5.0)
    w = np.exp(logw)
    assert w.sum() == pytest.approx(1.0, abs=1e-12)
    assert (w * z).sum() == pytest.approx(0.0, abs=1e-12)
    assert (w * z * z).sum() == pytest.approx(1.0, abs=1e-5)  # E[Z²] of a standard normal
    assert len(skill_joint.nodes(11)[0]) == 11


@pytest.mark.parametrize("retries", [False, True])
def test_events_count_first_attempts_or_every_attempt(retries):
    level, player, attempt, won = _table(seed=12, players=30)
    n = len(IDS)
    ev = skill_joint.events(level, player, attempt, won, n + 1, 32, retries=retries,
                            dropout=False)  # fmt: skip
    ev.n_levels = n  # (one more level than anybody played: counted as 0 first attempts)
    assert ev.n_players == 32 and len(ev.indptr) == 33  # two players without rows at the end
    assert ev.indptr[-1] == ev.indptr[-3] == len(ev.item)
    np.testing.assert_array_equal(ev.counts[:n], np.bincount(level[attempt == 1], minlength=n))
    assert len(ev.counts) == n + 1 and ev.counts[n] == 0
    assert (ev.n_decisions, ev.n_quits, ev.x.shape, len(ev.patterns)) == (0, 0, (0, N_TERMS - 1), 0)
    assert ev.patterns.dtype == np.int64
    for p in (0, 7, 29):  # each player's responses by (level, extra attempts), by hand
        want: dict[int, list[float]] = {}
        for lv, a, w in zip(level[player == p], attempt[player == p], won[player == p]):
            if retries or a == 1:
                tally = want.setdefault(lv * ATTEMPT_CAP + min(a, ATTEMPT_CAP) - 1, [0.0, 0.0])
                tally[0 if w else 1] += 1
        sl = slice(ev.indptr[p], ev.indptr[p + 1])
        got = {int(i): [a, b] for i, a, b in zip(ev.item[sl], ev.y1[sl], ev.y0[sl])}
        assert got == want
    assert ev.y1.dtype == ev.y0.dtype == np.float64


def test_events_of_some_players_decide_by_the_whole_tables_end():
    level, player, attempt, won = _table(seed=13, players=40)
    some = player < 6
    ends = (int(level.max()) + 1, len(np.unique(level)) + 1)  # the campaign goes on beyond
    kw = {"retries": True, "dropout": True}
    ev = skill_joint.events(level[some], player[some], attempt[some], won[some], len(IDS), 40,
                            ends=ends, **kw)  # fmt: skip
    want = reference_decisions(level[some], player[some], attempt[some], won[some], ends=ends)
    assert (ev.n_decisions, ev.n_quits) == (len(want), sum(r[6] for r in want))
    alone = skill_joint.events(level[some], player[some], attempt[some], won[some], len(IDS), 40,
                               **kw)  # fmt: skip
    assert alone.n_decisions < ev.n_decisions  # without ``ends`` the rows' own end counts
