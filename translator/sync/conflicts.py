"""Three versions of one card file, and what differs between them.

Pull and push compare a card as it was pulled (its record), as the server holds it now,
and as the library holds it, all three written as the card file the import would write
(:func:`project`): then one comparison serves every field, a translation and an English
card alike, and a difference is shown in the words the translator edits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cards.aminduna import plan_import
from ..cards.files import Problem, parse_card_text
from ..cards.model import CardFile, Library
from .records import Record

#: How a field is named in a comparison: the file's keys, and the body as ``text``.
TEXT = "text"


def project(cards: list[dict[str, Any]], into: Path, library: Library) -> dict[str, str]:
    """The card files the import would write for these Aminduna cards (path: content),
    keeping the library's local fields: how a server version reads as a file."""
    if not cards:
        return {}
    plan = plan_import([("server", cards)], into, library)
    return {path: text for path, text in plan.files.items() if path.endswith(".md")}


def read_version(path: str, deck: str, content: str) -> CardFile | None:
    """A card file's content read as a card (None when it does not read)."""
    problems: list[Problem] = []
    return parse_card_text(path, deck, content, problems)


def same_content(path: str, deck: str, content: str) -> tuple[Any, ...] | None:
    """What a card file says, however it is laid out (key order, quoting, comments):
    its fields and its text, or None when it does not read as a card."""
    version = read_version(path, deck, content)
    if version is None:
        return None
    fields = tuple(sorted((k, repr(v)) for k, v in version.fields.items() if v not in (None, "")))
    return (fields, version.body.replace("\r\n", "\n").strip("\n"))


def _value(version: CardFile | None, key: str) -> Any:
    if version is None:
        return None
    value = version.body.strip("\n") if key == TEXT else version.fields.get(key)
    return None if value in ("", None) else value


@dataclass
class FieldVersions:
    """One field in the three versions."""

    key: str
    pulled: Any
    server: Any
    local: Any

    @property
    def changed_on_server(self) -> bool:
        return self.pulled != self.server

    @property
    def changed_locally(self) -> bool:
        return self.pulled != self.local

    def to_dict(self) -> dict[str, Any]:
        return {
            "field": self.key,
            "pulled": self.pulled,
            "server": self.server,
            "local": self.local,
        }


def compare(
    pulled: CardFile | None, server: CardFile | None, local: CardFile | None, keys: tuple[str, ...]
) -> list[FieldVersions]:
    """The fields among ``keys`` (and the text) that are not the same in all three."""
    found = []
    for key in (*keys, TEXT):
        versions = FieldVersions(key, _value(pulled, key), _value(server, key), _value(local, key))
        if not (versions.pulled == versions.server == versions.local):
            found.append(versions)
    return found


@dataclass
class Conflict:
    """A card changed both on the server and in the library since its last pull:
    nothing is written over either; the translator merges by hand."""

    path: str
    guid: str
    #: The server's lastModifiedTime at the pull, and now, and who changed it.
    pulled_at: str
    server_at: str
    by: str | None
    fields: list[FieldVersions] = field(default_factory=list)

    @classmethod
    def of(
        cls,
        path: str,
        record: Record,
        card: dict[str, Any],
        texts: tuple[str, str],
        local: CardFile | None,
        keys: tuple[str, ...],
    ) -> Conflict:
        """The conflict of the card file ``path``: pulled as ``record`` says, now
        ``card`` on the server; ``texts`` are those two as card files (:func:`project`)."""
        deck = Path(path).parent.name
        pulled, server = (read_version(path, deck, text) for text in texts)
        return cls(
            path,
            record.guid,
            record.modified,
            str(card.get("lastModifiedTime") or ""),
            who_changed(card),
            compare(pulled, server, local, keys),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "guid": self.guid,
            "pulled": self.pulled_at,
            "server": self.server_at,
            "by": self.by,
            "fields": [f.to_dict() for f in self.fields],
        }


def who_changed(card: dict[str, Any]) -> str | None:
    """The user the server says changed a card last."""
    user = card.get("lastModifiedBy")
    name = user.get("name") if isinstance(user, dict) else None
    return str(name) if name else None


__all__ = [
    "TEXT",
    "Conflict",
    "FieldVersions",
    "compare",
    "project",
    "read_version",
    "same_content",
    "who_changed",
]
