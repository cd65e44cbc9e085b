"""The words the apps show: :mod:`labkit.glossary`, the one glossary of labkit, under the name
the apps have always imported it by (the same objects; the summaries and the CLI speak it too).

Examples
--------
>>> from labkit import glossary as core
>>> parameter_words is core.parameter_words, words("max_steps")
(True, 'step limit (steps)')
"""

from __future__ import annotations

from labkit.glossary import GLOSSARY, count_words, event_sentence, parameter_words, words

__all__ = ["GLOSSARY", "words", "parameter_words", "event_sentence", "count_words"]
