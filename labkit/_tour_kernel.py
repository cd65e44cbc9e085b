"""A small demonstration kernel for the tour notebook and the foundation's tests.

``chebyshev_rings`` fills a grid with the Chebyshev (king-move) distance to one cell — the
distance that the encounter system's hearing rule uses.
"""

from __future__ import annotations

import numpy as np

from labkit import ArgumentError
from labkit._jit import kernel


@kernel(example=lambda: (4, 5, 1, 2), reference="tests.kernel_references:chebyshev_rings")
def chebyshev_rings(height, width, y, x):
    out = np.empty((height, width), dtype=np.int64)
    for i in range(height):
        for j in range(width):
            out[i, j] = max(abs(i - y), abs(j - x))
    return out


def rings(shape: tuple[int, int], centre: tuple[int, int]) -> np.ndarray:
    """Chebyshev distance from ``centre`` (x, y) to every cell of a grid of ``shape`` (h, w).

    Examples
    --------
    >>> rings((3, 4), (1, 1))
    array([[1, 1, 1, 2],
           [1, 0, 1, 2],
           [1, 1, 1, 2]])
    """
    height, width = (int(v) for v in shape)
    if height <= 0 or width <= 0:
        raise ArgumentError("must be positive", argument="shape", value=shape)
    x, y = (int(v) for v in centre)
    return chebyshev_rings(height, width, y, x)
