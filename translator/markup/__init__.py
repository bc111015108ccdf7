"""Card text, read exactly as Aminduna (the Arcmage card server) reads it.

The public API::

    from translator import markup

    result = markup.parse(":W:hen I come into play, draw a card.")
    result.document            # the layout tree: paragraphs, runs, drop caps, symbols
    markup.to_xml(result.document)       # Aminduna's layout XML
    markup.to_markdown(xml)              # Aminduna's reverse conversion
    markup.to_html(result.document)      # HTML for the print templates
    markup.rule_and_flavor(result.document, "fr")
    markup.format_text(text)             # canonical spelling, same layout
    markup.check(result)                 # diagnostics (rules MK...)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .checks import check, check_text
    from .formatting import format_text
    from .html import to_html
    from .layout_xml import LayoutXmlError, from_xml, to_markdown, to_xml
    from .parser import ParseResult, parse, parse_document
    from .ruletext import LANGUAGES, rule_and_flavor
    from .tree import Document, DropCap, LineBreak, Paragraph, Position, Symbol, Text

attach(
    globals(),
    {
        "check": ".checks",
        "check_text": ".checks",
        "format_text": ".formatting",
        "to_html": ".html",
        "LayoutXmlError": ".layout_xml",
        "from_xml": ".layout_xml",
        "to_markdown": ".layout_xml",
        "to_xml": ".layout_xml",
        "ParseResult": ".parser",
        "parse": ".parser",
        "parse_document": ".parser",
        "LANGUAGES": ".ruletext",
        "rule_and_flavor": ".ruletext",
        "Document": ".tree",
        "DropCap": ".tree",
        "LineBreak": ".tree",
        "Paragraph": ".tree",
        "Position": ".tree",
        "Symbol": ".tree",
        "Text": ".tree",
    },
)

__all__ = [
    "LANGUAGES",
    "Document",
    "DropCap",
    "LayoutXmlError",
    "LineBreak",
    "Paragraph",
    "ParseResult",
    "Position",
    "Symbol",
    "Text",
    "check",
    "check_text",
    "format_text",
    "from_xml",
    "parse",
    "parse_document",
    "rule_and_flavor",
    "to_html",
    "to_markdown",
    "to_xml",
]
