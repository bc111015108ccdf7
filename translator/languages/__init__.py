"""What translator knows of each language, behind one interface.

Generic code asks a language, never tests its code::

    from translator import languages

    french = languages.get("fr")
    french.forms("armée", "noun")        # {"armée", "armées"}
    french.plural("point de dégâts")     # "points de dégâts"
    french.typography.apply("Cité : Port")
    languages.get("eo").word_breaks("nombro")   # (3,): nom-bro

Each language is one module (``en.py``, ``fr.py``, ``eo.py``) with its data in
``glossaries/<code>/language.yaml``; :class:`~.base.Language` lists the questions.
A code of no module (``de``) gets the base class: one form per term, no dictionary,
pyphen's hyphenation.  Adding a language: ``glossaries/README.md``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .base import Hunspell, Language, MiddleDots, Typography, WordFormation

__all__ = [
    "Hunspell",
    "Language",
    "MiddleDots",
    "Typography",
    "WordFormation",
    "codes",
    "get",
]

attach(
    globals(),
    dict.fromkeys(("Hunspell", "Language", "MiddleDots", "Typography", "WordFormation"), ".base"),
)

#: The languages translator has a module for, by code (``en.py``, ...): each module is
#: imported when its language is first asked for, so that ``--lang`` choices cost
#: nothing (``translator --help`` lists them).
MODULES = ("en", "fr", "eo")
#: The languages made so far, by code (or tag): a module's once asked for, others
#: (``de``) made on first use, so that each is made once.
_MADE: dict[str, Language] = {}


def codes() -> tuple[str, ...]:
    """The codes of the languages translator has a module for."""
    return MODULES


def get(code: str) -> Language:
    """The language of ``code``: ``fr``, or a tag with a region (``fr_FR``,
    ``eo-XX``, any case), which is its language's; a code of no module gets the base
    class's answers."""
    found = _MADE.get(code)
    if found is None:
        primary = code.replace("_", "-").split("-", 1)[0].casefold()
        if primary in MODULES:
            found = importlib.import_module(f".{primary}", __name__).LANGUAGE
        else:
            from .base import Language  # noqa: PLC0415

            found = _MADE.get(primary) or Language(primary)
        _MADE[code] = _MADE[primary] = found
    return found
