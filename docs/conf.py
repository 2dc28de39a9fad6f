"""Sphinx configuration of the blokus documentation.

Build (from the repository root, with the ``docs`` extra installed)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The API pages import the installed ``blokus`` (its C extension included), and the board pictures
are drawn at build time by ``blokus.render.svg`` (``docs/_ext/blokus_docs.py``).
"""
from __future__ import annotations

import importlib.util
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "_ext"))

import blokus  # noqa: E402 - the package being documented must be importable (pip install -e .)

project = "blokus"
author = "the blokus authors"
copyright = "the blokus authors"
release = version = blokus.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "blokus_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []
html_static_path = ["_static"]

# `name` in a docstring refers to a Python object (C docstrings write `remaining`).
default_role = "py:obj"

# MyST (Markdown pages): ":::" fences and definition lists; heading anchors let pages link to
# one another's sections ("rules.md#scoring").
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# autodoc + napoleon: the docstrings are NumPy style.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# Methods without a docstring of their own (reset, step, ... of the environments) would show
# Gymnasium's or PettingZoo's docstrings, which are not ours nor NumPy style.
autodoc_inherit_docstrings = False
autodoc_default_options = {"members": True}
# blokus.nn, blokus.sb3 and blokus.rllib need the train and rllib extras, which the docs build
# does not install
autodoc_mock_imports = ["torch", "stable_baselines3", "sb3_contrib", "ray.rllib"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
napoleon_use_ivar = False
# Section headings of blokus.env's module docstring (PettingZoo's layout for an environment).
napoleon_custom_sections = [
    "Agents and turns",
    "Observation space",
    "Action space",
    "Rewards",
    "Rendering",
    "Single agent",
    "Version history",
]

# A theme from PyPI when installed (the docs extra), else Sphinx's built-in one.
if importlib.util.find_spec("furo") is not None:
    html_theme = "furo"
else:
    html_theme = "alabaster"
html_title = f"blokus {release}"
