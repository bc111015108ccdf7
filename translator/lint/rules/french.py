"""FR rules: the French style guide (*Recommandations pour la traduction française*).

Form of address (FR101), the gender of *la joueureuse* (FR102), digits and letters
(FR103), typography (FR2: no-break spaces, « », apostrophes, ellipsis, spaces),
capitals and emphasis (FR3: names, subtypes, bold names, ability definitions), the
hyphen of an imperative with a pronoun (FR401) and the pre-print checklist (FR402).
The guide's deprecated words (*joueur*, *compteur*, *défendre contre*, *dévotion
d'une cité*, the enumeration *enchantements, magie, évènements*) are glossary
entries, found by GL201 in every form.

Rules read the printed text (:attr:`Subject.plain`); fixes go through
:meth:`Subject.text_edit`, which gives up (no fix) where the printed characters are
not written as such in the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache

from ...diagnostics import Applicability, Severity, rule
from ...glossary.matcher import normalize
from ...languages.data import normalized, shipped
from ...languages.fr import LANGUAGE as FRENCH
from ...markup.tree import DropCap, Text
from ..capitals import title_key, title_words
from ..context import Reporter, Subject
from ..emphasis import NAME_PUNCTUATION, ability_definitions, glossary_kinds
from ..model import Edit, Finding, PlainParagraph
from ..numbers import Number, read_numbers
from ..rule import TRANSLATION
from .translation import aligned
from .translation.fields import ability_test

NBSP, NNBSP = "\u00a0", "\u202f"
_SPACES = {"either": (NBSP, NNBSP), "no-break": (NBSP,), "narrow": (NNBSP,)}
_ENTITY_END = re.compile(r"&#?\w+;$")


def _sentence_start(text: str, start: int) -> bool:
    """Does a sentence (or a line) start at ``start``?"""
    before = text[:start].rstrip(' \u00a0\u202f\t*«"')
    return not before or before[-1] in ".!?:\n\ufffc"


def _english_paragraphs(subject: Subject) -> set[int]:
    """Paragraphs written exactly as their English paragraph: English left over (TR501,
    TR503 report it), not French for the French guide to judge (the French abilities
    list keeps *Sand Copy*'s English reminder, with its capitals)."""
    found = subject.cache.get(_ENGLISH_PARAGRAPHS)
    if found is None:
        assert subject.source is not None
        source = subject.source.plain.paragraphs
        found = {
            p.index
            for p in subject.plain.paragraphs
            if (i := aligned(subject, p.index)) is not None
            and p.text.strip() == source[i].text.strip()
        }
        subject.cache[_ENGLISH_PARAGRAPHS] = found
    return found


_ENGLISH_PARAGRAPHS = "FR: paragraphs in English"
#: The word lists of these rules (vous-words, masculine-determiners...).
RULE_DATA = "lint/fr.yaml"


@cache
def _words(key: str) -> frozenset[str]:
    """A word list of the rules' data, ``glossaries/lint/fr.yaml`` (read once), its
    words normalized as the text's are."""
    return normalized(shipped(RULE_DATA).words(key))


@cache
def _feminine_determiners() -> dict[str, str]:
    """Masculine determiner or contraction before *joueureuse* -> its feminine (""
    when there is none to write: *chaque*)."""
    return shipped(RULE_DATA).table("masculine-determiners")


# --------------------------------------------------------------------------------------
# FR1: address, gender, numbers.


@rule(
    "FR101",
    "tutoiement",
    Severity.WARNING,
    "`vous`, `votre`, `vos` or an imperative in -ez: the guide says tu.",
    "The guide (Tutoiement): « On tutoie la joueureuse. Et on lui parle à l'impératif. » "
    "(your -> ton, you -> tu).  Its own Example 2 still has the old form: « Faites "
    "piocher une carte au joueur ciblé. »",
    "en: Draw two cards and put them into your hand.\n"
    "fr: Piochez deux cartes et placez-les dans votre main.",
    "en: Draw two cards and put them into your hand.\n"
    "fr: Pioche deux cartes et place-les dans ta main.",
    target=TRANSLATION,
    languages=("fr",),
)
def check_tutoiement(subject: Subject, report: Reporter) -> Iterator[Finding]:
    english = _english_paragraphs(subject)
    for paragraph in subject.plain.paragraphs:
        if paragraph.index in english:
            continue
        for word, start, end in paragraph.tokens:
            head = word.split("-")[0]
            if word in _words("vous-words"):
                yield report.span(
                    subject,
                    paragraph.index,
                    start,
                    f"'{paragraph.text[start:end]}': the guide says tu (ton, ta, tes)",
                )
            elif (
                head in _words("vous-imperatives")
                or (head.endswith("ez") and len(head) > 4 and head not in _words("not-imperatives"))
            ) and _sentence_start(paragraph.text, start):
                yield report.span(
                    subject,
                    paragraph.index,
                    start,
                    f"'{paragraph.text[start:end]}': the imperative is in tu, not vous",
                )


_PLAYER = re.compile(r"\b(joueureuses?)\b", re.IGNORECASE)
_DETERMINER = re.compile(r"(\w+)[ \u00a0]+$")
_PARTICIPLE = re.compile(r"^[ \u00a0]+(\w+)")


@rule(
    "FR102",
    "joueureuse-gender",
    Severity.WARNING,
    "*joueureuse* is always feminine: `la`, `une`, `de la`, `ciblée`.",
    "The guide (Genre): « « La joueureuse » toujours au féminin ».  Masculine "
    "determiners (le, un, du, au, ce) and masculine participles after it (ciblé, "
    "attaqué) are reported, with the feminine as the fix.  *joueur* and *joueuse* "
    "themselves are deprecated glossary terms (GL201).",
    "en: Target player draws one card.\nfr: Le joueureuse ciblé pioche une carte.",
    "en: Target player draws one card.\nfr: La joueureuse ciblée pioche une carte.",
    "Replaces the determiner (le -> la, un -> une, du -> de la, au -> à la, ce -> "
    "cette) or adds the -e of the participle.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
)
def check_joueureuse(subject: Subject, report: Reporter) -> Iterator[Finding]:
    english = _english_paragraphs(subject)
    for paragraph in subject.plain.paragraphs:
        if paragraph.index in english:
            continue
        text = paragraph.text
        for match in _PLAYER.finditer(text):
            plural = match.group(1).lower().endswith("s")
            before = _DETERMINER.search(text[: match.start()])
            masculine = _feminine_determiners()
            if before and not plural and before.group(1).lower() in masculine:
                word = before.group(1)
                feminine = masculine[word.lower()]
                if feminine:
                    if word[:1].isupper():
                        feminine = feminine[:1].upper() + feminine[1:]
                    edit = subject.text_edit(
                        paragraph.index, before.start(1), before.end(1), feminine
                    )
                    yield report.span(
                        subject,
                        paragraph.index,
                        before.start(1),
                        f"'{word} {match.group(1)}': la joueureuse is feminine ('{feminine}')",
                        edit,
                    )
            after = _PARTICIPLE.match(text[match.end() :])
            if after:
                word = after.group(1)
                lower = word.lower()
                if lower.endswith("é") or (plural and lower.endswith("és")):
                    start = match.end() + after.start(1)
                    feminine = word + "e" if lower.endswith("é") else word[:-1] + "es"
                    edit = subject.text_edit(paragraph.index, start, start + len(word), feminine)
                    yield report.span(
                        subject,
                        paragraph.index,
                        start,
                        f"'{match.group(1)} {word}': the participle "
                        f"agrees with la joueureuse ('{feminine}')",
                        edit,
                    )


@rule(
    "FR103",
    "digits-and-letters",
    Severity.WARNING,
    "Damage and costs in digits, other quantities in letters, as the English writes them.",
    "The guide (Des chiffres et des lettres): « On conserve la notation en chiffre "
    "utilisée en anglais : Les dégats et les coûts en chiffres, le reste en lettres. » "
    "(« Deal 3 dammage. » -> « Inflige 3 dégâts. »; « Draw two cards. » -> « Pioche "
    "deux cartes. »).  A number the English writes in letters is written in letters, one "
    "it writes in digits in digits; damage is always in digits.",
    "en: Draw two cards.\nfr: Pioche 2 cartes.",
    "en: Draw two cards.\nfr: Pioche deux cartes.",
    "Writes the number as the English does (not for 1, whose gender the rule cannot "
    "tell: un or une).",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
)
def check_digits_and_letters(subject: Subject, report: Reporter) -> Iterator[Finding]:
    assert subject.source is not None
    words = subject.language.numbers
    in_english = _english_paragraphs(subject)
    for paragraph in subject.plain.paragraphs:
        if paragraph.index in in_english:
            continue
        english = _english_roles(subject, paragraph.index)
        for number in read_numbers(paragraph.text, words, paragraph.tokens):
            found = _notation_fault(number, paragraph.text, english, subject.language.spellings)
            if found is None:
                continue
            replacement, why = found
            written = paragraph.text[number.start : number.end]
            edit = (
                subject.text_edit(paragraph.index, number.start, number.end, replacement)
                if replacement
                else None
            )
            yield report.span(
                subject,
                paragraph.index,
                number.start,
                f"'{written}': {why}" + (f" ('{replacement}')" if replacement else ""),
                edit,
            )


def _english_roles(subject: Subject, index: int) -> dict[str, set[str]]:
    """How the English paragraph aligned with paragraph ``index`` writes each of its
    numbers: in digits (``number``), in letters (``word``), or both; empty when no
    English paragraph is aligned with it."""
    assert subject.source is not None
    english: dict[str, set[str]] = {}
    aligned_index = aligned(subject, index)
    if aligned_index is not None:
        source = subject.source.plain.paragraphs[aligned_index]
        for number in read_numbers(source.text, subject.resources.english.numbers, source.tokens):
            english.setdefault(number.value, set()).add(number.role)
    return english


def _notation_fault(
    number: Number, text: str, english: dict[str, set[str]], spellings: dict[str, str]
) -> tuple[str, str] | None:
    """(replacement, why) when ``number`` of the French ``text`` is written otherwise
    than the guide wants: in digits before a damage or cost noun, else as the English
    writes it (``english``: how it writes each number); None when it is right, or when
    the English is no guide (a stat, X, a signed number, a number written both ways).
    The replacement is empty for 1, whose gender (un, une) the rule cannot tell."""
    if number.role == "stat" or number.value == "x" or number.value.startswith(("+", "-")):
        return None
    following = text[number.end :].split(maxsplit=1)
    noun = following[0].strip(".,;:!?").lower() if following else ""
    digit_noun = noun in _words("digit-nouns")
    if digit_noun:
        wanted = "number"
    else:
        roles = english.get(number.value, set())
        if len(roles) != 1 or roles == {number.role}:
            return None
        wanted = next(iter(roles))
    if wanted == number.role:
        return None
    if wanted == "number":
        why = "damage and costs in digits" if digit_noun else "the English writes it in digits"
        return number.value, why
    # un or une: the gender of what follows decides, not this rule
    replacement = spellings.get(number.value, "") if number.value != "1" else ""
    return replacement, "the English writes it in letters"


# --------------------------------------------------------------------------------------
# FR2: typography.


def _space_setting(subject: Subject) -> tuple[str, ...]:
    return _SPACES.get(str(subject.resources.settings.get("french-spaces")), _SPACES["either"])


@rule(
    "FR201",
    "no-break-space",
    Severity.WARNING,
    "A French ; : ! ? » takes a no-break space before it, « one after it.",
    "French typography puts a space before the high punctuation and inside « », and it "
    "must not break (a « ! » alone at the start of a line).  The guide's pre-print "
    "checklist asks for it: « Insécables (scripter ?) ».  The space is U+00A0 or the "
    "narrow U+202F: `french-spaces` in the configuration accepts either (the default) "
    "or requires one.",
    'en: *"Boom. Boom. Run!"*\nfr: *« Boum. Boum. Cours ! »*',
    'en: *"Boom. Boom. Run!"*\nfr: *«\u00a0Boum. Boum. Cours\u00a0!\u00a0»*',
    'Replaces the space by a no-break space (U+202F with french-spaces = "narrow", else '
    "U+00A0), or inserts one.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
)
def check_no_break_space(subject: Subject, report: Reporter) -> Iterator[Finding]:
    allowed = _space_setting(subject)
    fix_char = allowed[0]
    # The characters a no-break space precedes (; : ! ? »): French typography.
    high_punctuation = FRENCH.typography.no_break_before
    for paragraph in subject.plain.paragraphs:
        text = paragraph.text
        for i, char in enumerate(text):
            if char in high_punctuation:
                if char == ";" and _ENTITY_END.search(text, 0, i + 1):
                    continue  # the end of an entity (&#8239;): MK404 says how to write it
                if _ENTITY_END.search(text, 0, i):
                    continue  # a space written as an entity (MK404)
                if (
                    i == 0
                    or text[i - 1] in "\n\ufffc!?"
                    or (
                        char == ":"
                        and i + 1 < len(text)
                        and text[i - 1].isdigit()
                        and text[i + 1].isdigit()
                    )
                ):
                    continue
                yield from _space(
                    subject, report, paragraph, i - 1, i, allowed, fix_char, f"before '{char}'"
                )
            elif char == "«":
                if i + 1 >= len(text) or text[i + 1] == "\n":
                    continue
                yield from _space(
                    subject, report, paragraph, i + 1, i + 1, allowed, fix_char, "after '«'"
                )
    yield from _footer_spaces(subject, report, allowed, fix_char)


def _footer_spaces(
    subject: Subject, report: Reporter, allowed: tuple[str, ...], fix_char: str
) -> Iterator[Finding]:
    """The footer a translation writes prints too: a plain space before its « ! » is
    the same defect as in the text (TR701 compares footers with the spaces set
    aside, so one of the two rules reports it, not both)."""
    footer = subject.value("info")
    if not footer:
        return
    high_punctuation = FRENCH.typography.no_break_before
    for i, char in enumerate(footer):
        if char in high_punctuation and i > 0 and footer[i - 1] == " " and " " not in allowed:
            yield report.at(
                subject,
                "info",
                i - 1,
                f"a space before '{char}' in the footer: write a no-break space",
                Edit("info", i - 1, i, fix_char),
            )


def _space(
    subject: Subject,
    report: Reporter,
    paragraph: PlainParagraph,
    at: int,
    insert_at: int,
    allowed: tuple[str, ...],
    fix_char: str,
    where: str,
) -> Iterator[Finding]:
    """A finding unless the character at ``at`` is an allowed no-break space."""
    text = paragraph.text
    char = text[at] if 0 <= at < len(text) else ""
    if char in allowed:
        return
    if char in (" ", NBSP, NNBSP):
        name = "a space" if char == " " else f"U+{ord(char):04X}"
        edit = subject.text_edit(paragraph.index, at, at + 1, fix_char)
        yield report.span(
            subject, paragraph.index, at, f"{name} {where}: write a no-break space", edit
        )
    else:
        edit = subject.text_edit(paragraph.index, insert_at, insert_at, fix_char)
        yield report.span(
            subject, paragraph.index, insert_at, f"no space {where}: write a no-break space", edit
        )


_STRAIGHT_QUOTES = re.compile(r"\"([^\"\n]+)\"|“([^”\n]+)”")


@rule(
    "FR202",
    "french-quotes",
    Severity.WARNING,
    'Quotation marks in French are « », not " " or “ ”.',
    "The checklist: « Guillements typographiques (scripter ?) ».  Flavour text is "
    "also how Aminduna recognises flavour: an italic paragraph opening with «.",
    'en: *"Steel does not hesitate."*\nfr: *"L’acier n’hésite pas."*',
    'en: *"Steel does not hesitate."*\nfr: *«\u00a0L’acier n’hésite pas.\u00a0»*',
    "Replaces a pair of quotes in one paragraph by « » with no-break spaces inside.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
)
def check_french_quotes(subject: Subject, report: Reporter) -> Iterator[Finding]:
    space = _space_setting(subject)[0]
    for paragraph in subject.plain.paragraphs:
        for match in _STRAIGHT_QUOTES.finditer(paragraph.text):
            inner = match.group(1) or match.group(2)
            replacement = f"«{space}{inner.strip()}{space}»"
            edit = subject.text_edit(paragraph.index, match.start(), match.end(), replacement)
            yield report.span(
                subject, paragraph.index, match.start(), "quotation marks: write « »", edit
            )


_STRAIGHT_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
_CURLY_APOSTROPHE = re.compile(r"(?<=\w)’(?=\w)")


@rule(
    "FR203",
    "apostrophe",
    Severity.INFO,
    "An apostrophe that is not the configured one (’ by default).",
    "One apostrophe throughout a card and a deck: the typographic ’ by default "
    '(`apostrophe = "\'"` in the configuration for the straight one).',
    "en: In combat, I deal damage first.\nfr: Au combat, j'inflige les dégâts en premier.",
    "en: In combat, I deal damage first.\nfr: Au combat, j’inflige les dégâts en premier.",
    "Replaces the apostrophe.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
)
def check_apostrophe(subject: Subject, report: Reporter) -> Iterator[Finding]:
    wanted = str(subject.resources.settings.get("apostrophe") or "’")
    wrong = _STRAIGHT_APOSTROPHE if wanted == "’" else _CURLY_APOSTROPHE
    for paragraph in subject.plain.paragraphs:
        for match in wrong.finditer(paragraph.text):
            edit = subject.text_edit(paragraph.index, match.start(), match.end(), wanted)
            yield report.span(
                subject,
                paragraph.index,
                match.start(),
                f"apostrophe {match.group()}: write {wanted}",
                edit,
            )


#: What FR204, FR205 and FR206 look for: a pattern, what replaces a match (the fix),
#: and the message (``{next}``: the character after the match).
SpacingPattern = tuple[re.Pattern[str], str, str]
_ELLIPSIS: SpacingPattern = (
    re.compile(r"(?<!\.)\.\.\.(?!\.)"),
    "…",
    "three dots: write the ellipsis …",
)
_DOUBLE_SPACE: SpacingPattern = (re.compile(r"(?<=\S)  +(?=\S)"), " ", "two spaces: write one")
_SPACE_BEFORE_PERIOD: SpacingPattern = (
    re.compile(r"(?<=\w)[ \u00a0\u202f]+(?=(?:[.,]|…)(?:\s|$))"),
    "",
    "a space before '{next}': remove it",
)


def _pattern_rule(subject: Subject, report: Reporter, spacing: SpacingPattern) -> Iterator[Finding]:
    """The findings of one spacing pattern, each with its fix."""
    pattern, replacement, message = spacing
    for paragraph in subject.plain.paragraphs:
        for match in pattern.finditer(paragraph.text):
            following = paragraph.text[match.end() : match.end() + 1]
            edit = subject.text_edit(paragraph.index, match.start(), match.end(), replacement)
            yield report.span(
                subject, paragraph.index, match.start(), message.format(next=following), edit
            )


@rule(
    "FR204",
    "ellipsis",
    Severity.INFO,
    "Three dots: the ellipsis is one character, …",
    "The ellipsis … is one typographic character; three dots may break across lines "
    "and space out differently.",
    'en: *"And then..."*\nfr: *«\u00a0Et puis...\u00a0»*',
    'en: *"And then..."*\nfr: *«\u00a0Et puis…\u00a0»*',
    "Replaces the three dots by ….",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
)
def check_ellipsis(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _pattern_rule(subject, report, _ELLIPSIS)


@rule(
    "FR205",
    "double-space",
    Severity.WARNING,
    "Two spaces between words.",
    "Aminduna prints every space: two spaces make a visible gap in the card text.",
    "en: Draw one card.\nfr: Pioche  une carte.",
    "en: Draw one card.\nfr: Pioche une carte.",
    "Replaces them by one space.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
)
def check_double_space(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _pattern_rule(subject, report, _DOUBLE_SPACE)


@rule(
    "FR206",
    "space-before-period",
    Severity.WARNING,
    "A space before a full stop, a comma or an ellipsis.",
    "French puts no space before . , and … (unlike ; : ! ?).  Grammalecte misses it "
    "(qa-tools.md: « carte . » passed).",
    "en: Draw one card.\nfr: Pioche une carte .",
    "en: Draw one card.\nfr: Pioche une carte.",
    "Removes the space.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
)
def check_space_before_period(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _pattern_rule(subject, report, _SPACE_BEFORE_PERIOD)


# --------------------------------------------------------------------------------------
# FR3: capitals and emphasis.


def _function_words(subject: Subject) -> frozenset[str]:
    """Words that never take a capital inside a title (``title-function-words`` of
    glossaries/lint/fr.yaml): FR301's fix."""
    return _words("title-function-words")


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


@rule(
    "FR301",
    "sentence-case-name",
    Severity.WARNING,
    "A card name in French is in sentence case: only the first word and proper nouns capitalised.",
    "The guide (Typographie): « Les titres ne prennent de majuscule qu'au premier mot, "
    "comme une phrase normale, (ce qui diffère de l'anglais) ».  Reported: a capital on "
    "any later word of `name` and on any word of `name2` (the title's second line), "
    "unless it is a proper noun: a word the glossary capitalises (factions, a "
    "library's places and characters), another card's name in French (*de Salmère*), "
    "an `allow-english` word, a roman numeral; or a word after . ! ?.  A name "
    "identical to the English one is a proper noun kept (TR502).  A proper noun the "
    "glossary lacks goes in the library's glossary.",
    "en.name: Lord of the City\nfr.name: Seigneur De La Cité",
    "en.name: Lord of the City\nfr.name: Seigneur de la cité",
    "Writes the word in lower case, when it is a function word (de, du, la, ...) or a "
    "word of the glossary (cité, seigneur); other words may be proper nouns the "
    "glossary lacks, and get no fix.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
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


@rule(
    "FR302",
    "capital-in-text",
    Severity.WARNING,
    "A subtype or ability name with a capital in running text.",
    "The guide (Typographie): a « sous-type ou capacité, un nom de faction » in the text "
    "is in bold, « accordé en genre et en nombre (pas de « capitalisation ») ».  A "
    "capital at the start of a sentence, or of an ability's own name at the head of its "
    "paragraph, is not reported.  Faction names are not checked: the guide's own "
    "examples write « des Enfants de Gaïa » as the Lexique does, the sample « la horde "
    "rouge »; reviewers decide.",
    "en: All ***Skeletons*** get +1/+1 and gain ***Flying***.\n"
    "fr: Tous les **Squelettes** gagnent +1/+1 et acquièrent **Vol**.",
    "en: All ***Skeletons*** get +1/+1 and gain ***Flying***.\n"
    "fr: Tous les **squelettes** gagnent +1/+1 et acquièrent **vol**.",
    "Writes the first letter in lower case.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
)
def check_capital_in_text(subject: Subject, report: Reporter) -> Iterator[Finding]:
    kinds = glossary_kinds(subject)
    english = _english_paragraphs(subject)
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
        if _sentence_start(paragraph.text, match.start):
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


@rule(
    "FR303",
    "bold-names",
    Severity.INFO,
    "A subtype or ability name the English writes in bold is not in simple bold: plain, "
    "in italics, or in bold italics.",
    "The guide (Typographie): « Dans le texte, un sous-type ou capacité, un nom de "
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
    "en: All ***Soldiers*** get +1/+1 and gain ***Flying***.\n"
    "fr: Tous les ***soldats*** gagnent +1/+1 et acquièrent ***vol***.",
    "en: All ***Soldiers*** get +1/+1 and gain ***Flying***.\n"
    "fr: Tous les **soldats** gagnent +1/+1 et acquièrent **vol**.",
    target=TRANSLATION,
    languages=("fr",),
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
# FR4: imperative with a pronoun; the checklist.

#: An enclitic pronoun after a space (checked against the language's enclitics).
#: A pattern, not a list: what may follow tells a pronoun from an article (moi, toi,
#: lui, nous anywhere; la, le, les, en, y only before punctuation).
_PRONOUN = re.compile(
    r"(?<=\w) (moi|toi|lui|nous)(?=[\s.,;:!?\u00a0\u202f]|$)|"
    r"(?<=\w) (la|le|les|en|y)(?=[.,;:!?\u00a0\u202f]|$)"
)


@rule(
    "FR401",
    "imperative-hyphen",
    Severity.WARNING,
    "An imperative and its pronoun are joined by a hyphen: Sacrifie-moi, Défausse-la.",
    "French writes the pronoun after an imperative with a hyphen.  The guide's own "
    "example lacks it: « Sacrifie moi pour produire une ressource des Enfants de Gaïa. "
    "»  Reported when a sentence opens with a verb followed by moi, toi, lui, nous, or "
    "by le, la, les, en, y before a punctuation mark (otherwise they are articles).",
    "en: Sacrifice me to produce one Gaian resource.\n"
    "fr: Sacrifie moi pour produire une ressource des Enfants de Gaïa.",
    "en: Sacrifice me to produce one Gaian resource.\n"
    "fr: Sacrifie-moi pour produire une ressource des Enfants de Gaïa.",
    "Replaces the space by a hyphen.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
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
                or verb.group(1).lower() in _words("not-verbs")
                or not _sentence_start(text, verb.start(1))
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


@rule(
    "FR402",
    "spell-enumeration",
    Severity.WARNING,
    "The three spell types listed (enchantements, magie, évènements): write « sorts ».",
    "The guide's pre-print checklist: « Remplacer les énumérations « enchantements, "
    "magie, évènements » par « sorts » (spells) ».  Any order and any joining words; "
    "the exact phrase is also a deprecated glossary term (GL201).",
    "en: I cannot be the target of spells.\n"
    "fr: Je ne peux pas être la cible d’évènements, de magies ou d’enchantements.",
    "en: I cannot be the target of spells.\nfr: Je ne peux pas être la cible de sorts.",
    target=TRANSLATION,
    languages=("fr",),
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


# --------------------------------------------------------------------------------------
# FR3 (cont.): the subtype line and ability definitions.


@rule(
    "FR304",
    "subtype-case",
    Severity.WARNING,
    "Several subtypes: only the first takes a capital, and commas separate them.",
    "The guide (Typographie): « Si une carte a plusieurs sous-types, seulement le premier "
    "prend une majuscule et on les sépare par des virgules. »  Checked when the glossary "
    "cannot render the English subtype (otherwise TR402 compares the whole line).",
    "en.subtype: Human Pirate\nfr.subtype: Pirate, Humain",
    "en.subtype: Human Pirate\nfr.subtype: Pirate, humain",
    "Writes the later subtypes in lower case.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("fr",),
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


@rule(
    "FR305",
    "ability-definition",
    Severity.INFO,
    "An ability's definition: its name in bold italics, the reminder in simple italics "
    "(not plain, not bold).",
    "The guide (Typographie): « Pour la définition d'une capacité sur une carte de "
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
    "en: ***Flying***\\\n"
    "  *Only creatures with flying and ranged can defend against me.*\n"
    "fr: **Vol**\\\n"
    "  ***Seules les créatures dotées du vol ou de la longue portée peuvent me bloquer.***",
    "en: ***Flying***\\\n"
    "  *Only creatures with flying and ranged can defend against me.*\n"
    "fr: ***Vol***\\\n"
    "  *Seules les créatures dotées du vol ou de la longue portée peuvent me bloquer.*",
    target=TRANSLATION,
    languages=("fr",),
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
