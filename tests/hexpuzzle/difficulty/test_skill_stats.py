"""Sufficient statistics of the skill fit: exact collapsing, blocks, and compact rows."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle.difficulty import skill_joint as J
from labkit.hexpuzzle.difficulty import skill_stats as S
from labkit.hexpuzzle.difficulty.skill import fit_skill_model
from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill
from labkit.hexpuzzle.difficulty.telemetry_file import Telemetry

IDS = [f"L{i}" for i in range(6)]
BETA = np.linspace(-1.0, 1.5, 6)


@pytest.fixture(scope="module")
def table():
    theta = np.random.default_rng(3).normal(0, 1.2, 400)
    return telemetry_from_skill(IDS, BETA, theta, rng=4, max_attempts=3, learning=0.4,
                                quit_ability=0.8, quit_rate=0.4)  # fmt: skip


def _loaded(table, tmp_path):
    path = tmp_path / "t.parquet"
    Telemetry(table).save(path)
    return Telemetry.load(path)


def test_fit_rows_compact_equal_the_tables(table, tmp_path):
    tel = _loaded(table, tmp_path)
    src, lvl, code, names, att, won = S.fit_rows(tel, IDS[1:])  # L0 unknown: -1
    assert src is tel and tel._table is None and code.dtype == np.int32
    ref = S.fit_rows(table, IDS[1:])
    assert ref[0] is not tel
    for got, want in zip((lvl, code, names, att, won), ref[1:]):
        assert np.array_equal(got, want)
    assert (lvl == -1).sum() == (table["level"] == "L0").sum() > 0


def test_fit_of_a_loaded_document_equals_the_fit_of_its_table(table, tmp_path):
    tel = _loaded(table, tmp_path)
    a = fit_skill_model(tel, IDS, features=False)
    assert tel._table is None  # the fit never built the structured table
    b = fit_skill_model(table, IDS, features=False)
    np.testing.assert_allclose(a.difficulty, b.difficulty, rtol=0, atol=1e-9)
    np.testing.assert_allclose(a.ability, b.ability, rtol=0, atol=1e-9)
    assert a.player_ids == b.player_ids and a.fit_info == b.fit_info
    assert a.source[0] is tel  # a report reads the document (its table built then)
    ra, rb = a.report(folds=2, rng=0), b.report(folds=2, rng=0)
    assert (ra.n_players, ra.n_attempts) == (rb.n_players, rb.n_attempts)
    assert ra.n_players == 400
    for name, metrics in ra.metrics.items():
        for key, value in metrics.items():
            assert value == pytest.approx(rb.metrics[name][key], abs=1e-9), (name, key)


def _events(table, block, monkeypatch):
    monkeypatch.setattr(S, "EVENT_BLOCK", block)
    _, lvl, code, names, att, won = S.fit_rows(table, IDS)
    return S.player_events(lvl, code, att, won, len(IDS), len(names), retries=True, dropout=True)


def test_events_in_blocks_of_players_equal_one_block(table, monkeypatch):
    whole = _events(table, 1 << 20, monkeypatch)
    parts = _events(table, 97, monkeypatch)  # many blocks of whole players
    for name in ("indptr", "item", "y1", "y0", "weight", "inverse", "counts", "x"):
        assert np.array_equal(getattr(whole, name), getattr(parts, name)), name
    assert (whole.n_decisions, whole.n_quits) == (parts.n_decisions, parts.n_quits)


def test_collapse_is_exact_and_keeps_the_likelihood(table):
    _, lvl, code, names, att, won = S.fit_rows(table, IDS)
    ev = J.events(lvl, code, att, won.astype(bool), len(IDS), len(names), retries=True,
                  dropout=True)  # fmt: skip
    small = S.collapse(ev)
    assert small.n_players < ev.n_players and small.weight.sum() == ev.n_players
    for p in range(ev.n_players):  # every player's history is its row's, entry for entry
        r = small.inverse[p]
        a, b = slice(ev.indptr[p], ev.indptr[p + 1]), slice(small.indptr[r], small.indptr[r + 1])
        assert np.array_equal(ev.item[a], small.item[b]) and np.array_equal(ev.y1[a], small.y1[b])
        assert np.array_equal(ev.y0[a], small.y0[b])


def test_collapse_of_its_own_events_equals_the_plain_collapse(table):
    _, lvl, code, names, att, won = S.fit_rows(table, IDS)

    def fresh():
        return J.events(lvl, code, att, won.astype(bool), len(IDS), len(names), retries=True,
                        dropout=True)  # fmt: skip

    plain, spent = S.collapse(fresh()), S.collapse(fresh(), own=True)
    for name in ("indptr", "item", "y1", "y0", "weight", "inverse", "counts", "x"):
        assert np.array_equal(getattr(plain, name), getattr(spent, name)), name
    # no two histories alike: the rows stay as they are, each counted once
    unique = S.collapse(plain)
    assert unique.n_players == plain.n_players and unique.item is plain.item
    assert np.array_equal(unique.weight, plain.weight)
    assert np.array_equal(unique.inverse, plain.inverse)  # each player keeps its row


def test_impossible_rows_found_in_blocks_of_players_equal_one_block(table, monkeypatch):
    from labkit.hexpuzzle.difficulty import _telemetry_possible as P

    _, lvl, code, _, att, won = S.fit_rows(table, IDS)
    gen = np.random.default_rng(5)
    att = att.copy()
    att[gen.choice(len(att), 12, replace=False)] += 1  # gaps and attempts after a win
    order = gen.permutation(len(att))  # rows in any order: blocks are ranges of player codes
    args = (lvl[order], code[order], att[order], won[order])
    whole = P.find(*args)
    monkeypatch.setattr(P, "BLOCK", 50)
    parts = P.find(*args)
    assert whole.counts["gaps"] + whole.counts["after_win"] >= 12
    assert parts == whole and parts.first is not None
