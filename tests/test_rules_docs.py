"""The rules live in the repository: every rule code cited in ``labkit/`` resolves in docs/rules/.

A docstring or comment cites a rule by its code (``H7``, ``rule P6``, ``M5``); each code must be the
anchor of a heading in one of the pages under ``docs/rules/`` (``<a id="h7"></a>``). Nothing in the
repository may point at documents a clone does not contain (the design notes' ``SPEC`` ids, the
original ``seed`` documents, a "shared folder").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"

# A rule code: one of the six families and a number, not part of a longer word and not an SVG path
# command ("M0,0") or a coordinate pair.
CODE = re.compile(r"(?<![A-Za-z0-9_#/.-])([HPMEJW])(\d{1,2})(?![\w,.]\d|[A-Za-z0-9_])")
ANCHOR = re.compile(r'<a id="([a-z]\d{1,2})"></a>\s*\n## ([A-Z]\d{1,2}) · ')
# Citations of documents outside the repository.
OUTSIDE = re.compile(r"\bSPEC\b|\bseed 00\d\b|\bseeds/|in the shared folder|\.\./shared|DESIGN\.md")


def anchors() -> dict[str, str]:
    """Anchor → page for every rule heading under docs/rules/."""
    found: dict[str, str] = {}
    for page in sorted(RULES.glob("*.md")):
        for anchor, heading in ANCHOR.findall(page.read_text(encoding="utf-8")):
            assert anchor == heading.lower(), f"{page.name}: anchor {anchor} on heading {heading}"
            assert anchor not in found, f"rule {heading} twice ({found.get(anchor)}, {page.name})"
            found[anchor] = page.name
    return found


def cited(text: str) -> set[str]:
    return {f"{family}{number}" for family, number in CODE.findall(text)}


def package_files() -> list[Path]:
    return sorted((ROOT / "labkit").rglob("*.py"))


def test_every_family_has_its_page_and_headings_in_order() -> None:
    found = anchors()
    for family, page, count in [("h", "hexpuzzle.md", 9), ("p", "pathfinding.md", 8),
                                ("m", "mapturn.md", 9), ("e", "encounter.md", 7),
                                ("j", "jupyter.md", 3)]:  # fmt: skip
        first = 0 if family == "p" else 1
        codes = [f"{family}{i}" for i in range(first, first + count)]
        assert [c for c in codes if found.get(c) != page] == [], page


def test_every_rule_code_cited_in_the_package_resolves() -> None:
    found = anchors()
    missing = {}
    for path in package_files():
        for code in cited(path.read_text(encoding="utf-8")):
            if code.lower() not in found:
                missing.setdefault(code, []).append(str(path.relative_to(ROOT)))
    assert missing == {}, f"rule codes with no heading in docs/rules/: {missing}"


@pytest.mark.parametrize("text, codes", [
    ("the solver (H7) and rule P6", {"H7", "P6"}),
    ('<path d="M0,0 L6,3"/>', set()),
    ("HW2, P10x and xH9", set()),
    ("rules M1, M5 and E2.", {"M1", "M5", "E2"}),
])  # fmt: skip
def test_what_counts_as_a_citation(text: str, codes: set[str]) -> None:
    assert cited(text) == codes


def test_nothing_points_outside_the_repository() -> None:
    files = [*package_files(), ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
             *sorted((ROOT / "notebooks").glob("*.ipynb"))]  # fmt: skip
    hits = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert hits == [], "\n".join(hits)


def test_readme_links_the_rules() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rules/index.md" in readme
    for link in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / link).exists(), link
