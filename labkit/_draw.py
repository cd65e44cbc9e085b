"""The one calling shape of every matplotlib drawing: ``draw_x(obj, ax=None, **style) -> artists``.

:func:`drawing` turns a function written as ``f(ax, obj, ...)`` into that shape: the object comes
first, ``ax`` is optional (a new figure's axes, without pyplot, when omitted) and the artists
come back for ``update_x(artists, obj)`` to change in place. Calls in the older order, axes
first, keep working so that existing notebooks and apps need no edit.

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
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["drawing", "new_axes", "is_axes"]

F = TypeVar("F", bound=Callable[..., Any])


def is_axes(obj: Any) -> bool:
    """True for a matplotlib ``Axes`` (duck-typed, so matplotlib is not imported to check)."""
    return hasattr(obj, "add_artist") and hasattr(obj, "get_xlim")


def new_axes(size: tuple[float, float] = (5.0, 4.0)) -> Any:
    """Axes on a new figure that pyplot does not track (no global state, nothing shown)."""
    from matplotlib.figure import Figure

    return Figure(figsize=size).add_subplot()


def drawing(func: F) -> F:
    """Give ``func(ax, obj, ...)`` the house shape ``func(obj, ax=None, ...)`` (see module)."""
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
    return wrapper  # type: ignore[return-value]
