"""labkit.share.snapshot: a widget tree as static HTML, from the module docstring's rules.

Boxes become flex rows (``lk-hbox``) and columns (``lk-vbox``), each control its description
and value, HTML panes themselves (sanitised), ``Output`` widgets their outputs (figures as
embedded PNGs); hidden widgets are left out; ``staticize`` swaps every widget view for its
snapshot and drops the saved widget state.
"""

from __future__ import annotations

import nbformat
import pytest

from labkit.share import snapshot
from labkit.share.snapshot import SNAPSHOT_CLASS, STYLE, render_widget, snapshot_html, staticize


def one(name, **st):
    return {"w": {"model_name": name, "state": st}}


def control(label, value):
    lab = f'<span class="lk-label">{label}</span>' if label else ""
    return f'<span class="lk-control">{lab}<span class="lk-value">{value}</span></span>'


# -- small pieces ---------------------------------------------------------------------------------


def test_model_references():
    assert snapshot._ref("IPY_MODEL_abc") == "abc"
    assert snapshot._ref("IPY_MODEL_") == ""
    assert snapshot._ref("abc") is None
    assert snapshot._ref(7) is None


@pytest.mark.parametrize(
    ("value", "fmt", "shown"),
    [
        (True, ".2f", "on"),
        (False, None, "off"),
        ((1, 2), None, "1 – 2"),
        ([0.25, 0.5], ".1f", "0.2 – 0.5"),
        (0.5, ".2f", "0.50"),
        (3, "03d", "003"),
        (0.5, "d", "0.5"),  # a format that does not fit the number: the number as it is
        (0.5, None, "0.5"),
        (0.5, "", "0.5"),
        ("x", ".2f", "x"),
    ],
)
def test_values_are_formatted_with_their_readout_format(value, fmt, shown):
    assert snapshot._format(value, fmt) == shown


def test_a_control_is_its_escaped_label_and_value():
    assert snapshot._control("a<b", "1&2") == control("a&lt;b", "1&amp;2")
    assert snapshot._control("", "v") == control("", "v")


def test_outputs_as_html():
    out = [
        {"output_type": "stream", "text": ["a<", "b"]},
        {"output_type": "display_data", "data": {"image/png": ["AAA\n", "BBB\n"],
                                                  "text/html": "h"}},
        {"output_type": "display_data", "data": {"image/svg+xml": ["<svg>", "</svg>"],
                                                  "text/html": "h"}},
        {"output_type": "display_data", "data": {"text/html": ["<b>", "x</b>"], "text/plain": "p"}},
        {"output_type": "display_data", "data": {"text/plain": ["1<", "2"]}},
        {"output_type": "display_data", "data": {}},
    ]  # fmt: skip
    assert snapshot._outputs(out) == (
        "<pre>a&lt;b</pre>"
        '<img alt="figure" src="data:image/png;base64,AAABBB">'
        "<svg></svg>"
        "<b>x</b>"
        "<pre>1&lt;2</pre>"
    )
    assert snapshot._outputs([{"output_type": "stream"}]) == "<pre></pre>"


# -- widgets --------------------------------------------------------------------------------------


def test_a_widget_whose_state_was_not_saved():
    assert render_widget("nope", {}) == '<span class="lk-note">(widget state not saved)</span>'


@pytest.mark.parametrize("box", ["VBoxModel", "BoxModel", "GridBoxModel", "AccordionModel",
                                 "TabModel"])  # fmt: skip
def test_boxes_are_columns_and_an_hbox_is_a_row(box):
    state = {
        "a": {"model_name": box, "state": {"children": ["IPY_MODEL_b", "IPY_MODEL_c", "junk"]}},
        "b": {"model_name": "LabelModel", "state": {"value": "one"}},
        "c": {"model_name": "LabelModel", "state": {"value": "two"}},
    }
    missing = '<span class="lk-note">(widget state not saved)</span>'
    assert render_widget("a", state) == (
        f'<div class="lk-vbox"><div>one</div><div>two</div>{missing}</div>'
    )
    state["a"]["model_name"] = "HBoxModel"
    assert render_widget("a", state) == (
        f'<div class="lk-hbox"><div>one</div><div>two</div>{missing}</div>'
    )
    assert render_widget("a", {"a": {"model_name": box}}) == '<div class="lk-vbox"></div>'
    assert render_widget("a", {"a": {"model_name": "HBoxModel"}}) == '<div class="lk-hbox"></div>'


@pytest.mark.parametrize(
    "layout", [{"display": "none"}, {"visibility": "hidden"}, {"display": "none", "x": 1}]
)
def test_a_hidden_widget_is_left_out(layout):
    state = {
        "a": {"model_name": "LabelModel", "state": {"value": "x", "layout": "IPY_MODEL_l"}},
        "l": {"model_name": "LayoutModel", "state": layout},
    }
    assert render_widget("a", state) == ""


@pytest.mark.parametrize("layout", [{}, {"display": "flex"}, {"visibility": "visible"}])
def test_a_visible_layout_is_shown(layout):
    state = {
        "a": {"model_name": "LabelModel", "state": {"value": "x", "layout": "IPY_MODEL_l"}},
        "l": {"model_name": "LayoutModel", "state": layout},
    }
    assert render_widget("a", state) == "<div>x</div>"
    assert render_widget("a", {"a": state["a"]}) == "<div>x</div>"  # its layout not saved


@pytest.mark.parametrize("name", ["HTMLModel", "HTMLMathModel"])
def test_html_panes_are_sanitised_and_keep_their_description(name):
    assert render_widget("w", one(name, value="<b>ok</b><script>x</script>")) == (
        "<div><b>ok</b>&lt;script&gt;x&lt;/script&gt;</div>"
    )
    assert render_widget("w", one(name, value="v", description="a<b")) == (
        '<div><span class="lk-label">a&lt;b</span>v</div>'
    )
    assert render_widget("w", one(name, description=None)) == "<div></div>"


def test_labels_outputs_buttons_and_toggles():
    assert render_widget("w", one("LabelModel", value=3)) == "<div>3</div>"
    assert render_widget("w", one("LabelModel", value="<i>")) == "<div>&lt;i&gt;</div>"
    assert render_widget("w", one("LabelModel")) == "<div></div>"
    outputs = [{"output_type": "stream", "text": "hi"}]
    assert render_widget("w", one("OutputModel", outputs=outputs)) == "<div><pre>hi</pre></div>"
    assert render_widget("w", one("OutputModel")) == "<div></div>"
    assert render_widget("w", one("ButtonModel", description="run <now>", value=1)) == (
        '<span class="lk-button">run &lt;now&gt;</span>'
    )
    assert render_widget("w", one("ButtonModel")) == '<span class="lk-button"></span>'
    assert render_widget("w", one("ToggleButtonModel", description="code", value=True)) == (
        '<span class="lk-button lk-on">code</span>'
    )
    assert render_widget("w", one("ToggleButtonModel", description="code", value=False)) == (
        '<span class="lk-button">code</span>'
    )
    assert render_widget("w", one("ToggleButtonModel")) == '<span class="lk-button"></span>'


def test_selections_show_their_chosen_labels():
    labels = ["easy", "<hard>"]
    got = render_widget("w", one("DropdownModel", description="d", _options_labels=labels,
                                 index=1))  # fmt: skip
    assert got == control("d", "&lt;hard&gt;")
    many = one("SelectMultipleModel", _options_labels=labels, index=[1, 5, -1, 0])
    assert render_widget("w", many) == control("", "&lt;hard&gt;, easy")
    assert render_widget("w", one("X", _options_labels=labels, index=2)) == control("", "—")
    assert render_widget("w", one("X", _options_labels=labels, index="0")) == control("", "—")
    assert render_widget("w", one("X", _options_labels=labels)) == control("", "—")
    assert render_widget("w", one("X", _options_labels=[], index=0, value=9)) == control("", "—")


def test_play_textarea_canvas_and_plain_values():
    assert render_widget("w", one("PlayModel", value=4)) == control("play", "4")
    assert render_widget("w", one("PlayModel", value=4, description="tick")) == control("tick", "4")
    assert render_widget("w", one("PlayModel")) == control("play", "")
    assert render_widget("w", one("TextareaModel", value="a<\nb")) == "<pre>a&lt;\nb</pre>"
    assert render_widget("w", one("TextareaModel")) == "<pre></pre>"
    assert render_widget("w", one("MPLCanvasModel", value=1)) == (
        '<span class="lk-note">(interactive figure: run the notebook to see it)</span>'
    )
    slider = one("FloatSliderModel", description="rate", value=0.123, readout_format=".1f")
    assert render_widget("w", slider) == control("rate", "0.1")
    assert render_widget("w", one("CheckboxModel", value=False)) == control("", "off")
    assert render_widget("w", one("IntSliderModel", value=0)) == control("", "0")
    assert render_widget("w", one("SomethingModel", description="x")) == ""
    assert render_widget("w", {"w": {}}) == ""


# -- snapshots and notebooks ----------------------------------------------------------------------


def app_state(label):
    return {
        "top": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_box"]}},
        "box": {"model_name": "HBoxModel", "state": {"children": ["IPY_MODEL_t"]}},
        "t": {"model_name": "ToggleButtonModel", "state": {"description": label}},
    }


@pytest.mark.parametrize(("label", "app"), [("code", True), ("level as code", True),
                                            ("codes", False), ("code it", False),
                                            ("as code x", False)])  # fmt: skip
def test_an_app_is_a_tree_holding_its_code_toggle(label, app):
    assert snapshot._is_app("top", app_state(label)) is app
    not_toggle = app_state(label)
    not_toggle["t"]["model_name"] = "ButtonModel"
    assert snapshot._is_app("top", not_toggle) is False
    assert snapshot._is_app("missing", app_state(label)) is False


def test_a_snapshot_block_is_style_body_and_note():
    note = '<div class="lk-note">static snapshot of a widget app: run the notebook to use it</div>'
    state = app_state("code")
    body = render_widget("top", state)
    assert snapshot_html("top", state) == (
        f'{STYLE}<div class="labkit-snapshot" data-labkit-app="1">{body}{note}</div>'
    )
    plain = one("LabelModel", value="x")
    assert (
        snapshot_html("w", plain) == f'{STYLE}<div class="labkit-snapshot"><div>x</div>{note}</div>'
    )
    assert SNAPSHOT_CLASS == "labkit-snapshot" and STYLE.startswith("<style>\n.labkit-snapshot {")


def test_staticize_replaces_every_widget_view_and_drops_the_state():
    state = one("LabelModel", value="shown")
    view = {"application/vnd.jupyter.widget-view+json": {"model_id": "w"}, "text/plain": "Label"}
    nb = nbformat.v4.new_notebook()
    code = nbformat.v4.new_code_cell("w")
    code.outputs = [
        nbformat.v4.new_output("display_data", data=dict(view)),
        nbformat.v4.new_output("stream", name="stdout", text="t"),
        nbformat.v4.new_output("display_data", data={"text/plain": "1"}),
        nbformat.v4.new_output(
            "display_data", data={"application/vnd.jupyter.widget-view+json": {}}
        ),
    ]
    md = nbformat.v4.new_markdown_cell("m")
    md["outputs"] = [{"output_type": "display_data", "data": dict(view)}]  # not a code cell
    nb.cells = [code, md]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": state}}
    assert staticize(nb) == 2
    assert code.outputs[0]["data"] == {
        "text/html": snapshot_html("w", state),
        "text/plain": "Label",
    }
    assert "shown" in code.outputs[0]["data"]["text/html"]
    assert code.outputs[1]["text"] == "t" and code.outputs[2]["data"] == {"text/plain": "1"}
    assert code.outputs[3]["data"] == {"text/html": snapshot_html("", state), "text/plain": ""}
    assert md["outputs"][0]["data"] == view
    assert "widgets" not in nb.metadata
    assert staticize(nb) == 0  # nothing left to replace, no state needed
    assert staticize({}) == 0


# -- what the first mutation run left alive (scripts/mutate.py snapshot) --------------------------


def test_an_output_without_data_shows_nothing():
    assert snapshot._outputs([{"output_type": "execute_result"}]) == ""


def test_the_first_and_last_choices_show_and_one_past_the_end_does_not():
    labels = ["easy", "hard"]
    assert render_widget("w", one("DropdownModel", _options_labels=labels, index=0)) == control(
        "", "easy"
    )
    assert render_widget("w", one("DropdownModel", _options_labels=labels, index=1)) == control(
        "", "hard"
    )
    many = one("SelectMultipleModel", _options_labels=labels, index=[2, 0])
    assert render_widget("w", many) == control("", "easy")


def test_staticize_without_saved_state_or_outputs():
    view = {"application/vnd.jupyter.widget-view+json": {"model_id": "w"}, "text/plain": "W"}
    nb = {"metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {}}},
          "cells": [{"cell_type": "code"},
                    {"cell_type": "code", "outputs": [{"data": dict(view)}]}]}  # fmt: skip
    assert staticize(nb) == 1
    html = nb["cells"][1]["outputs"][0]["data"]["text/html"]
    assert '<span class="lk-note">(widget state not saved)</span>' in html
    assert "widgets" not in nb["metadata"]
