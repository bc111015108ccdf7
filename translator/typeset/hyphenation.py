"""Where card text may break inside a word, and where it must not break at all.

WeasyPrint's own hyphenation (``hyphens: auto``) breaks any word of any run, ability
names and game terms included, with pyphen's patterns, which are wrong for Esperanto
(``nomb-ro``, ``k-reaĵo``).  The card stylesheet says ``hyphens: manual`` instead, and
this module writes the break points into the text as soft hyphens (U+00AD), so that
the rules are ours, in one place, and testable:

* only plain runs are hyphenated: bold and italic runs (ability names, game terms,
  reminders, flavour text) never are, nor a word written with a capital (card,
  ability and faction names), with digits, or split between runs (the word a drop cap
  starts);
* at least :data:`MIN_LEFT` letters before a break and :data:`MIN_RIGHT` after it;
* a language breaks by its own rule where it has one (Esperanto between syllables:
  :meth:`translator.languages.eo.Esperanto.word_breaks`, since pyphen's ``eo``
  patterns break inside clusters), else where pyphen's patterns say (French,
  English);
* the last word of a paragraph (or of a line ended by a line break) is never
  hyphenated, so the last line never holds a word's end alone; a short last word is
  bound to the one before it by a no-break space, so that it is not alone either.

The tree given is never changed: :func:`hyphenate` returns a new one for the print
HTML only (:func:`hyphenated_html`).  ``translator markup html`` and the font check
(:func:`translator.typeset.render.printed_characters`) read the card's own tree,
without the soft hyphens and no-break spaces added here.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import cache, lru_cache

import pyphen

from .. import languages
from ..markup.html import SymbolRenderer, default_symbol, paragraph_html
from ..markup.tree import Document, DropCap, Inline, LineBreak, Paragraph, Symbol, Text

SOFT_HYPHEN = "\u00ad"
NO_BREAK_SPACE = "\u00a0"
#: The fewest letters left on a line before a break, and carried to the next line.
MIN_LEFT = 3
MIN_RIGHT = 3
#: A paragraph's last word this short (in characters, punctuation included) is bound
#: to the word before it...
SHORT_LAST_WORD = 6
#: ...unless the two together would be longer than this (an unbreakable chunk that
#: long could not fit a narrow line).
MAX_BOUND = 20
#: A word: letters, maybe with combining marks.
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|[\u0300-\u036f])*")
#: What separates words in the HTML: tags and white space (a split keeps them).
_HTML_BREAKS = re.compile(r"(<[^>]*>|\s+)")
#: Placeholders in the flat text of a paragraph: a symbol, a line break.
_OBJECT = "\ufffc"
_LINE = "\u2028"
#: A line's last word (maybe after the word before it and the spaces between), up to
#: the line's end: "words" are what white space (where a line may break) separates.
_LINE_END = re.compile(
    r"(?<![^ \t\n\r\f\u2028])(?:([^ \t\n\r\f\u2028]+)([ \t\n\r\f]+))?"
    r"([^ \t\n\r\f\u2028]+)[ \t\n\r\f]*(?=\u2028|$)"
)


@cache
def _pyphen(lang: str) -> pyphen.Pyphen | None:
    """pyphen's dictionary for ``lang`` with our limits, or None if it has none."""
    found = pyphen.language_fallback(lang)
    return pyphen.Pyphen(lang=found, left=MIN_LEFT, right=MIN_RIGHT) if found else None


@lru_cache(maxsize=65536)
def word_breaks(word: str, lang: str) -> tuple[int, ...]:
    """Where ``word`` (letters only) may break in ``lang``: offsets leaving at least
    :data:`MIN_LEFT` letters before and :data:`MIN_RIGHT` after.

    By the language's own rule where it has one (Esperanto: its syllables); else by
    pyphen's patterns, without the breaks that change the spelling (German ``ck``),
    or nowhere if pyphen has none.  ``lang`` may carry a region (``eo-XX``).
    """
    if len(word) < MIN_LEFT + MIN_RIGHT:
        return ()
    own = languages.get(lang).word_breaks(word)
    if own is not None:
        found: Sequence[int] = own
    else:
        dictionary = _pyphen(lang)
        if dictionary is None:
            return ()
        found = [p for p in dictionary.positions(word) if p.data is None]
    return tuple(p for p in found if MIN_LEFT <= p <= len(word) - MIN_RIGHT)


def hyphenate_word(word: str, lang: str) -> str:
    """``word`` with a soft hyphen at each of its breaks (a view for people and
    tests: ``hyphenate_word("nombro", "eo")`` is ``"nom\\xadbro"``)."""
    pieces, start = [], 0
    for point in word_breaks(word, lang):
        pieces.append(word[start:point])
        start = point
    pieces.append(word[start:])
    return SOFT_HYPHEN.join(pieces)


def _breakable(word: str) -> bool:
    """A word hyphenation may touch: no capital (names of cards, abilities and
    factions), no combining mark (whose letters could be split from it)."""
    return not any(c.isupper() or unicodedata.combining(c) for c in word)


def _flat(children: Sequence[Inline]) -> tuple[str, list[tuple[int, int] | None]]:
    """The paragraph as one string (a drop cap's letters, a symbol as U+FFFC, a line
    break as U+2028) and, per character, its Text node and offset in it (None where
    it is not in a Text node)."""
    chars: list[str] = []
    owners: list[tuple[int, int] | None] = []
    for index, node in enumerate(children):
        if isinstance(node, Text):
            chars.append(node.text)
            owners.extend((index, offset) for offset in range(len(node.text)))
        elif isinstance(node, DropCap):
            chars.append(node.letter)
            owners.extend([None] * len(node.letter))
        elif isinstance(node, Symbol):
            chars.append(_OBJECT)
            owners.append(None)
        elif isinstance(node, LineBreak):
            chars.append(_LINE)
            owners.append(None)
    return "".join(chars), owners


def _line_ends(flat: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """For each line of ``flat`` (to a line break or the end): the spans of its last
    word and of the word bound to it, never hyphenated; and the spaces that bind a
    short last word to the one before it (to become a no-break space)."""
    kept, bind = [], []
    for line in _LINE_END.finditer(flat):
        before, space, last = line.span(1), line.span(2), line.span(3)
        kept.append(last)
        if (
            before[0] >= 0
            and last[1] - last[0] <= SHORT_LAST_WORD
            and before[1] - before[0] + 1 + last[1] - last[0] <= MAX_BOUND
        ):
            kept.append(before)
            bind.append(space)
    return kept, bind


def _in_one_node(
    owners: list[tuple[int, int] | None], start: int, end: int
) -> tuple[int, int] | None:
    """(node, offset) of ``start`` if the characters from ``start`` to ``end`` are all
    in one Text node, else None."""
    first, last = owners[start], owners[end - 1]
    if first is None or last is None or first[0] != last[0]:
        return None
    return first


def _paragraph(paragraph: Paragraph, lang: str) -> Paragraph:
    """``paragraph`` with its soft hyphens and the no-break spaces of its line ends."""
    children = paragraph.children
    flat, owners = _flat(children)
    kept, bind = _line_ends(flat)
    # Per Text node: offset -> what is printed instead of the character there.
    edits: dict[int, dict[int, str]] = {}
    for start, end in bind:
        place = _in_one_node(owners, start, end)
        if place is None:
            continue  # spaces across runs: left as they are
        index, offset = place
        node_edits = edits.setdefault(index, {})
        node_edits[offset] = NO_BREAK_SPACE
        node_edits.update(dict.fromkeys(range(offset + 1, offset + end - start), ""))
    for word in _WORD.finditer(flat):
        start, end = word.span()
        if any(start < k_end and k_start < end for k_start, k_end in kept):
            continue
        # A word touching a drop cap, a symbol or another run is not ours to split.
        place = _in_one_node(owners, start, end)
        if place is None or _OBJECT in flat[max(start - 1, 0) : end + 1]:
            continue
        index, offset = place
        node = children[index]
        if not isinstance(node, Text) or node.bold or node.italic or not _breakable(word.group()):
            continue
        node_edits = edits.setdefault(index, {})
        for point in word_breaks(word.group(), lang):
            at = offset + point
            node_edits[at] = SOFT_HYPHEN + node_edits.get(at, node.text[at])
    if not edits:
        return paragraph
    new_children = list(children)
    for index, node_edits in edits.items():
        node = children[index]
        if isinstance(node, Text):
            text = "".join(node_edits.get(i, c) for i, c in enumerate(node.text))
            new_children[index] = Text(text, node.bold, node.italic, node.pos)
    return Paragraph(tuple(new_children), paragraph.pos, paragraph.emptied)


def hyphenate(document: Document, lang: str) -> Document:
    """A copy of ``document`` for print in ``lang``: soft hyphens where its plain
    words may break, no-break spaces binding short last words (see the module)."""
    return Document(tuple(_paragraph(p, lang) for p in document.paragraphs))


def _isolated(html: str) -> str:
    """``html`` with each word holding soft hyphens in a ``<span>`` of its own.

    WeasyPrint (70) measures a line beside a float by its min-content width, and for
    a text holding a soft hyphen that width runs to the text's last soft hyphen
    (``split_first_line`` with no room lays the text out unwrapped up to it): the
    lines beside a drop cap or a large mark would be pushed below it.  A word in its
    own inline box keeps that error within the word.
    """
    if SOFT_HYPHEN not in html:
        return html
    return "".join(
        f"<span>{part}</span>" if SOFT_HYPHEN in part and part[0] != "<" else part
        for part in _HTML_BREAKS.split(html)
        if part
    )


def hyphenated_html(document: Document, lang: str, symbol: SymbolRenderer = default_symbol) -> str:
    """The print HTML of ``document`` in ``lang``: :func:`hyphenate`'s tree as
    :func:`translator.markup.html.paragraph_html` writes it, hyphenated words
    isolated for WeasyPrint (:func:`_isolated`)."""
    return "\n".join(
        _isolated(paragraph_html(p, symbol)) for p in hyphenate(document, lang).paragraphs
    )
