"""The rotation cap per slot of campaign_from_curve, from its rule (solving/curve.py docstring).

"Rotations are first capped by the slot's place on the curve: the easiest third of the targets'
range at most 1, the middle third at most 2" (the hardest third up to 3); "where the curve rises
a slot needs at least as many rotations as the slot before"; "a slot that misses its target under
the cap is searched again without it". The search is replaced by a stand-in that records the
rotation span each slot is searched with; the expected spans are worked out here from the rule.
"""

from __future__ import annotations

import pytest

from labkit.hexpuzzle import campaign_from_curve, score
from labkit.hexpuzzle.solving import curve, generator

# distinct generated levels by their number of rotations (generate(seed, tiles=5), seeds looked
# up once; the fixture checks it)
POOL = {1: [0, 3, 5, 6, 7, 10, 11], 2: [1, 4, 8, 9], 3: [2]}


@pytest.fixture(scope="module")
def levels():
    out = {r: [generator.generate(s, tiles=5) for s in seeds] for r, seeds in POOL.items()}
    assert all(score(lv).R == r for r, lvs in out.items() for lv in lvs)  # the pool's premise
    return out


def stand_in(monkeypatch, levels, rotations_of, refuse=()):
    """Record (slot id, rotation span) per search; slot k's level has ``rotations_of[k]``."""
    calls: list[tuple[str, tuple[int, int]]] = []
    used = {r: 0 for r in levels}

    def fake(rng, *, rotations, **options):
        calls.append((options["id"], tuple(rotations)))
        if (options["id"], tuple(rotations)) in refuse:
            raise generator.GeneratorOptionError("missed", argument="score", value=1)
        k = int(options["id"].rsplit("-", 1)[1]) - 1
        r = rotations_of[k]
        level = levels[r][used[r]]
        used[r] += 1
        kind = "score" if "score" in options else "success"
        made = {"target": {kind: options[kind], "tolerance": 2}, "achieved": {kind: 1}}
        return level.replace(id=options["id"], metadata={"generated": made})

    monkeypatch.setattr(curve, "generate_to_target", fake)
    return calls


def test_falling_score_curve_caps_each_slot_by_its_third(monkeypatch, levels):
    # falling: no slot needs the previous slot's rotations, so each span is (1, cap of its third)
    targets = [90, 75, 55, 45, 25, 10]  # places 1, .81, .56, .44, .19, 0 of the range
    calls = stand_in(monkeypatch, levels, [1] * 6)
    campaign_from_curve(targets, 3, progress=False)
    assert [span for _, span in calls] == [(1, 3), (1, 3), (1, 2), (1, 2), (1, 1), (1, 1)]


def test_rising_curve_keeps_the_previous_rotations_as_the_floor_and_lifts_the_cap(
    monkeypatch, levels
):
    # places 0, .06, .12, 1: caps 1, 1, 1, 3. Slot 2's level has 2 rotations (the stand-in plays
    # a level found after the cap was dropped), so slot 3, rising, needs 2 and its cap is lifted.
    targets = [10, 15, 20, 95]
    calls = stand_in(monkeypatch, levels, [1, 2, 2, 3])
    campaign_from_curve(targets, 3, progress=False)
    assert [span for _, span in calls] == [(1, 1), (1, 1), (2, 2), (2, 3)]


def test_flat_curve_is_not_capped(monkeypatch, levels):
    calls = stand_in(monkeypatch, levels, [1, 1, 1])
    campaign_from_curve([40, 40, 40], 3, progress=False)
    assert [span for _, span in calls] == [(1, 3)] * 3


def test_success_curve_is_hardest_where_the_rate_is_lowest(monkeypatch, levels):
    from tests.hexpuzzle.solving.test_targets import StandInSkillModel

    calls = stand_in(monkeypatch, levels, [1, 1, 1])
    campaign_from_curve([0.9, 0.5, 0.1], 3, model=StandInSkillModel(), progress=False)
    # 0.9 is the easiest (cap 1), 0.5 the middle (2), 0.1 the hardest (3); falling rates rise
    assert [span for _, span in calls] == [(1, 1), (1, 2), (1, 3)]


def test_a_slot_missing_under_its_cap_is_searched_again_without_it(monkeypatch, levels):
    calls = stand_in(monkeypatch, levels, [1, 1], refuse={("curve-02", (1, 1))})
    campaign_from_curve([60, 10], 3, progress=False)
    assert calls == [("curve-01", (1, 3)), ("curve-02", (1, 1)), ("curve-02", (1, 3))]


def test_the_cap_works_inside_the_asked_rotations(monkeypatch, levels):
    # rotations=(2, 3): the easiest third's cap of 1 is raised to the asked least, 2
    calls = stand_in(monkeypatch, levels, [2, 2, 3])
    campaign_from_curve([75, 50, 20], 3, progress=False, rotations=(2, 3), tiles=(5, 8))
    assert [span for _, span in calls] == [(2, 3), (2, 2), (2, 2)]


# "Where the curve rises (a higher score, or a lower success rate, than the slot before) a slot
# needs at least as many rotations as the slot before; where it falls or stays, it may need
# fewer." Slot 1's level has 2 rotations in each case below (a level found without the cap).
def test_a_success_curve_rises_where_the_rate_falls(monkeypatch, levels):
    from tests.hexpuzzle.solving.test_targets import StandInSkillModel

    calls = stand_in(monkeypatch, levels, [2, 2, 1])
    campaign_from_curve([0.9, 0.5, 0.1], 3, model=StandInSkillModel(), progress=False)
    assert [span for _, span in calls] == [(1, 1), (2, 2), (2, 3)]


def test_a_level_at_the_same_target_may_need_fewer_rotations(monkeypatch, levels):
    from tests.hexpuzzle.solving.test_targets import StandInSkillModel

    calls = stand_in(monkeypatch, levels, [2, 1])
    campaign_from_curve([40, 40], 3, progress=False)
    assert [span for _, span in calls] == [(1, 3), (1, 3)]
    calls = stand_in(monkeypatch, levels, [2, 1])
    campaign_from_curve([0.5, 0.5], 3, model=StandInSkillModel(), progress=False)
    assert [span for _, span in calls] == [(1, 3), (1, 3)]


def test_a_falling_curve_after_a_two_rotation_level_is_not_held_to_two(monkeypatch, levels):
    from tests.hexpuzzle.solving.test_targets import StandInSkillModel

    calls = stand_in(monkeypatch, levels, [2, 1])
    campaign_from_curve([90, 10], 3, progress=False)
    assert [span for _, span in calls] == [(1, 3), (1, 1)]
    calls = stand_in(monkeypatch, levels, [2, 1])
    campaign_from_curve([0.1, 0.9], 3, model=StandInSkillModel(), progress=False)
    assert [span for _, span in calls] == [(1, 3), (1, 1)]
