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
from ..model import Finding
from ..rule import LIBRARY, collects, rule
from .translation import aligned, draft_english, loose

#: How each language's community names its glossary.
GLOSSARY_NAMES = {"fr": "Lexique", "eo": "Leksikono"}
_SECTION_RULES = {"faction": "GL102", "type": "GL102", "subtype": "GL103"}


def _glossary_name(subject: Subject) -> str:
    return GLOSSARY_NAMES.get(subject.lang, "glossary")


def _usable(entry: Entry | None) -> bool:
    return entry is not None and entry.section != "footer" and any(
        not t.deprecated for t in entry.terms)


def _missing_terms(subject: Subject, code: str) -> Iterator[Finding]:
    """The findings of one GL1 rule; the three share one pass per subject."""
    if not subject.is_translation:
        return
    yield from subject.shared("GL1", code, lambda: _all_missing_terms(subject))


def _all_missing_terms(subject: Subject) -> Iterator[Finding]:
    assert subject.source is not None
    entries = subject.language.glossary.entries
    # One English word may name several concepts ('play': the noun and the verb):
    # the matches of one span are alternatives, and any of them will do.
    spans: dict[tuple[int, int, int], list[Match]] = defaultdict(list)
    for index, match in subject.source.english_matches(subject.language):
        if match.hit.kind == "english" and _usable(entries.get(match.hit.id)):
            spans[(index, match.start, match.end)].append(match)
    reported: set[str] = set()
    drafted = set(draft_english(subject)[1])  # still English in a draft: TR401's
    for (index, _, _), matches in spans.items():
        if drafted and aligned(subject, index) in drafted:
            continue
        ids = [m.hit.id for m in matches]
        code = _SECTION_RULES.get(entries[ids[0]].section, "GL101")
        if reported.intersection(ids):
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
      "EN: Each Red Banner creature you control gets +1/+0.\nFR: Chaque créature de la "
      "**Bannière rouge** que tu contrôles gagne +1/+0.",
      "EN: Each Red Banner creature you control gets +1/+0.\nFR: Chaque créature de la "
      "**Horde rouge** que tu contrôles gagne +1/+0.")
def check_faction_type(subject: Subject) -> Iterator[Finding]:
    return _missing_terms(subject, "GL102")


@rule("GL103", "subtype-in-text", Severity.WARNING,
      "A subtype named in the English text is not named as the glossary says.",
      _DOC_GLOSSARY + "  Subtypes in running text are the same words as on the type line.",
      "EN: Each Imp you control gets +1/+0.\nFR: Chaque **diablotin** que tu contrôles "
      "gagne +1/+0.",
      "EN: Each Imp you control gets +1/+0.\nFR: Chaque **gobelin** que tu contrôles "
      "gagne +1/+0.")
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
        edit = None if fix is None else subject.text_edit(index, start, end, fix)
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
      "EO: ***Nekromancianto***",
      "EO: ***Nekromanciulo***   (the list's name since 2023-06-26)",
      "Replaces the old name by the list's name.")
def check_deprecated_ability(subject: Subject) -> Iterator[Finding]:
    return _deprecated(subject, "GL202")


# --------------------------------------------------------------------------------------
# GL3: consistency across the library.


def _majority(counts: Counter[str], order: list[str]) -> str:
    best = max(counts.values())
    return next(value for value in order if counts[value] == best)


@collects("GL301")
def collect_terms(subject: Subject) -> list[tuple[str, str, int, int, str, str]]:
    """(entry id, target term, paragraph, start, text, status) of each English glossary
    term of the source rendered with one single term of its entry."""
    assert subject.source is not None
    wanted = {m.hit.id for _, m in subject.source.english_matches(subject.language)
              if m.hit.kind == "english"}
    used: dict[str, list[tuple[int, Match]]] = defaultdict(list)
    for index, match in subject.matches:
        if match.hit.id in wanted and match.hit.status != "deprecated":
            used[match.hit.id].append((index, match))
    found = []
    for entry_id, matches in used.items():
        if len({m.hit.term for _, m in matches}) == 1:
            index, match = matches[0]
            found.append((entry_id, match.hit.term, index, match.start, match.text,
                          match.hit.status))
    return found


@rule("GL301", "inconsistent-term", Severity.WARNING,
      "An admitted term where other cards render the same English term otherwise.",
      "Where the glossary admits several renderings of a term, a library still picks one.  "
      "A card using an admitted term is reported when other cards use the preferred term "
      "(or, between admitted terms, when the majority uses another).  Preferred terms are "
      "never reported: an entry with several preferred terms uses them by context (French "
      "'gets': perd, gagne, reçoit).",
      "EO card A: ... rimedokarto ...   card B: ... rimedokarto ...   card C: ... "
      "rimedkarto ...",
      "EO cards A, B, C: ... rimedokarto ...", target=LIBRARY)
def check_inconsistent_term(subjects: list[Subject]) -> Iterator[Finding]:
    chosen: dict[str, dict[str, list[tuple[Subject, int, int, str]]]] = defaultdict(dict)
    status: dict[str, str] = {}
    for subject in subjects:
        for entry_id, term, index, start, text, term_status in subject.cache.get("GL301", ()):
            chosen[entry_id].setdefault(term, []).append((subject, index, start, text))
            status[term] = term_status
    for by_term in chosen.values():
        if len(by_term) < 2:
            continue
        counts = Counter({term: len(cards) for term, cards in by_term.items()})
        preferred = [term for term in by_term if status[term] == "preferred"]
        # The glossary's preferred term wins; between admitted terms, the majority.
        reference = _majority(Counter({t: counts[t] for t in preferred}) if preferred
                              else counts, preferred or list(by_term))
        why = "the glossary's preferred term" if preferred else "the majority"
        names = ", ".join(s.card.slug for s, _, _, _ in by_term[reference][:3])
        for term, cards in by_term.items():
            if status[term] == "preferred":
                continue  # never reported: several preferred terms are used by context
            for subject, index, start, text in cards:
                yield subject.report_span(
                    "GL301", index, start,
                    f"'{text}' here, '{reference}' ({why}) on {counts[reference]} other "
                    f"card{'s' if counts[reference] > 1 else ''} ({names}) for the same "
                    f"English term")


_SENTENCE_END = re.compile(r"(?<=[.!?…])[\s\u00a0\u202f»\"”]*\s+(?=\S)")


def sentences(text: str) -> list[tuple[int, str]]:
    """(start, sentence) of each sentence of a paragraph's text; a line break ends a
    sentence too (an ability's name is not part of its reminder)."""
    found = []
    offset = 0
    for line in text.split("\n"):
        start = 0
        for match in _SENTENCE_END.finditer(line):
            found.append((offset + start, line[start:match.start()]))
            start = match.end()
        if line[start:].strip():
            found.append((offset + start, line[start:]))
        offset += len(line) + 1
    return found


@collects("GL302")
def collect_sentences(subject: Subject) -> list[tuple[str, str, int, int, str]]:
    """(English sentence, translated sentence (both compared loosely), paragraph, start,
    translated sentence as written) for paragraphs that match the English structure."""
    assert subject.source is not None
    source, target = subject.source.plain.paragraphs, subject.plain.paragraphs
    if len(source) != len(target):
        return []
    english_sentences = subject.source.memo("sentences", lambda: [
        [(loose(en), len(en.split()) >= 3) for _, en in sentences(p.text)] for p in source])
    found = []
    for english, here in zip(english_sentences, target, strict=True):
        here_sentences = sentences(here.text)
        if len(english) != len(here_sentences):
            continue
        for (key, compared), (start, tr) in zip(english, here_sentences, strict=True):
            if compared:
                found.append((key, loose(tr), here.index, start, tr.strip()))
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
        for key, rendering, index, start, text in subject.cache.get("GL302", ()):
            renderings[key].setdefault(rendering, []).append((subject, index, start, text))
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
