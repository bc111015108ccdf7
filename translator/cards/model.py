"""The card model: what a card file holds, and what a translation inherits.

A card is one file per language.  The English file is the *source*: it holds every
field.  A translation holds only what is translated (:data:`TRANSLATED_FIELDS`) and
inherits the rest, so a stat fixed in English is fixed in every language.  The
vocabulary (types, factions, statuses) is Aminduna's, so that cards go in and out of
the card database unchanged.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from ..untrusted import spacing_key

SOURCE_LANGUAGE = "en"

#: Aminduna's card types and factions, as its API spells them.
CARD_TYPES = ("Creature", "City", "Event", "Magic", "Enchantment", "Equipment")
FACTIONS = ("Gaian", "Dark Legion", "Red Banner", "House of Nobles", "The Empire", "None")
STATUSES = ("Draft", "Release Candidate", "Final")

#: Which stats each type prints (Aminduna's TemplateInfo).
HAS_ATTACK = frozenset({"Creature"})
HAS_DEFENSE = frozenset({"Creature", "City"})

#: Aminduna's language names, by code (``language.name`` in its JSON).
LANGUAGE_NAMES = {"en": "English", "fr": "français", "eo": "esperanto"}

#: The footer each language prints when a card sets none: the lines of Aminduna's
#: deck translator (reference section 4) and of the French style guide.
DEFAULT_FOOTERS = {
    "en": "arcmage.org - join us!",
    "fr": "arcmage.org - un jeu de carte libre - rejoignez-nous\u00a0!",
    "eo": "arcmage.org - aligu nin!",
}


def is_default_footer(text: str | None, lang: str) -> bool:
    """Is ``text`` the footer ``lang`` prints by default?  The kind of space does not
    count (Aminduna and the wiki write « rejoignez-nous ! » with a plain one): that is
    typography, which the typography rules judge."""
    default = DEFAULT_FOOTERS.get(lang)
    if not text or default is None:
        return False
    return spacing_key(text) == spacing_key(default)


#: Front matter of a source card, in the order files are written.
SOURCE_FIELDS = (
    "name",
    "name2",
    "type",
    "faction",
    "subtype",
    "cost",
    "loyalty",
    "attack",
    "defense",
    "info",
    "artwork",
    "artwork_url",
    "artist",
    "licensor",
    "license",
    "status",
    "serie",
    "guid",
    "lint-ignore",
)
#: Front matter of a translation: what is translated, its identity and provenance.
TRANSLATION_FIELDS = (
    "name",
    "name2",
    "subtype",
    "info",
    "status",
    "wip",
    "memory",
    "guid",
    "source",
    "reviewed",
    "reviewer",
    "reviewed-fingerprint",
    "lint-ignore",
)
#: What a translation translates (``text`` is the body), and so what its fingerprint of
#: the source covers.
TRANSLATED_FIELDS = ("name", "name2", "subtype", "text", "info")
#: Fields a translation file may not hold: they are inherited from the source.
INHERITED_FIELDS = tuple(f for f in SOURCE_FIELDS if f not in TRANSLATION_FIELDS)


@dataclass
class CardFile:
    """One card file: a language version of a card."""

    path: str
    deck: str
    slug: str
    lang: str
    fields: dict[str, Any]
    #: Line of each front matter key in the file (for messages).
    lines: dict[str, int]
    body: str
    body_line: int
    front_matter: str = ""

    @property
    def is_source(self) -> bool:
        return self.lang == SOURCE_LANGUAGE

    def line(self, key: str) -> int:
        return self.lines.get(key, 1)

    def ignored_codes(self) -> list[str]:
        """The rule codes of ``lint-ignore`` (none when it is not a list of codes, which
        ``cards check`` reports)."""
        return rule_codes(self.fields.get("lint-ignore")) or []


def rule_codes(value: Any) -> list[str] | None:
    """The rule codes a ``lint-ignore`` value names (a code, or a list of codes; none
    for no value), or None when it is something else."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(code, str) for code in value):
        return list(value)
    return None


@dataclass
class Card:
    """A card and its translations; translations inherit what they do not hold."""

    slug: str
    deck: str
    source: CardFile | None
    translations: dict[str, CardFile] = field(default_factory=dict)

    def version(self, lang: str) -> CardFile | None:
        return self.source if lang == SOURCE_LANGUAGE else self.translations.get(lang)

    def languages(self) -> list[str]:
        found = [SOURCE_LANGUAGE] if self.source else []
        return found + sorted(self.translations)

    def get(self, key: str, lang: str = SOURCE_LANGUAGE) -> Any:
        """A field as printed in ``lang``: the translation's if it holds it, else the
        source's (``text`` is the body; ``info`` falls back to the language's footer)."""
        version = self.version(lang)
        if key in TRANSLATION_FIELDS or key == "text":
            if version is not None:
                value = version.body if key == "text" else version.fields.get(key)
                if value not in (None, ""):
                    return value
            if key == "info":
                return DEFAULT_FOOTERS.get(lang, DEFAULT_FOOTERS[SOURCE_LANGUAGE])
            if lang != SOURCE_LANGUAGE and key in (
                "status",
                "guid",
                "wip",
                "memory",
                "source",
                "reviewed",
                "reviewer",
                "reviewed-fingerprint",
            ):
                return None
        if self.source is None:
            return None
        return self.source.body if key == "text" else self.source.fields.get(key)

    def name(self, lang: str = SOURCE_LANGUAGE) -> str:
        lines = [self.get("name", lang), self.get("name2", lang)]
        return " ".join(str(line) for line in lines if line)


def _field_value(source: CardFile, key: str) -> str:
    value = source.body.replace("\r\n", "\n").strip() if key == "text" else source.fields.get(key)
    # What json.dumps(value, ensure_ascii=False) writes, without building an encoder
    # per call (most of a fingerprint's time: every status, lint and memory takes one).
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None:
        return "null"
    return json.dumps(value, ensure_ascii=False, default=str)


def source_fingerprint(source: CardFile) -> str:
    """A short hash per translated source field, e.g.
    ``1a2b3c4d-5e6f7a8b-9c0d1e2f-3a4b5c6d-7e8f9a0b``.

    Stored in a translation's ``source`` key when it is made or reviewed: if the
    English name, subtype, text or footer change later, the fingerprint no longer
    matches and the translation is stale.  One group per field of
    :data:`TRANSLATED_FIELDS` (in that order) says *which* fields changed, so a
    reviewer knows what to look at.
    """
    return "-".join(field_hash(source, key) for key in TRANSLATED_FIELDS)


#: Hexadecimal digits of a field's hash in a fingerprint.  Eight: a change of four
#: went unseen once in 65,536 edits (an independent tester found one in 45,030 tries).
#: Fingerprints written with four a group still compare (:func:`same_group`), so no
#: library has to be fingerprinted again.
GROUP_DIGITS = 8


def field_hash(source: CardFile, key: str) -> str:
    """The fingerprint group of one field: :data:`GROUP_DIGITS` hexadecimal digits of
    its hash."""
    return hashlib.sha256(_field_value(source, key).encode("utf-8")).hexdigest()[:GROUP_DIGITS]


def same_group(taken: str, now: str) -> bool:
    """Whether a fingerprint group ``taken`` is that of the field whose group is
    ``now``: equal, or its first four digits for a group written with four."""
    return len(taken) in (4, GROUP_DIGITS) and now.startswith(taken)


def _legacy_fingerprint(source: CardFile) -> str:
    """The first fingerprint format: one 12-digit hash of all translated fields."""
    values = {
        key: (
            source.body.replace("\r\n", "\n").strip() if key == "text" else source.fields.get(key)
        )
        for key in TRANSLATED_FIELDS
    }
    data = json.dumps(values, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:12]


#: One group of a fingerprint: four hexadecimal digits (written before 2026-12-07) or
#: :data:`GROUP_DIGITS`.
GROUP = r"[0-9a-f]{4}(?:[0-9a-f]{4})?"
FINGERPRINT_RE = re.compile(
    rf"^(?:{GROUP}(?:-{GROUP}){{{len(TRANSLATED_FIELDS) - 1}}}|[0-9a-f]{{12}})$"
)


def changed_fields(
    fingerprint: str, source: CardFile, current: str | None = None
) -> list[str] | None:
    """The source fields changed since ``fingerprint`` was taken: ``[]`` when none.

    ``None`` when the fingerprint is in the old single-hash format and does not
    match: the source changed, but which fields cannot be told.  ``current`` is the
    source's fingerprint, when the caller has it already.
    """
    if len(fingerprint) == 12 and "-" not in fingerprint:
        return [] if fingerprint == _legacy_fingerprint(source) else None
    now = (current or source_fingerprint(source)).split("-")
    then = fingerprint.split("-")
    return [
        key
        for key, old, new in zip(TRANSLATED_FIELDS, then, now, strict=False)
        if not same_group(old, new)
    ]


@dataclass
class Deck:
    """A deck: a directory of card files and its ``deck.yaml``."""

    name: str
    directory: str
    #: Quantities by slug, in the order the deck file lists them.
    quantities: dict[str, int]
    guid: str | None = None
    creator: str | None = None
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        return Path(self.directory).name


@dataclass
class Library:
    """Every deck and card found under the paths given."""

    decks: dict[str, Deck] = field(default_factory=dict)
    #: Cards by (deck, slug).
    cards: dict[tuple[str, str], Card] = field(default_factory=dict)

    def add(self, card_file: CardFile) -> Card:
        """File a card version under its card (created on its first version)."""
        card = self.cards.setdefault(
            (card_file.deck, card_file.slug), Card(card_file.slug, card_file.deck, None)
        )
        if card_file.is_source:
            card.source = card_file
        else:
            card.translations[card_file.lang] = card_file
        return card

    def deck_cards(self, deck: str) -> list[Card]:
        return [card for (name, _), card in sorted(self.cards.items()) if name == deck]

    def find(self, reference: str) -> list[Card]:
        """Cards matching a slug, a guid, a ``deck/slug`` or a card file path."""
        reference = reference.strip()
        # A card file however it is written (./deck/x.fr.md, an absolute path).
        real = str(Path(reference).resolve()) if reference.endswith(".md") else None
        matches = []
        for (deck, slug), card in self.cards.items():
            files = [card.source, *card.translations.values()]
            if reference in (slug, f"{deck}/{slug}") or any(
                f is not None
                and (
                    f.path == reference
                    or f.fields.get("guid") == reference
                    or (real is not None and str(Path(f.path).resolve()) == real)
                )
                for f in files
            ):
                matches.append(card)
        return matches

    def by_guid(self) -> dict[str, CardFile]:
        found: dict[str, CardFile] = {}
        for card in self.cards.values():
            for version in (card.source, *card.translations.values()):
                if version is not None and version.fields.get("guid"):
                    found[str(version.fields["guid"])] = version
        return found
