from __future__ import annotations

import json
import os

import pytest

from labkit import LabkitError
from labkit import io as lio


def test_malformed_json_names_file_line_and_pointer(tmp_path):
    p = tmp_path / "broken.json"
    p.write_text('{"format": "x", "version": 1,\n "cells": [1, 2,, 3]}')
    with pytest.raises(LabkitError) as info:
        lio.load_json(p, format="x", versions=(1,))
    msg = str(info.value)
    assert str(p) in msg
    assert "line 2" in msg
    assert info.value.pointer is None  # line and column, not the whole document's "/"


def test_wrong_format_and_version_point_at_the_key(tmp_path):
    p = tmp_path / "a.json"
    p.write_text(json.dumps({"format": "other", "version": 1}))
    with pytest.raises(lio.FormatError) as info:
        lio.load_json(p, format="mine", versions=(1,))
    assert info.value.pointer == "/format" and info.value.value == "other"
    p.write_text(json.dumps({"format": "mine", "version": 7}))
    with pytest.raises(lio.FormatError) as info:
        lio.load_json(p, format="mine", versions=(1, 2))
    assert info.value.pointer == "/version" and info.value.value == 7
    assert str(p) in str(info.value)


def test_nan_is_rejected(tmp_path):
    p = tmp_path / "n.json"
    p.write_text('{"x": NaN}')
    with pytest.raises(LabkitError, match="NaN"):
        lio.load_json(p)


def test_custom_error_class_is_raised(tmp_path):
    class TraceError(LabkitError):
        pass

    with pytest.raises(TraceError, match="file not found"):
        lio.load_json(tmp_path / "missing.json", error=TraceError)


def test_upgrades_run_in_order(tmp_path):
    p = tmp_path / "old.json"
    lio.save_json(p, {"a": 1}, format="f", version=1)
    doc = lio.load_json(
        p,
        format="f",
        versions=(1, 2, 3),
        upgrades={1: lambda d: {**d, "version": 2, "b": 2}, 2: lambda d: {**d, "version": 3}},
    )
    assert doc == {"format": "f", "version": 3, "a": 1, "b": 2}


def test_save_roundtrip_puts_header_first(tmp_path):
    p = tmp_path / "s.json"
    lio.save_json(p, {"z": [1, 2], "name": "转个方向"}, format="f", version=2)
    text = p.read_text(encoding="utf-8")
    assert text.index('"format"') < text.index('"version"') < text.index('"z"')
    assert "转个方向" in text
    assert lio.load_json(p, format="f", versions=(2,))["z"] == [1, 2]


def test_interrupted_save_leaves_old_file_intact(tmp_path):
    p = tmp_path / "keep.json"
    lio.save_json(p, {"value": "old"})
    before = p.read_text()
    with pytest.raises(RuntimeError):
        with lio.atomic_write(p) as fh:
            fh.write('{"value": "new", "half')
            raise RuntimeError("crash mid-write")
    assert p.read_text() == before
    assert sorted(os.listdir(tmp_path)) == ["keep.json"]  # no temporary left behind


def test_unencodable_value_does_not_touch_file(tmp_path):
    p = tmp_path / "keep.json"
    lio.save_json(p, {"value": 1})
    with pytest.raises(ValueError):
        lio.save_json(p, {"value": float("nan")})
    assert json.loads(p.read_text()) == {"value": 1}


def test_field_helpers_name_pointer_and_value():
    with pytest.raises(LabkitError) as info:
        lio.field({"cells": []}, "tiles", list, "")
    assert info.value.pointer == "/tiles" and "missing" in str(info.value)
    with pytest.raises(LabkitError) as info:
        lio.field({"q": True}, "q", int, "/cells/2")
    assert info.value.pointer == "/cells/2/q" and info.value.value is True
    assert lio.field({"x": 1}, "x", float, "") == 1
    with pytest.raises(LabkitError):
        lio.as_int(1000, "/moveLimit", 1, 999)


def test_atomic_write_gives_normal_permissions_and_keeps_existing_mode(tmp_path):
    fresh = tmp_path / "fresh.json"
    lio.save_json(fresh, {"a": 1})
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask
    fresh.chmod(0o640)
    lio.save_json(fresh, {"a": 2})
    assert fresh.stat().st_mode & 0o777 == 0o640
