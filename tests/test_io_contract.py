"""labkit.io's error contract, word for word (DESIGN §3: errors name the JSON pointer and the
bad value), and the small helpers every loader builds on.

Messages are compared whole: a user reads them, and every format's loader passes them on.
"""

from __future__ import annotations

import json
import math
import os

import pytest

from labkit import LabkitError
from labkit import io as lio


class ShapeError(LabkitError):
    """A format's own error class: the helpers must raise it, not the base class."""


def caught(fn, *args, **kwargs):
    with pytest.raises(LabkitError) as info:
        fn(*args, **kwargs)
    e = info.value
    return type(e), str(e), e.pointer, e.value, e.file


# --- pointer, dumps --------------------------------------------------------------------------


def test_pointer_escapes_tilde_then_slash():
    assert lio.pointer() == ""
    assert lio.pointer("cells", 3, "tracks") == "/cells/3/tracks"
    # RFC 6901: "~" -> "~0" first, then "/" -> "~1" (the other order would turn "/" into "~01").
    assert lio.pointer("a/b", "~x", "~/") == "/a~1b/~0x/~0~1"


def test_dumps_is_indented_utf8_and_refuses_nan():
    assert lio.dumps({"a": [1], "名": "转"}) == '{\n  "a": [\n    1\n  ],\n  "名": "转"\n}\n'
    assert lio.dumps({"a": 1}, indent=None) == '{"a": 1}\n'
    with pytest.raises(ValueError):
        lio.dumps({"a": math.inf})


def test_save_json_indents_by_two_and_puts_the_header_first(tmp_path):
    p = tmp_path / "a.json"
    lio.save_json(p, {"version": 9, "x": 1, "format": "wrong"}, format="f", version=3)
    assert p.read_text(encoding="utf-8") == '{\n  "format": "f",\n  "version": 3,\n  "x": 1\n}\n'
    lio.save_json(p, {"x": "é"}, indent=None)
    assert p.read_text(encoding="utf-8") == '{"x": "é"}\n'


# --- parse_json / load_json -----------------------------------------------------------------


def test_parse_errors_name_line_column_file_and_class():
    got = caught(lio.parse_json, '{"a": 1,\n "b": }', file="x.json", error=ShapeError)
    assert got[0] is ShapeError
    assert got[1] == "x.json: not valid JSON: Expecting value at line 2 column 7"
    assert got[2] is None and got[4] == "x.json"
    got = caught(lio.parse_json, '{"a": Infinity}', file="y.json")
    assert got[1] == "y.json: not valid JSON: Infinity is not valid JSON at line 1 column 7"
    assert got[2] is None


def test_load_json_reads_utf8_and_names_a_missing_file(tmp_path):
    p = tmp_path / "u.json"
    p.write_bytes('{"name": "转个方向"}'.encode())
    assert lio.load_json(p) == {"name": "转个方向"}
    missing = tmp_path / "none.json"
    got = caught(lio.load_json, missing, error=ShapeError)
    assert got[0] is ShapeError and got[1] == f"{missing}: file not found"
    assert got[4] == str(missing)
    folder = tmp_path / "dir.json"
    folder.mkdir()
    got = caught(lio.load_json, folder)
    # a folder is refused before it is opened (issue 17: regular files only)
    assert got[1] == f"{folder}: not a regular file (a directory)" and got[4] == str(folder)


def test_load_json_bad_text_names_the_file(tmp_path):
    p = tmp_path / "b.json"
    p.write_text("[1,")
    got = caught(lio.load_json, p)
    assert got[4] == str(p) and got[1] == f"{p}: not valid JSON: Expecting value at line 1 column 4"


def test_load_json_header_errors_carry_the_file(tmp_path):
    p = tmp_path / "h.json"
    p.write_text(json.dumps({"version": 1}))
    got = caught(lio.load_json, p, format="f", versions=(1,), error=ShapeError)
    assert got[:3] == (ShapeError, f"{p}: /format: missing key 'format' (expected 'f')", "/format")
    assert got[4] == str(p)


# --- check_header ----------------------------------------------------------------------------


def test_check_header_without_format_or_versions_is_plain_json():
    assert lio.check_header([1, 2], format=None, versions=None) == [1, 2]


def test_check_header_checks_the_format_alone():
    got = caught(lio.check_header, {"version": 1}, format="f", versions=None, error=ShapeError)
    assert got[:4] == (ShapeError, "/format: missing key 'format' (expected 'f')", "/format", None)
    got = caught(lio.check_header, {"format": "g"}, format="f", versions=None)
    assert got[1:4] == ("/format: wrong format, expected 'f' (got 'g')", "/format", "g")
    assert lio.check_header({"format": "f"}, format="f", versions=None) == {"format": "f"}


def test_check_header_checks_the_version_alone():
    assert lio.check_header({"version": 2}, format=None, versions=(2,)) == {"version": 2}
    got = caught(lio.check_header, {}, format=None, versions=(1,), error=ShapeError)
    assert got[:4] == (ShapeError, "/version: missing key 'version'", "/version", None)
    for bad in (True, 1.0, "1", 5):
        got = caught(lio.check_header, {"version": bad}, format=None, versions=(1, 2))
        assert got[1:4] == (
            f"/version: unsupported version, this labkit reads [1, 2] (got {bad!r})",
            "/version",
            bad,
        )


def test_check_header_wants_an_object():
    got = caught(lio.check_header, [1], format="f", versions=(1,), error=ShapeError)
    assert got[:4] == (ShapeError, "/: expected a JSON object (got 'list')", "", "list")


def test_check_header_upgrades_and_names_a_missing_step():
    up = {1: lambda d: {**d, "version": 2, "b": 1}}
    doc = lio.check_header({"version": 1}, format=None, versions=(1, 2), upgrades=up)
    assert doc == {"version": 2, "b": 1}
    got = caught(lio.check_header, {"version": 1}, format=None, versions=(1, 2, 3), upgrades=up,
                 error=ShapeError)  # fmt: skip
    assert got[:4] == (ShapeError, "/version: no upgrade path to the current version (got 2)",
                       "/version", 2)  # fmt: skip
    got = caught(lio.check_header, {"version": 1}, format=None, versions=(1, 2))
    assert got[1:4] == ("/version: no upgrade path to the current version (got 1)", "/version", 1)


# --- field / check / as_int ------------------------------------------------------------------


def test_field_returns_values_of_the_right_kind():
    assert lio.field({"q": 1}, "q", int, "/c") == 1
    assert lio.field({"x": 1.5}, "x", float, "") == 1.5 and lio.field({"x": 2}, "x", float, "") == 2
    assert lio.field({"s": "a"}, "s", (int, str), "") == "a"
    assert lio.field({}, "s", str, "", default=None) is None
    assert lio.field({}, "s", str, "", default="d") == "d"


@pytest.mark.parametrize(
    "obj, key, kind, message, pointer, value",
    [
        ({}, "q", int, "/c/q: missing key 'q'", "/c/q", None),
        ({"q": "1"}, "q", int, "/c/q: must be an integer (got '1')", "/c/q", "1"),
        ({"q": True}, "q", int, "/c/q: must be an integer (got True)", "/c/q", True),
        ({"q": True}, "q", float, "/c/q: must be a number (got True)", "/c/q", True),
        ({"q": math.inf}, "q", float, "/c/q: must be a number (got inf)", "/c/q", math.inf),
        ({"q": "x"}, "q", float, "/c/q: must be a number (got 'x')", "/c/q", "x"),
        ({"q": 1}, "q", (str, list), "/c/q: must be a string or a list (got 1)", "/c/q", 1),
        ({"q": 1}, "q", bytes, "/c/q: must be bytes (got 1)", "/c/q", 1),
        ({"q": 1}, "q", dict, "/c/q: must be an object (got 1)", "/c/q", 1),
        ({"q": 1}, "q", bool, "/c/q: must be true/false (got 1)", "/c/q", 1),
        ([1], "q", int, "/c: must be an object (got [1])", "/c", [1]),
    ],
)
def test_field_errors_word_for_word(obj, key, kind, message, pointer, value):
    got = caught(lio.field, obj, key, kind, "/c", error=ShapeError)
    assert got[0] is ShapeError and got[1:4] == (message, pointer, value)


def test_field_on_a_non_object_at_the_root_points_at_the_root():
    got = caught(lio.field, "text", "q", int, "")
    assert got[1:4] == ("/: must be an object (got 'text')", "", "text")


def test_check_raises_with_and_without_a_value():
    lio.check(True, "never", "/a")
    got = caught(lio.check, False, "must be odd", "/n", 4, error=ShapeError)
    assert got[:4] == (ShapeError, "/n: must be odd (got 4)", "/n", 4)
    with pytest.raises(ShapeError) as info:
        lio.check(False, "must be odd", "/n", error=ShapeError)
    assert str(info.value) == "/n: must be odd" and not info.value.has_value


@pytest.mark.parametrize(
    "value, lo, hi, message",
    [
        (0, 1, 999, "/m: must be between 1 and 999 (got 0)"),
        (1000, 1, 999, "/m: must be between 1 and 999 (got 1000)"),
        (-1, 0, None, "/m: must be between 0 and inf (got -1)"),
        (5, None, 4, "/m: must be between -inf and 4 (got 5)"),
        (True, 0, 9, "/m: must be an integer (got True)"),
        (1.0, 0, 9, "/m: must be an integer (got 1.0)"),
    ],
)
def test_as_int_errors_word_for_word(value, lo, hi, message):
    got = caught(lio.as_int, value, "/m", lo, hi, error=ShapeError)
    assert got[0] is ShapeError and got[1:4] == (message, "/m", value)


def test_as_int_accepts_the_bounds_themselves():
    assert lio.as_int(1, "/m", 1, 999) == 1 and lio.as_int(999, "/m", 1, 999) == 999
    assert lio.as_int(-5, "/m") == -5 and lio.as_int(7, "/m", None, 7) == 7


# --- atomic_write modes ----------------------------------------------------------------------


def test_atomic_write_binary_and_a_new_file_gets_the_umask(tmp_path):
    p = tmp_path / "sub" / "b.bin"
    with lio.atomic_write(p, "wb") as fh:
        fh.write(b"\x00\x01")
    assert p.read_bytes() == b"\x00\x01"
    old = os.umask(0o027)
    try:
        q = tmp_path / "masked.txt"
        with lio.atomic_write(q) as fh:
            fh.write("x")
        assert q.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(old)


def test_load_json_raises_the_formats_own_error_for_bad_text(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text("{oops")
    with pytest.raises(ShapeError):
        lio.load_json(p, error=ShapeError)
