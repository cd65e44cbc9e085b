"""Comparing two versions, rule by rule and exactly (sim/compare.py): what a version patches,
which design points a pair plays, how the played games become per-seed columns, and what the
table carries. Games are handmade frames (or a stand-in sweep), so every value is known."""

from __future__ import annotations

import json
import math
import types
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from labkit import ArgumentError, LabkitError
from labkit.encounter.sim import compare as cm
from labkit.encounter.sim import sweep as sw
from labkit.encounter.sim.batch import survival_curve
from labkit.encounter.sim.compare import compare, play_pair, survival_bands, version_patch
from labkit.encounter.sim.paired import METRICS, game_measures, npcs_alive_after, paired_table
from labkit.encounter.sim.settings import SimulationSettings, default_balance_document
from labkit.encounter.sim.sweep import SweepError

LIFE = "/characters/monster/life"
WEAPON = "/characters/npc/weapon"


def error(kind, call, *args, **kw):
    with pytest.raises(kind) as info:
        call(*args, **kw)
    return str(info.value)


# -- versions -----------------------------------------------------------------------------------


def test_leaves_are_json_pointers_with_escapes_and_lists_of_numbers_by_index():
    out = {}
    cm._leaves({"a": {"b/c": 1, "x/~y": 2, "l": [1, 2]}, "f": [{"g": 1}], "m": [1, [2]],
                "h": [], "i": "x", 3: None}, "", out)  # fmt: skip
    assert out == {"/a/b~1c": 1, "/a/x~1~0y": 2, "/a/l/0": 1, "/a/l/1": 2, "/f": [{"g": 1}],
                   "/m": [1, [2]], "/h": [], "/i": "x", "/3": None}  # fmt: skip
    out = {}
    cm._leaves(5, "/top", out)
    assert out == {"/top": 5}


def test_a_settings_version_is_what_it_changes_from_the_shipped_game():
    s = SimulationSettings(npcs=2, difficulty=(2, 3), seed=9, map_seed=4, balance={LIFE: 4})
    assert version_patch(s) == {"npcs": 2, "difficulty": (2, 3), LIFE: 4}  # seeds are no change
    assert version_patch(SimulationSettings()) == {}
    assert version_patch(SimulationSettings(max_steps=300, snapshots=True)) == {"snapshots": True}


def test_a_mapping_version_is_a_copy_and_anything_else_is_refused():
    m = {LIFE: 4}
    assert version_patch(m) == m and version_patch(m) is not m
    assert version_patch(types.MappingProxyType({"npcs": 2})) == {"npcs": 2}
    for bad, name in ((3, "int"), (None, "NoneType"), (b"a.json", "bytes"), ([LIFE], "list")):
        assert error(ArgumentError, version_patch, bad) == (
            "version: must be SimulationSettings, a {pointer: value} mapping or a balance file "
            f"path (got {name!r})"
        )


def write(path: Path, doc) -> str:
    path.write_text(json.dumps(doc))
    return str(path)


def test_a_balance_patch_file_gives_its_settings_and_balance(tmp_path):
    doc = {"format": "labkit.balance_patch", "version": 1, "settings": {"npcs": 2},
           "balance": {LIFE: 4}}  # fmt: skip
    p = write(tmp_path / "p.json", doc)
    assert version_patch(p) == {"npcs": 2, LIFE: 4}
    assert version_patch(Path(p)) == {"npcs": 2, LIFE: 4}
    assert version_patch(write(tmp_path / "b.json", {"format": "labkit.balance_patch",
                                                    "version": 1, "balance": {LIFE: 3}})) == {
        LIFE: 3}  # fmt: skip
    assert version_patch(write(tmp_path / "s.json", {"format": "labkit.balance_patch",
                                                    "version": 1, "settings": {"npcs": 4}})) == {
        "npcs": 4}  # fmt: skip


def test_a_whole_balance_file_gives_the_leaves_that_differ_from_the_shipped_one(tmp_path):
    doc = default_balance_document()
    assert version_patch(write(tmp_path / "same.json", doc)) == {}
    doc["characters"]["monster"]["life"] = 4
    doc["characters"]["npc"]["weapon"] = "revolver"
    doc["tables"]["hit"][2] = 0.07  # (still rising: a file the loader reads)
    doc["edition"], doc["notes"] = "B", "my notes"  # words, not rules: no change
    assert version_patch(write(tmp_path / "b.json", doc)) == {
        LIFE: 4, WEAPON: "revolver", "/tables/hit/2": 0.07}  # fmt: skip
    doc["dragons"] = 3
    p = write(tmp_path / "d.json", doc)
    assert error(SweepError, version_patch, p) == (
        f"/dragons: {p}: a field the shipped balance does not have (a patch can only change "
        "existing fields)")  # fmt: skip


def test_a_balance_files_version_is_checked_and_a_broken_file_is_a_sweep_error(tmp_path):
    doc = default_balance_document()
    doc["version"] = 2  # a format this labkit does not read: refused as the loader refuses it
    p = write(tmp_path / "v.json", doc)
    assert error(LabkitError, version_patch, p) == (
        f"{p}: /version: unsupported version, this labkit reads [1] (got 2)")  # fmt: skip
    doc["version"] = 1  # the file's own bookkeeping, not a change
    assert version_patch(write(tmp_path / "v.json", doc)) == {}
    p = tmp_path / "broken.json"
    p.write_text('{"format": "labkit.balance",\n "version": }')
    with pytest.raises(SweepError) as exc:
        version_patch(str(p))
    assert type(exc.value) is SweepError and "line 2" in str(exc.value)


def test_other_files_are_refused_naming_the_format(tmp_path):
    p = write(tmp_path / "l.json", {"format": "labkit.level", "version": 1})
    assert error(SweepError, version_patch, p) == (
        f"/format: {p}: not a labkit.balance or labkit.balance_patch file (got 'labkit.level')"
    )
    p = write(tmp_path / "n.json", {"version": 1})
    assert error(SweepError, version_patch, p).endswith("balance_patch file (got None)")
    # a JSON array, or a patch whose parts are not objects: refused, not a crash
    p = write(tmp_path / "a.json", [1, 2])
    assert error(SweepError, version_patch, p).endswith("balance_patch file (got None)")
    p = write(tmp_path / "s.json", {"format": "labkit.balance_patch", "version": 1,
                                    "settings": [1]})  # fmt: skip
    assert error(SweepError, version_patch, p) == (
        f"/settings: {p}: must be an object {{field or pointer: value}} (got 'list')"
    )
    p = write(tmp_path / "b.json", {"format": "labkit.balance_patch", "version": 1,
                                    "balance": 3})  # fmt: skip
    assert error(SweepError, version_patch, p) == (
        f"/balance: {p}: must be an object {{field or pointer: value}} (got 'int')"
    )


# -- the design points --------------------------------------------------------------------------


def test_both_versions_name_every_parameter_either_changes():
    base = SimulationSettings()
    assert cm._points(base, {LIFE: 4, "npcs": 2}, {"npcs": 4, WEAPON: "revolver"}) == [
        {LIFE: 4, "npcs": 2, WEAPON: "fists"},
        {LIFE: 5, "npcs": 4, WEAPON: "revolver"},
    ]
    # what a version leaves alone comes from the base: its fields and its own balance patch
    base = SimulationSettings(npcs=5, balance={LIFE: 7})
    assert cm._points(base, {}, {LIFE: 2, "monsters": 2}) == [
        {LIFE: 7, "monsters": 1}, {LIFE: 2, "monsters": 2}]  # fmt: skip
    # A against A: one shared parameter, so the sweep has two points
    assert cm._points(base, {}, {}) == [{"max_steps": 300}, {"max_steps": 300}]
    for name in ("seed", "map_seed"):
        assert error(ArgumentError, cm._points, base, {name: 1}, {}) == (
            f"version: the seeds are the comparison's own axis (got {name!r})"
        )
        assert error(ArgumentError, cm._points, base, {}, {name: 1}).startswith("version:")


def test_play_pair_plays_both_points_on_every_seed(monkeypatch):
    calls = []

    def fake_sweep(base, points, seeds, **kw):
        calls.append((base, points, list(seeds), kw))
        return pd.DataFrame({"point": [0, 0, 1, 1], "seed": [4, 7, 4, 7]})

    monkeypatch.setattr(sw, "sweep", fake_sweep)
    base = SimulationSettings(npcs=2)
    g = play_pair({LIFE: 4}, {}, [4, 7], base=base, executor="pool", out="dir",
                  progress=True, mode="full")  # fmt: skip
    assert calls == [(base, [{LIFE: 4}, {LIFE: 5}], [4, 7],
                      dict(executor="pool", out="dir", progress=True, mode="full"))]  # fmt: skip
    assert list(g.columns) == ["version", "point", "seed"]
    assert g["version"].tolist() == ["A", "A", "B", "B"]
    play_pair({}, {"npcs": 2}, [1])
    base, points, _, kw = calls[-1]
    assert base == SimulationSettings() and points == [{"npcs": 3}, {"npcs": 2}]
    assert kw == dict(executor=None, out=None, progress=False, mode="outcome")


# -- from games to the table --------------------------------------------------------------------


def games(b_seeds=(2, 0, 1), a=None, b=None, base=None):
    """Three seeds per version, in a shuffled order; B's monster is weaker. The columns of the
    versions' values are those of versions ``a`` and ``b`` (default A against A), as
    :func:`play_pair` writes them: ``compare(games=)`` checks them (issue 46)."""
    points = cm._points(base or SimulationSettings(), cm.version_patch(a or {}),
                        cm.version_patch(b or {}))  # fmt: skip
    rows = []
    for point, seeds in ((0, (1, 2, 0)), (1, b_seeds)):
        for s in seeds:
            win = (point == 1 and s != 1) or (point == 0 and s == 2)
            rows.append({
                **points[point],
                "point": point, "seed": s, "winner": "npc" if win else "monster",
                "end_reason": "victory", "turns": 10 + s + 5 * point,
                "alive_npc-0": win, "survival_npc-0": 10 + s + 5 * point if win else 3 + s,
                "alive_monster-0": not win, "survival_monster-0": 9 + s if win else 10 + s,
            })  # fmt: skip
    return pd.DataFrame(rows)


def by_seed(frame, point):
    return frame[frame["point"] == point].sort_values("seed").reset_index(drop=True)


def test_the_table_pairs_the_games_seed_by_seed():
    g = games(b={LIFE: 2})
    t = compare({}, {LIFE: 2}, [0, 1, 2], games=g, metrics=["npc_win", "length_mean",
                "npcs_alive_after_4"], bootstrap=40, survival_turns=[4])  # fmt: skip
    # by seed 0, 1, 2: A wins [0, 0, 1], B wins [1, 0, 1]; turns A 10 11 12, B 15 16 17
    assert t["metric"].tolist() == ["npc_win", "length_mean", "npcs_alive_after_4"]
    assert t["a"].tolist()[:2] == [1 / 3, 11.0] and t["b"].tolist()[:2] == [2 / 3, 16.0]
    assert t["diff"].tolist()[:2] == pytest.approx([1 / 3, 5.0])
    # alive after turn 4: A's NPC died at 3, 4 (seeds 0, 1: not after 4), won on 2; B lost on 1
    # (died at 4)
    assert (t.loc[2, "a"], t.loc[2, "b"]) == (1 / 3, 2 / 3)
    assert t.loc[2, "label"] == "NPCs alive after turn 4" and t.loc[2, "unit"] == "share"
    assert t["pairs"].tolist() == [3, 3, 3]
    # the same as the paired table of the per-seed columns
    ma, mb = game_measures(by_seed(g, 0)), game_measures(by_seed(g, 1))
    ma["npcs_alive_after_4"] = npcs_alive_after(by_seed(g, 0), 4)
    mb["npcs_alive_after_4"] = npcs_alive_after(by_seed(g, 1), 4)
    extra = cm.Metric("npcs_alive_after_4", "NPCs alive after turn 4", "share",
                      ("npcs_alive_after_4",))  # fmt: skip
    want = paired_table(ma, mb, metrics=[METRICS["npc_win"], METRICS["length_mean"], extra],
                        bootstrap=40)  # fmt: skip
    pd.testing.assert_frame_equal(t, want)
    assert t.attrs == {"a": {}, "b": {LIFE: 2}, "seeds": 3}


def test_every_metric_and_survival_point_by_default():
    t = compare({}, {}, [0, 1, 2], games=games(), bootstrap=10)
    assert t["metric"].tolist() == [*METRICS, "npcs_alive_after_10", "npcs_alive_after_20",
                                    "npcs_alive_after_40"]  # fmt: skip
    t = compare({}, {}, [0, 1, 2], games=games(), bootstrap=10, survival_turns=(7.0,),
                detect={"share": 0.5})  # fmt: skip
    assert t["metric"].tolist()[-1] == "npcs_alive_after_7"
    assert set(t[t["unit"] == "share"]["detect"]) == {0.5}
    assert cm.SURVIVAL_TURNS == (10, 20, 40)


def test_the_versions_are_recorded_as_json():
    v = SimulationSettings(difficulty=(2, 3)), {"npcs": 2}
    t = compare(*v, [0, 1, 2], games=games(a=v[0], b=v[1]),
                metrics=["npc_win"], bootstrap=10)  # fmt: skip
    assert t.attrs == {"a": {"difficulty": [2, 3]}, "b": {"npcs": 2}, "seeds": 3}


def test_versions_with_numpy_values_are_recorded_as_plain_json_and_seeds_are_counted():
    # a knob swept with np.arange gives numpy integers; they are numbers in the record
    v = {"npcs": np.int64(2)}, {"/tables/hit": np.array([0.1, 0.2]), LIFE: range(2)}
    t = compare(*v, [0, 1, 2], games=games(a=v[0], b=v[1]), metrics=["npc_win"],
                bootstrap=10)  # fmt: skip
    assert t.attrs == {"a": {"npcs": 2}, "b": {"/tables/hit": [0.1, 0.2], LIFE: [0, 1]},
                       "seeds": 3}  # fmt: skip
    assert type(t.attrs["a"]["npcs"]) is int
    # no metric at all is refused by name (before: a message about seeds)
    assert error(ArgumentError, compare, {}, {}, [0, 1, 2], games=games(), metrics=[]) == (
        "metrics: must name at least one metric (got [])")  # fmt: skip


def test_compare_called_with_its_defaults_bootstraps_1000_times_quietly(monkeypatch):
    seen = []
    monkeypatch.setattr(cm, "play_pair", lambda a, b, seeds, **kw: seen.append(kw) or games())
    real = cm.paired_table
    monkeypatch.setattr(cm, "paired_table", lambda ma, mb, **kw: seen.append(kw) or real(
        ma, mb, **{**kw, "bootstrap": 10}))  # fmt: skip
    compare({}, {}, [0, 1, 2], metrics=["npc_win"])
    assert seen[0]["progress"] is False and seen[0]["out"] is None
    assert seen[1]["bootstrap"] == 1000 and seen[1]["detect"] is None


def test_games_on_other_seeds_and_unknown_metrics_are_refused():
    assert error(ArgumentError, compare, {}, {}, [0, 1, 2], games=games(b_seeds=(0, 1, 5))) == (
        "games: played other seeds than this call's 3 (version B: 3 seeds, 2 differ) (got 3)"
    )
    assert error(ArgumentError, compare, {}, {}, [0], games=games()) == (
        "games: played other seeds than this call's 1 (version A: 3 seeds, 2 differ) (got 3)"
    )
    known = sorted([*METRICS, "npcs_alive_after_10"])
    assert (
        error(
            ArgumentError,
            compare,
            {},
            {},
            [0, 1, 2],
            games=games(),
            metrics=["fun"],
            survival_turns=[10],
        )
        == f"metrics: unknown metric, known: {known} (got 'fun')"
    )


def test_options_are_checked_and_games_played_only_when_not_given(monkeypatch):
    played = []

    def fake_play_pair(a, b, seeds, **kw):
        played.append((a, b, list(seeds), kw))
        return games()

    monkeypatch.setattr(cm, "play_pair", fake_play_pair)
    assert error(ArgumentError, compare, {}, {}, [0], bootstrap=0).startswith("bootstrap:")
    assert error(ArgumentError, compare, {}, {}, [0], detect={"turns": -1}).startswith(
        "detect['turns']:")  # fmt: skip
    assert played == []  # refused before a game
    base = SimulationSettings(npcs=2)
    compare({}, {LIFE: 2}, [0, 1, 2], base=base, executor="pool", out="dir", progress=True,
            metrics=["npc_win"], bootstrap=10)  # fmt: skip
    assert played == [({}, {LIFE: 2}, [0, 1, 2],
                       dict(base=base, executor="pool", out="dir", progress=True))]  # fmt: skip
    compare({}, {}, [0, 1, 2], games=games(), metrics=["npc_win"], bootstrap=10)
    assert len(played) == 1


def test_survival_bands_per_version():
    g = games()
    s = survival_bands(g)
    assert list(s.columns) == ["version", "turn", "alive", "lo", "hi"]
    parts = []
    for k, name in ((0, "A"), (1, "B")):
        t, a, lo, hi = survival_curve(g, "npc", settings_index=k)
        parts.append(pd.DataFrame({"version": name, "turn": t, "alive": a, "lo": lo, "hi": hi}))
    pd.testing.assert_frame_equal(s, pd.concat(parts, ignore_index=True))
    m = survival_bands(g, side="monster")
    t, a, _, _ = survival_curve(g, "monster", settings_index=1)
    assert m[m["version"] == "B"]["alive"].tolist() == a.tolist()
    assert not math.isclose(m["alive"].sum(), s["alive"].sum())
