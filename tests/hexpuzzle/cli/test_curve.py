"""``labkit puzzle campaign --curve``: refusals before any search (targets out of range, a mixed
curve, a model or an ability with a score curve, a bad time limit, an impossible constraint named
by its option), and a small score curve written and reported slot by slot."""

from __future__ import annotations

import json

import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.cli.curve import curve_campaign


@pytest.mark.parametrize(
    "kwargs, argument, message",
    [
        ({"curve": "30:120:2"}, "--curve", "must lie in 0-100"),
        ({"curve": "0.5:40:2"}, "--curve", "mixes success rates"),
        ({"curve": "30:40:2", "time_limit": 0.0}, "--time-limit", "must be positive"),
        ({"curve": "30:40:2", "model_path": "m.json"}, "--model", "a score curve needs no model"),
        ({"curve": "30:40:2", "ability": 1.0}, "--ability", "only a success-rate curve"),
        ({"curve": "0.5:0.6:2", "ability": float("nan")}, "--ability", "finite"),
        (
            {"curve": "30:40:2", "wanted": {"tiles": (2, 2), "rotations": (3, 3)}},
            "--tiles",
            "reachable",
        ),
    ],
)
def test_bad_requests_are_refused_before_any_search(tmp_path, kwargs, argument, message):
    out = tmp_path / "c.json"
    args = {"out": str(out), "seed": 0, "time_limit": 10.0} | kwargs
    with pytest.raises(ArgumentError, match=message) as err:
        curve_campaign(**args)
    assert err.value.argument == argument
    assert not out.exists()


def test_a_score_curve_is_written_and_reported_per_slot(tmp_path, capsys):
    out = tmp_path / "c.json"
    assert curve_campaign("30:40:2", str(out), seed=3, time_limit=30.0,
                          wanted={"rotations": (1, 1)}) == 0  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["slot", "target", "score", "score", "rot", "tiles", "level"]
    rows = [line.split() for line in lines[1:3]]
    assert [r[1] for r in rows] == ["30", "40"] and all(r[4] == "1" for r in rows)
    assert lines[-1].startswith(f"wrote {out}: 2 levels, ") and lines[-1].endswith(
        "within ±2 of their target"
    )
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert len(doc["levels"]) == 2
