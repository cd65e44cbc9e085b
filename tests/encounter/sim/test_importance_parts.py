"""Importance runs resume from their saved parts; a changed design is refused."""

from __future__ import annotations

import pytest

from labkit.encounter import importance
from tests.encounter.sim.test_importance import GAMES, KNOBS, NOISE, ishigami_response


def test_resumes_from_its_parts(tmp_path):
    from labkit.encounter import SweepError
    from labkit.encounter.sim.importance_parts import PART

    def run(**kw):
        return importance(None, KNOBS, seeds=range(NOISE.size), games=GAMES, method="sobol",
                          n=512, outcome="steps", response=ishigami_response, progress=False,
                          out=tmp_path, **kw)  # fmt: skip

    first = run()
    parts = sorted(tmp_path.glob("part-*.json"))
    assert len(parts) == -(-512 * 6 // PART) == 2 and first.games == 512 * 6 * GAMES
    parts[-1].unlink()  # as if stopped before the last part was saved: the first is read back
    again = run()
    assert again.table.equals(first.table)
    assert again.games == (512 * 6 - PART * (len(parts) - 1)) * GAMES  # the missing part only
    with pytest.raises(SweepError, match="games differs"):
        importance(
            None,
            KNOBS,
            seeds=range(NOISE.size),
            games=2,
            method="sobol",
            n=256,
            outcome="steps",
            response=ishigami_response,
            progress=False,
            out=tmp_path,
        )


def test_a_second_process_on_the_same_folder_is_refused(tmp_path):
    from labkit.encounter import SweepError
    from labkit.encounter.sim.sweep_folder import hold

    def run():
        return importance(None, KNOBS, seeds=range(NOISE.size), games=GAMES, method="morris",
                          outcome="steps", response=ishigami_response, progress=False,
                          out=tmp_path)  # fmt: skip

    with hold(tmp_path):
        with pytest.raises(SweepError, match="another process is running a sweep"):
            run()
        assert not list(tmp_path.glob("*.json"))  # nothing played, nothing written
    assert run().games > 0  # released: the next run goes ahead
    assert (tmp_path / ".lock").read_text().startswith("an importance run (process ")


# -- the folder, part by part (exact, with a stand-in play) -------------------------------------


def _play(log):
    def play(points, which):
        log.append((list(points), list(which)))
        return [p["x"] * 10 + w for p, w in zip(points, which)]

    return play


def test_parts_are_saved_named_by_call_and_part_and_read_back(tmp_path):
    import json

    from labkit.encounter.sim.importance_parts import resumable

    log = []
    evaluate = resumable(_play(log), tmp_path / "new" / "run", {"k": (1, 2)}, part=2)
    pts = [{"x": 1}, {"x": 2}, {"x": 3}]
    first = evaluate(pts, [0, 1, 2])
    second = evaluate(pts[:1], [5])  # a second call: parts numbered afresh under call 01
    third = evaluate(pts[1:2], [6])  # and 02
    assert first.tolist() == [10.0, 21.0, 32.0] and second.tolist() == [15.0]
    assert third.tolist() == [26.0]
    assert log == [([{"x": 1}, {"x": 2}], [0, 1]), ([{"x": 3}], [2]), ([{"x": 1}], [5]),
                   ([{"x": 2}], [6])]  # fmt: skip
    d = tmp_path / "new" / "run"  # made, parents and all
    names = ["part-00-0000.json", "part-00-0001.json", "part-01-0000.json", "part-02-0000.json"]
    assert sorted(p.name for p in d.glob("part-*.json")) == names
    part = json.loads((d / "part-00-0000.json").read_text())
    from labkit.encounter.sim.importance_parts import values_digest
    from labkit.encounter.sim.sweep_folder import identity

    # each part carries the run's identity and its values' checksum (issue 46)
    assert part == {
        "format": "labkit.importance_part",
        "version": 1,
        "values": [10.0, 21.0],
        "run": identity({"k": [1, 2]}),
        "sha256": values_digest([10.0, 21.0]),
    }
    # compact, one line each: a million evaluations make many parts
    assert all(len(p.read_text().strip().splitlines()) == 1 for p in d.glob("*.json"))
    manifest = json.loads((d / "importance.json").read_text())
    assert manifest == {"format": "labkit.importance", "version": 1, "k": [1, 2]}
    # the same call again reads every part and plays nothing
    log.clear()
    again = resumable(_play(log), d, {"k": (1, 2)}, part=2)
    assert again(pts, [0, 1, 2]).tolist() == first.tolist() and log == []
    assert again(pts[:1], [5]).tolist() == [15.0] and log == []
    assert again(pts[1:2], [6]).tolist() == [26.0] and log == []
    # a lost part is played again, alone
    (d / "part-00-0001.json").unlink()
    once = resumable(_play(log), d, {"k": (1, 2)}, part=2)
    assert once(pts, [0, 1, 2]).tolist() == first.tolist() and log == [([{"x": 3}], [2])]


def test_a_part_of_the_wrong_size_or_kind_and_another_design_are_refused(tmp_path):
    import json

    from labkit.encounter import SweepError
    from labkit.encounter.sim.importance_parts import resumable

    resumable(_play([]), tmp_path, {"k": 1, "n": 8}, part=2)([{"x": 1}, {"x": 2}], [0, 1])
    from labkit.encounter.sim.importance_parts import values_digest

    path = tmp_path / "part-00-0000.json"
    run = json.loads(path.read_text())["run"]
    path.write_text(json.dumps({"format": "labkit.importance_part", "version": 1,
                                "values": [1.0], "run": run,
                                "sha256": values_digest([1.0])}))  # fmt: skip
    with pytest.raises(SweepError) as err:
        resumable(_play([]), tmp_path, {"k": 1, "n": 8}, part=2)([{"x": 1}, {"x": 2}], [0, 1])
    assert str(err.value) == f"/values: {path} holds 1 evaluations, not 2"
    path.write_text(json.dumps({"format": "labkit.sweep", "version": 1, "values": [1.0, 2.0]}))
    with pytest.raises(SweepError, match="labkit.importance_part"):
        resumable(_play([]), tmp_path, {"k": 1, "n": 8}, part=2)([{"x": 1}, {"x": 2}], [0, 1])
    path.write_text(json.dumps({"format": "labkit.importance_part", "version": 2,
                                "values": [1.0, 2.0]}))  # fmt: skip
    with pytest.raises(SweepError, match="version"):
        resumable(_play([]), tmp_path, {"k": 1, "n": 8}, part=2)([{"x": 1}, {"x": 2}], [0, 1])
    with pytest.raises(SweepError) as err:
        resumable(_play([]), tmp_path, {"k": 1, "n": 16}, part=2)
    assert str(err.value) == (
        f"/n: {tmp_path} holds a different importance run (n differs); resume it with the same "
        "call or use a new directory"
    )
    bad = {"format": "labkit.tune_many", "version": 1, "k": 1, "n": 8}
    (tmp_path / "importance.json").write_text(json.dumps(bad))
    with pytest.raises(SweepError, match="labkit.importance"):
        resumable(_play([]), tmp_path, {"k": 1, "n": 8}, part=2)
    bad = {"format": "labkit.importance", "version": 3, "k": 1, "n": 8}
    (tmp_path / "importance.json").write_text(json.dumps(bad))
    with pytest.raises(SweepError, match="version"):
        resumable(_play([]), tmp_path, {"k": 1, "n": 8}, part=2)


def test_the_seeds_digest_is_the_first_16_hex_digits_of_the_int64_blocks_sha256():
    import hashlib

    import numpy as np

    from labkit.encounter.sim.importance_parts import seeds_digest

    blocks = np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2]  # int32, not contiguous
    want = hashlib.sha256(np.array([[0, 2], [4, 6], [8, 10]], dtype=np.int64).tobytes())
    assert seeds_digest(blocks) == want.hexdigest()[:16]
