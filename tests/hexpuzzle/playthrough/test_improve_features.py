"""``improve_campaign(..., features=table)``: a campaign of any game's levels improved (issue 49).

The world is ``test_model_features``'s known truth (board size, enemies, par time; weaker players
and losers quit sooner). Its true reach is computed from the truth alone by that file's
``true_funnel``, so the improved order is judged against the truth, not against the model.
"""

from __future__ import annotations

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.playthrough.improve import FunnelGoal, improve_campaign
from tests.hexpuzzle.playthrough.test_model_features import fitted, true_funnel  # noqa: F401


@pytest.fixture(scope="module")
def hard_first(fitted):  # noqa: F811
    model, feats, order, beta = fitted
    idx = {lid: i for i, lid in enumerate(feats.index)}
    # eight played levels and four nobody played (predicted from their rows), hardest first
    chosen = list(order[::5]) + list(feats.index[60:64])
    campaign = sorted(chosen, key=lambda lid: -beta[idx[lid]])
    return campaign, (lambda ids: true_funnel(np.array([beta[idx[lid]] for lid in ids])))


def test_a_feature_campaign_is_reordered_to_keep_more_players(fitted, hard_first):  # noqa: F811
    model, feats, _, _ = fitted
    campaign, truth = hard_first
    goal = FunnelGoal(reach_last=0.6, max_quit_hazard=0.1, max_band_drop=None)
    imp = improve_campaign(campaign, model, goal, features=feats, players=2000, draws=20,
                           rng=3, evaluations=400)  # fmt: skip
    assert sorted(imp.order) == sorted(campaign) and imp.order != campaign
    assert list(imp.after.level_ids) == imp.order and list(imp.before.level_ids) == campaign
    # the truth: more players reach the last level in the new order than in the old one. Its
    # quits do not depend on the place, so only the level played last (whose own quits come
    # after the last level is reached) matters: at best the hardest, 1.4 points more.
    before, after = truth(campaign)[0], truth(imp.order)[0]
    best = truth(campaign[1:] + campaign[:1])[0][-1]
    assert after[-1] >= before[-1] + 0.5 * (best - before[-1]) > before[-1], (before, after, best)
    # the after funnel (new levels predicted from their rows) holds the true reach
    band = imp.after.stats["reach"]
    assert np.mean((band[:, 1] <= after + 1e-9) & (after <= band[:, 2] + 1e-9)) >= 0.8
    # every goal is met or says why, as for hex levels
    assert len(imp.goals) == 2 and all(g.met or g.why for g in imp.goals), imp.summary()
    assert imp.comparison().paired


def test_the_band_rule_reads_predicted_levels(fitted, hard_first):  # noqa: F811
    model, feats, _, _ = fitted
    campaign, _ = hard_first
    imp = improve_campaign(campaign, model, FunnelGoal(reach_last=None, max_quit_hazard=None,
                           max_band_drop=0), features=feats, players=500, draws=3,
                           evaluations=300)  # fmt: skip
    # no drop allowed: only an order by difficulty (easiest first) keeps it
    assert imp.goals[0].met and imp.goals[0].before > 0, imp.summary()
    success = model.predict(feats.loc[imp.order])["success"].to_numpy()
    bands = np.searchsorted(-np.array([0.85, 0.65, 0.45]), -success, side="right")
    assert np.all(np.diff(bands) >= 0), (imp.order, bands)


def test_a_feature_campaign_without_its_rows_is_refused_in_one_line(fitted, hard_first):  # noqa: F811
    model, feats, _, _ = fitted
    campaign, _ = hard_first
    new = feats.index[60]
    with pytest.raises(ArgumentError) as err:
        improve_campaign(campaign, model, features=feats.drop(index=new), players=10, draws=2,
                         evaluations=1)  # fmt: skip
    assert f"level {new!r}" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ArgumentError, match="column 'enemies'"):
        improve_campaign(campaign, model, features=feats.drop(columns="enemies"), players=10,
                         draws=2, evaluations=1)  # fmt: skip
    with pytest.raises(ArgumentError, match="lv06[0-3]"):  # no table: new levels are unknown
        improve_campaign(campaign, model, players=10, draws=2, evaluations=1)
