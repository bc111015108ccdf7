"""The words of card titles, for the capitals of titles (FR301).

A title in sentence case capitalises its first word and its proper nouns only; a
proper noun may be another card's name (*Seigneur du port* / *de Salmère*, where
*Salmère* is a card).  So the rule needs the card names of the whole library in the
title's language, not only those of the cards being reported (``translator lint
cards/sample/harbor-lord.fr.md`` reads the deck): :func:`card_titles` collects them
once per run, when first needed, as word tuples cut as :func:`title_words` cuts a
title.

No Esperanto rule uses this: the Esperanto pages write their titles with capitals
(*Estro de Sindikato de Diabletoj*, *Duobla Atakanto*; see docs/lint.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from ..cards.model import Library
from ..glossary.matcher import normalize

#: A word of a title: letters, with their inner hyphens (*Mort-vivant*); an elided
#: article or preposition is a word of its own (*l’* in *l’Ost*).
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def title_words(text: str) -> list[tuple[str, int, int]]:
    """(word as written, start, end) of each word of a title."""
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


def title_key(text: str) -> tuple[str, ...]:
    """A title as normalized words (case-folded, as the glossary matcher folds them)."""
    return tuple(_WORD.findall(normalize(text)))


def card_titles(library: Library) -> CardTitles:
    """By language, the card names of the library as word tuples (read when first
    asked for: most runs meet no title that needs them)."""
    return CardTitles(library)


class CardTitles(Mapping[str, set[tuple[str, ...]]]):
    """Language -> the library's card names as word tuples: each card's ``name``, and
    its ``name`` followed by its ``name2`` (a title may name another card's whole
    name).  Computed on first use: reading 7,500 card versions takes some 10 ms."""

    def __init__(self, library: Library) -> None:
        self._library = library
        self._titles: dict[str, set[tuple[str, ...]]] | None = None

    def _computed(self) -> dict[str, set[tuple[str, ...]]]:
        if self._titles is None:
            found: dict[str, set[tuple[str, ...]]] = {}
            for card in self._library.cards.values():
                for version in (card.source, *card.translations.values()):
                    if version is None:
                        continue
                    name = str(version.fields.get("name") or "").strip()
                    name2 = str(version.fields.get("name2") or "").strip()
                    titles = found.setdefault(version.lang, set())
                    if name:
                        titles.add(title_key(name))
                        if name2:
                            titles.add(title_key(f"{name} {name2}"))
            for titles in found.values():
                titles.discard(())
            self._titles = found
        return self._titles

    def __getitem__(self, lang: str) -> set[tuple[str, ...]]:
        return self._computed()[lang]

    def __iter__(self) -> Iterator[str]:
        return iter(self._computed())

    def __len__(self) -> int:
        return len(self._computed())
