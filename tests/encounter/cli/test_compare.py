"""``labkit sim compare``: the metric table as aligned text (designer labels, B − A with its
interval, p, the pairing's gain, seeds needed), and the command's options and defaults."""

from __future__ import annotations

import argparse
import math

import pandas as pd

from labkit.encounter.cli.compare import format_policies, format_table, register
from labkit.encounter.cli.options import game_options

HEADER = f"{'metric':<42}{'A':>7}{'B':>9}  B - A [95 % interval]  p  pairing  seeds"


def _table(**changes) -> pd.DataFrame:
    row = {"label": "NPC win rate", "unit": "share", "a": 0.5, "b": 0.55, "diff": 0.05,
           "diff_lo": 0.02, "diff_hi": 0.08, "p_value": 0.0123, "variance_reduction": 2.345,
           "seeds_needed": 1200}  # fmt: skip
    return pd.DataFrame([row | changes])


def test_a_share_row_has_three_decimals_p_the_gain_and_the_seeds():
    lines = format_table(_table())
    assert lines[0] == HEADER
    assert lines[1] == (f"{'NPC win rate':<42}{'0.500':>7}{'0.550':>9}  +0.050 [+0.020, +0.080]"
                        "  p=0.0123  x2.3  n=1200")  # fmt: skip


def test_a_turns_row_has_one_decimal_its_unit_and_a_tiny_p_is_bounded():
    lines = format_table(_table(label="game length, mean", unit="turns", a=40.0, b=42.25,
                                diff=2.25, diff_lo=-0.5, diff_hi=5.0, p_value=1e-5,
                                variance_reduction=math.inf, seeds_needed=30))  # fmt: skip
    assert lines[1] == (f"{'game length, mean (turns)':<42}{'40.0':>7}{'42.2':>9}  "
                        "+2.2 [-0.5, +5.0]  p<0.001  -  n=30")  # fmt: skip


def test_a_missing_value_is_a_dash():
    line = format_table(_table(a=float("nan")))[1]
    assert line.startswith(f"{'NPC win rate':<42}{'-':>7}{'0.550':>9}")


def test_the_command_and_its_defaults():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd", required=True)
    register(sub, game_options)
    args = parser.parse_args(["compare"])
    assert (args.seeds, args.bootstrap, args.detect) == ("0:2000", 1000, 0.02)
    assert args.balance_a is None and args.balance_b is None and not args.every_policy
    assert args.func.__name__ == "_cmd_compare"
    args = parser.parse_args(["compare", "--seeds", "0:10", "--bootstrap", "50",
                              "--detect", "0.05", "--every-policy", "--quiet"])  # fmt: skip
    assert (args.seeds, args.bootstrap, args.detect, args.every_policy) == ("0:10", 50, 0.05, True)


def _policies(**changes) -> pd.DataFrame:
    row = {"npc": "scavenger", "monster": "hunter", "balance_a": 0.9, "balance_a_lo": 0.8,
           "balance_a_hi": 1.0, "balance_b": 0.7, "balance_b_lo": 0.6, "balance_b_hi": 0.8,
           "diff": -0.2, "diff_lo": -0.3, "diff_hi": -0.1, "b_balanced": False, "games": 40,
           "note": ""}  # fmt: skip
    return pd.DataFrame([row | changes])


def test_every_policy_lines_show_the_change_and_why_it_has_no_interval():
    [line] = format_policies(_policies())
    assert line == ("  NPC scavenger  vs monster hunter     A 0.900 [0.800, 1.000]  B 0.700 "
                    "[0.600, 0.800]  B - A -0.200 [-0.300, -0.100]  NOT balanced")  # fmt: skip
    why = "A: too close to even at 12 seeds to say which side leads"
    lines = format_policies(_policies(diff_lo=math.nan, diff_hi=math.nan, note=why))
    assert "B - A -0.200 [no interval]" in lines[0] and lines[1] == f"    ({why})"
