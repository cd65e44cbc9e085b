"""The skill model's file: unplayed levels round-trip, impossible values are refused naming the
pointer."""

from __future__ import annotations

import json

import numpy as np
import pytest

from labkit.hexpuzzle import (
    SkillModel,
    SkillModelError,
    fit_skill_model,
    telemetry_from_skill,
)

IDS = [f"L{i:02d}" for i in range(12)]
BETA = np.linspace(-1.5, 2.0, 12)


def test_unplayed_levels_without_features_round_trip_and_say_why(tmp_path):
    theta = np.random.default_rng(0).normal(0, 1, 200)
    m = fit_skill_model(telemetry_from_skill(IDS[:6], BETA[:6], theta, rng=0), IDS, features=False)
    m.save(tmp_path / "m.json")
    again = SkillModel.load(tmp_path / "m.json")
    assert np.isnan(again.difficulty[7]) and again.quit_model is not None
    np.testing.assert_allclose(again.quit_model.cov, m.quit_model.cov)
    with pytest.raises(Exception, match="nobody played"):
        again.success(IDS[7])


@pytest.mark.parametrize(
    "edit, pointer",
    [
        (lambda d: d.update(ability_sd=-1.0), "/ability_sd"),
        (lambda d: d["levels"][0].update(ci=[1.0, -1.0]), "/levels/0/difficulty"),
        (lambda d: d.update(residual_sd=-0.5), "/residual_sd"),
        (lambda d: d["quit_model"]["cov"][0].__setitem__(0, -1.0), "/quit_model/cov"),
        (lambda d: d["quit_model"]["coefficients"].pop("ability"), "/quit_model/coefficients"),
        (lambda d: d.update(discrimination=[0.0] * 6), "/discrimination"),
    ],
)
def test_impossible_values_are_refused_on_load(edit, pointer):
    theta = np.random.default_rng(1).normal(0, 1, 150)
    m = fit_skill_model(telemetry_from_skill(IDS[:6], BETA[:6], theta, rng=1), IDS[:6],
                        features=False)  # fmt: skip
    doc = json.loads(json.dumps(m.to_dict()))
    edit(doc)
    with pytest.raises(SkillModelError) as err:
        SkillModel.from_dict(doc)
    assert pointer in str(err.value)


def test_the_attempt_cap_and_the_observed_counts_survive_a_file_and_old_files_still_load(tmp_path):
    from labkit.hexpuzzle.difficulty.skill import SkillModel, fit_skill_model
    from labkit.hexpuzzle.difficulty.skill_file import SkillModelError
    from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill

    ids = ["a", "b", "c"]
    theta = np.random.default_rng(0).normal(0, 1, 300)
    rows = telemetry_from_skill(ids, [-1.0, 0.0, 1.0], theta, rng=1, max_attempts=4)
    model = fit_skill_model(rows, ids, features=False)
    assert model.max_attempts == int(rows["attempt"].max()) == 4
    # counted here by hand from the rows: players at each level, first-try wins
    for i, lid in enumerate(ids):
        here = rows[rows["level"] == lid]
        assert model.observed["reached"][i] == len(set(here["player"].tolist()))
        assert model.observed["first_try"][i] == int((here["won"] & (here["attempt"] == 1)).sum())
    assert model.observed["players"] == 300
    model.save(tmp_path / "m.json")
    again = SkillModel.load(tmp_path / "m.json")
    assert again.max_attempts == 4 and again.observed == model.observed
    doc = model.to_dict()
    del doc["max_attempts"], doc["observed"]  # a file written before issue 45
    old = SkillModel.from_dict(doc)
    assert old.max_attempts is None and old.observed is None
    doc["max_attempts"] = 0
    with pytest.raises(SkillModelError, match="max_attempts"):
        SkillModel.from_dict(doc)
    doc["max_attempts"], doc["observed"] = (
        4,
        {"players": 2, "reached": [3, 1, 1], "first_try": [0, 0, 0], "stopped": [0, 0, 0]},
    )
    with pytest.raises(SkillModelError, match="observed/reached"):
        SkillModel.from_dict(doc)
