"""Levels on the command line (validate, show, trace) and the shipped level files."""

from __future__ import annotations

from labkit.hexpuzzle import Level


def test_cli_validate_show_trace(tmp_path, capsys):
    import json

    from labkit.cli import main

    good = tmp_path / "good.json"
    Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5)], id="g").save(good)
    bad = tmp_path / "bad.json"
    doc = json.loads(good.read_text())
    doc["cells"][3]["tracks"] = [1, 1, 3, 2, 5, 4]
    bad.write_text(json.dumps(doc))
    assert main(["puzzle", "validate", str(good)]) == 0
    assert main(["puzzle", "validate", str(good), str(bad)]) == 1
    out = capsys.readouterr()
    assert "ok       " in out.out and "INVALID  " in out.out and "/cells/3/tracks" in out.out
    assert "1 of 2" in out.err
    svg = tmp_path / "out.svg"
    assert main(["puzzle", "show", str(good), "--svg", str(svg), "--tap", "mover"]) == 0
    assert svg.read_text().count("</svg>") == 1
    assert main(["puzzle", "tap-trace", str(good), "mover"]) == 0
    assert "blocked by 'post'" in capsys.readouterr().out
    assert main(["puzzle", "tap-trace", str(good), "post", "--json", "--orientation", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] in ("exit", "blocked", "loop")
    # a tile id the level lacks is a bad argument: exit 2, like argparse's own refusals
    assert main(["puzzle", "tap-trace", str(good), "ghost"]) == 2
    capsys.readouterr()
    # the old verb, kept for one release: the same answer, a one-line note on stderr
    assert main(["puzzle", "tap-trace", str(good), "post", "--json"]) == 0
    new = capsys.readouterr()
    assert main(["puzzle", "trace", str(good), "post", "--json"]) == 0
    old = capsys.readouterr()
    assert old.out == new.out and new.err == ""
    assert old.err == (
        "labkit puzzle trace is renamed labkit puzzle tap-trace: use the new verb "
        "(the old one goes in the next release)\n"
    )


def test_the_old_trace_verb_is_not_listed(capsys):
    from labkit.cli import main

    assert main(["puzzle", "--help"]) == 0
    listing = capsys.readouterr().out
    assert "tap-trace" in listing and "\n    trace " not in listing


def test_shipped_levels_load_and_validate():
    from pathlib import Path

    from labkit.cli import main

    files = sorted((Path(__file__).resolve().parents[2] / "data" / "levels").glob("0*.json"))
    assert len(files) >= 4
    assert main(["puzzle", "validate", *map(str, files)]) == 0
