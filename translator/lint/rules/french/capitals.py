"""FR3 rules: capitals and emphasis.

Card names in sentence case (FR301), no capital on a subtype or ability name in running
text (FR302), in bold where the English writes it in bold (FR303), several subtypes on
the subtype line (FR304: one capital, commas) and an ability's definition (FR305: its
name in bold italics, the rest in italics).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ....diagnostics import Applicability, Severity
from ....glossary.matcher import normalize
from ....markup.tree import DropCap, Text
from ...capitals import title_key, title_words
from ...context import Reporter, Subject
from ...emphasis import NAME_PUNCTUATION, ability_definitions, glossary_kinds
from ...model import Edit, Finding, PlainParagraph
from ..translation.fields import ability_test
from .shared import FRENCH_RULES, english_paragraphs, sentence_start, word_list

#: The family of this module's rules (FR3).
FAMILY = FRENCH_RULES.part("FR3")


def _function_words(subject: Subject) -> frozenset[str]:
    """Words that never take a capital inside a title (``title-function-words`` of
    glossaries/lint/fr.yaml): FR301's fix."""
    return word_list("title-function-words")


_ROMAN = re.compile(r"[IVXLCDM]+$")


def _capitalised_in_glossary(subject: Subject) -> frozenset[str]:
    """Words the glossary writes with a capital, its proper nouns: faction names
    (*Enfants de Gaïa*, *Horde rouge*, *Ost de l'ombre*), a capital after the first word
    of a term, and a term the glossary capitalises (a library's place or character:
    *Salmère*).  Subtype and card-type terms are capitalised as headings, not as
    proper nouns."""

    def compute() -> frozenset[str]:
        found: set[str] = set()
        for entry in subject.language.glossary.entries.values():
            if entry.section == "subtype":
                continue  # compound subtypes are what FR304 checks
            for term in entry.terms:
                if term.deprecated:
                    continue
                words = [word for word, _, _ in title_words(term.text)]
                if entry.section == "type":
                    words = words[1:]
                found.update(normalize(word) for word in words if word[:1].isupper())
        return frozenset(found)

    return subject.language.memo("capitalised words", compute)


@FAMILY.rule(
    code="FR301",
    name="sentence-case-name",
    severity=Severity.WARNING,
    summary="A card name in French is in sentence case: only the first word and proper nouns "
    "capitalised.",
    rationale="The guide (Typographie): « Les titres ne prennent de majuscule qu'au premier mot, "
    "comme une phrase normale, (ce qui diffère de l'anglais) ».  Reported: a capital on "
    "any later word of `name` and on any word of `name2` (the title's second line), "
    "unless it is a proper noun: a word the glossary capitalises (factions, a "
    "library's places and characters), another card's name in French (*de Salmère*), "
    "an `allow-english` word, a roman numeral; or a word after . ! ?.  A name "
    "identical to the English one is a proper noun kept (TR502).  A proper noun the "
    "glossary lacks goes in the library's glossary.",
    bad="en.name: Lord of the City\nfr.name: Seigneur De La Cité",
    good="en.name: Lord of the City\nfr.name: Seigneur de la cité",
    fix="Writes the word in lower case, when it is a function word (de, du, la, ...) or a "
    "word of the glossary (cité, seigneur); other words may be proper nouns the "
    "glossary lacks, and get no fix.",
    applicability=Applicability.SAFE,
)
def check_sentence_case(subject: Subject, report: Reporter) -> Iterator[Finding]:
    yield from _title_capitals(subject, report)


def _title_capitals(subject: Subject, report: Reporter) -> Iterator[Finding]:
    name, name2 = subject.value("name"), subject.value("name2")
    if not any(c.isupper() for c in name[1:]) and not any(c.isupper() for c in name2):
        return  # the common case: nothing to look at
    vocabulary = subject.language.vocabulary
    function_words = _function_words(subject)
    proper = _capitalised_in_glossary(subject)
    allowed = subject.resources.allowed_words
    own = {title_key(name), title_key(f"{name.strip()} {name2.strip()}")}
    for key in ("name", "name2"):
        value = subject.value(key)
        if not value or value == subject.source_value(key):
            continue  # no name, or the English one kept (TR502)
        words = title_words(value)
        keys = [normalize(word) for word, _, _ in words]
        skip = 0
        for i, (word, start, end) in enumerate(words):
            if i < skip or (key == "name" and i == 0) or not word[:1].isupper():
                continue
            before = value[:start].rstrip(' \u00a0\u202f«"')
            lower = keys[i]
            if (
                (before and before[-1] in ".!?")
                or lower in proper
                or lower in allowed
                or _ROMAN.match(word)
            ):
                continue
            title = next(
                (
                    t
                    for t in _titles_from(subject, lower)
                    if t not in own and tuple(keys[i : i + len(t)]) == t
                ),
                None,
            )
            if title is not None:
                skip = i + len(title)  # another card's name: a proper noun
                continue
            if lower in function_words or lower in vocabulary:
                fixed = word[:1].lower() + word[1:]
                yield report.at(
                    subject,
                    key,
                    start,
                    f"'{word}' in a French card name: only the first word "
                    f"takes a capital ('{fixed}')",
                    Edit(key, start, end, fixed),
                )
            else:
                yield report.at(
                    subject,
                    key,
                    start,
                    f"'{word}' in a French card name: only the first word "
                    "and proper nouns take a capital (a proper noun "
                    "missing from the glossary goes in the library's)",
                )


def _titles_from(subject: Subject, word: str) -> list[tuple[str, ...]]:
    """The library's card names (word tuples) in the subject's language that start with
    ``word``, indexed once per run (the engine sets a new ``card_names`` each run)."""
    names = subject.resources.card_names.get(subject.lang, set())
    cached = subject.language.cache.get(_TITLE_INDEX)
    if cached is None or cached[0] is not names:
        index: dict[str, list[tuple[str, ...]]] = {}
        for title in names:
            index.setdefault(title[0], []).append(title)
        cached = subject.language.cache[_TITLE_INDEX] = (names, index)
    return cached[1].get(word, [])


_TITLE_INDEX = "FR301: card names by first word"


@FAMILY.rule(
    code="FR302",
    name="capital-in-text",
    severity=Severity.WARNING,
    summary="A subtype or ability name with a capital in running text.",
    rationale="The guide (Typographie): a « sous-type ou capacité, un nom de faction » in the text "
    "is in bold, « accordé en genre et en nombre (pas de « capitalisation ») ».  A "
    "capital at the start of a sentence, or of an ability's own name at the head of its "
    "paragraph, is not reported.  Faction names are not checked: the guide's own "
    "examples write « des Enfants de Gaïa » as the Lexique does, the sample « la horde "
    "rouge »; reviewers decide.",
    bad="en: All ***Skeletons*** get +1/+1 and gain ***Flying***.\n"
    "fr: Tous les **Squelettes** gagnent +1/+1 et acquièrent **Vol**.",
    good="en: All ***Skeletons*** get +1/+1 and gain ***Flying***.\n"
    "fr: Tous les **squelettes** gagnent +1/+1 et acquièrent **vol**.",
    fix="Writes the first letter in lower case.",
    applicability=Applicability.SAFE,
)
def check_capital_in_text(subject: Subject, report: Reporter) -> Iterator[Finding]:
    kinds = glossary_kinds(subject)
    english = english_paragraphs(subject)
    for index, match in subject.matches:
        kind = kinds.get(match.hit.id)
        if (
            index in english
            or kind is None
            or match.hit.status == "deprecated"
            or not match.text[:1].isupper()
        ):
            continue
        paragraph = subject.plain.paragraphs[index]
        if sentence_start(paragraph.text, match.start):
            continue
        fixed = match.text[:1].lower() + match.text[1:]
        edit = subject.text_edit(index, match.start, match.start + 1, fixed[:1])
        yield report.span(
            subject,
            index,
            match.start,
            f"'{match.text}' ({kind}) takes no capital in running text",
            edit,
        )


@FAMILY.rule(
    code="FR303",
    name="bold-names",
    severity=Severity.INFO,
    summary="A subtype or ability name the English writes in bold is not in simple bold: plain, "
    "in italics, or in bold italics.",
    rationale="The guide (Typographie): « Dans le texte, un sous-type ou capacité, un nom de "
    "faction ou le nom d'une autre carte est en gras simple » (its Example 2: « Tous les "
    "'''squelettes''' gagnent +1/+1 et acquièrent '''vol'''. »).  Only names the English "
    "text itself puts in bold are checked, so that a word used in its everyday sense is "
    "not reported.  The wrong kind is reported too: italics (the guide keeps them for "
    "« groupes nominaux clefs »), and bold italics, the English habit (« où le gras "
    "italique est utilisé »), when the bold italic run is the name alone (a key noun "
    "group in bold italics, as in the guide's Genre example, is left to reviewers), in "
    "rule paragraphs (flavour text is italic).  An ability's heading (each line of a "
    "paragraph naming one) is the definition's, and a name in an ability's reminder is "
    "italic as the reminder is (« dotées du vol ou de la longue portée »): FR305 judges "
    "both.",
    bad="en: All ***Soldiers*** get +1/+1 and gain ***Flying***.\n"
    "fr: Tous les ***soldats*** gagnent +1/+1 et acquièrent ***vol***.",
    good="en: All ***Soldiers*** get +1/+1 and gain ***Flying***.\n"
    "fr: Tous les **soldats** gagnent +1/+1 et acquièrent **vol**.",
)
def check_bold_names(subject: Subject, report: Reporter) -> Iterator[Finding]:
    assert subject.source is not None
    kinds = glossary_kinds(subject)
    source = subject.source.plain.paragraphs
    english_test, test = ability_test(subject, english=True), ability_test(subject)
    english_bold = {
        match.hit.id
        for index, match in subject.source.english_matches(subject.language)
        if _bold_in_text(source[index], match.start, english_test)
    }
    flavour = subject.plain.flavor_start
    reported: set[str] = set()
    for index, match in subject.matches:
        if (
            match.hit.id not in kinds
            or match.hit.id not in english_bold
            or match.hit.id in reported
        ):
            continue
        paragraph = subject.plain.paragraphs[index]
        if _heading(paragraph, match.start, test):
            continue
        runs = _runs_over(paragraph, match.start, match.start + len(match.text))
        if any(run.bold and not run.italic for run in runs):
            continue  # simple bold (on a compound's own subtype: jeton **boue**)
        if not any(run.bold for run in runs) and _in_reminder(paragraph, match.start, test):
            continue  # italic as the reminder is (FR305's matter), as the list writes it
        if any(run.bold for run in runs):  # bold italics: when the run is the name alone
            if index >= flavour or not all(
                _name_alone(run, match.text) for run in runs if run.bold
            ):
                continue
            kind = "in bold italics, as in English"
        else:
            kind = "in italics" if any(run.italic for run in runs) else "not in bold"
        reported.add(match.hit.id)
        yield report.span(
            subject,
            index,
            match.start,
            f"'{match.text}' ({kinds[match.hit.id]}) {kind}: the "
            "guide writes names in simple bold (gras simple)",
        )


def _heading(paragraph: PlainParagraph, start: int, is_ability: Callable[[str], bool]) -> bool:
    """Is ``start`` in the bold run opening a line that names an ability (the
    paragraph's first, or a later ability's: ``***Longue portée***`` under Vol's
    reminder is no name in the text)?"""
    return any(line.start <= start < line.end + 1 for line in paragraph.ability_lines(is_ability))


def _in_reminder(paragraph: PlainParagraph, start: int, is_ability: Callable[[str], bool]) -> bool:
    """Is ``start`` in an ability's reminder (« dotées du vol ou de la longue portée »
    under *Vol*)?"""
    return any(
        line.reminder is not None and line.reminder[0] <= start < line.reminder[1]
        for line in paragraph.ability_lines(is_ability)
    )


def _bold_in_text(paragraph: PlainParagraph, start: int, is_ability: Callable[[str], bool]) -> bool:
    """Bold in running text (not an ability's heading)."""
    return not _heading(paragraph, start, is_ability) and _bold_at(paragraph, start)


def _run_at(paragraph: PlainParagraph, start: int) -> Text | DropCap | None:
    """The text run holding character ``start``."""
    node = None
    for run_start, run in paragraph.runs:
        if run_start > start:
            break
        node = run
    return node


def _runs_over(paragraph: PlainParagraph, start: int, end: int) -> list[Text]:
    """The text runs holding characters of ``[start, end)`` (a name's words)."""
    found = []
    runs = paragraph.runs
    for i, (run_start, run) in enumerate(runs):
        run_end = runs[i + 1][0] if i + 1 < len(runs) else len(paragraph.text)
        if run_start < end and run_end > start and isinstance(run, Text) and run.text.strip():
            found.append(run)
    return found


def _bold_at(paragraph: PlainParagraph, start: int) -> bool:
    return bool(getattr(_run_at(paragraph, start), "bold", False))


def _name_alone(run: Text, name: str) -> bool:
    """Does the run hold nothing but the name or words of it (and spaces, punctuation),
    not a longer noun group?"""
    text = normalize(run.text.strip(NAME_PUNCTUATION))
    return bool(text) and text in normalize(name)


# --------------------------------------------------------------------------------------
# The subtype line and ability definitions.


@FAMILY.rule(
    code="FR304",
    name="subtype-case",
    severity=Severity.WARNING,
    summary="Several subtypes: only the first takes a capital, and commas separate them.",
    rationale="The guide (Typographie): « Si une carte a plusieurs sous-types, seulement le "
    "premier "
    "prend une majuscule et on les sépare par des virgules. »  Checked when the glossary "
    "cannot render the English subtype (otherwise TR402 compares the whole line).",
    bad="en.subtype: Human Pirate\nfr.subtype: Pirate, Humain",
    good="en.subtype: Human Pirate\nfr.subtype: Pirate, humain",
    fix="Writes the later subtypes in lower case.",
    applicability=Applicability.SAFE,
)
def check_subtype_case(subject: Subject, report: Reporter) -> Iterator[Finding]:
    here = subject.value("subtype")
    english = subject.source_value("subtype")
    if not here or "," not in here or (english and subject.language.subtype(english)):
        return
    proper = _capitalised_in_glossary(subject)
    offset = here.index(",") + 1
    for part in here.split(",")[1:]:
        start = offset + len(part) - len(part.lstrip())
        word = part.strip()
        if word[:1].isupper() and normalize(word.split()[0]) not in proper:
            fixed = word[:1].lower() + word[1:]
            yield report.at(
                subject,
                "subtype",
                start,
                f"'{word}': only the first subtype takes a capital",
                Edit("subtype", start, start + 1, fixed[:1]),
            )
        offset += len(part) + 1


@FAMILY.rule(
    code="FR305",
    name="ability-definition",
    severity=Severity.INFO,
    summary="An ability's definition: its name in bold italics, the reminder in simple italics "
    "(not plain, not bold).",
    rationale="The guide (Typographie): « Pour la définition d'une capacité sur une carte de "
    "créature (cf exemple 3), le nom de la capacité est en gras italique, et le reste de "
    "la définition en italique simple » (« '''''Vol -''' Seules les créatures dotées du "
    "vol ou de la longue portée peuvent me bloquer'' »).  Checked where the English card "
    "writes the ability so; each way of missing it is named: the name plain, in italics "
    "or in simple bold; the reminder plain, in bold or in bold italics (also when the "
    "bold italics of the name run on into it).  The name may be followed by a line "
    "break (`***Vol***\\` then `*reminder*`) or, as in the guide's example, by a dash on "
    "the same line (`***Vol -*** *reminder*`); punctuation between the two, and a "
    "subtype or ability name in simple bold inside the reminder (the guide's « gras "
    "simple » for names in the text), are not reported.",
    bad="en: ***Flying***\\\n"
    "  *Only creatures with flying and ranged can defend against me.*\n"
    "fr: **Vol**\\\n"
    "  ***Seules les créatures dotées du vol ou de la longue portée peuvent me bloquer.***",
    good="en: ***Flying***\\\n"
    "  *Only creatures with flying and ranged can defend against me.*\n"
    "fr: ***Vol***\\\n"
    "  *Seules les créatures dotées du vol ou de la longue portée peuvent me bloquer.*",
)
def check_ability_definition(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for found, at, name, problems in ability_definitions(subject):
        yield report.span(
            subject,
            found,
            at,
            f"'{name}': {'; '.join(problems)} (the guide: the "
            "name in bold italics, the rest in simple italics)",
        )
