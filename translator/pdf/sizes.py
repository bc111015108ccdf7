"""Card sizes: the trim (the card as cut) and the bleed around it, in millimetres.

``arcmage`` is the game's own card (64 x 90 mm, 2 mm bleed, as Aminduna prints it);
``poker`` is the common print-on-demand size (63 x 88 mm, 3 mm bleed); any other size
is written ``WxH+B`` (millimetres: ``63.5x88+3``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import InvalidOption
from .geometry import Box

_CUSTOM = re.compile(r"^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$")
#: PDF points in a millimetre.
MM_PT = 72 / 25.4


def pdf_box(value: object) -> Box | None:
    """A PDF rectangle (any array of four numbers) normalised so that x0 <= x1 and
    y0 <= y1; None when it is absent or not a rectangle."""
    if not isinstance(value, Iterable):  # absent (None), or a number, a name
        return None
    try:
        x0, y0, x1, y1 = (float(v) for v in value)
    except (TypeError, ValueError):
        return None
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


@dataclass(frozen=True)
class CardSize:
    name: str
    width: float
    height: float
    bleed: float

    @property
    def page_width(self) -> float:
        return self.width + 2 * self.bleed

    @property
    def page_height(self) -> float:
        return self.height + 2 * self.bleed


PRESETS = {
    "arcmage": CardSize("arcmage", 64.0, 90.0, 2.0),
    "poker": CardSize("poker", 63.0, 88.0, 3.0),
}


def card_size(value: str) -> CardSize:
    """A preset name or ``WxH+B``; an :class:`~translator.errors.InvalidOption` (a
    ``ValueError``) with what to write otherwise."""
    if value in PRESETS:
        return PRESETS[value]
    match = _CUSTOM.match(value.strip())
    if match is None:
        raise InvalidOption(
            f"unknown card size {value!r}: {', '.join(PRESETS)} or WxH+B in "
            "millimetres (e.g. 63.5x88+3)"
        )
    width, height, bleed = (float(g) for g in match.groups())
    if not (20 <= width <= 300 and 20 <= height <= 300 and 0 <= bleed <= 10):
        raise InvalidOption(
            f"card size {value!r} is out of range: 20-300 mm a side, a bleed of 0-10 mm"
        )
    return CardSize(value, width, height, bleed)
