"""The campaign file (SPEC H8): a bad file's error names the JSON pointer."""

from __future__ import annotations

import json

import pytest

from labkit import LabkitError
from labkit.hexpuzzle import shipped_campaign as camp

DOC = json.loads(camp.campaign_path().read_text(encoding="utf-8"))


def test_campaign_file_errors_name_the_pointer(tmp_path):
    doc = json.loads(json.dumps(DOC))
    doc["levels"][3]["level"]["moveLimit"] = 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(LabkitError, match=r"/levels/3/level/moveLimit.*\(got 0\)"):
        camp.load(bad)
