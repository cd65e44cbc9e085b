"""The rules of an encounter (rules E2–E5): pure functions and small objects, no session state.

:mod:`.balance` loads the balance data (tables, weapons, items), :mod:`.tables` reads the hit,
pursuit and priority tables, :mod:`.combat` fights exchanges, :mod:`.sound` propagates noise,
:mod:`.notes` keeps what an actor knows, :mod:`.cards` holds the item pool and bags.

No rules module imports the simulation (``sim``) or the records (``records``). Import public
names from :mod:`labkit.encounter`.
"""
