"""Hostile input (issue 46): study folders, files read as the shipped game, model files,
impossible telemetry and the funnel's numbers, each refused in one line naming the field.

The cases live in ``tests/hostile_cases_files.py`` (shared with
``scripts/hostile_audit.py --files``, which prints the class x cases x clean table). The tests
after the case lists pin what is repaired or stated instead of refused.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from labkit import ArgumentError, LabkitError
from tests import hostile_cases_files as hf
from tests.hostile_cases import run_cli

API_CASES = hf.api_cases()
CLI_CASES = hf.cli_cases()


@pytest.mark.parametrize(("name", "call", "message"), API_CASES, ids=[c[0] for c in API_CASES])
def test_files_api_refuses_hostile_values_in_one_line(name, call, message, tmp_path):
    with pytest.raises((ArgumentError, LabkitError)) as info:
        call(tmp_path)
    text = str(info.value)
    assert message in text and "\n" not in text.strip(), (name, text)


@pytest.mark.parametrize(("name", "argv", "message"), CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_files_commands_refuse_hostile_values_in_one_line(name, argv, message, tmp_path):
    verdict, rc, out, err = run_cli(argv(tmp_path), seconds=120)
    assert verdict == "clean" and rc in (1, 2), (name, verdict, rc, err)
    assert len(err.strip().splitlines()) == 1 and message in err, (name, err)


def test_every_case_belongs_to_one_class():
    names = [c[0] for c in API_CASES + CLI_CASES]
    assert all(sum(n.startswith(p) for p in hf.CLASSES.values()) == 1 for n in names), names


# --- study folders: what is repaired, and never damaged further -----------------------------


def test_a_torn_last_journal_line_is_dropped_said_in_one_line_and_the_study_resumes(tmp_path):
    d = tmp_path / "tune"
    hf.tune_run(d)
    journal = d / "study.journal"
    whole = journal.read_bytes()
    assert whole.endswith(b"\n")
    journal.write_bytes(whole[:-20])  # a power loss in the middle of the last line
    kept = whole[: whole[:-20].rfind(b"\n") + 1]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        t = hf.tune_run(d, budget=8)
    said = [str(w.message) for w in seen if "torn" in str(w.message)]
    assert len(said) == 1 and "\n" not in said[0], said
    assert "study.journal: line" in said[0] and "dropped" in said[0], said[0]
    assert len(t.trials) == 8
    after = journal.read_bytes()
    assert after.startswith(kept) and all(json.loads(ln) for ln in after.splitlines())


def test_a_refused_journal_is_left_exactly_as_it_was(tmp_path):
    d = tmp_path / "tune"
    hf.tune_run(d)
    journal = d / "study.journal"
    bad = journal.read_bytes() + b"garbage\n" + b'{"op_code": 4}\n'
    journal.write_bytes(bad)
    with pytest.raises(LabkitError, match="not a journal line"):
        hf.tune_run(d, budget=8)
    assert journal.read_bytes() == bad


def test_an_importance_run_resumes_from_stamped_parts(tmp_path):
    first = hf.importance_run(tmp_path / "run")
    part = json.loads((tmp_path / "run" / "part-00-0000.json").read_text())
    assert set(part) == {"format", "version", "values", "run", "sha256"}
    assert len(part["run"]) == 64 and len(part["sha256"]) == 64
    assert hf.importance_run(tmp_path / "run").tolist() == first.tolist() == [10.0, 21.0, 32.0]


# --- files read as the shipped game ---------------------------------------------------------


def test_a_whole_balance_file_gives_its_differences_and_a_patch_counts_each_cell_once(tmp_path):
    from labkit.encounter.sim.compare import version_patch
    from labkit.encounter.sim.settings import default_balance_document

    doc = default_balance_document()
    doc["tables"]["hit"][3] = 0.15
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc))
    assert version_patch(str(path)) == {"/tables/hit/3": 0.15}
    assert version_patch({"/tables/hit/3": 0.15, "npcs": 2}) == {"/tables/hit/3": 0.15, "npcs": 2}


def test_games_played_by_this_pair_are_accepted():
    from labkit.encounter.sim.compare import compare

    t = compare({}, {"/characters/monster/life": 4}, range(3), games=hf.pair_games(),
                metrics=["npc_win"], bootstrap=10)  # fmt: skip
    assert t["pairs"].tolist() == [3]


# --- model files ----------------------------------------------------------------------------


def test_the_shipped_model_and_a_fitted_one_pass_the_covariance_check(tmp_path):
    from labkit.hexpuzzle import SkillModel

    model = SkillModel.load(hf.DATA / "telemetry" / "skill_model.json")
    model.save(tmp_path / "m.json")
    again = SkillModel.load(tmp_path / "m.json")
    assert np.allclose(again.weights_cov, model.weights_cov)


# --- impossible telemetry: counted when asked, stated in words ------------------------------


@pytest.mark.parametrize("kind", list(hf.IMPOSSIBLE))
def test_impossible_rows_are_kept_and_counted_when_asked(kind, tmp_path):
    from labkit.hexpuzzle import Telemetry, load_telemetry

    path = tmp_path / "t.csv"
    path.write_text(hf.telemetry_text(kind))
    rows = load_telemetry(path, frame=False, impossible="count")
    assert len(rows) == len(hf.IMPOSSIBLE[kind])
    t = Telemetry.load(path, impossible="count")
    expected = {"attempt after a win": {"after_win": 1, "gaps": 0},
                "attempt gap": {"after_win": 0, "gaps": 1},
                "no first attempt": {"after_win": 0, "gaps": 1}}[kind]  # fmt: skip
    assert t.impossible == expected


def test_a_fit_counts_impossible_rows_and_players_starting_mid_campaign_in_words():
    from labkit.hexpuzzle.difficulty.skill import fit_skill_model
    from labkit.hexpuzzle.difficulty.telemetry import make_table

    rows = [
        hf.row("L1", "p1", 1, 1), hf.row("L1", "p1", 2, 0),  # a retry after a win
        hf.row("L1", "p2", 1, 0), hf.row("L1", "p2", 2, 1), hf.row("L2", "p2", 1, 1),
        hf.row("L2", "p3", 1, 0),  # starts at the second level
        hf.row("L1", "p4", 1, 1), hf.row("L2", "p4", 1, 0),
    ]  # fmt: skip
    table = make_table([r.split(",") for r in rows])
    with pytest.raises(LabkitError, match=r"row 2: an attempt after a win \(player 'p1'"):
        fit_skill_model(table, ["L1", "L2"], features=False, dropout="ignore")
    m = fit_skill_model(table, ["L1", "L2"], features=False, dropout="ignore",
                        impossible="count")  # fmt: skip
    assert m.fit_info["impossible"] == {"after_win": 1, "gaps": 0, "mid_campaign": 1}
    said = m.describe()
    assert "1 attempt after a win kept" in said and "1 player starts after the first level" in said
    clean = make_table([r.split(",") for k, r in enumerate(rows) if k != 1])
    m2 = fit_skill_model(clean, ["L1", "L2"], features=False, dropout="ignore")
    assert m2.fit_info["impossible"] == {"after_win": 0, "gaps": 0, "mid_campaign": 1}


def test_puzzle_skill_keeps_and_states_impossible_rows_when_asked(tmp_path):
    campaign = str(hf.DATA / "levels" / "campaign.json")
    argv = ["puzzle", "skill", str(hf._impossible_csv(tmp_path)), campaign, "--no-features",
            "--folds", "0", "--dropout", "ignore", "--impossible", "count"]  # fmt: skip
    verdict, rc, out, err = run_cli(argv, seconds=120)
    assert rc == 0, err
    assert "1 attempt after a win kept" in out, out


def test_shipped_telemetry_and_the_simulators_give_only_possible_rows():
    from labkit.hexpuzzle import load_telemetry
    from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill
    from labkit.hexpuzzle.playthrough.truth import TrueModel

    for name in ("sample.csv", "progression.csv"):
        load_telemetry(hf.DATA / "telemetry" / name, frame=False)  # refuses impossible rows
    ids = ["L0", "L1", "L2"]
    beta = np.array([-1.0, 0.0, 1.0])
    sim = telemetry_from_skill(
        ids, beta, np.random.default_rng(0).normal(0, 1, 300), rng=1, max_attempts=3
    )
    truth = TrueModel(list(beta), quit={"baseline": -1.5}).telemetry(300, rng=0)
    for rows in (sim, truth):
        from labkit.hexpuzzle.difficulty.skill import fit_skill_model

        m = fit_skill_model(rows, ids if rows is sim else TrueModel(list(beta)).level_ids,
                            features=False, dropout="ignore")  # fmt: skip
        assert m.fit_info["impossible"] == {"after_win": 0, "gaps": 0, "mid_campaign": 0}


def test_two_levels_of_first_attempts_fit_at_a_hundred_thousand_players():
    """It raised ZeroDivisionError inside the likelihood kernel (issue 46)."""
    from labkit.hexpuzzle.difficulty.skill import fit_skill_model
    from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill

    theta = np.random.default_rng(3).normal(0, 1, 100_000)
    rows = telemetry_from_skill(["A", "B"], np.array([-0.5, 0.5]), theta, rng=2, progression=False)
    first = rows[rows["attempt"] == 1]
    m = fit_skill_model(first, ["A", "B"], features=False, dropout="ignore", retries=False)
    assert abs((m.difficulty[1] - m.difficulty[0]) - 1.0) < 0.1


@pytest.mark.parametrize("won", ["every", "none", "first level only"])
def test_a_table_every_player_wins_or_loses_alike_is_refused_at_a_hundred_thousand_players(won):
    """Everyone winning (or losing) alike sent the optimiser's spread to overflow, and the
    likelihood kernel divided by zero (issue 46); then it ended at absurd difficulties. No
    level both won and lost says nothing of how hard any level is: refused in one line."""
    from labkit.hexpuzzle.difficulty.skill import SkillModelError, fit_skill_model
    from labkit.hexpuzzle.difficulty.telemetry_rules import COLUMNS

    n = 100_000
    dtype = [(k, "U8" if v == "text" else {"seconds": "f8", "flag": "?"}.get(v, "i8"))
             for k, v in COLUMNS.items()]  # fmt: skip
    t = np.zeros(2 * n, dtype=dtype)
    t["level"][:n], t["level"][n:] = "A", "B"
    t["player"] = np.tile(np.char.add("p", np.arange(n).astype(str)), 2)
    t["attempt"], t["seconds"] = 1, 5.0
    t["won"] = {"every": True, "none": False, "first level only": np.arange(2 * n) < n}[won]
    t["first_try"] = t["won"]
    with pytest.raises(SkillModelError) as info:
        fit_skill_model(t, ["A", "B"], features=False, dropout="ignore")
    said = {"every": "every attempt was won", "none": "every attempt was lost",
            "first level only": "(won: 'A'; lost: 'B')"}[won]  # fmt: skip
    text = str(info.value)
    assert said in text and "(got 100000 players, 2 levels)" in text and "\n" not in text


# --- the funnel on the terminal ----------------------------------------------------------------


def test_puzzle_funnel_shows_control_characters_in_level_ids_visibly(tmp_path):
    doc = json.loads((hf.DATA / "levels" / "campaign.json").read_text())
    doc["levels"][0]["level"]["id"] = "main\x1b[31m-01"
    path = tmp_path / "campaign.json"
    path.write_text(json.dumps(doc))
    model = tmp_path / "m.json"
    text = (hf.DATA / "telemetry" / "skill_model.json").read_text()
    model.write_text(text.replace('"main-01"', json.dumps("main\x1b[31m-01")))
    verdict, rc, out, err = run_cli(["puzzle", "funnel", str(path), str(model), "--players",
                                     "100", "--draws", "2"], seconds=120)  # fmt: skip
    assert rc == 0, err
    assert "\x1b" not in out and "main\\x1b[31m-01" in out, out


# --- every cap touched, crossed by the data (issue 46.6) ---------------------------------------


def test_the_funnel_size_cap_is_crossed_by_one(monkeypatch):
    from labkit.hexpuzzle import TrueModel, funnel
    from labkit.hexpuzzle.playthrough import model as M

    monkeypatch.setattr(M, "MAX_SIMULATED", 600)
    truth = TrueModel([-1.0, 0.0], quit={"baseline": -1.5})
    f = funnel(list(truth.level_ids), truth, players=200, draws=3, rng=0)  # 600: at the cap
    assert f.players == 200 and f.draws == 3
    with pytest.raises(ArgumentError, match=r"players x draws: at most 600 .* \(got 603\)"):
        funnel(list(truth.level_ids), truth, players=201, draws=3, rng=0)


def test_retries_above_the_attempt_cap_are_possible_and_share_the_last_step():
    """A player may retry a level more often than the fit's attempt cap (ATTEMPT_CAP = 6):
    those rows are possible (contiguous, no win before the last), and from the sixth attempt
    on every retry has the same success (one learning step), by hand."""
    from labkit.hexpuzzle.difficulty.skill import fit_skill_model
    from labkit.hexpuzzle.difficulty.skill_quit import ATTEMPT_CAP
    from labkit.hexpuzzle.difficulty.telemetry import make_table

    gen = np.random.default_rng(5)
    rows = []
    for p in range(300):
        for lv in ("A", "B"):
            for k in range(1, 10):
                won = bool(gen.random() < 0.3) or k == 9
                rows.append(hf.row(lv, f"p{p}", k, int(won)).split(","))
                if won:
                    break
    table = make_table(rows)
    assert table["attempt"].max() > ATTEMPT_CAP
    m = fit_skill_model(table, ["A", "B"], features=False, dropout="ignore")
    assert m.fit_info["impossible"] == {"after_win": 0, "gaps": 0, "mid_campaign": 0}
    lam, beta = m.learning, m.difficulty_of("A")
    by_hand = [1 / (1 + np.exp(beta - lam * (min(k, ATTEMPT_CAP) - 1))) for k in (5, 6, 9)]
    got = [m.success("A", attempt=k) for k in (5, 6, 9)]
    np.testing.assert_allclose(got, by_hand, rtol=1e-12)
    assert got[1] == got[2] != got[0]


def test_max_rows_is_crossed_by_one(tmp_path):
    from labkit.hexpuzzle import Telemetry

    path = tmp_path / "t.csv"
    path.write_text(hf.HEAD + "\n" + "\n".join(hf.row("L1", f"p{i}", 1, 1) for i in range(5)))
    assert len(Telemetry.load(path, max_rows=5)) == 5
    with pytest.raises(LabkitError, match="more than 4 rows"):
        Telemetry.load(path, max_rows=4)
