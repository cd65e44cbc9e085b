"""Widget apps as static HTML snapshots: what a report or the docs show without a kernel or JS.

An executed notebook keeps its widgets' last state in ``metadata.widgets`` (nbclient stores it).
A page that wants live widgets loads a JavaScript widget manager from a CDN to draw that state;
offline the app is blank. :func:`staticize` instead renders every widget view as plain HTML: its
boxes as flex rows and columns, each control as its description and value, HTML panes as they
are, and the figures its ``Output`` widgets hold as embedded PNG images. The widget outputs and
the state are then removed, so a page exporter does not add any widget script.

Examples
--------
>>> state = {
...     "a": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_b", "IPY_MODEL_c"]}},
...     "b": {"model_name": "IntSliderModel", "state": {"description": "ticks", "value": 60}},
...     "c": {"model_name": "HTMLModel", "state": {"value": "<b>ok</b>"}},
... }
>>> html = render_widget("a", state)
>>> "ticks" in html and "60" in html and "<b>ok</b>" in html
True
"""

from __future__ import annotations

import html as _html
from typing import Any

from labkit._text import safe_html

__all__ = ["render_widget", "staticize", "SNAPSHOT_CLASS"]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
SNAPSHOT_CLASS = "labkit-snapshot"

STYLE = f"""<style>
.{SNAPSHOT_CLASS} {{border:1px solid #d0d7de;border-radius:4px;padding:6px;margin:4px 0;
  font:13px/1.4 system-ui,sans-serif;max-width:100%;overflow-x:auto}}
.{SNAPSHOT_CLASS} .lk-hbox {{display:flex;flex-flow:row wrap;gap:4px 12px;align-items:flex-start}}
.{SNAPSHOT_CLASS} .lk-vbox {{display:flex;flex-direction:column;gap:2px}}
.{SNAPSHOT_CLASS} .lk-control {{white-space:nowrap}}
.{SNAPSHOT_CLASS} .lk-control .lk-label {{color:#57606a;margin-right:.4em}}
.{SNAPSHOT_CLASS} .lk-control .lk-value {{font-weight:600;font-family:monospace}}
.{SNAPSHOT_CLASS} .lk-button {{display:inline-block;align-self:flex-start;
  border:1px solid #bbb;border-radius:3px;padding:0 .5em;background:#f6f8fa;color:#333}}
.{SNAPSHOT_CLASS} .lk-button.lk-on {{background:#dbe9f9}}
.{SNAPSHOT_CLASS} img {{max-width:100%;height:auto}}
.{SNAPSHOT_CLASS} .lk-note {{color:#57606a;font-size:11px}}
</style>"""


def _ref(value: Any) -> str | None:
    if isinstance(value, str) and value.startswith("IPY_MODEL_"):
        return value[len("IPY_MODEL_") :]
    return None


def _hidden(st: dict, state: dict) -> bool:
    layout = state.get(_ref(st.get("layout")) or "", {}).get("state", {})
    return layout.get("display") == "none" or layout.get("visibility") == "hidden"


def _format(value: Any, fmt: str | None) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (list, tuple)):
        return " – ".join(_format(v, fmt) for v in value)
    if isinstance(value, (int, float)) and fmt:
        try:
            return format(value, fmt)
        except ValueError:
            pass
    return str(value)


def _control(label: str, value: str) -> str:
    lab = f'<span class="lk-label">{_html.escape(label)}</span>' if label else ""
    shown = f'<span class="lk-value">{_html.escape(value)}</span>'
    return f'<span class="lk-control">{lab}{shown}</span>'


def _outputs(outputs: list[dict]) -> str:
    parts = []
    for out in outputs:
        if out.get("output_type") == "stream":
            parts.append(f"<pre>{_html.escape(''.join(out.get('text', '')))}</pre>")
            continue
        data = out.get("data", {})
        if "image/png" in data:
            png = "".join(data["image/png"]).replace("\n", "")
            parts.append(f'<img alt="figure" src="data:image/png;base64,{png}">')
        elif "image/svg+xml" in data:
            parts.append("".join(data["image/svg+xml"]))
        elif "text/html" in data:
            parts.append("".join(data["text/html"]))
        elif "text/plain" in data:
            parts.append(f"<pre>{_html.escape(''.join(data['text/plain']))}</pre>")
    return "".join(parts)


def render_widget(model_id: str, state: dict[str, Any]) -> str:
    """Static HTML of one widget (and its children) from a notebook's widget state."""
    model = state.get(model_id)
    if model is None:
        return '<span class="lk-note">(widget state not saved)</span>'
    name = model.get("model_name", "")
    st = model.get("state", {})
    if _hidden(st, state):
        return ""
    desc = st.get("description", "") or ""
    if name in ("VBoxModel", "BoxModel", "GridBoxModel", "AccordionModel", "TabModel"):
        kids = "".join(render_widget(_ref(c) or "", state) for c in st.get("children", []))
        return f'<div class="lk-vbox">{kids}</div>'
    if name == "HBoxModel":
        kids = "".join(render_widget(_ref(c) or "", state) for c in st.get("children", []))
        return f'<div class="lk-hbox">{kids}</div>'
    if name in ("HTMLModel", "HTMLMathModel"):
        label = f'<span class="lk-label">{_html.escape(desc)}</span>' if desc else ""
        return f"<div>{label}{safe_html(st.get('value', ''))}</div>"  # not ours: sanitised
    if name == "LabelModel":
        return f"<div>{_html.escape(str(st.get('value', '')))}</div>"
    if name == "OutputModel":
        return f"<div>{_outputs(st.get('outputs', []))}</div>"
    if name in ("ButtonModel",):
        return f'<span class="lk-button">{_html.escape(desc)}</span>'
    if name == "ToggleButtonModel":
        on = " lk-on" if st.get("value") else ""
        return f'<span class="lk-button{on}">{_html.escape(desc)}</span>'
    if "_options_labels" in st:  # Dropdown, ToggleButtons, RadioButtons, Select, SelectionSlider
        labels, index = st.get("_options_labels", []), st.get("index")
        if isinstance(index, (list, tuple)):
            chosen = ", ".join(labels[i] for i in index if 0 <= i < len(labels))
        else:
            chosen = labels[index] if isinstance(index, int) and 0 <= index < len(labels) else "—"
        return _control(desc, chosen)
    if name == "PlayModel":
        return _control(desc or "play", str(st.get("value", "")))
    if name in ("TextareaModel",):
        return f"<pre>{_html.escape(str(st.get('value', '')))}</pre>"
    if name == "MPLCanvasModel":
        return '<span class="lk-note">(interactive figure: run the notebook to see it)</span>'
    if "value" in st:  # sliders, checkboxes, text, progress bars
        return _control(desc, _format(st["value"], st.get("readout_format")))
    return ""


def _is_app(model_id: str, state: dict[str, Any]) -> bool:
    """A labkit app's view: a tree holding the app's "code" toggle (see widgets._code)."""
    model = state.get(model_id, {})
    st = model.get("state", {})
    label = str(st.get("description", ""))
    if model.get("model_name") == "ToggleButtonModel" and (
        label == "code" or label.endswith(" as code")
    ):
        return True
    return any(_is_app(_ref(c) or "", state) for c in st.get("children", []))


def snapshot_html(model_id: str, state: dict[str, Any]) -> str:
    """A self-contained snapshot block (style included) for one displayed widget view.

    The block has class ``labkit-snapshot``; a labkit app's block also ``data-labkit-app``.
    """
    body = render_widget(model_id, state)
    app = ' data-labkit-app="1"' if _is_app(model_id, state) else ""
    note = '<div class="lk-note">static snapshot of a widget app: run the notebook to use it</div>'
    return f'{STYLE}<div class="{SNAPSHOT_CLASS}"{app}>{body}{note}</div>'


def staticize(nb: Any) -> int:
    """Replace every widget view in an executed notebook by its static snapshot (in place).

    Removes the saved widget state afterwards, so exporters add no widget manager script.
    Returns the number of views replaced.
    """
    meta = nb.get("metadata", {})
    state = meta.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    count = 0
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = out.get("data", {})
            view = data.get(WIDGET_VIEW)
            if view is None:
                continue
            snap = snapshot_html(view.get("model_id", ""), state)
            out["data"] = {"text/html": snap, "text/plain": data.get("text/plain", "")}
            count += 1
    meta.pop("widgets", None)
    return count
