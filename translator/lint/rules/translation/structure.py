"""TR3 rules: the paragraph structure (rule paragraphs, flavour text, line breaks) of the
English card.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....cards.model import SOURCE_LANGUAGE
from ....diagnostics import Severity
from ....markup.ruletext import FLAVOR_QUOTES
from ....markup.tree import Text
from ...context import Reporter, Subject
from ...model import Finding, PlainParagraph
from .shared import TRANSLATION_RULES

#: The family of this module's rules (TR3).
FAMILY = TRANSLATION_RULES.part("TR3")


@FAMILY.rule(
    code="TR301",
    name="paragraphs",
    severity=Severity.WARNING,
    summary="Not the same number of rule paragraphs as the English text.",
    rationale="Each paragraph of rule text is an ability or an effect; a merged or split paragraph "
    "usually means a lost or duplicated rule, and it moves the layout (marks and drop "
    "caps belong to paragraphs).",
    bad="en: Draw one card.\n\n  Discard one card.\nfr: Pioche une carte. Défausse une carte.",
    good="en: Draw one card.\n\n  Discard one card.\nfr: Pioche une carte.\n\n  Défausse une "
    "carte.",
)
def check_paragraphs(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None
    source, target = subject.source.plain, subject.plain
    english, here = len(source.rules), len(target.rules)
    if bool(source.flavor) != bool(target.flavor) and len(source.paragraphs) == len(
        target.paragraphs
    ):
        return  # flavour text in the wrong quotes, read as rule text: TR302 says so
    if english != here and (english or here):
        yield report.paragraph(
            subject,
            None,
            f"{here} rule paragraph{'s' if here != 1 else ''} here, {english} in English",
        )


@FAMILY.rule(
    code="TR302",
    name="flavour",
    severity=Severity.WARNING,
    summary="The English text has flavour text and the translation has none, or the reverse, "
    "or not as many flavour paragraphs.",
    rationale='Flavour text is the last italic paragraph opening with a quote (`"` in English, '
    "`«` in French and Esperanto).  A translation that drops it loses it.  (Flavour "
    "text in another quotation mark, which Aminduna files as rule text, is the "
    "language's quote rule's: FR202, EO.)",
    bad='en: Draw one card.\n\n  *"Steel does not hesitate."*\nfr: Pioche une carte.',
    good="en: Draw one card.\n"
    "\n"
    '  *"Steel does not hesitate."*\n'
    "fr: Pioche une carte.\n"
    "\n"
    "  *«\u00a0L’acier n’hésite pas.\u00a0»*",
)
def check_flavour(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None
    english = bool(subject.source.plain.flavor)
    here = bool(subject.plain.flavor)
    if english and not here and _quoted_otherwise(subject):
        return  # flavour text in other quotation marks: the language's quote rule says so
    if english and not here:
        # The quote that opens the language's flavour text, as Aminduna reads it.
        opening = FLAVOR_QUOTES.get(subject.lang, FLAVOR_QUOTES[SOURCE_LANGUAGE])[0]
        yield report.paragraph(
            subject,
            len(subject.plain.paragraphs) - 1 if subject.plain.paragraphs else None,
            f"the English card has flavour text; here there is none (flavour text is an "
            f"italic paragraph opening with {opening})",
        )
    elif here and not english:
        yield report.paragraph(
            subject, subject.plain.flavor_start, "flavour text that the English card does not have"
        )
    elif english and here:
        wanted, have = len(subject.source.plain.flavor), len(subject.plain.flavor)
        if have > wanted:
            yield report.paragraph(
                subject,
                subject.plain.flavor_start + wanted,
                f"{have} flavour paragraphs here, {wanted} in English: a flavour quote "
                "is repeated or added",
            )
        elif have < wanted:
            yield report.paragraph(
                subject,
                subject.plain.flavor_start + have - 1,
                f"{have} flavour paragraph{'s' if have > 1 else ''} here, {wanted} in "
                "English: part of the flavour text is lost",
            )


def _quoted_otherwise(subject: Subject) -> bool:
    """Does the translation's last paragraph open, in italics, with another quotation
    mark than its language's (flavour text Aminduna will not recognise)?"""
    paragraphs = subject.plain.paragraphs
    if not paragraphs:
        return False
    first = paragraphs[-1].paragraph.children[0]
    return isinstance(first, Text) and first.italic and first.text.lstrip()[:1] in "\"“”„'‘"


@FAMILY.rule(
    code="TR303",
    name="line-breaks",
    severity=Severity.WARNING,
    summary="A paragraph has not the same number of line breaks (`\\`) as in English.",
    rationale="An ability is written as its name, a line break, and its reminder: "
    "`***Name***\\` then `*reminder*`.  A line break lost (or added) inside bold or "
    "italics moves the reminder onto the name's line.",
    bad="en: ***Peaceful***\\\n  *I cannot attack.*\nfr: ***Pacifique*** *Je ne peux pas "
    "attaquer.*",
    good="en: ***Peaceful***\\\n"
    "  *I cannot attack.*\n"
    "fr: ***Pacifique***\\\n"
    "  *Je ne peux pas attaquer.*",
)
def check_line_breaks(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None
    source, target = subject.source.plain.paragraphs, subject.plain.paragraphs
    if len(source) != len(target):
        return
    for english, here in zip(source, target, strict=True):
        if english.line_breaks != here.line_breaks + _inline_ability(english, here):
            yield report.paragraph(
                subject,
                here.index,
                f"{here.line_breaks} line break"
                f"{'s' if here.line_breaks != 1 else ''} in this paragraph, "
                f"{english.line_breaks} in English",
            )


def _inline_ability(english: PlainParagraph, here: PlainParagraph) -> int:
    """1 when ``here`` writes on one line (``***Nom -*** *rappel*``, the French guide's
    own style) the ability that ``english`` writes as a name, a line break and its
    reminder: the line break the English has is then not missing."""
    if (
        english.line_breaks != here.line_breaks + 1
        or here.first_bold() is None
        or english.first_bold() is None
    ):
        return 0
    start = here.reminder_start()
    if start is None or "\n" in here.text[:start]:
        return 0
    return 1
