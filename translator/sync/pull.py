"""``translator pull``: decks, cards and searches from Aminduna into the library.

What the server sends goes through the import (:mod:`translator.cards.aminduna`): the
same files, guids kept, local-only fields kept, all or nothing.  Pull adds two things
the import cannot know: a record of what was pulled (:mod:`translator.sync.records`),
and care for what the translator did since.  A card file changed in the library since
its last pull is never overwritten: when the server did not change it either, the file
is kept as it is (a push will send it); when both changed, it is a conflict, shown
field by field, and both stay as they are until the translator says which to keep.

A pull killed half-way (even with ``kill -9``, in the middle of putting its files in
place) is finished by the next: the import stages every file and a journal before
renaming any (:func:`translator.atomic.commit_files`), and the next pull or import
completes (or rolls back) that commit before it looks at the deck
(:func:`~translator.cards.aminduna.import_library`).  Every record is written inside
its deck (links followed, :func:`translator.paths.check_inside`), checked before
anything is written.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cards.aminduna import (
    ImportError_,
    ImportPlan,
    check_document,
    check_import,
    commit,
    commit_root,
    import_library,
    plan_import,
)
from ..cards.files import DECK_FILE, Problem
from ..cards.model import SOURCE_FIELDS, SOURCE_LANGUAGE, TRANSLATION_FIELDS, Library
from ..errors import UsageError
from ..limits import MAX_CARD_FILE_BYTES
from ..paths import check_inside
from ..textio import read_text
from .client import Client, NotFound
from .conflicts import Conflict, project, read_version, same_content
from .records import Record, check_folder, read_record, record_path, server_hash

#: A card's or deck's address in Aminduna's web application.
WEB_ADDRESS_RE = re.compile(
    r"^(?P<server>https?://[^#?]+?)/*(?:index\.html)?#/(?P<kind>decks|cards)/(?P<guid>[^/?#]+)/?$"
)
GUID_RE = re.compile(
    r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
)
#: Requests a pull runs at once: a 30-card deck with two languages is about 120 requests.
PARALLEL = 4

#: Called as the pull goes: (what is being fetched, how many done, out of how many).
OnProgress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class Reference:
    """What to pull: a deck, a card, or a guid that may be either."""

    kind: str  # "deck", "card" or "any"
    guid: str
    #: The server a web address names (None for a bare guid).
    server: str | None = None


def parse_reference(text: str) -> Reference:
    """A web address (``https://aminduna.arcmage.org/#/decks/{guid}``, ``.../#/cards/{guid}``)
    or a bare guid; anything else is a usage error saying what is accepted."""
    text = text.strip()
    match = WEB_ADDRESS_RE.match(text)
    if match:
        guid = match["guid"]
        if not GUID_RE.match(guid):
            raise UsageError(f"{text}: {guid!r} is not a guid")
        kind = "deck" if match["kind"] == "decks" else "card"
        return Reference(kind, guid.lower(), match["server"] + "/")
    if GUID_RE.match(text):
        return Reference("any", text.lower())
    raise UsageError(
        f"{text}: not an Aminduna address or guid; give a deck or card address as the web "
        "site shows it (https://aminduna.arcmage.org/#/decks/GUID, .../#/cards/GUID) or its guid"
    )


@dataclass
class Fetched:
    """What the server sent: the deck (if one was asked for), its English cards with
    their quantities, and their translations."""

    deck: dict[str, Any] | None = None
    #: English cards by guid, in the order they came (the deck's).
    sources: dict[str, dict[str, Any]] = field(default_factory=dict)
    quantities: dict[str, int] = field(default_factory=dict)
    translations: dict[str, dict[str, Any]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _language(card: dict[str, Any]) -> str:
    language = card.get("language")
    code = language.get("languageCode") if isinstance(language, dict) else None
    return str(code or SOURCE_LANGUAGE).lower()


def _master(card: dict[str, Any]) -> str | None:
    master = card.get("masterCard")
    guid = master.get("guid") if isinstance(master, dict) else None
    return str(guid).lower() if guid else None


def _guid(card: Any) -> str | None:
    guid = card.get("guid") if isinstance(card, dict) else None
    return str(guid).lower() if isinstance(guid, str) and GUID_RE.match(guid) else None


def _name(card: dict[str, Any]) -> str:
    return str(card.get("name") or card.get("firstName") or card.get("guid") or "?")


class _Fetcher:
    """The requests of one pull, a few at a time."""

    def __init__(
        self,
        client: Client,
        languages: Sequence[str],
        on_progress: OnProgress | None,
        held: Collection[str] = (),
    ) -> None:
        self.client = client
        self.held = {guid.lower() for guid in held}
        self.languages = list(languages)
        self.on_progress = on_progress or (lambda _what, _done, _total: None)
        self.found = Fetched()
        #: Cards already fetched whole (a bare guid is tried as a card first).
        self.known: dict[str, dict[str, Any]] = {}

    def _cards(self, guids: list[str], what: str) -> list[dict[str, Any]]:
        """Each card whole (GET api/Cards/{guid}: a deck's or a search's cards lack
        fields a push must send back)."""
        done = [0]

        def one(guid: str) -> dict[str, Any]:
            card = self.known.get(guid) or self.client.card(guid)
            done[0] += 1
            self.on_progress(what, done[0], len(guids))
            return card

        if not guids:
            return []
        with ThreadPoolExecutor(PARALLEL) as pool:
            return list(pool.map(one, guids))

    def references(self, references: Sequence[Reference], search: str | None) -> None:
        """The cards the references and the search name, English and translations."""
        wanted: list[tuple[str, int | None]] = []
        for reference in references:
            wanted.extend(self._expand(reference))
        named = {guid for guid, _ in wanted}
        if search:
            items = self.client.search(
                {"search": search},
                on_page=lambda done, total: self.on_progress("searching", done, total),
            )
            wanted.extend((g, None) for g in filter(None, map(_guid, items)))
        unique = list(dict.fromkeys(g for g, _ in wanted))
        cards = dict(zip(unique, self._cards(unique, "cards"), strict=True))
        masters: list[str] = []
        for guid, quantity in wanted:
            card = cards[guid]
            if _language(card) == SOURCE_LANGUAGE:
                self._source(guid, card, quantity)
                continue
            master = _master(card)
            if master is None:
                self.found.notes.append(
                    f"skipped '{_name(card)}' ({guid}): a {_language(card)} card with no "
                    "English master card on the server, which the library cannot file"
                )
                continue
            if master not in cards and master not in masters:
                masters.append(master)
            if quantity is not None:
                self.found.quantities[master] = self.found.quantities.get(master, 0) + quantity
            if guid in named or _language(card) in self.languages:
                self.found.translations[guid] = card  # one named is pulled whatever --lang says
        for guid, card in zip(masters, self._cards(masters, "English cards"), strict=True):
            self._source(guid, card, None)
        for guid, card in cards.items():  # masters that were asked for too
            if _language(card) == SOURCE_LANGUAGE and guid not in self.found.sources:
                self._source(guid, card, None)

    def _expand(self, reference: Reference) -> list[tuple[str, int | None]]:
        """(card guid, quantity) of a reference: a deck's cards, or one card."""
        if reference.kind == "card":
            return [(reference.guid, None)]
        if reference.kind == "any":
            try:
                self.known[reference.guid] = self.client.card(reference.guid)
                return [(reference.guid, None)]
            except NotFound:
                pass  # not a card: a deck, or nothing (the deck request says so)
        deck = self.client.deck(reference.guid)
        self.found.deck = deck
        entries: list[tuple[str, int | None]] = []
        for entry in deck.get("deckCards") or []:
            guid = _guid(entry.get("card")) if isinstance(entry, dict) else None
            quantity = entry.get("quantity") if isinstance(entry, dict) else None
            if guid is not None:
                entries.append((guid, quantity if isinstance(quantity, int) else 1))
        return entries

    def _source(self, guid: str, card: dict[str, Any], quantity: int | None) -> None:
        self.found.sources.setdefault(guid, card)
        if quantity is not None:
            self.found.quantities[guid] = self.found.quantities.get(guid, 0) + quantity

    def translations(self) -> None:
        """Every English card's translations into the languages asked for
        (``CardSearch`` with ``masterCard``): the most recently changed one when the
        server holds two in one language, which a pull says."""
        if not self.languages:
            return
        masters = list(self.found.sources)
        done = [0]

        def search(master: str) -> list[dict[str, Any]]:
            items = self.client.search({"masterCard": {"guid": master}})
            done[0] += 1
            self.on_progress("translations", done[0], len(masters))
            return items

        with ThreadPoolExecutor(PARALLEL) as pool:
            found = list(pool.map(search, masters))
        chosen: list[str] = []
        for master, items in zip(masters, found, strict=True):
            by_language: dict[str, list[dict[str, Any]]] = {}
            asked = {  # a translation the references named is the one pulled
                _language(card)
                for card in self.found.translations.values()
                if _master(card) == master
            }
            for item in items:
                if (
                    _guid(item)
                    and _language(item) in self.languages
                    and _language(item) not in asked
                ):
                    by_language.setdefault(_language(item), []).append(item)
            for lang, versions in sorted(by_language.items()):
                guid = self._pick(master, lang, versions)
                if guid not in self.found.translations:
                    chosen.append(guid)
        for guid, card in zip(chosen, self._cards(chosen, "translations"), strict=True):
            self.found.translations[guid] = card

    def _pick(self, master: str, lang: str, versions: list[dict[str, Any]]) -> str:
        """The translation to pull of the server's several in one language: the one
        the library holds, else the latest; a note names the others."""
        versions.sort(key=lambda c: str(c.get("lastModifiedTime") or ""), reverse=True)
        versions.sort(key=lambda c: _guid(c) not in self.held)
        chosen = str(_guid(versions[0]))
        if len(versions) > 1:
            why = "the one the library holds" if chosen in self.held else "the latest"
            others = ", ".join(str(_guid(c)) for c in versions[1:])
            self.found.notes.append(
                f"'{_name(self.found.sources[master])}' has {len(versions)} {lang} "
                f"translations on the server: pulled {chosen} ({why}), not {others}"
            )
        return chosen


def fetch(
    client: Client,
    references: Sequence[Reference],
    *,
    search: str | None = None,
    languages: Sequence[str] = (),
    on_progress: OnProgress | None = None,
    held: Collection[str] = (),
) -> Fetched:
    """Everything a pull asks the server for; ``held`` are the guids the library has
    already (of two translations in one language, the one it holds is pulled)."""
    fetcher = _Fetcher(client, languages, on_progress, held)
    fetcher.references(references, search)
    fetcher.translations()
    return fetcher.found


def documents(found: Fetched, server: str) -> list[tuple[str, Any]]:
    """What the server sent, as the Aminduna documents the import reads: the deck with
    its cards and quantities (or a list of cards), then the translations."""
    result: list[tuple[str, Any]] = []
    sources = list(found.sources.values())
    if found.deck is not None:
        deck = {k: v for k, v in found.deck.items() if k != "deckCards"}
        deck["deckCards"] = [
            {"quantity": found.quantities.get(guid, 1), "card": card}
            for guid, card in found.sources.items()
        ]
        result.append((f"{server}api/Decks/{found.deck.get('guid')}", deck))
    elif sources:
        result.append((f"{server}api/Cards", sources))
    if found.translations:
        result.append((f"{server}api/CardSearch", list(found.translations.values())))
    return result


def check_documents(docs: list[tuple[str, Any]]) -> None:
    """The server's answers are checked like a JSON file's: untrusted data."""
    problems: list[Problem] = []
    for origin, document in docs:
        text = json.dumps(document, ensure_ascii=False, indent=2)
        check_document(document, origin, text, problems)
    if problems:
        raise ImportError_(problems)


@dataclass
class Kept:
    """A card file left as the library has it, and why."""

    path: str
    reason: str


@dataclass
class PullResult:
    """What a pull did."""

    plan: ImportPlan
    server: str
    #: Files changed in the library and kept (nothing to merge, or no record to tell).
    kept: list[Kept] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: Record files written.
    records: list[str] = field(default_factory=list)
    requests: int = 0

    @property
    def written(self) -> list[str]:
        return self.plan.created + self.plan.updated


def _keys(path: str) -> tuple[str, ...]:
    lang = Path(path).name.rsplit(".", 2)[-2]
    return SOURCE_FIELDS if lang == SOURCE_LANGUAGE else TRANSLATION_FIELDS


def _disk(path: str) -> str | None:
    """The card file as the library has it (None: there is none), read as every file
    is (:func:`translator.textio.read_text`: a FIFO or a device is an error naming it,
    a file of any size is not read whole)."""
    if not os.path.lexists(path):
        return None
    text = read_text(path, MAX_CARD_FILE_BYTES, "card file")
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as a text file reads


@dataclass
class _Merge:
    """Decide, card file by card file, between the server's version and the library's."""

    into: Path
    library: Library
    server: str
    keep_local: bool
    take_server: bool
    result: PullResult
    #: The documents the plan was made of (to find the server card of each file).
    documents: list[tuple[str, Any]] = field(default_factory=list)

    def decide(self, plan: ImportPlan, cards: dict[str, dict[str, Any]]) -> dict[str, str]:
        """Drop from ``plan`` the files to leave as they are; the records to write."""
        by_path = self._paths(plan, cards)
        records = self._records(by_path)
        base = project([r.card for r in records.values() if r is not None], self.into, self.library)
        written: dict[str, str] = {}
        for path, card in by_path.items():
            record = records[path]
            choice = self._choose(path, plan.files[path], record, base.get(path), card)
            if choice != "keep":
                pending = record.pending if record is not None else ()
                written[str(record_path(path))] = Record(self.server, card, pending).text()
            if choice == "write":
                continue
            del plan.files[path]
            for listed in (plan.updated, plan.unchanged, plan.created):
                if path in listed:
                    listed.remove(path)
            if choice == "same":
                plan.unchanged.append(path)
        return written

    def _paths(self, plan: ImportPlan, cards: dict[str, dict[str, Any]]) -> dict[str, dict]:
        """The server card each card file of the plan was made of."""
        found: dict[str, dict[str, Any]] = {}
        for path in plan.files:
            if not path.endswith(".md"):
                continue
            origin, where = plan.sources[path]
            card = _at(dict(self.documents), origin, where)
            if isinstance(card, dict) and _guid(card) in cards:
                found[path] = card
        return found

    def _records(self, by_path: dict[str, dict]) -> dict[str, Record | None]:
        records: dict[str, Record | None] = {}
        for path in by_path:
            record = read_record(path)
            records[path] = record if record is not None and record.server == self.server else None
        return records

    def _choose(
        self, path: str, incoming: str, record: Record | None, base: str | None, card: dict
    ) -> str:
        """What to do with one card file: ``write`` the server's version (and its
        record); leave the file and write the record, because it already says what the
        server says (``same``) or because ``--keep-local`` says so (``record``); or
        ``keep`` the file and its record as they are (changed here; a conflict)."""
        local = _disk(path)
        deck = Path(path).parent.name
        if local is None:
            return "write"
        now = same_content(path, deck, local)
        if now is not None and now == same_content(path, deck, incoming):
            return "same"  # the file may be laid out differently; its content is the server's
        if self.take_server:
            return "write"
        if record is not None and now == same_content(path, deck, base or ""):
            return "write"  # unchanged here since the pull: the server's changes come in
        return self._changed_here(path, deck, incoming, local, record, base, card)

    def _changed_here(
        self,
        path: str,
        deck: str,
        incoming: str,
        local: str,
        record: Record | None,
        base: str | None,
        card: dict[str, Any],
    ) -> str:
        """The choice for a file the library changed since its pull (or cannot tell)."""
        if record is not None and server_hash(card) == record.hash:
            self.result.kept.append(Kept(path, "changed here since the pull, not pushed yet"))
            return "keep"
        if self.keep_local:
            self.result.kept.append(Kept(path, "kept the library's version (--keep-local)"))
            return "record"
        if record is None:
            self.result.kept.append(
                Kept(
                    path,
                    "it differs from the server's and has no pull record (imported or "
                    "written by hand): --take-server replaces it, --keep-local keeps it "
                    "and records the server's version as its base",
                )
            )
            return "keep"
        local_version = read_version(path, deck, local)
        texts = (base or "", incoming)
        self.result.conflicts.append(
            Conflict.of(path, record, card, texts, local_version, _keys(path))
        )
        return "keep"


def _at(documents: dict[str, Any], origin: str, where: tuple[str | int, ...]) -> Any:
    """The object at ``where`` in the document ``origin``."""
    value = documents.get(origin)
    for step in where:
        try:
            value = value[step]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def pull(
    client: Client,
    references: Sequence[Reference],
    into: str,
    *,
    search: str | None = None,
    languages: Sequence[str] = (),
    library_root: str | None = None,
    keep_local: bool = False,
    take_server: bool = False,
    on_progress: OnProgress | None = None,
) -> PullResult:
    """Pull into the deck directory ``into``; nothing is written unless everything
    checks out, and then the card files and their records are written together."""
    if keep_local and take_server:
        raise UsageError("--keep-local and --take-server contradict each other; give one")
    target = Path(into)
    # First: a pull or import killed while it put its files in place is completed or
    # rolled back, so that the deck is checked (and read) whole.
    library, root = import_library(target, library_root)
    if target.exists() and not target.is_dir():
        raise UsageError(f"--into {into}: not a directory; give a deck directory (cards/DECK)")
    if target.is_dir() and not (target / DECK_FILE).is_file() and any(target.glob("*.md")):
        raise UsageError(f"--into {into}: holds card files but no {DECK_FILE}")
    check_folder(target)  # before any request: records go in the deck's own folder
    found = fetch(
        client,
        references,
        search=search,
        languages=languages,
        on_progress=on_progress,
        held=library.by_guid(),
    )
    docs = documents(found, client.server)
    check_documents(docs)
    plan = plan_import(docs, target, library)
    check_import(plan, target, root)
    result = PullResult(plan, client.server, notes=list(found.notes))
    cards = {str(_guid(c)): c for c in (*found.sources.values(), *found.translations.values())}
    merge = _Merge(target, library, client.server, keep_local, take_server, result, docs)
    records = merge.decide(plan, cards)
    for path in records:  # each inside its deck, links followed, before anything is written
        check_inside(path, Path(path).parent.parent)
    commit(plan, commit_root(target, root), records)
    result.records = sorted(records)
    result.requests = client.requests_sent
    return result


__all__ = [
    "Fetched",
    "Kept",
    "PullResult",
    "Reference",
    "check_documents",
    "documents",
    "fetch",
    "parse_reference",
    "pull",
]
