"""GL3 rules: the same English term (GL301) or sentence (GL302) translated differently on
different cards of a library; they read every translation of a language at once.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator

from ....cards.model import STATUSES
from ....diagnostics import Family, Severity
from ....glossary.matcher import Match
from ...context import Reporter, Subject
from ...model import Finding
from ...rule import LIBRARY, collects
from ..translation import (
    loose,
)

#: GL3: the rules that read every translation of a language at once.
FAMILY = Family(prefix="GL3", target=LIBRARY)


def _shown(sentence: str) -> str:
    """A sentence as a message quotes it: without the placeholder of a symbol or drop
    cap position (U+FFFC), which a terminal shows as a box."""
    return " ".join(sentence.replace("\ufffc", " ").split())


def _standing(subject: Subject) -> int:
    """How far a translation is from a draft: -1 for a work in progress (``wip``),
    else its status's rank (Draft 0, Release Candidate 1, Final 2)."""
    if subject.file.fields.get("wip"):
        return -1
    status = str(subject.file.fields.get("status") or STATUSES[0])
    return STATUSES.index(status) if status in STATUSES else 0


def _majority(counts: Counter[str], order: list[str]) -> str:
    best = max(counts.values())
    return next(value for value in order if counts[value] == best)


@collects("GL301")
def collect_terms(subject: Subject) -> list[tuple[str, str, int, int, str, str]]:
    """(entry id, target term, paragraph, start, text, status) of each English glossary
    term of the source rendered with one single term of its entry."""
    assert subject.source is not None
    wanted = {
        m.hit.id
        for _, m in subject.source.english_matches(subject.language)
        if m.hit.kind == "english"
    }
    used: dict[str, list[tuple[int, Match]]] = defaultdict(list)
    for index, match in subject.matches:
        if match.hit.id in wanted and match.hit.status != "deprecated":
            used[match.hit.id].append((index, match))
    found = []
    for entry_id, matches in used.items():
        if len({m.hit.term for _, m in matches}) == 1:
            index, match = matches[0]
            found.append(
                (entry_id, match.hit.term, index, match.start, match.text, match.hit.status)
            )
    return found


@FAMILY.rule(
    code="GL301",
    name="inconsistent-term",
    severity=Severity.WARNING,
    summary="An admitted term where other cards render the same English term otherwise.",
    rationale="Where the glossary admits several renderings of a term, a library still picks one.  "
    "A card using an admitted term is reported when other cards use the preferred term "
    "(or, between admitted terms, when the majority uses another).  Preferred terms are "
    "never reported: an entry with several preferred terms uses them by context (French "
    "'gets': perd, gagne, reçoit).",
    bad="en: Draw one resource card.\n"
    "eo: Eltiru unu rimedokarton.\n"
    "---\n"
    "en: Discard one resource card.\n"
    "eo: Forĵetu unu rimedokarton.\n"
    "---\n"
    "en: Reveal one resource card.\n"
    "eo: Montru unu rimedkarton.",
    good="en: Draw one resource card.\n"
    "eo: Eltiru unu rimedokarton.\n"
    "---\n"
    "en: Discard one resource card.\n"
    "eo: Forĵetu unu rimedokarton.\n"
    "---\n"
    "en: Reveal one resource card.\n"
    "eo: Montru unu rimedokarton.",
)
def check_inconsistent_term(subjects: list[Subject], report: Reporter) -> Iterator[Finding]:
    chosen: dict[str, dict[str, list[tuple[Subject, int, int, str]]]] = defaultdict(dict)
    status: dict[str, str] = {}
    for subject in subjects:
        for entry_id, term, index, start, text, term_status in subject.cache.get(
            report.rule.code, ()
        ):
            chosen[entry_id].setdefault(term, []).append((subject, index, start, text))
            status[term] = term_status
    for by_term in chosen.values():
        if len(by_term) < 2:
            continue
        counts = Counter({term: len(cards) for term, cards in by_term.items()})
        preferred = [term for term in by_term if status[term] == "preferred"]
        # The glossary's preferred term wins; between admitted terms, the majority.
        reference = _majority(
            Counter({t: counts[t] for t in preferred}) if preferred else counts,
            preferred or list(by_term),
        )
        why = "the glossary's preferred term" if preferred else "the majority"
        names = ", ".join(s.card.slug for s, _, _, _ in by_term[reference][:3])
        for term, cards in by_term.items():
            if status[term] == "preferred":
                continue  # never reported: several preferred terms are used by context
            for subject, index, start, text in cards:
                yield report.span(
                    subject,
                    index,
                    start,
                    f"'{text}' here, '{reference}' ({why}) on {counts[reference]} other "
                    f"card{'s' if counts[reference] > 1 else ''} ({names}) for the same "
                    f"English term",
                )


_SENTENCE_END = re.compile(r"(?<=[.!?…])[\s\u00a0\u202f»\"”]*\s+(?=\S)")


def sentences(text: str) -> list[tuple[int, str]]:
    """(start, sentence) of each sentence of a paragraph's text; a line break ends a
    sentence too (an ability's name is not part of its reminder)."""
    found = []
    offset = 0
    for line in text.split("\n"):
        start = 0
        for match in _SENTENCE_END.finditer(line):
            found.append((offset + start, line[start : match.start()]))
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
    english_sentences = subject.source.memo(
        "sentences",
        lambda: [
            [(loose(en), len(en.split()) >= 3) for _, en in sentences(p.text)] for p in source
        ],
    )
    found = []
    for english, here in zip(english_sentences, target, strict=True):
        here_sentences = sentences(here.text)
        if len(english) != len(here_sentences):
            continue
        for (key, compared), (start, tr) in zip(english, here_sentences, strict=True):
            if compared:
                found.append((key, loose(tr), here.index, start, tr.strip()))
    return found


@FAMILY.rule(
    code="GL302",
    name="inconsistent-sentence",
    severity=Severity.WARNING,
    summary="The same English sentence is translated differently on different cards.",
    rationale="Reminder texts and common effects ('I am not marked for attacking.') recur on many "
    "cards; players expect the same words for the same rule.  Sentences are paired by "
    "position in paragraphs that match the English structure; the cards in the "
    "minority are reported with the majority's wording.  Sentences of fewer than three "
    "words are not compared.",
    bad="en: :m: Target player draws one card.\n"
    "fr: :m: La joueureuse ciblée pioche une carte.\n"
    "---\n"
    "en: :m: Target player draws one card.\n"
    "fr: :m: La joueureuse ciblée pioche une carte.\n"
    "---\n"
    "en: :m: Target player draws one card.\n"
    "fr: :m: Fais piocher une carte à la joueureuse ciblée.",
    good="en: :m: Target player draws one card.\n"
    "fr: :m: La joueureuse ciblée pioche une carte.\n"
    "---\n"
    "en: :m: Target player draws one card.\n"
    "fr: :m: La joueureuse ciblée pioche une carte.\n"
    "---\n"
    "en: :m: Target player draws one card.\n"
    "fr: :m: La joueureuse ciblée pioche une carte.",
)
def check_inconsistent_sentence(subjects: list[Subject], report: Reporter) -> Iterator[Finding]:
    renderings: dict[str, dict[str, list[tuple[Subject, int, int, str]]]] = defaultdict(dict)
    for subject in subjects:
        for key, rendering, index, start, text in subject.cache.get(report.rule.code, ()):
            renderings[key].setdefault(rendering, []).append((subject, index, start, text))
    for by_rendering in renderings.values():
        if len(by_rendering) < 2:
            continue
        # Only the most advanced cards vote: a Final card's wording is the reference
        # over Drafts, and a work-in-progress translation never is one.
        top = max(_standing(s) for cards in by_rendering.values() for s, *_ in cards)
        if top < 0:
            continue
        counts = Counter(
            {
                text: sum(1 for s, *_ in cards if _standing(s) == top)
                for text, cards in by_rendering.items()
            }
        )
        majority = _majority(counts, list(by_rendering))
        example = next(c for c in by_rendering[majority] if _standing(c[0]) == top)
        for text, cards in by_rendering.items():
            if text == majority:
                continue
            for subject, index, start, _ in cards:
                yield report.span(
                    subject,
                    index,
                    start,
                    f"the same English sentence reads '{_shown(example[3])}' on "
                    f"{counts[majority]} "
                    f"other card{'s' if counts[majority] > 1 else ''} ({example[0].card.slug})",
                )
