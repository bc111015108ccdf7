"""Cards in and out of Aminduna, the Arcmage card database, in its own JSON shapes.

Import reads what Aminduna's API returns (a card, a deck with its ``deckCards``, a
list of cards, a search result) and writes card files: sources in the deck named,
translations next to their source, linked through ``masterCard.guid``.  Export
writes a deck back in Aminduna's shape (Newtonsoft camelCase, nulls left out, the
base-class keys last) with its ``deck.txt``.  What Aminduna has no field for (the
local artwork path, a translation's source fingerprint) travels in a ``translator``
object Aminduna ignores, so that import(export(library)) loses nothing.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import jsonfile, markup, yamlfile
from ..atomic import commit_files, sweep
from ..errors import UserError
from ..limits import (
    MAX_CARD_FILE_BYTES,
    MAX_EXCHANGE_BYTES,
    MAX_IMPORT_CARDS,
    MAX_QUANTITY,
    MAX_STAT,
)
from ..paths import inside
from ..textio import InputError, decode, read_file
from ..untrusted import character_problem, field_problem, too_long
from .edit import render_card_file
from .files import (
    CARD_SLUG_RE,
    DECK_FILE,
    DIGITS_RE,
    Problem,
    is_count,
    parse_card_text,
    parse_deck_text,
)
from .library import load_library
from .model import (
    HAS_ATTACK,
    HAS_DEFENSE,
    LANGUAGE_NAMES,
    SOURCE_FIELDS,
    SOURCE_LANGUAGE,
    TRANSLATION_FIELDS,
    Card,
    CardFile,
    Library,
    is_default_footer,
    rule_codes,
)

_WIP_RE = re.compile(r"^(?P<name>.*?)\s*\((?P<lang>[a-z]{2}) wip\)$")
#: Fields Aminduna owns: on re-import they are replaced (or removed if absent).
_REMOTE_SOURCE_FIELDS = (
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
    "artwork_url",
    "artist",
    "licensor",
    "license",
    "status",
    "serie",
    "guid",
)
_REMOTE_TRANSLATION_FIELDS = ("name", "name2", "subtype", "info", "status", "wip", "guid")


class ImportError_(UserError):  # named so as not to shadow the builtin ImportError
    """An import that cannot be done; nothing was written."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


# --------------------------------------------------------------------------------------
# Export.


def _language(lang: str) -> dict[str, str]:
    return {"name": LANGUAGE_NAMES.get(lang, lang), "languageCode": lang}


def _named(value: Any) -> dict[str, str] | None:
    return {"name": str(value)} if value not in (None, "") else None


def _compact(data: dict[str, Any]) -> dict[str, Any]:
    """Newtonsoft's NullValueHandling.Ignore."""
    return {k: v for k, v in data.items() if v is not None}


def card_json(card: Card, lang: str) -> dict[str, Any]:
    """One card in Aminduna's shape, as printed in ``lang``."""
    assert card.source is not None
    version = card.version(lang)
    missing = version is None
    body = card.get("text", lang) if not missing else card.source.body
    text = body.replace("\r\n", "\n").strip("\n")
    result = markup.parse(text)
    derived = markup.rule_and_flavor(
        result.document, lang if lang in markup.LANGUAGES else SOURCE_LANGUAGE
    )
    name_lines = [card.get("name", lang), card.get("name2", lang)]
    wip = bool(card.get("wip", lang)) if lang != SOURCE_LANGUAGE else False
    if missing or wip:
        internal = f"{card.name(SOURCE_LANGUAGE)} ({lang} wip)"
    else:
        internal = " ".join(str(n) for n in name_lines if n)
    source_fields = card.source.fields
    card_type = source_fields.get("type")
    extension = _compact(
        {
            "slug": card.slug,
            "artwork": source_fields.get("artwork") if lang == SOURCE_LANGUAGE else None,
            "source": card.get("source", lang) if lang != SOURCE_LANGUAGE else None,
            "reviewed": _str(card.get("reviewed", lang)) if lang != SOURCE_LANGUAGE else None,
            "reviewed-fingerprint": card.get("reviewed-fingerprint", lang)
            if lang != SOURCE_LANGUAGE
            else None,
            "missing": True if missing and lang != SOURCE_LANGUAGE else None,
            "lint-ignore": None if version is None else version.fields.get("lint-ignore"),
        }
    )
    data: dict[str, Any] = {
        "name": internal,
        "firstName": _str(name_lines[0]),
        "lastName": _str(name_lines[1]),
        "subType": _str(card.get("subtype", lang)),
        "type": _named(card_type),
        "faction": _named(source_fields.get("faction")),
        "status": _named(card.get("status", lang) if not missing else "Draft"),
        "cost": _str(source_fields.get("cost")),
        "loyalty": int(source_fields.get("loyalty") or 0),
        "attack": _str(source_fields.get("attack")) if card_type in HAS_ATTACK else None,
        "defense": _str(source_fields.get("defense")) if card_type in HAS_DEFENSE else None,
        "info": card.get("info", lang),
        "markdownText": text,
        "ruleText": derived["ruleText"],
        "flavorText": derived["flavorText"],
        "artist": _str(source_fields.get("artist")),
        "artworkLicensor": _str(source_fields.get("licensor")),
        "artworkLicense": _named(source_fields.get("license")),
        "serie": _named(source_fields.get("serie")),
        "language": _language(lang),
        "masterCard": None
        if lang == SOURCE_LANGUAGE
        else _compact(
            {
                "name": card.name(SOURCE_LANGUAGE),
                "language": _language(SOURCE_LANGUAGE),
                "guid": _str(source_fields.get("guid")),
            }
        ),
        "artwork": _str(source_fields.get("artwork_url")),
        "translator": extension,
        "guid": None if missing else _str(card.get("guid", lang)),
    }
    return _compact(data)


def _str(value: Any) -> str | None:
    return None if value in (None, "") else str(value)


def export_deck(library: Library, deck_name: str, lang: str) -> tuple[dict[str, Any], str]:
    """(Aminduna deck JSON, ``deck.txt``) of a deck in ``lang``."""
    deck = library.decks[deck_name]
    deck_cards = []
    creator = deck_creator(library, deck_name, lang)
    lines = [f"# {deck.name} by {creator}" if creator else f"# {deck.name}"]
    for slug, quantity in deck.quantities.items():
        card = library.cards[(deck_name, slug)]
        data = card_json(card, lang)
        deck_cards.append({"quantity": quantity, "card": data})
        lines.append(f"{quantity}x {data['name']}")
    deck_data = _compact(
        {
            "name": deck.name,
            "language": _language(lang),
            "deckCards": deck_cards,
            "totalCards": sum(deck.quantities.values()),
            "translator": {"slug": deck.slug, "creator": deck.creator}
            if deck.creator
            else {"slug": deck.slug},
            "guid": deck.guid if lang == SOURCE_LANGUAGE else None,
            "creator": _named(creator),
        }
    )
    return deck_data, "\n".join(lines) + "\n"


def deck_creator(library: Library, deck_name: str, lang: str) -> str | None:
    """Who a deck in ``lang`` is by: the deck file's ``creator``, else the reviewers
    of its cards' translations into ``lang`` (in the deck's order), else nobody (None:
    Aminduna's ``creator`` is left out, ``deck.txt`` says no "by")."""
    deck = library.decks[deck_name]
    if deck.creator:
        return str(deck.creator)
    reviewers: dict[str, None] = {}
    for slug in deck.quantities:
        card = library.cards.get((deck_name, slug))
        version = card.translations.get(lang) if card and lang != SOURCE_LANGUAGE else None
        if version is not None and version.fields.get("reviewer"):
            reviewers.setdefault(str(version.fields["reviewer"]))
    return ", ".join(reviewers) or None


# --------------------------------------------------------------------------------------
# Import.


@dataclass
class Incoming:
    """An Aminduna card on its way into the library."""

    data: dict[str, Any]
    origin: str
    lang: str
    quantity: int | None = None
    #: Which imported document it came from (quantities count per document).
    document: int = 0
    #: Where in that document: the keys and indexes of the card object.
    where: tuple[str | int, ...] = ()


@dataclass
class ImportPlan:
    """What an import writes: file contents by path, and what it did."""

    files: dict[str, str] = field(default_factory=dict)
    #: The JSON file and card each file comes from (for messages).
    sources: dict[str, tuple[str, tuple[str | int, ...]]] = field(default_factory=dict)
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    #: A card written under another slug than its name's, and why (one line each).
    renamed: list[str] = field(default_factory=list)


def cards_of(
    document: Any, origin: str, problems: list[Problem]
) -> tuple[list[Incoming], dict[str, Any] | None]:
    """The cards of one Aminduna JSON document, and the deck if it is one."""

    def incoming(
        card: Any, quantity: int | None = None, where: tuple[str | int, ...] = ()
    ) -> Incoming | None:
        if not isinstance(card, dict) or not ("markdownText" in card or "name" in card):
            problems.append(
                Problem(
                    origin,
                    0,
                    "an entry is not an Aminduna card",
                    "expected objects with name, markdownText, ...",
                )
            )
            return None
        language = card.get("language") or {}
        lang = str(language.get("languageCode") or SOURCE_LANGUAGE).lower()
        if not re.fullmatch(r"[a-z]{2}", lang):
            lang = SOURCE_LANGUAGE  # Aminduna falls back to English too
        return Incoming(card, origin, lang, quantity, where=where)

    found: list[Incoming | None] = []
    deck = None
    if isinstance(document, dict) and "deckCards" in document:
        deck = document
        for index, entry in enumerate(document.get("deckCards") or []):
            if not isinstance(entry, dict):
                problems.append(Problem(origin, 0, "a deckCards entry is not an object"))
                continue
            found.append(
                incoming(
                    entry.get("card"), int(entry.get("quantity") or 1), ("deckCards", index, "card")
                )
            )
    elif isinstance(document, dict) and "items" in document:
        found.extend(
            incoming(card, None, ("items", index))
            for index, card in enumerate(document.get("items") or [])
        )
    elif isinstance(document, list):
        found.extend(incoming(card, None, (index,)) for index, card in enumerate(document))
    elif isinstance(document, dict):
        found.append(incoming(document))
    else:
        problems.append(Problem(origin, 0, "not an Aminduna card, deck, list or search result"))
    return [c for c in found if c is not None], deck


def slugify(name: str) -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:80].rstrip("-") or "card"


def _text(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("name")
    return None if value in (None, "") else str(value)


def _number(value: Any) -> int | str | None:
    text = _text(value)
    if text is None:
        return None
    return int(text) if DIGITS_RE.match(text) else text


def remote_fields(incoming: Incoming, is_source: bool) -> tuple[dict[str, Any], str]:
    """Card fields (ours) and body from an Aminduna card."""
    data = incoming.data
    lang = incoming.lang
    first, last = _text(data.get("firstName")), _text(data.get("lastName"))
    internal = _text(data.get("name")) or ""
    wip = _WIP_RE.match(internal)
    fields: dict[str, Any] = {
        "name": first or (wip["name"] if wip else internal) or None,
        "name2": last,
        "subtype": _text(data.get("subType")),
        "info": _text(data.get("info")),
        "status": _text(data.get("status")),
        "guid": _text(data.get("guid")),
    }
    if is_default_footer(fields["info"], lang):
        fields["info"] = None
    if is_source:
        card_type = _text(data.get("type"))
        fields.update(
            {
                "type": card_type,
                "faction": _text(data.get("faction")),
                "cost": _number(data.get("cost")),
                "loyalty": int(data["loyalty"]) if isinstance(data.get("loyalty"), int) else None,
                "attack": _number(data.get("attack")) if card_type in HAS_ATTACK else None,
                "defense": _number(data.get("defense")) if card_type in HAS_DEFENSE else None,
                "artwork_url": _text(data.get("artwork")),
                "artist": _text(data.get("artist")),
                "licensor": _text(data.get("artworkLicensor")),
                "license": _text(data.get("artworkLicense")),
                "serie": _text(data.get("serie")),
            }
        )
    else:
        fields["wip"] = True if wip else None
    body = str(data.get("markdownText") or "").replace("\r\n", "\n").strip("\n")
    return fields, body + "\n" if body else ""


def plan_import(documents: list[tuple[str, Any]], into: Path, library: Library) -> ImportPlan:
    """Work out every file an import writes; raises :class:`ImportError_` on problems."""
    problems: list[Problem] = []
    incoming: list[Incoming] = []
    deck_document: dict[str, Any] | None = None
    for index, (origin, document) in enumerate(documents):
        cards, deck = cards_of(document, origin, problems)
        for card in cards:
            card.document = index
        incoming.extend(cards)
        if deck is not None:
            deck_document = deck
    placement = _Placement(into, library, problems)
    # Sources first: a translation goes next to its source, wherever that lands.
    for item in incoming:
        if item.lang == SOURCE_LANGUAGE:
            placement.add_source(item)
    for item in incoming:
        if item.lang != SOURCE_LANGUAGE:
            placement.add_translation(item)
    if problems:
        raise ImportError_(problems)
    _stage_deck(placement.plan, into, library, deck_document, placement.quantities())
    return placement.plan


def _extension(item: Incoming) -> dict[str, Any]:
    """The ``translator`` object our export adds to a card (slug, artwork, review
    state...), empty for a card straight from Aminduna."""
    value = item.data.get("translator")
    return value if isinstance(value, dict) else {}


class _Placement:
    """Where each imported card goes, and what its file holds: the state an import
    builds card after card (the slugs taken, where each source went, the quantities
    counted) and the plan it fills."""

    def __init__(self, into: Path, library: Library, problems: list[Problem]) -> None:
        self.into = into
        self.library = library
        self.problems = problems
        self.existing = library.by_guid()
        #: The slugs taken, each with what takes it (for the message of a rename).
        self.taken = {slug: _file_of(card) for (_, slug), card in library.cards.items()}
        #: The next number to try after a slug, so that a thousand cards of one name do
        #: not try 2, 3, ... each (which made big imports quadratic).
        self.next_number: dict[str, int] = {}
        self.plan = ImportPlan()
        #: Where each source goes: (deck directory, slug, fields), by guid and by slug.
        self.placed: dict[str, tuple[Path, str, dict[str, Any]]] = {}
        #: Quantities per imported document and language: the same deck imported in
        #: several languages (or a source and its translation listed together) lists
        #: the same cards, which must not add up.
        self.counted: dict[tuple[int, str], dict[str, int]] = {}
        #: The JSON files' texts, read again for the line of a card a problem names.
        self.texts: dict[str, str] = {}

    def add_source(self, item: Incoming) -> None:
        """Stage an English card: over the library's card of the same guid (or of the
        slug our export recorded), keeping its local fields, or as a new card of the
        deck under a free slug."""
        fields, body = remote_fields(item, True)
        guid = fields.get("guid")
        extension = _extension(item)
        directory, slug, merged = self._source_place(item, fields, guid, extension.get("slug"))
        self.taken.setdefault(slug, f"'{fields['name']}' of this import ({item.origin})")
        if extension.get("artwork"):
            merged["artwork"] = extension["artwork"]
        if extension.get("lint-ignore"):
            merged["lint-ignore"] = extension["lint-ignore"]
        merged.update(fields)
        path = directory / f"{slug}.{SOURCE_LANGUAGE}.md"
        _stage(self.plan, path, render_card_file(merged, body, SOURCE_FIELDS))
        self.plan.sources[str(path)] = (item.origin, item.where)
        for key in filter(None, [guid, f"slug:{slug}"]):
            self.placed[str(key)] = (directory, slug, merged)
        if directory == self.into:
            self._count(item, slug)

    def _source_place(
        self, item: Incoming, fields: dict[str, Any], guid: Any, local_slug: str | None
    ) -> tuple[Path, str, dict[str, Any]]:
        """(directory, slug, local fields kept) of an English card: those of the card
        it updates, or the deck's directory and a new slug made of its name (a rename
        when that slug is taken, said in the plan)."""
        current = self.existing.get(str(guid)) if guid else None
        if current is None and local_slug:
            match = self.library.cards.get((self.into.name, local_slug))
            current = match.source if match else None
        if current is not None and current.is_source:
            merged = {k: v for k, v in current.fields.items() if k not in _REMOTE_SOURCE_FIELDS}
            self._check_deck(item, fields, current)
            return Path(current.path).parent, current.slug, merged
        slug = local_slug or slugify(" ".join(filter(None, [fields["name"], fields["name2"]])))
        base, n = slug, self.next_number.get(slug, 2)
        while slug in self.taken:
            slug, n = f"{base}-{n}", n + 1
        self.next_number[base] = n
        if slug != base:
            self.plan.renamed.append(
                f"'{fields['name']}' ({item.origin}) to {slug}: "
                f"the slug {base} is taken by {self.taken[base]}"
            )
        return self.into, slug, {}

    def _check_deck(self, item: Incoming, fields: dict[str, Any], current: CardFile) -> None:
        """A problem when the library's card of this guid is in another deck than the
        one imported into: a card lives in one deck, and the deck file written would
        not list it (the import refuses rather than update another deck unasked)."""
        if Path(current.path).parent.resolve() == self.into.resolve():
            return
        self.problems.append(
            Problem(
                item.origin,
                self._line(item),
                f"'{fields['name']}' (guid {current.fields.get('guid')}) is already in the "
                f"library, in deck '{current.deck}' ({current.path})",
                f"import it into that deck (--into {Path(current.path).parent}), "
                "or leave it out of this file",
            )
        )

    def _line(self, item: Incoming) -> int:
        """The line of an imported card in its JSON file (0 when it cannot be read)."""
        if item.origin not in self.texts:
            try:
                raw = read_file(item.origin, MAX_EXCHANGE_BYTES, "JSON file")
                self.texts[item.origin] = decode(raw, item.origin)
            except InputError:
                self.texts[item.origin] = ""
        text = self.texts[item.origin]
        return jsonfile.line_of(text, item.where) if text else 0

    def add_translation(self, item: Incoming) -> None:
        """Stage a translation next to its source card (in this import or in the
        library), keeping its local fields; one without a source is a problem."""
        extension = _extension(item)
        if extension.get("missing"):
            return  # an untranslated card exported as a stand-in
        fields, body = remote_fields(item, False)
        master = item.data.get("masterCard") or {}
        master_guid = _text(master.get("guid")) if isinstance(master, dict) else None
        target = self._source_of(master_guid, extension.get("slug"))
        if target is None:
            self.problems.append(
                Problem(
                    item.origin,
                    0,
                    f"translation '{fields.get('name')}' ({item.lang}) has no source card",
                    f"its masterCard {master_guid or '(none)'} is neither in "
                    "this import nor in the library; import the English card too",
                )
            )
            return
        directory, slug, _ = target
        path = directory / f"{slug}.{item.lang}.md"
        previous = self.library.cards.get((directory.name, slug))
        current = previous.translations.get(item.lang) if previous else None
        merged = (
            {k: v for k, v in current.fields.items() if k not in _REMOTE_TRANSLATION_FIELDS}
            if current
            else {}
        )
        for key in ("source", "reviewed", "reviewed-fingerprint", "lint-ignore"):
            if extension.get(key):
                merged[key] = extension[key]
        merged.update(fields)
        _stage(self.plan, path, render_card_file(merged, body, TRANSLATION_FIELDS))
        self.plan.sources[str(path)] = (item.origin, item.where)
        if directory == self.into:
            self._count(item, slug)

    def _source_of(
        self, master_guid: str | None, local_slug: Any
    ) -> tuple[Path, str, dict[str, Any]] | None:
        """Where a translation's source is: by its masterCard's guid in this import,
        by the slug our export recorded, then by guid in the library."""
        target = self.placed.get(str(master_guid)) if master_guid else None
        if target is None and local_slug:
            target = self.placed.get(f"slug:{local_slug}")
        if target is None and master_guid and master_guid in self.existing:
            source = self.existing[master_guid]
            target = (Path(source.path).parent, source.slug, source.fields)
        return target

    def _count(self, item: Incoming, slug: str) -> None:
        if item.quantity is not None:
            per_document = self.counted.setdefault((item.document, item.lang), {})
            per_document[slug] = per_document.get(slug, 0) + item.quantity

    def quantities(self) -> dict[str, int]:
        """Each card's quantity in the deck: the largest any one document and language
        gave, since the same deck in two languages lists the same cards."""
        quantities: dict[str, int] = {}
        for key in sorted(self.counted):
            for slug, quantity in self.counted[key].items():
                quantities[slug] = max(quantities.get(slug, 0), quantity)
        return quantities


def _file_of(card: Card) -> str:
    """A library card as a rename names what takes its slug: its English file."""
    version = card.source or next(iter(card.translations.values()), None)
    return version.path if version is not None else f"card {card.slug}"


def _stage(plan: ImportPlan, path: Path, content: str) -> None:
    key = str(path)
    if key in plan.files and plan.files[key] != content:
        pass  # the same card twice in one import: the last one wins, as on re-import
    plan.files[key] = content
    if path.is_file():
        try:  # as Python reads a text file: universal line ends
            old = read_file(path, MAX_CARD_FILE_BYTES, "card file").decode("utf-8")
            same = old.replace("\r\n", "\n").replace("\r", "\n") == content
        except (InputError, UnicodeDecodeError):
            same = False  # replaced by the import, which reads as a card file
        (plan.unchanged if same else plan.updated).append(key)
    else:
        plan.created.append(key)


def _stage_deck(
    plan: ImportPlan,
    into: Path,
    library: Library,
    deck_document: dict[str, Any] | None,
    quantities: dict[str, int],
) -> None:
    """Stage the ``deck.yaml`` of the deck imported into: the deck's own file updated
    (its name, guid and creator from a deck document, its cards from the import), or a
    new one; none when the deck has no file yet and no card of the import is in it (a
    translation whose source lives in another deck goes there)."""
    current = library.decks.get(into.name)
    data: dict[str, Any] = {"name": current.name if current else into.name}
    if current and current.guid:
        data["guid"] = current.guid
    if current and current.creator:
        data["creator"] = current.creator
    cards = dict(current.quantities) if current else {}
    if deck_document is not None:
        data["name"] = str(deck_document.get("name") or data["name"])
        language = (deck_document.get("language") or {}).get("languageCode", SOURCE_LANGUAGE)
        if deck_document.get("guid") and language == SOURCE_LANGUAGE:
            data["guid"] = str(deck_document["guid"])
        creator = _deck_creator(deck_document)
        if creator:
            data["creator"] = creator
        cards = dict(quantities)
    else:
        for slug in quantities:
            cards.setdefault(slug, 1)
        for key in plan.created:
            path = Path(key)
            if path.parent == into and path.name.endswith(f".{SOURCE_LANGUAGE}.md"):
                cards.setdefault(path.name[: -len(f".{SOURCE_LANGUAGE}.md")], 1)
    if current is None and not cards:
        return
    data["cards"] = cards
    _stage(plan, into / DECK_FILE, yamlfile.dump(data))


def _deck_creator(document: dict[str, Any]) -> str | None:
    """Who made a deck, as an imported deck document says: our export's ``translator``
    object when it has one (the deck file's ``creator``, or none), else Aminduna's own
    ``creator`` (a user: ``{"name": ...}``)."""
    extra = document.get("translator")
    if isinstance(extra, dict):
        return _text(extra.get("creator"))
    return _text(document.get("creator"))


#: Objects and lists one card of Aminduna JSON holds at most: its references (type,
#: faction, status, language, serie, rule set, licence, users, master card) and their
#: own, a deck's entry around it; a card of the real base has about fifteen.
CONTAINERS_PER_CARD = 50


def read_documents(paths: list[str]) -> list[tuple[str, Any]]:
    """Parse Aminduna JSON files and check their shape; problems name the file and
    line.  What passes is safe to read: every value has the type Aminduna gives it."""
    documents: list[tuple[str, Any]] = []
    problems: list[Problem] = []
    cards = 0
    for path in paths:
        try:
            text = decode(read_file(path, MAX_EXCHANGE_BYTES, "JSON file"), path)
        except InputError as error:
            problems.append(Problem(path, error.line, error.message, "", error.column))
            continue
        ok, data = jsonfile.load(text, path, problems, MAX_IMPORT_CARDS * CONTAINERS_PER_CARD)
        if not ok:
            continue
        before = len(problems)
        cards += check_document(data, path, text, problems, max(0, MAX_IMPORT_CARDS - cards))
        if len(problems) == before:
            documents.append((path, data))
    if cards > MAX_IMPORT_CARDS:
        problems.append(
            Problem(
                paths[0],
                0,
                f"{cards:,} cards in one import; at most {MAX_IMPORT_CARDS:,}",
                "import the decks one by one",
            )
        )
    if problems:
        raise ImportError_(problems)
    return documents


# The shape of an Aminduna card: what each key may hold.
_STRING_KEYS = (
    "name",
    "firstName",
    "lastName",
    "subType",
    "info",
    "markdownText",
    "ruleText",
    "flavorText",
    "artist",
    "artworkLicensor",
    "artwork",
    "guid",
)
_NAMED_KEYS = ("type", "faction", "status", "artworkLicense", "serie")
_STAT_KEYS = ("cost", "attack", "defense")
_ONE_LINE_KEYS = (
    "name",
    "firstName",
    "lastName",
    "subType",
    "info",
    "artist",
    "artworkLicensor",
    "artwork",
    "guid",
)
#: Derived from ``markdownText`` by Aminduna, not imported: only their length counts.
_DERIVED_KEYS = ("ruleText", "flavorText")


def check_document(
    document: Any,
    origin: str,
    text: str,
    problems: list[Problem],
    most: int = MAX_IMPORT_CARDS,
) -> int:
    """Check an Aminduna document's shape (a card, a deck, a list, a search result);
    returns how many cards it holds.  A document of more than ``most`` cards is refused
    as it is, before any card is checked: 20 MB of ``{},`` are seven million cards,
    and seven million problems."""

    def problem(path: tuple[str | int, ...], message: str, hint: str = "") -> None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        line = jsonfile.line_of(text, path) if len(problems) < jsonfile.LOCATED else 0
        problems.append(
            Problem(origin, line, f"{where.lstrip('.') or 'the document'}: {message}", hint)
        )

    cards = _document_cards(document, problem)
    if len(cards) > most:
        problem(
            (),
            f"holds {len(cards):,} cards, more than one import takes ({MAX_IMPORT_CARDS:,} in all)",
            "import the decks one by one: is this the right file?",
        )
        return len(cards)
    for where, card in cards:
        _check_card(card, where, problem)
    return len(cards)


def _document_cards(document: Any, problem: Any) -> list[tuple[tuple[str | int, ...], Any]]:
    """The cards of a document with where each one is, whichever of Aminduna's shapes
    it has; a shape it does not have is a problem (and no cards)."""
    if isinstance(document, dict) and "deckCards" in document:
        return _deck_cards(document, problem)
    if isinstance(document, dict) and "items" in document:
        items = document["items"]
        if not isinstance(items, list | type(None)):
            problem(
                ("items",), "is not a list of cards", "a search result's items is a list of cards"
            )
            items = []
        return [(("items", i), card) for i, card in enumerate(items or [])]
    if isinstance(document, list):
        return [((i,), card) for i, card in enumerate(document)]
    if isinstance(document, dict):
        return [((), document)]
    problem((), "is not an Aminduna card, deck, list or search result")
    return []


def _deck_cards(document: dict[str, Any], problem: Any) -> list[tuple[tuple[str | int, ...], Any]]:
    """The cards of a deck, its entries' quantities and its own fields (language, our
    ``translator`` object) checked on the way."""
    cards: list[tuple[tuple[str | int, ...], Any]] = []
    entries = document["deckCards"]
    if not isinstance(entries, list | type(None)):
        problem(
            ("deckCards",),
            "is not a list of cards",
            "a deck's deckCards is a list of {quantity, card}",
        )
        entries = []
    for index, entry in enumerate(entries or []):
        where: tuple[str | int, ...] = ("deckCards", index)
        if not isinstance(entry, dict):
            problem(where, "is not an object", "expected {quantity, card}")
            continue
        quantity = entry.get("quantity", 1)
        if quantity is not None and not (
            isinstance(quantity, int)
            and not isinstance(quantity, bool)
            and 1 <= quantity <= MAX_QUANTITY
        ):
            problem(
                (*where, "quantity"),
                f"quantity {_shown(quantity)} is not a whole number from 1 to {MAX_QUANTITY}",
            )
        cards.append(((*where, "card"), entry.get("card")))
    _check_named_or_text(document, (), "language", problem, key="languageCode")
    _check_named_or_text(document, (), "creator", problem)
    if not isinstance(document.get("translator"), dict | type(None)):
        problem(("translator",), "is not an object")
    elif isinstance(document.get("translator"), dict):
        _check_extension(document["translator"], ("translator",), problem)
    return cards


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:20] + "..." + f" ({len(text):,} characters)"


def _check_card(card: Any, where: tuple[str | int, ...], problem: Any) -> None:
    """One card object: every value of the type Aminduna gives it, so that what passes
    can be read without a second look."""
    if not isinstance(card, dict) or not ("markdownText" in card or "name" in card):
        problem(where, "is not an Aminduna card", "expected an object with name, markdownText, ...")
        return
    _check_texts(card, where, problem)
    for key in _NAMED_KEYS:
        _check_named_or_text(card, where, key, problem)
    _check_named_or_text(card, where, "language", problem, key="languageCode")
    _check_numbers(card, where, problem)
    master = card.get("masterCard")
    if master is not None:
        if not isinstance(master, dict):
            problem((*where, "masterCard"), "is not an object")
        elif not isinstance(master.get("guid"), str | type(None)):
            problem((*where, "masterCard", "guid"), "is not text")
    extension = card.get("translator")
    if extension is not None:
        if not isinstance(extension, dict):
            problem((*where, "translator"), "is not an object")
        else:
            _check_extension(extension, (*where, "translator"), problem)


def _check_texts(card: dict[str, Any], where: tuple[str | int, ...], problem: Any) -> None:
    """A card's text values: text, on one line where a card file has one line, without
    characters that print nothing, and not too long (the derived texts Aminduna makes
    of ``markdownText`` are not imported: only their length counts)."""
    for key in _STRING_KEYS:
        value = card.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            problem((*where, key), f"{key} is {_shown(value)}, not text")
            continue
        one_line = key in _ONE_LINE_KEYS
        found = (
            too_long(value, one_line) if key in _DERIVED_KEYS else field_problem(value, one_line)
        )
        if found:
            problem((*where, key), f"{key} {found[0]}", found[1])


def _check_numbers(card: dict[str, Any], where: tuple[str | int, ...], problem: Any) -> None:
    """A card's stats (a whole number, or X for a cost) and loyalty (0 to 3): a card
    file would refuse anything else."""
    for key in _STAT_KEYS:
        value = card.get(key)
        if value is None or value == "":
            continue
        if not (is_count(value) or (key == "cost" and value == "X")):
            problem(
                (*where, key),
                f"{key} {_shown(value)} is not a number",
                f"a whole number from 0 to {MAX_STAT}" + (", or X" if key == "cost" else ""),
            )
    loyalty = card.get("loyalty")
    if loyalty is not None and not (
        isinstance(loyalty, int) and not isinstance(loyalty, bool) and 0 <= loyalty <= 3
    ):
        problem((*where, "loyalty"), f"loyalty {_shown(loyalty)} is not 0, 1, 2 or 3")


def _check_named_or_text(
    data: dict[str, Any], where: tuple[str | int, ...], name: str, problem: Any, key: str = "name"
) -> None:
    """A value Aminduna sends as ``{"name": ...}`` (a language: ``languageCode``)."""
    value = data.get(name)
    if value is None:
        return
    inner = value.get(key) if isinstance(value, dict) else value
    if isinstance(value, dict) and inner is None:
        return
    if isinstance(inner, str) and (isinstance(value, dict) or key == "name"):
        found = field_problem(inner, one_line=True)
        if found:
            problem((*where, name), f"{name} {found[0]}", found[1])
        return
    shape = f'{{"{key}": "..."}}'
    problem((*where, name), f"{name} is {_shown(value)}, not {shape}")


def _check_extension(extension: dict[str, Any], where: tuple[str | int, ...], problem: Any) -> None:
    """The ``translator`` object our export adds: it names files, so it is checked as
    strictly as a card file."""
    slug = extension.get("slug")
    if slug is not None and not (isinstance(slug, str) and CARD_SLUG_RE.fullmatch(slug)):
        problem(
            (*where, "slug"),
            f"slug {_shown(slug)} is not a card slug",
            "lower-case letters, digits and hyphens, e.g. storm-hawk",
        )
    for key in ("artwork", "source", "reviewed", "reviewed-fingerprint", "creator"):
        value = extension.get(key)
        if value is not None and not isinstance(value, str):
            problem((*where, key), f"{key} is {_shown(value)}, not text")
        elif isinstance(value, str) and (found := character_problem(value, one_line=True)):
            problem((*where, key), f"{key} {found}")
    if rule_codes(extension.get("lint-ignore")) is None:
        problem((*where, "lint-ignore"), "lint-ignore lists rule codes")
    if not isinstance(extension.get("missing"), bool | type(None)):
        problem((*where, "missing"), "missing is true or false")


def commit(plan: ImportPlan, root: Path, extra: dict[str, str] | None = None) -> None:
    """Write every file of the plan, and the ``extra`` files (a pull's records), or
    none (:func:`translator.atomic.commit_files`: staged under ``root``, then renamed
    into place; a killed import is completed or rolled back by the next command that
    writes there)."""
    files = {**plan.files, **(extra or {})}
    staged = {Path(path): content.encode("utf-8") for path, content in files.items()}
    commit_files(root, staged, "import")


def _check_targets(plan: ImportPlan, roots: list[Path]) -> None:
    """Every file an import writes lies inside the deck imported into or the library
    (after following links): a slug or a path from the JSON never leads elsewhere."""
    problems = []
    for path in plan.files:
        if not any(inside(path, root) for root in roots):
            problems.append(
                Problem(
                    path,
                    0,
                    "the import would write outside the library",
                    f"cards are written under {roots[0]}",
                )
            )
    if problems:
        raise ImportError_(problems)


def import_files(paths: list[str], into: str, library_root: str | None = None) -> ImportPlan:
    """Import Aminduna JSON files into the deck directory ``into``; returns what was done.

    The library searched for existing cards and sources is ``library_root`` (default:
    the directory above ``into``).  Nothing is written unless everything, including
    the resulting library, checks out.
    """
    return import_documents(read_documents(paths), into, library_root)


def import_documents(
    documents: list[tuple[str, Any]], into: str, library_root: str | None = None
) -> ImportPlan:
    """Import Aminduna documents already read and checked (:func:`read_documents`, or
    a pull's answers checked with :func:`check_document`): :func:`import_files`."""
    target = Path(into)
    library, root = import_library(target, library_root)
    plan = plan_import(documents, target, library)
    check_import(plan, target, root)
    commit(plan, commit_root(target, root))
    return plan


def import_library(into: Path, library_root: str | None = None) -> tuple[Library, Path]:
    """The library an import into ``into`` updates (the directory above the deck, or
    ``library_root``), read, and its root.  First, a commit that a killed import or
    pull left there is completed or rolled back (:func:`translator.atomic.sweep`):
    the library read, and every check of the deck after, see it whole."""
    root = Path(library_root) if library_root else into.parent
    sweep(commit_root(into, root))
    library, _ = (
        load_library([str(root)])
        if root.is_dir() and any(root.rglob(DECK_FILE))
        else (Library(), [])
    )
    return library, root


def check_import(plan: ImportPlan, into: Path, root: Path) -> None:
    """Refuse a plan that writes outside the deck or the library, or whose files would
    not read back as cards (:class:`ImportError_`)."""
    _check_targets(plan, [into, root])
    _check_plan(plan)


def commit_root(into: Path, root: Path) -> Path:
    """Where an import stages its files: the library, or the deck when it is elsewhere."""
    return root if into.resolve().is_relative_to(root.resolve()) else into


def _check_plan(plan: ImportPlan) -> None:
    """Check every file the import would write, before writing any."""
    problems: list[Problem] = []
    texts: dict[str, str] = {}
    for path, content in plan.files.items():
        target = Path(path)
        found: list[Problem] = []
        if target.name == DECK_FILE:
            parse_deck_text(path, content, found)
        else:
            parse_card_text(path, target.parent.name, content, found)
        problems.extend(
            _in_json(plan, path, problem, texts, len(problems) < jsonfile.LOCATED)
            for problem in found
        )
    if problems:
        raise ImportError_(problems)


def _in_json(
    plan: ImportPlan, path: str, problem: Problem, texts: dict[str, str], locate: bool
) -> Problem:
    """A problem of a file the import would write, sent back to the JSON card it comes
    from: that file does not exist, the JSON is what the user can fix (its line for
    the first :data:`~translator.jsonfile.LOCATED` problems)."""
    if path not in plan.sources:
        return problem
    origin, where = plan.sources[path]
    line = 0
    if locate:
        if origin not in texts:
            try:
                texts[origin] = decode(read_file(origin, MAX_EXCHANGE_BYTES, "JSON file"), origin)
            except InputError:
                texts[origin] = ""
        line = jsonfile.line_of(texts[origin], where) if texts[origin] else 0
    return Problem(
        origin,
        line,
        f"{problem.message} (the card that would be written as {Path(path).name})",
        problem.hint,
    )


__all__ = [
    "CardFile",
    "ImportError_",
    "ImportPlan",
    "Incoming",
    "card_json",
    "cards_of",
    "check_document",
    "check_import",
    "commit",
    "commit_root",
    "deck_creator",
    "export_deck",
    "import_documents",
    "import_files",
    "import_library",
    "plan_import",
    "read_documents",
    "remote_fields",
    "render_card_file",
    "slugify",
]
