"""``labkit puzzle skill --features FILE.csv``: the skill model of any game's levels (issue 49).

The telemetry and the features come from ``test_level_features``'s known-truth world (board
size, enemies, par time), written as the CSV files a designer of another game would have.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from labkit.cli import main
from labkit.hexpuzzle import SkillModel
from tests.hexpuzzle.difficulty.test_level_features import TRUE_WEIGHTS, world


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    where = tmp_path_factory.mktemp("features")
    telemetry, feats, order, _, _ = world(0)
    campaign = order + list(feats.index[40:45])  # five levels nobody played: predicted
    telemetry.to_csv(where / "telemetry.csv", index=False)
    feats.loc[campaign].rename_axis("level").reset_index().to_csv(where / "levels.csv",
                                                                  index=False)  # fmt: skip
    return where, feats, campaign


def test_a_feature_file_fits_the_model_of_any_game(files):
    where, feats, campaign = files
    out = where / "model.json"
    res = subprocess.run([sys.executable, "-m", "labkit", "puzzle", "skill",
                          str(where / "telemetry.csv"), "--features", str(where / "levels.csv"),
                          "--out", str(out)], capture_output=True, text=True,
                         timeout=600)  # fmt: skip
    assert res.returncode == 0, res.stderr
    # four-column telemetry: no held-out report (it compares with the hex puzzle's columns)
    assert "no held-out report" in res.stdout and "'collisions'" in res.stdout
    assert "enemies" in res.stdout and "lv044" in res.stdout
    model = SkillModel.load(out)
    assert list(model.level_ids) == campaign and model.feature_names == tuple(TRUE_WEIGHTS)
    for name, w in TRUE_WEIGHTS.items():  # the known truth's weights, as the API fits them
        assert model.weights[name] == pytest.approx(w, abs=max(0.05, 0.3 * w)), name
    assert np.isfinite(model.difficulty).all()  # the unplayed five predicted from their rows


def write(where, name, text):
    path = where / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name,enemies\na,3\n", "has no 'level' column"),
        ("level,enemies\na,3\nb,x\n", "level 'b', column 'enemies': must be a number (got 'x')"),
        ("level,enemies\na,3\nb,\n", "level 'b', column 'enemies': must be a finite number"),
        ("level,enemies\na,3\nb,inf\n", "level 'b', column 'enemies': must be a finite number"),
        ("level,enemies\na,3\na,4\n", "level 'a': appears twice"),
        ("level,flag\na,True\nb,False\n", "level 'a', column 'flag': must be a number"),
        ("level,baseline\na,1\n", "column 'baseline': is the model's own name"),
        ("level\na\n", "no feature columns"),
        ("level,enemies\na,3\n,4\n", "line 3: the level is empty"),
    ],
)  # fmt: skip
def test_a_bad_feature_file_is_refused_in_one_line_before_any_work(tmp_path, capsys, text, words):
    path = write(tmp_path, "levels.csv", text)
    # the telemetry file does not exist: the feature file is checked first
    code = main(["puzzle", "skill", str(tmp_path / "missing.csv"), "--features", path])
    err = capsys.readouterr().err
    assert code == 2 and words in err, err
    assert f"--features {path}: " in err and len(err.strip().splitlines()) == 1


def test_feature_options_that_cannot_go_together_are_refused(tmp_path, capsys, files):
    where, _, _ = files
    good = str(where / "levels.csv")
    cases = [
        (["--features", str(tmp_path / "nowhere.csv")], "nowhere.csv: no such file"),
        (["--features", good, "--no-features"], "cannot go with --no-features"),
        (["campaign.json", "--features", good], "LEVELS: the levels are the feature file's"),
        ([], "LEVELS: give level files"),
        # asked for a report the telemetry cannot give: refused before the fit
        (["--features", good, "--folds", "3"], "--folds: the held-out report needs the "
         "telemetry's 'collisions' column"),
    ]  # fmt: skip
    for extra, words in cases:
        code = main(["puzzle", "skill", str(where / "telemetry.csv"), *extra])
        err = capsys.readouterr().err
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, (extra, err)
