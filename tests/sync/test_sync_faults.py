"""A push when the network or the server fails: it resumes or stops cleanly, and neither
the library nor the server ever holds a half-written card.

Each test pulls the 30-card deck from the stand-in, changes one translation and
translates another (reviewed), breaks one kind of request, pushes, and then checks the
invariant: every card file still reads, every record says what the server holds for
its card (or what it held before: the card was not sent), and the server holds each
card either as it was or as the library has it, never in between."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.synckit import requests, run
from translator.sync.records import read_record, server_hash

from .test_sync_e2e import RAID_FR

HERD_BEFORE = "un jeton 1/1 **addax** dans la *cité ciblée*"
HERD_AFTER = "un jeton 1/1 ***addax*** dans la ***cité*** ciblée"


def _prepare(seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    deck = tmp_path / "cards" / "deck30"
    code, out = run("pull", seeded.deck_address(), "--into", str(deck), "--lang", "fr")
    assert code == 0, out
    herd = deck / "addax-herdmother.fr.md"
    herd.write_text(herd.read_text("utf-8").replace(HERD_BEFORE, HERD_AFTER), encoding="utf-8")
    (deck / "raid-the-granaries.fr.md").write_text(RAID_FR, encoding="utf-8")
    code, out = run(
        "review",
        "raid-the-granaries",
        "addax-herdmother",
        "--lang",
        "fr",
        "--library",
        str(deck.parent),
    )
    assert code == 0, out
    monkeypatch.setenv("TRANSLATOR_TOKEN", seeded.token("ana@example.org"))
    seeded.server.clear_log()
    return deck


def _translations(seeded, master_name: str) -> list[dict]:
    masters = [c for c in seeded.server.cards() if c.get("name") == master_name]
    assert len(masters) == 1
    guid = masters[0]["guid"]
    return [
        c
        for c in seeded.server.cards()
        if (c.get("masterCard") or {}).get("guid") == guid and c["language"]["languageCode"] == "fr"
    ]


def _check_whole(seeded, deck: Path) -> None:
    """The invariant: no half-written card on either side."""
    code, out = run("cards", "check", str(deck.parent))
    assert code == 0, out
    for path in sorted(deck.glob("*.md")):
        record = read_record(path)
        if record is None:
            continue
        on_server = seeded.server.card(record.guid)
        assert server_hash(on_server) == record.hash or (
            # Sent, but its answer was lost: the server holds the library's version,
            # the record the version before (the next push sees nothing to send).
            path.name == "addax-herdmother.fr.md" and HERD_AFTER in on_server["markdownText"]
        ), path
    herd = _herd(seeded)
    assert herd.count("addax") == 1 and (HERD_BEFORE in herd or HERD_AFTER in herd)
    assert len(_translations(seeded, "Raid the Granaries")) <= 1


def _herd(seeded) -> str:
    cards = _translations(seeded, "Addax Herdmother")
    assert len(cards) == 1
    return str(cards[0]["markdownText"])


def _pushed_fully(seeded, deck: Path, out: str) -> None:
    assert "created raid-the-granaries.fr" in out or "adopted raid-the-granaries.fr" in out, out
    assert "patched addax-herdmother.fr" in out, out
    assert HERD_AFTER in _herd(seeded)
    assert len(_translations(seeded, "Raid the Granaries")) == 1
    _check_whole(seeded, deck)
    # Nothing is left to send.
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 0 and "nothing to push" in out, out


@pytest.mark.parametrize("fault", ["500", "503", "close", "malformed", "close-before"])
@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_patch_that_fails_once_is_sent_again(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fault: str,
) -> None:
    deck = _prepare(seeded, tmp_path, monkeypatch)
    seeded.server.inject("PATCH", r"/api/Cards/.+", fault)
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 0, out
    _pushed_fully(seeded, deck, out)


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_patch_that_times_out_is_sent_again(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deck = _prepare(seeded, tmp_path, monkeypatch)
    seeded.server.inject("PATCH", r"/api/Cards/.+", "timeout", seconds=1.5)
    code, out = run("push", str(deck), "--lang", "fr", "--timeout", "0.5")
    assert code == 0, out
    _pushed_fully(seeded, deck, out)


@pytest.mark.parametrize("fault", ["500", "malformed", "close"])
@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_refetch_that_fails_once_is_read_again(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fault: str,
) -> None:
    deck = _prepare(seeded, tmp_path, monkeypatch)
    seeded.server.inject("GET", r"/api/Cards/[^/]+", fault, times=2)
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 0, out
    _pushed_fully(seeded, deck, out)


@pytest.mark.parametrize("fault", ["500", "close", "malformed"])
@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_create_whose_answer_is_lost_makes_one_card(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fault: str,
) -> None:
    """The server made the card ("close", "malformed") or did not ("500"): the push
    looks before it tries again, and either links the card made or makes it once."""
    deck = _prepare(seeded, tmp_path, monkeypatch)
    seeded.server.inject("POST", r"/api/Cards", fault)
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 0, out
    _pushed_fully(seeded, deck, out)
    posts = requests(seeded.server, "POST", "/api/Cards")
    assert len(posts) == (2 if fault == "500" else 1)


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_create_without_answer_stops_and_the_next_push_links_it(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No answer in time: the server may still be making the card, so the push does not
    make another; it stops, and the next push finds the card and links it."""
    deck = _prepare(seeded, tmp_path, monkeypatch)
    seeded.server.inject("POST", r"/api/Cards", "timeout", seconds=1.0)
    code, out = run("push", str(deck), "--lang", "fr", "--timeout", "0.3")
    assert code == 2, out
    _check_whole(seeded, deck)
    assert "guid:" not in (deck / "raid-the-granaries.fr.md").read_text("utf-8")
    import time

    time.sleep(1.2)  # the server finishes what it was doing
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 0, out
    assert "adopted raid-the-granaries.fr" in out
    assert len(requests(seeded.server, "POST", "/api/Cards")) == 1
    _check_whole(seeded, deck)


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_server_that_keeps_failing_stops_the_push_cleanly(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deck = _prepare(seeded, tmp_path, monkeypatch)
    seeded.server.inject("PATCH", r"/api/Cards/.+", "500", times=100)
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 2, out
    assert HERD_BEFORE in _herd(seeded)
    _check_whole(seeded, deck)
    record = json.loads((deck / ".aminduna" / "addax-herdmother.fr.json").read_text("utf-8"))
    assert HERD_BEFORE in record["card"]["markdownText"]  # the base is still the pulled card
    # The server is back: the same push sends what is left.
    seeded.server.clear_faults()
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 0, out
    assert "patched addax-herdmother.fr" in out
    assert HERD_AFTER in _herd(seeded)
    _check_whole(seeded, deck)


def test_a_pull_that_fails_writes_nothing(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deck = tmp_path / "cards" / "deck30"
    seeded.server.inject("POST", r"/api/CardSearch", "500", times=100)
    code, _ = run("pull", seeded.deck_address(), "--into", str(deck), "--lang", "fr")
    assert code == 2
    assert not deck.exists() or not any(deck.rglob("*"))
