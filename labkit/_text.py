"""One escaping rule for every string that came from a file (ids, names, parameter names).

* In HTML (apps, ``_repr_html_``, snapshots): :func:`html_text` — ``& < > " '`` escaped, so a
  level id ``<img src=x onerror=…>`` shows as those characters and never runs.
* On the terminal: :func:`terminal_text` — control characters (C0, DEL, C1: ANSI escape
  sequences start with one), bidirectional overrides and isolates, and line/paragraph
  separators are shown visibly as ``\\x1b`` / ``\\u202e``, so an id can neither recolour the
  terminal, move the cursor nor reorder the line it is printed on.
* HTML a snapshot did not generate itself (a widget's HTML value): :func:`safe_html` keeps the
  markup labkit's own apps write (an allow-list of tags and attributes, images only as inline
  PNG data) and escapes every other tag as visible text.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

# C0 controls except tab and newline, DEL, C1 controls, bidi marks/overrides/isolates,
# line and paragraph separators.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def html_text(value: Any) -> str:
    """``str(value)`` escaped for HTML text and attribute values.

    Examples
    --------
    >>> html_text("<img src=x onerror=alert(1)>")
    '&lt;img src=x onerror=alert(1)&gt;'
    """
    return html.escape(str(value), quote=True)


def terminal_text(value: Any) -> str:
    """``str(value)`` with control and bidi characters shown as escapes.

    Examples
    --------
    >>> terminal_text("lvl\\x1b[31m-red\\u202egnp.exe")
    'lvl\\\\x1b[31m-red\\\\u202egnp.exe'
    """
    return _UNSAFE.sub(_visible, str(value))


def _visible(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


_TAGS = {"b", "i", "em", "strong", "br", "span", "div", "p", "table", "thead", "tbody", "tr",
         "td", "th", "caption", "ul", "ol", "li", "pre", "code", "small", "sub", "sup", "hr",
         "img", "details", "summary", "h3", "h4", "label"}  # fmt: skip
_ATTRS = {"style", "title", "class", "colspan", "rowspan", "alt", "width", "height", "src"}
_VOID = {"br", "hr", "img"}


class _Sanitizer(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []

    def _allowed(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        if tag not in _TAGS:
            return False
        for name, value in attrs:
            if name not in _ATTRS:
                return False
            text = (value or "").strip().lower()
            if name == "src" and not (tag == "img" and text.startswith("data:image/png;base64,")):
                return False
            if name == "style" and ("url(" in text or "expression" in text):
                return False
        return True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raw = self.get_starttag_text() or ""
        if not self._allowed(tag, attrs):
            self.out.append(html.escape(raw))
            return
        kept = "".join(f' {n}="{html.escape(v or "", quote=True)}"' for n, v in attrs)
        self.out.append(f"<{tag}{kept}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _TAGS and tag not in _VOID:
            self.out.append(f"</{tag}>")
        else:
            self.out.append(html.escape(f"</{tag}>"))

    def handle_data(self, data: str) -> None:
        self.out.append(html.escape(data, quote=False))

    def handle_entityref(self, name: str) -> None:
        self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.out.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        pass  # comments carry nothing a reader sees (and can hide conditional markup)

    def unknown_decl(self, data: str) -> None:
        self.out.append(html.escape(f"<![{data}]>"))

    def handle_decl(self, decl: str) -> None:
        pass

    def handle_pi(self, data: str) -> None:
        self.out.append(html.escape(f"<?{data}>"))


def safe_html(markup: str) -> str:
    """``markup`` with only labkit's own tags and attributes kept; anything else as text.

    Examples
    --------
    >>> safe_html("<b>ok</b> <img src=x onerror=alert(1)>")
    '<b>ok</b> &lt;img src=x onerror=alert(1)&gt;'
    >>> safe_html("<script>alert(1)</script>")
    '&lt;script&gt;alert(1)&lt;/script&gt;'
    """
    parser = _Sanitizer()
    parser.feed(str(markup))
    parser.close()
    text = "".join(parser.out)
    rawdata = getattr(parser, "rawdata", "")
    return text + html.escape(rawdata) if rawdata else text
