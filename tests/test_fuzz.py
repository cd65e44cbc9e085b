"""Fuzzing every file format (issue 17): hypothesis mutates valid documents.

Each example takes a valid document of one format, changes one thing (drops or duplicates a key,
or replaces a value with another type, an extreme number or an odd string), writes the file and
loads it. The oracle (:func:`tests.hostile_cases.judge_python`): a ``LabkitError`` naming the
file, or a document that writes back with the same values and types (a trace that loads must
then diverge on replay). Never another exception, a hang, or a silent change.

The example budget is fixed (``FUZZ_EXAMPLES`` per format, derandomised in the ci profile) so
that ``make test`` stays fast.
"""

from __future__ import annotations

import csv
import functools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hostile_cases import (
    EXTREMES,
    FORMATS,
    Case,
    drop_at,
    dumps,
    duplicate_key,
    judge_python,
    pointer_text,
    pointers,
    set_at,
)

FUZZ_EXAMPLES = 25


@functools.cache
def _base(kind: str):
    doc = FORMATS[kind].base()
    fmt = FORMATS[kind]
    places = [p for p, _ in pointers(doc) if p and not re.search(fmt.freeform, pointer_text(p))]
    objects = [p for p, v in pointers(doc) if isinstance(v, dict) and v]
    return doc, places, objects


#: Replacement values: other JSON types, extremes, odd strings, nesting.
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(EXTREMES),
    st.text(max_size=40),
    st.sampled_from(["", "x" * 3000, "$\\frac{$", "<script>", "../x", "\u202e", "\x00"]),
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(-3, 3), max_size=2),
)


def _must_fail(value) -> bool:
    """No field of any format accepts these (int64 overflow, absurd magnitudes)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) >= 2**63
    if isinstance(value, float):
        return abs(value) >= 1e300
    return False


@st.composite
def mutated(draw, kind: str) -> Case:
    doc, places, objects = _base(kind)
    op = draw(st.sampled_from(["retype", "retype", "retype", "drop", "duplicate"]))
    if op == "duplicate":
        parts = draw(st.sampled_from(objects))
        return Case(kind, "duplicate", duplicate_key(doc, parts), pointer_text(parts),
                    "duplicate", "error")  # fmt: skip
    parts = draw(st.sampled_from(places))
    if op == "drop":
        if not isinstance(parts[-1], str):
            op = "retype"  # list items are not dropped (that shifts every later pointer)
        else:
            return Case(kind, "drop", dumps(drop_at(doc, parts)), pointer_text(parts), "drop",
                        "any")  # fmt: skip
    value = draw(VALUES)
    expect = "error" if _must_fail(value) else "any"
    return Case(kind, f"retype={value!r:.40}", dumps(set_at(doc, parts, value)),
                pointer_text(parts), "retype", expect)  # fmt: skip


@pytest.mark.parametrize("kind", sorted(FORMATS))
def test_mutated_documents_fail_clean_or_round_trip(kind, tmp_path):
    @settings(max_examples=FUZZ_EXAMPLES, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip
    @given(case=mutated(kind))
    def check(case: Case) -> None:
        path = tmp_path / "case.json"
        path.write_bytes(case.data)
        verdict, detail = judge_python(case, path, seconds=60)
        assert verdict == "clean", f"{case.name} at {case.at}: {verdict}: {detail}"

    check()


ROW = ["L1", "p1", "1", "1", "0", "0", "2", "0", "31.5", "1"]
HEADER = "level,player,attempt,first_try,collisions,hints,rotations,undos,seconds,won"


@settings(max_examples=FUZZ_EXAMPLES * 2, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(column=st.integers(0, len(ROW) - 1),
       text=st.one_of(st.text(max_size=30), st.sampled_from(["1e30", "9" * 40, "nan", "-0",
                      "\u0663", "1_0", " 1", '"1"', "0x1", "inf"])))  # fmt: skip
def test_mutated_telemetry_fails_clean_or_loads_what_it_says(tmp_path, column, text):
    from labkit.hexpuzzle.difficulty.telemetry import TelemetryError, load_telemetry, to_csv

    row = list(ROW)
    row[column] = text
    path = tmp_path / "t.csv"
    path.write_bytes((HEADER + "\n" + ",".join(row) + "\n").encode("utf-8", "surrogatepass"))
    try:
        table = load_telemetry(path, frame=False)
    except TelemetryError as exc:
        assert str(path) in str(exc)
        return
    again = tmp_path / "again.csv"
    again.write_text(to_csv(table))
    assert load_telemetry(again, frame=False).tolist() == table.tolist()
    value = table.tolist()[0][column]
    cell = next(csv.reader([",".join(row)]))[column]  # the text as CSV reads it (unquoted)
    if isinstance(value, int) and not isinstance(value, bool):
        assert re.fullmatch(r"\s*[+-]?[0-9]+\s*", cell) and int(cell) == value


# --- issue 33 (i33): bundles with damaged bytes --------------------------------------------


@settings(max_examples=FUZZ_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1,
                      max_size=4), cut=st.one_of(st.none(), st.integers(0, 10**6)))  # fmt: skip
def test_a_damaged_bundle_is_refused_in_one_line_or_verified(tmp_path, monkeypatch, edits, cut):
    """Flipped bytes or a cut anywhere: a one-line BundleError naming the file, or (a byte
    no check reads) a verdict; never another exception, and never a kernel for a refusal."""
    from labkit.share import verify
    from labkit.share.bundle import BundleError
    from tests.hostile_cases_ii import make_bundle

    data = bytearray(make_bundle())
    for at, byte in edits:
        data[at % len(data)] = byte
    if cut is not None:
        data = data[: cut % len(data)]
    path = tmp_path / "b.zip"
    path.write_bytes(bytes(data))
    monkeypatch.setattr(verify, "execute", lambda nb, *a, **k: nb)  # no kernel
    try:
        verdict = verify.verify(path)
    except BundleError as exc:
        assert str(path) in str(exc) and "\n" not in str(exc)
        return
    assert isinstance(verdict.ok, bool)
