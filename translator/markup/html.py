"""An HTML fragment of a card text, for the print templates.

Built from the document tree, so it shows exactly what Aminduna would print (no
dropped heading sneaks back in).  Every piece of card text is escaped; symbols are
empty, labelled elements that the templates' CSS (or a symbol renderer passed in)
turns into drawings.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from .ruletext import symbol_text
from .tree import Document, DropCap, LineBreak, Paragraph, Symbol, Text

SymbolRenderer = Callable[[Symbol], str]


def default_symbol(symbol: Symbol) -> str:
    """A labelled, empty ``<span>`` per symbol; classes say its code and kind."""
    label = escape(symbol_text(symbol.code).rstrip(","), quote=True)
    return (
        f'<span class="sym sym-{symbol.kind} sym-{symbol.code}" data-code="{symbol.code}"'
        f' role="img" aria-label="{label}"></span>'
    )


def _text(node: Text) -> str:
    return styled(node, escape(node.text, quote=False))


def styled(node: Text, content: str) -> str:
    """``content`` (HTML: the run's text, escaped, maybe marked up) in the run's bold
    and italics."""
    if node.bold and node.italic:
        return f"<b><i>{content}</i></b>"
    if node.bold:
        return f"<b>{content}</b>"
    if node.italic:
        return f"<i>{content}</i>"
    return content


def paragraph_classes(paragraph: Paragraph) -> list[str]:
    """Layout hints: an empty spacer, or what the paragraph starts with."""
    if not paragraph.children:
        return ["empty"]
    first = paragraph.children[0]
    if isinstance(first, DropCap):
        return ["has-dropcap"]
    if isinstance(first, Symbol) and first.kind in ("mark", "column"):
        return [f"has-{first.kind}"]
    return []


def paragraph_html(paragraph: Paragraph, symbol: SymbolRenderer = default_symbol) -> str:
    parts: list[str] = []
    for node in paragraph.children:
        if isinstance(node, Text):
            parts.append(_text(node))
        elif isinstance(node, DropCap):
            parts.append(f'<span class="dropcap">{escape(node.letter, quote=False)}</span>')
        elif isinstance(node, Symbol):
            parts.append(symbol(node))
        elif isinstance(node, LineBreak):
            parts.append("<br>")
    classes = paragraph_classes(paragraph)
    attribute = f' class="{" ".join(classes)}"' if classes else ""
    return f"<p{attribute}>{''.join(parts)}</p>"


def to_html(document: Document, symbol: SymbolRenderer = default_symbol) -> str:
    """The card text as HTML paragraphs, one per line."""
    return "\n".join(paragraph_html(p, symbol) for p in document.paragraphs)
