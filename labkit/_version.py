"""labkit's version, in a module of its own so that parts of labkit the root package imports
lazily (the notebook stamp) can read it without importing the root package back."""

__version__ = "0.1.0"
