"""The library and its languages: what every command reads first (thin callers of
:mod:`translator.cards.select` and :mod:`translator.workflow.targets`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..paths import Paths

if TYPE_CHECKING:
    from ..cards import Card, Library

__all__ = ["card_library", "find_card", "load_library", "target_language", "target_languages"]


def load_library(paths: Paths | None = None) -> Library:
    """The card library under ``paths`` (default: ``cards``).

    Its problems (a card file that does not parse, a deck without its English card)
    raise :class:`LibraryProblems`: what works on a library refuses to work on part of
    it.  (:func:`translator.cards.load_library` returns them instead.)

    >>> library = load_library("cards/sample")
    >>> library.find("veil-stalker")[0].name("fr")
    'Rôdeur du voile'
    """
    from ..cards.select import read_library  # noqa: PLC0415

    return read_library(paths)


def target_language(lang: str) -> str:
    """``lang`` if cards are translated into it; English (the source) or an unknown
    code raises an error listing the languages.

    >>> target_language("fr")
    'fr'
    """
    from ..workflow import targets  # noqa: PLC0415

    return targets.target_language(lang)


def target_languages(library: Library, languages: Sequence[str] | None = ()) -> list[str]:
    """The translation languages asked for (each checked), else those the library
    has, else every language cards are translated into.

    >>> target_languages(load_library("cards/sample"))
    ['eo', 'fr']
    """
    from ..workflow import targets  # noqa: PLC0415

    return targets.target_languages(library, languages)


def card_library(references: Sequence[str], library: Paths | None = None) -> list[str]:
    """Where the cards ``references`` name are: ``library`` when given; else the decks
    of those that are card files (``translator review path/to/card.fr.md`` works from
    anywhere), with ``cards`` for the others."""
    from ..cards import select  # noqa: PLC0415

    return select.card_library(references, library)


def find_card(library: Library, reference: str) -> Card:
    """The one card ``reference`` names: a slug, ``deck/slug``, a guid or a card file
    path; none, or several (the same slug in two decks), is an error saying what to
    write.

    >>> find_card(load_library("cards/sample"), "sample/veil-stalker").slug
    'veil-stalker'
    """
    from ..cards import select  # noqa: PLC0415

    return select.find_card(library, reference)
