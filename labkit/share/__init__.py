"""Sharing a notebook: ``labkit bundle`` packs it with its data, ``labkit verify``
re-runs a bundle someone sent and compares it with what it recorded.

* :mod:`labkit.share.bundle` makes a bundle; :mod:`labkit.share.bundle_zip` reads one,
  checked whole before any entry is extracted; :mod:`labkit.share.verify` re-executes
  and compares;
* :mod:`labkit.share.snapshot` renders widget apps as static HTML (a bundle's notebook,
  and the docs and report built by ``labkit_build``).
"""
