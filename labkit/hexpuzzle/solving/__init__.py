"""Solving and making hex puzzles: exact search, hints and the level generator.

:mod:`.contacts` precomputes which tiles can ever touch (numba kernels in :mod:`._kernels`),
:mod:`.solver` searches tap orders and rotations, :mod:`.hints` turns a solution into advice for
a position in play, :mod:`.generator` draws random levels and keeps the solvable ones,
:mod:`.targets` searches for a level scoring a target (``generate_to_target``) under the
constraints of :mod:`.constraints` (rotations, tiles, radius) and :mod:`.curve` builds a campaign
to a difficulty or success curve (``campaign_from_curve``).

These modules build on the board core (``level``, ``geometry``, ``sweep``, ``tap``, ``game``)
and never import the ``difficulty`` subpackage. Import public names from
:mod:`labkit.hexpuzzle`.
"""
