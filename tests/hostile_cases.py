"""Hostile input for every labkit file format: valid bases, mutations, loaders and an oracle.

Shared by ``tests/test_hostile.py`` (the committed corpus in ``tests/data/hostile``),
``tests/test_fuzz.py`` (hypothesis mutations) and ``scripts/hostile_audit.py`` (the full audit
that counts clean errors / tracebacks / silently accepted files / hangs).

The oracle (:func:`judge`): loading a mutated file must either raise a ``LabkitError`` or give
an object that writes back the same values with the same JSON types (no coercion); formats with
no writer may accept a changed type only where the format allows it (a
nullable field) or in free-form data. A trace that loads must still be checked by ``replay``:
a changed claim is a divergence.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"

#: Values a leaf is replaced with (a different JSON type for most fields).
RETYPES: tuple[Any, ...] = ("1", 1.9, True, None, [], {})
#: Numbers no field of any format accepts (overflow int64, or absurd magnitudes).
EXTREMES: tuple[Any, ...] = (10**30, 2**63, -(2**63) - 1, 1e308)
#: Strings to try in string fields.
ODD_STRINGS: tuple[str, ...] = ("", "x" * 5000, "$\\frac{$", "<b onload=x>&", "../../etc/x")


class Hang(Exception):
    """A case that ran past its time budget."""


@dataclass
class Case:
    """One hostile file: its format, name, bytes and (for mutations) where it was changed."""

    kind: str
    name: str
    data: bytes
    at: str = ""  # JSON pointer of the mutated value ("" for whole-file cases)
    mutation: str = ""  # retype / extreme / odd / drop / duplicate / file
    expect: str = "error"  # "error": must be refused; "any": refused or round-trips unchanged


# --- the formats ---


def _read(p: Path) -> Any:
    return json.loads(p.read_text(encoding="utf-8"))


def tower_doc() -> dict:
    """The example tower with its tables inline (so a mutated copy needs no side files)."""
    doc = _read(DATA / "mapturn" / "tower.json")
    for key in ("enemies", "items", "skills"):
        if isinstance(doc.get(key), str):
            doc[key] = _read(DATA / "mapturn" / doc[key])[key]
    return doc


def save_doc() -> dict:
    from labkit.mapturn import MapTurn, World, load_tower

    engine = MapTurn(World(load_tower(DATA / "mapturn" / "tower.json")))
    return engine.to_dict()


def trace_doc() -> dict:
    from labkit.encounter.sim.session import GameSession
    from labkit.encounter.sim.settings import SimulationSettings

    # a short game (6 steps, a winner) keeps the committed traces small
    settings = SimulationSettings(seed=7, map_seed=7, width=2, height=2, npcs=1, monsters=1,
                                  max_steps=40)  # fmt: skip
    return GameSession(settings).run().to_dict()


def _load_level(path: Path) -> Any:
    from labkit.hexpuzzle.level import Level

    return Level.load(path)


def _dump_level(obj: Any) -> Any:
    return obj.to_dict()


def _load_map(path: Path) -> Any:
    from labkit.pathfinding.map_file import load_map

    return load_map(path)


def _dump_map(mf: Any) -> Any:
    from labkit.pathfinding.map_file import map_to_dict

    return map_to_dict(mf.game_map, mf.cost, mf.face)


def _load_tower(path: Path) -> Any:
    from labkit.mapturn import load_tower

    return load_tower(path)


def _load_save(path: Path) -> Any:
    from labkit.mapturn import MapTurn, World, load_tower

    engine = MapTurn(World(load_tower(DATA / "mapturn" / "tower.json")))
    engine.restore_file(path)
    return engine


def _dump_save(engine: Any) -> Any:
    return engine.to_dict()


def _load_balance(path: Path) -> Any:
    from labkit.encounter.rules.balance import load_balance

    return load_balance(path)


def _load_trace(path: Path) -> Any:
    from labkit.encounter.records.trace import SimulationTrace

    return SimulationTrace.load(path)


def _dump_trace(obj: Any) -> Any:
    return obj.to_dict()


def _load_campaign(path: Path) -> Any:
    from labkit.hexpuzzle import Campaign

    return Campaign.load(path)


def calibration_doc() -> dict:
    from labkit.hexpuzzle import calibrate, telemetry_from_weights
    from labkit.hexpuzzle.difficulty.fit import example_difficulties

    levels = example_difficulties(10, rng=3)
    telemetry = telemetry_from_weights(levels, {"rotation": 60}, 20, rng=4)
    return json.loads(json.dumps(calibrate(telemetry, levels, n_boot=5, rng=5).to_dict()))


def _load_calibration(path: Path) -> Any:
    from labkit.hexpuzzle import Calibration

    return Calibration.load(path)


def _dump_doc(obj: Any) -> Any:
    return obj.to_dict()


def _load_telemetry(path: Path) -> Any:
    from labkit.hexpuzzle.difficulty.telemetry import load_telemetry

    return load_telemetry(path, frame=False)


@dataclass
class Format:
    kind: str
    base: Callable[[], Any]
    load: Callable[[Path], Any]
    dump: Callable[[Any], Any] | None
    cli: Callable[[str], list[str]]
    #: pointers whose contents the format leaves free (any JSON), as a regex
    freeform: str = r"^$"
    #: pointers that may also hold null (formats without a writer)
    nullable: str = r"^$"
    #: number fields (an int there may become a float; formats without a writer)
    numeric: str = r"^$"
    #: derived values the writer recomputes and the reader ignores (not compared), as a regex
    derived: str = r"^$"


TOWER = str(DATA / "mapturn" / "tower.json")

FORMATS: dict[str, Format] = {
    "level": Format(
        "level",
        lambda: _read(DATA / "levels" / "01-grazing.json"),
        _load_level,
        _dump_level,
        lambda p: ["puzzle", "show", p],
    ),
    "map": Format(
        "map",
        lambda: _read(DATA / "maps" / "corridors.json"),
        _load_map,
        _dump_map,
        lambda p: ["path", "find", p, "--from", "0,0", "--to", "1,1"],
    ),
    "tower": Format(
        "tower",
        tower_doc,
        _load_tower,
        None,
        lambda p: ["mapturn", "play", p],
        freeform=r"/(actArgs|effect)(/|$)|^/hero/|^/name$",
        nullable=r"/(timeCost|actArgs|durationBattles|exclusiveGroup)$",
        numeric=r"/timeCost$",
    ),
    "save": Format(
        "save",
        save_doc,
        _load_save,
        _dump_save,
        lambda p: ["mapturn", "play", TOWER, "--load", p],
        freeform=r"^/(labkit)$|/temp(/|$)|/enemyMemory/",
    ),
    "balance": Format(
        "balance",
        lambda: _read(DATA / "balance" / "a_edition.json"),
        _load_balance,
        None,
        lambda p: [],
        freeform=r"^/(edition|notes?)(/|$)",
        nullable=r"/(ammo|quota_item)$",
        numeric=r"^/(priority|tables)/",
    ),
    "trace": Format(
        "trace",
        trace_doc,
        _load_trace,
        _dump_trace,
        lambda p: ["sim", "replay", p],
        freeform=r"^/(labkit|entropy)(/|$)|^/events/\d+/state(/|$)|"
        r"^/snapshots(/|$)",
    ),
    # the scores in a campaign and the fit statistics and ranking in a calibration are derived:
    # recomputed on writing, never read, so a change there is not a value the file keeps
    "campaign": Format(
        "campaign",
        lambda: _read(DATA / "levels" / "campaign.json"),
        _load_campaign,
        _dump_doc,
        lambda p: ["puzzle", "score", p],
        freeform=r"/score(/|$)|^/(seed|generator)(/|$)",
        derived=r"^/levels/\d+/score$",
    ),
    "calibration": Format(
        "calibration",
        calibration_doc,
        _load_calibration,
        _dump_doc,
        lambda p: [],
        freeform=r"^/(r2|spearman|spearman_original|n_levels|levels)(/|$)",
        derived=r"^/(r2|spearman|spearman_original|n_levels|levels)$",
    ),
}
#: Formats no command reads (their command-line cases are skipped).
NO_COMMAND = ("balance", "calibration")


# --- JSON helpers ---


def pointers(doc: Any, parts: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every (path parts, value) in ``doc``, depth first."""
    yield parts, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from pointers(v, (*parts, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from pointers(v, (*parts, i))


def pointer_text(parts: tuple) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def get_at(doc: Any, parts: tuple) -> Any:
    for p in parts:
        doc = doc[p]
    return doc


def set_at(doc: Any, parts: tuple, value: Any) -> Any:
    doc = copy.deepcopy(doc)
    get_at(doc, parts[:-1])[parts[-1]] = value
    return doc


def drop_at(doc: Any, parts: tuple) -> Any:
    doc = copy.deepcopy(doc)
    del get_at(doc, parts[:-1])[parts[-1]]
    return doc


def dumps(doc: Any) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")


def duplicate_key(doc: Any, parts: tuple) -> bytes:
    """JSON text in which the object at ``parts`` holds its first key twice."""
    doc = copy.deepcopy(doc)
    obj = get_at(doc, parts)
    key = next(iter(obj))
    marker = f"{key}\x00dup"
    obj[marker] = obj[key]
    text = json.dumps(doc)
    return text.replace(json.dumps(marker), json.dumps(key)).encode()


def spread(items: list, k: int) -> list:
    """``k`` items spread evenly over ``items`` (deterministic)."""
    if len(items) <= k:
        return items
    step = len(items) / k
    return [items[int(i * step)] for i in range(k)]


# --- mutations ---


def mutations(kind: str, doc: Any, leaves: int = 10, objects: int = 5) -> Iterator[Case]:
    """Structured mutations of a valid document: retype, extreme numbers, odd strings, drop
    and duplicate keys, spread over the document's pointers."""
    fmt = FORMATS[kind]
    allp = [(p, v) for p, v in pointers(doc) if p and not re.search(fmt.freeform, pointer_text(p))]
    leaf = [(p, v) for p, v in allp if not isinstance(v, (dict, list))]
    objs = [(p, v) for p, v in allp if isinstance(v, dict) and v]
    for parts, value in spread(leaf, leaves):
        at = pointer_text(parts)
        for new in RETYPES:
            if type(new) is type(value) and new == value:
                continue
            yield Case(kind, f"retype{at}={new!r}", dumps(set_at(doc, parts, new)), at, "retype",
                       "any")  # fmt: skip
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            for new in EXTREMES:
                yield Case(kind, f"extreme{at}={new!r}", dumps(set_at(doc, parts, new)), at,
                           "extreme", "error")  # fmt: skip
        if isinstance(value, str):
            for new in ODD_STRINGS:
                yield Case(kind, f"odd{at}={new[:12]!r}", dumps(set_at(doc, parts, new)), at,
                           "odd", "any")  # fmt: skip
            text = dumps(set_at(doc, parts, "@@SURROGATE@@")).replace(b"@@SURROGATE@@", b"\\ud800")
            yield Case(kind, f"surrogate{at}", text, at, "surrogate", "error")
    for parts, value in spread(objs, objects):
        at = pointer_text(parts)
        first = next(iter(value))
        yield Case(kind, f"drop{at}/{first}", dumps(drop_at(doc, (*parts, first))),
                   f"{at}/{first}", "drop", "any")  # fmt: skip
        yield Case(kind, f"duplicate{at}/{first}", duplicate_key(doc, parts), at, "duplicate",
                   "error")  # fmt: skip
    yield Case(kind, "duplicate/top", duplicate_key(doc, ()), "", "duplicate", "error")


def file_cases(kind: str, doc: Any) -> Iterator[Case]:
    """Whole-file hostility: encodings, truncation, nesting, numbers JSON cannot hold."""
    good = dumps(doc)
    fmt_name = doc.get("format", "") if isinstance(doc, dict) else ""
    head = json.dumps({"format": fmt_name, "version": doc.get("version", 1)})[:-1]
    yield Case(kind, "empty", b"", mutation="file")
    yield Case(kind, "whitespace", b"   \n\t ", mutation="file")
    yield Case(kind, "truncated", good[: len(good) // 2], mutation="file")
    yield Case(kind, "bom-valid", b"\xef\xbb\xbf" + good, mutation="file", expect="any")
    yield Case(kind, "bom-truncated", b"\xef\xbb\xbf" + good[:40], mutation="file")
    yield Case(kind, "latin1-byte", good[:20] + b"\xe9" + good[20:], mutation="file")
    yield Case(kind, "utf16", json.dumps(doc).encode("utf-16"), mutation="file")
    yield Case(kind, "nul-bytes", b"\x00" * 64, mutation="file")
    yield Case(kind, "deep-list", (head + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}").encode(),
               mutation="file")  # fmt: skip
    yield Case(kind, "deep-object", (head + ', "x": ' + '{"a":' * 5000 + "1" + "}" * 5001).encode(),
               mutation="file")  # fmt: skip
    yield Case(kind, "nan", (head + ', "x": NaN}').encode(), mutation="file")
    yield Case(kind, "1e999", (head + ', "x": 1e999}').encode(), mutation="file")
    yield Case(kind, "huge-int-literal", (head + ', "x": ' + "9" * 5000 + "}").encode(),
               mutation="file")  # fmt: skip
    yield Case(kind, "top-list", b"[1, 2, 3]", mutation="file")
    yield Case(kind, "top-string", b'"labkit"', mutation="file")
    yield Case(kind, "top-null", b"null", mutation="file")
    yield Case(kind, "wrong-format", (head.replace(fmt_name, "other") + "}").encode()
               if fmt_name else b'{"version": 99}', mutation="file")  # fmt: skip
    yield Case(kind, "version-99", dumps({**doc, "version": 99}), mutation="file")
    yield Case(kind, "version-string", dumps({**doc, "version": "2"}), mutation="file")
    yield Case(kind, "trailing-garbage", good + b"}}", mutation="file")
    yield Case(kind, "long-bad-list", (head + ', "version": [' + "1," * 300_000 + "1]}").encode(),
               mutation="file")  # fmt: skip


TELEMETRY_HEADER = "level,player,attempt,first_try,collisions,hints,rotations,undos,seconds,won"


def telemetry_cases() -> Iterator[Case]:
    """CSV hostility: each column's bad values, encodings, quoting, sizes."""
    row = ["L1", "p1", "1", "1", "0", "0", "2", "0", "31.5", "1"]

    def csv_of(*rows: list[str], header: str = TELEMETRY_HEADER) -> bytes:
        return ("\n".join([header, *(",".join(r) for r in rows)]) + "\n").encode()

    yield Case("telemetry", "valid", csv_of(row), mutation="file", expect="any")
    yield Case("telemetry", "bom", b"\xef\xbb\xbf" + csv_of(row), mutation="file", expect="any")
    yield Case("telemetry", "latin1", csv_of(["L\xe9"] + row[1:]).replace(b"\xc3\xa9", b"\xe9"),
               mutation="file")  # fmt: skip
    yield Case("telemetry", "empty", b"", mutation="file")
    yield Case("telemetry", "header-only-missing", b"level,player\n", mutation="file")
    yield Case("telemetry", "utf16", csv_of(row).decode().encode("utf-16"), mutation="file")
    yield Case("telemetry", "nul", b"\x00" * 50, mutation="file")
    yield Case("telemetry", "huge-field", csv_of(["L" * 200_000] + row[1:]), mutation="file")
    yield Case("telemetry", "long-id", csv_of(["L" * 500] + row[1:]), mutation="file")
    yield Case("telemetry", "unclosed-quote", csv_of(['"L1'] + row[1:]), mutation="file")
    yield Case("telemetry", "many-columns", csv_of(row + ["x"] * 1000), mutation="file")
    yield Case("telemetry", "short-row", csv_of(row[:5]), mutation="file")
    bad = {2: ["0", "-1", "1.5", "1e30", "10" * 30, "true", "", " ", "٣"],
           4: ["-1", "1.9", "1e30", "9" * 40, "nan", "x"],
           8: ["-1", "nan", "inf", "1e999", "1e30", "x", ""],
           3: ["2", "yes", "-1", ""], 9: ["2", "no", ""], 0: [""], 1: [""]}  # fmt: skip
    for col, values in bad.items():
        for v in values:
            r = list(row)
            r[col] = v
            if col == 9 and v == "":
                r[3] = "0"
            yield Case("telemetry", f"col{col}={v[:10]!r}", csv_of(r), f"column {col}", "retype")
    yield Case("telemetry", "duplicate-attempt", csv_of(row, row), mutation="duplicate")
    yield Case("telemetry", "first-try-lies", csv_of(row[:3] + ["0"] + row[4:]), mutation="retype")


def all_cases(leaves: int = 10, objects: int = 5) -> Iterator[Case]:
    """Every generated case of every format."""
    for kind, fmt in FORMATS.items():
        doc = fmt.base()
        yield from mutations(kind, doc, leaves, objects)
        yield from file_cases(kind, doc)
    yield from telemetry_cases()


# --- running and judging ---


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise :class:`Hang` after ``seconds`` (main thread, POSIX)."""

    def ring(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def same_values(original: Any, written: Any, parts: tuple = ()) -> str | None:
    """Pointer where ``written`` changes a value of ``original`` (or its JSON type), else None.

    Keys the writer leaves out or adds (defaults) are not compared; ints may come back as
    floats of the same value (a float field), never the other way round, and never bools.
    """
    if isinstance(original, dict) and isinstance(written, dict):
        for k in original.keys() & written.keys():
            found = same_values(original[k], written[k], (*parts, k))
            if found is not None:
                return found
        return None
    if isinstance(original, list) and isinstance(written, list):
        if len(original) != len(written):
            return pointer_text(parts)
        for i, (a, b) in enumerate(zip(original, written)):
            found = same_values(a, b, (*parts, i))
            if found is not None:
                return found
        return None
    if type(original) is type(written) and original == written:
        return None
    if type(original) is int and type(written) is float and original == written:
        return None
    return pointer_text(parts)


def _underived(doc: Any, derived: str, parts: tuple = ()) -> Any:
    """``doc`` without the values at pointers matching ``derived``."""
    if isinstance(doc, dict):
        return {k: _underived(v, derived, (*parts, k)) for k, v in doc.items()
                if not re.search(derived, pointer_text((*parts, k)))}  # fmt: skip
    if isinstance(doc, list):
        return [_underived(v, derived, (*parts, i)) for i, v in enumerate(doc)]
    return doc


def _canonical(kind: str, doc: Any) -> Any:
    if kind == "campaign" and isinstance(doc, dict) and isinstance(doc.get("levels"), list):
        entries = [
            {**e, "level": _canonical("level", e["level"])} if isinstance(e, dict) and "level" in e
            else e
            for e in doc["levels"]
        ]  # fmt: skip
        return {**doc, "levels": entries}
    if kind == "level" and isinstance(doc, dict) and isinstance(doc.get("cells"), list):
        cells = doc["cells"]
        if all(isinstance(c, dict) and type(c.get("q")) is int and type(c.get("r")) is int
               for c in cells):  # fmt: skip
            return {**doc, "cells": sorted(cells, key=lambda c: (c["q"], c["r"]))}
    return doc


def judge_python(case: Case, path: Path, seconds: int = 30) -> tuple[str, str]:
    """Load ``path`` with the format's Python loader: (verdict, detail).

    Verdicts: ``clean`` (a LabkitError naming file/pointer; or an accepted file that checks
    out), ``traceback`` (any other exception), ``accepted`` (a silently accepted or altered
    file), ``hang``.
    """
    from labkit import LabkitError

    fmt = FORMATS.get(case.kind)
    load = fmt.load if fmt else _load_telemetry
    try:
        with time_limit(seconds):
            obj = load(path)
            verdict = _check_accepted(case, fmt, obj)
    except LabkitError as exc:
        return "clean", str(exc)
    except Hang as exc:
        return "hang", str(exc)
    except Exception as exc:  # noqa: BLE001 - that is what the audit counts
        return "traceback", f"{type(exc).__name__}: {str(exc)[:200]}"
    return verdict


def _check_accepted(case: Case, fmt: Format | None, obj: Any) -> tuple[str, str]:
    if case.expect == "error":
        return "accepted", "loaded a file that must be refused"
    if fmt is None:  # telemetry: the "any" cases are valid files
        return "clean", "valid file loaded"
    try:
        original = json.loads(case.data.decode("utf-8-sig"))
    except ValueError:
        return "accepted", "loaded a file that is not valid JSON"
    if fmt.dump is not None:
        written = json.loads(json.dumps(fmt.dump(obj)))
        original, written = (_underived(d, fmt.derived) for d in (original, written))
        where = same_values(_canonical(case.kind, original), _canonical(case.kind, written))
        if where is not None:
            return "accepted", f"value changed on the way through, at {where}"
    elif case.mutation == "retype":
        value = get_at(original, tuple(_parts(case.at)))
        base = get_at(fmt.base(), tuple(_parts(case.at)))
        numbers = {type(value), type(base)} <= {int, float}
        allowed = (
            (value is None and re.search(fmt.nullable, case.at))
            or (numbers and re.search(fmt.numeric, case.at))
            or type(value) is type(base)
            or (type(base) is float and type(value) is int)
        )
        if not allowed:
            return "accepted", f"accepted a {type(value).__name__} at {case.at}"
    if case.kind == "trace" and case.mutation != "file":
        from labkit.encounter.records.replay import replay

        if replay(obj) is None and not re.match(r"^/labkit", case.at):
            return "accepted", "replay found no divergence in a changed trace"
    return "clean", "loaded, writes back unchanged"


def _parts(at: str) -> list:
    out: list = []
    for p in at.split("/")[1:]:
        p = p.replace("~1", "/").replace("~0", "~")
        out.append(int(p) if p.isdigit() else p)
    return out


def run_cli(argv: list[str], seconds: int = 60) -> tuple[str, int | None, str, str]:
    """Run ``labkit argv`` in this process: (verdict, exit status, stdout, stderr).

    ``clean``: exit 0/1/2 with no traceback and, on failure, one error line on stderr;
    ``traceback``: an exception escaped ``main``; ``hang``: over the time budget;
    ``noisy``: more than one stderr line for an error.
    """
    from labkit.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with time_limit(seconds), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as exc:  # older labkit let argparse exit itself: judge the output
                rc = exc.code if isinstance(exc.code, int) else 1
    except Hang:
        return "hang", None, out.getvalue(), err.getvalue()
    except BaseException as exc:  # noqa: BLE001
        return "traceback", None, out.getvalue(), f"{type(exc).__name__}: {str(exc)[:200]}"
    lines = [ln for ln in err.getvalue().splitlines() if ln.strip()]
    if rc not in (0, 1, 2):
        return "traceback", rc, out.getvalue(), err.getvalue()
    if rc and lines and (len(lines) > 1 or "Traceback" in err.getvalue()):
        return "noisy", rc, out.getvalue(), err.getvalue()
    return "clean", rc, out.getvalue(), err.getvalue()


# --- bad command lines ---


def bad_argument_sets(tmp: Path) -> list[tuple[str, list[str]]]:
    """Command lines that must fail before any work, with exit 1 or 2 and one stderr line.

    ``tmp`` is an empty folder; ``tmp/file`` is created as a plain file (for "a path under a
    file") and ``tmp/dir`` as a folder.
    """
    (tmp / "dir").mkdir(exist_ok=True)
    (tmp / "file").write_text("x")
    d, f = str(tmp / "dir"), str(tmp / "file")
    under = str(tmp / "file" / "sub.json")
    level = str(DATA / "levels" / "01-grazing.json")
    mp = str(DATA / "maps" / "corridors.json")
    tel = str(DATA / "telemetry" / "sample.csv")
    huge = "9" * 30
    sim = [
        ["--seeds", "5:5"], ["--seeds", "0:1000000000"], ["--seeds", "a:b"], ["--seeds", "1:2:3"],
        ["--seeds", "-5:3"], ["--seeds", ""], ["--seeds", ","], ["--workers", "0"],
        ["--workers", "-1"], ["--workers", "100000"], ["--chunksize", "0"],
        ["--chunksize", "-1"], ["--width", "-5"], ["--width", "0"], ["--width", "1000"],
        ["--height", "x"], ["--npcs", "0"], ["--npcs", "100"], ["--monsters", "-1"],
        ["--difficulty", "4,1"], ["--difficulty", "1"], ["--difficulty", "a,b"],
        ["--policies", "nobody,hunter"], ["--policies", "one"], ["--max-steps", "0"],
        ["--max-steps", "-1"], ["--max-steps", huge], ["--map-seed", "-1"],
        ["--map-seed", huge], ["--balance", "/combat/max_rounds/x=1"], ["--balance", "/nope=1"],
        ["--balance", "life=4"], ["--balance", "/=4"],
        ["--balance", "/characters/monster/life=1e30"],
        ["--balance", "/characters/monster/life=" + "1" + "0" * 30],
        ["--balance", "/weapons/claws/damage=9223372036854775808"],
        ["--balance", "/card_pool/stock/bullet=1000000000"], ["--balance", "/tables/hit=[1]"],
        ["--balance", "/tables/hit/99=0.5"], ["--balance", "/tables/hit/x=0.5"],
        ["--balance", "/combat=3"], ["--out", d], ["--out", under], ["--npcs", "30"],
    ]  # fmt: skip
    out: list[tuple[str, list[str]]] = []
    for extra in sim:
        out.append((f"sim batch {' '.join(extra)[:40]}", ["sim", "batch", "--quiet", *extra]))
    runs = [["--seed", "-1"], ["--seed", "1.5"], ["--seed", huge], ["--journal", "-1"],
            ["--format", "4"], ["--out", d], ["--out", under], ["--out", ""]]  # fmt: skip
    for extra in runs:
        out.append((f"sim run {' '.join(extra)[:40]}", ["sim", "run", *extra]))
    puzzle = [
        ["generate", "--seed", "-1", "--out", d], ["generate", "--seed", "1", "--count", "-3",
        "--out", d], ["generate", "--seed", "1", "--count", "0", "--out", d],
        ["generate", "--seed", "1", "--count", str(10**9), "--out", d],
        ["generate", "--seed", "1", "--out", f], ["generate", "--seed", "1", "--out", under],
        ["generate", "--seed", "1", "--out", d, "--tiles", "-1", "5"],
        ["generate", "--seed", "1", "--out", d, "--radius", "5"],
        ["generate", "--seed", "1", "--out", d, "--rotations", "-1", "2"],
        ["generate", "--seed", "1", "--out", d, "--tiles", "9", "1"],
        ["telemetry", "--out", str(tmp / "t.csv"), "--players", "-1"],
        ["telemetry", "--out", str(tmp / "t.csv"), "--players", "0"],
        ["telemetry", "--out", str(tmp / "t.csv"), "--players", str(10**6)],
        ["telemetry", "--out", d], ["telemetry", "--out", under],
        ["telemetry", "--out", str(tmp / "t.csv"), "--seed", "-5"],
        ["calibrate", tel, "--boot", "0"], ["calibrate", tel, "--boot", str(10**9)],
        ["calibrate", tel, "--boot", "-1"], ["calibrate", tel, "--json", d],
        ["calibrate", d], ["show", level, "--orientation", str(10**9)],
        ["show", level, "--svg", d], ["show", level, "--svg", under], ["show", d],
        ["tap-trace", level, "no-such-tile"], ["solve", level, "--max-states", "0"],
        ["solve", level, "--max-states", "-5"], ["campaign", "--out", d],
        ["campaign", "--out", f, "--seed", "-1"], ["validate", d], ["score", "/dev/null"],
        ["hint", str(tmp / "missing.json")],
    ]  # fmt: skip
    for extra in puzzle:
        out.append((f"puzzle {' '.join(extra)[:50]}", ["puzzle", *extra]))
    mapturn = [
        ["timeline", "--time-costs", "1,2", "--ticks", str(10**12)],
        ["timeline", "--time-costs", "1,2", "--ticks", "-1"],
        ["timeline", "--time-costs", "1,2", "--ticks", "0"],
        ["timeline", "--time-costs", "1,2", "--width", "0"],
        ["timeline", "--time-costs", "1,2", "--width", "-5"],
        ["timeline", "--time-costs", ""], ["timeline", "--time-costs", "a,b"],
        ["timeline", "--time-costs", "nan"], ["timeline", "--time-costs", "inf"],
        ["timeline", "--time-costs", "0.001"], ["timeline", "--time-costs", "-1"],
        ["play", TOWER, "--save", under], ["play", TOWER, "--save", d],
        ["play", TOWER, "--load", str(tmp / "missing.json")], ["play", str(tmp / "missing.json")],
        ["play", d], ["play", TOWER, "--load", d],
    ]  # fmt: skip
    for extra in mapturn:
        out.append((f"mapturn {' '.join(extra)[:50]}", ["mapturn", *extra]))
    path = [["--from", "a,b", "--to", "1,1"], ["--from", "1", "--to", "1,1"],
            ["--from", "1,2,3", "--to", "1,1"], ["--from", "1,1", "--to", ""],
            ["--from", "1,1", "--to", "1,1", "--svg", d], ["--from", "1,1"],
            ["--from", "1,1", "--to", "1,1", "--svg", under]]  # fmt: skip
    for extra in path:
        out.append((f"path find {' '.join(extra)[:40]}", ["path", "find", mp, *extra]))
    out += [("no command", ["nosuch"]), ("bare sim", ["sim"]), ("bare puzzle", ["puzzle"]),
            ("unknown option", ["--bogus"]), ("path find missing map", ["path", "find", d,
            "--from", "0,0", "--to", "1,1"])]  # fmt: skip
    return out


def in_child(fn: Callable[..., Any], *args: Any, seconds: int = 60,
             memory: int = 3 * 1024**3) -> Any:  # fmt: skip
    """``fn(*args)`` in a forked child with a memory cap and a deadline (POSIX).

    A case that blocks in C (a FIFO read, a device read that never ends) or eats all memory
    cannot take the audit down with it: the child is killed and the case is a ``hang`` (over
    time) or a ``traceback`` (killed, out of memory). Returns what ``fn`` returned (via JSON).
    """
    import os
    import resource
    import time

    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read_end)
        status = 0
        try:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            result = fn(*args)
            payload = json.dumps(result).encode()
        except BaseException as exc:  # noqa: BLE001
            payload = json.dumps(["traceback", f"{type(exc).__name__}: {str(exc)[:200]}"]).encode()
            status = 1
        with os.fdopen(write_end, "wb") as fh:
            fh.write(payload)
        os._exit(status)
    os.close(write_end)
    deadline = time.monotonic() + seconds + 10
    chunks = []
    os.set_blocking(read_end, False)
    while True:
        try:
            chunk = os.read(read_end, 1 << 16)
            if chunk:
                chunks.append(chunk)
            elif chunk == b"":
                break
        except BlockingIOError:
            pass
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            try:
                while chunk := os.read(read_end, 1 << 16):
                    chunks.append(chunk)
            except BlockingIOError:
                pass
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read_end)
            return ["hang", f"killed after {seconds + 10} s"]
        time.sleep(0.005)
    os.close(read_end)
    try:
        os.waitpid(pid, 0)  # reap it (EOF may come before the exit is seen)
    except ChildProcessError:
        pass
    if not chunks:
        return ["traceback", "the child died without an answer (out of memory or a signal)"]
    return json.loads(b"".join(chunks))


# --- telemetry exact or refused (issue 33 item 3) -----------------------------------------------
# Kept apart from the generated corpus above: each case builds its input (a file in ``folder`` or
# an in-memory table), and pins the one-line error every loader must give for it.

TELEMETRY_ROW = ("L1", "p1", 1, True, 0, 0, 2, 0, 31.5, True)


def _telemetry_columns(**change: list) -> dict[str, list]:
    from labkit.hexpuzzle.difficulty.telemetry import COLUMNS

    cols = {name: [v, v] for name, v in zip(COLUMNS, TELEMETRY_ROW)}
    cols["player"] = ["p1", "p2"]
    cols.update(change)
    return cols


def _parquet(folder: Path, name: str, cols: dict, types: dict | None = None) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({k: pa.array(v, type=(types or {}).get(k)) for k, v in cols.items()})
    pq.write_table(table, folder / name)
    return folder / name


def _csv(folder: Path, name: str, *rows: str) -> Path:
    path = folder / name
    path.write_bytes(("\n".join([TELEMETRY_HEADER, *rows]) + "\n").encode("utf-8", "surrogatepass"))
    return path


def _frame(**change: list) -> Any:
    import pandas as pd

    return pd.DataFrame(_telemetry_columns(**change))


def _array(**change: list) -> Any:
    import numpy as np

    from labkit.hexpuzzle.difficulty.telemetry import COLUMNS

    cols = _telemetry_columns(**change)
    dtype = [("level", "U8"), ("player", "U8"), *((n, "i8") for n in list(COLUMNS)[2:])]
    dtype = [(n, "?" if n in ("first_try", "won") else "f8" if n == "seconds" else t)
             for n, t in dtype]  # fmt: skip
    return np.array(list(zip(*(cols[n] for n in COLUMNS))), dtype=dtype)


#: (name, make(folder) -> a path or a table, the one-line error it must give)
TELEMETRY_EXACT_CASES: list[tuple[str, Callable[[Path], Any], str]] = [
    ("csv-nul-ends-an-id", lambda f: _csv(f, "a.csv", "L1,p1\x00,1,1,0,0,2,0,31.5,1",
                                          "L1,p1,1,1,0,0,2,0,31.5,1"),
     "a.csv: line 2, column 'player': holds a control character (got 'p1\\x00')"),
    ("csv-space-before-an-id", lambda f: _csv(f, "b.csv", "L1, p1,1,1,0,0,2,0,31.5,1"),
     "b.csv: line 2, column 'player': starts or ends with a space (got ' p1')"),
    ("csv-space-after-an-id", lambda f: _csv(f, "c.csv", "L1 ,p1,1,1,0,0,2,0,31.5,1"),
     "c.csv: line 2, column 'level': starts or ends with a space (got 'L1 ')"),
    ("csv-tab-in-an-id", lambda f: _csv(f, "d.csv", "L1,p\t1,1,1,0,0,2,0,31.5,1"),
     "d.csv: line 2, column 'player': holds a control character (got 'p\\t1')"),
    ("csv-cr-in-an-id", lambda f: _csv(f, "e.csv", '"L\r1",p1,1,1,0,0,2,0,31.5,1'),
     "e.csv: line 2, column 'level': holds a control character (got 'L\\r1')"),
    ("parquet-null-player", lambda f: _parquet(f, "n.parquet",
                                               _telemetry_columns(player=["p1", None])),
     "n.parquet: row 2, column 'player': missing value (null)"),
    ("parquet-list-player", lambda f: _parquet(f, "l.parquet",
                                               _telemetry_columns(player=[["a"], ["b"]])),
     "l.parquet: row 1, column 'player': must be a text column (got list<element: string>)"),
    ("parquet-string-attempt", lambda f: _parquet(f, "s.parquet",
                                                  _telemetry_columns(attempt=["1", "2"])),
     "s.parquet: row 1, column 'attempt': must be an integer column (got string)"),
    ("parquet-bool-collisions", lambda f: _parquet(f, "b.parquet",
                                                   _telemetry_columns(collisions=[True, False])),
     "b.parquet: row 1, column 'collisions': must be an integer column (got bool)"),
    ("parquet-null-seconds", lambda f: _parquet(f, "t.parquet",
                                                _telemetry_columns(seconds=[1.0, None])),
     "t.parquet: row 2, column 'seconds': missing value (null)"),
    ("parquet-over-the-row-limit", lambda f: _parquet(f, "big.parquet", _telemetry_columns()),
     "big.parquet: holds 2 rows, more than the limit of 1 (pass max_rows= to read more)"),
    ("array-nul-inside-an-id", lambda f: _array(player=["p1", "p\x001"]),
     "row 2, column 'player': holds a control character (got 'p\\x001')"),
    # numpy's fixed-width text itself drops a trailing NUL: two rows of p1, refused, not merged
    ("array-nul-ends-an-id", lambda f: _array(player=["p1", "p1\x00"]),
     "row 2, column 'attempt': duplicate (level, player, attempt) (also on row 1) "
     "(got ('L1', 'p1', 1))"),
    ("array-negative-count", lambda f: _array(hints=[0, -1]),
     "row 2, column 'hints': must be an integer 0-1000000000 (got -1)"),
    ("array-duplicate-attempt", lambda f: _array(player=["p1", "p1"]),
     "row 2, column 'attempt': duplicate (level, player, attempt) (also on row 1) "
     "(got ('L1', 'p1', 1))"),
    ("frame-string-attempt", lambda f: _frame(attempt=["1", "2"]),
     "row 1, column 'attempt': must be an integer column (got string)"),
    ("frame-null-player", lambda f: _frame(player=["p1", None]),
     "row 2, column 'player': missing value (null)"),
    ("frame-space-after-an-id", lambda f: _frame(player=["p1", "p1 "]),
     "row 2, column 'player': starts or ends with a space (got 'p1 ')"),
    ("dict-bool-collisions", lambda f: _telemetry_columns(collisions=[True, False]),
     "row 1, column 'collisions': must be an integer column (got bool)"),
]  # fmt: skip
