"""``translator cards``: the library checked, listed per deck and language, and one
card shown in every language (the library read by :mod:`translator.cards`, each
translation's state by :mod:`translator.cards.state`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..paths import DEFAULT_LIBRARY, Paths, path_list

if TYPE_CHECKING:
    from ..cards import Card, Library, Problem

__all__ = [
    "CardListing",
    "CardRow",
    "CardView",
    "DeckListing",
    "LibraryCheck",
    "check_library",
    "list_cards",
    "show_card",
]


@dataclass
class LibraryCheck:
    """The library read whole, with every problem of its files (``cards check``)."""

    library: Library
    problems: list[Problem]

    @property
    def summary(self) -> dict[str, int]:
        """How many decks, cards and translations were read."""
        cards = self.library.cards.values()
        return {
            "decks": len(self.library.decks),
            "cards": len(self.library.cards),
            "translations": sum(len(c.translations) for c in cards),
        }


def check_library(paths: Paths | None = None) -> LibraryCheck:
    """Read the library under ``paths`` (default: ``cards``) and report every problem
    of its card and deck files at once, without raising: ``translator cards check``.

    >>> check = check_library("cards/sample")
    >>> check.problems, check.summary["cards"]
    ([], 24)
    """
    from ..cards import load_library  # noqa: PLC0415

    library, problems = load_library(path_list(paths))
    return LibraryCheck(library, problems)


@dataclass
class CardRow:
    """A card of a deck's listing: its fields as printed in the listing's language,
    None when the card has none."""

    slug: str
    quantity: int
    name: str
    type: str | None
    faction: str | None
    status: str | None
    #: ``source`` for English, else the translation's state as ``status`` gives it.
    translation: str


@dataclass
class DeckListing:
    """A deck in one language (a table of ``cards list``)."""

    deck: str
    directory: str
    lang: str
    cards: list[CardRow]

    @property
    def copies(self) -> int:
        """How many cards the deck holds (the quantities summed)."""
        return sum(row.quantity for row in self.cards)


@dataclass
class CardListing:
    """``cards list``: a listing per deck and language, and the library's problems
    (the cards that could be read are listed all the same)."""

    decks: list[DeckListing]
    problems: list[Problem] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The shape of ``translator cards list --format json`` (without ``version``)."""
        from dataclasses import asdict  # noqa: PLC0415

        return {"decks": [asdict(deck) for deck in self.decks]}


def list_cards(paths: Paths | None = None, *, lang: str | None = None) -> CardListing:
    """Every deck of the library under ``paths``, in ``lang`` (default: English, then
    each of the library's languages): quantity, name, type, faction, status and the
    translation's state of each card: ``translator cards list``.

    >>> listing = list_cards("cards/sample", lang="fr")
    >>> [(deck.deck, deck.lang, len(deck.cards)) for deck in listing.decks]
    [('Sample', 'fr', 24)]
    """
    from ..cards import SOURCE_LANGUAGE, load_library  # noqa: PLC0415
    from ..cards.state import card_state  # noqa: PLC0415

    library, problems = load_library(path_list(paths))
    if lang:
        languages = [lang]
    else:
        found = {lang for card in library.cards.values() for lang in card.languages()}
        languages = [SOURCE_LANGUAGE, *sorted(found - {SOURCE_LANGUAGE})]

    def state(card: Card, lang: str) -> str:
        if lang == SOURCE_LANGUAGE or card.source is None:
            return "source"
        return card_state(card, lang).state

    listing = [
        DeckListing(
            deck.name,
            deck.directory,
            lang,
            [
                CardRow(
                    card.slug,
                    deck.quantities.get(card.slug, 0),
                    card.name(lang),
                    card.get("type"),
                    card.get("faction"),
                    card.get("status", lang),
                    state(card, lang),
                )
                for card in library.deck_cards(name)
            ],
        )
        for name, deck in library.decks.items()
        for lang in languages
    ]
    return CardListing(listing, problems)


#: The fields ``cards show`` lists, in this order (the text goes below them).
SHOWN_FIELDS = (
    "name",
    "name2",
    "type",
    "faction",
    "subtype",
    "cost",
    "loyalty",
    "attack",
    "defense",
    "info",
    "status",
    "guid",
    "source",
)


@dataclass
class CardView:
    """One card in every language it is in (``cards show``), and the library's
    problems."""

    card: Card
    languages: list[str]
    problems: list[Problem] = field(default_factory=list)

    def value(self, key: str, lang: str) -> Any:
        """A field's value in ``lang`` (inherited from the English when the
        translation does not set it)."""
        return self.card.get(key, lang)

    def inherited(self, key: str, lang: str) -> bool:
        """Whether the translation in ``lang`` inherits the field ``key`` (it has a
        value, from the English card)."""
        from ..cards import SOURCE_LANGUAGE  # noqa: PLC0415

        version = self.card.version(lang)
        return (
            lang != SOURCE_LANGUAGE
            and version is not None
            and key not in version.fields
            and self.card.get(key, lang) not in (None, "")
        )

    def path(self, lang: str) -> str | None:
        """The card's file in ``lang``; None when the card is not in that language."""
        version = self.card.version(lang)
        return version.path if version else None

    def to_dict(self) -> dict[str, Any]:
        """The shape of ``translator cards show --format json`` (without ``version``)."""
        return {
            "deck": self.card.deck,
            "slug": self.card.slug,
            "languages": {
                lang: {
                    **{key: self.value(key, lang) for key in SHOWN_FIELDS},
                    "text": self.value("text", lang),
                    "path": self.path(lang),
                }
                for lang in self.languages
            },
        }


def show_card(
    card: str, library: Sequence[str] | None = None, *, checked: LibraryCheck | None = None
) -> CardView:
    """The card ``card`` (a slug, ``deck/slug``, guid or file path) of the library
    under ``library`` (default: ``cards``), in every language: ``translator cards
    show``.  None, or several, is a :class:`~translator.errors.UsageError` listing them.
    ``checked``: the library under ``library`` as :func:`check_library` read it (its
    problems shown first), not read again.

    >>> view = show_card("veil-stalker", ["cards/sample"])
    >>> view.languages, view.value("name", "fr")
    (['en', 'eo', 'fr'], 'Rôdeur du voile')
    """
    if checked is None:
        checked = check_library(list(library or []) or None)
    found = checked.library.find(card)
    if not found:
        raise UsageError(
            f"no card '{card}' in {', '.join(library or [DEFAULT_LIBRARY])} "
            "(give a slug, deck/slug, guid or file path)"
        )
    if len(found) > 1:
        raise UsageError(
            f"'{card}' matches several cards: " + ", ".join(f"{c.deck}/{c.slug}" for c in found)
        )
    return CardView(found[0], found[0].languages(), checked.problems)
