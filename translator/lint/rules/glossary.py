"""GL rules: the community's words, in every inflected form, the same on every card.

GL1: a term the English text uses is rendered with the glossary's term; GL2:
deprecated terms and ability names, with their replacement; GL3: the same English
term or sentence translated differently on different cards of a library.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator

from ...diagnostics import Severity
from ...glossary.forms import _fr_phrase_plural
from ...glossary.matcher import Match, normalize
from ...glossary.model import Entry
from ..context import Subject
from ..model import Edit, Finding
from ..rule import LIBRARY, rule
from .translation import aligned, loose

#: How each language's community names its glossary.
GLOSSARY_NAMES = {"fr": "Lexique", "eo": "Leksikono"}
_SECTION_RULES = {"faction": "GL102", "type": "GL102", "subtype": "GL103"}


def _glossary_name(subject: Subject) -> str:
    return GLOSSARY_NAMES.get(subject.lang, "glossary")


def _usable(entry: Entry | None) -> bool:
    return entry is not None and entry.section != "footer" and any(
        not t.deprecated for t in entry.terms)


def _missing_terms(subject: Subject, code: str) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None
    entries = subject.language.glossary.entries
    # One English word may name several concepts ('play': the noun and the verb):
    # the matches of one span are alternatives, and any of them will do.
    spans: dict[tuple[int, int, int], list[Match]] = defaultdict(list)
    for index, match in subject.source.english_matches(subject.language):
        if match.hit.kind == "english" and _usable(entries.get(match.hit.id)):
            spans[(index, match.start, match.end)].append(match)
    reported: set[str] = set()
    for (index, _, _), matches in spans.items():
        ids = [m.hit.id for m in matches]
        first = entries[ids[0]]
        if _SECTION_RULES.get(first.section, "GL101") != code or reported.intersection(ids):
            continue
        if any(subject.uses(entry_id) for entry_id in ids):
            continue
        reported.update(ids)
        terms = [t.text for entry_id in ids for t in entries[entry_id].terms
                 if not t.deprecated]
        choice = " or ".join(f"'{t}'" for t in terms)
        yield subject.report_paragraph(
            code, aligned(subject, index),
            f"the English text says '{matches[0].text}': the {_glossary_name(subject)} says "
            f"{choice} (any form), not found here")


_DOC_GLOSSARY = ("When the English text uses a term of the community's glossary (the French "
                 "Lexique, the Esperanto Leksikono), the translation uses the glossary's "
                 "term, in any inflected form (armée, armées, l'armée; armeo, armeojn).  "
                 "Unlike exact-match glossary checks, plurals, feminines, elisions, verb "
                 "forms and the Esperanto -j/-n endings are recognised.")


@rule("GL101", "glossary-term", Severity.WARNING,
      "The English text uses a glossary term; the translation does not use the glossary's "
      "rendering.",
      _DOC_GLOSSARY,
      "EN: Put a counter on target creature.\nFR: Place un jeton sur la créature ciblée.",
      "EN: Put a counter on target creature.\nFR: Place un marqueur sur la créature ciblée.")
def check_glossary_term(subject: Subject) -> Iterator[Finding]:
    return _missing_terms(subject, "GL101")


@rule("GL102", "faction-or-type-name", Severity.WARNING,
      "A faction or card type named in the English text is not named as the glossary says.",
      _DOC_GLOSSARY + "  Faction and card type names are the glossary's, agreed in gender "
      "and number.",
      "EN: Each Gaian creature gets +1/+1.\nFR: Chaque créature gaïenne reçoit +1/+1.",
      "EN: Each Gaian creature gets +1/+1.\nFR: Chaque créature des Enfants de Gaïa reçoit "
      "+1/+1.")
def check_faction_type(subject: Subject) -> Iterator[Finding]:
    return _missing_terms(subject, "GL102")


@rule("GL103", "subtype-in-text", Severity.WARNING,
      "A subtype named in the English text is not named as the glossary says.",
      _DOC_GLOSSARY + "  Subtypes in running text are the same words as on the type line.",
      "EN: Each Goblin you control gets +1/+0.\nFR: Chaque lutin que tu contrôles reçoit "
      "+1/+0.",
      "EN: Each Goblin you control gets +1/+0.\nFR: Chaque gobelin que tu contrôles reçoit "
      "+1/+0.")
def check_subtype_in_text(subject: Subject) -> Iterator[Finding]:
    return _missing_terms(subject, "GL103")


def inflect_like(found: str, term: str, replacement: str, lang: str) -> str | None:
    """``replacement`` in the form ``found`` has of ``term`` (plural, -j, -n, capital).

    ``None`` when the form cannot be told: the fix is then left to the translator.
    """
    form = normalize(found)
    result = None
    if form == normalize(term):
        result = replacement
    elif lang == "fr" and form == normalize(_fr_phrase_plural(term.split())):
        result = _fr_phrase_plural(replacement.split())
    elif lang == "eo":
        for ending in ("jn", "j", "n"):
            if form == normalize(term + ending) and replacement[-1:] in ("o", "a"):
                words_ = replacement.split()
                result = " ".join(w + ending if w[-1:] in ("o", "a") else w for w in words_)
                break
    if result is None:
        return None
    if found[:1].isupper() and not replacement[:1].isupper():
        result = result[:1].upper() + result[1:]
    return result


def _deprecated(subject: Subject, code: str) -> Iterator[Finding]:
    glossary = subject.language.glossary
    spans: dict[tuple[int, int, int], list[Match]] = defaultdict(list)
    for index, match in subject.matches:
        spans[(index, match.start, match.end)].append(match)
    for (index, start, end), matches in spans.items():
        if any(m.hit.status != "deprecated" for m in matches):
            continue  # also a current term (of another entry): not a slip
        match = matches[0]
        hit = match.hit
        if (hit.kind == "ability") != (code == "GL202"):
            continue
        if hit.kind == "ability":
            ability = glossary.abilities[hit.id]
            replacement, what = ability.name, f"ability '{ability.en}'"
        else:
            entry = glossary.entries[hit.id]
            term = entry.term(hit.term)
            preferred = entry.preferred
            replacement = (term.replaced_by if term and term.replaced_by
                           else preferred.text if preferred else None)
            what = f"'{entry.en}'"
        fix = inflect_like(match.text, hit.term, replacement, subject.lang) \
            if replacement else None
        plain = subject.plain.paragraphs[index]
        edit = None
        if fix is not None:
            offset = plain.source_offset(start)
            last = plain.source_offset(end - 1) + 1
            if subject.file.body[offset:last] == match.text:
                edit = Edit("text", offset, last, fix)
        use = f": use '{replacement}'" if replacement else ""
        yield subject.report_span(code, index, start,
                                  f"'{match.text}' is deprecated in the "
                                  f"{_glossary_name(subject)} ({what}){use}", edit)


@rule("GL201", "deprecated-term", Severity.WARNING,
      "A term the glossary marks deprecated, with its replacement.",
      "The community replaced some words (French compteur -> marqueur, joueur -> "
      "joueureuse; Esperanto militistaro -> armeo, resurso -> rimedo).  Cards still using "
      "the old word read inconsistently next to the others.  Found in every inflected form.",
      "FR: Place deux compteurs +1/+1 sur moi.",
      "FR: Place deux marqueurs +1/+1 sur moi.",
      "Replaces the term by its replacement in the same form (plural, -j, -n, capital), "
      "when the glossary names one replacement and the form is known.")
def check_deprecated_term(subject: Subject) -> Iterator[Finding]:
    return _deprecated(subject, "GL201")


@rule("GL202", "deprecated-ability", Severity.WARNING,
      "A former name of an ability.",
      "Renamed abilities keep their old names in the abilities list's history; a card "
      "with the old name cannot be looked up.",
      "EO: ***Defendforto***",
      "EO: ***Defenda forto***   (the list's current name)",
      "Replaces the old name by the list's name.")
def check_deprecated_ability(subject: Subject) -> Iterator[Finding]:
    return _deprecated(subject, "GL202")


# --------------------------------------------------------------------------------------
# GL3: consistency across the library.


def _majority(counts: Counter[str], order: list[str]) -> str:
    best = max(counts.values())
    return next(value for value in order if counts[value] == best)


@rule("GL301", "inconsistent-term", Severity.WARNING,
      "The same English term is rendered differently on different cards.",
      "Where the glossary admits several renderings (or none is set yet), a library "
      "still picks one: the cards in the minority are reported with the majority's "
      "rendering.",
      "card A: Place un marqueur ...   card B: Place un jeton ...   card C: ... marqueur",
      "cards A, B, C: Place un marqueur ...", target=LIBRARY)
def check_inconsistent_term(subjects: list[Subject]) -> Iterator[Finding]:
    chosen: dict[str, dict[str, list[tuple[Subject, int, Match]]]] = defaultdict(dict)
    for subject in subjects:
        if not subject.is_translation:
            continue
        assert subject.source is not None
        wanted = {m.hit.id for _, m in subject.source.english_matches(subject.language)
                  if m.hit.kind == "english"}
        used: dict[str, list[tuple[int, Match]]] = defaultdict(list)
        for index, match in subject.matches:
            if match.hit.id in wanted and match.hit.status != "deprecated":
                used[match.hit.id].append((index, match))
        for entry_id, found in used.items():
            terms = {m.hit.term for _, m in found}
            if len(terms) == 1:
                index, match = found[0]
                chosen[entry_id].setdefault(match.hit.term, []).append((subject, index, match))
    for by_term in chosen.values():
        if len(by_term) < 2:
            continue
        counts = Counter({term: len(cards) for term, cards in by_term.items()})
        majority = _majority(counts, list(by_term))
        names = ", ".join(s.card.slug for s, _, _ in by_term[majority][:3])
        for term, cards in by_term.items():
            if term == majority:
                continue
            for subject, index, match in cards:
                yield subject.report_span(
                    "GL301", index, match.start,
                    f"'{match.text}' here, '{majority}' on {counts[majority]} other card"
                    f"{'s' if counts[majority] > 1 else ''} ({names}) for the same English "
                    f"term: pick one")


_SENTENCE_END = re.compile(r"(?<=[.!?…])[\s\u00a0\u202f»\"”]*\s+(?=\S)")


def sentences(text: str) -> list[tuple[int, str]]:
    """(start, sentence) of each sentence of a paragraph's text."""
    found = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        found.append((start, text[start:match.start()]))
        start = match.end()
    if text[start:].strip():
        found.append((start, text[start:]))
    return found


@rule("GL302", "inconsistent-sentence", Severity.WARNING,
      "The same English sentence is translated differently on different cards.",
      "Reminder texts and common effects ('I am not marked for attacking.') recur on many "
      "cards; players expect the same words for the same rule.  Sentences are paired by "
      "position in paragraphs that match the English structure; the cards in the "
      "minority are reported with the majority's wording.  Sentences of fewer than three "
      "words are not compared.",
      "card A: *Je ne suis pas engagé quand j’attaque.*   card B: *Attaquer ne m’engage "
      "pas.*",
      "cards A, B: *Je ne suis pas engagé quand j’attaque.*", target=LIBRARY)
def check_inconsistent_sentence(subjects: list[Subject]) -> Iterator[Finding]:
    renderings: dict[str, dict[str, list[tuple[Subject, int, int, str]]]] = defaultdict(dict)
    for subject in subjects:
        if not subject.is_translation:
            continue
        assert subject.source is not None
        source, target = subject.source.plain.paragraphs, subject.plain.paragraphs
        if len(source) != len(target):
            continue
        for english, here in zip(source, target, strict=True):
            english_sentences = sentences(english.text.replace("\n", " "))
            here_sentences = sentences(here.text.replace("\n", " "))
            if len(english_sentences) != len(here_sentences):
                continue
            for (_, en), (start, tr) in zip(english_sentences, here_sentences, strict=True):
                if len(en.split()) < 3:
                    continue
                key = loose(en)
                renderings[key].setdefault(loose(tr), []).append(
                    (subject, here.index, start, tr.strip()))
    for by_rendering in renderings.values():
        if len(by_rendering) < 2:
            continue
        counts = Counter({text: len(cards) for text, cards in by_rendering.items()})
        majority = _majority(counts, list(by_rendering))
        example = by_rendering[majority][0]
        for text, cards in by_rendering.items():
            if text == majority:
                continue
            for subject, index, start, _ in cards:
                yield subject.report_span(
                    "GL302", index, start,
                    f"the same English sentence reads '{example[3]}' on {counts[majority]} "
                    f"other card{'s' if counts[majority] > 1 else ''} ({example[0].card.slug})")
