"""Write the committed corpus of hostile files, ``tests/data/hostile/``, and its ``expected.json``.

Each file is small and stands for one case class of issue 17; ``expected.json`` says, per file,
its format (``kind``) and what must happen: ``error`` (a LabkitError whose text contains
``match``, naming ``pointer`` when given), ``divergence`` (the trace loads, ``replay`` reports
``field``) or ``ok`` (loads; for a trace, replays without divergence).
``tests/test_hostile.py`` runs every file through the Python loader and the ``labkit`` command.

Usage: ``PYTHONPATH=. python scripts/make_hostile_corpus.py`` (re-run after a format changes).
"""

from __future__ import annotations

import copy
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hostile_cases import DATA, save_doc, tower_doc, trace_doc  # noqa: E402

OUT = ROOT / "tests" / "data" / "hostile"


def j(doc) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode()


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    expected: dict[str, dict] = {}

    def put(name: str, kind: str, data: bytes, **expect) -> None:
        (OUT / name).write_bytes(data)
        expected[name] = {"kind": kind, **expect}

    level = json.loads((DATA / "levels" / "01-grazing.json").read_text())
    lv = j(level)
    put("level-duplicate-key.json", "level",
        lv.replace(b'"moveLimit"', b'"moveLimit": 3, "moveLimit"', 1),
        expect="error", match="duplicate key 'moveLimit'", pointer="/moveLimit")  # fmt: skip
    put("level-deep-nesting.json", "level", b'{"version": 2, "x": ' + b"[" * 3000 + b"]" * 3000
        + b"}", expect="error", match="deeper than the limit")  # fmt: skip
    put("level-bom.json", "level", b"\xef\xbb\xbf" + lv, expect="ok")
    put("level-latin1.json", "level", lv.replace(b'"grazing"', b'"graz\xe9ng"', 1),
        expect="error", match="not UTF-8 text")  # fmt: skip
    put("level-lone-surrogate.json", "level", lv.replace(b'"grazing"', b'"\\ud800"', 1),
        expect="error", match="not encodable", pointer="/id")  # fmt: skip
    put("level-nan.json", "level", lv.replace(b'"moveLimit": 2', b'"moveLimit": NaN', 1),
        expect="error", match="NaN")  # fmt: skip
    put("level-1e999.json", "level", lv.replace(b'"moveLimit": 2', b'"moveLimit": 1e999', 1),
        expect="error", match="overflows to infinity")  # fmt: skip
    mathtext = copy.deepcopy(level)
    mathtext["tiles"][0]["id"] = "$\\frac{$"
    put("level-mathtext-tile-id.json", "level", j(mathtext), expect="ok")
    long_id = copy.deepcopy(level)
    long_id["id"] = "L" * 5000
    put("level-long-id.json", "level", j(long_id), expect="error", match="longer than 200",
        pointer="/id")  # fmt: skip
    put("level-long-bad-list.json", "level", b'{"version": [' + b"1," * 20_000 + b"1]}",
        expect="error", match="must be an integer (got [1, 1, 1", pointer="/version")  # fmt: skip

    sample = (DATA / "telemetry" / "sample.csv").read_text().splitlines()
    head = [ln for ln in sample if not ln.startswith("#")][:6]
    csv = ("\n".join(head) + "\n").encode()
    put("telemetry-bom.csv", "telemetry", b"\xef\xbb\xbf" + csv, expect="ok")
    row = head[1].split(",")
    put("telemetry-latin1.csv", "telemetry", csv.replace(row[1].encode(), b"pl\xe4yer", 1),
        expect="error", match="not UTF-8 text")  # fmt: skip
    huge = list(row)
    huge[2] = "1" + "0" * 30
    put("telemetry-attempt-1e30.csv", "telemetry", ("\n".join([head[0], ",".join(huge)]) +
        "\n").encode(), expect="error", match="must be an integer 1-1000000000")  # fmt: skip
    longf = list(row)
    longf[1] = "p" * 300
    put("telemetry-long-field.csv", "telemetry", ("\n".join([head[0], ",".join(longf)]) +
        "\n").encode(), expect="error", match="longer than 200")  # fmt: skip
    digits = list(row)
    digits[4] = "\u0663"
    put("telemetry-arabic-digit.csv", "telemetry", ("\n".join([head[0], ",".join(digits)])
        + "\n").encode(), expect="error", match="column 'collisions'")  # fmt: skip

    the_map = json.loads((DATA / "maps" / "corridors.json").read_text())
    mp = j(the_map)
    cost = copy.deepcopy(the_map)
    cost["cost"] = [[1] * len(the_map["event"][0]) for _ in the_map["event"]]
    put("map-cost-1e999.json", "map", j(cost).replace(b"[1, ", b"[1e999, ", 1),
        expect="error", match="overflows to infinity")  # fmt: skip
    neg = copy.deepcopy(cost)
    neg["cost"][0][0] = -1
    put("map-cost-negative.json", "map", j(neg), expect="error", match="must be a number 0-1e+09",
        pointer="/cost/0/0")  # fmt: skip
    wide = copy.deepcopy(the_map)
    wide["event"] = [[0] * 5000]
    wide.pop("layers", None)
    wide.pop("cost", None)
    put("map-too-wide.json", "map", j(wide), expect="error", match="at most 4096 cells wide",
        pointer="/event")  # fmt: skip
    number = copy.deepcopy(the_map)
    number["event"][0][0] = 2**70
    put("map-tile-number-2e70.json", "map", j(number), expect="error",
        match="must be between 0 and 2147483647", pointer="/event/0/0")  # fmt: skip
    put("map-duplicate-key.json", "map", mp.replace(b'"version": 1', b'"version": 1, "version": 1'),
        expect="error", match="duplicate key 'version'", pointer="/version")  # fmt: skip

    tower = tower_doc()
    big = copy.deepcopy(tower)
    big["floors"]["F1"]["map"] = [[0] * 300 for _ in range(3)]
    put("tower-floor-300-wide.json", "tower", j(big), expect="error",
        match="at most 256x256", pointer="/floors/F1/map")  # fmt: skip
    hp = copy.deepcopy(tower)
    first = next(iter(hp["enemies"]))
    hp["enemies"][first]["hp"] = 10**30
    put("tower-enemy-hp-1e30.json", "tower", j(hp), expect="error", match="must be 0-1000000000",
        pointer=f"/enemies/{first}/hp")  # fmt: skip
    absolute = tower_doc()
    absolute["enemies"] = "/etc/passwd"
    put("tower-absolute-table.json", "tower", j(absolute), expect="error",
        match="relative to the tower's folder", pointer="/enemies")  # fmt: skip
    dotdot = tower_doc()
    dotdot["items"] = "../mapturn/items.json"
    put("tower-dotdot-table.json", "tower", j(dotdot), expect="error",
        match="relative to the tower's folder", pointer="/items")  # fmt: skip

    save = save_doc()
    grid = save["world"]["floors"]["F1"]["map"]
    for tag, value in (("string", "1"), ("float", 1.9), ("bool", True)):
        bad = copy.deepcopy(save)
        bad["world"]["floors"]["F1"]["map"][0][0] = value
        put(f"save-floor-cell-{tag}.json", "save", j(bad), expect="error",
            match="a block number is an integer", pointer="/world/floors/F1/map/0/0")  # fmt: skip
    del grid
    neg_hp = copy.deepcopy(save)
    neg_hp["world"]["hero"]["hp"] = -50
    put("save-hero-hp-negative.json", "save", j(neg_hp), expect="error", match="must be 0-",
        pointer="/world/hero/hp")  # fmt: skip
    clock = copy.deepcopy(save)
    clock["mapTurnState"]["clock"] = 2**60
    put("save-clock-2e60.json", "save", j(clock), expect="error", match="must be 0-",
        pointer="/mapTurnState/clock")  # fmt: skip

    balance = json.loads((DATA / "balance" / "a_edition.json").read_text())
    for tag, path, value, match in (
        ("life-1e30", ("characters", "monster", "life"), 10**30, "must be between 1 and 1000000"),
        ("damage-2e63", ("weapons", "claws", "damage"), 2**63, "must be between"),
        ("stock-1e9", ("card_pool", "stock", "bullet"), 10**9, "must be between 0 and 10000"),
        ("max-rounds-1e9", ("combat", "max_rounds"), 10**9, "must be between 1 and 10000"),
    ):
        bad = copy.deepcopy(balance)
        node = bad
        for p in path[:-1]:
            node = node[p]
        node[path[-1]] = value
        put(f"balance-{tag}.json", "balance", j(bad), expect="error", match=match,
            pointer="/" + "/".join(path))  # fmt: skip

    trace = trace_doc()
    stock = {"format": "labkit.encounter.trace", "version": 3, "settings": {"balance":
             {"/card_pool/stock/bullet": 10**9}}, "steps": 1, "turns": 1, "winner": None,
             "end_reason": "STEP_LIMIT", "survivors": [], "events": []}  # fmt: skip
    put("trace-stock-1e9-patch.json", "trace", j(stock), expect="error",
        match="/card_pool/stock/bullet", pointer="/settings/balance")  # fmt: skip
    pointer_patch = copy.deepcopy(stock)
    pointer_patch["settings"]["balance"] = {"/combat/max_rounds/x": 1}
    put("trace-patch-into-number.json", "trace", j(pointer_patch), expect="error",
        match="a number has no fields", pointer="/settings/balance")  # fmt: skip
    spawn = copy.deepcopy(trace)
    spawn["map"]["spawns"]["npc-0"] = ["a", 0]
    put("trace-spawn-not-int.json", "trace", j(spawn), expect="error",
        match="must be [x, y] inside the map", pointer="/map/spawns/npc-0")  # fmt: skip
    other = {"npc": "monster", "monster": "npc", None: None}
    claims = {
        "winner": lambda t: t.update(winner=other[t["winner"]]) if t["winner"] else None,
        "survivors": lambda t: t.update(
            survivors=t["survivors"][:-1] if t["survivors"] else ["npc-0"]
        ),  # fmt: skip
        "steps": lambda t: t.update(steps=t["steps"] + 1),
        "turns": lambda t: t.update(turns=t["turns"] + 1),
        "map": lambda t: t["map"]["kinds"][0].__setitem__(
            0, "ward" if t["map"]["kinds"][0][0] != "ward" else "hall"
        ),
    }
    for field, change in claims.items():
        bad = copy.deepcopy(trace)
        change(bad)
        if bad == trace:
            continue
        put(f"trace-claim-{field}.json", "trace", j(bad), expect="divergence", field=field)
    loot = copy.deepcopy(trace)
    rooms = loot["map"]["loot"]
    if rooms:
        rid = next(iter(rooms))
        item = next(iter(rooms[rid]))
        rooms[rid][item] += 1
        put("trace-claim-loot.json", "trace", j(loot), expect="divergence", field="map")
    html = copy.deepcopy(trace)
    html["labkit"] = "<script>alert(1)</script>"
    put("trace-html-labkit.json", "trace", j(html), expect="ok")
    put("trace-bom.json", "trace", b"\xef\xbb\xbf" + j(trace), expect="ok")

    (OUT / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    size = sum(p.stat().st_size for p in OUT.iterdir())
    print(f"wrote {len(expected)} files ({size} bytes) to {OUT}")


if __name__ == "__main__":
    main()
