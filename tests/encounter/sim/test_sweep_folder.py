"""A sweep's folder, part by part: identity, manifest, checksums and the lock (the module's own
functions; whole sweeps killed and resumed are in tests/encounter/sim/test_sweep.py and
tests/test_hostile.py)."""

from __future__ import annotations

import hashlib
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from labkit.encounter.sim.sweep_folder import (
    MANIFEST,
    META_KEY,
    SweepError,
    hold,
    identity,
    open_dir,
    read_parts,
    rows_digest,
    write_part,
)

FORMAT = "labkit.test_sweep"
MAN = {"parameters": ["npcs"], "points": [{"npcs": 1}, {"npcs": 2}], "seeds": [0, 1, 2],
       "base": {}, "mode": "outcome", "labkit_version": "0"}  # fmt: skip
COLUMNS = ["point", "seed", "winner"]


def _table(points=(0, 1), seeds=(0, 2), winner=("npc", "monster")):
    return pa.table({"point": list(points), "seed": list(seeds), "winner": list(winner)})


def test_identity_is_the_sha256_of_the_sorted_compact_json_without_itself():
    text = ('{"base":{},"labkit_version":"0","mode":"outcome","parameters":["npcs"],'
            '"points":[{"npcs":1},{"npcs":2}],"seeds":[0,1,2]}')  # fmt: skip
    assert identity(MAN) == hashlib.sha256(text.encode()).hexdigest()
    assert identity({**MAN, "sweep_id": "anything"}) == identity(MAN)
    assert identity({**MAN, "seeds": [0, 1, 3]}) != identity(MAN)


def test_the_rows_digest_reads_names_and_values_not_the_encoding():
    t = _table()
    text = '{"point":[0,1],"seed":[0,2],"winner":["npc","monster"]}'
    assert rows_digest(t) == hashlib.sha256(text.encode()).hexdigest()
    again = pa.table({"point": pa.array([0, 1], pa.int8()), "seed": [0, 2],
                      "winner": pa.array(["npc", "monster"]).dictionary_encode()})  # fmt: skip
    assert rows_digest(again) == rows_digest(t)


def test_a_written_part_is_read_back_and_stamped(tmp_path):
    sid = open_dir(tmp_path, MAN, FORMAT, 1)
    assert sid == identity(MAN)
    assert json.loads((tmp_path / MANIFEST).read_text())["sweep_id"] == sid
    write_part(tmp_path, _table(), 0, sid)
    (part,) = tmp_path.glob("part-000000000-*.parquet")
    stamp = json.loads(pq.read_table(part).schema.metadata[META_KEY])
    assert stamp == {"sweep": sid, "sha256": rows_digest(_table())}
    (got,) = read_parts(tmp_path, sid, COLUMNS, 2, [0, 1, 2])
    assert got.equals(_table())
    assert open_dir(tmp_path, MAN, FORMAT, 1) == sid  # the same sweep resumes


@pytest.mark.parametrize("key", ["parameters", "points", "seeds", "base", "mode",
                                 "labkit_version"])  # fmt: skip
def test_another_sweep_in_the_folder_is_named_by_the_key_that_differs(tmp_path, key):
    open_dir(tmp_path, MAN, FORMAT, 1)
    with pytest.raises(SweepError, match=f"holds a different sweep \\({key} differs\\)"):
        open_dir(tmp_path, {**MAN, key: "other"}, FORMAT, 1)


def test_parts_without_a_manifest_are_refused_and_temporaries_removed(tmp_path):
    (tmp_path / "part-000000000-1.parquet").write_bytes(b"x")
    with pytest.raises(SweepError, match="holds part files but no manifest.json"):
        open_dir(tmp_path, MAN, FORMAT, 1)
    assert not (tmp_path / MANIFEST).exists()  # nothing written on a refusal
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / ".part-000000004-9.tmp").write_bytes(b"half")
    open_dir(fresh, MAN, FORMAT, 1)
    assert not (fresh / ".part-000000004-9.tmp").exists()


def _part(folder, table, stamp):
    path = folder / "part-000000002-1.parquet"
    meta = None if stamp is None else {META_KEY: json.dumps(stamp).encode()}
    pq.write_table(table.replace_schema_metadata(meta), path)
    return path


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda sid, t: (t, None), "no sweep identity"),
        (lambda sid, t: (t, {"sweep": "f" * 64, "sha256": rows_digest(t)}), "another sweep"),
        (lambda sid, t: (t, {"sweep": sid, "sha256": "0" * 64}), "do not match its checksum"),
        (
            lambda sid, t: (
                _table(points=(0, 2)),
                {"sweep": sid, "sha256": rows_digest(_table(points=(0, 2)))},
            ),
            "outside this sweep's points or seeds",
        ),  # point 2 of a two-point sweep
        (
            lambda sid, t: (
                _table(seeds=(0, 7)),
                {"sweep": sid, "sha256": rows_digest(_table(seeds=(0, 7)))},
            ),
            "outside this sweep's points or seeds",
        ),  # seed 7 is not among 0, 1, 2
        (
            lambda sid, t: (
                t.drop(["winner"]),
                {"sweep": sid, "sha256": rows_digest(t.drop(["winner"]))},
            ),
            "does not fit this sweep",
        ),
    ],
    ids=["unstamped", "foreign", "edited", "point-outside", "seed-outside", "columns"],
)
def test_a_part_that_does_not_belong_is_refused_naming_the_file(tmp_path, make, message):
    sid = open_dir(tmp_path, MAN, FORMAT, 1)
    table, stamp = make(sid, _table())
    path = _part(tmp_path, table, stamp)
    with pytest.raises(SweepError, match=message) as err:
        read_parts(tmp_path, sid, COLUMNS, 2, [0, 1, 2])
    assert path.name in str(err.value)


def test_a_part_cut_short_is_removed_so_its_games_are_played_again(tmp_path):
    sid = open_dir(tmp_path, MAN, FORMAT, 1)
    write_part(tmp_path, _table(), 0, sid)
    cut = tmp_path / "part-000000002-1.parquet"
    cut.write_bytes(b"PAR1 cut short")
    assert len(read_parts(tmp_path, sid, COLUMNS, 2, [0, 1, 2])) == 1
    assert not cut.exists()


def test_the_lock_refuses_a_second_holder_and_names_what_holds_it(tmp_path):
    import os

    with hold(tmp_path, "a tune"):
        with pytest.raises(SweepError) as err:
            with hold(tmp_path):  # a sweep asking: told that a tune holds the folder
                pass
        assert f"another process is running a tune (process {os.getpid()}) in this" in str(
            err.value
        )
    with hold(tmp_path):  # released when the block ends
        pass
