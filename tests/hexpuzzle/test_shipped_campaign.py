"""The shipped 24-level main line (SPEC H8), its reproducibility, and the solver CLI."""

from __future__ import annotations

import json
import math

import pytest

from labkit.hexpuzzle import shipped_campaign as camp
from labkit.hexpuzzle.difficulty.scoring import score
from labkit.hexpuzzle.solving.solver import play_actions, solve

LEVELS = camp.campaign()
DOC = json.loads(camp.campaign_path().read_text(encoding="utf-8"))


def test_campaign_shape_order_and_bands():
    assert len(LEVELS) == 24
    assert [lv.id for lv in LEVELS] == [f"main-{i:02d}" for i in range(1, 25)]
    scores = [score(lv) for lv in LEVELS]
    totals = [d.total for d in scores]
    assert totals == sorted(totals)
    assert all(d.status == "ok" for d in scores)
    assert {d.band for d in scores} == {"easy", "intermediate", "hard", "challenge"}
    assert all(1 <= d.R <= 3 for d in scores)
    # The file's recorded scores are what the scorer says today.
    assert [e["score"] for e in DOC["levels"]] == [d.to_dict() for d in scores]


# Neighbour offsets of SPEC H1, by direction/port.
OFFSETS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def mean_turns(doc):
    """H9's T from the level JSON alone: follow each tile's route cell by cell (H4) and count
    the cells passed through by non-opposite ports, one cycle of a loop."""
    tracks = {(c["q"], c["r"]): c["tracks"] for c in doc["cells"]}
    total = 0
    for tile in doc["tiles"]:
        (q, r), port, seen = (tile["q"], tile["r"]), tile["dir"], set()
        while True:
            dq, dr = OFFSETS[port]
            q, r = q + dq, r + dr
            if (q, r) not in tracks:
                break
            entry = (port + 3) % 6
            if ((q, r), entry) in seen:
                break
            seen.add(((q, r), entry))
            port = tracks[(q, r)][entry]
            total += port != (entry + 3) % 6
    return total / len(doc["tiles"])


def h9_total(N, T, W, F, R, M):
    """SPEC H9 written out: the six parts and the total rounded half up."""
    K = N
    parts = [
        min(1, N / 37) * 15,
        min(1, T / 5) * 20,
        min(1, max(0, W - 1) / 9) * 20,
        (1 - F / N) * 15,
        min(1, R / 4) * 20,
        min(1, max(0, 1 - (M - K) / max(1, 0.4 * N))) * 10,
    ]
    return math.floor(sum(parts) + 0.5)


def h9_band(total):
    return (
        "easy"
        if total < 30
        else "intermediate"
        if total < 50
        else "hard"
        if total < 70
        else ("challenge")
    )


@pytest.mark.parametrize("index", range(24))
def test_recorded_scores_follow_the_spec_formula(index):
    entry, level = DOC["levels"][index], LEVELS[index]
    recorded, d = entry["score"], score(level)
    # Measured from the level file alone: N, M and T.
    N, M = len(entry["level"]["tiles"]), entry["level"]["moveLimit"]
    T = mean_turns(entry["level"])
    assert (d.N, d.K, d.M) == (N, N, M) and d.T == pytest.approx(T)
    # W and R come from the solver: its solution replays to a win with R rotations, and W
    # layers can hold at most N taps.
    sol = solve(level)
    assert sum(a.kind == "rotate" for a in sol.actions) == d.R == sol.rotations
    assert 1 <= d.W <= N and 0 <= d.F <= N
    want = h9_total(N, T, d.W, d.F, d.R, M)
    assert d.total == recorded["total"] == want
    assert d.band == recorded["band"] == h9_band(want)


@pytest.mark.parametrize("index", range(24))
def test_every_campaign_level_is_solved_and_replays(index):
    level = LEVELS[index]
    sol = solve(level)
    assert sol.solved and 1 <= sol.rotations <= 3
    game = play_actions(level, sol.actions)
    assert game.status == "won" and game.steps_used == len(level.tiles) <= level.move_limit


@pytest.mark.parametrize("position", [0, 12, 23])
def test_slots_regenerate_identically(position):
    entry = DOC["levels"][position]
    level = camp.slot_level(DOC["seed"], entry["slot"], DOC["generator"]["recipes"][entry["slot"]])
    shipped = dict(entry["level"])
    fresh = level.to_dict()
    for key in ("id", "name"):
        shipped.pop(key)
        fresh.pop(key)
    assert fresh == shipped
    # And the slot is what its recipe (H8) asks for, checked on the level itself.
    recipe = DOC["generator"]["recipes"][entry["slot"]]
    assert len(level.board) == {2: 19, 3: 37}[recipe["radius"]]
    assert recipe["tiles"][0] <= len(level.tiles) <= recipe["tiles"][1]
    assert recipe["slack"][0] <= level.move_limit - len(level.tiles) <= recipe["slack"][1]
    rotations = solve(level).rotations
    assert recipe["rotations"][0] <= rotations <= recipe["rotations"][1]
