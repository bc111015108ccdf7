"""The words a card prints besides its own text: its type, subtype, faction and footer.

A translated card must print nothing in English.  Its type and faction names come from
the glossary of its language, its subtype from the card (or, when the card holds none,
from the glossary's subtypes), its footer from the card or the glossary; a word the
glossary lacks fails the card with the entry to add, instead of printing the English
word.  Aminduna imports a city, an event or a piece of equipment with its type as its
subtype ("City"): such a subtype is printed once.  The labels are set with the
language's typography, like the body text its translators write (’, the French
no-break spaces).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import languages
from ..cards.model import DEFAULT_FOOTERS, LANGUAGE_NAMES, SOURCE_LANGUAGE, Card
from ..glossary.model import Glossary

#: What separates the type from the subtype on the type line.
TYPE_SEPARATOR = " — "


@dataclass
class Labels:
    """The printed type line, faction name and footer of a card in one language, and
    why a word cannot be printed in that language."""

    type_line: str
    faction: str
    footer: str
    errors: list[str] = field(default_factory=list)


def typeset(text: str, lang: str) -> str:
    """``text`` with the typography its language's body text follows
    (:attr:`translator.languages.Language.typography`): the typographic apostrophe,
    and a no-break space where its rules want one (French: an ordinary space there
    can leave « ! » alone at the start of a line).  English is printed as written."""
    if lang == SOURCE_LANGUAGE or not text:
        return text
    return languages.get(lang).typography.apply(text)


def _missing(glossary: Glossary, lang: str, what: str, section: str, english: str) -> str:
    """How to add the glossary entry a card needs (the shipped file and a library's)."""
    language = LANGUAGE_NAMES.get(lang, lang)
    entry_id = re.sub(r"[^a-z0-9]+", "-", english.casefold()).strip("-")
    return (
        f"the {language} glossary has no {what} {english!r}, printed in English "
        f"otherwise: add `- {{id: {entry_id}-{section}, en: {english}, section: "
        f"{section}, terms: [{{term: ..., status: preferred}}]}}` to "
        f"glossaries/{lang}/terms.yaml or the library's glossary/{lang}/*.yaml"
    )


def card_labels(card: Card, lang: str, glossary: Glossary | None) -> Labels:
    """The type line, faction and footer ``card`` prints in ``lang``.

    A card with no translation into ``lang`` is printed from its English card when
    the user asks for it (``--fallback en``, :mod:`.readiness`): its labels are still
    translated where the glossary can, and nothing missing fails it."""
    card_type = str(card.get("type") or "")
    faction = str(card.get("faction") or "None")
    version = card.version(lang)
    strict = lang != SOURCE_LANGUAGE and version is not None and glossary is not None
    errors: list[str] = []

    def translated(section: str, english: str, what: str) -> str:
        if lang == SOURCE_LANGUAGE or glossary is None or not english:
            return english
        found = glossary.preferred(section, english)
        if found is None and strict:
            errors.append(_missing(glossary, lang, what, section, english))
        return english if found is None else found

    type_name = "" if card_type in ("", "None") else translated("type", card_type, "card type")
    faction_name = "" if faction == "None" else translated("faction", faction, "faction")
    subtype = _subtype(card, lang, glossary, card_type, type_name, errors if strict else [])
    type_line = TYPE_SEPARATOR.join(part for part in (type_name, subtype) if part)
    return Labels(
        typeset(type_line, lang),
        typeset(faction_name, lang),
        typeset(_footer(card, lang, glossary), lang),
        errors,
    )


def _subtype(
    card: Card,
    lang: str,
    glossary: Glossary | None,
    card_type: str,
    type_name: str,
    errors: list[str],
) -> str:
    """The subtype as printed: the card's own, or the English one translated by the
    glossary; empty when it only repeats the type ("City" on a city)."""
    own = card.version(lang)
    written = own.fields.get("subtype") if own is not None else None
    if written not in (None, ""):
        subtype = str(written)
        same = subtype.casefold() in (card_type.casefold(), type_name.casefold())
        return "" if same else subtype
    english = str(card.get("subtype") or "")
    if not english or english.casefold() == card_type.casefold():
        return ""
    if lang == SOURCE_LANGUAGE or glossary is None:
        return english
    found, missing = glossary.subtype(english)
    if found is None:
        if own is not None:
            path = own.path
            errors.append(
                f"the subtype {english!r} is not translated ({', '.join(missing) or english}"
                f" not in the {LANGUAGE_NAMES.get(lang, lang)} glossary), printed in "
                f"English otherwise: write `subtype:` in {path}, or add the words to "
                f"glossaries/{lang}/terms.yaml (section subtype)"
            )
        return english
    return found


def _footer(card: Card, lang: str, glossary: Glossary | None) -> str:
    """The card's footer; a translation holding none prints its glossary's rendering of
    the English default footer (else the language's default)."""
    version = card.version(lang)
    own = version.fields.get("info") if version is not None else None
    if lang == SOURCE_LANGUAGE or own not in (None, "") or glossary is None:
        return str(card.get("info", lang) or "")
    return glossary.footer(DEFAULT_FOOTERS[SOURCE_LANGUAGE])[0]
