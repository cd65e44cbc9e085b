"""One deterministic SVG writer (labkit._svg) behind every SVG labkit produces."""

from __future__ import annotations

import ast
import pathlib
import xml.etree.ElementTree as ET

import pytest

from labkit import encounter, hexpuzzle
from labkit.pathfinding.map_file import MapFile, shipped_map_path

ROOT = pathlib.Path(__file__).resolve().parents[1] / "labkit"


def _objects() -> dict[str, object]:
    level = hexpuzzle.Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
    state = hexpuzzle.PuzzleState(level)
    layer = MapFile.load(shipped_map_path("corridors.json")).game_map.layers[0]
    return {
        "level": level,
        "trace": hexpuzzle.trace_tap(level, "a"),
        "state": state,
        "layer": layer,
    }


@pytest.mark.parametrize("name", ["level", "trace", "state", "layer"])
def test_repr_svg_is_the_same_bytes_every_time(name: str) -> None:
    obj = _objects()[name]
    first, second = obj._repr_svg_(), obj._repr_svg_()  # type: ignore[attr-defined]
    assert first == second
    assert "<dc:date>" not in first
    ET.fromstring(first.encode())  # well-formed


def test_solver_figures_are_deterministic_too() -> None:
    from labkit.hexpuzzle.draw_solver import difficulty_bars, svg_of

    level = hexpuzzle.campaign()[0]
    fig = difficulty_bars([hexpuzzle.score(level)])
    assert svg_of(fig) == svg_of(fig)  # it used matplotlib's random hash salt before


def test_encounter_frames_go_through_the_writer() -> None:
    from labkit.encounter.draw_sim import final_state_svg

    t = encounter.GameSession(encounter.SimulationSettings(seed=2, max_steps=30)).run()
    text = final_state_svg(t)
    assert text == final_state_svg(t)
    root = ET.fromstring(text)
    assert root.get("viewBox") == f"0 0 {t.map['width'] * 44} {t.map['height'] * 44}"


def test_no_module_but_the_writer_opens_an_svg_or_saves_one() -> None:
    offenders = []
    for path in ROOT.rglob("*.py"):
        if path.name == "_svg.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if node.value.lstrip().startswith("<svg"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} <svg literal")
            if isinstance(node, ast.JoinedStr):
                head = node.values[0] if node.values else None
                if isinstance(head, ast.Constant) and str(head.value).startswith("<svg"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} <svg f-string")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "savefig"
                and any(
                    k.arg == "format" and getattr(k.value, "value", None) == "svg"
                    for k in node.keywords
                )
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} savefig(format='svg')")
    assert offenders == []
