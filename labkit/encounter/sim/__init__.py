"""Whole games played on the rules (rules E1, E4, E6, E7).

:mod:`.settings` (``SimulationSettings``), :mod:`.room_map` (the seeded room map), :mod:`.actors`,
:mod:`.policy` (AI policies reading only their own observation), :mod:`.session`
(``GameSession``: Action / Encounter / Finished), :mod:`.runner` (``simulate``),
:mod:`.fast_outcome` (the same games without a journal, for speed), :mod:`.batch`
(``run_batch``) over :mod:`.pool` (the process pool) and :mod:`.engine` (local or Dask),
:mod:`.sweep` (resumable parameter sweeps) and :mod:`.tune` (a value hitting a target win rate).

The simulation uses the rules and writes records (the session's journal, the runner's trace).
Import public names from :mod:`labkit.encounter`.
"""
