"""Difficulty of hex puzzles: the score, players, telemetry and the calibration of the score.

:mod:`.scoring` scores a level from its solution (``score`` -> ``Difficulty``);
:mod:`.telemetry` reads and writes play records (:mod:`.telemetry_file`: the ``Telemetry``
document, CSV or Parquet); :mod:`.observed` turns them into an observed difficulty index;
:mod:`.players` simulates players to make telemetry from a known truth; :mod:`.fit` fits the
score's weights and bands to telemetry (``calibrate``), and :mod:`.calibration` holds the result
(``Calibration``) and its report (:mod:`.calibration_file` reads its file back).

These modules build on the board core and on the ``solving`` subpackage, never the reverse.
Import public names from :mod:`labkit.hexpuzzle`.
"""
