"""TR1 rules: the numbers of the English text, with their signs, are in the translation."""

from __future__ import annotations

from collections.abc import Iterator

from ....diagnostics import Severity
from ...context import Reporter, Subject
from ...model import About, Finding
from ...numbers import Comparison, Number, compare, read_numbers
from .shared import TRANSLATION_RULES

#: The family of this module's rules (TR1).
FAMILY = TRANSLATION_RULES.part("TR1")


def _number_pairs(subject: Subject) -> Iterator[tuple[int | None, list[Number], list[Number]]]:
    """(translation paragraph index or None, source numbers, translation numbers):
    paragraph by paragraph when the structure matches, else of the whole texts."""
    assert subject.source is not None
    english = subject.resources.english.numbers
    phrases = subject.resources.english.phrases
    numbers = subject.language.numbers
    source = subject.source.plain.paragraphs
    target = subject.plain.paragraphs
    memo = subject.source.memo
    if len(source) == len(target):
        english_numbers = memo(
            "numbers", lambda: [read_numbers(p.text, english, p.tokens, phrases) for p in source]
        )
        for found, t in zip(english_numbers, target, strict=True):
            yield t.index, found, read_numbers(t.text, numbers, t.tokens)
    else:
        yield (
            None,
            memo(
                "numbers of the text",
                lambda: read_numbers("\n".join(p.text for p in source), english, phrases=phrases),
            ),
            read_numbers("\n".join(p.text for p in target), numbers),
        )


def _comparisons(subject: Subject) -> list[tuple[int | None, Comparison]]:
    """(translation paragraph index or None, comparison) of each pair of
    :func:`_number_pairs`: made once per subject for the four TR1 rules."""
    if not subject.is_translation:
        return []
    return subject.memo(
        "TR1",
        lambda: [
            (index, compare(english, here)) for index, english, here in _number_pairs(subject)
        ],
    )


def _report(
    report: Reporter,
    subject: Subject,
    index: int | None,
    start: int | None,
    message: str,
    about: About,
) -> Finding:
    """A TR1 finding: at ``start`` of paragraph ``index``, or on the whole paragraph
    (the text, when the paragraphs do not pair up); ``about``: the values compared."""
    if index is None or start is None:
        return report.paragraph(subject, index, message, about)
    return report.span(subject, index, start, message, about=about)


def _where(index: int | None) -> str:
    return "" if index is None else " in this paragraph"


@FAMILY.rule(
    code="TR101",
    name="stat-modifier",
    severity=Severity.ERROR,
    summary="A stat modifier of the English text (`+1/+1`, `-x/+0`) is missing or changed.",
    rationale="Signs and order are the meaning of a stat modifier: `+1/+1` is a blessing, `-1/-1` "
    "a curse, and `+2/+0` is not `+0/+2`.  Translation tools compare digits without "
    "their signs and let such slips through.  Every modifier of the English text must "
    "be in the translation as written (a typographic minus counts as a minus).",
    bad="en: Target creature gets -1/-1.\nfr: La créature ciblée reçoit +1/+1.",
    good="en: Target creature gets -1/-1.\nfr: La créature ciblée reçoit -1/-1.",
)
def check_stat_modifiers(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for index, result in _comparisons(subject):
        if result.missing_stats or result.extra_stats:
            missing = ", ".join(result.missing_stats) or "nothing"
            extra = ", ".join(n.value for n in result.extra_stats) or "nothing"
            first = result.extra_stats[0].start if result.extra_stats else None
            yield _report(
                report,
                subject,
                index,
                first,
                f"stat modifiers differ{_where(index)}: the English has "
                f"{missing} where the translation has {extra}",
                About(tuple(result.missing_stats), tuple(n.value for n in result.extra_stats)),
            )


@FAMILY.rule(
    code="TR102",
    name="stat-order",
    severity=Severity.WARNING,
    summary="The stat modifiers are all there, but in another order.",
    rationale="When a text gives several modifiers (`+1/+0`, then `+0/+1`), their order follows "
    "the order of the effects; swapping them swaps the effects.",
    bad="en: I get +1/+0, then +0/+1.\nfr: Je reçois +0/+1, puis +1/+0.",
    good="en: I get +1/+0, then +0/+1.\nfr: Je reçois +1/+0, puis +0/+1.",
)
def check_stat_order(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for index, result in _comparisons(subject):
        if result.stat_order:
            english_order, target_order = result.stat_order
            yield _report(
                report,
                subject,
                index,
                None,
                f"stat modifiers in another order{_where(index)}: "
                f"{' '.join(english_order)} in English, {' '.join(target_order)} here",
                About(tuple(english_order), tuple(target_order)),
            )


@FAMILY.rule(
    code="TR103",
    name="missing-number",
    severity=Severity.ERROR,
    summary="A number of the English text (digits, a number word or X) is not in the translation.",
    rationale="Costs, damage, card counts and the variable X must survive translation.  A number "
    "word counts as its number in every language ('two cards' matches 'deux cartes' and "
    "'du kartojn', not 'trois cartes'); a sign is part of the number (+2 is not 2).",
    bad="en: Draw two cards.\nfr: Pioche trois cartes.",
    good="en: Draw two cards.\nfr: Pioche deux cartes.",
)
def check_missing_numbers(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for index, result in _comparisons(subject):
        if result.missing_numbers:
            yield _report(
                report,
                subject,
                index,
                None,
                f"number{'s' if len(result.missing_numbers) > 1 else ''} "
                f"{', '.join(result.missing_numbers)} of the English text missing{_where(index)}",
                About(english=tuple(result.missing_numbers)),
            )


@FAMILY.rule(
    code="TR104",
    name="extra-number",
    severity=Severity.WARNING,
    summary="Digits in the translation that the English text does not have.",
    rationale="A number that appears only in the translation is usually a typo or a value "
    "carried over from another card.  Number words are not reported (French 'un', "
    "'une' are also articles).",
    bad="en: Deal 2 damage to target creature.\nfr: Inflige 2 dégâts à la créature ciblée et 1 à "
    "toi.",
    good="en: Deal 2 damage to target creature.\nfr: Inflige 2 dégâts à la créature ciblée.",
)
def check_extra_numbers(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for index, result in _comparisons(subject):
        for number in result.extra_numbers:
            yield _report(
                report,
                subject,
                index,
                number.start,
                f"'{number.value}' is not in the English text"
                + ("" if index is None else " of this paragraph"),
                About(translation=(number.value,)),
            )
