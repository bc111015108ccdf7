"""What fitting decided for a card, kept for the next build of the same inputs.

Fitting a card whose text is too long for its box costs several layouts: the text
measured at a few scales, the card laid out again with a one-line element shrunk or
set in the narrow face.  The official look shrinks most cards.  A card built again
from the same inputs (into another output folder, with ``--force``, by a CI job) gets
the same answer, so the answer is kept in the user's cache folder
(:data:`FOLDER`/:data:`FILE`) under a key of everything the card's PDF is made from
(:func:`.manifest.card_digest`: its files and artwork, the glossary, the theme and its
fonts, the settings, translator's own code) and of the layout engine
(:func:`.weasy.engine`).

A build given a kept answer lays the card out once at that answer, and the layout is
checked as every layout is (the text fits its box, no one-line element is too wide:
:func:`.fitting.lay_out`); a card that does not pass is fitted from the start.  What
is not checked again is that a larger scale would not fit as well: the record is
sealed with the user's key (:func:`translator.cache.sealed`), so that only this
user's builds wrote what is trusted, and an entry of another shape is no entry.  Only
cards that fit are kept.  ``TRANSLATOR_CACHE=`` keeps nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..cache import cache_directory, keep_newest, read_section
from ..paths import clear_odd
from . import weasy
from .elements import LINE_ELEMENTS
from .manifest import valid_scale

if TYPE_CHECKING:
    from .render import CardPage

#: The folder of the user's cache folder, and the record in it.
FOLDER = "fits"
FILE = "fits.json"
#: Changes when what an entry means changes.
HEADER = ("format", 1)
#: The most answers kept (the newest); a few MB of JSON.
KEPT = 20_000
_ELEMENTS = frozenset(spec.name for spec in LINE_ELEMENTS)


@dataclass(frozen=True)
class Fitted:
    """A card's fitting: its text's scale, the scale of each one-line element shrunk,
    and the elements set in the theme's narrow face."""

    scale: float
    fit: tuple[tuple[str, float], ...] = ()
    narrow: tuple[str, ...] = ()

    @classmethod
    def of(cls, page: CardPage) -> Fitted:
        return cls.made(page.scale, page.fit, page.narrow)

    @classmethod
    def made(cls, scale: float, fit: Mapping[str, float], narrow: Iterable[str]) -> Fitted:
        """One fitting however its parts are ordered (equal fittings compare equal)."""
        return cls(
            float(scale),
            tuple(sorted((name, float(value)) for name, value in fit.items())),
            tuple(sorted(narrow)),
        )

    def apply(self, page: CardPage) -> None:
        page.scale = self.scale
        page.fit = dict(self.fit)
        page.narrow = set(self.narrow)

    def to_json(self) -> list:
        return [self.scale, dict(self.fit), list(self.narrow)]


def _valid(value: object) -> bool:
    """An entry as :meth:`Fitted.to_json` writes it: scales in (0, 1], elements this
    code knows."""
    if not isinstance(value, list) or len(value) != 3:
        return False
    scale, fit, narrow = value
    return (
        valid_scale(scale)
        and isinstance(fit, dict)
        and all(name in _ELEMENTS and valid_scale(v) for name, v in fit.items())
        and isinstance(narrow, list)
        and all(isinstance(name, str) and name in _ELEMENTS for name in narrow)
    )


def key(card_digest: str) -> str:
    """The key of a card's answer: what its PDF is made from, and the layout engine."""
    return hashlib.sha256(f"{card_digest} {weasy.engine()}".encode()).hexdigest()


def _path() -> Path | None:
    folder = cache_directory()
    return None if folder is None else folder / FOLDER / FILE


def read(keys: Iterable[str]) -> dict[str, Fitted]:
    """The kept answers of ``keys`` (those the record has, in a valid shape)."""
    wanted = set(keys)
    if not wanted:
        return {}
    found = {}
    for name, value in read_section(_path(), HEADER, "cards").items():
        if name in wanted and _valid(value):
            found[name] = Fitted.made(*value)
    return found


def keep(found: Mapping[str, Fitted]) -> bool:
    """Add ``found`` to the record (what other builds kept meanwhile stays); False when
    there is no cache folder or it cannot be written (the next build is only slower)."""
    path = _path()
    if path is None or not found:
        return False
    fresh = {name: fitted.to_json() for name, fitted in found.items()}
    clear_odd(path)  # a link or a FIFO in its place: a record made anew, never written through
    return keep_newest(path, HEADER, "cards", fresh, KEPT, _valid)
