"""What a build is asked to do: the card size, theme, text floor, ink limit, workers.

Apart from the build (:mod:`.build`) so that what only describes a build (its record,
:mod:`.manifest`; the API; the watch server) reads it without the build's machinery.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..pdf.sizes import CardSize
from .elements import ceil_step
from .render import BODY_PT

#: Text scales tried, as the reference does: 1.00 down to the floor in steps of 0.02.
STEP = 0.02
DEFAULT_FLOOR = 0.52
#: The smallest text size printed by default (pt): smaller is unreadable on a card.
DEFAULT_MIN_SIZE = 6.0
#: The smallest scale of a one-line element (name, type line, cost, stats).
SHRINK_FLOOR = 0.8
#: Overflow below this many mm is rounding, not text.
TOLERANCE_MM = 0.05


def text_floor(floor: float, min_size: float) -> float:
    """The rule text's smallest scale: ``floor``, raised to the first step printing it
    at ``min_size`` points or more."""
    return max(floor, ceil_step(min_size / BODY_PT))


@dataclass
class BuildOptions:
    size: CardSize
    theme_dir: str | None = None
    icc: str | None = None
    floor: float = DEFAULT_FLOOR
    allow_overflow: bool = False
    jobs: int = 1
    #: Total ink (%) the print shop accepts: artwork is converted under it (with
    #: headroom) and the preflight holds every file to it.
    ink_limit: float = 300.0
    #: Where converted artwork is kept between builds.
    cache_dir: Path | None = None
    #: The smallest text size printed (pt): the text's floor is raised to it.
    min_size: float = DEFAULT_MIN_SIZE
    #: How far a name, type line, cost or stat too long for its box may shrink.
    shrink_floor: float = SHRINK_FLOOR

    @property
    def text_floor(self) -> float:
        """The smallest scale of the rule text: ``floor``, raised so that nothing is
        printed under ``min_size``."""
        return text_floor(self.floor, self.min_size)
