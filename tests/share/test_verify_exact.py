"""Sharing, from the rules of labkit.share.verify, labkit.share.bundle and labkit.share.snapshot.

* numbers may differ within ``|a - b| <= atol + rtol * |b|`` (as ``numpy.isclose(a, b)``: a the
  recorded number, b the one now), rtol 1e-6, atol 1e-9 -- one just past that is a mismatch;
* package versions recorded that differ here, or are missing, are listed (and only those);
* a data file that changes while the notebook runs is refused, naming the file;
* a selection control (Dropdown, ToggleButtons...) shows its chosen label, the first one too.
"""

from __future__ import annotations

import copy
import shutil

import nbformat
import pytest

from labkit._data import data_path
from labkit.share import verify
from labkit.share.bundle import BundleError, bundle
from labkit.share.snapshot import render_widget


@pytest.mark.parametrize(
    ("recorded", "now", "ok"),
    [
        ("1000.001", "1000.0", True),  # 0.001 <= 1e-9 + 1e-6 * 1000
        ("1000.0010000009", "1000.0", True),  # just inside: the bound is 0.001000001
        ("1000.0010000011", "1000.0", False),  # just past it
        # between atol + rtol*|now| and atol + rtol*|recorded|: the bound scales with *now*
        ("1000.0010000015", "1000.0", False),
        ("1000.0", "1000.0010000015", True),
        ("0.0", "1e-9", True),  # atol alone near zero
        ("0.0", "1.1e-9", False),
        ("-5.0", "5.0", False),  # a sign is part of the number
    ],
)
def test_a_number_just_past_the_stated_tolerance_is_a_mismatch(recorded, now, ok):
    same, why = verify.compare_text(f"mean {recorded} of 2", f"mean {now} of 2")
    assert same is ok, why
    if not ok:
        assert why == f"number {recorded} recorded, {now} now (beyond rtol 1e-06, atol 1e-09)"


def test_masked_timings_and_addresses_are_not_differences():
    assert verify.compare_text("took 3.2 s at 0x7f00aa11bb", "took 41 ms at 0x55cc0102ff")[0]
    assert not verify.compare_text("took 3.2 s, 7 levels", "took 41 ms, 8 levels")[0]


def notebook(folder, *cells):
    shutil.copy(data_path("levels", "02-one-turn.json"), folder / "level.json")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}  # fmt: skip
    nbformat.write(nb, folder / "nb.ipynb")
    return folder / "nb.ipynb"


READ = "from labkit.hexpuzzle import Level\nprint(Level.load('level.json').move_limit)"


def test_a_data_file_changing_while_the_notebook_runs_is_refused(tmp_path):
    path = notebook(tmp_path, READ, "open('level.json', 'a').write('\\n')")
    out = tmp_path / "b.zip"
    with pytest.raises(BundleError, match="data file changed while the notebook ran") as err:
        bundle(path, out)
    assert err.value.file.endswith("level.json")
    assert not out.exists()


def test_a_package_version_that_differs_or_is_missing_is_listed(tmp_path, monkeypatch):
    out = tmp_path / "b.zip"
    manifest = bundle(notebook(tmp_path, READ), out)
    here = dict(manifest["packages"])
    assert here["numpy"]  # recorded
    here["numpy"] = "0.0.1"  # differs here
    del here["scipy"]  # not installed here
    here["only-here"] = "1.0"  # installed but never recorded: not a difference

    def same_outputs(nb, folder, log, timeout, **env):  # the cells' outputs are not the point
        for cell, old in zip(verify.code_cells(nb), verify.code_cells(recorded)):
            cell.outputs = copy.deepcopy(old.outputs)
        return nb

    import zipfile

    with zipfile.ZipFile(out) as zf:
        recorded = nbformat.reads(zf.read(manifest["notebook"]).decode(), as_version=4)
    monkeypatch.setattr(verify, "execute", same_outputs)
    monkeypatch.setattr(verify, "package_versions", lambda: here)
    verdict = verify.verify(out)
    assert sorted(verdict.packages) == [
        f"numpy: {manifest['packages']['numpy']} recorded, 0.0.1 here",
        f"scipy: {manifest['packages']['scipy']} recorded, not installed here",
    ]
    assert not verdict.ok and all(ok for _, _, ok in verdict.cells) and not verdict.files
    monkeypatch.setattr(verify, "package_versions", lambda: dict(manifest["packages"]))
    assert verify.verify(out).ok


def selection(index, labels=("easy", "normal", "hard"), name="DropdownModel"):
    state = {"m": {"model_name": name, "state": {"description": "level",
                                                 "_options_labels": list(labels),
                                                 "index": index}}}  # fmt: skip
    return render_widget("m", state)


@pytest.mark.parametrize("name", ["DropdownModel", "ToggleButtonsModel", "RadioButtonsModel"])
def test_a_selection_control_shows_its_chosen_label_the_first_one_too(name):
    assert '<span class="lk-value">easy</span>' in selection(0, name=name)
    assert '<span class="lk-value">hard</span>' in selection(2, name=name)
    assert '<span class="lk-label">level</span>' in selection(0, name=name)


def test_a_selection_with_nothing_chosen_or_out_of_range_shows_a_dash():
    for index in (None, 3, -1):
        assert '<span class="lk-value">—</span>' in selection(index)


def test_a_multiple_selection_lists_its_labels_in_order():
    many = "SelectMultipleModel"
    assert '<span class="lk-value">easy, hard</span>' in selection([0, 2], name=many)
    assert '<span class="lk-value"></span>' in selection([], name=many)
