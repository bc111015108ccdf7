"""Pull records and references: what a push compares with, and what a pull accepts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from translator.errors import UsageError
from translator.sync.pull import Reference, parse_reference
from translator.sync.records import (
    Record,
    RecordError,
    read_record,
    record_path,
    server_hash,
    write_record,
)

CARD = {
    "id": 7,
    "name": "Storm Hawk",
    "firstName": "Storm Hawk",
    "markdownText": ":W:hen I come into play\\\nfly.",
    "status": {"id": 1, "name": "Draft", "guid": "d"},
    "language": {"name": "English", "languageCode": "en"},
    "png": "/api/Cards/x/export?format=Png&modified=1",
    "isGenerated": False,
    "guid": "0b9d4f0e-a6c4-4d2e-8f40-516273849506",
    "lastModifiedBy": {"name": "Ana", "guid": "u1"},
    "lastModifiedTime": "2026-12-01T10:00:00.0000000",
}


def test_the_hash_ignores_what_the_server_regenerates() -> None:
    later = {
        **CARD,
        "png": "/api/Cards/x/export?format=Png&modified=2",
        "isGenerated": True,
        "lastModifiedBy": {"name": "Ana B.", "guid": "u1"},
        "lastModifiedTime": "2026-12-01T10:01:00.0000000",
    }
    assert server_hash(later) == server_hash(CARD)


@pytest.mark.parametrize(
    "change",
    [
        {"markdownText": ":W:hen I come into play\\\r\nfly."},  # CRLF is a change
        {"status": {"id": 3, "name": "Final", "guid": "f"}},
        {"lastName": "the Second"},
        {"language": {"name": "français", "languageCode": "fr"}},
    ],
)
def test_the_hash_sees_what_a_person_edits(change: dict) -> None:
    assert server_hash({**CARD, **change}) != server_hash(CARD)


def test_a_record_reads_back_and_is_stable(tmp_path: Path) -> None:
    card_file = tmp_path / "deck" / "storm-hawk.en.md"
    record = Record("https://aminduna.arcmage.org/", CARD, ("artwork",))
    path = write_record(card_file, record)
    assert path == tmp_path / "deck" / ".aminduna" / "storm-hawk.en.json"
    assert record_path(card_file) == path
    again = read_record(card_file)
    assert again == record
    assert again is not None and again.text() == path.read_text(encoding="utf-8")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["hash"] == server_hash(CARD) and data["pending"] == ["artwork"]


def test_no_record_is_none(tmp_path: Path) -> None:
    assert read_record(tmp_path / "x.fr.md") is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "pull the card again"),
        ('["a list"]', "not a pull record"),
        (None, "was edited"),
    ],
)
def test_a_damaged_record_names_its_file(tmp_path: Path, content: str | None, message: str) -> None:
    card_file = tmp_path / "x.fr.md"
    path = write_record(card_file, Record("https://a.example/", CARD))
    if content is None:  # an edited card: its hash no longer matches
        data = json.loads(path.read_text(encoding="utf-8"))
        data["card"]["markdownText"] = "changed by hand"
        content = json.dumps(data)
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RecordError) as error:
        read_record(card_file)
    assert str(path) in str(error.value) and message in str(error.value)


GUID = "3e2a7c51-0b9d-4f0e-a6c4-1d2e3f405162"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            f"https://aminduna.arcmage.org/#/decks/{GUID}",
            Reference("deck", GUID, "https://aminduna.arcmage.org/"),
        ),
        (
            f"https://aminduna.arcmage.org/#/cards/{GUID}/",
            Reference("card", GUID, "https://aminduna.arcmage.org/"),
        ),
        (
            f"http://127.0.0.1:8765/#/cards/{GUID.upper()}",
            Reference("card", GUID, "http://127.0.0.1:8765/"),
        ),
        (f"  {GUID}  ", Reference("any", GUID)),
    ],
)
def test_references(text: str, expected: Reference) -> None:
    assert parse_reference(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "storm-hawk",
        "https://aminduna.arcmage.org/#/decks/not-a-guid",
        "https://x.org/#/users/" + GUID,
    ],
)
def test_a_bad_reference_says_what_is_accepted(text: str) -> None:
    with pytest.raises(UsageError) as error:
        parse_reference(text)
    assert text.strip() in str(error.value)


def test_a_record_keeps_no_e_mail_address(tmp_path: Path) -> None:
    """Aminduna's user objects carry e-mail addresses; a library in git must not."""
    user = {"name": "Ana", "guid": "u1", "email": "ana@example.org", "id": 3, "isVerified": True}
    card = {
        **CARD,
        "creator": user,
        "lastModifiedBy": user,
        "masterCard": {**CARD, "creator": user},
    }
    path = write_record(tmp_path / "x.fr.md", Record("https://a.example/", card))
    text = path.read_text(encoding="utf-8")
    assert "ana@example.org" not in text and '"name": "Ana"' in text
    record = read_record(tmp_path / "x.fr.md")
    assert record is not None and record.card["creator"] == {"name": "Ana", "guid": "u1"}
