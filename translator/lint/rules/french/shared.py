"""What the FR rules share: their family, the paragraphs left in English, sentence
starts and the word lists of ``glossaries/lint/fr.yaml``.
"""

from __future__ import annotations

from functools import cache

from ....diagnostics import Family
from ....languages.data import normalized, shipped
from ...context import Subject
from ...rule import TRANSLATION
from ..translation import aligned

#: The FR rules: each reads one French translation.
FRENCH_RULES = Family(prefix="FR", target=TRANSLATION, languages=("fr",))


def sentence_start(text: str, start: int) -> bool:
    """Does a sentence (or a line) start at ``start``?"""
    before = text[:start].rstrip(' \u00a0\u202f\t*«"')
    return not before or before[-1] in ".!?:\n\ufffc"


def english_paragraphs(subject: Subject) -> set[int]:
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
def word_list(key: str) -> frozenset[str]:
    """A word list of the rules' data, ``glossaries/lint/fr.yaml`` (read once), its
    words normalized as the text's are."""
    return normalized(shipped(RULE_DATA).words(key))


@cache
def feminine_determiners() -> dict[str, str]:
    """Masculine determiner or contraction before *joueureuse* -> its feminine (""
    when there is none to write: *chaque*)."""
    return shipped(RULE_DATA).table("masculine-determiners")
