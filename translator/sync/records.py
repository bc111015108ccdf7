"""Pull records: what the server held for each card file when it was last pulled.

A push must send only what changed in the library, and must not overwrite an edit made
on the server since: both need the card as it was pulled.  Each card file pulled gets a
record beside it, ``<deck>/.aminduna/<slug>.<lang>.json``: the server it came from, the
card object exactly as the server sent it (a PATCH sends that object back, changed only
where the library changed), its ``lastModifiedTime`` and a hash of its fields.  Records
are committed with the library, so that whoever clones it can push.

The hash covers the fields a person edits, not the ones the server regenerates (image
addresses carry a timestamp, ``isGenerated`` turns true a minute after any change, the
user objects may be renamed): a card counts as changed on the server when its hash
changed, whatever its ``lastModifiedTime`` says.

A record is committed, so a pull request can change it, and whoever changes it can
compute its hash again: a record is data to check, never an authority.  Each is read
by the one JSON reader (:func:`translator.jsonfile.read`: a regular file of at most
:data:`MAX_RECORD_BYTES`, no link followed below the deck, JSON at most 64 deep), its
values checked as a server's card is (:func:`translator.cards.aminduna.check_document`),
its server a normalised address.  It never chooses where a push goes: the command
does (:func:`translator.sync.client.choose_server`), and a record naming another
server is an error (:func:`check_servers`).  A record that exists but cannot be read
(a FIFO, a device, a link, a folder) is an error naming it, never "no record": a push
would then create the card a second time.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import jsonfile
from ..atomic import write_file
from ..errors import UserError
from ..paths import check_inside
from ..problems import Problem
from ..textio import InputError
from .client import InvalidServer, server_address

#: The folder of a deck that holds its pull records.
RECORD_DIR = ".aminduna"
#: The record format; a record of another version is read as no record (pull again).
RECORD_VERSION = 1
#: Bytes of one record: one card (about 6 KB; a card of the longest text a card file
#: may hold, with its master card, under 1 MB).  Far above any real record, and a
#: bound on what a record someone replaced can make a push read.
MAX_RECORD_BYTES = 4 << 20
#: What a card's guid looks like (a pull keeps only cards with one).
_GUID_RE = re.compile(
    r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
)
#: What to do about a record that cannot be used.
_HINT = "pull the card again to write a new record (translator pull)"
#: The card fields a change on the server is judged by (references by name and guid).
CONTENT_KEYS = (
    "name",
    "firstName",
    "lastName",
    "subType",
    "type",
    "faction",
    "status",
    "cost",
    "loyalty",
    "attack",
    "defense",
    "info",
    "markdownText",
    "ruleText",
    "flavorText",
    "artist",
    "artworkLicensor",
    "artworkLicense",
    "serie",
    "ruleSet",
    "language",
    "masterCard",
)


class RecordError(UserError):
    """A pull record that cannot be read: its file and what to do."""


def _reference(value: Any, key: str) -> Any:
    """What of a nested object counts: a language by its code, the master card by its
    guid, a reference (type, status...) by its name and guid."""
    if not isinstance(value, dict):
        return value
    if key == "language":
        return value.get("languageCode")
    if key == "masterCard":
        return value.get("guid")
    return [value.get("name"), value.get("guid")]


#: The keys of a card that name users: a record keeps their name and guid only.
USER_KEYS = ("creator", "lastModifiedBy")


def scrubbed(card: dict[str, Any]) -> dict[str, Any]:
    """The card with its users reduced to name and guid: Aminduna's user objects carry
    the user's e-mail address (and more), which a library in git must not publish.
    The server ignores them in a PATCH, so nothing is lost."""
    result = dict(card)
    for key in USER_KEYS:
        user = result.get(key)
        if isinstance(user, dict):
            result[key] = {k: user[k] for k in ("name", "guid") if k in user}
    master = result.get("masterCard")
    if isinstance(master, dict):
        result["masterCard"] = scrubbed(master)
    return result


def server_hash(card: dict[str, Any]) -> str:
    """``sha256:`` and the hash of the card's :data:`CONTENT_KEYS` (line ends as sent:
    a server that turns LF into CRLF changed the card)."""
    content = {key: _reference(card.get(key), key) for key in CONTENT_KEYS}
    data = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(data.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Record:
    """One card file's record."""

    server: str
    #: The card as the server sent it, its users' e-mail addresses left out.
    card: dict[str, Any]
    #: What a push still has to do for this card (``artwork``: copy its English card's
    #: artwork to a translation it created), kept until done.
    pending: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", scrubbed(self.card))

    @property
    def guid(self) -> str:
        return str(self.card.get("guid") or "")

    @property
    def modified(self) -> str:
        return str(self.card.get("lastModifiedTime") or "")

    @property
    def hash(self) -> str:
        return server_hash(self.card)

    def text(self) -> str:
        """The record file: stable for the same server state, so that pulling an
        unchanged card leaves its record byte for byte as it was."""
        data = {
            "version": RECORD_VERSION,
            "server": self.server,
            "guid": self.guid,
            "lastModifiedTime": self.modified,
            "hash": self.hash,
            "card": self.card,
        }
        if self.pending:
            data["pending"] = list(self.pending)
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def record_path(card_file: str | Path) -> Path:
    """Where the record of a card file (``deck/slug.lang.md``) is."""
    path = Path(card_file)
    return path.parent / RECORD_DIR / (path.name[: -len(".md")] + ".json")


def write_record(card_file: str | Path, record: Record) -> Path:
    """Write a card file's record, all at once, inside its deck (links followed):
    a ``.aminduna`` that is a link, or leads out of the deck, is refused before
    anything is written (:func:`check_folder`, :func:`translator.paths.check_inside`)."""
    path = record_path(card_file)
    deck = path.parent.parent
    check_folder(deck)
    check_inside(path, deck)  # before the folder is made: .aminduna may be a link
    path.parent.mkdir(parents=True, exist_ok=True)
    write_file(path, record.text().encode("utf-8"), within=deck)
    return path


def check_folder(deck_dir: str | Path) -> None:
    """Refuse a deck whose records folder is not a folder of its own: a link (records
    read or written through it would be another folder's), a file, a FIFO.  None is
    fine (no record yet)."""
    folder = Path(deck_dir) / RECORD_DIR
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise RecordError(
            f"{folder}: is a link: pull records are read and written only in the deck's own "
            f"{RECORD_DIR} folder, never through a link (remove the link, pull again)"
        )
    if not stat.S_ISDIR(info.st_mode):
        raise RecordError(
            f"{folder}: is not a folder: it holds the deck's pull records (remove it, pull again)"
        )


def check_servers(deck_dir: str | Path, server: str, named_by: str = "") -> None:
    """Refuse the records of ``deck_dir`` unless every one was pulled from ``server``
    (the server a push goes to, which the user chose): a record naming another server
    is an error naming the record and both servers, before any request is made.  Every
    record is read (:func:`read_record`'s checks): one that cannot be is an error too."""
    deck = Path(deck_dir)
    check_folder(deck)
    folder = deck / RECORD_DIR
    if not folder.is_dir():
        return
    chosen = f" ({named_by})" if named_by else ""
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        path = folder / name
        record = _load(path, deck)
        if record is not None and record.server != server:
            raise RecordError(
                f"{path}: pulled from {record.server}, but this push goes to {server}{chosen}; "
                "a record never chooses where a push goes: push there only if you trust it "
                f"(--server {record.server}), or pull the card again from {server}"
            )


def read_record(card_file: str | Path) -> Record | None:
    """The record of a card file, or None when it has none.  A damaged record is an
    error naming it: a push without its base could overwrite someone's edit; so is
    one that exists but is not a regular file of the deck's own records folder."""
    path = record_path(card_file)
    deck = path.parent.parent
    check_folder(deck)
    if not os.path.lexists(path):
        return None
    return _load(path, deck)


def _load(path: Path, deck: Path) -> Record | None:
    """The record in the file ``path`` of ``deck``'s records (None: of another version),
    read by the one JSON reader and checked; a :class:`RecordError` naming it."""
    where = str(path)
    try:
        data = jsonfile.read(path, MAX_RECORD_BYTES, "pull record", hint=_HINT, beneath=deck)
    except InputError as error:
        hint = "" if _HINT in error.message else f"; {_HINT}"
        raise RecordError(f"{error}{hint}") from None
    if not isinstance(data, dict) or not isinstance(data.get("card"), dict):
        raise RecordError(f"{where}: not a pull record; {_HINT}")
    if data.get("version") != RECORD_VERSION:
        return None
    card, server = data["card"], data.get("server")
    problem = _card_problem(card, where) or _server_problem(server)
    if problem:
        raise RecordError(f"{where}: {problem}; {_HINT}")
    if data.get("hash") != server_hash(card):
        raise RecordError(f"{where}: the record was edited (its hash does not match); {_HINT}")
    pending = data.get("pending") or []
    if not isinstance(pending, list) or not all(isinstance(p, str) for p in pending):
        raise RecordError(f"{where}: pending is a list of names; {_HINT}")
    return Record(str(server), card, tuple(pending))


def _card_problem(card: dict[str, Any], where: str) -> str | None:
    """What is wrong with a record's card, checked as a server's answer is (the import's
    checks: every value of the type Aminduna gives it), and its guid; None if nothing."""
    from ..cards.aminduna import check_document  # noqa: PLC0415 - the import is heavy

    guid = card.get("guid")
    if not isinstance(guid, str) or not _GUID_RE.match(guid):
        return f"card.guid is {json.dumps(guid)[:60]}, not a card's guid"
    if not isinstance(card.get("lastModifiedTime"), str | None):
        return "card.lastModifiedTime is not text"
    problems: list[Problem] = []
    check_document(card, where, "", problems)
    return f"card.{problems[0].message}" if problems else None


def _server_problem(server: Any) -> str | None:
    """What is wrong with a record's server: it must be an address as a pull writes it
    (:func:`~.client.server_address`)."""
    if not isinstance(server, str):
        return "server is not an address"
    try:
        normal = server_address(server)
    except InvalidServer as error:
        return f"server: {error}"
    return None if normal == server else f"server {server} is not written as a pull writes it"


__all__ = [
    "CONTENT_KEYS",
    "MAX_RECORD_BYTES",
    "RECORD_DIR",
    "Record",
    "RecordError",
    "check_folder",
    "check_servers",
    "read_record",
    "record_path",
    "server_hash",
    "write_record",
]
