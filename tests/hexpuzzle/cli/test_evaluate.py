"""``puzzle evaluate`` prints the evaluation table."""

from __future__ import annotations

import argparse


def test_cli_evaluate_prints_the_table(capsys):
    from labkit.hexpuzzle.cli import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="cmd", required=True))
    args = parser.parse_args(["puzzle", "evaluate", "--target", "30:rotations=1", "--n", "2",
                              "--seeds", "0", "--budget", "100",
                              "--generator", "generate_to_target"])  # fmt: skip
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "1 targets × 2 levels × 1 seeds" in out
    assert "generate_to_target     quality" in out
