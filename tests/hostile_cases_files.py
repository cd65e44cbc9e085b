"""Hostile input (issue 46): study folders, files read as the shipped game, model files,
impossible telemetry and the funnel's numbers — builders shared by
``tests/test_hostile_files.py`` and ``scripts/hostile_audit.py --files``.

:func:`api_cases` lists ``(name, call, part of the one-line error)``: ``call(tmp)`` must raise
a ``LabkitError`` (or ``ArgumentError``) whose one-line text holds that part. A case's name
starts with its class (the audit table's rows: :data:`CLASSES`).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"

# --- study folders: importance parts and tune journals --------------------------------------


def importance_run(out: Path, manifest: dict | None = None) -> Any:
    """A resumable importance evaluation in ``out`` (made-up play: value = 10 x + block)."""
    from labkit.encounter.sim.importance_parts import resumable

    def play(points: list, which: list) -> list:
        return [p["x"] * 10 + w for p, w in zip(points, which)]

    evaluate = resumable(play, out, manifest or {"k": 1}, part=2)
    return evaluate([{"x": 1}, {"x": 2}, {"x": 3}], [0, 1, 2])


def _importance(edit: str) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        d = tmp / "run"
        importance_run(d)
        part = d / "part-00-0000.json"
        doc = json.loads(part.read_text())
        if edit == "foreign":
            importance_run(tmp / "other", {"k": 2})
            shutil.copy(tmp / "other" / part.name, part)
        elif edit == "no manifest":
            (d / "importance.json").unlink()
        elif edit == "bools":
            part.write_text(json.dumps({**doc, "values": [True, False]}))
        elif edit == "text":
            part.write_text(json.dumps({**doc, "values": ["10", "x"]}))
        elif edit == "edited":
            part.write_text(json.dumps({**doc, "values": [11.0, 21.0]}))
        elif edit == "unstamped":
            part.write_text(json.dumps({k: v for k, v in doc.items() if k in
                                        ("format", "version", "values")}))  # fmt: skip
        return importance_run(d)

    return call


def tune_run(out: Path, knob: str = "a", budget: int = 6) -> Any:
    """A small resumable ``tune_many`` in ``out`` (a made-up response, no game played)."""
    import numpy as np

    from labkit.encounter.sim.tune_many import tune_many

    u = np.random.default_rng(1).random(400)

    def response(point: Any, seeds: Any) -> Any:
        return {"npc_win": u[seeds] < point[knob] / 10}

    return tune_many(None, {knob: (0.0, 10.0)}, ["npc_win=0.5±0.05"], budget=budget, games=50,
                     fresh=50, seeds=range(400), response=response, progress=False,
                     out=out)  # fmt: skip


def _journal(edit: str) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        d = tmp / "tune"
        tune_run(d)
        journal = d / "study.journal"
        lines = journal.read_bytes().splitlines(keepends=True)
        if edit == "garbage":
            lines.insert(3, b"garbage\n")
        elif edit == "garbage last":
            lines.append(b"{not json}\n")
        elif edit == "not an operation":
            lines.insert(2, b'{"hello": 1}\n')
        elif edit == "foreign":
            tune_run(tmp / "other", knob="b")
            lines = (tmp / "other" / "study.journal").read_bytes().splitlines(keepends=True)
        elif edit == "foreign line":
            tune_run(tmp / "other", knob="b")
            other = (tmp / "other" / "study.journal").read_bytes().splitlines(keepends=True)
            lines.append(next(ln for ln in other if b'"param_name"' in ln))
        journal.write_bytes(b"".join(lines))
        return tune_run(d, budget=8)

    return call


# --- files read as the shipped game ----------------------------------------------------------


def _balance_file(tmp: Path, edit: str) -> Path:
    from labkit.encounter.sim.settings import default_balance_document

    doc = default_balance_document()
    if edit == "hit cut":
        doc["tables"]["hit"] = doc["tables"]["hit"][:3]
    elif edit == "no combat":
        del doc["combat"]
    elif edit == "patch 03":
        doc = {"format": "labkit.balance_patch", "version": 1,
               "balance": {"/tables/hit/3": 0.15, "/tables/hit/03": 0.16}}  # fmt: skip
    elif edit == "patch field as pointer":
        doc = {"format": "labkit.balance_patch", "version": 1,
               "settings": {"/combat/max_rounds": 9}}  # fmt: skip
    path = tmp / "b.json"
    path.write_text(json.dumps(doc))
    return path


def _version(edit: str) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.encounter.sim.compare import version_patch

        return version_patch(str(_balance_file(tmp, edit)))

    return call


def _patch(patch: dict) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.encounter.sim.compare import version_patch

        return version_patch(patch)

    return call


def _settings_patch(patch: dict) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.encounter import SimulationSettings

        return SimulationSettings(balance=patch)

    return call


_GAMES: dict[str, Any] = {}


def pair_games() -> Any:
    """Six games: the shipped monster (life 5) against life 4, seeds 0-2 (made once)."""
    if "g" not in _GAMES:
        from labkit.encounter.sim.compare import play_pair

        _GAMES["g"] = play_pair({}, {"/characters/monster/life": 4}, range(3))
    return _GAMES["g"].copy()


def _games(kind: str) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.encounter.sim.compare import compare

        life = {"/characters/monster/life": 4}
        if kind == "other versions":
            return compare({}, {"/characters/monster/life": 2}, range(3), games=pair_games(),
                           metrics=["npc_win"], bootstrap=10)  # fmt: skip
        if kind == "other seeds":
            return compare({}, life, range(5), games=pair_games(), metrics=["npc_win"],
                           bootstrap=10)  # fmt: skip
        return compare({}, {"npcs": 3}, range(3), games=pair_games(), metrics=["npc_win"],
                       bootstrap=10)  # fmt: skip

    return call


# --- model files -----------------------------------------------------------------------------


def _model_file(edit: str) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        import numpy as np

        from labkit.hexpuzzle import SkillModel

        doc = json.loads((DATA / "telemetry" / "skill_model.json").read_text())
        cov = np.array(doc["weights_cov"])
        if edit == "negative definite":
            cov = -cov - np.eye(len(cov)) * 1e-3
            np.fill_diagonal(cov, np.abs(np.diag(cov)))  # variances stay >= 0: only the
            cov[0, 1] = cov[1, 0] = 10 * np.sqrt(cov[0, 0] * cov[1, 1])  # matrix is wrong
        elif edit == "not symmetric":
            cov[0, 1] += 1.0
        doc["weights_cov"] = cov.tolist()
        if edit == "global cov":
            g = np.array(doc["global_cov"])
            g[0, 1] = g[1, 0] = 5 * np.sqrt(g[0, 0] * g[1, 1]) + 1.0
            doc["global_cov"] = g.tolist()
        path = tmp / "m.json"
        path.write_text(json.dumps(doc))
        return SkillModel.load(path)

    return call


# --- impossible telemetry --------------------------------------------------------------------

HEAD = "level,player,attempt,first_try,collisions,hints,rotations,undos,seconds,won"


def row(level: str, player: str, attempt: int, won: int) -> str:
    first = int(attempt == 1 and won == 1)
    return f"{level},{player},{attempt},{first},0,0,0,0,10.0,{won}"


#: Telemetry that cannot be true, each with its line (the header is line 1).
IMPOSSIBLE = {
    "attempt after a win": [row("L1", "p1", 1, 1), row("L1", "p2", 1, 0), row("L1", "p1", 2, 0)],
    "attempt gap": [row("L1", "p1", 1, 0), row("L1", "p1", 3, 1)],
    "no first attempt": [row("L1", "p1", 2, 1)],
}


def telemetry_text(kind: str) -> str:
    return "\n".join([HEAD, *IMPOSSIBLE[kind]]) + "\n"


def _load(kind: str, how: str = "load_telemetry") -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle import Telemetry, load_telemetry

        path = tmp / "t.csv"
        path.write_text(telemetry_text(kind))
        if how == "Telemetry.load":
            return Telemetry.load(path)
        return load_telemetry(path)

    return call


def _fit(kind: str, **kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle.difficulty.skill import fit_skill_model
        from labkit.hexpuzzle.difficulty.telemetry import make_table

        rows = [r.split(",") for r in IMPOSSIBLE[kind]]
        rows += [r.split(",") for r in (row("L1", "q1", 1, 1), row("L1", "q2", 1, 0))]
        return fit_skill_model(make_table(rows), ["L1"], features=False, dropout="ignore", **kw)

    return call


def _alike(won: str, players: int = 1_000, dropout: str = "model") -> Callable[[Path], Any]:
    """First attempts at two levels, every one won (or lost, or A won and B lost): the fit
    gave a difficulty of -13,436 at 1,000 players and 5.5 million at 10^5 (issue 46)."""

    def call(tmp: Path) -> Any:
        import numpy as np
        import pandas as pd

        from labkit.hexpuzzle.difficulty.skill import fit_skill_model

        ids = np.char.add("p", np.arange(players).astype(str))
        a, b = {"every": (True, True), "none": (False, False), "A only": (True, False)}[won]
        table = pd.DataFrame({"level": np.repeat(["A", "B"], players), "player": np.tile(ids, 2),
                              "attempt": 1, "won": np.repeat([a, b], players)})  # fmt: skip
        return fit_skill_model(table, ["A", "B"], features=False, dropout=dropout)

    return call


# --- numbers ---------------------------------------------------------------------------------


def _goal(**kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle.playthrough.improve import FunnelGoal

        return FunnelGoal(**kw)

    return call


def _holdout(**kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle.playthrough.holdout import holdout_check

        def never(*a: Any, **k: Any) -> Any:
            raise AssertionError("fitted before the options were checked")

        return holdout_check(str(DATA / "telemetry" / "sample.csv"), ["x"], fit=never, **kw)

    return call


def _max_rows(value: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle import Telemetry

        return Telemetry.load(DATA / "telemetry" / "sample.csv", max_rows=value)

    return call


def _funnel(**kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle import SkillModel, campaign, funnel

        model = SkillModel.load(DATA / "telemetry" / "skill_model.json")
        return funnel(campaign()[:3], model, **kw)

    return call


def api_cases() -> list[tuple[str, Callable[[Path], Any], str]]:
    """Issue 46's hostile inputs: (name, call, part of the one-line error)."""
    nan = float("nan")
    return [
        ("importance part of another run", _importance("foreign"),
         "a part of another importance run"),
        ("importance parts without a manifest", _importance("no manifest"),
         "holds part files but no importance.json"),
        ("importance part values booleans", _importance("bools"),
         "/values/0: must be a finite number (got True)"),
        ("importance part values text", _importance("text"),
         "/values/0: must be a finite number (got '10')"),
        ("importance part value edited", _importance("edited"),
         "its values do not match its checksum"),
        ("importance part without identity", _importance("unstamped"),
         "not a part of this importance run (no run identity)"),
        ("tune journal garbage line", _journal("garbage"),
         "study.journal: line 4: not a journal line"),
        ("tune journal garbage last line", _journal("garbage last"),
         ": not a journal line (got '{not json}')"),
        ("tune journal object not an operation", _journal("not an operation"),
         "study.journal: line 3: not a journal operation"),
        ("tune journal of another study", _journal("foreign"), "another study's journal"),
        ("tune journal line of another study", _journal("foreign line"),
         "a parameter this tune does not have (got 'b')"),
        ("balance file hit table cut to 3", _version("hit cut"), "/tables/hit"),
        ("balance file without /combat", _version("no combat"), "/combat"),
        ("balance patch file /tables/hit/03", _version("patch 03"),
         "/balance: /tables/hit/03: not a canonical JSON pointer"),
        ("balance patch file pointer in settings", _version("patch field as pointer"),
         "/settings: unknown setting (got '/combat/max_rounds')"),
        ("balance patch /tables/hit/03", _patch({"/tables/hit/03": 0.3}),
         "/tables/hit/03: not a canonical JSON pointer"),
        ("balance patch unicode digit", _patch({"/tables/hit/\u0663": 0.3}),
         "not a canonical JSON pointer"),
        ("balance patch bad escape", _patch({"/characters/monster~2/life": 3}),
         "not a canonical JSON pointer"),
        ("balance settings patch /tables/hit/03", _settings_patch({"/tables/hit/03": 0.3}),
         "not a canonical JSON pointer"),
        ("balance compare games of other versions", _games("other versions"),
         "games: played other versions"),
        ("balance compare games of other seeds", _games("other seeds"),
         "games: played other seeds"),
        ("balance compare games without a field", _games("other field"),
         "games: played other versions"),
        ("model weights_cov negative definite", _model_file("negative definite"),
         "/weights_cov: must be symmetric positive semi-definite"),
        ("model weights_cov not symmetric", _model_file("not symmetric"),
         "/weights_cov: must be symmetric positive semi-definite"),
        ("model global_cov not positive", _model_file("global cov"),
         "/global_cov: must be symmetric positive semi-definite"),
        ("telemetry attempt after a win", _load("attempt after a win"),
         "line 4, column 'attempt': an attempt after a win (player 'p1', level 'L1': attempt 2"),
        ("telemetry attempt gap", _load("attempt gap"),
         "line 3, column 'attempt': attempt 3 follows attempt 1 (player 'p1', level 'L1': a gap)"),
        ("telemetry no first attempt", _load("no first attempt", "Telemetry.load"),
         "line 2, column 'attempt': attempt 2 with no attempt 1 before it (player 'p1'"),
        ("telemetry fit attempt after a win", _fit("attempt after a win"),
         "row 3: an attempt after a win (player 'p1', level 'L1'"),
        ("telemetry fit attempt gap", _fit("attempt gap"), "row 2: attempt 3 follows attempt 1"),
        ("telemetry fit impossible bogus", _fit("attempt gap", impossible="drop"),
         "impossible: must be 'refuse' or 'count'"),
        ("telemetry fit every attempt won", _alike("every"),
         "telemetry: every attempt was won: the data cannot tell how hard any level is "
         "(got 1000 players, 2 levels)"),
        ("telemetry fit every attempt lost", _alike("none"),
         "telemetry: every attempt was lost: the data cannot tell how hard any level is "
         "(got 1000 players, 2 levels)"),
        ("telemetry fit every attempt won at 10^5 players", _alike("every", 100_000),
         "every attempt was won: the data cannot tell how hard any level is "
         "(got 100000 players, 2 levels)"),
        ("telemetry fit every attempt lost at 10^5 players", _alike("none", 100_000, "ignore"),
         "every attempt was lost: the data cannot tell how hard any level is "
         "(got 100000 players, 2 levels)"),
        ("telemetry fit one level all won, the other all lost", _alike("A only"),
         "every level was won by all or lost by all who played it (won: 'A'; lost: 'B')"),
        ("numbers FunnelGoal reach_last 1.5", _goal(reach_last=1.5),
         "reach_last: must be a share between 0 and 1, or None (got 1.5)"),
        ("numbers FunnelGoal reach_last text", _goal(reach_last="0.6"),
         "reach_last: must be a share between 0 and 1, or None (got '0.6')"),
        ("numbers FunnelGoal hazard NaN", _goal(max_quit_hazard=nan),
         "max_quit_hazard: must be a share between 0 and 1, or None (got nan)"),
        ("numbers FunnelGoal hazard negative", _goal(max_quit_hazard=-0.1),
         "max_quit_hazard: must be a share between 0 and 1"),
        ("numbers FunnelGoal band drop -1", _goal(max_band_drop=-1),
         "max_band_drop: must be between 0"),
        ("numbers FunnelGoal band drop True", _goal(max_band_drop=True),
         "max_band_drop: must be an integer"),
        ("numbers holdout fit_share text", _holdout(fit_share="0.5"),
         "fit_share: must be a number strictly between 0 and 1 (got '0.5')"),
        ("numbers holdout fit_share NaN", _holdout(fit_share=nan), "fit_share: must be a number"),
        ("numbers Telemetry.load max_rows text", _max_rows("100"),
         "max_rows: must be an integer (got '100')"),
        ("numbers Telemetry.load max_rows 0", _max_rows(0), "max_rows: must be >= 1 (got 0)"),
        ("numbers funnel players x draws", _funnel(players=10**6, draws=1000),
         "players x draws: at most 10000000 simulated players (fewer players or draws) "
         "(got 1000000000)"),
    ]  # fmt: skip


def _impossible_csv(tmp: Path) -> Path:
    """The shipped sample with one retry after a win (line 4: its first data line is line 5)."""
    path = tmp / "t.csv"
    path.write_text(telemetry_text("attempt after a win").replace("L1,", "main-01,"))
    return path


def cli_cases() -> list[tuple[str, Callable[[Path], list[str]], str]]:
    """Command lines: (name, argv(tmp), part of the one stderr line)."""
    c, m = str(DATA / "levels" / "campaign.json"), str(DATA / "telemetry" / "skill_model.json")
    return [
        ("numbers puzzle funnel --players 1e6 --draws 1000",
         lambda t: ["puzzle", "funnel", c, m, "--players", "1000000", "--draws", "1000"],
         "players x draws: at most 10000000"),
        ("telemetry puzzle skill with an attempt after a win",
         lambda t: ["puzzle", "skill", str(_impossible_csv(t)), c, "--no-features"],
         "line 4, column 'attempt': an attempt after a win (player 'p1'"),
        ("balance sim compare --balance-b hit table cut",
         lambda t: ["sim", "compare", "--balance-b", str(_balance_file(t, "hit cut")), "--seeds",
                    "0:4", "--quiet"], "/tables/hit"),
    ]  # fmt: skip


#: The audit table's classes: a case belongs to the class its name starts with.
CLASSES = {
    "importance folders": "importance ",
    "tune journals": "tune journal",
    "balance files and compare(games=)": "balance ",
    "model files": "model ",
    "impossible telemetry": "telemetry ",
    "numbers (funnel goals, holdout, max_rows, funnel size)": "numbers ",
}
