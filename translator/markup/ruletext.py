"""``ruleText`` and ``flavorText``: the plain texts Aminduna derives from the layout.

They are not printed; search and chat bots read them.  Flavour text starts at the
first paragraph that opens with an italic run starting with the language's opening
quote (``"`` in English, ``«`` in French and Esperanto); that paragraph and all later
ones are flavour, with the quotes trimmed.  Earlier paragraphs are rule text, where
symbols become letters (``:g2:`` → ``2``, ``:m3:`` → ``M3,``).
"""

from __future__ import annotations

import re

from .tree import Document, DropCap, LineBreak, Paragraph, Symbol, Text

#: Opening and closing quotes of flavour text, per language.
FLAVOR_QUOTES: dict[str, tuple[str, str]] = {
    "en": ('"', '"'),
    "fr": ("«", "»"),
    "eo": ("«", "»"),
}
LANGUAGES = tuple(FLAVOR_QUOTES)

_SPACES = re.compile(" {2,}")
# Spaces a quote may carry inside it: plain, no-break and narrow no-break.
_QUOTE_SPACES = " \u00a0\u202f\t"


def symbol_text(code: str) -> str:
    """How the reference spells a symbol in rule text."""
    if code.startswith("g"):
        suffix = code[1:]
        return suffix.upper() if suffix in ("t", "x") else suffix
    if code in ("ma", "mt", "mx"):
        return code[1].upper() + ","
    if len(code) == 2 and code[1].isdigit():
        return "M" + code[1] + ","
    return "M,"


def _paragraph_text(paragraph: Paragraph) -> str:
    parts: list[str] = []
    for node in paragraph.children:
        if isinstance(node, Text):
            parts.append(node.text)
        elif isinstance(node, DropCap):
            parts.append(node.letter)
        elif isinstance(node, Symbol):
            parts.append(symbol_text(node.code))
        elif isinstance(node, LineBreak):
            continue
    return _SPACES.sub(" ", "".join(parts)).strip(" ")


def _opens_flavor(paragraph: Paragraph, opening: str) -> bool:
    if not paragraph.children:
        return False
    first = paragraph.children[0]
    return isinstance(first, Text) and first.italic and first.text.startswith(opening)


def rule_and_flavor(document: Document, lang: str) -> dict[str, str]:
    """``{"ruleText": ..., "flavorText": ...}`` for a card text in language ``lang``."""
    opening, closing = FLAVOR_QUOTES[lang]
    paragraphs = document.paragraphs
    split = next(
        (i for i, p in enumerate(paragraphs) if _opens_flavor(p, opening)), len(paragraphs)
    )
    rules = [_paragraph_text(p) for p in paragraphs[:split]]
    flavor = "\n".join(_paragraph_text(p) for p in paragraphs[split:])
    flavor = flavor.strip(_QUOTE_SPACES)
    if flavor.startswith(opening):
        flavor = flavor[len(opening) :]
    if flavor.endswith(closing):
        flavor = flavor[: -len(closing)]
    return {"ruleText": "\n".join(r for r in rules if r), "flavorText": flavor.strip(_QUOTE_SPACES)}
