"""Level generator (rule H8): build a level backwards under the real collision rules.

The construction runs the game in reverse. On an empty board with random tracks it places tiles
one at a time; each new tile must be able to exit — judged by
:func:`~labkit.hexpuzzle.tap_trace.trace_tap` — with every earlier-placed tile present. Played
forwards, the last tile placed leaves first and always finds exactly the tiles placed before it,
so the reversed order is a solution.

To need several rotations the construction interleaves them (rule H8's measured advice): tiles are
placed in batches, and between batches the board is turned one step, so forwards the player must
turn the board back to release each batch. Among a few candidate tiles the generator prefers
those that could *not* exit at the other orientations (with the tiles already placed — more tiles
only block more), so the batches cannot be cleared early. Finally it turns the initial board to
each of the six orientations, keeps those whose solver-confirmed minimum rotations lie in
``rotations`` (at least 1), takes the one closest to the number of rotations built in, and
re-solves to verify. Attempts that fail start over from the same random stream.

Decisions the rules leave open
------------------------------
* Tracks: each cell gets the straight matching with probability ``straight``, else one of the 15
  matchings uniformly. Straight boards give short, turn-free paths (easier levels).
* Tile ids are ``t0…t{n-1}`` in a random order (not the solution order); colours are random.
* ``moveLimit = tiles + slack``; ``slack`` may be an int or an inclusive ``(lo, hi)`` range, as
  may ``tiles`` and ``rotations``.
* Everything random is drawn from the one ``rng`` passed in, in a fixed order, so the same seed
  gives the identical level (byte for byte as JSON).

Examples
--------
>>> lvl = generate(7, radius=2, tiles=5, rotations=1)
>>> from labkit.hexpuzzle.solving.solver import solve
>>> solve(lvl).rotations, len(lvl.tiles)
(1, 5)
>>> generate(7, radius=2, tiles=5, rotations=1) == lvl
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from labkit import ArgumentError, LabkitError
from labkit.hexpuzzle import coords
from labkit.hexpuzzle.level import STRAIGHT, Board, Level, Tile, all_matchings
from labkit.hexpuzzle.solving.contacts import contact_table
from labkit.hexpuzzle.solving.solver import search, solve
from labkit.hexpuzzle.tap_trace import trace_tap
from labkit.rng import RngLike, make_rng, stream

#: Most levels one call of :func:`generate_many` makes (work and memory are linear in it).
MAX_GENERATE = 10_000

__all__ = ["GeneratorError", "generate", "generate_many", "iter_generate", "place_backwards"]

_MATCHINGS = all_matchings()
#: Candidate tiles compared before one is placed.
CANDIDATES = 6


class GeneratorError(LabkitError):
    """The generator could not build a level with the requested properties."""


class GeneratorOptionError(GeneratorError, ArgumentError):
    """A generator option out of range: an :class:`~labkit.ArgumentError` naming option and value.

    Raised as ``GeneratorOptionError(message, argument=name, value=v)``; ``pointer=`` is accepted as
    the older spelling of ``argument=``.
    """

    def __init__(
        self,
        message: str,
        *,
        argument: str = "",
        pointer: str = "",
        value: Any = LabkitError._NOTHING,
    ) -> None:
        ArgumentError.__init__(self, message, argument=argument or pointer, value=value)
        self.message = message  # without the option's name, as before, so callers can prefix it


def _span(value: int | Sequence[int], name: str, lo: int, hi: int) -> tuple[int, int]:
    pair = (value, value) if isinstance(value, (int, np.integer)) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, (int, np.integer)) for v in pair):
        raise GeneratorOptionError("must be an int or a (lo, hi) pair", pointer=name, value=value)
    a, b = int(pair[0]), int(pair[1])
    if not lo <= a <= b <= hi:
        raise GeneratorOptionError(
            f"must satisfy {lo} <= lo <= hi <= {hi}", pointer=name, value=value
        )
    return a, b


def _draw(rng: np.random.Generator, span: tuple[int, int]) -> int:
    return int(rng.integers(span[0], span[1] + 1))


def random_board(rng: np.random.Generator, radius: int, straight: float = 0.0) -> Board:
    """A hexagonal board of ``radius``, random tracks (straight with probability ``straight``).

    Examples
    --------
    >>> len(random_board(np.random.default_rng(0), 2).cells)  # a radius-2 hexagon: 19 cells
    19
    """
    tracks = {}
    for cell in coords.hexagon_cells(radius):
        if rng.random() < straight:
            tracks[cell] = STRAIGHT
        else:
            tracks[cell] = _MATCHINGS[int(rng.integers(len(_MATCHINGS)))]
    return Board(tracks)


def _exits(board: Board, placed: tuple[Tile, ...], tile: Tile) -> bool:
    return trace_tap(Level("gen", board, placed + (tile,)), tile.id).outcome == "exit"


def place_backwards(
    rng: np.random.Generator, board: Board, batches: Sequence[tuple[int, int]]
) -> list[Tile]:
    """Place tiles in reverse play order: ``batches`` is ``[(orientation, count), …]``.

    Each tile exits at its batch's orientation with all earlier-placed tiles present. Returns
    the tiles in placement order (play them back to front); fewer than asked when the board
    runs out of valid spots.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> tiles = place_backwards(rng, random_board(rng, 2), [(0, 2)])
    >>> len(tiles) <= 2
    True
    """
    placed: tuple[Tile, ...] = ()
    cells = sorted(board.cells)
    for orientation, count in batches:
        here = board.rotated(orientation)
        others = [board.rotated(o) for o in range(6) if o != orientation]
        for _ in range(count):
            used = {t.cell for t in placed}
            free = [c for c in cells if c not in used]
            found: list[tuple[int, int, Tile]] = []
            for k in rng.permutation(len(free) * 6):
                (q, r), d = free[k // 6], int(k % 6)
                tile = Tile(f"p{len(placed)}", q, r, d)
                if not _exits(here, placed, tile):
                    continue
                # How many other orientations would already release it (fewer is better).
                loose = sum(_exits(b, placed, tile) for b in others)
                found.append((loose, len(found), tile))
                if len(found) == CANDIDATES:
                    break
            if not found:
                return list(placed)
            placed += (min(found)[2],)
    return list(placed)


def _checked(radius, tiles, rotations, slack, straight) -> tuple[tuple[int, int], ...]:
    """The options as (lo, hi) spans of tiles, rotations and slack; errors name the option."""
    if radius not in (1, 2, 3, 4):
        raise GeneratorOptionError("must be 1-4", pointer="radius", value=radius)
    cells = len(coords.hexagon_cells(radius))
    tile_span = _span(tiles, "tiles", 1, min(cells, 61))
    rot_span = _span(rotations, "rotations", 1, 3)
    # moveLimit = tiles + slack must stay within H2's import limit of 999.
    slack_span = _span(slack, "slack", 0, 999 - tile_span[1])
    if not 0.0 <= straight <= 1.0:
        raise GeneratorOptionError("must be a probability", pointer="straight", value=straight)
    return tile_span, rot_span, slack_span


def generate(
    rng: RngLike,
    radius: int = 2,
    tiles: int | Sequence[int] = (5, 8),
    rotations: int | Sequence[int] = (1, 3),
    slack: int | Sequence[int] = (0, 3),
    *,
    straight: float = 0.0,
    attempts: int = 200,
    id: str = "generated",
    name: str = "",
) -> Level:
    """Generate a level that needs ``rotations`` rotations (solver-confirmed), seeded.

    Parameters
    ----------
    rng : int, SeedSequence or Generator
        Randomness; the same seed gives the identical level.
    radius : {2, 3}
        Board size (19 or 37 cells).
    tiles, rotations, slack : int or (lo, hi)
        Tile count, required rotations (minimum over the solver; lo >= 1) and spare steps
        (``moveLimit = tiles + slack``); a pair is an inclusive range drawn from.
    straight : float
        Probability that a cell carries straight tracks.
    attempts : int
        Constructions tried before giving up.
    id, name : str
        Level metadata.

    Returns
    -------
    Level
        Verified: the solver solves it with a number of rotations inside ``rotations``.

    Raises
    ------
    GeneratorError
        When ``attempts`` constructions all fail.

    Examples
    --------
    >>> from labkit.hexpuzzle import solve
    >>> level = generate(7, rotations=1)
    >>> solve(level).rotations
    1
    >>> generate(7, rotations=1) == level  # the seed decides everything
    True
    """
    tile_span, rot_span, slack_span = _checked(radius, tiles, rotations, slack, straight)
    gen = make_rng(rng)
    for _ in range(attempts):
        level = _attempt(gen, radius, tile_span, rot_span, slack_span, straight, id, name)
        if level is not None:
            return level
    raise GeneratorError(
        f"no level with {tile_span} tiles needing {rot_span} rotations in {attempts} attempts",
        value={"radius": radius, "tiles": tiles, "rotations": rotations},
    )


def _attempt(gen, radius, tile_span, rot_span, slack_span, straight, id, name) -> Level | None:
    n = _draw(gen, tile_span)
    built = _draw(gen, rot_span)
    board = random_board(gen, radius, straight)
    # Forward orientations a_0 … a_built, one step apart; placement runs from the last.
    steps = gen.choice([-1, 1], size=built)
    forward = np.concatenate([[0], np.cumsum(steps)]) % 6
    if n < built + 1:
        built = n - 1  # one tile per batch at least
        if built < 1:
            return None
        steps = steps[:built]
        forward = forward[: built + 1]
    sizes = 1 + np.bincount(gen.integers(0, built + 1, size=n - built - 1), minlength=built + 1)
    batches = [(int(o), int(c)) for o, c in zip(forward[::-1], sizes[::-1])]
    placed = place_backwards(gen, board, batches)
    if len(placed) < n:
        return None
    order = gen.permutation(n)
    colours = gen.integers(0, 4, size=n)
    tiles = tuple(
        Tile(f"t{i}", placed[k].q, placed[k].r, placed[k].dir, int(c))
        for i, (k, c) in enumerate(zip(order, colours))
    )
    move_limit = n + _draw(gen, slack_span)
    level = Level(id, board, tiles, move_limit=move_limit, name=name or id)
    # Turn the initial board: keep the start orientations whose minimum lies in range.
    table = contact_table(level)
    fits = []
    fits_rotations = {}
    for start in range(6):
        sol = search(table, start, table.full)
        rotations = sol.rotations  # set whenever the search solved the level
        if sol.solved and rotations is not None and rot_span[0] <= rotations <= rot_span[1]:
            fits.append((abs(rotations - built), start))
            fits_rotations[start] = rotations
    if not fits:
        return None
    best = min(f[0] for f in fits)
    choices = [s for d, s in fits if d == best]
    start = choices[int(gen.integers(len(choices)))]
    final = level.rotated(start)
    check = solve(final)  # verify on the level exactly as it will be shipped
    return final if check.solved and check.rotations == fits_rotations[start] else None


def generate_many(
    seed: RngLike, count: int, *, progress: bool = True, prefix: str = "gen", **options
) -> list[Level]:
    """``count`` levels from independent named streams ``level/0``, ``level/1``, … of ``seed``.

    Level ``i`` depends only on ``seed`` and ``i``, so any one can be regenerated alone. Shows a
    tqdm progress bar unless ``progress`` is false. ``count`` is 0 … :data:`MAX_GENERATE`
    (``ArgumentError`` otherwise).

    Examples
    --------
    >>> [len(x.tiles) for x in generate_many(1, 2, tiles=4, rotations=1, progress=False)]
    [4, 4]
    """
    return list(iter_generate(seed, count, progress=progress, prefix=prefix, **options))


def iter_generate(
    seed: RngLike, count: int, *, progress: bool = True, prefix: str = "gen", **options
) -> Iterator[Level]:
    """:func:`generate_many` one level at a time (a caller can save each as it comes).

    Arguments and options are checked before the first level is drawn.
    """
    import inspect

    from labkit._args import check_int

    check_int(count, "count", 0, MAX_GENERATE)
    # Bad options fail here, before a progress bar is drawn.
    given = inspect.signature(generate).bind(None, **options)
    given.apply_defaults()
    _checked(*(given.arguments[k] for k in ("radius", "tiles", "rotations", "slack", "straight")))
    return _levels(seed, int(count), progress, prefix, options)


def _levels(seed: RngLike, count: int, progress: bool, prefix: str, options: dict):
    from tqdm.auto import tqdm

    for i in tqdm(range(count), desc="generating levels", unit="level", disable=not progress):
        yield generate(stream(seed, f"level/{i}"), id=f"{prefix}-{i:02d}", **options)
