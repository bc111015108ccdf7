"""Which cards' text does not fit, for the linter (PR101): the build's own measurement.

The cards are laid out as ``translator build`` lays them out (default theme, Arcmage
size, the same fitting), without converting their artwork, which does not change the
text box; a lint run keeps one renderer for all its cards.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import TypeVar

from ..cards.model import Card
from ..glossary.loader import load_glossary
from ..pdf.sizes import PRESETS
from .fitting import fit
from .options import DEFAULT_FLOOR, DEFAULT_MIN_SIZE, text_floor
from .render import Renderer, card_page
from .theme import load_theme

T = TypeVar("T")


@lru_cache(maxsize=1)
def _renderer() -> Renderer:
    return Renderer(load_theme(), PRESETS["arcmage"], [])


def overflowing(
    cards: Sequence[tuple[Card, str, T]], floor: float = DEFAULT_FLOOR
) -> Iterator[tuple[T, float, float]]:
    """(tag, mm too tall, scale) of each card whose text does not fit at ``floor``
    (raised, as the build raises it, so that the text prints at 6 pt or more)."""
    if not cards:
        return
    renderer = _renderer()
    glossaries = {}
    pages = []
    for card, lang, _ in cards:
        if lang not in glossaries:
            glossaries[lang] = load_glossary(lang)[0]
        pages.append(card_page(card, lang, renderer.theme, glossaries[lang]))
    too_tall = fit(renderer, pages, text_floor(floor, DEFAULT_MIN_SIZE))
    for index in sorted(too_tall):
        yield cards[index][2], too_tall[index], pages[index].scale
