"""Sobol estimators: scipy's on random outputs, SALib's on plain Ishigami."""

from __future__ import annotations

import math

import numpy as np

from labkit.encounter import importance
from labkit.encounter.sim.importance import SEED_BLOCK, sobol_estimates
from tests.encounter.sim.test_importance import KNOBS, ishigami


def test_estimators_are_scipys():
    from scipy.stats import sobol_indices

    gen = np.random.default_rng(3)
    f_a, f_b = gen.normal(size=64), gen.normal(size=64)
    f_ab = gen.normal(size=(3, 64)) + f_a
    ours = sobol_estimates(f_a, f_b, f_ab)
    ref = sobol_indices(func={"f_A": f_a[None], "f_B": f_b[None], "f_AB": f_ab[:, None]}, n=64)
    np.testing.assert_allclose(ours[0], ref.first_order.ravel(), rtol=1e-12)
    np.testing.assert_allclose(ours[1], ref.total_order.ravel(), rtol=1e-12)


def test_agrees_with_salib_on_plain_ishigami():
    from SALib.analyze import sobol as salib_sobol
    from SALib.sample import sobol as salib_sample

    problem = {"num_vars": 3, "names": ["x1", "x2", "x3"], "bounds": [[-math.pi, math.pi]] * 3}
    x = salib_sample.sample(problem, 1024, calc_second_order=False, seed=1)
    ref = salib_sobol.analyze(problem, ishigami(*x.T), calc_second_order=False, seed=1)
    imp = importance(None, KNOBS, seeds=range(4096), games=1, method="sobol", n=1024,
                     outcome="steps", progress=False,
                     response=lambda p, s: {"steps": np.full(s.size, ishigami(
                         p["x1"], p["x2"], p["x3"]))})  # fmt: skip
    t = imp.table.set_index(["knob", "index"])["value"]
    for i, name in enumerate(problem["names"]):
        assert abs(t[name, "first"] - ref["S1"][i]) < 0.05
        assert abs(t[name, "total"] - ref["ST"][i]) < 0.05
    assert abs(t[SEED_BLOCK, "total"]) < 1e-12  # no noise at all: the seed block explains none
