"""GL1 rules: a term the English text uses is rendered with the glossary's term (GL101),
factions and types (GL102), subtypes in the text (GL103), and a phrase of the English
effect (how long, while what, for each what) with one of its renderings (GL104).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from enum import Enum

from .... import languages
from ....diagnostics import Severity
from ....glossary.inflection import forms as inflect
from ....glossary.matcher import Match, Matcher, normalize, words
from ....glossary.model import Entry, Glossary
from ...context import Language, Reporter, Subject
from ...model import About, Finding
from ..esperanto import h_system, x_system
from ..translation import (
    aligned,
    draft_english,
)
from .shared import GLOSSARY_RULES, english_reminders, glossary_name, usable

#: The family of this module's rules (GL1).
FAMILY = GLOSSARY_RULES.part("GL1")


class _Missing(Enum):
    """Which GL1 rule reports a missing term: the one of its entry's section."""

    TERM = "term"  # GL101
    FACTION_OR_TYPE = "faction or type"  # GL102
    SUBTYPE = "subtype"  # GL103


_SECTIONS = {
    "faction": _Missing.FACTION_OR_TYPE,
    "type": _Missing.FACTION_OR_TYPE,
    "subtype": _Missing.SUBTYPE,
}


def _missing_terms(subject: Subject, report: Reporter, kind: _Missing) -> Iterator[Finding]:
    """The findings of one GL1 rule; the three share one pass per subject."""
    if not subject.is_translation:
        return
    for found, index, message, english in subject.memo(
        "GL1", lambda: list(_all_missing_terms(subject))
    ):
        if found is kind:
            yield report.paragraph(subject, index, message, About(english=(english,)))


def _all_missing_terms(subject: Subject) -> Iterator[tuple[_Missing, int | None, str, str]]:
    """(rule, translated paragraph, message, the English term as written) of each
    English term whose rendering is
    missing: one pass for the three rules, since a term reported by one is not by
    another."""
    assert subject.source is not None
    entries = subject.language.glossary.entries
    reminders = english_reminders(subject)
    # One English word may name several concepts ('play': the noun and the verb):
    # the matches of one span are alternatives, and any of them will do.
    spans: dict[tuple[int, int, int], list[Match]] = defaultdict(list)
    for index, match in subject.source.english_matches(subject.language):
        if match.hit.kind == "english" and usable(entries.get(match.hit.id)):
            if index in reminders and match.start >= reminders[index]:
                continue  # the list's own reminder: the list is the authority
            spans[(index, match.start, match.end)].append(match)
    reported: set[str] = set()
    #: English spans of the terms reported here: GL104 does not report a phrase again
    #: for the term GL101 already reports in it ('in combat' without 'combat').
    missing = subject.cache["GL1-spans"] = []
    phrases = missing_phrases(subject)
    drafted = set(draft_english(subject)[1])  # still English in a draft: TR401's
    for (index, start, end), matches in spans.items():
        if drafted and aligned(subject, index) in drafted:
            continue
        ids = [m.hit.id for m in matches]
        kind = _SECTIONS.get(entries[ids[0]].section, _Missing.TERM)
        if reported.intersection(ids):
            missing.append((index, start, end))
            continue
        if any(subject.uses(entry_id) for entry_id in ids):
            continue
        if any(i == index and m.start <= start and end <= m.end for i, _, m in phrases):
            continue  # GL104 reports the phrase the term is part of
        if kind is _Missing.SUBTYPE and any(_compound_used(subject, entries[i]) for i in ids):
            continue
        reported.update(ids)
        missing.append((index, start, end))
        terms = [t.text for entry_id in ids for t in entries[entry_id].terms if not t.deprecated]
        choice = " or ".join(f"'{t}'" for t in terms)
        yield (
            kind,
            aligned(subject, index),
            f"the English text says '{matches[0].text}': the {glossary_name(subject)} says "
            f"{choice} (any form), not found here",
            matches[0].text,
        )


_STATS = re.compile(r"^[+\-−]?(?:\d+|x|y)$")


def _compound_used(subject: Subject, entry: Entry) -> bool:
    """Is a compound subtype's rendering in the text with words between its parts?

    A token's stats or an article may stand between « jeton » and the rest (« un
    jeton 1/1 orc », « un jeton de gobelin »; *Orko 1/1 Ĵetono*): every part, in any
    form, within one run of the text's words where the only other words are stats and
    the language's ``subtypes.between`` words."""
    rule_ = subject.language.glossary.subtypes
    between = subject.language.memo(
        "subtype-between", lambda: frozenset(normalize(w) for w in rule_.between)
    )
    separator = rule_.separator.strip() or " "
    for term in entry.terms:
        if term.deprecated:
            continue
        parts = [p.strip() for p in term.text.split(separator) if p.strip()]
        if len(parts) < 2:
            continue
        part_forms = [{normalize(f) for f in inflect(part, subject.lang, "noun")} for part in parts]
        if any(len(f.split()) > 1 for forms_ in part_forms for f in forms_):
            continue  # a part of several words: the matcher's business
        for paragraph in subject.plain.paragraphs:
            seen: set[int] = set()
            for word, _, _ in paragraph.tokens:
                kinds = {i for i, forms_ in enumerate(part_forms) if word in forms_}
                if kinds:
                    seen |= kinds
                    if len(seen) == len(parts):
                        return True
                elif not (seen and (word in between or _STATS.match(word))):
                    seen = set()
    return False


_DOC_GLOSSARY = (
    "When the English text uses a term of the community's glossary (the French "
    "Lexique, the Esperanto Leksikono), the translation uses the glossary's "
    "term, in any inflected form (armée, armées, l'armée; armeo, armeojn).  "
    "Unlike exact-match glossary checks, plurals, feminines, elisions, verb "
    "forms and the Esperanto -j/-n endings are recognised."
)


@FAMILY.rule(
    code="GL101",
    name="glossary-term",
    severity=Severity.WARNING,
    summary="The English text uses a glossary term; the translation does not use the glossary's "
    "rendering.",
    rationale=_DOC_GLOSSARY,
    bad="en: Put a counter on target creature.\nfr: Place un jeton sur la créature ciblée.",
    good="en: Put a counter on target creature.\nfr: Place un marqueur sur la créature ciblée.",
)
def check_glossary_term(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _missing_terms(subject, report, _Missing.TERM)


@FAMILY.rule(
    code="GL102",
    name="faction-or-type-name",
    severity=Severity.WARNING,
    summary="A faction or card type named in the English text is not named as the glossary says.",
    rationale=_DOC_GLOSSARY + "  Faction and card type names are the glossary's, agreed in gender "
    "and number.",
    bad="en: Each Red Banner creature you control gets +1/+0.\n"
    "fr: Chaque créature de la **bannière rouge** que tu contrôles gagne +1/+0.",
    good="en: Each Red Banner creature you control gets +1/+0.\n"
    "fr: Chaque créature de la **horde rouge** que tu contrôles gagne +1/+0.",
)
def check_faction_type(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _missing_terms(subject, report, _Missing.FACTION_OR_TYPE)


@FAMILY.rule(
    code="GL103",
    name="subtype-in-text",
    severity=Severity.WARNING,
    summary="A subtype named in the English text is not named as the glossary says.",
    rationale=_DOC_GLOSSARY + "  Subtypes in running text are the same words as on the type line.",
    bad="en: Each ***Imp*** you control gets +1/+0.\n"
    "fr: Chaque **diablotin** que tu contrôles gagne +1/+0.",
    good="en: Each ***Imp*** you control gets +1/+0.\n"
    "fr: Chaque **gobelin** que tu contrôles gagne +1/+0.",
)
def check_subtype_in_text(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _missing_terms(subject, report, _Missing.SUBTYPE)


def _phrase_words(tokens: Iterable[str], language: Language) -> list[str]:
    """Words as phrases are compared: Esperanto in the x- or h-system read as it is
    meant (EO101, EO102 report it: *cxiu ludanto* is *ĉiu ludanto*), and a French full
    word as its elision (*que* as *qu*, for « tant qu’elle »)."""
    elided = language.elided
    folds = bool(languages.get(language.lang).supersigns)  # keyboard spellings to read
    return [
        elided.get(word, word) for word in (_fold(token) if folds else token for token in tokens)
    ]


def _fold(word: str) -> str:
    if "x" not in word and "h" not in word and "u" not in word:
        return word
    converted = x_system(word)
    if converted is None:
        spelling = h_system(word)
        converted = spelling.fixed if spelling is not None else word
    return converted


def _phrase_index(subject: Subject) -> tuple[Matcher, dict[str, list[tuple[str, ...]]]]:
    """The English phrases of the language's glossary, and each phrase's renderings
    (every form, as folded word sequences)."""
    language = subject.language

    def build() -> tuple[Matcher, dict[str, list[tuple[str, ...]]]]:
        phrases = language.glossary.phrases
        english = Matcher(Glossary(language.lang, entries=dict(phrases)), side="english")
        renderings = {
            entry.id: sorted(
                {
                    tuple(_phrase_words((w for w, _, _ in words(form)), language))
                    for term in entry.terms
                    if not term.deprecated
                    for form in inflect(term.text, language.lang, entry.pos, term.forms)
                },
                key=len,
            )
            for entry in phrases.values()
        }
        return english, renderings

    return language.memo("phrases", build)


def _holds(tokens: list[str], rendering: tuple[str, ...]) -> bool:
    n = len(rendering)
    return any(
        tokens[i : i + n] == list(rendering)
        for i in range(len(tokens) - n + 1)
        if tokens[i] == rendering[0]
    )


@FAMILY.rule(
    code="GL104",
    name="missing-phrase",
    severity=Severity.WARNING,
    summary="A duration, condition or scope of the English effect has no rendering in the "
    "translated paragraph.",
    rationale="How long an effect lasts (until the end of the turn, this turn), while what (while "
    "attacking, as long as), for each what, and who (each player, each opponent) change "
    "what a card does; a translation that drops them reads as a permanent or "
    "unconditional effect.  The glossaries list these English phrases (section phrase) "
    "with every rendering a translation may use; any of them, in any form, in the same "
    "paragraph will do.  A phrase inside an ability reminder that is the abilities "
    "list's is the list's wording, and a phrase around a term GL101 already reports "
    "('in combat' without 'combat') is not reported twice.",
    bad="en: Target creature gets +1/+1 until the end of the turn.\n"
    "fr: La créature ciblée gagne +1/+1.",
    good="en: Target creature gets +1/+1 until the end of the turn.\n"
    "fr: La créature ciblée gagne +1/+1 jusqu’à la fin du tour.",
)
def check_missing_phrase(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for _, target, match in missing_phrases(subject):
        terms = [t.text for t in subject.language.glossary.phrases[match.hit.id].terms]
        shown = " or ".join(f"'{t}'" for t in terms[:3]) + (" ..." if len(terms) > 3 else "")
        yield report.paragraph(
            subject,
            target,
            f"the English text says '{match.text}': not rendered here ({shown}, any form)",
        )


def missing_phrases(subject: Subject) -> list[tuple[int, int | None, Match]]:
    """(English paragraph, translated paragraph, English phrase) of each phrase with
    no rendering.  A term inside a missing phrase is not reported again by GL101: the
    phrase says more (*until the end of the turn*, not *turn*)."""
    if "GL104" not in subject.cache:
        subject.cache["GL104"] = list(_missing_phrases(subject))
    found: list[tuple[int, int | None, Match]] = subject.cache["GL104"]
    return found


def _missing_phrases(subject: Subject) -> Iterator[tuple[int, int | None, Match]]:
    if not subject.is_translation or not subject.language.glossary.phrases:
        return
    source = subject.source
    assert source is not None
    english, renderings = _phrase_index(subject)
    found = source.memo(
        ("phrases", subject.lang),
        lambda: [
            (p.index, m) for p in source.plain.paragraphs for m in english.find(p.text, p.tokens)
        ],
    )
    if not found:
        return
    reminders = english_reminders(subject)
    drafted = set(draft_english(subject)[1])
    paragraphs = subject.plain.paragraphs
    folded: dict[int | None, list[str]] = {}
    for index, match in found:
        if index in reminders and match.start >= reminders[index]:
            continue  # the list's own reminder
        target = aligned(subject, index)
        if target is not None and target in drafted:
            continue
        if target not in folded:
            chosen = paragraphs if target is None else [paragraphs[target]]
            folded[target] = _phrase_words(
                (w for p in chosen for w, _, _ in p.tokens), subject.language
            )
        if any(_holds(folded[target], r) for r in renderings[match.hit.id]):
            continue
        yield index, target, match
