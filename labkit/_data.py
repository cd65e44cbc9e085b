"""Where labkit's shipped inputs (``data/``: levels, balance, maps, towers, telemetry) live.

The folder is ``data/`` beside the ``labkit`` package in a checkout or editable install, and
``labkit/data`` inside an installed wheel; ``LABKIT_DATA_DIR`` points elsewhere.

Examples
--------
>>> data_path("balance", "a_edition.json").name
'a_edition.json'
"""

from __future__ import annotations

import os
from pathlib import Path

from labkit import LabkitError


def data_dir() -> Path:
    """The data folder: ``$LABKIT_DATA_DIR`` if set, else the wheel's ``labkit/data``, else
    ``data/`` beside the package."""
    env = os.environ.get("LABKIT_DATA_DIR")
    if env:
        return Path(env)
    package = Path(__file__).resolve().parent
    installed = package / "data"
    return installed if installed.is_dir() else package.parent / "data"


def data_path(*parts: str, must_exist: bool = True) -> Path:
    """Path of a shipped file under the data folder; a clear error when it is missing."""
    path = data_dir().joinpath(*parts)
    if must_exist and not path.exists():
        raise LabkitError(
            f"shipped data file {'/'.join(parts)} not found under {data_dir()} "
            "(set LABKIT_DATA_DIR to labkit's data/ folder)",
            file=str(path),
        )
    return path
