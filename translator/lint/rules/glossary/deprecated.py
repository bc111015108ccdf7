"""GL2 rules: deprecated terms (GL201) and ability names (GL202), with their replacement
in the form the text has.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator

from .... import languages
from ....diagnostics import Applicability, Severity
from ....glossary.matcher import Match, normalize
from ...context import Reporter, Subject
from ...model import Edit, Finding
from .shared import GLOSSARY_RULES, glossary_name, in_list_reminder

#: The family of this module's rules (GL2).
FAMILY = GLOSSARY_RULES.part("GL2")


def inflect_like(found: str, term: str, replacement: str, lang: str) -> str | None:
    """``replacement`` in the form ``found`` has of ``term`` (plural, -j, -n, capital).

    ``None`` when the form cannot be told: the fix is then left to the translator.
    """
    form = normalize(found)
    result = next(
        (
            inflected
            for term_form, inflected in languages.get(lang).inflections(term, replacement)
            if normalize(term_form) == form
        ),
        None,
    )
    if result is None:
        return None
    if found[:1].isupper() and not replacement[:1].isupper():
        result = result[:1].upper() + result[1:]
    return result


#: Fields where deprecated terms are looked for, besides the text.  The subtype is
#: TR402's when the glossary renders the English subtype (it gives the whole rendering).
_NAME_FIELDS = ("name", "name2", "subtype")


def _deprecated(subject: Subject, report: Reporter, abilities: bool) -> Iterator[Finding]:
    """The deprecated terms (GL201) or ability names (GL202, ``abilities``) in the
    name fields and the text."""
    matcher = subject.language.matcher
    for key in _NAME_FIELDS:
        here = subject.value(key)
        if not here or (
            key == "subtype"
            and subject.is_translation
            and subject.language.subtype(subject.source_value("subtype"))
        ):
            continue
        for _, match, fixable in _deprecated_spans(
            subject, abilities, [(0, matcher.find(here))], False
        ):
            yield from _report_deprecated(subject, report, key, 0, match, fixable)
    by_paragraph: dict[int, list[Match]] = defaultdict(list)
    for index, match in subject.matches:
        by_paragraph[index].append(match)
    for index, match, fixable in _deprecated_spans(
        subject, abilities, list(by_paragraph.items()), True
    ):
        yield from _report_deprecated(subject, report, "text", index, match, fixable)


def _deprecated_spans(
    subject: Subject, abilities: bool, found: list[tuple[int, list[Match]]], in_text: bool
) -> Iterator[tuple[int, Match, bool]]:
    """(paragraph, match, fixable) of each deprecated term (ability name, with
    ``abilities``).

    A span that is also a current term (of another entry, or the same words as the
    current spelling: *Jeton Addax*, *Jeton, addax*) is reported only where the case
    tells the deprecated spelling (a later word with a capital the current spelling
    does not have); in a reminder that is the list's, a deprecated word the list itself
    uses is the list's matter.  Where the words are the current spelling's, the fix is
    left to the translator (in running text a subtype takes no capital at all)."""
    for index, matches in found:
        spans: dict[tuple[int, int], list[Match]] = defaultdict(list)
        for match in matches:
            spans[(match.start, match.end)].append(match)
        for group in spans.values():
            deprecated = [m for m in group if m.hit.status == "deprecated"]
            if not deprecated:
                continue
            match = deprecated[0]
            if (match.hit.kind == "ability") != abilities:
                continue
            current = [m for m in group if m.hit.status != "deprecated"]
            if current and not all(_case_tells(match, m.hit.term) for m in current):
                continue
            if in_text and in_list_reminder(subject, index, match):
                continue
            yield index, match, not current


def _case_tells(match: Match, current: str) -> bool:
    """Does the text's case tell the deprecated spelling from ``current`` (same words)?

    *Jeton Addax* is not *Jeton, addax*: a later word capitalised in the text and in
    the deprecated term, in lower case in the current one."""
    found = re.findall(r"[^\W_][\w-]*", match.text)
    old = re.findall(r"[^\W_][\w-]*", match.hit.term)
    new = re.findall(r"[^\W_][\w-]*", current)
    if not (len(found) == len(old) == len(new)):
        return False
    return any(
        f[:1].isupper() and o[:1].isupper() and n[:1].islower()
        for f, o, n in zip(found[1:], old[1:], new[1:], strict=True)
    )


def _report_deprecated(
    subject: Subject, report: Reporter, key: str, index: int, match: Match, fixable: bool
) -> Iterator[Finding]:
    glossary = subject.language.glossary
    hit = match.hit
    replacement: str | None  # a deprecated term may have no replacement yet
    if hit.kind == "ability":
        ability = glossary.abilities[hit.id]
        replacement, what = ability.name, f"ability '{ability.en}'"
    else:
        entry = glossary.entries[hit.id]
        term = entry.term(hit.term)
        preferred = entry.preferred
        replacement = (
            term.replaced_by if term and term.replaced_by else preferred.text if preferred else None
        )
        what = f"'{entry.en}'"
    fix = (
        inflect_like(match.text, hit.term, replacement, subject.lang)
        if replacement and fixable
        else None
    )
    use = f": use '{replacement}'" if replacement else ""
    message = f"'{match.text}' is deprecated in the {glossary_name(subject)} ({what}){use}"
    if key == "text":
        edit = None if fix is None else subject.text_edit(index, match.start, match.end, fix)
        yield report.span(subject, index, match.start, message, edit)
    else:
        edit = None if fix is None else Edit(key, match.start, match.end, fix)
        yield report.at(subject, key, match.start, message, edit)


@FAMILY.rule(
    code="GL201",
    name="deprecated-term",
    severity=Severity.WARNING,
    summary="A term the glossary marks deprecated, with its replacement.",
    rationale="The community replaced some words (French compteur -> marqueur, joueur -> "
    "joueureuse; Esperanto militistaro -> armeo, resurso -> rimedo).  Cards still using "
    "the old word read inconsistently next to the others.  Found in every inflected form.",
    bad="en: Put two +1/+1 counters on me.\nfr: Place deux compteurs +1/+1 sur moi.",
    good="en: Put two +1/+1 counters on me.\nfr: Place deux marqueurs +1/+1 sur moi.",
    fix="Replaces the term by its replacement in the same form (plural, -j, -n, capital), "
    "when the glossary names one replacement and the form is known.",
    applicability=Applicability.SAFE,
)
def check_deprecated_term(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _deprecated(subject, report, abilities=False)


@FAMILY.rule(
    code="GL202",
    name="deprecated-ability",
    severity=Severity.WARNING,
    summary="A former name of an ability.",
    rationale="Renamed abilities keep their old names in the abilities list's history; a card "
    "with the old name cannot be looked up.",
    bad="en: ***Necromancer***\neo: ***Nekromancianto***",
    good="en: ***Necromancer***\neo: ***Nekromanciulo***",
    fix="Replaces the old name by the list's name.",
    applicability=Applicability.SAFE,
)
def check_deprecated_ability(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _deprecated(subject, report, abilities=True)
