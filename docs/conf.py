"""Sphinx configuration of labkit's documentation site (built by ``make docs``).

``labkit_build.docs`` stages this file, ``index.md``, the executed notebooks (widget apps as static
snapshots) and the generated API pages into ``build/docs-src`` and runs Sphinx there, so the
notebooks are executed once, by labkit's own runner, and Sphinx only renders them.
"""

project = "labkit"
author = "labkit contributors"
extensions = [
    "myst_nb",  # notebooks and Markdown pages
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",  # numpydoc sections
]
nb_execution_mode = "off"  # labkit_build.docs executed them (static figures, widget snapshots)
nb_output_stderr = "remove"  # progress bars and warnings, not results
nb_merge_streams = True
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autosummary_generate = False
napoleon_numpy_docstring = True
napoleon_google_docstring = False
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
html_theme = "alabaster"
html_theme_options = {"page_width": "1180px", "sidebar_width": "230px", "fixed_sidebar": True}
html_title = "labkit"
html_show_sourcelink = False  # pages work from the file system without the sources
suppress_warnings = ["mystnb.unknown_mime_type", "myst.header"]
