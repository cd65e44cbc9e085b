"""``labkit bundle`` / ``labkit verify``: a notebook packed with the data it read, re-executed and
compared cell by cell; a tampered data file and a tampered output are both named."""

from __future__ import annotations

import io
import json
import shutil
import zipfile

import nbformat
import numpy as np
import pytest

from labkit._data import data_path
from labkit.cli import main

CELLS = [
    "import labkit\nstamp = labkit.notebook_header(seeds=1)",
    "from labkit.hexpuzzle import Level, campaign\n"
    "level = Level.load('level.json')\n"
    "print('move limit', level.move_limit, 'tiles', len(level.tiles))\n"
    "print('campaign levels', len(campaign()))",
    "import matplotlib.pyplot as plt\n"
    "fig, ax = plt.subplots(figsize=(2, 2))\n"
    "ax.plot([0, level.move_limit], [0, 1])\n"
    "plt.show()",
    "print(0.1 + 0.2)",
]


@pytest.fixture(scope="module")
def notebook(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nb")
    shutil.copy(data_path("levels", "02-one-turn.json"), folder / "level.json")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, folder / "small.ipynb")
    return folder / "small.ipynb"


@pytest.fixture(scope="module")
def bundled(notebook, tmp_path_factory):
    out = tmp_path_factory.mktemp("bundle") / "small.zip"
    assert main(["bundle", str(notebook), "--out", str(out)]) == 0
    return out


def _rewrite(src, dst, change):
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            zout.writestr(info, change(info.filename, zin.read(info.filename)))


@pytest.mark.slow
def test_bundle_packs_the_notebook_its_data_versions_and_stamp(bundled):
    with zipfile.ZipFile(bundled) as zf:
        manifest = json.loads(zf.read("manifest.json"))
        names = set(zf.namelist())
        level = zf.read("notebook/level.json")
        executed = nbformat.reads(zf.read("notebook/small.ipynb").decode(), as_version=4)
    assert manifest["format"] == "labkit.bundle"
    files = {f["path"]: f for f in manifest["files"]}
    assert "notebook/level.json" in files  # read beside the notebook
    assert "data/levels/campaign.json" in files  # read from labkit's data folder
    assert {f["path"] for f in manifest["files"] if not f["external"]} <= names
    import hashlib

    assert files["notebook/level.json"]["sha256"] == hashlib.sha256(level).hexdigest()
    assert manifest["packages"]["numpy"] == np.__version__
    assert manifest["stamp"]["labkit"] and "labkit" in manifest["stamp"]["header"]
    printed = "".join(o.get("text", "") for o in executed.cells[3].outputs)
    assert printed.strip() == "0.30000000000000004"
    assert any("image/png" in o.get("data", {}) for o in executed.cells[2].outputs)


@pytest.mark.slow
def test_verify_passes_then_names_a_tampered_data_file_and_output(bundled, capsys):
    assert main(["verify", str(bundled)]) == 0
    out = capsys.readouterr().out
    assert "everything matches" in out and "cell 3: ok" in out

    def tamper(name, data):
        if name == "notebook/level.json":
            doc = json.loads(data)
            doc["moveLimit"] += 7
            return json.dumps(doc).encode()
        if name == "notebook/small.ipynb":
            return data.replace(b"0.30000000000000004", b"0.4")
        return data

    bad = bundled.with_name("tampered.zip")
    _rewrite(bundled, bad, tamper)
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "notebook/level.json: SHA-256 differs from the manifest" in out
    assert "cell 3: number 0.4 recorded, 0.30000000000000004 now" in out
    limit = json.loads(data_path("levels", "02-one-turn.json").read_text())["moveLimit"]
    assert f"cell 1: number {limit} recorded, {limit + 7} now" in out  # re-run on altered data
    assert "cell 0: ok" in out
    assert "mismatch" in out


def test_numbers_within_the_stated_tolerance():
    from labkit.share.verify import compare_text

    assert compare_text("mean 1.0000000001 rounds", "mean 1.0 rounds")[0]
    assert not compare_text("mean 1.01 rounds", "mean 1.0 rounds")[0]
    assert not compare_text("winner npc", "winner monster")[0]
    assert compare_text("took 3.2 s at 0x7f00aa11bb22", "took 9.9 s at 0x7f00cc33dd44")[0]


def test_figures_within_the_pixel_tolerance():
    from PIL import Image

    from labkit.share.verify import compare_png

    def png(a):
        buf = io.BytesIO()
        Image.fromarray(a).save(buf, format="PNG")
        return buf.getvalue()

    base = np.full((100, 100, 3), 255, np.uint8)
    few = base.copy()
    few[0, :40] = 0  # 0.4 % of the pixels
    many = base.copy()
    many[:2, :] = 0  # 2 %
    faint = base.copy() - 10  # every pixel, but within 16 levels
    assert compare_png(png(base), png(few))[0]
    assert compare_png(png(base), png(faint))[0]
    assert not compare_png(png(base), png(many))[0]
    assert not compare_png(png(base), png(base[:50]))[0]


def test_an_unsafe_name_inside_a_bundle_is_refused(tmp_path):
    from labkit.share.bundle import BundleError
    from labkit.share.verify import verify

    bad = tmp_path / "evil.zip"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("../outside.json", "{}")
    with pytest.raises(BundleError, match="unsafe path"):
        verify(bad)


def test_bundle_refuses_a_missing_notebook(tmp_path, capsys):
    assert main(["bundle", str(tmp_path / "nope.ipynb"), "--out", str(tmp_path / "x.zip")]) == 1
    assert "notebook not found" in capsys.readouterr().err
    assert not (tmp_path / "x.zip").exists()


@pytest.mark.slow
def test_bundle_refuses_a_notebook_that_raises_and_writes_nothing(tmp_path, capsys):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1"),
                                         nbformat.v4.new_code_cell("1 / 0")])  # fmt: skip
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(nb, tmp_path / "raises.ipynb")
    out = tmp_path / "raises.zip"
    assert main(["bundle", str(tmp_path / "raises.ipynb"), "--out", str(out)]) == 1
    assert "code cell 1 raised: ZeroDivisionError" in capsys.readouterr().err
    assert not out.exists()
