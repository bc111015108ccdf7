"""The card library: card files, decks, and Aminduna's JSON in and out.

from translator import cards

library, problems = cards.load_library(["cards/"])
card = library.find("storm-hawk")[0]
card.get("name", "fr"), card.get("attack", "fr")   # translated, inherited
"""

from __future__ import annotations

from .aminduna import ImportError_, card_json, export_deck, import_files
from .files import Problem
from .library import load_library
from .model import (
    CARD_TYPES,
    DEFAULT_FOOTERS,
    FACTIONS,
    SOURCE_LANGUAGE,
    STATUSES,
    Card,
    CardFile,
    Deck,
    Library,
    source_fingerprint,
)

__all__ = [
    "CARD_TYPES",
    "DEFAULT_FOOTERS",
    "FACTIONS",
    "SOURCE_LANGUAGE",
    "STATUSES",
    "Card",
    "CardFile",
    "Deck",
    "ImportError_",
    "Library",
    "Problem",
    "card_json",
    "export_deck",
    "import_files",
    "load_library",
    "source_fingerprint",
]
