"""P1, P4: the hero mover's three results, settle, bounds, switches, recording and replay."""

from __future__ import annotations

from labkit.pathfinding import DefaultPassPredicate, Direction, HeroMover, StepResult

from .conftest import text_map

R, L, U, D = Direction.RIGHT, Direction.LEFT, Direction.UP, Direction.DOWN


class Spy(DefaultPassPredicate):
    """Counts the questions asked (a subclass, so it is asked per call)."""

    def __init__(self):
        super().__init__()
        self.asked = []

    def can_pass(self, check):
        self.asked.append(("can_pass", check.next))
        return super().can_pass(check)

    def should_hit(self, check):
        self.asked.append(("should_hit", check.next))
        return super().should_hit(check)


def test_mover_asks_its_predicate():
    m = text_map("..")
    spy = Spy()
    HeroMover(m.event_layer, (0, 0), predicate=spy).step(R)
    assert spy.asked == [("can_pass", (1, 0)), ("should_hit", (1, 0))]


def test_cannot_move_keeps_position_calls_hook_and_fires_no_touch():
    m = text_map(".#")
    hero = HeroMover(m.event_layer, (0, 0))
    seen = []
    hero.cannot_enter = lambda check: seen.append(check.next)
    assert hero.step(R) is StepResult.CANNOT_MOVE
    assert hero.position == (0, 0) and seen == [(1, 0)]
    assert ("touch", (1, 0)) not in hero.events


def test_hit_keeps_position_and_fires_touch_on_the_next_cell():
    hero = HeroMover(text_map(".D").event_layer, (0, 0))
    assert hero.step(R) is StepResult.HIT
    assert hero.position == (0, 0)
    assert hero.events[0] == ("touch", (1, 0))


def test_step_writes_cell_then_leave_old_then_enter_new():
    hero = HeroMover(text_map("..").event_layer, (0, 0))
    assert hero.step(R) is StepResult.STEP
    assert hero.position == (1, 0)
    assert hero.events == [("leave", (0, 0)), ("enter", (1, 0))]


def test_settle_runs_after_every_step_also_failed_ones():
    hero = HeroMover(text_map(".#D", "...").event_layer, (1, 1))
    settled = []
    hero.on_settle = lambda mover, before, result: settled.append((before, mover.position, result))
    results = [hero.step(U), hero.step(R), hero.step(U)]  # wall, step, door
    assert results == [StepResult.CANNOT_MOVE, StepResult.STEP, StepResult.HIT]
    assert [s[2] for s in settled] == results
    # the failed steps leave and enter the same cell: count triggers and you are fooled
    assert hero.events[:2] == [("leave", (1, 1)), ("enter", (1, 1))]
    assert hero.events[-2:] == [("leave", (2, 1)), ("enter", (2, 1))]
    assert settled[0][0] == settled[0][1] and settled[1][0] != settled[1][1]


def test_bounds_are_checked_first():
    spy = Spy()
    hero = HeroMover(text_map("..").event_layer, (0, 0), predicate=spy)
    assert hero.step(L) is StepResult.STOP
    assert hero.position == (0, 0) and spy.asked == []


def test_ignore_terrain_skips_predicate_and_events_but_not_bounds():
    spy = Spy()
    hero = HeroMover(text_map(".#D").event_layer, (0, 0), predicate=spy, ignore_terrain=True)
    assert hero.step(R) is StepResult.STEP and hero.step(R) is StepResult.STEP
    assert hero.position == (2, 0)
    assert hero.step(R) is StepResult.STOP and hero.position == (2, 0)
    assert spy.asked == [] and hero.events == []


def test_allow_out_bound_skips_bounds_too():
    hero = HeroMover(text_map("..").event_layer, (0, 0), ignore_terrain=True, allow_out_bound=True)
    assert hero.step(L) is StepResult.STEP and hero.position == (-1, 0)
    hero = HeroMover(text_map("..").event_layer, (0, 0), allow_out_bound=True)
    # outside the map there is no static tile, so the default predicate imposes nothing
    assert hero.step(U) is StepResult.STEP and hero.position == (0, -1)


def test_directional_moves_are_recorded_before_judging_script_moves_are_not():
    m = text_map(".#", "..")
    hero = HeroMover(m.event_layer, (0, 0))
    hero.step(R)  # wall: recorded anyway
    hero.step(D)
    hero.script_step(R)
    hero.step(L)  # bounds stop: recorded too
    assert hero.recording == [R, D, L]


def test_replay_repeats_failed_attempts_with_the_same_results():
    m = text_map(".#D", "...")
    hero = HeroMover(m.event_layer, (0, 0))
    moves = [R, D, R, R, U, U, L, L]
    results = [hero.step(d) for d in moves]
    assert StepResult.CANNOT_MOVE in results and StepResult.HIT in results
    twin = HeroMover(m.event_layer, (0, 0))
    assert twin.replay(hero.recording) == results
    assert twin.position == hero.position and twin.events == hero.events
    assert twin.recording == []
