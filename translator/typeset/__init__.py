"""Typesetting: card PDFs that a print shop accepts and a translator can trust.

    from translator import cards
    from translator.typeset import BuildOptions, build_cards, card_size

    library, _ = cards.load_library(["cards/sample"])
    results = build_cards(library, "fr", "out/", BuildOptions(card_size("arcmage")))

Cards are laid out by Jinja2 templates and CSS (``templates/``, a theme may override
them) and rendered by WeasyPrint from the markup tree; colours are device CMYK,
artwork is converted through an ICC profile (:mod:`.artwork`), text is shrunk to fit
and never cut silently (:mod:`.build`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from ..pdf.sizes import PRESETS, CardSize, card_size
    from .build import build_cards
    from .options import BuildOptions
    from .results import CardResult

# Loaded when first used: importing a module of this package (the linter's measure of
# fit, :mod:`.overflow`) must not load WeasyPrint.
attach(
    globals(),
    {
        "PRESETS": "..pdf.sizes",
        "CardSize": "..pdf.sizes",
        "card_size": "..pdf.sizes",
        "build_cards": ".build",
        "BuildOptions": ".options",
        "CardResult": ".results",
    },
)

__all__ = ["PRESETS", "BuildOptions", "CardResult", "CardSize", "build_cards", "card_size"]
