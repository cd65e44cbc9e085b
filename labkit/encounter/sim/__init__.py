"""Whole games played on the rules (SPEC E1, E4, E6, E7).

:mod:`.settings` (``SimulationSettings``), :mod:`.world` (the seeded room map), :mod:`.actors`,
:mod:`.policy` (AI policies reading only their own observation), :mod:`.session`
(``GameSession``: Action / Encounter / Finished), :mod:`.runner` (``simulate``) and
:mod:`.batch` (``run_batch``).

The simulation uses the rules and writes records (the session's journal, the runner's trace).
Import public names from :mod:`labkit.encounter`.
"""
