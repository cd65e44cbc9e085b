"""One way to write every labkit animation to a file: GIF or MP4, deterministic bytes.

GIF goes through matplotlib's Pillow writer (no ffmpeg needed); MP4 through matplotlib's ffmpeg
writer when an ``ffmpeg`` executable is on the PATH (a clear error otherwise). Figures are
rendered by Agg at a fixed size and dpi, GIF frames carry no timestamps, and MP4 files are
written without creation time or encoder metadata, so the same input gives the same file.

Examples
--------
>>> figure(2, 2).get_size_inches().tolist()
[2.0, 2.0]
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, cast

from labkit import ArgumentError

__all__ = ["figure", "save_animation", "ffmpeg_available", "check_target"]


def figure(width: float, height: float) -> Any:
    """A matplotlib ``Figure`` on an Agg canvas, outside pyplot (nothing shown, nothing kept)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def ffmpeg_available() -> bool:
    """Whether matplotlib can write MP4 here."""
    from matplotlib import animation

    return animation.writers.is_available("ffmpeg") and shutil.which("ffmpeg") is not None


def check_target(path: str | os.PathLike) -> str:
    """The file kind of ``path`` (``"gif"`` or ``"mp4"``), or ``ArgumentError`` naming it."""
    suffix = Path(path).suffix.lower()
    if suffix not in (".gif", ".mp4"):
        raise ArgumentError("must end in .gif or .mp4", argument="path", value=str(path))
    if suffix == ".mp4" and not ffmpeg_available():
        raise ArgumentError("MP4 needs ffmpeg on the PATH; write a .gif instead",
                            argument="path", value=str(path))  # fmt: skip
    return suffix[1:]


def save_animation(anim: Any, path: str | os.PathLike, *, fps: float = 10, dpi: int = 80) -> Path:
    """Write ``anim`` to ``path`` (``.gif`` or ``.mp4``) atomically; returns the path.

    Raises
    ------
    ArgumentError
        An unknown suffix, a non-positive ``fps``, or ``.mp4`` without ffmpeg.

    Examples
    --------
    >>> import tempfile
    >>> from PIL import Image
    >>> from matplotlib.animation import FuncAnimation
    >>> fig = figure(1, 1)
    >>> anim = FuncAnimation(fig, lambda i: fig.set_facecolor("rgb"[i]), frames=3)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     gif = save_animation(anim, Path(tmp) / "blink.gif", fps=5, dpi=20)
    ...     with Image.open(gif) as image:
    ...         image.n_frames, image.size, sorted(p.name for p in gif.parent.iterdir())
    (3, (20, 20), ['blink.gif'])
    >>> save_animation(anim, "blink.png")
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: path: must end in .gif or .mp4 (got 'blink.png')
    """
    from matplotlib import animation

    target = Path(path)
    suffix = "." + check_target(target)
    if fps <= 0:
        raise ArgumentError("must be > 0", argument="fps", value=fps)
    if suffix == ".gif":
        # The stubs say int, but both writers take a float rate (1000 / fps, -r fps).
        writer: Any = animation.PillowWriter(fps=cast(int, fps))
    else:
        # No creation time, no encoder string: the same frames give the same bytes.
        extra = ["-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact"]
        writer = animation.FFMpegWriter(fps=cast(int, fps), codec="libx264", extra_args=[*extra,
                                        "-pix_fmt", "yuv420p", "-threads", "1"])  # fmt: skip
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}.", suffix=suffix)
    os.close(fd)
    try:
        anim.save(tmp, writer=writer, dpi=dpi)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
