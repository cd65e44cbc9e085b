"""P7: the pathfinding system binds mover, layer, predicate, handler and costs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from labkit.pathfinding import (
    EIGHT_WAY,
    DefaultPassPredicate,
    HeroMover,
    LayerWarning,
    NoTilePassPredicate,
    PathfindingStatus,
    PathfindingSystem,
    StepResult,
    TileDef,
)

from .conftest import text_map

S = PathfindingStatus


def setup(*rows, at=(0, 0), state=None):
    m = text_map(*rows, state=state)
    system = PathfindingSystem()
    system.use_map_layer(m.event_layer)
    hero = HeroMover(m.event_layer, at)
    system.use_mover(hero)
    return system, hero, m


def test_before_a_layer_is_bound_get_path_is_invalid_input():
    system = PathfindingSystem()
    system.use_mover(HeroMover(None, (0, 0)))
    assert system.get_path((1, 0)).status is S.INVALID_INPUT


def test_missing_handler_or_predicate_is_invalid_input():
    system, _, _ = setup("...")
    system.use_face_handler(None)
    assert system.get_path((2, 0)).status is S.INVALID_INPUT
    system, _, _ = setup("...")
    system.use_predicate(None)
    assert system.get_path((2, 0)).status is S.INVALID_INPUT


def test_get_path_reads_the_start_from_the_mover():
    system, hero, _ = setup("....")
    hero.teleport((2, 0))
    r = system.get_path((3, 0))
    assert r.start == (2, 0) and r.cost == 1.0
    assert system.get_path((2, 0)).status is S.TARGET_UNDER


def test_move_to_walks_step_by_step_through_the_mover():
    system, hero, _ = setup("...", "...")
    walk = system.move_to((2, 1))
    assert walk.arrived and hero.position == (2, 1)
    assert walk.results == [StepResult.STEP] * 3 and len(hero.recording) == 3
    entered = [cell for kind, cell in hero.events if kind == "enter"]
    assert len(entered) == 3 and entered[-1] == (2, 1)


def test_move_to_a_terminal_target_ends_with_a_hit():
    system, hero, _ = setup("..D")
    walk = system.move_to((2, 0))
    assert walk.results[-1] is StepResult.HIT and hero.position == (1, 0)
    assert ("touch", (2, 0)) in hero.events


def test_teleport_without_policy_walks_with_policy_jumps_silently():
    system, hero, _ = setup("....")
    walk = system.teleport_to((3, 0))
    assert not walk.teleported and len(walk.results) == 3
    system, hero, _ = setup("....")
    hooked = []
    system.teleport_policy = lambda sys, result: True
    system.teleport_hook = lambda sys, result: hooked.append(result.target)
    walk = system.teleport_to((3, 0))
    assert walk.teleported and hero.position == (3, 0)
    assert hero.events == [] and hooked == [(3, 0)]  # intermediate cells trigger nothing


def test_teleport_to_a_hit_target_still_hits():
    system, hero, _ = setup("...D")
    system.teleport_policy = lambda sys, result: True
    walk = system.teleport_to((3, 0))
    assert hero.position == (2, 0) and walk.results == [StepResult.HIT]


def test_interrupt_stops_and_new_moves_are_refused_while_one_runs():
    system, hero, _ = setup(".....")
    refused = []

    def listener(kind, cell):
        if kind == "enter" and cell == (2, 0):
            refused.append(system.move_to((0, 0)))
            refused.append(system.teleport_to((0, 0)))
            system.interrupt()

    hero.listeners.append(listener)
    walk = system.move_to((4, 0))
    assert refused == [None, None]
    assert walk.interrupted and hero.position == (2, 0)
    hero.listeners.clear()
    assert system.move_to((4, 0)).arrived  # once over, moves are accepted again


def test_unstarted_walk_blocks_new_moves_until_finished():
    system, hero, _ = setup("...")
    walk = system.move_to((2, 0), run=False)
    assert system.moving and system.move_to((1, 0)) is None
    walk.advance()
    walk.advance()
    assert walk.finished and not system.moving and hero.position == (2, 0)


def test_layer_of_another_state_warns_and_is_ignored():
    system, _, m = setup("...", state="game A")
    other = text_map("...", state="game B")
    with pytest.warns(LayerWarning):
        system.use_map_layer(other.event_layer)
    assert system.layer is m.event_layer


def test_changing_floor_binds_new_layer_and_old_is_never_used():
    state = object()
    floor1 = text_map("...", state=state)
    floor2 = text_map(".#.", "...", state=state)
    system = PathfindingSystem(state=state)
    system.use_map_layer(floor1.event_layer)
    system.use_map_layer(floor2.event_layer)
    system.use_face_handler(EIGHT_WAY)  # the new floor's neighbourhood
    r = system.find((0, 0), (2, 0))
    assert r.ok and r.cost == 2.0 and r.layer is floor2.event_layer
    floor1.event_layer.set_tile(1, 0, 1)  # changes on the old floor have no effect
    assert system.find((0, 1), (2, 1)).cost == 2.0


def test_after_a_floor_change_the_hero_walks_the_new_floor():
    state = object()
    floor1 = text_map("...", state=state)
    floor2 = text_map(".#.", "...", state=state)
    system = PathfindingSystem(state=state, face=EIGHT_WAY)
    system.use_map_layer(floor1.event_layer)
    hero = HeroMover(floor1.event_layer, (0, 0))
    system.use_mover(hero)
    system.use_map_layer(floor2.event_layer)
    walk = system.move_to((2, 0))  # around the wall through row 1, which floor 1 lacks
    assert hero.layer is floor2.event_layer
    assert walk.arrived and walk.results == [StepResult.STEP] * 2


def test_finder_and_mover_each_hold_a_predicate_the_pitfall():
    lava = TileDef(30, name="lava")
    m = text_map("...")
    m = type(m)({**m.tile_table, 30: lava}, event=[[0, 30, 0]])
    system = PathfindingSystem()
    system.use_map_layer(m.event_layer)
    hero = HeroMover(m.event_layer, (0, 0), predicate=NoTilePassPredicate(30))
    system.use_mover(hero)
    # pathfinding says yes, the hero cannot walk: the two sides use different rules
    assert system.get_path((2, 0)).ok
    walk = system.move_to((2, 0))
    assert walk.results == [StepResult.CANNOT_MOVE] and hero.position == (0, 0)
    # the same predicate on both sides: consistent
    system.use_predicate(hero.predicate)
    assert system.get_path((2, 0)).status is S.NO_PATH


def test_use_cost_changes_the_path_cost():
    system, hero, _ = setup("...")
    system.use_cost(np.array([[1.0, 5.0, 2.0]]))
    assert system.get_path((2, 0)).cost == 7.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        system.use_cost(None)
        assert system.get_path((2, 0)).cost == 2.0


def test_default_predicate_is_the_default_on_both_sides():
    system, hero, _ = setup(".")
    assert isinstance(system.predicate, DefaultPassPredicate)
    assert isinstance(hero.predicate, DefaultPassPredicate)
