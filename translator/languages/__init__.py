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

from . import en, eo, fr
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

#: The languages translator knows, by code: one module each.
REGISTRY: dict[str, Language] = {
    language.code: language for language in (en.LANGUAGE, fr.LANGUAGE, eo.LANGUAGE)
}
#: Languages of no module, made on first use (so that each is made once).
_OTHERS: dict[str, Language] = {}


def codes() -> tuple[str, ...]:
    """The codes of the languages translator has a module for."""
    return tuple(REGISTRY)


def get(code: str) -> Language:
    """The language of ``code``: ``fr``, or a tag with a region (``fr_FR``,
    ``eo-XX``, any case), which is its language's; a code of no module gets the base
    class's answers."""
    found = REGISTRY.get(code)
    if found is None:
        found = _OTHERS.get(code)
    if found is None:
        primary = code.replace("_", "-").split("-", 1)[0].casefold()
        found = _OTHERS[code] = REGISTRY.get(primary) or Language(primary)
    return found
