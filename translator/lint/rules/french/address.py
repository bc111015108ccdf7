"""FR1 rules: how the French card speaks.

The form of address (FR101: tu, not vous), the gender of *la joueureuse* (FR102), and
numbers in digits or letters as the English writes them (FR103).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....diagnostics import Applicability, Severity
from ...context import Reporter, Subject
from ...model import Finding
from ...numbers import Number, read_numbers
from ..translation import aligned
from .shared import (
    FRENCH_RULES,
    english_paragraphs,
    feminine_determiners,
    sentence_start,
    word_list,
)

#: The family of this module's rules (FR1).
FAMILY = FRENCH_RULES.part("FR1")


@FAMILY.rule(
    code="FR101",
    name="tutoiement",
    severity=Severity.WARNING,
    summary="`vous`, `votre`, `vos` or an imperative in -ez: the guide says tu.",
    rationale="The guide (Tutoiement): « On tutoie la joueureuse. Et on lui parle à l'impératif. » "
    "(your -> ton, you -> tu).  Its own Example 2 still has the old form: « Faites "
    "piocher une carte au joueur ciblé. »",
    bad="en: Draw two cards and put them into your hand.\n"
    "fr: Piochez deux cartes et placez-les dans votre main.",
    good="en: Draw two cards and put them into your hand.\n"
    "fr: Pioche deux cartes et place-les dans ta main.",
)
def check_tutoiement(subject: Subject, report: Reporter) -> Iterator[Finding]:
    english = english_paragraphs(subject)
    for paragraph in subject.plain.paragraphs:
        if paragraph.index in english:
            continue
        for word, start, end in paragraph.tokens:
            head = word.split("-")[0]
            if word in word_list("vous-words"):
                yield report.span(
                    subject,
                    paragraph.index,
                    start,
                    f"'{paragraph.text[start:end]}': the guide says tu (ton, ta, tes)",
                )
            elif (
                head in word_list("vous-imperatives")
                or (
                    head.endswith("ez")
                    and len(head) > 4
                    and head not in word_list("not-imperatives")
                )
            ) and sentence_start(paragraph.text, start):
                yield report.span(
                    subject,
                    paragraph.index,
                    start,
                    f"'{paragraph.text[start:end]}': the imperative is in tu, not vous",
                )


_PLAYER = re.compile(r"\b(joueureuses?)\b", re.IGNORECASE)
_DETERMINER = re.compile(r"(\w+)[ \u00a0]+$")
_PARTICIPLE = re.compile(r"^[ \u00a0]+(\w+)")


@FAMILY.rule(
    code="FR102",
    name="joueureuse-gender",
    severity=Severity.WARNING,
    summary="*joueureuse* is always feminine: `la`, `une`, `de la`, `ciblée`.",
    rationale="The guide (Genre): « « La joueureuse » toujours au féminin ».  Masculine "
    "determiners (le, un, du, au, ce) and masculine participles after it (ciblé, "
    "attaqué) are reported, with the feminine as the fix.  *joueur* and *joueuse* "
    "themselves are deprecated glossary terms (GL201).",
    bad="en: Target player draws one card.\nfr: Le joueureuse ciblé pioche une carte.",
    good="en: Target player draws one card.\nfr: La joueureuse ciblée pioche une carte.",
    fix="Replaces the determiner (le -> la, un -> une, du -> de la, au -> à la, ce -> "
    "cette) or adds the -e of the participle.",
    applicability=Applicability.SAFE,
)
def check_joueureuse(subject: Subject, report: Reporter) -> Iterator[Finding]:
    english = english_paragraphs(subject)
    for paragraph in subject.plain.paragraphs:
        if paragraph.index in english:
            continue
        text = paragraph.text
        for match in _PLAYER.finditer(text):
            plural = match.group(1).lower().endswith("s")
            before = _DETERMINER.search(text[: match.start()])
            masculine = feminine_determiners()
            if before and not plural and before.group(1).lower() in masculine:
                word = before.group(1)
                feminine = masculine[word.lower()]
                if feminine:
                    if word[:1].isupper():
                        feminine = feminine[:1].upper() + feminine[1:]
                    edit = subject.text_edit(
                        paragraph.index, before.start(1), before.end(1), feminine
                    )
                    yield report.span(
                        subject,
                        paragraph.index,
                        before.start(1),
                        f"'{word} {match.group(1)}': la joueureuse is feminine ('{feminine}')",
                        edit,
                    )
            after = _PARTICIPLE.match(text[match.end() :])
            if after:
                word = after.group(1)
                lower = word.lower()
                if lower.endswith("é") or (plural and lower.endswith("és")):
                    start = match.end() + after.start(1)
                    feminine = word + "e" if lower.endswith("é") else word[:-1] + "es"
                    edit = subject.text_edit(paragraph.index, start, start + len(word), feminine)
                    yield report.span(
                        subject,
                        paragraph.index,
                        start,
                        f"'{match.group(1)} {word}': the participle "
                        f"agrees with la joueureuse ('{feminine}')",
                        edit,
                    )


@FAMILY.rule(
    code="FR103",
    name="digits-and-letters",
    severity=Severity.WARNING,
    summary="Damage and costs in digits, other quantities in letters, as the English writes them.",
    rationale="The guide (Des chiffres et des lettres): « On conserve la notation en chiffre "
    "utilisée en anglais : Les dégats et les coûts en chiffres, le reste en lettres. » "
    "(« Deal 3 dammage. » -> « Inflige 3 dégâts. »; « Draw two cards. » -> « Pioche "
    "deux cartes. »).  A number the English writes in letters is written in letters, one "
    "it writes in digits in digits; damage is always in digits.",
    bad="en: Draw two cards.\nfr: Pioche 2 cartes.",
    good="en: Draw two cards.\nfr: Pioche deux cartes.",
    fix="Writes the number as the English does (not for 1, whose gender the rule cannot "
    "tell: un or une).",
    applicability=Applicability.SAFE,
)
def check_digits_and_letters(subject: Subject, report: Reporter) -> Iterator[Finding]:
    assert subject.source is not None
    words = subject.language.numbers
    in_english = english_paragraphs(subject)
    for paragraph in subject.plain.paragraphs:
        if paragraph.index in in_english:
            continue
        english = _english_roles(subject, paragraph.index)
        for number in read_numbers(paragraph.text, words, paragraph.tokens):
            found = _notation_fault(number, paragraph.text, english, subject.language.spellings)
            if found is None:
                continue
            replacement, why = found
            written = paragraph.text[number.start : number.end]
            edit = (
                subject.text_edit(paragraph.index, number.start, number.end, replacement)
                if replacement
                else None
            )
            yield report.span(
                subject,
                paragraph.index,
                number.start,
                f"'{written}': {why}" + (f" ('{replacement}')" if replacement else ""),
                edit,
            )


def _english_roles(subject: Subject, index: int) -> dict[str, set[str]]:
    """How the English paragraph aligned with paragraph ``index`` writes each of its
    numbers: in digits (``number``), in letters (``word``), or both; empty when no
    English paragraph is aligned with it."""
    assert subject.source is not None
    english: dict[str, set[str]] = {}
    aligned_index = aligned(subject, index)
    if aligned_index is not None:
        source = subject.source.plain.paragraphs[aligned_index]
        for number in read_numbers(source.text, subject.resources.english.numbers, source.tokens):
            english.setdefault(number.value, set()).add(number.role)
    return english


def _notation_fault(
    number: Number, text: str, english: dict[str, set[str]], spellings: dict[str, str]
) -> tuple[str, str] | None:
    """(replacement, why) when ``number`` of the French ``text`` is written otherwise
    than the guide wants: in digits before a damage or cost noun, else as the English
    writes it (``english``: how it writes each number); None when it is right, or when
    the English is no guide (a stat, X, a signed number, a number written both ways).
    The replacement is empty for 1, whose gender (un, une) the rule cannot tell."""
    if number.role == "stat" or number.value == "x" or number.value.startswith(("+", "-")):
        return None
    following = text[number.end :].split(maxsplit=1)
    noun = following[0].strip(".,;:!?").lower() if following else ""
    digit_noun = noun in word_list("digit-nouns")
    if digit_noun:
        wanted = "number"
    else:
        roles = english.get(number.value, set())
        if len(roles) != 1 or roles == {number.role}:
            return None
        wanted = next(iter(roles))
    if wanted == number.role:
        return None
    if wanted == "number":
        why = "damage and costs in digits" if digit_noun else "the English writes it in digits"
        return number.value, why
    # un or une: the gender of what follows decides, not this rule
    replacement = spellings.get(number.value, "") if number.value != "1" else ""
    return replacement, "the English writes it in letters"
