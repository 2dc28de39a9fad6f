"""Sphinx directives of the blokus documentation.

``blokus-figure``
    Runs its content as Python at build time and shows the SVG pictures it makes (inline SVG,
    HTML builders only). The code sees ``blokus``, ``np`` (NumPy) and every name that earlier
    ``blokus-figure`` directives of the same page defined. It sets either ``svg`` (one SVG text)
    or ``figures`` (a list of ``(svg, caption)`` pairs, shown side by side; plain-text captions);
    what it prints is shown as its output, below the code.
    Options: ``:caption:`` (the figure's caption, inline markup allowed), ``:show-code:`` (show
    the code above the pictures), ``:name:`` (a label to refer to the figure), ``:width:``
    (CSS width of each picture; default 24em alone, 15em side by side).

``optional-automodule``
    ``automodule`` for a module that may be absent from the checkout: when importing it raises
    ModuleNotFoundError for that very module, the directive's content (a note) is shown instead.
    Any other import error is reported, as autodoc would.

``blokus.render.svg`` is deterministic, so the pictures are the same on every build.

Two autodoc hooks adapt the C extension's docstrings to autodoc and napoleon without changing
them:

- methods of ``blokus._core`` types give their signature without ``$self``
  (``legal_moves(colour=None)``), which autodoc, taking the first parameter for ``self``, would
  show as ``legal_moves()``: the signature is taken as written instead;
- napoleon reads an attribute docstring's first line ``words: more words`` as ``type:
  description``, which turned "Read-only live view of the cells: int8, ..." into a type
  "Read-only live view of the cells": our attribute docstrings never use that convention (nor
  NumPy sections), so the hooks give autodoc the docstring as written instead.

A third hook keeps private helper classes out of the "Bases:" lines, and a fourth turns the
docstrings' citations of the rules, ``docs/rules.md`` with an optional section name in quotes
(``docs/rules.md, "Scoring"``), into links to that page and section.
"""
from __future__ import annotations

import contextlib
import functools
import html
import importlib
import io
import os
import re

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

_NAMESPACE_KEY = "blokus_figure_namespace"


def _fresh_namespace() -> dict:
    import numpy as np

    import blokus
    import blokus.agents
    import blokus.analysis
    import blokus.render

    return {"__name__": "blokus_docs_figure", "blokus": blokus, "np": np}


class BlokusFigure(SphinxDirective):
    has_content = True
    option_spec = {
        "caption": directives.unchanged,
        "show-code": directives.flag,
        "name": directives.unchanged,
        "width": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        code = "\n".join(self.content)
        namespace = self.env.temp_data.setdefault(_NAMESPACE_KEY, {}).setdefault(
            self.env.docname, _fresh_namespace())
        namespace.pop("svg", None)
        namespace.pop("figures", None)
        source = f"<blokus-figure in {self.env.docname}, line {self.lineno}>"
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(code, source, "exec"), namespace)  # noqa: S102 - our own pages' code
        except Exception as exc:  # reported as a build error with the page and line
            raise self.error(f"blokus-figure: the code failed: {type(exc).__name__}: {exc}") from exc
        if "figures" in namespace:
            pictures = list(namespace.pop("figures"))
        elif "svg" in namespace:
            pictures = [(namespace.pop("svg"), None)]
        else:
            pictures = []
        if not pictures and not printed.getvalue():
            raise self.error("blokus-figure: the code must set `svg` or `figures`, or print")

        out: list[nodes.Node] = []
        if "show-code" in self.options:
            block = nodes.literal_block(code, code, language="python")
            self.set_source_info(block)
            out.append(block)
        if printed.getvalue():
            text = printed.getvalue().rstrip("\n")
            block = nodes.literal_block(text, text, language="text")
            self.set_source_info(block)
            out.append(block)
        if not pictures:
            return out

        width = self.options.get("width") or ("24em" if len(pictures) == 1 else "15em")
        style = f' style="width: {html.escape(width)}"'
        parts = ['<div class="blokus-figure-row">']
        for svg_text, subcaption in pictures:
            if not isinstance(svg_text, str) or not svg_text.lstrip().startswith("<svg"):
                raise self.error("blokus-figure: each picture must be SVG text (blokus.render.svg)")
            parts.append(f'<div class="blokus-figure-item"{style}>{svg_text}')
            if subcaption:
                parts.append(f'<div class="blokus-figure-subcaption">{html.escape(subcaption)}</div>')
            parts.append("</div>")
        parts.append("</div>")
        figure = nodes.figure(classes=["blokus-figure"])
        self.set_source_info(figure)
        figure += nodes.raw("", "\n".join(parts), format="html")
        if "caption" in self.options:
            inline, messages = self.state.inline_text(self.options["caption"], self.lineno)
            caption = nodes.caption(self.options["caption"], "", *inline)
            self.set_source_info(caption)
            figure += caption
            out.extend(messages)
        if "name" in self.options:
            self.add_name(figure)
        out.append(figure)
        return out


class OptionalAutomodule(SphinxDirective):
    required_arguments = 1
    has_content = True
    option_spec = {
        "members": directives.unchanged,
        "undoc-members": directives.flag,
        "show-inheritance": directives.flag,
        "member-order": directives.unchanged,
        "exclude-members": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            logger.info("optional-automodule: %s is absent, showing the note instead", name)
            container = nodes.container()
            self.state.nested_parse(self.content, self.content_offset, container)
            return container.children
        lines = [f".. automodule:: {name}"]
        for key, value in self.options.items():
            lines.append(f"   :{key}: {value or ''}".rstrip())
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source=self.get_source_info()[0]), self.content_offset, container)
        return container.children


def _c_method_signature(app, what, name, obj, options, signature, return_annotation):
    """The text signature of a ``blokus._core`` method as written, when it has no ``$self``."""
    text = getattr(obj, "__text_signature__", None)
    if (what == "method" and text and not text.startswith("($")
            and type(obj).__name__ == "method_descriptor"
            and getattr(getattr(obj, "__objclass__", None), "__module__", "") == "blokus._core"):
        return text, return_annotation
    return None


_attribute_docstrings: dict[str, list[str]] = {}


def _keep_attribute_docstring(app, what, name, obj, options, lines):
    """Before napoleon: remember an attribute's docstring as written."""
    if what in ("attribute", "property"):
        _attribute_docstrings[name] = list(lines)


def _restore_attribute_docstring(app, what, name, obj, options, lines):
    """After napoleon: put back the docstring it split into "type: description"."""
    if what in ("attribute", "property") and name in _attribute_docstrings:
        lines[:] = _attribute_docstrings.pop(name)


def _public_bases(app, name, obj, options, bases):
    """"Bases:" names the first public class above a private helper (``blokus.agents._policies._Seeded``)."""
    public: list = []
    for base in bases:
        for cls in base.__mro__ if base.__name__.startswith("_") else (base,):
            if not cls.__name__.startswith("_") and cls not in public:
                public.append(cls)
                break
    bases[:] = public


_RULES_PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rules.md")
_RULES_CITATION = re.compile(r'docs/rules\.md(?P<tail>(?:,? \(?| )"(?P<section>[^"]+)")?')


def _slug(title: str) -> str:
    """MyST's anchor of a heading (myst_heading_anchors): lower case, punctuation dropped,
    spaces to hyphens."""
    return re.sub(r"\s+", "-", re.sub(r"[^\w\s-]", "", title.strip().lower()))


@functools.lru_cache(maxsize=None)
def _rules_anchors() -> frozenset:
    with open(_RULES_PAGE, encoding="utf-8") as f:
        return frozenset(_slug(line.lstrip("#")) for line in f if line.startswith("#"))


def _link_rules(app, what, name, obj, options, lines):
    """``docs/rules.md[, "Section"]`` in a docstring -> a link to the rules page (and section).
    The API pages are one folder down (api/), hence ``../``; a section name that is not a
    heading of the page links to the page alone."""
    def link(match):
        section = match["section"]
        anchor = _slug(section) if section and _slug(section) in _rules_anchors() else ""
        target = "../rules.html" + (f"#{anchor}" if anchor else "")
        return f"`{match[0]} <{target}>`__"
    def outside_literals(line):  # ``...`` stays as written
        parts = line.split("``")
        parts[::2] = [_RULES_CITATION.sub(link, part) for part in parts[::2]]
        return "``".join(parts)

    lines[:] = [outside_literals(line) if "docs/rules.md" in line else line for line in lines]


def setup(app):
    app.connect("autodoc-process-bases", _public_bases)
    # around napoleon's own autodoc-process-docstring handler (priority 500)
    app.connect("autodoc-process-docstring", _keep_attribute_docstring, priority=400)
    app.connect("autodoc-process-docstring", _restore_attribute_docstring, priority=600)
    app.connect("autodoc-process-signature", _c_method_signature)
    app.connect("autodoc-process-docstring", _link_rules, priority=700)
    app.add_directive("blokus-figure", BlokusFigure)
    app.add_directive("optional-automodule", OptionalAutomodule)
    app.add_css_file("blokus.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
