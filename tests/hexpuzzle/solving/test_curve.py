"""campaign_from_curve, puzzle_key, parse_curve and ``labkit puzzle campaign --curve``."""

from __future__ import annotations

import argparse

import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import Level, Tile, campaign_from_curve, parse_curve, score, solve
from labkit.hexpuzzle import shipped_campaign as camp
from labkit.hexpuzzle.cli.solver import register_solver_commands
from labkit.hexpuzzle.coords import rotate_cell
from labkit.hexpuzzle.solving.curve import puzzle_key
from tests.hexpuzzle.helpers import random_level
from tests.hexpuzzle.solving.test_targets import StandInSkillModel, assert_verified


def turned_picture(level: Level, k: int) -> Level:
    """The whole picture turned k steps: cells, tracks, tile cells and headings (by hand)."""
    tracks = {}
    for (q, r), t in level.board.tracks.items():
        new = [0] * 6
        for i, e in enumerate(t):
            new[(i + k) % 6] = (e + k) % 6
        tracks[rotate_cell(q, r, k)] = new
    tiles = [Tile(t.id, *rotate_cell(t.q, t.r, k), (t.dir + k) % 6, t.color) for t in level.tiles]
    return Level.hexagon(2, tracks=tracks, tiles=tiles, move_limit=level.move_limit)


def test_puzzle_key_sees_through_both_rotations_and_nothing_else():
    level = random_level(3)
    same = [level.rotated(2), turned_picture(level, 1), turned_picture(level.rotated(4), 5)]
    assert all(puzzle_key(x) == puzzle_key(level) for x in same)
    assert puzzle_key(level.replace(id="x", move_limit=40)) == puzzle_key(level)
    t = level.tiles[0]
    moved = level.replace(tiles=(Tile(t.id, t.q, t.r, (t.dir + 1) % 6),) + level.tiles[1:])
    assert puzzle_key(moved) != puzzle_key(level)
    assert puzzle_key(random_level(4)) != puzzle_key(level)


def test_campaign_follows_a_rising_curve():
    targets = [24, 32, 40, 48, 56, 64]
    levels = campaign_from_curve(targets, 8, progress=False)
    assert [lv.id for lv in levels] == [f"curve-{k:02d}" for k in range(1, 7)]
    for level in levels:
        assert_verified(level)
    totals = [score(lv).total for lv in levels]
    assert all(abs(t - a) <= 2 for t, a in zip(targets, totals)), totals
    rotations = [solve(lv).rotations for lv in levels]
    assert rotations == sorted(rotations)
    assert len({puzzle_key(lv) for lv in levels}) == len(levels)
    made = levels[2].metadata["generated"]
    assert made["seed"] == 8 and made["stream"] == "curve/2"
    report = levels.report()
    assert list(report["target"]) == targets and list(report["achieved"]) == totals
    assert report["within"].all()
    assert "6 within tolerance" in levels._repr_html_()


def test_campaign_may_ease_rotations_where_the_curve_falls_and_repeats_nothing():
    targets = [40, 40, 40, 25, 25]
    levels = campaign_from_curve(targets, 2, progress=False)
    assert len({puzzle_key(lv) for lv in levels}) == 5
    assert all(abs(score(lv).total - t) <= 2 for lv, t in zip(levels, targets))


def test_success_curve_with_a_model():
    model = StandInSkillModel()
    targets = [0.8, 0.65, 0.5]
    # a generous clock: the search ends on its own rule, not on a loaded machine's speed
    levels = campaign_from_curve(targets, 3, model=model, progress=False, time_limit=300)
    rows = levels.rows()
    assert [r["kind"] for r in rows] == ["success"] * 3
    truth = [StandInSkillModel().success(lv) for lv in levels]
    assert all(abs(t - s) <= 0.05 for t, s in zip(targets, truth))
    rotations = [r["rotations"] for r in rows]
    assert rotations == sorted(rotations)  # success falling = difficulty rising


def test_same_seed_same_campaign_file(tmp_path):
    a = campaign_from_curve([30, 45], 6, progress=False)
    b = campaign_from_curve([30, 45], 6, progress=False)
    a.save(tmp_path / "a.json")
    b.save(tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert camp.load(tmp_path / "a.json") == list(a)


@pytest.mark.parametrize(
    ("targets", "argument"),
    [([], "targets"), ([30, 120], "targets[1]"), ([30, "x"], "targets[1]")],
)
def test_bad_curves_fail_before_searching(targets, argument):
    with pytest.raises(ArgumentError) as err:
        campaign_from_curve(targets, 1, progress=False)
    assert err.value.argument == argument


def test_parse_curve_ramps_and_csv(tmp_path):
    assert parse_curve("25:75:3") == [25.0, 50.0, 75.0]
    assert parse_curve("0.9:0.3:2") == [0.9, 0.3]
    plain = tmp_path / "plain.csv"
    plain.write_text("30\n45.5\n\n60\n", encoding="utf-8")
    assert parse_curve(plain) == [30.0, 45.5, 60.0]
    headed = tmp_path / "headed.csv"
    headed.write_text("slot,target\n1,30\n2,50\n", encoding="utf-8-sig")
    assert parse_curve(str(headed)) == [30.0, 50.0]


@pytest.mark.parametrize(
    "spec", ["25:75", "a:b:3", "25:75:0", "25:75:1000", "missing.csv", "BAD_CSV"]
)
def test_parse_curve_errors_name_the_value(spec, tmp_path):
    if spec == "BAD_CSV":
        spec = tmp_path / "bad.csv"
        spec.write_text("target\n30\nforty\n", encoding="utf-8")
    with pytest.raises(ArgumentError) as err:
        parse_curve(spec, argument="--curve")
    assert err.value.argument == "--curve"
    if str(spec).endswith("bad.csv"):
        assert "row 2" in str(err.value) and "forty" in str(err.value)


def _run(*argv):
    parser = argparse.ArgumentParser()
    register_solver_commands(parser.add_subparsers(dest="cmd", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_campaign_from_a_curve(tmp_path, capsys):
    out = tmp_path / "curve.json"
    assert _run("campaign", "--curve", "30:50:3", "--out", str(out), "--seed", "2") == 0
    text = capsys.readouterr().out
    assert "3 levels, 3 within ±2" in text
    levels = camp.load(out)
    assert [lv.id for lv in levels] == ["curve-01", "curve-02", "curve-03"]
    assert [lv.metadata["generated"]["target"]["score"] for lv in levels] == [30, 40, 50]


def test_cli_bad_curve_writes_nothing(tmp_path):
    out = tmp_path / "never.json"
    with pytest.raises(ArgumentError, match="--curve"):
        _run("campaign", "--curve", "30:150:3", "--out", str(out))
    assert not out.exists()


def test_a_slot_that_repeats_an_earlier_level_is_drawn_again(monkeypatch):
    from labkit.hexpuzzle.solving import curve, generator

    first, other = generator.generate(1, tiles=5), generator.generate(2, tiles=5)
    names = []

    def fake(rng, **options):
        names.append(len(names))
        # slot 1 gets `first`; slot 2 gets `first` turned (the same puzzle) twice, then `other`.
        level = first if len(names) == 1 else first.rotated(3) if len(names) < 4 else other
        made = {"target": {"score": options["score"], "tolerance": 2}, "achieved": {"score": 1}}
        return level.replace(id=options["id"], metadata={"generated": made})

    monkeypatch.setattr(curve, "generate_to_target", fake)
    levels = campaign_from_curve([30, 30], 1, progress=False)
    assert len(names) == 4 and puzzle_key(levels[1]) == puzzle_key(other)
    names.clear()
    monkeypatch.setattr(curve, "RETRIES", 2)
    with pytest.raises(generator.GeneratorError, match="slot 2: every try repeated"):
        campaign_from_curve([30, 30, 30], 1, progress=False)


def test_cli_success_curve_with_a_saved_model_and_an_ability(tmp_path, capsys):
    from labkit.hexpuzzle import SkillModel, shipped_skill_model

    model_file, out = tmp_path / "model.json", tmp_path / "curve.json"
    shipped_skill_model().save(model_file)
    args = ("campaign", "--curve", "0.8:0.5:3", "--model", str(model_file), "--ability", "0.5")
    assert _run(*args, "--out", str(out), "--seed", "3", "--time-limit", "300") == 0
    text = capsys.readouterr().out
    assert f"ability 0.5, judged by {model_file}" in text
    levels = camp.load(out)
    judge = SkillModel.load(model_file)
    rates = [judge.success(lv, 0.5) for lv in levels]  # judged again, outside the search
    assert sum(abs(r - t) <= 0.05 for r, t in zip(rates, [0.8, 0.65, 0.5])) >= 2, rates
    assert [lv.metadata["generated"]["target"]["ability"] for lv in levels] == [0.5] * 3
    assert f"3 levels, {sum(abs(r - t) <= 0.05 for r, t in zip(rates, [0.8, 0.65, 0.5]))}" in text


def test_cli_success_curve_without_a_model_uses_the_shipped_one(tmp_path, capsys):
    from labkit.hexpuzzle import shipped_skill_model

    out = tmp_path / "curve.json"
    assert _run("campaign", "--curve", "0.85:0.85:1", "--out", str(out), "--seed", "4") == 0
    assert "judged by the shipped skill model" in capsys.readouterr().out
    (level,) = camp.load(out)
    assert level.metadata["generated"]["target"] == {"success": 0.85, "tolerance": 0.05,
                                                     "ability": 0.0}  # fmt: skip
    assert abs(shipped_skill_model().success(level) - 0.85) <= 0.05


@pytest.mark.parametrize(
    "content",
    ['{"format": "labkit.hexpuzzle.skill-model", "version": 1, "level_ids": ["a"]}',
     '{"format": "something.else", "version": 1}', "not json at all"],
)  # fmt: skip
def test_cli_bad_model_file_is_named_and_writes_nothing(tmp_path, content):
    from labkit import LabkitError

    bad, out = tmp_path / "bad-model.json", tmp_path / "never.json"
    bad.write_text(content)
    with pytest.raises(LabkitError, match="bad-model.json"):
        _run("campaign", "--curve", "0.9:0.4:3", "--model", str(bad), "--out", str(out))
    assert not out.exists()


def _main(capsys, *argv):
    """``labkit puzzle ...``: (exit status, stderr)."""
    from labkit.cli import main

    rc = main(["puzzle", *argv])
    return rc, capsys.readouterr().err


def test_cli_missing_model_file_is_named(tmp_path, capsys):
    out = tmp_path / "never.json"
    rc, err = _main(capsys, "campaign", "--curve", "0.9:0.4:3", "--model",
                    str(tmp_path / "no-such-model.json"), "--out", str(out))  # fmt: skip
    # a bad argument: exit 2 and one line naming the option and the file, before any work
    assert rc == 2 and "--model" in err and "no-such-model.json" in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "argument"),
    [
        (("--curve", "30:60:3", "--model", "m.json"), "--model"),
        (("--curve", "30:60:3", "--ability", "1"), "--ability"),
        (("--curve", "0.5:40:3"), "--curve"),
        (("--curve", "0.9:0.4:3", "--ability", "nan"), "--ability"),
        (("--model", "m.json"), "--model"),
        (("--ability", "1"), "--ability"),
    ],
)
def test_cli_curve_option_mistakes_are_named(tmp_path, capsys, argv, argument):
    out = tmp_path / "never.json"
    (tmp_path / "m.json").write_text("{}")  # exists: refused for what it is asked to do
    rc, err = _main(capsys, "campaign", *[str(tmp_path / a) if a == "m.json" else a for a in argv],
                    "--out", str(out))  # fmt: skip
    assert rc == 2 and argument in err, err
    assert not out.exists()
