"""Campaign funnel: where players will stop, predicted before launch (rule W8).

:mod:`._kernels` plays a population through the levels in order (numba); :mod:`.simulate`
holds the worlds it plays in (:class:`FunnelWorld`, a known truth) and the :class:`Funnel`;
:mod:`.model` builds worlds from a fitted skill model (``funnel``).
"""
