"""Which cards' text does not fit, for the linter (PR101): the build's own measurement.

The cards are laid out as ``translator build`` lays them out (default theme, Arcmage
size, the same fitting), without converting their artwork, which does not change the
text box; a lint run keeps one renderer for all its cards.  Importing this module is
cheap (WeasyPrint is loaded by the first measure), so that whoever runs the linter can
hand :func:`overflowing` to it (``Options.fit``) without paying for the typesetter
unless PR101 runs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from ..cards.model import Card
    from .render import Renderer

T = TypeVar("T")


@lru_cache(maxsize=1)
def _renderer() -> Renderer:
    from ..pdf.sizes import PRESETS  # noqa: PLC0415 - WeasyPrint loads slowly
    from .render import Renderer  # noqa: PLC0415
    from .theme import load_theme  # noqa: PLC0415

    return Renderer(load_theme(), PRESETS["arcmage"], [])


def overflowing(
    cards: Sequence[tuple[Card, str, T]], floor: float | None = None
) -> Iterator[tuple[T, float, float]]:
    """(tag, mm too tall, scale) of each card whose text does not fit at ``floor``
    (the build's by default; raised, as the build raises it, so that the text prints
    at 6 pt or more)."""
    if not cards:
        return
    from ..glossary.loader import load_glossary  # noqa: PLC0415
    from .fitting import fit  # noqa: PLC0415 - WeasyPrint loads slowly
    from .options import DEFAULT_FLOOR, DEFAULT_MIN_SIZE, text_floor  # noqa: PLC0415
    from .render import card_page  # noqa: PLC0415

    renderer = _renderer()
    glossaries = {}
    pages = []
    for card, lang, _ in cards:
        if lang not in glossaries:
            glossaries[lang] = load_glossary(lang)[0]
        pages.append(card_page(card, lang, renderer.theme, glossaries[lang]))
    floor = DEFAULT_FLOOR if floor is None else floor
    too_tall = fit(renderer, pages, text_floor(floor, DEFAULT_MIN_SIZE))
    for index in sorted(too_tall):
        yield cards[index][2], too_tall[index], pages[index].scale
