"""Which cards a command works on: the library read whole (its problems refused), one
card by the name a user gives it, and the library a list of card names lies in.

    from translator.cards import select
    library = select.read_library(["cards/sample"])
    card = select.find_card(library, "sample/veil-stalker")
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import LibraryProblems, UsageError
from ..paths import DEFAULT_LIBRARY, Paths, path_list

if TYPE_CHECKING:
    from .model import Card, Library

__all__ = ["card_library", "find_card", "read_library"]


def read_library(paths: Paths | None = None) -> Library:
    """The card library under ``paths`` (default: ``cards``); its problems (a card file
    that does not parse, a deck without its English card) raise
    :class:`~translator.errors.LibraryProblems`: what works on a library refuses to
    work on part of it.  (:func:`translator.cards.load_library` returns them instead.)"""
    from .library import load_library  # noqa: PLC0415

    library, problems = load_library(path_list(paths))
    if problems:
        raise LibraryProblems(problems)
    return library


def card_library(references: Sequence[str], library: Paths | None = None) -> list[str]:
    """Where the cards ``references`` name are: ``library`` when given; else the decks
    of those that are card files (``translator review path/to/card.fr.md`` works from
    anywhere), with ``cards`` for the others."""
    if library:
        return path_list(library)
    decks = [str(Path(r).parent) for r in references if r.endswith(".md") and Path(r).is_file()]
    rest = len(decks) < len(references)
    return list(dict.fromkeys(decks)) + ([DEFAULT_LIBRARY] if rest or not decks else [])


def find_card(library: Library, reference: str) -> Card:
    """The one card ``reference`` names: a slug, ``deck/slug``, a guid or a card file
    path; none, or several (the same slug in two decks), is an error saying what to
    write."""
    matches = [c for c in library.find(reference) if c.source is not None]
    if not matches:
        raise UsageError(f"no card '{reference}' (a slug, deck/slug, guid or card file path)")
    if len(matches) > 1:
        raise UsageError(f"'{reference}' names {len(matches)} cards: write deck/slug")
    return matches[0]
