"""What a game leaves behind, and what can be done with it afterwards.

:mod:`.journal` (``ActionJournal``, the events of each step), :mod:`.trace`
(``SimulationTrace``, the file format) and :mod:`.replay` (re-running a trace to find the first
divergence) and :mod:`.playback` (the board after every step, without running a rule).

Import public names from :mod:`labkit.encounter`.
"""
