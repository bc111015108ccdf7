"""Pull and push end to end, through the command line, against the Aminduna stand-in
holding a 30-card deck with its French and Esperanto translations (tests/data/aminduna):
a pull, two translations reviewed and pushed (one created, one patched), pulled back
byte for byte; a change made on the server meanwhile; a Final card; a dry run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.synckit import edit as _edit
from tests.synckit import files, requests, run

RAID_FR = """\
---
name: Pillage des greniers
subtype: Évènement
---
:C:hoisis une ***cité*** ciblée qu’un adversaire contrôle. Elle perd 3 points de défense.\\
Tes créatures de la ***Horde rouge*** qui attaquent cette cité gagnent ***Pillage*** \
jusqu’à la fin du tour.
"""
#: The local-only keys of a translation: Aminduna has no field for them.
LOCAL_KEYS = ("source", "reviewed", "reviewer", "reviewed-fingerprint")


def _pull(seeded, into: Path, *extra: str) -> tuple[int, str]:
    return run("pull", seeded.deck_address(), "--into", str(into), "--lang", "fr,eo", *extra)


def _login(seeded, monkeypatch: pytest.MonkeyPatch, email: str = "ana@example.org") -> None:
    monkeypatch.setenv("TRANSLATOR_TOKEN", seeded.token(email))


def _review(deck: Path, *slugs: str) -> None:
    code, out = run("review", *slugs, "--lang", "fr", "--library", str(deck.parent), "--by", "Ana")
    assert code == 0, out


def _without_local_keys(text: bytes) -> bytes:
    lines = text.decode("utf-8").splitlines(keepends=True)
    kept = [line for line in lines if not re.match(rf"^({'|'.join(LOCAL_KEYS)}):", line)]
    return "".join(kept).encode("utf-8")


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_pull_translate_review_push_and_pull_back(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deck = tmp_path / "one" / "cards" / "deck30"
    code, out = _pull(seeded, deck)
    assert code == 0, out
    english = sorted(deck.glob("*.en.md"))
    assert len(english) == 30
    assert len(list(deck.glob("*.fr.md"))) == 21 and len(list(deck.glob("*.eo.md"))) == 13
    assert len(list((deck / ".aminduna").glob("*.json"))) == 30 + 21 + 13
    # Translate one card, correct another; review both.
    (deck / "raid-the-granaries.fr.md").write_text(RAID_FR, encoding="utf-8")
    herd = deck / "addax-herdmother.fr.md"
    _edit(
        herd,
        "un jeton 1/1 **addax** dans la *cité ciblée*",
        "un jeton 1/1 ***addax*** dans la ***cité*** ciblée",
    )
    _review(deck, "raid-the-granaries", "addax-herdmother")
    _login(seeded, monkeypatch)
    seeded.server.clear_log()
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 0, out
    assert "created raid-the-granaries.fr" in out and "patched addax-herdmother.fr" in out
    assert len(requests(seeded.server, "POST", "/api/Cards")) == 1
    patched = [
        r for r in requests(seeded.server, "PATCH") if r.query.get("forceGeneration") != "true"
    ]
    assert len(patched) == 1
    created = json.loads((deck / ".aminduna" / "raid-the-granaries.fr.json").read_text("utf-8"))
    on_server = seeded.server.card(created["guid"])
    assert (
        on_server["masterCard"]["guid"]
        == seeded.server.card(created["card"]["masterCard"]["guid"])["guid"]
    )
    assert (
        on_server["language"]["languageCode"] == "fr"
        and on_server["firstName"] == "Pillage des greniers"
    )
    assert "guid: " + created["guid"] in (deck / "raid-the-granaries.fr.md").read_text("utf-8")
    # Pulled again in place: nothing changes, records included.
    before = files(deck)
    code, out = _pull(seeded, deck)
    assert code == 0, out
    assert files(deck) == before, out
    # Pulled into a fresh library: the same card files, byte for byte, but for the
    # review's own keys, which Aminduna has no field for.
    fresh = tmp_path / "two" / "cards" / "deck30"
    code, out = _pull(seeded, fresh)
    assert code == 0, out
    again = files(fresh)
    assert sorted(again) == sorted(before)
    different = [name for name in before if before[name] != again[name]]
    assert sorted(different) == ["addax-herdmother.fr.md", "raid-the-granaries.fr.md"]
    for name in different:
        assert _without_local_keys(before[name]) == again[name]


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_change_on_the_server_since_the_pull_is_never_overwritten(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deck = tmp_path / "cards" / "deck30"
    assert _pull(seeded, deck)[0] == 0
    herd = deck / "addax-herdmother.fr.md"
    _edit(herd, "**addax**", "***addax***")
    _review(deck, "addax-herdmother")
    guid = json.loads((deck / ".aminduna" / "addax-herdmother.fr.json").read_text("utf-8"))["guid"]
    server_text = seeded.server.card(guid)["markdownText"].replace("Là où", "Partout où")
    seeded.server.edit_card(guid, {"markdownText": server_text}, by="bert@example.org")
    _login(seeded, monkeypatch)
    seeded.server.clear_log()
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 1, out
    assert "conflict " in out and "addax-herdmother.fr.md" in out and "by Bert" in out
    assert "[-Là-]{+Partout+} où" in out and "**{+*+}addax{+*+}**" in out
    assert not requests(seeded.server, "PATCH") and not requests(
        seeded.server, "POST", "/api/Cards"
    )
    assert seeded.server.card(guid)["markdownText"] == server_text
    # A pull keeps the library's file and reports the conflict too.
    local = herd.read_bytes()
    code, out = _pull(seeded, deck)
    assert code == 1 and "conflict " in out
    assert herd.read_bytes() == local
    # Merged by hand, then --keep-local: the push sends the merge over the server's version.
    _edit(herd, "Là où", "Partout où")
    code, out = _pull(seeded, deck, "--keep-local")
    assert code == 0, out
    _review(deck, "addax-herdmother")
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 0 and "patched addax-herdmother.fr" in out, out
    text = seeded.server.card(guid)["markdownText"]
    assert "Partout où" in text and "***addax***" in text


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_final_card_is_refused_with_the_servers_reason_and_the_push_goes_on(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deck = tmp_path / "cards" / "deck30"
    assert _pull(seeded, deck)[0] == 0
    _edit(deck / "shieldwall-veteran.fr.md", "Tiens la ligne.", "Tiens bon la ligne.")
    _edit(deck / "siphon-breath.fr.md", "Chaque souffle", "Tout souffle")
    _edit(deck / "addax-herdmother.fr.md", "**addax**", "***addax***")
    _review(deck, "shieldwall-veteran", "siphon-breath", "addax-herdmother")
    _login(seeded, monkeypatch)
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 1, out
    host = seeded.url.split("//")[1].rstrip("/")
    assert f"{host}: 403 Card is marked as final (card: shieldwall-veteran.fr)" in out
    assert f"{host}: 403 This is not your card (card: siphon-breath.fr)" in out
    assert "patched addax-herdmother.fr" in out


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_dry_run_sends_nothing_and_says_what_it_would_send(
    seeded,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "deck30"
    assert _pull(seeded, deck)[0] == 0
    (deck / "raid-the-granaries.fr.md").write_text(RAID_FR, encoding="utf-8")
    _edit(deck / "addax-herdmother.fr.md", "**addax**", "***addax***")
    _review(deck, "raid-the-granaries", "addax-herdmother")
    seeded.server.clear_log()
    code, out = run("push", str(deck), "--lang", "fr", "--dry-run")
    assert code == 0, out
    assert seeded.server.requests == []
    assert "would POST api/Cards (raid-the-granaries.fr" in out
    assert '  firstName: "Pillage des greniers"' in out
    assert re.search(r"would PATCH api/Cards/[0-9a-f-]+ \(addax-herdmother\.fr", out)
    assert 'markdownText: ":Q:uand je viens en jeu, mets un jeton 1/1 **addax**' in out
    code, out = run("push", str(deck), "--lang", "fr", "--dry-run", "--format", "json")
    data = json.loads(out)
    assert {item["action"] for item in data["outgoing"]} == {"create", "patch"}
    assert seeded.server.requests == []


class _Terminal:
    """A standard error that says it is a terminal, and keeps what it was sent."""

    def __init__(self) -> None:
        import io

        self.buffer = io.StringIO()

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return self.buffer.write(text)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        raise OSError("not a real terminal")


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_long_pull_and_a_push_show_a_progress_bar_on_a_terminal(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("TERM", "xterm")
    deck = tmp_path / "cards" / "deck30"
    code, out = _pull(seeded, deck)
    assert code == 0, out
    shown = terminal.buffer.getvalue()
    assert "translations" in shown and "64/64" not in out  # on stderr, never in the output
    (deck / "raid-the-granaries.fr.md").write_text(RAID_FR, encoding="utf-8")
    _review(deck, "raid-the-granaries")
    _login(seeded, monkeypatch)
    code, out = run("push", str(deck), "--lang", "fr")
    assert code == 0 and "created raid-the-granaries.fr" in out, out
    assert "raid-the-granaries.fr" in terminal.buffer.getvalue()[len(shown) :]
