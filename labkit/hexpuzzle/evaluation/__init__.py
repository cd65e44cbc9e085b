"""Measuring generators as research generators: quality, diversity, controllability, baselines.

:mod:`.measures` holds the two distances (solution strings as pcg_benchmark compares them, and
layouts up to rotation) and pcg_benchmark's diversity pass; :mod:`.evaluate` runs a generator
over targets and seeds (``evaluate_generator``); :mod:`.baselines` holds the searches it is
compared with at an equal solver budget; :mod:`.draw_evaluation` the expressive-range plots and
controllability heat maps. Import public names from :mod:`labkit.hexpuzzle`.
"""
