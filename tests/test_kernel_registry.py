"""Every numba kernel is tied to a plain-Python reference, and agrees with it.

One case per registered kernel (``labkit._jit.REGISTRY``, every domain's kernel modules
imported). A kernel fails when it has no ``reference=``; when its reference is a function, when
the kernel and the function disagree on the kernel's example arguments (results and any argument
arrays filled in place); when it is a :class:`~labkit._jit.Covered` note, when the rule test the
note names does not exist under ``tests/``.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import numpy as np
import pytest

from labkit import _jit

_jit.import_kernel_modules()
KERNELS = sorted(_jit.REGISTRY)
TESTS = Path(__file__).resolve().parent


def _same(got, want, where="result"):
    """Equal values, whatever the container (tuple/list/array) or integer width."""
    if isinstance(got, tuple | list) and not isinstance(want, np.ndarray):
        assert isinstance(want, tuple | list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
        return
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape, (where, g.shape, w.shape)
    if g.dtype.kind in "fc" or w.dtype.kind in "fc":
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=0, err_msg=where)
    else:
        assert g.tolist() == w.tolist(), where


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in TESTS.rglob("*.py"):
        names.update(re.findall(r"^def (test_\w+)\(", path.read_text(), re.M))
    return names


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_has_a_reference_and_agrees_with_it(name):
    k = _jit.REGISTRY[name]
    assert k.reference is not None, f"{name} has no reference= (see labkit/_jit.py)"
    if isinstance(k.reference, _jit.Covered):
        assert k.reference.why.strip(), name
        assert k.reference.test in _test_names(), f"{name}: no test {k.reference.test!r}"
        return
    reference = k.reference_function()
    assert callable(reference), (name, k.reference)
    assert reference is not getattr(k.dispatcher, "py_func", None), "py_func is not a reference"
    assert k.example is not None, f"{name} needs example= to be compared with its reference"
    args = k.example()
    ref_args = copy.deepcopy(args)
    _same(k.dispatcher(*args), reference(*ref_args))
    _same(list(args), list(ref_args), "arguments after the call")


def test_a_kernel_that_disagrees_with_its_reference_fails():
    # The comparison itself can fail: an off-by-one reference of the demo kernel.
    k = _jit.REGISTRY["labkit._tour_kernel.chebyshev_rings"]
    args = k.example()
    with pytest.raises(AssertionError):
        _same(k.dispatcher(*args), k.reference_function()(*args) + 1)


def test_the_table_names_every_kernel_once():
    rows = _jit.registry_table()
    assert [n for n, _ in rows] == list(_jit.REGISTRY)
    assert "MISSING" not in {r for _, r in rows}
