"""Hostile inputs refused in bounded time (issues 32 and 33).

* A tower whose one floor is 3000 x 3000 cells (18 MB of JSON) refused by its stated floor
  limit, against ``json.loads`` of the same text (what it cost before: the grid was parsed,
  then measured). The pre-scan (:mod:`labkit._json_grids`) reads brackets and commas only.
  Goal: under 1 s. Figures are CPU seconds (``time.process_time``), not wall time.
* Campaign validation at 250 / 500 / 1000 levels (the shipped levels repeated under new ids):
  one row each, ``ms per level`` in the notes; linear growth means the per-level figure stays
  flat. 1000 is ``campaign_file.MAX_LEVELS``, so the last row bounds a campaign's validation.
"""

from __future__ import annotations

import copy
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks import Row, benchmark


def _cpu(fn: Callable[[], object], repeat: int) -> float:
    """Median CPU seconds of ``fn()`` (wall time on 2 cores shared by many is mostly waiting)."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def _huge_tower(folder: Path) -> Path:
    from labkit.mapturn.defs import example_tower_path

    src = Path(example_tower_path())
    doc = json.loads(src.read_text())
    for name in ("enemies", "items", "skills"):  # table files are named relative to the tower
        if isinstance(doc.get(name), str):
            doc[name] = json.loads((src.parent / doc[name]).read_text())[name]
    floor = next(iter(doc["floors"]))
    doc["floors"] = {floor: {**doc["floors"][floor], "map": [[0] * 3000] * 3000}}
    path = folder / "huge-tower.json"
    path.write_text(json.dumps(doc, separators=(",", ":")))
    return path


@benchmark("hostile tower 3000x3000 floor refused")
def bench_huge_floor() -> Row:
    from labkit.mapturn import TowerError, load_tower

    with tempfile.TemporaryDirectory() as tmp:
        path = _huge_tower(Path(tmp))

        def refuse() -> None:
            try:
                load_tower(path)
            except TowerError as exc:
                assert "a floor is at most" in str(exc), exc
            else:
                raise AssertionError("a 3000x3000 floor was accepted")

        ours = _cpu(refuse, repeat=5)
        parse = _cpu(lambda: json.loads(path.read_bytes()), repeat=3)
        size = path.stat().st_size
    return Row("hostile tower 3000x3000 floor refused", ours, parse, "json.loads of the text",
               None, f"{size / 1e6:.0f} MB; goal < 1 s: {'yes' if ours < 1 else 'NO'}")  # fmt: skip


@benchmark("hostile campaign validation 250/500/1000 levels")
def bench_campaign_validation() -> list[Row]:
    from labkit._data import data_path
    from labkit.hexpuzzle.campaign_file import Campaign

    doc = json.loads(data_path("levels", "campaign.json").read_text())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (250, 500, 1000):
            entries = []
            for i in range(n):
                entry = copy.deepcopy(doc["levels"][i % len(doc["levels"])])
                entry["level"]["id"], entry["slot"] = f"L{i}", i
                entries.append(entry)
            path = Path(tmp) / f"c{n}.json"
            path.write_text(json.dumps({**doc, "levels": entries}))
            took = _cpu(lambda p=path: Campaign.load(p), repeat=3)
            rows.append(Row(f"hostile campaign validation {n} levels", took, None, "-", None,
                            f"{took / n * 1e3:.2f} ms per level"))  # fmt: skip
    return rows
