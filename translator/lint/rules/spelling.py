"""SP rules: spelling, with the Debian Hunspell dictionaries and the glossaries.

Measured on prose nobody here wrote: docs/lint-spelling.md.

The dictionaries, what is accepted besides them, and the suggestions are in
:mod:`translator.lint.spelling`.  A language without a dictionary is not checked;
:func:`missing_dictionaries` tells the command line what to say about it.
"""

from __future__ import annotations

from collections.abc import Iterator

from ... import languages
from ...cards.model import SOURCE_LANGUAGE
from ...diagnostics import Family, Severity
from ...glossary.matcher import normalize
from ...markup.tree import DropCap
from ..context import Reporter, Subject
from ..model import Finding, PlainParagraph
from ..rule import TRANSLATION
from ..spelling import lexicon, missing_dictionaries
from .esperanto import foreign_letters, h_system, x_system

#: The SP rules: spelling, in the languages with a dictionary.
FAMILY = Family(prefix="SP", target=TRANSLATION, languages=("fr", "eo"))


__all__ = ["check_spelling", "missing_dictionaries"]


@FAMILY.rule(
    code="SP101",
    name="misspelling",
    severity=Severity.WARNING,
    summary="A word of the printed text is in neither the language's Hunspell dictionary nor "
    "the glossaries nor the library's card names.",
    rationale="Typos survive every other check: a misspelt word is no number, symbol or glossary "
    "term.  The card text (rules and flavour) of French and Esperanto translations is "
    "looked up in the Debian Hunspell dictionaries (hunspell-fr-comprehensive: classic "
    "and 1990 spellings; myspell-eo); words of "
    "glossary terms and ability names in any inflected form, the library's card names "
    "in that language and the configured `allow-english` words are accepted, and so "
    "are numbers, symbol codes and single letters.  French elision (l’armée, "
    "aujourd’hui) and hyphenated imperatives (désengage-la) are read as such, and so "
    "are the style guide's inclusive forms (toustes, ellui; joueur·euse·s as one "
    "word); in Esperanto a word is prefixes, a root of the dictionary or the glossary, "
    "suffixes and an ending (defendisto, pagiĝi, ĉiuope), and a compound of known "
    "roots is a word (ĵetkosto).  Not words: URLs, e-mail addresses, file names, "
    "markup, acronyms (CMJN), a capitalised word inside a sentence that is no known "
    "name mistyped (a proper noun), English quoted or left in the text (English "
    "dictionary).  What other rules report is not reported again: the words of a "
    "sentence left in English (TR503, TR504), a word cut from its drop cap (MK105), an "
    "Esperanto word in the x- or h-system or with foreign letters (EO101-EO103).  "
    "The suggestion, when there is one, is the closest glossary word "
    "or card name: there is no fix, since a guess is not safe.  Card names (`name`, "
    "`name2`) are not checked: they are invented proper nouns, and the library's "
    "names are what the text is checked against (a name's words are accepted "
    "everywhere in its language, so checking a name against itself finds nothing; "
    "a name that differs from its other mentions is a consistency matter).  Without "
    "a dictionary installed a language is not checked, and `translator lint` says "
    "so once; `spelling = false` in the configuration turns the rule off.",
    bad="en: Target player discards one card.\nfr: La joueureuse ciblée défausse une crate.",
    good="en: Target player discards one card.\nfr: La joueureuse ciblée défausse une carte.",
)
def check_spelling(subject: Subject, report: Reporter) -> Iterator[Finding]:
    language = languages.get(subject.lang)
    if (
        subject.lang == SOURCE_LANGUAGE
        or language.hunspell is None
        or not subject.resources.settings.get("spelling", True)
    ):
        return
    words = lexicon(
        subject.language, subject.resources.allowed(subject.lang), subject.resources.english_words
    )
    if words is None:
        return
    name = language.name
    # A language with keyboard spellings (Esperanto) has rules of its own for them.
    spellings = bool(language.supersigns)
    for paragraph in subject.plain.paragraphs:
        for start, word in words.misspellings(
            paragraph.text, paragraph.tokens, _cut_drop_caps(paragraph)
        ):
            if spellings and _esperanto_rules_report(word):
                continue
            guess = words.suggest(word)
            hint = f" (did you mean '{guess}'?)" if guess else ""
            yield report.span(
                subject, paragraph.index, start, f"'{word}' is not in the {name} dictionary{hint}"
            )


def _cut_drop_caps(paragraph: PlainParagraph) -> dict[int, str] | None:
    """Offset of the word after a drop cap that a space cuts from it -> the drop cap's
    letter (``:Q: uand``: MK105 reports the space, not a misspelt *uand*)."""
    cut = None
    text = paragraph.text
    for start, node in paragraph.runs:
        if isinstance(node, DropCap):
            end = start + len(node.letter)
            after = end
            while after < len(text) and text[after] in " \u00a0\u202f":
                after += 1
            if after > end:
                cut = cut or {}
                cut[after] = node.letter
    return cut


def _esperanto_rules_report(word: str) -> bool:
    """Is this misspelt Esperanto word EO101's (x-system), EO102's (h-system) or
    EO103's (letters outside the alphabet, in a lower-case word)?"""
    return (
        x_system(word) is not None
        or h_system(word) is not None
        or (not word[:1].isupper() and bool(foreign_letters(normalize(word))))
    )
