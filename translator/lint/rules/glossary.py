"""GL rules: the community's words, in every inflected form, the same on every card.

GL1: a term the English text uses is rendered with the glossary's term, and a phrase
of the English effect (how long, while what, for each what) with one of its
renderings; GL2: deprecated terms and ability names, with their replacement; GL3: the
same English term or sentence translated differently on different cards of a library.

An ability's reminder that is the abilities list's own (exactly, or with the card's
parameters) is the list's authority: GL1 does not ask it for other words, and GL2
does not report a deprecated word the list itself still uses (that is a matter of
the list, see ``python -m translator.lint.abilities``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from enum import Enum

from ... import languages
from ...cards.model import STATUSES
from ...diagnostics import Applicability, Severity, rule
from ...glossary.inflection import forms as inflect
from ...glossary.matcher import Match, Matcher, normalize, words
from ...glossary.model import Entry, Glossary
from ..context import Language, Reporter, Subject
from ..model import About, Edit, Finding
from ..rule import LIBRARY, TRANSLATION, collects
from .esperanto import h_system, x_system
from .translation import (
    ability_line,
    aligned,
    draft_english,
    loose,
    substitute,
)

#: The setting that makes the abilities lists the authority for their own reminders
#: (true by default; the harness that lints the lists themselves turns it off).
LIST_REMINDERS = "list-reminders"


def _glossary_name(subject: Subject) -> str:
    """What the language's community calls its glossary (the French *Lexique*)."""
    return languages.get(subject.lang).glossary_name


def _usable(entry: Entry | None) -> bool:
    return (
        entry is not None
        and entry.section != "footer"
        and any(not t.deprecated for t in entry.terms)
    )


# --------------------------------------------------------------------------------------
# The abilities lists' own reminders.


def list_reminders(subject: Subject) -> dict[int, tuple[int, str]]:
    """Translated paragraph -> (where its reminder starts, ability id), for each ability
    paragraph whose reminder is the abilities list's, with the card's parameters.

    The list is the authority for its own reminders: a card that copies one must not be
    asked for other words (« Je peux aller dans la cité d'un adversaire » is Infiltré's,
    whatever the Lexique says of *move*).  Off when the setting ``list-reminders`` is
    false: linting the lists themselves, nothing is their own authority.
    """
    found = subject.cache.get("list-reminders")
    if found is not None:
        return found
    found = subject.cache["list-reminders"] = {}
    if not subject.resources.settings.get(LIST_REMINDERS, True):
        return found
    abilities = subject.language.glossary.abilities
    names = subject.language.memo(
        "ability-names", lambda: {normalize(a.name): a.id for a in abilities.values() if a.reminder}
    )
    for paragraph in subject.plain.paragraphs:
        line = paragraph.first_bold()
        ability = ability_line(line, names) if line else None
        if ability is None:
            continue
        target = abilities[ability[0]]
        here = paragraph.after_first_break()
        if here and loose(here) == loose(substitute(target.reminder, target.params, ability[1])):
            found[paragraph.index] = (paragraph.reminder_start() or 0, target.id)
    return found


def english_reminders(subject: Subject) -> dict[int, int]:
    """English paragraph -> where its reminder starts, when the aligned translated
    paragraph's reminder is the list's (see :func:`list_reminders`)."""
    assert subject.source is not None
    reminders = list_reminders(subject)
    if not reminders:
        return {}
    found = {}
    for paragraph in subject.source.plain.paragraphs:
        cut = paragraph.reminder_start()
        if cut is not None and aligned(subject, paragraph.index) in reminders:
            found[paragraph.index] = cut
    return found


def _in_list_reminder(subject: Subject, index: int, match: Match) -> bool:
    """Is a deprecated term the list's own word, in a reminder that is the list's?

    Only the list's words are its authority: a parameter the card fills in with a
    deprecated word (*Grandes maisons* for Dévouement's faction) is still reported."""
    where = list_reminders(subject).get(index)
    if where is None or match.start < where[0]:
        return False
    reminder = subject.language.glossary.abilities[where[1]].reminder
    own = tuple(w for w, _, _ in words(reminder))
    term = tuple(w for w, _, _ in words(match.text))
    return any(own[i : i + len(term)] == term for i in range(len(own) - len(term) + 1))


# --------------------------------------------------------------------------------------
# GL1: terms, compound subtypes, phrases.


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
        if match.hit.kind == "english" and _usable(entries.get(match.hit.id)):
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
            f"the English text says '{matches[0].text}': the {_glossary_name(subject)} says "
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


@rule(
    "GL101",
    "glossary-term",
    Severity.WARNING,
    "The English text uses a glossary term; the translation does not use the glossary's rendering.",
    _DOC_GLOSSARY,
    "en: Put a counter on target creature.\nfr: Place un jeton sur la créature ciblée.",
    "en: Put a counter on target creature.\nfr: Place un marqueur sur la créature ciblée.",
    target=TRANSLATION,
)
def check_glossary_term(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _missing_terms(subject, report, _Missing.TERM)


@rule(
    "GL102",
    "faction-or-type-name",
    Severity.WARNING,
    "A faction or card type named in the English text is not named as the glossary says.",
    _DOC_GLOSSARY + "  Faction and card type names are the glossary's, agreed in gender "
    "and number.",
    "en: Each Red Banner creature you control gets +1/+0.\n"
    "fr: Chaque créature de la **bannière rouge** que tu contrôles gagne +1/+0.",
    "en: Each Red Banner creature you control gets +1/+0.\n"
    "fr: Chaque créature de la **horde rouge** que tu contrôles gagne +1/+0.",
    target=TRANSLATION,
)
def check_faction_type(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _missing_terms(subject, report, _Missing.FACTION_OR_TYPE)


@rule(
    "GL103",
    "subtype-in-text",
    Severity.WARNING,
    "A subtype named in the English text is not named as the glossary says.",
    _DOC_GLOSSARY + "  Subtypes in running text are the same words as on the type line.",
    "en: Each ***Imp*** you control gets +1/+0.\n"
    "fr: Chaque **diablotin** que tu contrôles gagne +1/+0.",
    "en: Each ***Imp*** you control gets +1/+0.\n"
    "fr: Chaque **gobelin** que tu contrôles gagne +1/+0.",
    target=TRANSLATION,
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


@rule(
    "GL104",
    "missing-phrase",
    Severity.WARNING,
    "A duration, condition or scope of the English effect has no rendering in the "
    "translated paragraph.",
    "How long an effect lasts (until the end of the turn, this turn), while what (while "
    "attacking, as long as), for each what, and who (each player, each opponent) change "
    "what a card does; a translation that drops them reads as a permanent or "
    "unconditional effect.  The glossaries list these English phrases (section phrase) "
    "with every rendering a translation may use; any of them, in any form, in the same "
    "paragraph will do.  A phrase inside an ability reminder that is the abilities "
    "list's is the list's wording, and a phrase around a term GL101 already reports "
    "('in combat' without 'combat') is not reported twice.",
    "en: Target creature gets +1/+1 until the end of the turn.\n"
    "fr: La créature ciblée gagne +1/+1.",
    "en: Target creature gets +1/+1 until the end of the turn.\n"
    "fr: La créature ciblée gagne +1/+1 jusqu’à la fin du tour.",
    target=TRANSLATION,
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
            if in_text and _in_list_reminder(subject, index, match):
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
    message = f"'{match.text}' is deprecated in the {_glossary_name(subject)} ({what}){use}"
    if key == "text":
        edit = None if fix is None else subject.text_edit(index, match.start, match.end, fix)
        yield report.span(subject, index, match.start, message, edit)
    else:
        edit = None if fix is None else Edit(key, match.start, match.end, fix)
        yield report.at(subject, key, match.start, message, edit)


@rule(
    "GL201",
    "deprecated-term",
    Severity.WARNING,
    "A term the glossary marks deprecated, with its replacement.",
    "The community replaced some words (French compteur -> marqueur, joueur -> "
    "joueureuse; Esperanto militistaro -> armeo, resurso -> rimedo).  Cards still using "
    "the old word read inconsistently next to the others.  Found in every inflected form.",
    "en: Put two +1/+1 counters on me.\nfr: Place deux compteurs +1/+1 sur moi.",
    "en: Put two +1/+1 counters on me.\nfr: Place deux marqueurs +1/+1 sur moi.",
    "Replaces the term by its replacement in the same form (plural, -j, -n, capital), "
    "when the glossary names one replacement and the form is known.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
)
def check_deprecated_term(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _deprecated(subject, report, abilities=False)


@rule(
    "GL202",
    "deprecated-ability",
    Severity.WARNING,
    "A former name of an ability.",
    "Renamed abilities keep their old names in the abilities list's history; a card "
    "with the old name cannot be looked up.",
    "en: ***Necromancer***\neo: ***Nekromancianto***",
    "en: ***Necromancer***\neo: ***Nekromanciulo***",
    "Replaces the old name by the list's name.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
)
def check_deprecated_ability(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _deprecated(subject, report, abilities=True)


# --------------------------------------------------------------------------------------
# GL3: consistency across the library.


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


@rule(
    "GL301",
    "inconsistent-term",
    Severity.WARNING,
    "An admitted term where other cards render the same English term otherwise.",
    "Where the glossary admits several renderings of a term, a library still picks one.  "
    "A card using an admitted term is reported when other cards use the preferred term "
    "(or, between admitted terms, when the majority uses another).  Preferred terms are "
    "never reported: an entry with several preferred terms uses them by context (French "
    "'gets': perd, gagne, reçoit).",
    "en: Draw one resource card.\n"
    "eo: Eltiru unu rimedokarton.\n"
    "---\n"
    "en: Discard one resource card.\n"
    "eo: Forĵetu unu rimedokarton.\n"
    "---\n"
    "en: Reveal one resource card.\n"
    "eo: Montru unu rimedkarton.",
    "en: Draw one resource card.\n"
    "eo: Eltiru unu rimedokarton.\n"
    "---\n"
    "en: Discard one resource card.\n"
    "eo: Forĵetu unu rimedokarton.\n"
    "---\n"
    "en: Reveal one resource card.\n"
    "eo: Montru unu rimedokarton.",
    target=LIBRARY,
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


@rule(
    "GL302",
    "inconsistent-sentence",
    Severity.WARNING,
    "The same English sentence is translated differently on different cards.",
    "Reminder texts and common effects ('I am not marked for attacking.') recur on many "
    "cards; players expect the same words for the same rule.  Sentences are paired by "
    "position in paragraphs that match the English structure; the cards in the "
    "minority are reported with the majority's wording.  Sentences of fewer than three "
    "words are not compared.",
    "en: :m: Target player draws one card.\n"
    "fr: :m: La joueureuse ciblée pioche une carte.\n"
    "---\n"
    "en: :m: Target player draws one card.\n"
    "fr: :m: La joueureuse ciblée pioche une carte.\n"
    "---\n"
    "en: :m: Target player draws one card.\n"
    "fr: :m: Fais piocher une carte à la joueureuse ciblée.",
    "en: :m: Target player draws one card.\n"
    "fr: :m: La joueureuse ciblée pioche une carte.\n"
    "---\n"
    "en: :m: Target player draws one card.\n"
    "fr: :m: La joueureuse ciblée pioche une carte.\n"
    "---\n"
    "en: :m: Target player draws one card.\n"
    "fr: :m: La joueureuse ciblée pioche une carte.",
    target=LIBRARY,
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
