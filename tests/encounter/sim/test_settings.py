"""Simulation settings: a bad setting names its field."""

from __future__ import annotations

import pytest

from labkit.encounter.sim.settings import SimulationError, SimulationSettings


def test_bad_settings_name_the_field():
    with pytest.raises(SimulationError, match="/difficulty/1"):
        SimulationSettings(difficulty=(1, 7))
    with pytest.raises(SimulationError, match="do not fit"):
        SimulationSettings(width=2, height=1, npcs=2, monsters=1)
    with pytest.raises(SimulationError, match="/balance"):
        SimulationSettings(balance={"/characters/dragon/life": 3})
