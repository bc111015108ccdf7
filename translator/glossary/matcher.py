"""Finding glossary terms in running text, in their inflected forms.

Text and terms are cut into words the same way (letters, digits and hyphens; an
apostrophe separates, so *l'armée* holds *armée*), compared without case, and the
longest term starting at each word wins: *phase de combat* before *combat*.  The
index is built once per glossary; finding terms in a card is a few dictionary
lookups per word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from ..words import normalize
from .inflection import forms as inflect
from .model import Glossary

_WORD_RE = re.compile(r"[^\W_](?:[\w-]*[^\W_])?")


def words(text: str) -> list[tuple[str, int, int]]:
    """(normalized word, start, end) of each word of ``text``."""
    folded = text.casefold()
    if len(folded) == len(text) and unicodedata.is_normalized("NFC", text):
        # The common case: folding keeps every offset, so fold once, not per word.
        return [(folded[m.start() : m.end()], m.start(), m.end()) for m in _WORD_RE.finditer(text)]
    return [(normalize(m.group()), m.start(), m.end()) for m in _WORD_RE.finditer(text)]


@dataclass(frozen=True, slots=True)
class Hit:
    """What a form leads to: an entry's term, an ability's name, or an English term."""

    kind: str  # "term", "ability" or "english"
    id: str
    term: str
    status: str


@dataclass(frozen=True, slots=True)
class Match:
    start: int
    end: int
    text: str
    hit: Hit


class Matcher:
    """Finds the terms of one glossary in text (target terms, or the English side)."""

    def __init__(self, glossary: Glossary, side: str = "target") -> None:
        self.index: dict[str, list[tuple[tuple[str, ...], Hit]]] = {}
        lang = "en" if side == "english" else glossary.lang
        for entry in glossary.entries.values():
            if side == "english" or glossary.lang == "en":
                self._add(
                    entry.en, lang, entry.pos, (), Hit("english", entry.id, entry.en, "preferred")
                )
                continue
            for term in entry.terms:
                self._add(
                    term.text,
                    lang,
                    entry.pos,
                    term.forms,
                    Hit("term", entry.id, term.text, term.status),
                )
            for form in entry.adjective.values():
                preferred = entry.preferred
                self._add(
                    form,
                    lang,
                    "phrase",
                    (),
                    Hit("term", entry.id, preferred.text if preferred else form, "preferred"),
                )
        for ability in glossary.abilities.values():
            name = ability.en if side == "english" else ability.name
            self._add(name, lang, "phrase", (), Hit("ability", ability.id, name, ability.status))
            if side != "english":
                for term in ability.deprecated:
                    self._add(
                        term.text,
                        lang,
                        "phrase",
                        term.forms,
                        Hit("ability", ability.id, term.text, "deprecated"),
                    )
        for candidates in self.index.values():
            candidates.sort(key=lambda c: -len(c[0]))

    def _add(self, term: str, lang: str, pos: str, extra: Iterable[str], hit: Hit) -> None:
        for form in inflect(term, lang, pos, extra):
            key = tuple(w for w, _, _ in words(form))
            if not key:
                continue
            candidates = self.index.setdefault(key[0], [])
            if (key, hit) not in candidates:
                candidates.append((key, hit))

    def find(self, text: str, tokens: list[tuple[str, int, int]] | None = None) -> list[Match]:
        """Every glossary term in ``text``, longest first, not overlapping.

        ``tokens`` are ``words(text)``, when the caller has them already.
        """
        if tokens is None:
            tokens = words(text)
        index = self.index
        keys = [token[0] for token in tokens]
        found: list[Match] = []
        i = 0
        count = len(keys)
        while i < count:
            candidates = index.get(keys[i])
            if not candidates:
                i += 1
                continue
            for key, hit in candidates:
                n = len(key)
                if n == 1 or tuple(keys[i : i + n]) == key:
                    start, end = tokens[i][1], tokens[i + n - 1][2]
                    found.append(Match(start, end, text[start:end], hit))
                    # Several hits may share the same words (a word two entries use):
                    # report them all, then move past the words.
                    for other_key, other in candidates:
                        if other_key == key and other is not hit:
                            found.append(Match(start, end, text[start:end], other))
                    i += n
                    break
            else:
                i += 1
        return found

    def lookup(self, text: str) -> list[Hit]:
        """Hits whose forms equal ``text`` exactly (for ``glossary lookup``)."""
        key = tuple(w for w, _, _ in words(text))
        return (
            [hit for candidate, hit in self.index.get(key[0], []) if candidate == key]
            if key
            else []
        )
