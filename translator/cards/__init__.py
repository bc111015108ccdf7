"""The card library: card files, decks, and Aminduna's JSON in and out.

from translator import cards

library, problems = cards.load_library(["cards/"])
card = library.find("storm-hawk")[0]
card.get("name", "fr"), card.get("attack", "fr")   # translated, inherited
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
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

attach(
    globals(),
    {
        "ImportError_": ".aminduna",
        "card_json": ".aminduna",
        "export_deck": ".aminduna",
        "import_files": ".aminduna",
        "Problem": ".files",
        "load_library": ".library",
        "CARD_TYPES": ".model",
        "DEFAULT_FOOTERS": ".model",
        "FACTIONS": ".model",
        "SOURCE_LANGUAGE": ".model",
        "STATUSES": ".model",
        "Card": ".model",
        "CardFile": ".model",
        "Deck": ".model",
        "Library": ".model",
        "source_fingerprint": ".model",
    },
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
