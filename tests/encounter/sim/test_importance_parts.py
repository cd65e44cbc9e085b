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
                          n=256, outcome="steps", response=ishigami_response, progress=False,
                          out=tmp_path, **kw)  # fmt: skip

    first = run()
    parts = sorted(tmp_path.glob("part-*.json"))
    assert len(parts) == -(-256 * 6 // PART) and first.games == 256 * 6 * GAMES
    parts[-1].unlink()  # as if stopped before the last part was saved
    again = run()
    assert again.table.equals(first.table)
    assert again.games == (256 * 6 - PART * (len(parts) - 1)) * GAMES  # the missing part only
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
