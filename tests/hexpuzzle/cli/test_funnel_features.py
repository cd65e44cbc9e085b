"""``labkit puzzle funnel --features FILE.csv MODEL``: the funnel of any game's levels (issue 49).

The model is fitted to ``test_level_features``'s known-truth world (board size, enemies, par
time); the campaign is the feature file's rows in order, five of them levels nobody played.
"""

from __future__ import annotations

import pytest

from labkit.cli import main
from labkit.hexpuzzle.difficulty.skill import fit_skill_model
from tests.hexpuzzle.difficulty.test_level_features import world


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    where = tmp_path_factory.mktemp("funnel-features")
    telemetry, feats, order, _, _ = world(0)
    fit_skill_model(telemetry, order, features=feats).save(where / "model.json")
    campaign = order[:10] + list(feats.index[60:65])  # five levels nobody played: predicted
    feats.loc[campaign].rename_axis("level").reset_index().to_csv(where / "levels.csv",
                                                                  index=False)  # fmt: skip
    return where, campaign


def test_the_funnel_of_a_feature_file_is_printed(files, capsys):
    where, campaign = files
    out = where / "funnel.csv"
    code = main(["puzzle", "funnel", "--features", str(where / "levels.csv"),
                 str(where / "model.json"), "--players", "300", "--draws", "3",
                 "--out", str(out)])  # fmt: skip
    text = capsys.readouterr().out
    assert code == 0
    assert text.splitlines()[0].startswith("15 levels, 3 cohorts of 300 players")
    rows = [line.split()[1] for line in text.splitlines()[2:17]]
    assert rows == campaign  # the file's rows, in its order
    assert "most players leave at " in text
    assert [line.split(",")[1] for line in out.read_text().splitlines()[1:]] == campaign


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name,enemies\na,3\n", "has no 'level' column"),
        ("level,enemies\na,3\nb,x\n", "level 'b', column 'enemies': must be a number (got 'x')"),
        ("level,enemies\na,3\na,4\n", "level 'a': appears twice"),
        ("level\na\n", "no feature columns"),
    ],
)  # fmt: skip
def test_a_bad_feature_file_is_refused_in_one_line_before_the_model(tmp_path, capsys, text,
                                                                     words):  # fmt: skip
    path = tmp_path / "levels.csv"
    path.write_text(text)
    # the model file does not exist: the feature file is checked first
    code = main(["puzzle", "funnel", "--features", str(path), str(tmp_path / "missing.json")])
    err = capsys.readouterr().err
    assert code == 2 and words in err, err
    assert f"--features {path}: " in err and len(err.strip().splitlines()) == 1


def test_a_feature_file_the_model_cannot_read_is_refused_in_one_line(files, tmp_path, capsys):
    where, campaign = files
    model = str(where / "model.json")
    lacking = tmp_path / "lacking.csv"  # the model was fitted with enemies
    lacking.write_text("level,board_size,par_time\n" + f"{campaign[-1]},30,60\n")
    cases = [
        (["--features", str(lacking), model], "column 'enemies'"),
        (["--features", str(tmp_path / "nowhere.csv"), model], "nowhere.csv: no such file"),
        (["--features", str(where / "levels.csv"), "campaign.json", model],
         "CAMPAIGN: the levels are the feature file's rows"),
        ([model], "CAMPAIGN: give level files"),
    ]  # fmt: skip
    for args, words in cases:
        code = main(["puzzle", "funnel", *args, "--players", "10", "--draws", "2"])
        err = capsys.readouterr().err
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, (args, err)
