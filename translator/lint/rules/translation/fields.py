"""TR4 rules: every field is translated, the subtype and the abilities as the glossary
and the abilities list name them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ....diagnostics import Applicability, Severity
from ....glossary.matcher import normalize
from ...context import Reporter, Subject
from ...drafts import draft_english, loose, text_missing
from ...model import AbilityLine, About, Edit, Finding, PlainParagraph
from .shared import TRANSLATION_RULES, aligned

#: The family of this module's rules (TR4).
FAMILY = TRANSLATION_RULES.part("TR4")


@FAMILY.rule(
    code="TR401",
    name="untranslated-field",
    severity=Severity.ERROR,
    summary="A field of the English card (second name line, subtype, text) has no translation, "
    "or a draft still holds it in English: the English one would be printed.",
    rationale="A translation inherits what it does not hold, so a missing `name2`, `subtype` or "
    "text prints the English words on the translated card.  A draft (`wip: true`, as "
    "`translator translate` writes it) keeps in English what the glossary could not "
    "fill: each name line, subtype and paragraph still in English is reported until it "
    "is translated.  A translation with no text at all (as `translator import po` writes "
    "one when only the subtype was translated) gets this finding alone on its text: the "
    "rules about what the text says have nothing to judge.",
    bad="en.name: Warden\nen.name2: of the Tides\nfr.name: Gardien",
    good="en.name: Warden\nen.name2: of the Tides\nfr.name: Gardien\nfr.name2: des marées",
)
def check_untranslated_field(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    for key, what in (("name2", "second name line"), ("subtype", "subtype")):
        english = subject.source_value(key)
        if key == "subtype" and _repeats_type(subject, english):
            continue  # printed once, as the type (an Aminduna city: subtype City)
        if english and not subject.value(key):
            yield report.at(
                subject,
                key,
                0,
                f"no {what}: the English '{english}' would be printed (add '{key}: ...')",
            )
    if text_missing(subject):
        yield report.at(subject, "text", 0, "no card text: the English text would be printed")
    fields, paragraphs = draft_english(subject)
    labels = {"name": "name", "name2": "second name line", "subtype": "subtype"}
    for key in fields:
        yield report.at(
            subject, key, 0, f"draft: the {labels[key]} is still the English '{subject.value(key)}'"
        )
    for index in paragraphs:
        yield report.paragraph(subject, index, f"draft: paragraph {index + 1} is still in English")


@FAMILY.rule(
    code="TR402",
    name="subtype",
    severity=Severity.WARNING,
    summary="The subtype is not the glossary's rendering of the English subtype.",
    rationale="Subtypes are game words: cards refer to them ('each Human you control'), so every "
    "card must spell them the same way.  Compound subtypes follow the language's rule "
    "(French: head noun first, comma, lower case after the first word: 'Seigneur, "
    "humain').",
    bad="en.subtype: Human Lord\nfr.subtype: Seigneur Humain",
    good="en.subtype: Human Lord\nfr.subtype: Seigneur, humain",
    fix="Replaces the subtype by the glossary's rendering.",
    applicability=Applicability.SAFE,
)
def check_subtype(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    english, here = subject.source_value("subtype"), subject.value("subtype")
    if not english or not here:
        return
    expected = subject.language.subtype(english)
    if expected is None and _repeats_type(subject, english):
        expected = subject.language.glossary.preferred("type", english)
    if expected is None or expected == here:
        return
    how = "capitalised differently" if expected.casefold() == here.casefold() else "different"
    yield report.at(
        subject,
        "subtype",
        0,
        f"subtype '{here}' is {how} from the glossary's '{expected}' (English '{english}')",
        Edit("subtype", 0, len(here), expected),
    )


def _repeats_type(subject: Subject, english_subtype: str) -> bool:
    """Is the English subtype the card type again (Aminduna imports a city, an event,
    ... with its type as its subtype)?  The card prints it once, as the type."""
    card_type = subject.source_value("type")
    return bool(english_subtype) and english_subtype.casefold() == card_type.casefold()


def source_abilities(subject: Subject) -> list[tuple[int, str, list[str]]]:
    """Abilities of the English text: (paragraph, ability id, parameter values).

    An ability is a line opening with a bold run that starts with an ability's English
    name (`***Salvage 2***`), the words after the name its parameters: the paragraph's
    first line, or a later one when a paragraph defines several abilities
    (:meth:`~translator.lint.model.PlainParagraph.ability_lines`).
    """
    return [(index, ability_id, values) for index, _, ability_id, values in _source_lines(subject)]


def _source_lines(subject: Subject) -> list[tuple[int, AbilityLine, str, list[str]]]:
    """The English abilities with their lines (TR404 reads their reminders)."""
    assert subject.source is not None
    source = subject.source
    return source.memo(("abilities", subject.lang), lambda: _abilities(subject))


def _abilities(subject: Subject) -> list[tuple[int, AbilityLine, str, list[str]]]:
    assert subject.source is not None
    by_english = subject.language.abilities_by_english
    test = ability_test(subject, english=True)
    found = []
    for paragraph in subject.source.plain.paragraphs:
        for line in paragraph.ability_lines(test):
            ability = ability_line(line.name, by_english)
            if ability is not None:
                found.append((paragraph.index, line, *ability))
    return found


def ability_line(line: str, by_english: dict[str, str]) -> tuple[str, list[str]] | None:
    """(ability id, parameter values) of an English ability line (`Salvage 2`): the
    longest ability name it starts with, and the words after it."""
    tokens = line.split()
    for n in range(len(tokens), 0, -1):
        ability = by_english.get(normalize(" ".join(tokens[:n])))
        if ability is not None:
            return ability, tokens[n:]
    return None


def ability_test(subject: Subject, english: bool = False) -> Callable[[str], bool]:
    """Does a bold heading name an ability (of the English list, or of the translation's
    list, its deprecated names included)?  What tells a paragraph's second ability from
    a reminder in bold (:meth:`~translator.lint.model.PlainParagraph.ability_lines`)."""
    if english:
        by_english = subject.language.abilities_by_english
        return lambda line: ability_line(line, by_english) is not None
    names = subject.language.memo(
        "ability heading names",
        lambda: sorted(
            {
                normalize(name)
                for a in subject.language.glossary.abilities.values()
                for name in (a.name, *(t.text for t in a.deprecated))
            }
        ),
    )
    return lambda line: any(_starts_with(line, name) for name in names)


def _starts_with(line: str, name: str) -> bool:
    line, name = normalize(line), normalize(name)
    return line == name or line.startswith(name + " ")


def ability_paragraph(subject: Subject, names: list[str], hint: int | None) -> int | None:
    """The translated paragraph with a line naming one of ``names`` (the aligned one,
    ``hint``, if it has one)."""
    found = _ability_heading(subject, names, hint)
    return None if found is None else found[0]


def _ability_heading(
    subject: Subject, names: list[str], hint: int | None
) -> tuple[int, AbilityLine] | None:
    test = ability_test(subject)
    candidates = [
        (p.index, line)
        for p in subject.plain.paragraphs
        for line in p.ability_lines(test)
        if any(_starts_with(line.name, n) for n in names)
    ]
    if not candidates:
        return None
    return next((c for c in candidates if c[0] == hint), candidates[0])


def _reminder(paragraph: PlainParagraph, line: AbilityLine) -> str:
    """The reminder of an ability line ('' if it has none)."""
    return "" if line.reminder is None else paragraph.text[slice(*line.reminder)]


@FAMILY.rule(
    code="TR403",
    name="ability-name",
    severity=Severity.WARNING,
    summary="The English text uses an ability of the abilities list; the translation does not "
    "name it as the list does.",
    rationale="Abilities are keywords: players look them up by name in the abilities list, so a "
    "card must use the list's name (in bold italics, followed by its parameters).  "
    "Every ability is checked, also several defined in one paragraph, a line each.",
    bad="en: ***Overrun***\\\n"
    "  *The surplus of unblocked damage I deal is carried over to the attacked city.*\n"
    "fr: ***Piétinement***\\\n"
    "  *Le surplus de dégâts non bloqués que j’inflige est reporté sur la cité attaquée.*",
    good="en: ***Overrun***\\\n"
    "  *The surplus of unblocked damage I deal is carried over to the attacked city.*\n"
    "fr: ***Débordement***\\\n"
    "  *Le surplus de dégâts non bloqués que j’inflige est reporté sur la cité attaquée.*",
)
def check_ability_name(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    abilities = subject.language.glossary.abilities
    for index, ability_id, values in source_abilities(subject):
        ability = abilities[ability_id]
        names = [ability.name, *(t.text for t in ability.deprecated)]
        if ability_paragraph(subject, names, aligned(subject, index)) is None:
            named = (
                substitute(ability.template, ability.params, values)
                if ability.template
                else ability.name
            )
            english = " ".join([ability.en, *values])
            yield report.paragraph(
                subject,
                aligned(subject, index),
                f"the English text has the ability '{english}': name it '{named}' in bold italics",
                About(english=(english,)),
            )


def substitute(reminder: str, params: tuple[str, ...], values: list[str]) -> str:
    """An ability's template or reminder with the card's parameter values."""
    if len(params) != len(values):
        return reminder
    for param, value in zip(params, values, strict=True):
        reminder = re.sub(rf"(?<!\w){re.escape(param)}(?!\w)", value, reminder)
    return reminder


@FAMILY.rule(
    code="TR404",
    name="ability-reminder",
    severity=Severity.WARNING,
    summary="An ability's reminder text differs from the abilities list, where the English card "
    "follows the English list.",
    rationale="The reminder text under an ability name is the list's definition, with the card's "
    "parameters.  When the English card uses the English list's wording, the "
    "translation uses the translated list's wording (differences of case, apostrophes "
    "and spaces are not reported).  The reminder is its italic run: text after it on "
    "the same line (`***Vol -*** *rappel* Pioche une carte.`) is the card's own.  Where "
    "the list itself is wrong, say so with `lint-ignore` in the card and fix the list.",
    bad="en: ***Salvage 2***\\\n"
    "  *You may pay 2 resources to return me to your hand from the graveyard.*\n"
    "fr: ***Sauvetage 2***\\\n"
    "  *Tu peux payer 2 ressources pour revenir dans ta main.*",
    good="en: ***Salvage 2***\\\n"
    "  *You may pay 2 resources to return me to your hand from the graveyard.*\n"
    "fr: ***Sauvetage 2***\\\n"
    "  *Tu peux payer 2 ressources pour me faire revenir du cimetière vers ta main.*",
)
def check_ability_reminder(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None
    english_list = subject.resources.english.glossary.abilities
    target_list = subject.language.glossary.abilities
    for index, source_line, ability_id, values in _source_lines(subject):
        english, target = english_list.get(ability_id), target_list[ability_id]
        reminder = _reminder(subject.source.plain.paragraphs[index], source_line)
        if english is None or not reminder or not target.reminder:
            continue
        if loose(substitute(english.reminder, english.params, values)) != loose(reminder):
            continue  # the English card words it its own way: nothing to compare with
        found = _ability_heading(subject, [target.name], aligned(subject, index))
        if found is None:
            continue  # TR403
        at, line = found
        own_values = line.name.split()[len(target.name.split()) :]
        if len(own_values) != len(target.params):
            own_values = values
        expected = substitute(target.reminder, target.params, own_values)
        here = _reminder(subject.plain.paragraphs[at], line)
        if here and line.reminder and loose(here) != loose(expected):
            yield report.span(
                subject,
                at,
                line.reminder[0],
                f"the reminder of '{target.name}' is not the list's: '{expected}'",
            )
