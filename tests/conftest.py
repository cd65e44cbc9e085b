"""Shared test set-up: hypothesis profiles and static matplotlib."""

from __future__ import annotations

import os

import matplotlib
from hypothesis import HealthCheck, settings

matplotlib.use("Agg")

# CI profile: derandomised (same examples every run) and bounded; a dev profile explores more.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
