"""What the EO rules share: their family, where they look (printed paragraphs and front
matter fields, :class:`Place`), how they report there, and what an Esperanto word looks
like.
"""

from __future__ import annotations

from dataclasses import dataclass

from ....cards.model import SOURCE_LANGUAGE, is_default_footer
from ....diagnostics import Family
from ....glossary.matcher import words
from ....languages.eo import LANGUAGE as ESPERANTO
from ...context import Reporter, Subject
from ...model import SYMBOL_MARK, Edit, Finding
from ...rule import TRANSLATION

#: The EO rules: each reads one Esperanto translation.
ESPERANTO_RULES = Family(prefix="EO", target=TRANSLATION, languages=("eo",))


# The alphabet, the endings, the supersigned letters and the x- and h-system tables
# are the language's (ESPERANTO: glossaries/eo/language.yaml), read on first use.
#: Spaces a rule may see (plain, tab, no-break, narrow no-break).
SPACES = " \t\u00a0\u202f"
#: Fields checked besides the text: the name lines and the subtype (the footer too,
#: when the English card has its own; otherwise TR701 compares it whole).
_FIELDS = ("name", "name2", "subtype")


# --------------------------------------------------------------------------------------
# Where the rules look: printed paragraphs and front matter fields.


@dataclass(frozen=True, slots=True)
class Place:
    """A text a rule reads: a printed paragraph (``index``) or a field's value."""

    key: str
    index: int | None
    text: str
    tokens: list[tuple[str, int, int]]


def places(subject: Subject) -> list[Place]:
    """The printed paragraphs, then the name, name2 and subtype values (and the info
    value when the English card has its own footer line); computed once per card
    version, for every EO rule."""
    cached: list[Place] | None = subject.cache.get(("tree", "EO places"))
    if cached is not None:
        return cached
    found = subject.cache["tree", "EO places"] = [
        Place("text", p.index, p.text, p.tokens) for p in subject.plain.paragraphs
    ]
    keys = list(_FIELDS)
    english_footer = subject.source_value("info")
    if english_footer and not is_default_footer(english_footer, SOURCE_LANGUAGE):
        keys.append("info")
    for key in keys:
        value = subject.value(key)
        if value:
            found.append(Place(key, None, value, words(value)))
    return found


def place_finding(
    subject: Subject,
    report: Reporter,
    place: Place,
    start: int,
    message: str,
    fix: tuple[int, int, str] | None = None,
) -> Finding:
    """A finding at character ``start`` of a place, with the fix replacing characters
    ``[fix[0], fix[1])`` by ``fix[2]`` where it can be written safely."""
    if place.index is None:
        edit = None if fix is None else Edit(place.key, *fix)
        return report.at(subject, place.key, start, message, edit)
    edit = None if fix is None else subject.text_edit(place.index, *fix)
    return report.span(subject, place.index, start, message, edit)


def printed_space(subject: Subject, place: Place, index: int) -> bool:
    """Is character ``index`` a space written in the file (not a symbol, not markup)?"""
    if place.text[index] not in SPACES:
        return False
    if place.index is None:
        return True
    paragraph = subject.plain.paragraphs[place.index]
    for start, node in paragraph.runs:
        text = getattr(node, "text", None)
        if text is not None and start <= index < start + len(text):
            return True
    return False


def sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip(SPACES + '*«»"“„(' + SYMBOL_MARK)
    return not before or before[-1] in ".!?:\n"


def known(subject: Subject, word: str) -> bool:
    """A word of the glossaries (either side), the English word list or the configured
    allowed words: no spelling rule reports it."""
    resources = subject.resources
    return (
        word in subject.language.vocabulary
        or word in resources.allowed_words
        or word in resources.english_words
        or word in resources.english.vocabulary
    )


def with_case(letter: str, model: str) -> str:
    return letter.upper() if model.isupper() else letter


def looks_esperanto(word: str) -> bool:
    """Could ``word`` (lower case, supersigns written) be an Esperanto word?  Every
    letter is in the alphabet, ŭ follows a or e (or opens the word: Ŭargo), and the
    word has an Esperanto ending: a vowel or ŭ (then -j, -n), a verb ending (-as, -is,
    -os, -us), or it is a particle such as ĉar, ĝis, eĉ, ĉiam."""
    letters = [c for c in word if c.isalpha()]
    if not letters or any(c not in ESPERANTO.alphabet for c in letters):
        return False
    for i, char in enumerate(word):
        if char == "ŭ" and i > 0 and word[i - 1] not in "ae-":
            return False
    last = word.rsplit("-", 1)[-1]
    if last in ESPERANTO.consonant_words or last.endswith(ESPERANTO.endings.finite):
        return True
    stem = last[:-1] if last.endswith("n") else last
    stem = stem[:-1] if stem.endswith("j") else stem
    return bool(stem) and (stem[-1] in ESPERANTO.vowels or stem[-1] == "ŭ")
