"""A table of numeric features per level, for any level-based game (issue 49).

The skill model explains a level's difficulty by its features (the linear logistic test model:
β = baseline + Σ weight·feature + a shrunken residual), so a level nobody has played is predicted
from its features alone. The hex puzzle's features are its six H9 parts; another game brings its
own (board size, enemy count, par time, ...) as a table: :func:`feature_table` checks it.

The table is a pandas ``DataFrame`` with one row per level id (the index, or a ``level``
column) and one numeric column per feature, or a dict ``{level id: {feature: number}}``. Every
level asked for must have a row; every cell must be a finite number (a bool or a text is not a
number: a flag is given as 0/1 on purpose); a feature may not be called ``baseline`` (the
model's own name for the intercept). Each refusal is one line naming the level and the column.

This module knows nothing of hex boards (a later session moves it to ``labkit/players``).

Examples
--------
>>> import pandas as pd
>>> table = pd.DataFrame({"enemies": [3, 7], "par_time": [60.0, 95.5]}, index=["a", "b"])
>>> names, x = feature_table(table, ["b", "a"])
>>> names, x.tolist()
(('enemies', 'par_time'), [[7.0, 95.5], [3.0, 60.0]])
>>> feature_table(table.assign(enemies=[3, None]), ["b"])
Traceback (most recent call last):
...
labkit.ArgumentError: features: level 'b', column 'enemies': must be a finite number (got nan)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError

__all__ = ["RESERVED_FEATURES", "feature_row", "feature_table"]

#: Names a feature may not take: the model's weights dict holds the intercept under it.
RESERVED_FEATURES = ("baseline",)


def _fail(message: str, value: Any = ArgumentError._NOTHING, argument: str = "features") -> None:
    raise ArgumentError(message, argument=argument, value=value)


def _frame(features: Any, argument: str) -> Any:
    """The table as a DataFrame indexed by level id (text)."""
    import pandas as pd

    if isinstance(features, Mapping):
        rows = {}
        for lid, row in features.items():
            if not isinstance(row, Mapping):
                _fail(f"level {lid!r}: a row must be a dict of feature -> number",
                      type(row).__name__, argument)  # fmt: skip
            rows[lid] = dict(row)
        features = pd.DataFrame.from_dict(rows, orient="index")
        # columns in the first row's order (from_dict may reorder by union)
        first = list(next(iter(rows.values()), {}))
        features = features[first + [c for c in features.columns if c not in first]]
    if not isinstance(features, pd.DataFrame):
        _fail("must be a DataFrame (one row per level id) or a dict of rows",
              type(features).__name__, argument)  # fmt: skip
    if "level" in features.columns:
        features = features.set_index("level")
    return features


def feature_table(
    features: Any, level_ids: Sequence[str], *, argument: str = "features"
) -> tuple[tuple[str, ...], NDArray[np.float64]]:
    """``(feature names, rows)``: the checked features of ``level_ids``, one row each, in order.

    Raises
    ------
    ArgumentError
        One line naming the level and the column: a level without a row, a level twice, a
        column that is not numeric, a cell that is not a finite number, no columns, a column
        called ``baseline``.
    """
    table = _frame(features, argument)
    names = tuple(str(c) for c in table.columns)
    if not names:
        _fail("no feature columns (give one numeric column per feature)", argument=argument)
    for c in table.columns:
        if not isinstance(c, str) or not c or c in RESERVED_FEATURES:
            reserved = c in RESERVED_FEATURES
            why = "is the model's own name" if reserved else "must be a non-empty text"
            _fail(f"column {c!r}: {why}; rename the feature", c, argument)
    index = [str(i) for i in table.index]
    seen: set[str] = set()
    for lid in index:
        if lid in seen:
            _fail(f"level {lid!r}: appears twice in the feature table", lid, argument)
        seen.add(lid)
    where = {lid: k for k, lid in enumerate(index)}
    for lid in level_ids:
        if lid not in where:
            _fail(f"level {lid!r}: has no row in the feature table", lid, argument)
    take = np.array([where[lid] for lid in level_ids], dtype=np.int64)
    out = np.empty((len(take), len(names)), dtype=np.float64)
    for j, name in enumerate(names):
        column = table.iloc[:, j]
        values = column.to_numpy()[take] if len(take) else column.to_numpy()[:0]
        if column.dtype.kind not in "iuf":  # text, bool, objects: the first such cell named
            k = next((k for k, v in enumerate(values) if not _number(v)), None)
            if k is not None or column.dtype.kind != "O":  # (objects all numbers: fine)
                k = k or 0
                lid = level_ids[k] if len(level_ids) else "?"
                _fail(f"level {lid!r}, column {name!r}: must be a number",
                      values[k] if len(values) else column.dtype.name, argument)  # fmt: skip
        values = values.astype(np.float64)
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            k = int(bad[0])
            _fail(f"level {level_ids[k]!r}, column {name!r}: must be a finite number",
                  float(values[k]), argument)  # fmt: skip
        out[:, j] = values
    return names, out


def _number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(
        v, (bool, np.bool_)
    )


def feature_row(row: Any, names: Sequence[str], *, level: str = "new level") -> NDArray:
    """One level's features (a dict or ``Series``: feature -> number) in ``names`` order.

    Examples
    --------
    >>> feature_row({"par_time": 60, "enemies": 3}, ("enemies", "par_time")).tolist()
    [3.0, 60.0]
    """
    if not isinstance(row, Mapping) and not hasattr(row, "to_dict"):
        _fail("a level's features must be a dict of feature -> number", type(row).__name__)
    d = dict(row) if isinstance(row, Mapping) else row.to_dict()
    for n in names:
        if n not in d:
            _fail(f"level {level!r}, column {n!r}: missing (the model was fitted with it)")
    _, x = feature_table({level: {n: d[n] for n in names}}, [level])
    return x[0]
