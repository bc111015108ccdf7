"""What a draft still holds in English, and the comparisons that tell it.

A draft (``wip: true``, as ``translator translate`` writes it) keeps in English what
the glossary could not fill.  The engine leaves such paragraphs to the rules that
make sense of English text (:data:`DRAFT_REPORTS`); TR401 reports them, and the
other TR and GL rules skip them.  A translation with no text at all is TR401's alone
(:data:`MISSING_TEXT_REPORTS`).  The comparisons (:func:`loose`, :func:`all_allowed`,
:func:`english_runs`) are the TR rules' too.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from ..glossary.matcher import words
from .context import Subject
from .model import SYMBOL_MARK, PlainParagraph

_LOOSE = str.maketrans(
    {"’": "'", "\u00a0": " ", "\u202f": " ", "\u2212": "-", "\u2013": "-", SYMBOL_MARK: " "}
)
_SPACES = re.compile(r"\s+")
_QUOTE_SPACES = re.compile(r" (?=[;:!?»])|(?<=«) ")


@functools.lru_cache(maxsize=8192)
def loose(text: str) -> str:
    """Text compared for meaning, not typography: case, quotes, spaces, final stop.
    (Remembered: the same reminders and sentences are compared on many cards.)"""
    text = unicodedata.normalize("NFC", text).casefold().translate(_LOOSE)
    text = _SPACES.sub(" ", text)
    text = _QUOTE_SPACES.sub("", text)
    return text.strip().rstrip(".").strip()


def draft_english(subject: Subject) -> tuple[list[str], list[int]]:
    """What a draft (``wip: true``) still holds in English: name lines and subtype equal
    to the English ones, and paragraphs with English words or equal to their English
    paragraph.  Nothing for a translation that is not a draft."""
    found = subject.cache.get("draft-english")
    if found is None:
        found = subject.cache["draft-english"] = _draft_english(subject)
    return found


#: What is still reported in a draft's English paragraphs: that they are English, and
#: what breaks whatever the language (markup, symbols, structure, staleness).  Style,
#: spelling, numbers and glossary rules have nothing to say about English there.
DRAFT_REPORTS = ("TR401", "TR2", "TR3", "TR6", "TR7", "MK", "LN")

#: What is still reported on the text of a translation that has none (``translator
#: import po`` writes a draft with only its subtype): that the English text would be
#: printed (TR401).  Every rule about what the text says (numbers, symbols, structure,
#: abilities, glossary, style) would only say again that it is missing.
MISSING_TEXT_REPORTS = ("TR401", "MK", "LN")


def text_missing(subject: Subject) -> bool:
    """Has the translation no card text where its English card has one (TR401)?"""
    return (
        subject.is_translation
        and bool(subject.source_value("text").strip())
        and not subject.value("text").strip()
    )


def draft_lines(subject: Subject) -> list[tuple[int, int]]:
    """The file lines (first, last) of a draft's paragraphs still in English."""
    paragraphs = subject.plain.paragraphs
    found = []
    for index in draft_english(subject)[1]:
        node = paragraphs[index].paragraph
        first = subject.locator(subject.file, "text", node.pos.offset)[1]
        last = subject.locator(subject.file, "text", max(node.pos.end - 1, node.pos.offset))[1]
        found.append((first, last))
    return found


def _draft_english(subject: Subject) -> tuple[list[str], list[int]]:
    if not subject.file.fields.get("wip") or not subject.is_translation:
        return [], []
    assert subject.source is not None
    fields = []
    for key in ("name", "name2", "subtype"):
        here = subject.value(key)
        if not here or here != subject.source_value(key):
            continue
        if key == "subtype" and subject.language.subtype(here) is not None:
            continue
        if key != "subtype" and all_allowed(subject, [w for w, _, _ in words(here)], names=False):
            continue
        fields.append(key)
    source = subject.source.plain.paragraphs
    paragraphs = []
    for paragraph in subject.plain.paragraphs:
        english = source[paragraph.index] if paragraph.index < len(source) else None
        if english_runs(subject, paragraph) or (
            english is not None
            and any(c.isalpha() for c in paragraph.text)
            and loose(english.text) == loose(paragraph.text)
            and not all_allowed(subject, [w for w, _, _ in paragraph.tokens], False)
        ):
            paragraphs.append(paragraph.index)
    return fields, paragraphs


def all_allowed(subject: Subject, words_: list[str], names: bool = True) -> bool:
    """Are all these words the target language's (its glossary's words, the configured
    ``allow-english`` words, and with ``names`` the words of its card names)?"""
    vocabulary = subject.language.vocabulary
    allowed = subject.resources.allowed(subject.lang) if names else subject.resources.allowed_words
    return all(w in vocabulary or w in allowed for w in words_)


def english_runs(subject: Subject, paragraph: PlainParagraph) -> list[tuple[int, int]]:
    """Spans of English words in a paragraph (words two apart or closer are one run)."""
    english = subject.resources.english_words
    vocabulary = subject.language.vocabulary
    allowed = subject.resources.allowed(subject.lang)
    tokens = paragraph.tokens
    flagged = [
        i
        for i, (w, _, _) in enumerate(tokens)
        if w in english and w not in vocabulary and w not in allowed
    ]
    runs: list[list[int]] = []
    for i in flagged:
        if runs and i - runs[-1][-1] <= 2:
            runs[-1].append(i)
        else:
            runs.append([i])
    return [(tokens[run[0]][1], tokens[run[-1]][2]) for run in runs]
