"""Statuses and outcomes: one StrEnum each, one spelling (lowercase snake_case), still strings."""

from __future__ import annotations

import enum
import importlib
import json
import re

import pytest

from labkit import encounter, hexpuzzle, pathfinding
from labkit._status import Status
from labkit.encounter.records import trace as trace_module
from labkit.encounter.sim import session as session_module
from labkit.hexpuzzle.difficulty import scoring
from labkit.hexpuzzle.solving import solver

STATUSES = {
    "Outcome": (hexpuzzle.Outcome, {"exit", "blocked", "loop"}),
    "SolutionStatus": (hexpuzzle.SolutionStatus, {"solved", "unsolvable", "exhausted"}),
    "GameStatus": (hexpuzzle.GameStatus, {"playing", "won", "lost"}),
    "AdviceStatus": (
        hexpuzzle.AdviceStatus,
        {"ok", "won", "lost", "out_of_steps", "unsolvable", "undetermined"},
    ),
    "DifficultyStatus": (
        hexpuzzle.DifficultyStatus,
        {"ok", "invalid_empty", "unsolvable", "undetermined", "too_few_steps"},
    ),
    "EndReason": (encounter.EndReason, {"victory", "step_limit", "mutual_death"}),
    "StepResult": (pathfinding.StepResult, {"cannot_move", "hit", "step", "stop"}),
    "PathfindingStatus": (
        pathfinding.PathfindingStatus,
        {"success", "invalid_input", "no_path", "target_under"},
    ),
}


@pytest.mark.parametrize("name", sorted(STATUSES))
def test_each_status_is_a_str_enum_with_one_spelling(name: str) -> None:
    cls, values = STATUSES[name]
    assert issubclass(cls, enum.StrEnum) and issubclass(cls, Status)
    assert {m.value for m in cls} == values
    for member in cls:
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", member.value), member.value
        assert member.name == member.value.upper()
        assert member == member.value and isinstance(member, str)
        assert repr(member) == repr(member.value) and f"{member}" == member.value
        assert json.dumps({"s": member}) == json.dumps({"s": member.value})


def test_the_old_constants_are_the_enums_not_second_definitions() -> None:
    tmod = importlib.import_module("labkit.hexpuzzle.tap_trace")
    assert tmod.TAP_OUTCOMES == tuple(hexpuzzle.Outcome)
    assert solver.STATUSES == tuple(hexpuzzle.SolutionStatus)
    assert scoring.STATUSES == tuple(hexpuzzle.DifficultyStatus)
    assert session_module.END_REASONS is encounter.END_REASONS
    assert trace_module.END_REASONS is encounter.END_REASONS


def test_results_carry_the_enum_and_compare_as_strings() -> None:
    lvl = hexpuzzle.Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
    t = hexpuzzle.trace_tap(lvl, "a")
    assert t.outcome is hexpuzzle.Outcome.BLOCKED and t.outcome == "blocked"
    sol = hexpuzzle.solve(lvl)
    assert isinstance(sol.status, hexpuzzle.SolutionStatus)
    assert hexpuzzle.score(hexpuzzle.Level.hexagon(2)).status == "invalid_empty"
    state = hexpuzzle.PuzzleState(lvl)
    assert state.status is hexpuzzle.GameStatus.PLAYING
    assert isinstance(hexpuzzle.advise(state).status, hexpuzzle.AdviceStatus)


def test_a_plain_string_status_is_checked() -> None:
    assert hexpuzzle.Solution("solved").status is hexpuzzle.SolutionStatus.SOLVED
    with pytest.raises(ValueError, match="'won'"):
        hexpuzzle.Solution("won")


def test_traces_with_the_old_uppercase_end_reasons_still_load_and_replay(tmp_path) -> None:
    game = encounter.GameSession(encounter.SimulationSettings(seed=2, max_steps=40))
    t = game.run()
    assert t.end_reason in encounter.END_REASONS
    doc = json.loads(t.to_json())
    assert doc["end_reason"] == t.end_reason.value
    old = t.end_reason.value.upper()
    doc["end_reason"] = old
    for e in doc["events"]:
        if e["category"] == "end":
            e["state"]["reason"] = e["state"]["reason"].upper()
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc))
    back = encounter.SimulationTrace.load(path)
    assert back.end_reason is encounter.EndReason(old.lower())
    assert encounter.replay(back) is None


# Enumerations that are not statuses, and why: each is a number the rules compute with.
NOT_STATUSES = {
    "labkit.pathfinding.tiles.PassBit": "bit flags combined with | and tested with & (rule P2)",
    "labkit.pathfinding.tiles.Direction": "a move with its (dx, dy) offset and pass mask (rule P3)",
    "labkit.encounter.rules.sound.Compass": "compass index the sound kernel computes (rule E3)",
}


def _enums_in_package() -> dict[str, type]:
    from tests.package_classes import classes_in_package

    return classes_in_package(enum.Enum)


def test_every_enum_in_the_package_is_a_status_or_says_why_not() -> None:
    enums = _enums_in_package()
    loose = sorted(
        n for n, e in enums.items() if not issubclass(e, Status) and n not in NOT_STATUSES
    )
    assert loose == [], "plain enums: make them a labkit._status.Status or list them with a reason"
    assert set(NOT_STATUSES) <= set(enums), "NOT_STATUSES names an enum that does not exist"
    for name, cls in enums.items():
        if issubclass(cls, Status):
            for member in cls:
                assert re.fullmatch(r"[a-z]+(_[a-z]+)*", member.value), (name, member.value)


def test_action_results_are_statuses_in_words_for_people() -> None:
    from labkit.mapturn import ActionKind, Actions, MapTurn, World, example_tower_path, load_tower

    act = Actions(MapTurn(World(load_tower(example_tower_path()))))
    assert act.move("R").kind is ActionKind.MOVED
    assert act.ui("manual").kind is ActionKind.UI
    assert ActionKind.BATTLE_SKILL_OFF.words == "battle skill off"
    assert {k.value for k in ActionKind} >= {"moved", "blocked", "battle", "not_owned", "ui"}
