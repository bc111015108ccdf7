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
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import jsonfile
from ..atomic import write_file
from ..errors import UserError
from ..limits import MAX_EXCHANGE_BYTES
from ..paths import check_inside
from ..textio import InputError, decode, read_file

#: The folder of a deck that holds its pull records.
RECORD_DIR = ".aminduna"
#: The record format; a record of another version is read as no record (pull again).
RECORD_VERSION = 1
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
    """Write a card file's record, all at once."""
    path = record_path(card_file)
    deck = path.parent.parent
    check_inside(path, deck)  # before the folder is made: .aminduna may be a link
    path.parent.mkdir(parents=True, exist_ok=True)
    write_file(path, record.text().encode("utf-8"), within=deck)
    return path


def recorded_servers(deck_dir: str | Path) -> set[str]:
    """The servers a deck's records were pulled from (a push goes back there)."""
    found = set()
    for path in sorted((Path(deck_dir) / RECORD_DIR).glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # reported when the record is read
        if isinstance(data, dict) and isinstance(data.get("server"), str):
            found.add(data["server"])
    return found


def read_record(card_file: str | Path) -> Record | None:
    """The record of a card file, or None when it has none.  A damaged record is an
    error naming it: a push without its base could overwrite someone's edit."""
    path = record_path(card_file)
    if not path.is_file():
        return None
    where = str(path)
    try:
        text = decode(read_file(where, MAX_EXCHANGE_BYTES, "pull record"), where)
    except InputError as error:
        raise RecordError(f"{where}: {error.message}") from None
    problems: list[Any] = []
    ok, data = jsonfile.load(text, where, problems)
    hint = "pull the card again to write a new record (translator pull)"
    if not ok:
        raise RecordError(f"{problems[0] if problems else where}: {hint}")
    if not isinstance(data, dict) or not isinstance(data.get("card"), dict):
        raise RecordError(f"{where}: not a pull record; {hint}")
    if data.get("version") != RECORD_VERSION:
        return None
    card = data["card"]
    if data.get("hash") != server_hash(card) or not isinstance(data.get("server"), str):
        raise RecordError(f"{where}: the record was edited (its hash does not match); {hint}")
    pending = data.get("pending") or []
    if not isinstance(pending, list) or not all(isinstance(p, str) for p in pending):
        raise RecordError(f"{where}: pending is a list of names; {hint}")
    return Record(str(data["server"]), card, tuple(pending))


__all__ = [
    "CONTENT_KEYS",
    "RECORD_DIR",
    "Record",
    "RecordError",
    "read_record",
    "record_path",
    "recorded_servers",
    "server_hash",
    "write_record",
]
