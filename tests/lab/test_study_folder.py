"""The lab's study folder: the lock, parts without a manifest, the caller's error class."""

from __future__ import annotations

import pytest

from labkit import LabkitError
from labkit.lab.study_folder import StudyError, hold, identity, open_dir

MAN = {"game": {"name": "dice duel"}, "points": [{"hp": 1}], "seeds": [0, 1]}
KEYS = ("game", "points", "seeds")


def test_a_second_holder_is_refused_naming_what_holds_the_folder(tmp_path):
    with hold(tmp_path, "a sweep of 'dice duel'"):
        with pytest.raises(StudyError, match="another process is running a sweep of 'dice duel'"):
            with hold(tmp_path):
                pass
    with hold(tmp_path):  # released at the end of the block
        pass


def test_the_caller_s_error_class_is_raised(tmp_path):
    class OwnError(LabkitError):
        pass

    (tmp_path / "part-000000000-1.parquet").write_bytes(b"x")
    with pytest.raises(OwnError, match="part files but no manifest.json"):
        open_dir(tmp_path, MAN, "labkit.lab.test", 1, keys=KEYS, error=OwnError)


def test_a_different_study_names_the_first_key_that_differs(tmp_path):
    assert open_dir(tmp_path, MAN, "labkit.lab.test", 1, keys=KEYS) == identity(MAN)
    with pytest.raises(StudyError, match=r"/points: .* \(points differs\)"):
        open_dir(tmp_path, {**MAN, "points": [{"hp": 2}]}, "labkit.lab.test", 1, keys=KEYS)
