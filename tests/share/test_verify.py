"""labkit.share.verify, rule by rule, without a kernel (the notebook's execution is replaced).

The expected values come from the module docstring: text equal once timings, addresses and the
stamp are masked; numbers within ``atol + rtol * |now|``; figures of the same size with at most
0.5 % of pixels differing by more than 16 in a channel; files checked against their SHA-256;
reads not recorded and package versions that differ are listed. The slow end-to-end runs (a real
kernel) are in tests/share/test_bundle.py and test_verify_exact.py.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile

import nbformat
import numpy as np
import pytest
from PIL import Image

from labkit import ArgumentError
from labkit._data import data_dir
from labkit.share import verify
from labkit.share.bundle import MAX_TIMEOUT, BundleError
from labkit.share.verify import Verdict, compare_cells, compare_png, compare_text

# -- Verdict --------------------------------------------------------------------------------------


def test_an_empty_verdict_is_ok_and_says_so():
    assert Verdict().ok
    assert Verdict().lines() == ["verified: everything matches"]
    assert Verdict(notes=["a note"]).ok  # notes are shown, never a mismatch
    assert Verdict(cells=[(0, "ok", True)]).ok


@pytest.mark.parametrize(
    "verdict",
    [
        Verdict(files=["x: altered"]),
        Verdict(packages=["numpy: 1 recorded, 2 here"]),
        Verdict(cells=[(0, "ok", True), (1, "differs", False)]),
    ],
)
def test_any_problem_makes_a_verdict_not_ok(verdict):
    assert not verdict.ok
    assert verdict.lines()[-1] == "1 mismatch(es)"


def test_verdict_lines_list_files_notes_cells_packages_and_the_count_in_that_order():
    v = Verdict(
        cells=[(0, "ok", True), (2, "text differs", False)],
        files=["a.json: altered", "b.json: missing"],
        packages=["numpy: 1 recorded, 2 here"],
        notes=["c.json (external): not checked"],
    )
    assert v.lines() == [
        "data file a.json: altered",
        "data file b.json: missing",
        "note: c.json (external): not checked",
        "cell 0: ok",
        "cell 2: text differs",
        "package numpy: 1 recorded, 2 here",
        "4 mismatch(es)",
    ]


# -- text -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("took 12 ns", "took 3 ns"),
        ("took 1.5µs", "took 9µs"),
        ("took 2 us", "took 7 us"),
        ("took 4ms", "took 40ms"),
        ("took 1.5e3 s", "took 2e-1 s"),
        ("took 3 sec", "took 5 sec"),
        ("took 3 seconds", "took 5 seconds"),
        ("took 1 min", "took 2 min"),
        ("12.3 it/s done", "99 it/s done"),
        ("2 s/it done", "8 s/it done"),
        ("5 nb/s done", "50 nb/s done"),
        ("bar [00:01<00:02, 3.4it/s] end", "bar [00:09<00:00, 1.0it/s] end"),
        ("bar [00:01] end", "bar [01:59] end"),
        ("object at 0x7f00aa11bb", "object at 0x55cc0102ff"),
        ("(run at 2026-01-01T00:00:00, commit abc123)", "(run at 2026-12-02T05:00:00, commit ff)"),
    ],
)
def test_timings_addresses_and_the_stamp_are_masked(old, new):
    assert compare_text(old, new) == (True, "same text")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("3 sets", "4 sets"),  # "s" inside a word is no unit
        ("3 levels", "4 levels"),
        ("at 0x12345", "at 0x12346"),  # five hex digits: no address
    ],
)
def test_numbers_that_are_not_timings_or_addresses_are_compared(old, new):
    same, why = compare_text(old, new)
    assert not same
    assert why.startswith("number ")


def test_the_stamp_masks_the_run_time_and_commit_only():
    assert compare_text("run at 10:00 moves 3", "run at 11:00 moves 3")[0]
    assert not compare_text("run at 10:00 moves 3", "run at 11:00 moves 4")[0]
    assert compare_text("(commit abc)", "(commit def)")[0]
    assert not compare_text("commit 12", "commit 13")[0]  # no closing parenthesis: no stamp


def test_text_that_differs_names_the_first_differing_line():
    assert compare_text("a\nb\nc", "a\nB\nc") == (
        False,
        "text differs at line 2: recorded 'b', now 'B'",
    )
    assert compare_text("a", "a\nmore") == (
        False,
        "text differs at line 2: recorded '<nothing>', now 'more'",
    )
    assert compare_text("a\nmore", "a") == (
        False,
        "text differs at line 2: recorded 'more', now '<nothing>'",
    )
    assert compare_text("x" * 100, "y" * 100) == (
        False,
        f"text differs at line 1: recorded {'x' * 80!r}, now {'y' * 80!r}",
    )


def test_numbers_within_tolerance_report_the_largest_difference():
    # 1.0000001 - 1.0 = 1e-7 and 2.0000005 - 2.0 = 5e-7, both within 1e-9 + 1e-6 * |now|
    assert compare_text("a 1.0000001 b 2.0000005", "a 1.0 b 2.0") == (
        True,
        "numbers within tolerance (largest difference 5e-07)",
    )
    assert compare_text("a 2.0000005 b 1.0000001", "a 2.0 b 1.0") == (
        True,
        "numbers within tolerance (largest difference 5e-07)",
    )
    # the same number written two ways: no difference at all
    assert compare_text("x 1e-3", "x 0.001") == (
        True,
        "numbers within tolerance (largest difference 0)",
    )
    assert compare_text("x .5", "x 0.5")[0] and compare_text("x 5.", "x 5.0")[0]
    assert compare_text("x 2E+3", "x 2000")[0]


def test_a_number_past_the_tolerance_after_one_within_is_still_a_mismatch():
    same, why = compare_text("a 1.0000001 b 7", "a 1.0 b 8")
    assert (same, why) == (False, "number 7 recorded, 8 now (beyond rtol 1e-06, atol 1e-09)")


# -- figures --------------------------------------------------------------------------------------


def png(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, format="PNG")
    return buf.getvalue()


WHITE = np.full((100, 100, 3), 255, np.uint8)


def with_pixels(n: int, value: int = 0, channel: int | None = None, base=WHITE) -> np.ndarray:
    a = base.copy()
    flat = a.reshape(-1, 3)
    if channel is None:
        flat[:n] = value
    else:
        flat[:n, channel] = value
    return a


def test_the_same_figure_is_the_same():
    assert compare_png(png(WHITE), png(WHITE)) == (True, "same figure")


def test_a_difference_of_16_levels_is_no_difference_17_is():
    assert compare_png(png(WHITE), png(with_pixels(10_000, 255 - 16))) == (True, "same figure")
    assert compare_png(png(WHITE), png(with_pixels(10_000, 255 - 17)))[0] is False


def test_up_to_half_a_percent_of_pixels_may_differ():
    assert compare_png(png(WHITE), png(with_pixels(50))) == (
        True,
        "figure within tolerance (0.500 % of pixels differ)",
    )
    assert compare_png(png(WHITE), png(with_pixels(51))) == (
        False,
        "figure differs in 0.51 % of pixels (tolerance 0.5 %)",
    )


def test_one_channel_is_enough_and_darker_or_lighter_counts_alike():
    assert compare_png(png(WHITE), png(with_pixels(60, 0, channel=1)))[0] is False
    black = np.zeros_like(WHITE)
    lit = with_pixels(60, 255, base=black)
    assert compare_png(png(black), png(lit))[0] is False  # 0 -> 255: no wrap-around
    assert compare_png(png(lit), png(black))[0] is False


def test_figures_of_different_sizes_name_both_sizes_width_first():
    wide = np.zeros((20, 30, 3), np.uint8)
    assert compare_png(png(wide), png(wide[:10])) == (
        False,
        "figure size 30x20 recorded, 30x10 now",
    )


# -- a cell's parts -------------------------------------------------------------------------------


def stream(text, name="stdout"):
    return nbformat.v4.new_output("stream", name=name, text=text)


def display(data):
    return nbformat.v4.new_output("display_data", data=data)


def cell(*outputs):
    c = nbformat.v4.new_code_cell("x")
    c.outputs = list(outputs)
    return c


PIXEL = png(np.zeros((2, 2, 3), np.uint8))
PIXEL_B64 = base64.b64encode(PIXEL).decode()


def test_printed_text_is_one_text_however_it_was_flushed_and_stderr_is_left_out():
    c = cell(stream("a"), stream("warning", "stderr"), stream("b\n"))
    assert verify._parts(c, {}) == (["ab\n"], [])
    assert verify._parts(cell(stream("only stderr", "stderr")), {}) == ([], [])


def test_errors_html_before_plain_and_images_are_parts():
    err = nbformat.v4.new_output("error", ename="ZeroDivisionError", evalue="division by zero")
    shown = display({"text/html": "<b>x</b>", "text/plain": "x"})
    plain = display({"text/plain": ["1", "2"]})
    image = display({"image/png": [PIXEL_B64[:10], PIXEL_B64[10:]], "text/plain": "<Figure>"})
    texts, pngs = verify._parts(cell(err, shown, plain, image), {})
    assert texts == ["error ZeroDivisionError: division by zero", "<b>x</b>", "12", "<Figure>"]
    assert pngs == [PIXEL]


def widget_notebook(value, image=PIXEL_B64):
    state = {
        "box": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_s", "IPY_MODEL_h"]}},
        "s": {"model_name": "IntSliderModel", "state": {"description": "ticks", "value": value}},
        "h": {"model_name": "HTMLModel",
              "state": {"value": f'<img src="data:image/png;base64,{image}">'}},
    }  # fmt: skip
    nb = nbformat.v4.new_notebook()
    view = {"application/vnd.jupyter.widget-view+json": {"model_id": "box"}, "text/plain": "VBox"}
    nb.cells = [cell(display(view))]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": state}}
    return nb


def test_a_widget_view_is_its_snapshot_text_and_its_images():
    nb = widget_notebook(60)
    state = verify._state(nb)
    assert set(state) == {"box", "s", "h"}
    texts, pngs = verify._parts(nb.cells[0], state)
    assert pngs == [PIXEL]
    assert len(texts) == 1 and "ticks" in texts[0] and "60" in texts[0]
    assert "data:image/png;base64" not in texts[0] and 'src="data:image/png"' in texts[0]
    assert "VBox" not in texts[0]  # the view, not its plain-text stand-in
    assert verify._state(nbformat.v4.new_notebook()) == {}


def test_widget_views_are_compared_through_each_notebooks_own_state():
    assert compare_cells(widget_notebook(60), widget_notebook(60)) == [(0, "ok", True)]
    assert compare_cells(widget_notebook(60), widget_notebook(61)) == [
        (0, "number 60 recorded, 61 now (beyond rtol 1e-06, atol 1e-09)", False)
    ]
    other = base64.b64encode(png(np.full((2, 2, 3), 255, np.uint8))).decode()
    assert compare_cells(widget_notebook(60), widget_notebook(60, other)) == [
        (0, "figure differs in 100.00 % of pixels (tolerance 0.5 %)", False)
    ]


# -- cells ----------------------------------------------------------------------------------------


def nb_of(*cells, markdown=0):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("m") for _ in range(markdown)] + list(cells)
    return nb


def test_a_different_number_of_code_cells_is_one_row():
    assert compare_cells(nb_of(cell(), cell()), nb_of(cell())) == [
        (0, "2 code cells recorded, 1 now", False)
    ]
    # markdown cells are not code cells
    assert compare_cells(nb_of(cell(), markdown=2), nb_of(cell())) == [(0, "ok", True)]


def test_a_cell_that_raises_now_is_named_with_its_error():
    err = nbformat.v4.new_output("error", ename="KeyError", evalue="'x'")
    rows = compare_cells(nb_of(cell(), cell(stream("1"))), nb_of(cell(), cell(err)))
    assert rows == [(0, "ok", True), (1, "raised now: KeyError: 'x'", False)]


def test_counts_of_texts_and_figures_and_every_problem_of_a_cell_are_listed():
    old = cell(stream("a 1\n"), display({"text/plain": "b"}))
    new = cell(stream("a 2\n"), display({"image/png": PIXEL_B64}))
    assert compare_cells(nb_of(old), nb_of(new)) == [
        (
            0,
            "2 text outputs recorded, 1 now; "
            "number 1 recorded, 2 now (beyond rtol 1e-06, atol 1e-09); "
            "0 figures recorded, 1 now",
            False,
        )
    ]


def test_an_ok_cell_shows_its_loose_matches_but_not_its_exact_ones():
    old = cell(stream("p 1.0000001\n"), display({"text/plain": "same"}))
    new = cell(stream("p 1.0\n"), display({"text/plain": "same"}))
    assert compare_cells(nb_of(old), nb_of(new)) == [
        (0, "ok (numbers within tolerance (largest difference 1e-07))", True)
    ]
    img = cell(display({"image/png": PIXEL_B64}))
    assert compare_cells(nb_of(img), nb_of(img)) == [(0, "ok", True)]


def test_a_figure_past_tolerance_is_a_problem_even_with_equal_texts():
    other = base64.b64encode(png(np.full((2, 2, 3), 255, np.uint8))).decode()
    old = cell(stream("t\n"), display({"image/png": PIXEL_B64}))
    new = cell(stream("t\n"), display({"image/png": other}))
    assert compare_cells(nb_of(old), nb_of(new)) == [
        (0, "figure differs in 100.00 % of pixels (tolerance 0.5 %)", False)
    ]


# -- verify: a hand-made bundle, the notebook's run replaced --------------------------------------

LEVEL = b'{"level": 1}\n'


def notebook_bytes(printed: str) -> bytes:
    c = nbformat.v4.new_code_cell("print(open('level.json').read())")
    c.outputs = [stream(printed)]
    c.execution_count = 1
    nb = nbformat.v4.new_notebook(cells=[c])
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    return nbformat.writes(nb).encode()


def make_bundle(path, files=None, entries=None, packages=None, printed="level 1\n"):
    files = files if files is not None else [
        {"path": "notebook/level.json", "sha256": hashlib.sha256(LEVEL).hexdigest(),
         "bytes": len(LEVEL), "external": False},
    ]  # fmt: skip
    entries = entries if entries is not None else {"notebook/level.json": LEVEL}
    manifest = {"format": "labkit.bundle", "version": 1, "notebook": "notebook/nb.ipynb",
                "files": files, "packages": packages or {}}  # fmt: skip
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("manifest.json", json.dumps(manifest))
        zf.writestr("notebook/nb.ipynb", notebook_bytes(printed))
        for name, data in entries.items():
            zf.writestr(name, data)
    return path


class Run:
    """Stands in for the kernel: prints ``printed``, records ``reads`` and what it was given."""

    def __init__(self, printed="level 1\n", reads=()):
        self.printed, self.reads, self.seen = printed, reads, {}

    def __call__(self, nb, folder, log, timeout, **env):
        root = folder.parent
        level, data = folder / "level.json", root / "data"
        self.seen.update(
            folder=folder,
            timeout=timeout,
            env=env,
            outputs=[list(c.outputs) for c in nb.cells],
            counts=[c.execution_count for c in nb.cells],
            widgets="widgets" in nb.metadata,
            level=level.read_bytes() if level.exists() else None,
            data=sorted(p.name for p in data.iterdir()) if data.is_dir() else [],
        )
        with open(log, "w") as fh:
            for rel in self.reads:
                path = rel if rel.startswith("/") else str((root / rel).resolve())
                fh.write(json.dumps({"path": path, "sha256": "0" * 64}) + "\n")
        for c in nb.cells:
            c.outputs = [stream(self.printed)]
        return nb


@pytest.fixture
def run(monkeypatch):
    r = Run()
    monkeypatch.setattr(verify, "execute", r)
    monkeypatch.setattr(verify, "package_versions", lambda: {})
    return r


def test_a_bundle_whose_files_and_cells_match_is_ok(tmp_path, run):
    verdict = verify.verify(make_bundle(tmp_path / "b.zip"), timeout=7)
    assert verdict.ok and verdict.cells == [(0, "ok", True)]
    assert not verdict.files and not verdict.notes and not verdict.packages
    seen = run.seen
    assert seen["folder"].name == "notebook" and seen["timeout"] == 7
    assert seen["env"] == {"LABKIT_DATA_DIR": str(seen["folder"].parent / "data")}
    assert seen["level"] == LEVEL  # the packed file, at its place beside the notebook
    assert seen["outputs"] == [[]] and seen["counts"] == [None] and not seen["widgets"]
    shipped = sorted(p.name for p in data_dir().iterdir())
    assert set(shipped) <= set(seen["data"])  # labkit's data folder under the bundle's files


def test_the_timeout_default_and_limits(tmp_path, run):
    path = make_bundle(tmp_path / "b.zip")
    verify.verify(path)
    assert run.seen["timeout"] == 600
    assert verify.verify(path, timeout=MAX_TIMEOUT).ok and verify.verify(path, timeout=1).ok
    for bad in (0, MAX_TIMEOUT + 1):
        with pytest.raises(ArgumentError, match="timeout"):
            verify.verify(path, timeout=bad)


def test_a_cell_that_prints_something_else_now_is_a_mismatch(tmp_path, run):
    run.printed = "level 2\n"
    verdict = verify.verify(make_bundle(tmp_path / "b.zip"))
    assert verdict.cells == [(0, "number 1 recorded, 2 now (beyond rtol 1e-06, atol 1e-09)", False)]
    assert not verdict.ok


def test_an_altered_file_is_named_with_its_sizes_when_they_differ(tmp_path, run):
    same_size = make_bundle(tmp_path / "a.zip", entries={"notebook/level.json": b'{"level": 2}\n'})
    verdict = verify.verify(same_size)
    assert verdict.files == ["notebook/level.json: SHA-256 differs from the manifest (altered)"]
    assert run.seen["level"] == b'{"level": 2}\n'  # the notebook still runs on what is packed
    longer = make_bundle(tmp_path / "b.zip", entries={"notebook/level.json": b'{"level": 22}\n'})
    assert verify.verify(longer).files == [
        "notebook/level.json: SHA-256 differs from the manifest (altered, 14 bytes, 13 recorded)"
    ]


def test_a_file_listed_but_not_packed_and_an_external_file(tmp_path, run):
    digest = hashlib.sha256(b"x").hexdigest()
    files = [
        {"path": "data/levels/gone.json", "sha256": digest, "bytes": 1, "external": False},
        {"path": "/elsewhere/table.csv", "sha256": digest, "bytes": 1, "external": True},
    ]
    verdict = verify.verify(make_bundle(tmp_path / "b.zip", files=files, entries={}))
    assert verdict.files == ["data/levels/gone.json: listed in the manifest but not in the bundle"]
    assert verdict.notes == [
        "/elsewhere/table.csv (external): not checked, verify reads nothing outside the bundle"
    ]
    assert not verdict.ok


def test_reads_not_recorded_in_the_bundle_are_listed(tmp_path, run):
    run.reads = ["notebook/level.json", "data/levels/other.json", "/somewhere/else.json"]
    verdict = verify.verify(make_bundle(tmp_path / "b.zip"))
    assert verdict.files == [
        "data/levels/other.json: read now but not recorded in the bundle",
        "/somewhere/else.json: read now but not recorded in the bundle",
    ]


def test_package_versions_that_differ_here(tmp_path, run, monkeypatch):
    monkeypatch.setattr(verify, "package_versions", lambda: {"a": "1", "b": "3", "c": "9"})
    path = make_bundle(tmp_path / "b.zip", packages={"a": "1", "b": "2", "d": "4"})
    assert verify.verify(path).packages == [
        "b: 2 recorded, 3 here",
        "d: 4 recorded, not installed here",
    ]


def test_no_file_a_folder_no_manifest_and_an_unreadable_notebook_are_refused(tmp_path, run):
    with pytest.raises(BundleError, match="file not found") as err:
        verify.verify(tmp_path / "nope.zip")
    assert err.value.file == str(tmp_path / "nope.zip")
    with pytest.raises(BundleError, match="not a regular file"):
        verify.verify(tmp_path)
    bare = tmp_path / "bare.zip"
    with zipfile.ZipFile(bare, "w") as zf:
        zf.writestr("notebook/nb.ipynb", "{}")
    with pytest.raises(BundleError, match="no manifest.json") as err:
        verify.verify(bare)
    assert err.value.file == str(bare)
    bad = make_bundle(tmp_path / "bad.zip")
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(bad) as zin, zipfile.ZipFile(broken, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            zout.writestr(info, b"not json" if info.filename.endswith(".ipynb") else data)
    with pytest.raises(BundleError) as err:
        verify.verify(broken)
    assert err.value.message.startswith("entry 'notebook/nb.ipynb' is not a readable notebook: ")
    assert err.value.file == str(broken)


# -- what the first mutation run left alive (scripts/mutate.py verify) ----------------------------


def test_the_mismatch_count_counts_failing_cells_only():
    v = Verdict(cells=[(0, "ok", True), (1, "ok", True), (2, "differs", False)])
    assert v.lines()[-1] == "1 mismatch(es)"


def test_a_text_difference_shows_the_lines_as_masked():
    # the message shows what was compared: timings, addresses and the stamp as placeholders
    assert compare_text("took 3 s then a", "took 4 s then b")[1] == (
        "text differs at line 1: recorded 'took <t> then a', now 'took <t> then b'"
    )
    assert compare_text("at 0x7f00aa11bb a", "at 0x7f00aa11cc b")[1] == (
        "text differs at line 1: recorded 'at 0x<addr> a', now 'at 0x<addr> b'"
    )
    assert compare_text("(run at 10:00, commit ab12) a", "(run at 11:00, commit cd34) b")[1] == (
        "text differs at line 1: recorded '(run at <masked> commit <masked> a', "
        "now '(run at <masked> commit <masked> b'"
    )


def test_a_difference_exactly_at_the_bound_is_within_it():
    # |1e-9 - 0| = 1e-9 = atol + rtol * |0|: "<=" (as numpy.isclose) is within
    assert compare_text("x 1e-9", "x 0.0")[0]
    assert (
        compare_text("x 1e-9", "x 0.0")[1] == "numbers within tolerance (largest difference 1e-09)"
    )


def test_outputs_without_text_or_data_and_a_cell_without_outputs_add_nothing():
    assert verify._parts({}, {}) == ([], [])
    bare = {"outputs": [{"output_type": "stream", "name": "stdout"},
                        {"output_type": "execute_result"}]}  # fmt: skip
    assert verify._parts(bare, {}) == ([], [])
    assert verify._state({}) == {}
    assert verify._state({"metadata": {}}) == {}


def test_a_widget_views_images_join_the_cells_other_images_and_later_outputs_count():
    nb = widget_notebook(60)
    view = nb.cells[0].outputs[0]
    nb.cells[0].outputs = [
        display({"image/png": PIXEL_B64}),
        view,
        display({"text/plain": "after"}),
    ]
    texts, pngs = verify._parts(nb.cells[0], verify._state(nb))
    assert pngs == [PIXEL, PIXEL]
    assert len(texts) == 2 and texts[1] == "after"


def test_cells_after_one_that_raises_are_still_compared():
    err = nbformat.v4.new_output("error", ename="KeyError", evalue="'x'")
    old = nb_of(cell(stream("1")), cell(stream("2")))
    rows = compare_cells(old, nb_of(cell(err), cell(stream("3"))))
    assert rows == [
        (0, "raised now: KeyError: 'x'", False),
        (1, "number 2 recorded, 3 now (beyond rtol 1e-06, atol 1e-09)", False),
    ]


def test_several_loose_matches_of_a_cell_are_joined():
    old = cell(stream("p 1.0000001\n"), display({"text/plain": "q 2.0000002"}))
    new = cell(stream("p 1.0\n"), display({"text/plain": "q 2.0"}))
    assert compare_cells(nb_of(old), nb_of(new)) == [
        (0, "ok (numbers within tolerance (largest difference 1e-07); "
            "numbers within tolerance (largest difference 2e-07))", True)
    ]  # fmt: skip


def test_an_unreadable_notebook_is_named_with_the_first_line_of_the_reason(monkeypatch):
    with pytest.raises(BundleError) as err:
        verify._notebook(b"\xff", "notebook/n.ipynb", "b.zip")
    assert err.value.message == (
        "entry 'notebook/n.ipynb' is not a readable notebook: "
        "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"
    )
    assert err.value.file == "b.zip"

    def raises(exc):
        def reads(*args, **kw):
            raise exc

        return reads

    monkeypatch.setattr(nbformat, "reads", raises(ValueError("x" * 200 + "\nsecond line")))
    with pytest.raises(BundleError) as err:
        verify._notebook(b"{}", "n", "b.zip")
    assert err.value.message == f"entry 'n' is not a readable notebook: {'x' * 120}"
    monkeypatch.setattr(nbformat, "reads", raises(KeyError()))
    with pytest.raises(BundleError) as err:
        verify._notebook(b"{}", "n", "b.zip")
    assert err.value.message == "entry 'n' is not a readable notebook: KeyError"


def test_the_refusals_word_for_word(tmp_path, run):
    with pytest.raises(ArgumentError) as err:
        verify.verify(make_bundle(tmp_path / "b.zip"), timeout=0)
    assert str(err.value) == "timeout: must be between 1 and 86400 (got 0)"
    with pytest.raises(BundleError) as err:
        verify.verify(tmp_path / "nope.zip")
    assert err.value.message == "file not found"
    with pytest.raises(BundleError) as err:
        verify.verify(tmp_path)
    assert err.value.message == "not a regular file"
    bare = tmp_path / "bare.zip"
    with zipfile.ZipFile(bare, "w") as zf:
        zf.writestr("notebook/nb.ipynb", "{}")
    with pytest.raises(BundleError) as err:
        verify.verify(bare)
    assert err.value.message == "no manifest.json"
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip")
    with pytest.raises(BundleError, match="not a readable bundle") as err:
        verify.verify(junk)
    assert err.value.file == str(junk)


def test_the_notebook_runs_in_its_own_scratch_folder_even_without_packed_files(
    tmp_path, run, monkeypatch
):
    seen = {}

    def record(nb, folder, log, timeout, **env):
        seen.update(is_dir=folder.is_dir(), scratch=folder.parent.name)
        return run(nb, folder, log, timeout, **env)

    monkeypatch.setattr(verify, "execute", record)
    assert verify.verify(make_bundle(tmp_path / "b.zip", files=[], entries={})).ok
    assert seen["is_dir"]  # the notebook's working folder exists before it runs
    assert seen["scratch"].startswith("labkit-verify-")  # the folder the notebook sees


def test_an_external_file_first_does_not_hide_the_files_after_it(tmp_path, run):
    digest = hashlib.sha256(b"x").hexdigest()
    files = [
        {"path": "/elsewhere/table.csv", "sha256": digest, "bytes": 1, "external": True},
        {"path": "notebook/level.json", "sha256": digest, "bytes": 1, "external": False},
    ]
    verdict = verify.verify(make_bundle(tmp_path / "b.zip", files=files))
    assert verdict.files == [
        "notebook/level.json: SHA-256 differs from the manifest "
        f"(altered, {len(LEVEL)} bytes, 1 recorded)"
    ]
    assert len(verdict.notes) == 1


def test_a_file_in_a_new_nested_folder_is_placed_there(tmp_path, run, monkeypatch):
    name = "notebook/sub/deeper/x.json"
    files = [{"path": name, "sha256": hashlib.sha256(LEVEL).hexdigest(), "bytes": len(LEVEL),
              "external": False}]  # fmt: skip
    placed = {}

    def record(nb, folder, log, timeout, **env):
        placed["x"] = (folder / "sub" / "deeper" / "x.json").read_bytes()
        return run(nb, folder, log, timeout, **env)

    monkeypatch.setattr(verify, "execute", record)
    assert verify.verify(make_bundle(tmp_path / "b.zip", files=files, entries={name: LEVEL})).ok
    assert placed["x"] == LEVEL


def test_a_notebook_recorded_without_widget_state(tmp_path, run):
    path = make_bundle(tmp_path / "b.zip")
    plain = tmp_path / "plain.zip"
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(plain, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename.endswith(".ipynb"):
                nb = nbformat.reads(data.decode(), as_version=4)
                del nb.metadata["widgets"]
                data = nbformat.writes(nb).encode()
            zout.writestr(info, data)
    assert verify.verify(plain).ok
