"""FR4 rules: the hyphen of an imperative with its pronoun (FR401) and the guide's
pre-print checklist (FR402: the three spell types listed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....diagnostics import Applicability, Severity
from ....languages.fr import LANGUAGE as FRENCH
from ...context import Reporter, Subject
from ...model import Finding
from .shared import FRENCH_RULES, sentence_start, word_list

#: The family of this module's rules (FR4).
FAMILY = FRENCH_RULES.part("FR4")


#: An enclitic pronoun after a space (checked against the language's enclitics).
#: A pattern, not a list: what may follow tells a pronoun from an article (moi, toi,
#: lui, nous anywhere; la, le, les, en, y only before punctuation).
_PRONOUN = re.compile(
    r"(?<=\w) (moi|toi|lui|nous)(?=[\s.,;:!?\u00a0\u202f]|$)|"
    r"(?<=\w) (la|le|les|en|y)(?=[.,;:!?\u00a0\u202f]|$)"
)


@FAMILY.rule(
    code="FR401",
    name="imperative-hyphen",
    severity=Severity.WARNING,
    summary="An imperative and its pronoun are joined by a hyphen: Sacrifie-moi, Défausse-la.",
    rationale="French writes the pronoun after an imperative with a hyphen.  The guide's own "
    "example lacks it: « Sacrifie moi pour produire une ressource des Enfants de Gaïa. "
    "»  Reported when a sentence opens with a verb followed by moi, toi, lui, nous, or "
    "by le, la, les, en, y before a punctuation mark (otherwise they are articles).",
    bad="en: Sacrifice me to produce one Gaian resource.\n"
    "fr: Sacrifie moi pour produire une ressource des Enfants de Gaïa.",
    good="en: Sacrifice me to produce one Gaian resource.\n"
    "fr: Sacrifie-moi pour produire une ressource des Enfants de Gaïa.",
    fix="Replaces the space by a hyphen.",
    applicability=Applicability.SAFE,
)
def check_imperative_hyphen(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for paragraph in subject.plain.paragraphs:
        text = paragraph.text
        for match in _PRONOUN.finditer(text):
            pronoun = match.group(1) or match.group(2)
            if pronoun not in FRENCH.enclitics:
                continue
            verb = re.search(r"(\w+)$", text[: match.start()])
            if (
                verb is None
                or verb.group(1).lower() in word_list("not-verbs")
                or not sentence_start(text, verb.start(1))
            ):
                continue
            edit = subject.text_edit(paragraph.index, match.start(), match.start() + 1, "-")
            yield report.span(
                subject,
                paragraph.index,
                verb.start(1),
                f"'{verb.group(1)} {pronoun}': write '{verb.group(1)}-{pronoun}'",
                edit,
            )


_SPELL_TYPES = re.compile(r"\b(enchantements?|magies?|[ée]v[èé]nements?)\b", re.IGNORECASE)


@FAMILY.rule(
    code="FR402",
    name="spell-enumeration",
    severity=Severity.WARNING,
    summary="The three spell types listed (enchantements, magie, évènements): write « sorts ».",
    rationale="The guide's pre-print checklist: « Remplacer les énumérations « enchantements, "
    "magie, évènements » par « sorts » (spells) ».  Any order and any joining words; "
    "the exact phrase is also a deprecated glossary term (GL201).",
    bad="en: I cannot be the target of spells.\n"
    "fr: Je ne peux pas être la cible d’évènements, de magies ou d’enchantements.",
    good="en: I cannot be the target of spells.\nfr: Je ne peux pas être la cible de sorts.",
)
def check_spell_enumeration(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for paragraph in subject.plain.paragraphs:
        found = list(_SPELL_TYPES.finditer(paragraph.text))
        for i in range(len(found) - 2):
            first, last = found[i], found[i + 2]
            kinds = {m.group(1)[:2].lower().replace("é", "e") for m in found[i : i + 3]}
            if len(kinds) == 3 and last.end() - first.start() < 80:
                yield report.span(
                    subject,
                    paragraph.index,
                    first.start(),
                    "the three spell types listed: write « sorts »",
                )
                break
