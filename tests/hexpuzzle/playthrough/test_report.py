"""A funnel's CSV never writes a spreadsheet formula."""

from __future__ import annotations

from labkit.hexpuzzle import (
    FunnelWorld,
)


def test_csv_never_writes_a_formula(tmp_path):
    f = FunnelWorld([0.0], level_ids=["=HYPERLINK(1)"]).funnel(100, draws=2, rng=0)
    f.save(tmp_path / "f.csv")
    assert "\n1,'=HYPERLINK(1)," in (tmp_path / "f.csv").read_text()


class Made:
    """A funnel as the report reads it: rows, stats and its one-line repr."""

    def __init__(self, rows, timed=False):
        self._rows, self.stats = rows, ({"seconds": None} if timed else {})

    def rows(self):
        return self._rows

    def __repr__(self):
        return "Funnel(2 levels, <b>)"


NAN = float("nan")
ROWS = [
    {"position": 1, "level": "L<1>", "reach": 1.0, "reach_low": 1.0, "reach_high": 1.0,
     "first_try": 0.5, "first_try_low": 0.25, "first_try_high": 0.755,
     "attempts_per_clear": 1.5, "attempts_per_clear_low": 1.234, "attempts_per_clear_high": 2.0,
     "quit_hazard": 0.1, "quit_hazard_low": 0.05, "quit_hazard_high": 0.2,
     "seconds": 61.4, "seconds_low": 50.0, "seconds_high": 70.6},
    {"position": 2, "level": "=L2", "reach": 0.0, "reach_low": 0.0, "reach_high": 0.01,
     "first_try": NAN, "first_try_low": NAN, "first_try_high": NAN,
     "attempts_per_clear": NAN, "attempts_per_clear_low": NAN, "attempts_per_clear_high": NAN,
     "quit_hazard": NAN, "quit_hazard_low": NAN, "quit_hazard_high": NAN,
     "seconds": NAN, "seconds_low": NAN, "seconds_high": NAN},
]  # fmt: skip


def test_the_html_table_shows_each_value_with_its_interval_in_words():
    from labkit.hexpuzzle.playthrough.report import html_table

    head = ("<table><caption>Funnel(2 levels, &lt;b&gt;)</caption><tr><th>#</th>"
            "<th>level</th><th>reach</th><th>first try</th><th>attempts per clear</th>"
            "<th>quit here</th>")  # fmt: skip
    one = ("<tr><td>1</td><td>L&lt;1&gt;</td><td>100% <small>(100%–100%)</small></td>"
           "<td>50% <small>(25%–76%)</small></td><td>1.50 <small>(1.23–2.00)</small></td>"
           "<td>10% <small>(5%–20%)</small></td>")  # fmt: skip
    two = ("<tr><td>2</td><td>=L2</td><td>0% <small>(0%–1%)</small></td>"
           "<td>nobody gets here</td><td>–</td><td>nobody gets here</td>")  # fmt: skip
    assert html_table(Made(ROWS)) == f"{head}</tr>{one}</tr>{two}</tr></table>"
    timed = html_table(Made(ROWS, timed=True))
    assert timed == (f"{head}<th>seconds</th></tr>{one}<td>61 (50–71)</td></tr>{two}"
                     "<td>no time data</td></tr></table>")  # fmt: skip


def test_the_csv_has_one_line_per_level_empty_where_nobody_got_that_far():
    from labkit.hexpuzzle.playthrough.report import csv_text

    rows = [{k: v for k, v in r.items() if not k.startswith("seconds")} for r in ROWS]
    text = csv_text(Made(rows))
    lines = text.split("\n")
    assert "\r" not in text and lines[-1] == "" and len(lines) == 4
    assert lines[0] == ",".join(rows[0])
    assert lines[1].startswith("1,L<1>,1.0000,1.0000,1.0000,0.5000,0.2500,0.7550,1.5000,")
    assert lines[2] == "2,'=L2,0.0000,0.0000,0.0100" + "," * 9
