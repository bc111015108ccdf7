"""Canonical card text: one spelling per layout.

``format`` rewrites a card text so that equal cards look equal in a diff: ``**`` and
``*`` instead of ``__`` and ``_``, ``\\`` + newline for line breaks, a lone ``\\`` for an
empty paragraph, one line per paragraph, one blank line between paragraphs.  The
result always parses to the same layout as the input (this is checked, not hoped:
the dialect has no escapes, so a few exotic layouts cannot be spelt canonically, and
then a less canonical spelling, or the input itself, is kept).  Formatting twice
gives the same text.
"""

from __future__ import annotations

import re

from .parser import ENTITIES, parse

_ENTITY_RE = re.compile(r"&([^;&]*);")
_DELIMITERS = {"n": "", "b": "**", "i": "*", "bi": "***"}


def _protect_entities(text: str) -> str:
    """Keep ``&name;`` literal: the parser would decode it (``&amp;`` stays ``&``)."""

    def replace(match: re.Match[str]) -> str:
        return "&amp;" + match.group(0)[1:] if match.group(1) in ENTITIES else match.group(0)

    return _ENTITY_RE.sub(replace, text) if "&" in text else text


def _paragraph(items: tuple[tuple[str, str], ...], inline_breaks: bool) -> str:
    """One paragraph of a layout (see :meth:`Document.layout`) as canonical text."""
    if not items:
        return "\\"
    parts: list[str] = []
    for kind, text in items:
        if kind in _DELIMITERS:
            # A space-only run survives only as the reference's placeholder.
            spelt = "@@" * len(text) if text.strip(" ") == "" else _protect_entities(text)
            delimiter = _DELIMITERS[kind]
            parts.append(delimiter + spelt + delimiter)
        elif kind == "c":
            parts.append(f":{text}:")
        elif kind == "br":
            parts.append(":br:" if inline_breaks else "\\\n")
        else:
            parts.append(f":{kind}:")
    return "".join(parts)


def _spell(layout: tuple[tuple[tuple[str, str], ...], ...], inline_breaks: bool) -> str:
    if not layout:
        return ""
    return "\n\n".join(_paragraph(items, inline_breaks) for items in layout) + "\n"


def normalized(text: str) -> str:
    """The input with LF line ends and one final newline (layout unchanged).

    A text ending with a stray CR gets no newline: CR LF would read as a line end.
    """
    text = text.replace("\r\n", "\n").rstrip("\n")
    return text + "\n" if text and not text.endswith("\r") else text


def format_text(text: str) -> str:
    """Canonical card text with the same layout as ``text``.

    Formatting is repeated until it no longer changes anything, so that formatting a
    formatted text is a no-op even where normalising line ends creates new ones
    (``\\r\\r\\n``).  Every step keeps the layout.
    """
    current = _format_once(text)
    for _ in range(8):
        again = _format_once(current)
        if again == current:
            break
        current = again
    return current


def _format_once(text: str) -> str:
    layout = parse(text).document.layout()
    for inline_breaks in (False, True):
        candidate = _spell(layout, inline_breaks)
        if parse(candidate).document.layout() == layout:
            return candidate
    fallback = normalized(text)
    if parse(fallback).document.layout() == layout:
        return fallback
    return text
