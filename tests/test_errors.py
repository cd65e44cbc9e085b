"""Bad arguments raise labkit.ArgumentError naming the argument and the value, in every domain."""

from __future__ import annotations

import numpy as np
import pytest

from labkit import ArgumentError, LabkitError, encounter, hexpuzzle, mapturn, pathfinding, rng
from labkit.cli import main

LEVEL = hexpuzzle.Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])

CASES = {
    "first_contact radius": (
        lambda: hexpuzzle.first_contact([[0, 0], [1, 0]], [[5, 5]], radius=-1),
        "radius",
    ),
    "first_contact path": (lambda: hexpuzzle.first_contact([1, 2, 3], [[5, 5]]), "path"),
    "first_contacts paths": (
        lambda: hexpuzzle.first_contacts(np.zeros((2, 1, 2)), [[0, 0]]),
        "paths",
    ),
    "solve max_states": (lambda: hexpuzzle.solve(LEVEL, max_states=0), "max_states"),
    "rotate step": (lambda: hexpuzzle.PuzzleState(LEVEL).rotate(2), "step"),
    "grid_costs cost": (lambda: pathfinding.grid_costs(np.zeros(3), (0, 0)), "cost"),
    "grid_path start": (lambda: pathfinding.grid_path(np.ones((2, 2)), (5, 0), (0, 0)), "start"),
    "gauge_timeline ticks": (lambda: mapturn.gauge_timeline([1.0], -1), "ticks"),
    "gauge_timeline time_costs": (lambda: mapturn.gauge_timeline([[1.0]], 3), "time_costs"),
    "propagate_sound shape": (lambda: encounter.propagate_sound((0, 3), []), "shape"),
    "simulate_fights n": (
        lambda: encounter.simulate_fights(encounter.Loadout(), encounter.Loadout(), 0),
        "n",
    ),
    "compose loadout": (
        lambda: encounter.compose(encounter.Loadout(character="dragon")),
        "loadout.character",
    ),
    "sample_hits index": (lambda: encounter.sample_hits(np.array([0.5])), "index"),
    "run_batch settings": (lambda: encounter.run_batch([], progress=False), "settings"),
    "rng seed": (lambda: rng.make_rng(-1), "rng"),
    "stream name": (lambda: rng.stream(0, ""), "name"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_arguments_name_the_argument(case: str) -> None:
    call, argument = CASES[case]
    with pytest.raises(ArgumentError) as info:
        call()
    err = info.value
    assert isinstance(err, ValueError) and isinstance(err, LabkitError)
    assert err.argument == argument and str(err).startswith(f"{argument}: ")
    assert err.pointer is None  # arguments are not JSON fields: no invented pointers


def test_the_cli_reports_a_bad_option_as_one_line(tmp_path, capsys) -> None:
    path = tmp_path / "level.json"
    LEVEL.save(path)
    assert main(["puzzle", "solve", str(path), "--max-states", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    # one line, naming the option, the rule and the value (argparse's typed option since issue 17)
    assert err == [
        "labkit puzzle solve: error: argument --max-states: must be between 1 and 10000000 "
        "(got 0) (see --help)"
    ]
