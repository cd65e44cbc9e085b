"""Hostile input, issue 46 (4, 5): cluster options checked before connecting, and every number
and option of the API and the CLI typed and bounded before any work, with one-line errors.

The case builders live in ``tests/hostile_cases_options.py`` (shared with
``scripts/hostile_audit.py --options``); the numba cache's cases are in
``tests/test_jit_cache.py``, the cluster's waits in ``tests/encounter/cli/test_options_cluster.py``.
"""

from __future__ import annotations

import pytest

from labkit import ArgumentError, LabkitError
from tests import hostile_cases_options as ho
from tests.hostile_cases import run_cli

# ids are the cases' names: every pytest-xdist worker must collect the same ids
CLUSTER = ho.cluster_cases()
API = ho.api_cases()
CLI = ho.cli_cases()


@pytest.fixture
def no_connection(monkeypatch):
    import distributed

    def never(*a, **k):
        raise AssertionError("connected before the options were checked")

    monkeypatch.setattr(distributed, "Client", never)


@pytest.mark.parametrize(("name", "argv", "message"), CLUSTER, ids=[c[0] for c in CLUSTER])
def test_cluster_options_are_refused_before_connecting(name, argv, message, tmp_path,
                                                       no_connection):  # fmt: skip
    verdict, rc, out, err = run_cli(argv(tmp_path), seconds=60)
    assert (verdict, rc) == ("clean", 2), (name, verdict, rc, err)
    assert len(err.strip().splitlines()) == 1 and message in err, (name, err)


@pytest.mark.parametrize(("name", "call", "message"), API, ids=[c[0] for c in API])
def test_api_numbers_and_types_are_refused_in_one_line(name, call, message, tmp_path):
    with pytest.raises((ArgumentError, LabkitError)) as info:
        call(tmp_path)
    text = str(info.value)
    assert message in text and "\n" not in text.strip(), (name, text)


@pytest.mark.parametrize(("name", "argv", "message"), CLI, ids=[c[0] for c in CLI])
def test_cli_options_are_refused_before_any_work(name, argv, message, tmp_path, monkeypatch):
    import labkit.encounter.sim.engine as engine
    import labkit.hexpuzzle.difficulty.skill as skill

    def never(*a, **k):
        raise AssertionError("work started before the options were checked")

    monkeypatch.setattr(engine, "play_jobs", never)
    monkeypatch.setattr(skill, "fit_skill_model", never)
    verdict, rc, out, err = run_cli(argv(tmp_path), seconds=60)
    assert verdict == "clean" and rc in (1, 2), (name, verdict, rc, err)
    assert len(err.strip().splitlines()) == 1 and message in err, (name, err)
    assert not list(tmp_path.glob("*.xlsx")) and not list(tmp_path.glob("p.*")), "wrote a file"


def test_importance_sizes_at_their_limits_are_accepted_and_one_more_is_not():
    """The products are bounded where they cross, not below (values from the limits)."""
    from labkit.encounter.sim import importance as imp

    # sobol, 4 knobs: 2^17 x 7 = 917504 evaluations; x 1000 games = 9.2e8; x 54 resamples
    imp._check_sizes("sobol", 4, 2**17, 4, 1000, 54)
    assert 2**17 * 7 * 54 <= imp.MAX_BOOTSTRAP_CELLS < 2**17 * 7 * 55
    with pytest.raises(ArgumentError, match="bootstrap: 55 resamples x 917504 evaluations"):
        imp._check_sizes("sobol", 4, 2**17, 4, 1000, 55)
    assert 2**17 * 7 * 1089 <= imp.MAX_GAMES < 2**17 * 7 * 1090
    imp._check_sizes("sobol", 4, 2**17, 4, 1089, 1)
    with pytest.raises(ArgumentError, match="games: 917504 evaluations x 1090 games"):
        imp._check_sizes("sobol", 4, 2**17, 4, 1090, 1)
    imp._check_sizes("morris", 1, 8, 333_333, 1, 1)  # 999999 evaluations (check_design caps r)
    with pytest.raises(ArgumentError, match="trajectories x \\(knobs \\+ 2\\) = 1000002"):
        imp._check_sizes("morris", 1, 8, 333_334, 1, 1)
