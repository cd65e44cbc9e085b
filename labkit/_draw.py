"""The one calling shape of every matplotlib drawing: ``draw_x(obj, ax=None, **style) -> artists``.

:func:`drawing` turns a function written as ``f(ax, obj, ...)`` into that shape: the object comes
first, ``ax`` is optional (a new figure's axes, without pyplot, when omitted) and the artists
come back for ``update_x(artists, obj)`` to change in place. Calls in the older order, axes
first, keep working so that existing notebooks and apps need no edit.

``**style`` holds the documented look of a drawing (colours, line widths): each drawing keeps a
dict of defaults and :func:`styled` merges the caller's keys into it, refusing a key it does not
know (a misspelt colour would otherwise be ignored without a word).

Examples
--------
>>> @drawing
... def draw_line(ax, ys, *, colour="k"):
...     (line,) = ax.plot(ys, color=colour)
...     return line
>>> import inspect
>>> str(inspect.signature(draw_line))
"(ys, ax=None, *, colour='k')"
>>> line = draw_line([1, 3, 2])  # a new figure's axes
>>> [int(y) for y in line.get_ydata()], line.axes is not None
([1, 3, 2], True)
>>> draw_line(line.axes, [0, 1]).axes is line.axes  # the older order, axes first
True
>>> styled({"colour": "k", "linewidth": 1.0}, {"colour": "red"})
{'colour': 'red', 'linewidth': 1.0}
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from labkit import ArgumentError

__all__ = ["drawing", "new_axes", "is_axes", "styled"]

R = TypeVar("R")


def is_axes(obj: Any) -> bool:
    """True for a matplotlib ``Axes`` (duck-typed, so matplotlib is not imported to check)."""
    return hasattr(obj, "add_artist") and hasattr(obj, "get_xlim")


def new_axes(size: tuple[float, float] = (5.0, 4.0)) -> Any:
    """Axes on a new figure that pyplot does not track (no global state, nothing shown)."""
    from matplotlib.figure import Figure

    return Figure(figsize=size).add_subplot()


def styled(defaults: Mapping[str, Any], style: Mapping[str, Any]) -> dict[str, Any]:
    """``defaults`` with the caller's ``style`` keys put over them.

    Raises
    ------
    ArgumentError
        For a key ``defaults`` does not have, naming it and the keys there are.

    Examples
    --------
    >>> styled({"colour": "k"}, {"color": "red"})
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: color: unknown style key; known: colour (got 'red')
    """
    for key in style:
        if key not in defaults:
            raise ArgumentError(
                f"unknown style key; known: {', '.join(sorted(defaults))}",
                argument=key,
                value=style[key],
            )
    return {**defaults, **style}


def drawing(func: Callable[..., R]) -> Callable[..., R]:
    """Give ``func(ax, obj, ...)`` the house shape ``func(obj, ax=None, ...)`` (see module).

    Typed ``Callable[..., R]``: the wrapper takes both orders, which no static signature says.
    """
    params = list(inspect.signature(func).parameters.values())
    if not params or params[0].name != "ax":
        raise TypeError(f"{func.__name__}: a drawing function takes ax first")
    rest = params[1:]
    ax_param = inspect.Parameter("ax", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)
    # ``ax`` goes after what is drawn (the required positional parameters), before the options
    split = 0
    while (
        split < len(rest)
        and rest[split].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        and rest[split].default is inspect.Parameter.empty
    ):
        split += 1
    shown = rest[:split] + [ax_param] + rest[split:]

    @functools.wraps(func)
    def wrapper(*args: Any, ax: Any = None, **style: Any) -> Any:
        args_list = list(args)
        if ax is None:
            # axes given positionally: first (the older order) or after what is drawn
            at = next((i for i, a in enumerate(args_list) if is_axes(a)), None)
            if at is not None:
                ax = args_list.pop(at)
        return func(new_axes() if ax is None else ax, *args_list, **style)

    wrapper.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        shown, return_annotation=inspect.signature(func).return_annotation
    )
    del wrapper.__wrapped__  # help() and the docs show the house shape, not the inner one
    # doctest takes a function for its module's only when its globals are that module's, and
    # the wrapper's are this module's: list it in the module's ``__test__`` so that its
    # Examples run with the module's doctests.
    func.__globals__.setdefault("__test__", {})[func.__name__] = wrapper
    return wrapper
