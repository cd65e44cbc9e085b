"""labkit.hexpuzzle.solving.curve: the rotation cap per slot and the ``--curve`` spec, exactly.

From the module docstring: rotations are capped by a slot's place on the curve -- the easiest
third of the targets' range at most 1, the middle third at most 2, the hardest 3 (hardness is a
high score, or a low success rate); ``A:B:N`` is N evenly spaced targets from A to B.
"""

from __future__ import annotations

import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.solving import curve


@pytest.mark.parametrize(("k", "cap"), [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 3)])
def test_score_targets_are_capped_by_their_third_of_the_range(k, cap):
    values = [0.0, 33.0, 34.0, 66.0, 67.0, 99.0, 100.0]  # thirds of [0, 100]
    assert curve._rotation_cap(values, k, "score") == cap


@pytest.mark.parametrize(("k", "cap"), [(0, 3), (1, 3), (2, 2), (3, 1)])
def test_success_targets_are_hardest_where_success_is_lowest(k, cap):
    values = [0.2, 0.4, 0.6, 0.95]  # range 0.2-0.95: hardness 1, 0.73, 0.47, 0
    assert curve._rotation_cap(values, k, "success") == cap


def test_a_flat_curve_caps_nothing_below_three():
    assert curve._rotation_cap([40.0, 40.0], 1, "score") == 3
    assert curve._rotation_cap([0.5], 0, "success") == 3


def test_a_ramp_spec_and_its_refusals():
    assert curve.parse_curve("10:20:3") == [10.0, 15.0, 20.0]
    assert curve.parse_curve("5:5:1") == [5.0]
    assert len(curve.parse_curve(f"0:1:{curve.MAX_SLOTS}")) == 200
    for bad, said in [("a:2:3", "curve: expected START:STOP:COUNT, e.g. 25:75:24 (got 'a:2:3')"),
                      ("1:2:0", "curve: COUNT must be 1-200 (got '1:2:0')"),
                      ("1:2:201", "curve: COUNT must be 1-200 (got '1:2:201')")]:  # fmt: skip
        with pytest.raises(ArgumentError) as err:
            curve.parse_curve(bad)
        assert str(err.value) == said


def test_a_csv_curve_reads_its_target_column(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("slot,Target\n1,30\n\n2, 45.5\n", encoding="utf-8")
    assert curve.parse_curve(path) == [30.0, 45.5]
    path.write_text("30\n45\n", encoding="utf-8")
    assert curve.parse_curve(path) == [30.0, 45.0]
    path.write_text("30\nlots\n", encoding="utf-8")
    with pytest.raises(ArgumentError, match="row 2: a target must be a number"):
        curve.parse_curve(path, argument="targets")


def refusal(spec, argument="curve"):
    with pytest.raises(ArgumentError) as err:
        curve.parse_curve(spec, argument=argument)
    return err.value


def test_a_spec_that_is_neither_a_ramp_nor_a_file_is_named(tmp_path):
    spec = str(tmp_path / "nothing.csv")
    err = refusal(spec)
    assert str(err) == f"curve: neither START:STOP:COUNT nor a CSV file (got {spec!r})"
    assert err.argument == "curve" and err.value == spec
    assert str(refusal(str(tmp_path))).startswith("curve: neither START:STOP:COUNT")  # a folder


def test_a_csv_with_a_byte_order_mark_reads_its_first_number(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes("\ufeff30\n45\n".encode())  # "utf-8-sig": the mark is not part of "30"
    assert curve.parse_curve(path) == [30.0, 45.0]
    path.write_bytes("\ufefftarget\n30\n".encode())
    assert curve.parse_curve(path) == [30.0]


def test_blank_rows_are_skipped_even_with_separators(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("30\n,\n , \n45\n", encoding="utf-8")
    assert curve.parse_curve(path) == [30.0, 45.0]


def test_a_header_without_target_reads_the_first_column(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("level,value\n10,20\n11,30\n", encoding="utf-8")
    assert curve.parse_curve(path) == [10.0, 11.0]


def test_a_row_shorter_than_the_target_column_is_refused_with_an_empty_value(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("slot,target\n1,30\n2\n", encoding="utf-8")
    err = refusal(path, argument="--curve")
    assert str(err) == f"--curve: {path}: row 2: a target must be a number (got '')"
    assert err.value == ""


def test_a_csv_curve_has_one_to_max_slots_targets(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("30\n", encoding="utf-8")
    assert curve.parse_curve(path) == [30.0]  # one row: no header, one target
    path.write_text("".join(f"{i % 100}\n" for i in range(curve.MAX_SLOTS)), encoding="utf-8")
    assert len(curve.parse_curve(path)) == curve.MAX_SLOTS
    for count in (0, curve.MAX_SLOTS + 1):
        path.write_text("target\n" + "".join("5\n" for _ in range(count)), encoding="utf-8")
        err = refusal(path, argument="--curve")
        assert str(err) == f"--curve: {path}: a curve has 1-200 targets (got {count})"
        assert err.argument == "--curve" and err.value == count


# -- campaign_from_curve's checks, before any search -------------------------------------------
class SearchBegan(Exception):
    """Raised by the stand-in search: every check passed."""


@pytest.fixture
def search(monkeypatch):
    """Replace the search: record its options, then stop the campaign with SearchBegan."""
    calls = []

    def fake(rng, **options):
        calls.append(options)
        raise SearchBegan

    monkeypatch.setattr(curve, "generate_to_target", fake)
    return calls


def refused(targets, **options):
    with pytest.raises(ArgumentError) as err:
        curve.campaign_from_curve(targets, 1, progress=False, **options)
    return err.value


def test_a_campaign_lists_one_to_max_slots_targets(search):
    for bad in ([], [30.0] * (curve.MAX_SLOTS + 1)):
        err = refused(bad)
        assert err.argument == "targets" and err.value == bad
        assert str(err).startswith("targets: must list 1-200 targets (got [")
    assert str(refused([])) == "targets: must list 1-200 targets (got [])"
    err = refused("30")  # a string is not a list of targets (not the targets "3" and "0")
    assert str(err) == "targets: must list 1-200 targets (got '30')"
    with pytest.raises(SearchBegan):
        curve.campaign_from_curve([30.0] * curve.MAX_SLOTS, 1, progress=False)
    assert search[0]["time_limit"] == 10.0  # the documented default, seconds per slot


def test_score_targets_lie_in_0_100_and_success_targets_in_0_1(search):
    assert str(refused([30, 100.5])) == (
        "targets[1]: score targets must be numbers in [0, 100] (got 100.5)"
    )
    assert str(refused([-0.5])) == (
        "targets[0]: score targets must be numbers in [0, 100] (got -0.5)"
    )
    model = object()  # never asked: the search is replaced
    for bad in (1.5, -0.01):
        assert str(refused([0.5, bad], model=model)) == (
            f"targets[1]: success targets must be numbers in [0, 1] (got {bad})"
        )
    for edge in (0.0, 1.0):  # both ends of [0, 1] are allowed (a rate is not checked for reach)
        with pytest.raises(SearchBegan):
            curve.campaign_from_curve([edge], 1, model=model, progress=False)
        assert search[-1]["success"] == edge and search[-1]["model"] is model


# Reachable structural totals (constraints._parts_bounds, worked out by hand): the lowest total
# of n tiles and r rotations is 15·n/37 + 20·r/4 + 15/n, smallest at n = 6, r = 1:
# 2.43 + 5 + 2.5 = 9.93 -> 10; the highest 15·n/37 + 20·r/4 + 20·min(1, (n-1)/9) + 45, at
# r = 3 and the most tiles: 37 (radius 3) 95, 19 (radius 2) 87.7 -> 88, 3 tiles 65.7 -> 66.
@pytest.mark.parametrize(
    ("targets", "options", "said"),
    [
        ([0], {}, "targets[0]: cannot be reached with 1-3 rotations: reachable scores are 10-95 "
                  "(got 0)"),
        ([50, 100], {}, "targets[1]: cannot be reached with 1-3 rotations: reachable scores are "
                        "10-95 (got 100)"),
        ([50, 95], {"radius": 2}, "targets[1]: cannot be reached with 1-3 rotations and radius 2: "
                                  "reachable scores are 10-88 (got 95)"),
        ([80], {"tiles": (2, 3)}, "targets[0]: cannot be reached with 1-3 rotations and 2-3 tiles: "
                                  "reachable scores are 11-66 (got 80)"),
    ],
)  # fmt: skip
def test_an_unreachable_score_target_is_refused_naming_its_slot(search, targets, options, said):
    err = refused(targets, **options)
    assert str(err) == said
    assert err.argument == f"targets[{len(targets) - 1}]" and err.value == targets[-1]
    assert search == []


def test_reachable_edges_reach_the_search(search):
    for target, options in [(8, {}), (97, {}), (90, {"radius": 2}), (68, {"tiles": (2, 3)})]:
        with pytest.raises(SearchBegan):
            curve.campaign_from_curve([target], 1, progress=False, **options)
        assert search[-1]["score"] == target


def test_the_progress_bar_is_on_by_default_and_named(search, capsys):
    with pytest.raises(SearchBegan):
        curve.campaign_from_curve([30, 40], 1)
    err = capsys.readouterr().err
    assert "campaign:" in err and "0/2" in err and "level/s" in err  # named, counted in levels
    with pytest.raises(SearchBegan):
        curve.campaign_from_curve([30, 40], 1, progress=False)
    assert capsys.readouterr().err == ""


# -- the slot loop: named streams, retries, the uncapped search and its errors -----------------
# "Slot k is generated from the named stream curve/k of rng (curve/k/j for the j-th retry when it
# came out equal to an earlier level)"; "a slot that misses its target under the cap is searched
# again without it"; "a slot that cannot meet its target ... raises, naming the slot". The search
# is replaced by a stand-in playing a script: a level to return, or an error to raise.
def hand_level(n: int):
    """n tiles in a row from the centre: levels with different n are different puzzles."""
    from labkit.hexpuzzle import Level

    tiles = [(f"t{i}", i, 0, 0) for i in range(n)]
    return Level.hexagon(2, tracks=(1, 0, 3, 2, 5, 4), tiles=tiles)


def missed(message, value):
    from labkit.hexpuzzle.solving.generator import GeneratorOptionError

    return GeneratorOptionError(message, argument="score", value=value)


@pytest.fixture
def scripted(monkeypatch):
    """``(script, calls)``: each search plays the next step and records its id, span and draw."""
    script, calls = [], []

    def fake(rng, *, rotations, **options):
        calls.append((options["id"], tuple(rotations), rng.random()))
        step = script.pop(0)
        if isinstance(step, Exception):
            raise step
        kind = "score" if "score" in options else "success"
        made = {"target": {kind: options[kind], "tolerance": 2}, "achieved": {kind: 1}}
        return step.replace(id=options["id"], metadata={"generated": made})

    monkeypatch.setattr(curve, "generate_to_target", fake)
    return script, calls


def first_draw(seed, name):
    from labkit.rng import stream

    return stream(seed, name).random()


def test_each_retry_draws_from_its_own_stream_and_records_it(scripted):
    import numpy as np

    script, calls = scripted
    one = hand_level(1)
    # slot 2 repeats slot 1 twice (the board turned, then the level itself) before a new level
    script += [one, one.rotated(3), one, hand_level(2)]
    seed = np.random.SeedSequence(20261202)
    levels = curve.campaign_from_curve([30, 30], seed, progress=False)
    names = ["curve/0", "curve/1", "curve/1/1", "curve/1/2"]
    assert [draw for *_, draw in calls] == [first_draw(seed, n) for n in names]
    made = [lv.metadata["generated"] for lv in levels]
    assert [m["stream"] for m in made] == ["curve/0", "curve/1/2"]
    assert [m["seed"] for m in made] == [20261202, 20261202]  # entropy(rng): reproduces it
    assert levels.seed == 20261202
    assert [lv.id for lv in levels] == ["curve-01", "curve-02"]


def test_the_campaign_records_how_it_was_made(scripted):
    script, _ = scripted
    script += [hand_level(1), hand_level(2)]
    levels = curve.campaign_from_curve([30, 40], 5, progress=False)
    assert levels.seed == 5
    assert levels.generator == {"by": "labkit.hexpuzzle.campaign_from_curve", "kind": "score",
                                "curve": [30, 40]}  # fmt: skip
    script += [hand_level(1), hand_level(2)]
    levels = curve.campaign_from_curve([0.8, 0.6], 5, model=object(), progress=False)
    assert levels.generator["kind"] == "success" and levels.generator["curve"] == [0.8, 0.6]


def test_the_uncapped_search_of_a_slot_uses_the_same_stream(scripted):
    script, calls = scripted
    # slot 2 (target 10, the easiest third: cap 1) misses under its cap, then is found without it
    script += [hand_level(1), missed("missed", 9), hand_level(2)]
    levels = curve.campaign_from_curve([60, 10], 4, progress=False)
    assert [(i, span) for i, span, _ in calls] == [
        ("curve-01", (1, 3)), ("curve-02", (1, 1)), ("curve-02", (1, 3))]  # fmt: skip
    assert calls[1][2] == calls[2][2] == first_draw(4, "curve/1")
    assert levels[1].metadata["generated"]["stream"] == "curve/1"


def test_a_slot_that_cannot_meet_its_target_is_named(scripted):
    from labkit.hexpuzzle.solving.generator import GeneratorOptionError

    script, _ = scripted
    script += [hand_level(1), hand_level(2), missed("no level within 2 of 30", 31)]
    with pytest.raises(GeneratorOptionError) as err:  # a flat curve: searched without a cap
        curve.campaign_from_curve([30, 30, 30], 1, progress=False)
    assert str(err.value) == "score: slot 3 of 3: no level within 2 of 30 (got 31)"
    assert err.value.argument == "score" and err.value.value == 31


def test_a_slot_missing_with_and_without_its_cap_is_named(scripted):
    from labkit.hexpuzzle.solving.generator import GeneratorOptionError

    script, calls = scripted
    script += [hand_level(1), missed("under the cap", 9), missed("without the cap", 8)]
    with pytest.raises(GeneratorOptionError) as err:
        curve.campaign_from_curve([60, 10], 1, progress=False)
    assert len(calls) == 3  # the cap was dropped before giving up
    assert str(err.value) == "score: slot 2 of 2: without the cap (got 8)"
    assert err.value.argument == "score" and err.value.value == 8


def test_a_slot_whose_every_try_repeats_is_named_with_its_target(scripted):
    from labkit.hexpuzzle.solving.generator import GeneratorError

    script, calls = scripted
    one = hand_level(1)
    script += [one] + [one.rotated(j) for j in range(curve.RETRIES)]
    with pytest.raises(GeneratorError) as err:
        curve.campaign_from_curve([30, 35.5], 1, progress=False)
    assert len(calls) == 1 + curve.RETRIES
    assert str(err.value) == "slot 2: every try repeated an earlier level (got 35.5)"
    assert err.value.value == 35.5
