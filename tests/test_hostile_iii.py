"""Hostile input III (issues 32.4, 32.5, 33.5, 33.6): escaping in every app and repr, grid limits
before parsing, and wave 3's new inputs (funnel, evaluate, compare, importance, multi-target tune,
generator constraints, telemetry and quit-model files) with their pinned one-line errors.

The case builders live in ``tests/hostile_cases_iii.py`` (shared with
``scripts/hostile_audit.py --surfaces``). In-process API cases throughout; one command line
per command.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from labkit import ArgumentError, LabkitError
from tests import hostile_cases_iii as h3
from tests.hostile_cases import run_cli

# --- one escaping rule, every app and every repr ----------------------------------------------


class _Active(HTMLParser):
    """Elements a browser would build from markup that could run script or load a resource."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = {n for n, _ in attrs}
        src = dict(attrs).get("src") or ""
        if tag in ("script", "iframe", "object", "embed") or any(n.startswith("on") for n in names):
            self.found.append(f"<{tag} {sorted(names)}>")
        elif tag == "img" and not src.startswith("data:image/png;base64,"):
            self.found.append(f"<img src={src!r}>")

    handle_startendtag = handle_starttag


def active_markup(markup: str) -> list[str]:
    spy = _Active()
    spy.feed(markup)
    spy.close()
    return spy.found


@pytest.mark.parametrize("name", h3.APPS)
def test_every_app_shows_ids_from_files_as_text(name, tmp_path):
    """Every app of labkit.widgets, built from hostile files, renders no element they name."""
    markup, shown = h3.render_app(name, tmp_path)
    assert not active_markup(markup), (name, active_markup(markup))
    if shown:  # the hostile text reached the app: it is there as escaped text
        assert h3.ESCAPED_CORE in markup, (name, markup[:2000])


@pytest.mark.parametrize("name", list(h3.REPRS))
def test_every_repr_shows_ids_from_files_as_text(name, tmp_path):
    markup = h3.REPRS[name](tmp_path)
    assert not active_markup(markup), (name, active_markup(markup))
    assert h3.ESCAPED_CORE in markup, (name, markup[:2000])


def test_puzzle_skill_shows_control_and_bidi_characters_visibly(tmp_path):
    telemetry = h3.hostile_telemetry(tmp_path)
    verdict, rc, out, err = run_cli(["puzzle", "skill", str(telemetry),
                                     str(h3.hostile_levels(tmp_path)), "--no-features"],
                                    seconds=120)  # fmt: skip
    assert rc == 0, err
    assert "\u202e" not in out and "\x1b" not in out, out
    assert "\\u202e" in out, out


# --- grid limits from the text, before parsing ---------------------------------------------


@pytest.mark.parametrize("kind", ["tower", "map"])
def test_a_huge_grid_is_refused_before_the_parser_builds_a_cell(kind, tmp_path, monkeypatch):
    """The error names the field and the limit; json.loads is never reached."""
    import labkit.io as lio

    path, message = h3.huge_grid_file(kind, tmp_path)

    def no_parse(*a, **k):
        raise AssertionError("the grid was parsed before its size was checked")

    monkeypatch.setattr(lio, "parse_json", no_parse)
    with pytest.raises(LabkitError) as info:
        h3.LOADERS[kind](path)
    assert message in str(info.value), str(info.value)


def test_grid_sizes_read_from_text_match_the_document():
    from labkit._json_grids import grids

    doc = {"a": [1, {"k": "[[,]],"}], "layers": [{"tiles": [[0] * 5] * 3}, {"tiles": [[1, 2]]}],
           "x/y": [[[0, 1], [2]], [[3]]]}  # fmt: skip
    found = {g.parts: (g.rows, g.widest) for g in grids(json.dumps(doc).encode(), side=0)}
    assert found[("layers", 0, "tiles")] == (3, 5)
    assert found[("layers", 1, "tiles")] == (1, 2)
    assert found[("x/y",)] == (2, 2) and found[("x/y", 0)] == (2, 2) and found[("x/y", 1)] == (1, 1)
    assert ("a",) not in found  # a list of an int and an object is not a grid


# --- wave 3's new inputs ------------------------------------------------------------------


# ids are the cases' names: every pytest-xdist worker must collect the same ids (no addresses)
API_CASES = h3.api_cases()
CLI_CASES = h3.cli_cases()


@pytest.mark.parametrize(("name", "call", "message"), API_CASES, ids=[c[0] for c in API_CASES])
def test_wave3_api_refuses_hostile_values_in_one_line(name, call, message, tmp_path):
    with pytest.raises((ArgumentError, LabkitError)) as info:
        call(tmp_path)
    text = str(info.value)
    assert message in text and "\n" not in text.strip(), (name, text)


@pytest.mark.parametrize(("name", "argv", "message"), CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_wave3_commands_refuse_hostile_values_in_one_line(name, argv, message, tmp_path):
    verdict, rc, out, err = run_cli(argv(tmp_path), seconds=120)
    assert verdict == "clean" and rc in (1, 2), (name, verdict, rc, err)
    assert len(err.strip().splitlines()) == 1 and message in err, (name, err)
