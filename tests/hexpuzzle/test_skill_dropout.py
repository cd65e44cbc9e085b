"""Skill model II: quitting that depends on ability, retries, the fast simulator, robust fits."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.special import expit

from labkit.hexpuzzle import (
    SkillModelError,
    fit_skill_model,
    telemetry_from_skill,
)
from labkit.hexpuzzle.difficulty import skill_joint
from tests.hexpuzzle.difficulty.test_skill_joint import BETA, IDS, _events  # one twelve-level world


def _table(rows):
    from labkit.hexpuzzle.difficulty.telemetry import make_table

    return make_table([(lv, p, a, a == 1 and w, 0, 0, 0, 0, 1.0, w) for lv, p, a, w in rows])


@pytest.mark.parametrize("dropout", ["ignore", "model"])
def test_tiny_data_give_a_model(dropout):
    rows = [(f"L{j:02d}", f"p{i}", 1, (i + j) % 2 == 0) for i in range(3) for j in range(3)]
    m = fit_skill_model(_table(rows), IDS, features=False, dropout=dropout)
    played = m.difficulty[:3]
    assert np.isfinite(played).all() and (m.difficulty_ci[:3, 0] <= played).all()
    assert np.isnan(m.difficulty[3:]).all() and m.table()[5]["band"] == "unplayed"
    assert json.loads(json.dumps(m.to_dict()))["levels"][5]["difficulty"] is None


@pytest.mark.parametrize(("won", "said"), [(True, "won"), (False, "lost")])
@pytest.mark.parametrize("dropout", ["ignore", "model"])
def test_all_wins_or_all_losses_are_a_one_line_reason(won, said, dropout):
    """They used to fit, to difficulties the data cannot give (issue 46)."""
    rows = [(f"L{j:02d}", f"p{i}", 1, won) for i in range(4) for j in range(3)]
    with pytest.raises(SkillModelError) as info:
        fit_skill_model(_table(rows), IDS, features=False, dropout=dropout)
    assert str(info.value) == (f"telemetry: every attempt was {said}: the data cannot tell how "
                               "hard any level is (got 4 players, 3 levels)")  # fmt: skip


def test_one_player_is_a_one_line_reason():
    with pytest.raises(SkillModelError, match="at least two players"):
        fit_skill_model(_table([("L00", "p0", 1, True)]), IDS, features=False)


def test_success_on_retries_and_parameter_draws():
    theta = np.random.default_rng(2).normal(0, 1, 400)
    t = telemetry_from_skill(IDS, BETA, theta, rng=2, max_attempts=3, learning=0.6)
    m = fit_skill_model(t, IDS, features=False)
    b = m.difficulty_of("L03")
    first, third = m.success("L03", np.array([0.0, 1.0])), m.success("L03", 0.0, attempt=3)
    np.testing.assert_allclose(first, expit(np.array([0.0, 1.0]) - b))
    assert third == pytest.approx(expit(-b + 2 * m.learning))
    draws = m.parameter_draws(4000, rng=0)
    assert draws["difficulty"].shape == (4000, 12) and draws["quit"].shape == (4000, 9)
    sd = (m.difficulty_ci[3, 1] - m.difficulty_ci[3, 0]) / (2 * 1.959964)
    assert draws["difficulty"][:, 3].std() == pytest.approx(sd, rel=0.06)
    assert np.median(draws["ability_sd"]) == pytest.approx(m.ability_sd, rel=0.02)
    assert draws["learning"].std() == pytest.approx(np.sqrt(m.global_cov[1, 1]), rel=0.06)


def _collapsed_agrees(ev, rows):
    from labkit.hexpuzzle.difficulty.skill_stats import collapse

    merged = collapse(ev)
    assert merged.n_players == rows
    assert merged.weight.sum() == ev.n_players
    lay = skill_joint.Layout(len(IDS), True, True, False)
    par = np.random.default_rng(5).normal(0, 0.3, lay.size)
    z, logw = skill_joint.nodes()
    full = skill_joint.evaluate(par, lay, ev, z, logw, want=True)
    few = skill_joint.evaluate(par, lay, merged, z, logw, want=True)
    assert few[0] == pytest.approx(full[0], rel=1e-12)
    np.testing.assert_allclose(few[1], full[1], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(few[4][merged.inverse], full[4], atol=1e-12)  # every player
    info_full = skill_joint._information(par, lay, ev, z, logw)[0]
    info_few = skill_joint._information(par, lay, merged, z, logw)[0]
    np.testing.assert_allclose(info_few, info_full, rtol=1e-9, atol=1e-9)
    return merged


def test_players_with_one_history_are_one_weighted_row_and_the_likelihood_is_unchanged():
    ev = _events(seed=6, players=300)
    rows = {
        (tuple(ev.item[a:b]), tuple(ev.y1[a:b]), tuple(ev.y0[a:b]))
        for a, b in zip(ev.indptr[:-1], ev.indptr[1:])
    }  # the distinct histories, counted by hand
    assert len(rows) < ev.n_players  # some players did collapse
    merged = _collapsed_agrees(ev, len(rows))
    # every player's row holds exactly that player's history
    for i in range(ev.n_players):
        r = merged.inverse[i]
        a, b = merged.indptr[r], merged.indptr[r + 1]
        c, d = ev.indptr[i], ev.indptr[i + 1]
        np.testing.assert_array_equal(merged.item[a:b], ev.item[c:d])
        np.testing.assert_array_equal(merged.y1[a:b], ev.y1[c:d])


def test_a_hash_collision_never_merges_two_different_histories(monkeypatch):
    from labkit.hexpuzzle.difficulty import skill_stats

    ev = _events(seed=6, players=300)
    distinct = len(
        {(tuple(ev.item[a:b]), tuple(ev.y1[a:b]), tuple(ev.y0[a:b]))
         for a, b in zip(ev.indptr[:-1], ev.indptr[1:])}
    )  # fmt: skip
    # every history hashes alike: only the exact comparison keeps them apart
    monkeypatch.setattr(skill_stats, "_mix", lambda h: np.zeros_like(h))
    merged = skill_stats.collapse(ev)
    assert distinct < merged.n_players <= ev.n_players  # nothing merged wrongly
    monkeypatch.undo()
    _collapsed_agrees(ev, distinct)


def test_events_built_in_blocks_of_players_are_the_events_of_the_whole_table(monkeypatch):
    from labkit.hexpuzzle.difficulty import skill_stats

    theta = np.random.default_rng(7).normal(0, 1.2, 400)
    t = telemetry_from_skill(IDS, BETA, theta, rng=7, max_attempts=3, learning=0.5,
                             quit_ability=1.0)  # fmt: skip
    shuffle = np.random.default_rng(8).permutation(len(t))  # rows in any order
    lvl = np.array([IDS.index(v) for v in t["level"].tolist()])[shuffle]
    players, pidx = np.unique(t["player"], return_inverse=True)
    args = (lvl, pidx[shuffle], t["attempt"][shuffle], t["won"][shuffle], len(IDS), len(players))
    whole = skill_stats.player_events(*args, retries=True, dropout=True)
    monkeypatch.setattr(skill_stats, "EVENT_BLOCK", 500)  # about 50 players a block
    blocks = skill_stats.player_events(*args, retries=True, dropout=True)
    for name in ("indptr", "item", "y1", "y0", "x", "counts", "weight", "inverse", "patterns"):
        np.testing.assert_array_equal(getattr(blocks, name), getattr(whole, name), err_msg=name)
    assert (blocks.n_decisions, blocks.n_quits) == (whole.n_decisions, whole.n_quits)
