"""Options shared by the ``labkit sim`` commands: seed lists, pairs, balance patches, the game
options' defaults and ranges, settings built from them, and the cluster options."""

from __future__ import annotations

import argparse

import pytest

from labkit import LabkitError
from labkit.encounter.cli.options import (
    balance_item,
    balance_patch,
    cluster_options,
    dask_client,
    game_options,
    pair,
    parse_seeds,
    settings_from_args,
)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(exit_on_error=False)
    game_options(p)
    cluster_options(p)
    return p


@pytest.mark.parametrize(
    "text, seeds",
    [("3:6", [3, 4, 5]), ("0:1", [0]), ("1,5", [1, 5]), ("7", [7]), ("2,2", [2, 2])],
)
def test_seeds_are_a_half_open_range_or_a_list(text, seeds):
    assert parse_seeds(text) == seeds


def test_a_list_of_seeds_is_kept_as_it_is_and_an_empty_range_is_refused():
    given = [9, 1]
    assert parse_seeds(given) is given
    with pytest.raises(LabkitError, match=r"^--seeds: empty range 5:5"):
        parse_seeds("5:5")


def test_pairs_name_the_option_they_belong_to():
    assert pair("1, 2", "difficulty") == (1, 2)
    assert pair("scavenger,hunter", "policies", str) == ("scavenger", "hunter")
    with pytest.raises(LabkitError, match="--difficulty needs two comma-separated values"):
        pair("1,2,3", "difficulty")
    with pytest.raises(LabkitError, match="--difficulty needs two ints"):
        pair("1,x", "difficulty")


@pytest.mark.parametrize(
    "text, item",
    [
        ("/combat/max_rounds=20", ("/combat/max_rounds", 20)),
        ("/weapons/fists/name=fist", ("/weapons/fists/name", "fist")),  # not JSON: a string
        ("/tables/hit=[0.5, 0.6]", ("/tables/hit", [0.5, 0.6])),
        ("/notes=null", ("/notes", None)),
        ("/a/b==", ("/a/b", "=")),
    ],
)
def test_balance_items_are_pointer_and_json_value(text, item):
    assert balance_item(text) == item


@pytest.mark.parametrize("text", ["combat=1", "/=1", "/combat/max_rounds"])
def test_a_balance_item_without_a_pointer_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError, match="needs POINTER=VALUE"):
        balance_item(text)


def test_a_patch_keeps_the_last_value_of_a_pointer():
    assert balance_patch([("/a", 1), ("/b", "x"), ("/a", 2)]) == {"/a": 2, "/b": "x"}


def test_game_option_defaults_become_the_settings():
    args = _parser().parse_args([])
    assert (args.map_seed, args.npcs, args.monsters, args.width, args.height) == (0, 3, 1, 4, 4)
    assert args.difficulty == (1, 1) and args.max_steps == 300 and args.balance == []
    s = settings_from_args(args, seed=12)
    assert (s.seed, s.map_seed, s.npcs, s.monsters, s.width, s.height) == (12, 0, 3, 1, 4, 4)
    assert tuple(s.difficulty) == (1, 1) and s.max_steps == 300
    assert tuple(s.policies) == ("scavenger", "hunter")


def test_given_options_reach_the_settings():
    args = _parser().parse_args(["--npcs", "5", "--width", "7", "--difficulty", "0,3",
                                 "--policies", "random,hunter", "--max-steps", "40",
                                 "--balance", "/combat/max_rounds=9"])  # fmt: skip
    s = settings_from_args(args, seed=0)
    assert (s.npcs, s.width, tuple(s.difficulty), s.max_steps) == (5, 7, (0, 3), 40)
    assert tuple(s.policies) == ("random", "hunter")
    assert dict(s.balance) == {"/combat/max_rounds": 9}
    args.difficulty = "2,2"  # a caller that skipped the parser's type
    assert tuple(settings_from_args(args, seed=0).difficulty) == (2, 2)


@pytest.mark.parametrize("argv", [["--npcs", "0"], ["--width", "65"], ["--difficulty", "4,1"]])
def test_out_of_range_game_options_are_refused_by_the_parser(argv):
    with pytest.raises((argparse.ArgumentError, SystemExit)):
        _parser().parse_args(argv)


def test_no_scheduler_is_no_client_and_the_two_ways_exclude_each_other(tmp_path):
    assert dask_client(_parser().parse_args([])) is None
    assert dask_client(argparse.Namespace()) is None
    f = tmp_path / "scheduler.json"
    f.write_text("{}")
    with pytest.raises((argparse.ArgumentError, SystemExit)):
        _parser().parse_args(["--scheduler", "tcp://x:1", "--scheduler-file", str(f)])
