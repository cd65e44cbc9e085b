"""Difficulty of hex puzzles: the score, players, telemetry and the calibration of the score.

:mod:`.scoring` scores a level from its solution (``score`` -> ``Difficulty``);
:mod:`.telemetry` reads and writes play records (:mod:`.telemetry_file`: the ``Telemetry``
document, CSV or Parquet); :mod:`.observed` turns them into an observed difficulty index;
:mod:`.players` simulates players to make telemetry from a known truth; :mod:`.fit` fits the
score's weights and bands to telemetry (``calibrate``), and :mod:`.calibration` holds the result
(``Calibration``) and its report (:mod:`.calibration_file` reads its file back).
The skill model of players and levels: :mod:`.skill_fit` fits it (``fit_skill_model``),
:mod:`.skill` holds it (``SkillModel``), :mod:`.skill_file` is its file, :mod:`.skill_report` its
report and :mod:`.skill_sim` its simulated progression telemetry; :mod:`.ratings` rates levels
game by game (Glicko-2, kernel in :mod:`._rating_kernels`).

These modules build on the board core and on the ``solving`` subpackage, never the reverse.
Import public names from :mod:`labkit.hexpuzzle`.
"""
