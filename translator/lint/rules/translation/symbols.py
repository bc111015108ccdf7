"""TR2 rules: the translation has the symbols and the drop cap of its English card."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from ....diagnostics import Severity
from ....markup.tree import SYMBOL_CODES, DropCap, Symbol
from ...context import Reporter, Subject
from ...model import About, Finding, PlainParagraph
from .shared import TRANSLATION_RULES, aligned

#: The family of this module's rules (TR2).
FAMILY = TRANSLATION_RULES.part("TR2")


def _symbols(subject: Subject, source: bool) -> list[Symbol]:
    """The symbols of a text; a drop cap that is a symbol code in the wrong case
    (`:G2:`, not the letter `:M:`) counts as that symbol, since MK102 reports it."""
    result = subject.source.result if source and subject.source else subject.result
    found = []
    for paragraph in result.document.paragraphs:
        for node in paragraph.children:
            if isinstance(node, Symbol):
                found.append(node)
            elif (
                isinstance(node, DropCap)
                and len(node.letter) > 1
                and node.letter.lower() in SYMBOL_CODES
                and not node.letter.islower()
            ):
                found.append(Symbol(node.letter.lower(), node.pos))
    return found


@FAMILY.rule(
    code="TR201",
    name="symbols",
    severity=Severity.ERROR,
    summary="The translation does not have the same cypher and mark symbols as the English text.",
    rationale="Symbols (`:g2:` cypher discs, `:m:` marks, ...) are game information, like numbers: "
    "none may be lost, added or changed in translation.",
    bad="en: :m: Pay :g2: to draw one card.\nfr: :m: Paye :g3: pour piocher une carte.",
    good="en: :m: Pay :g2: to draw one card.\nfr: :m: Paye :g2: pour piocher une carte.",
)
def check_symbols(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    english = [s.code for s in _symbols(subject, True)]
    target = _symbols(subject, False)
    wanted, have = Counter(english), Counter(s.code for s in target)
    if wanted == have:
        return
    missing = ", ".join(f":{c}:" for c in (wanted - have).elements())
    extra_codes = have - wanted
    extra = [s for s in target if extra_codes[s.code] > 0]
    unexpected = ", ".join(f":{c}:" for c in extra_codes.elements())
    message = (
        f"symbols differ from the English text: missing {missing or 'none'}, "
        f"not in the English {unexpected or 'none'}"
    )
    offset = extra[0].pos.offset if extra else None
    about = About(tuple((wanted - have).elements()), tuple(extra_codes.elements()))
    if offset is None:
        yield report.paragraph(subject, None, message, about)
    else:
        yield report.at(subject, "text", offset, message, about=about)


@FAMILY.rule(
    code="TR202",
    name="symbol-order",
    severity=Severity.WARNING,
    summary="The symbols are the same as in English, but in another order.",
    rationale="The order of symbols is part of their meaning (a cost before an effect, the marks "
    "of successive abilities).",
    bad="en: :m1: Draw one card.\n"
    "\n"
    "  :m3: Discard one card.\n"
    "fr: :m3: Pioche une carte.\n"
    "\n"
    "  :m1: Défausse une carte.",
    good="en: :m1: Draw one card.\n"
    "\n"
    "  :m3: Discard one card.\n"
    "fr: :m1: Pioche une carte.\n"
    "\n"
    "  :m3: Défausse une carte.",
)
def check_symbol_order(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    english = [s.code for s in _symbols(subject, True)]
    target = _symbols(subject, False)
    codes = [s.code for s in target]
    if Counter(english) != Counter(codes) or english == codes:
        return
    first = next(i for i, (a, b) in enumerate(zip(english, codes, strict=True)) if a != b)
    yield report.at(
        subject,
        "text",
        target[first].pos.offset,
        f"symbols in another order: {' '.join(english)} in English, {' '.join(codes)} here",
    )


@FAMILY.rule(
    code="TR203",
    name="drop-cap",
    severity=Severity.WARNING,
    summary="The English text opens with a drop cap and the translation has none, or not on "
    "the first letter of its first word.",
    rationale="A drop cap (`:W:hen`) is part of the card's layout; the translation keeps it, on "
    "its own first letter: the first letter of the paragraph's first word "
    "(`:Q:uand`), not the English letter kept before the translated word (`:W:Quand`) "
    "nor a letter further in the text.",
    bad="en: :W:hen I die, draw one card.\nfr: Quand je meurs, pioche une carte.",
    good="en: :W:hen I die, draw one card.\nfr: :Q:uand je meurs, pioche une carte.",
)
def check_drop_cap(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None

    def caps(document_paragraphs: list[PlainParagraph]) -> list[int]:
        return [
            p.index
            for p in document_paragraphs
            if any(isinstance(n, DropCap) for n in p.paragraph.children)
        ]

    english = caps(subject.source.plain.paragraphs)
    if english and not caps(subject.plain.paragraphs):
        index = aligned(subject, english[0])
        yield report.paragraph(subject, index, "the English text has a drop cap; this one has none")
        return
    for paragraph in subject.plain.paragraphs:
        yield from _misplaced_drop_cap(subject, report, paragraph)


def _misplaced_drop_cap(
    subject: Subject, report: Reporter, paragraph: PlainParagraph
) -> Iterator[Finding]:
    """A drop cap that is not the first letter of the paragraph's first word: one left
    after the text (``Quand :J:e``), or the English letter kept before the translated
    word (``:W:Quand``)."""
    for position, (start, node) in enumerate(paragraph.runs):
        if not isinstance(node, DropCap) or len(node.letter) != 1 or not node.letter.isalpha():
            continue  # ':G2:' and the like: the markup rules say what they print
        before = paragraph.text[:start].strip(" \u00a0\u202f*_")
        after = paragraph.text[start + len(node.letter) :]
        if position > 0 and before:
            yield report.span(
                subject,
                paragraph.index,
                start,
                f"the drop cap '{node.letter}' is not at the start of "
                "its paragraph: it must be the first letter of the "
                "first word",
            )
        elif after[:1].isupper():
            word = re.match(r"\w+", after)
            shown = word.group() if word else after[:1]
            yield report.span(
                subject,
                paragraph.index,
                start,
                f"the drop cap '{node.letter}' is not the first letter of '{shown}': "
                f"write ':{shown[0]}:{shown[1:]}'",
            )
