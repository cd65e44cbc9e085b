"""Build tooling of the checkout, not shipped in the wheel: ``make docs``
(:mod:`labkit_build.docs`) and ``make report`` (:mod:`labkit_build.report`)."""
