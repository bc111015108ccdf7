"""TR5 rules: English left in the translation (the whole text, the name, glossary terms,
words).
"""

from __future__ import annotations

from collections.abc import Iterator

from ....diagnostics import Severity
from ....glossary.matcher import words
from ...context import Reporter, Subject
from ...drafts import all_allowed, draft_english, english_runs
from ...model import Finding
from .shared import TRANSLATION_RULES

#: The family of this module's rules (TR5).
FAMILY = TRANSLATION_RULES.part("TR5")


@FAMILY.rule(
    code="TR501",
    name="same-as-english",
    severity=Severity.WARNING,
    summary="The card text is the English text, unchanged.",
    rationale="A text identical to its source was copied and not translated (a draft, or a file "
    "overwritten by mistake).  A text made only of the target language's glossary words "
    "(`***Boost***`) is not reported.",
    bad="en: Draw one card.\nfr: Draw one card.",
    good="en: Draw one card.\nfr: Pioche une carte.",
)
def check_same_text(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation or draft_english(subject)[1]:
        return  # a draft's English paragraphs are TR401's
    here = subject.value("text").strip()
    if (
        here
        and here == subject.source_value("text").strip()
        and not all_allowed(
            subject, [w for p in subject.plain.paragraphs for w, _, _ in p.tokens], False
        )
    ):
        yield report.paragraph(subject, None, "the card text is the English text")


@FAMILY.rule(
    code="TR502",
    name="same-name-as-english",
    severity=Severity.INFO,
    summary="The card name (or subtype) is the English one.",
    rationale="Card names are translated, except proper nouns.  Reported as information: a name "
    "kept on purpose can be marked with `lint-ignore: [TR502]`.  A name made of the "
    "target glossary's own words (Unique, Charge) is not reported.",
    bad="en.name: Harbor Lord\nfr.name: Harbor Lord",
    good="en.name: Harbor Lord\nfr.name: Seigneur du port",
)
def check_same_name(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    for key in ("name", "name2", "subtype"):
        here = subject.value(key)
        if not here or here != subject.source_value(key) or key in draft_english(subject)[0]:
            continue  # a draft's English fields are TR401's
        if key == "subtype":
            if subject.language.subtype(here) is not None:
                continue  # TR402 compares it with the glossary's rendering
        elif all_allowed(subject, [w for w, _, _ in words(here)], names=False):
            continue  # the target language's own words too (Unique, Charge, Boost)
        yield report.at(subject, key, 0, f"'{here}' is the English {key}")


@FAMILY.rule(
    code="TR503",
    name="english-term",
    severity=Severity.WARNING,
    summary="An English glossary term or ability name in the translation.",
    rationale="Game words left in English ('army', 'Overrun') are the most common trace of an "
    "unfinished translation.  Words that are also the target language's (a term of its "
    "glossary, 'Charge', 'Boost') and card names are not reported.",
    bad="en: Deal 2 damage to target creature.\nfr: Inflige 2 damage à la créature ciblée.",
    good="en: Deal 2 damage to target creature.\nfr: Inflige 2 dégâts à la créature ciblée.",
)
def check_english_terms(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    glossary = subject.language.glossary
    drafted = set(draft_english(subject)[1])  # a draft's English paragraphs are TR401's
    for paragraph in subject.plain.paragraphs:
        if paragraph.index in drafted:
            continue
        for match in subject.language.english.find(paragraph.text, paragraph.tokens):
            if all_allowed(subject, [w for w, _, _ in words(match.text)]):
                continue
            hit = match.hit
            if hit.kind == "ability":
                ability = glossary.abilities.get(hit.id)
                target = ability.name if ability else None
            else:
                entry = glossary.entries.get(hit.id)
                target = entry.preferred.text if entry and entry.preferred else None
            use = f": use '{target}'" if target else ""
            yield report.span(
                subject,
                paragraph.index,
                match.start,
                f"English {'ability' if hit.kind == 'ability' else 'term'} "
                f"'{match.text}' left in the translation{use}",
            )


@FAMILY.rule(
    code="TR504",
    name="english-words",
    severity=Severity.WARNING,
    summary="English words in the translation.",
    rationale="Frequent English words of game text ('the', 'your', 'draw', 'when') are not French "
    "or Esperanto words: a sentence left in English, or half-translated.  The word list "
    "(glossaries/lint/en.yaml) leaves out words a target language shares; glossary "
    "words, card names and the configured `allow-english` words are never reported.",
    bad="en: When I come into play, draw one card.\nfr: Quand j’entre en jeu, draw one card.",
    good="en: When I come into play, draw one card.\nfr: Quand j’entre en jeu, pioche une carte.",
)
def check_english_words(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    drafted = set(draft_english(subject)[1])  # a draft's English paragraphs are TR401's
    for paragraph in subject.plain.paragraphs:
        if paragraph.index in drafted:
            continue
        for start, end in english_runs(subject, paragraph):
            yield report.span(
                subject,
                paragraph.index,
                start,
                f"English left in the translation: '{paragraph.text[start:end]}'",
            )
