"""Card text as HTML with what a proofreader compares marked: numbers, symbols, terms.

A reviewer reads the English and the translated text side by side.  What must agree
between them is marked in both, in the printed text (the document tree, so exactly
what Aminduna prints):

- numbers (stat modifiers, digits, number words, X): ``num``; one whose value is not
  in the other side's paragraph is ``num diff``;
- symbols, drawn as on the card: ``sym``; in a paragraph whose symbols are not the
  other side's (count, kind or order), ``sym diff``;
- glossary terms and ability names: ``term``, with ``data-term`` naming the glossary
  entry on both sides (the page links the two); one the other side does not have is
  ``term diff``.

Every piece of card text is escaped (:func:`markupsafe.escape`); the result is
:class:`markupsafe.Markup`, safe to put in a template as is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from markupsafe import Markup, escape

from ..lint.model import PlainParagraph, PlainText
from ..lint.numbers import read_numbers
from ..markup.html import styled
from ..markup.tree import DropCap, LineBreak, Symbol, Text


@dataclass(frozen=True, slots=True)
class Mark:
    """A span of a paragraph's plain text to wrap: ``[start, end)``, its classes and
    its ``data-term`` (for glossary terms)."""

    start: int
    end: int
    classes: str
    term: str | None = None
    title: str | None = None


def number_marks(
    here: PlainParagraph | None,
    there: PlainParagraph | None,
    words_here: dict[str, str],
    words_there: dict[str, str],
) -> list[Mark]:
    """The numbers of ``here``; those whose value ``there`` lacks are ``diff`` (but for
    number words: *un*, *une* are also articles, and the linter does not count them
    either)."""
    if here is None:
        return []
    found = read_numbers(here.text, words_here, here.tokens)
    other = (
        Counter()
        if there is None
        else Counter(n.value for n in read_numbers(there.text, words_there, there.tokens))
    )
    marks = []
    for number in found:
        present = other[number.value] > 0
        if present:
            other[number.value] -= 1
        elif number.role == "word" and there is not None:
            continue  # a number word the other text lacks: an article (un, une), as lint
        marks.append(
            Mark(
                number.start,
                number.end,
                "num" if present else "num diff",
                title=None if present else "not in the other text",
            )
        )
    return marks


def symbol_codes(paragraph: PlainParagraph | None) -> list[str]:
    if paragraph is None:
        return []
    return [node.code for node in paragraph.paragraph.children if isinstance(node, Symbol)]


def paragraph_html(
    paragraph: PlainParagraph,
    marks: Iterable[Mark],
    symbol: Callable[[str, str], str],
    symbols_differ: bool,
) -> Markup:
    """One printed paragraph, its marks wrapped in ``<span>`` elements."""
    ordered = sorted(marks, key=lambda m: (m.start, -m.end))
    parts: list[str] = []
    offset = 0
    for node in paragraph.paragraph.children:
        if isinstance(node, Text):
            parts.append(styled(node, _marked(node.text, offset, ordered)))
            offset += len(node.text)
        elif isinstance(node, DropCap):
            parts.append(f'<span class="dropcap">{escape(node.letter)}</span>')
            offset += len(node.letter)
        elif isinstance(node, Symbol):
            classes = "sym diff" if symbols_differ else "sym"
            parts.append(symbol(node.code, classes))
            offset += 1
        elif isinstance(node, LineBreak):
            parts.append("<br>")
            offset += 1
    return Markup(f"<p>{''.join(parts)}</p>")


def _marked(text: str, offset: int, marks: list[Mark]) -> str:
    """``text`` (which starts at plain offset ``offset``) escaped, with the parts of
    ``marks`` that fall in it wrapped (a mark across two runs is wrapped in each)."""
    end = offset + len(text)
    out: list[str] = []
    position = offset
    for mark in marks:
        start, stop = max(mark.start, offset), min(mark.end, end)
        if stop <= start or start < position:
            continue
        out.append(str(escape(text[position - offset : start - offset])))
        attributes = f' class="{mark.classes}"'
        if mark.term is not None:
            attributes += f' data-term="{escape(mark.term)}"'
        if mark.title is not None:
            attributes += f' title="{escape(mark.title)}"'
        out.append(f"<span{attributes}>{escape(text[start - offset : stop - offset])}</span>")
        position = stop
    out.append(str(escape(text[position - offset :])))
    return "".join(out)


def text_html(
    plain: PlainText,
    marks: dict[int, list[Mark]],
    symbol: Callable[[str, str], str],
    other: PlainText | None,
) -> Markup:
    """Every printed paragraph of a text; symbols compared with ``other``'s."""
    aligned = other is not None and len(other.paragraphs) == len(plain.paragraphs)
    html = []
    for paragraph in plain.paragraphs:
        codes = symbol_codes(paragraph)
        counterpart = other.paragraphs[paragraph.index] if aligned and other else None
        differ = (
            bool(codes)
            and other is not None
            and (counterpart is None or codes != symbol_codes(counterpart))
        )
        html.append(paragraph_html(paragraph, marks.get(paragraph.index, []), symbol, differ))
    return Markup("\n").join(html)
