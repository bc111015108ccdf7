"""``translator pull`` as its help and :mod:`translator.sync.pull` promise it, tested from
the outside: the command line in this process against the Aminduna stand-in holding
the 30-card deck (tests/data/aminduna).  Most tests pull one or two cards by address,
not the deck, to stay quick; the files are compared with what the server holds.

A pull must never lose work: a file changed in the library is kept, or is a
conflict, never overwritten unless ``--take-server`` says so; a failed pull writes
nothing; and no user's e-mail address reaches the library, which lives in git."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from tests.aminduna_standin import StandIn
from tests.synckit import edit as _edit
from tests.synckit import files, requests, run
from translator.sync.records import read_record, server_hash

ADDAX = "Addax Herdmother"  # English, with a French (Ana's) and an Esperanto translation
IMP = "Imp Firebrand"  # English, with a French (Bert's) and an Esperanto translation
HERD_TEXT = ("le troupeau suit", "la harde suit")  # a change in the French Addax
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")


def _english(seeded, name: str) -> dict[str, Any]:
    (card,) = [c for c in seeded.english() if c["name"] == name]
    return card


def _translation(seeded, name: str, lang: str) -> dict[str, Any]:
    guid = _english(seeded, name)["guid"]
    (card,) = [c for c in seeded.translations(lang) if c["masterCard"]["guid"] == guid]
    return card


def _address(seeded, guid: str) -> str:
    return f"{seeded.url}#/cards/{guid}"


def _pull(seeded, deck: Path, *refs: str, lang: str = "fr") -> tuple[int, str]:
    """Pull ``refs`` (card names of the seed, or anything else as given) into ``deck``."""
    names = {c["name"]: c["guid"] for c in seeded.english()}
    argv = [_address(seeded, names[r]) if r in names else r for r in refs]
    return run("pull", *argv, "--into", str(deck), "--lang", lang, "--no-progress")


def _guids(deck: Path) -> dict[str, str]:
    """The Aminduna guid of each card file of the deck directory, by file name."""
    found = {}
    for path in sorted(deck.glob("*.md")):
        match = re.search(r"^guid: (\S+)$", path.read_text("utf-8"), re.MULTILINE)
        if match:
            found[path.name] = match[1]
    return found


def _front(path: Path) -> dict[str, Any]:
    """A card file's front matter."""
    text = path.read_text("utf-8")
    assert text.startswith("---\n"), text
    head = text[4:].split("\n---\n", 1)[0]
    return dict(yaml.safe_load(head))


def _server_edit(seeded, guid: str, old: str, new: str) -> None:
    text = seeded.server.card(guid)["markdownText"]
    assert old in text, (old, text)
    seeded.server.edit_card(guid, {"markdownText": text.replace(old, new)}, by="bert@example.org")


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    """What the failed command said on stderr: one line, no traceback."""
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("translator: "), err
    return lines[0]


def _record_matches_server(seeded, path: Path) -> None:
    record = read_record(str(path))
    assert record is not None, path
    card = seeded.server.card(record.guid)
    assert record.hash == server_hash(card)
    assert record.modified == card["lastModifiedTime"]


# ---------------------------------------------------------------- what a pull fetches


def test_an_english_card_by_address_comes_with_its_translations_in_the_asked_languages_only(
    seeded,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    code, out = _pull(seeded, deck, ADDAX)
    assert code == 0, out
    en, fr = _english(seeded, ADDAX), _translation(seeded, ADDAX, "fr")
    assert _guids(deck) == {
        "addax-herdmother.en.md": en["guid"],
        "addax-herdmother.fr.md": fr["guid"],
    }
    assert sorted(files(deck)) == [
        ".aminduna/addax-herdmother.en.json",
        ".aminduna/addax-herdmother.fr.json",
        "addax-herdmother.en.md",
        "addax-herdmother.fr.md",
        "deck.yaml",
    ]
    assert _front(deck / "addax-herdmother.fr.md")["name"] == fr["firstName"]
    for path in sorted(deck.glob("*.md")):
        _record_matches_server(seeded, path)


def test_a_french_card_by_address_brings_its_english_master(
    seeded,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    fr = _translation(seeded, ADDAX, "fr")
    code, out = _pull(seeded, deck, _address(seeded, fr["guid"]))
    assert code == 0, out
    assert _guids(deck) == {
        "addax-herdmother.en.md": _english(seeded, ADDAX)["guid"],
        "addax-herdmother.fr.md": fr["guid"],
    }
    assert not list(deck.glob("*.eo.md"))


def test_a_bare_card_guid_is_pulled_from_the_server_given(
    seeded,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    guid = _english(seeded, IMP)["guid"]
    code, out = run("pull", guid, "--into", str(deck), "--server", seeded.url, "--lang", "eo")
    assert code == 0, out
    assert _guids(deck) == {
        "imp-firebrand.en.md": guid,
        "imp-firebrand.eo.md": _translation(seeded, IMP, "eo")["guid"],
    }


def test_a_bare_deck_guid_pulls_the_decks_cards_with_their_quantities(
    seeded,
    tmp_path: Path,
) -> None:
    addax, imp = _english(seeded, ADDAX)["guid"], _english(seeded, IMP)["guid"]
    small = seeded.server.add_deck(
        "Small Ember", [(addax, 3), (imp, 1)], creator="admin@example.org"
    )
    deck = tmp_path / "cards" / "small"
    code, out = run("pull", small, "--into", str(deck), "--server", seeded.url, "--lang", "fr")
    assert code == 0, out
    assert _guids(deck) == {
        "addax-herdmother.en.md": addax,
        "addax-herdmother.fr.md": _translation(seeded, ADDAX, "fr")["guid"],
        "imp-firebrand.en.md": imp,
        "imp-firebrand.fr.md": _translation(seeded, IMP, "fr")["guid"],
    }
    listed = yaml.safe_load((deck / "deck.yaml").read_text("utf-8"))
    assert listed["name"] == "Small Ember" and listed["guid"] == small
    assert listed["cards"] == {"addax-herdmother": 3, "imp-firebrand": 1}


def test_an_unknown_guid_is_one_error_line_and_nothing_is_written(
    seeded,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    unknown = str(uuid.uuid4())
    code, out = run(
        "pull", unknown, "--into", str(tmp_path / "cards" / "x"), "--server", seeded.url
    )
    assert code == 2 and out == ""
    assert unknown in _one_error_line(capsys)
    assert not (tmp_path / "cards").exists()


def test_a_search_is_read_page_after_page(
    seeded,
    tmp_path: Path,
) -> None:
    """ "a" finds every one of the 64 cards: more than the stand-in's largest page (50)."""
    deck = tmp_path / "cards" / "found"
    seeded.server.clear_log()
    code, out = run(
        "pull",
        "--search",
        "a",
        "--into",
        str(deck),
        "--server",
        seeded.url,
        "--lang",
        "fr",
        "--no-progress",
    )
    assert code == 0, out
    pages = [
        r.body["pageNumber"]
        for r in requests(seeded.server, "POST", "/api/CardSearch")
        if r.body.get("search") == "a"
    ]
    assert sorted(pages) == list(range(1, len(pages) + 1)) and len(pages) >= 2, pages
    found = _search(seeded, "a")
    assert len(found) == 64
    masters = {(seeded.server.card(g).get("masterCard") or {}).get("guid") or g for g in found}
    expected = masters | {
        c["guid"] for c in seeded.translations("fr") if c["masterCard"]["guid"] in masters
    }
    assert set(_guids(deck).values()) == expected
    assert len(list(deck.glob("*.en.md"))) == 30 and len(list(deck.glob("*.fr.md"))) == 21


def _search(seeded, text: str) -> set[str]:
    """The guids the server's own search finds (read directly, all pages)."""
    found: set[str] = set()
    page = 1
    while True:
        answer = httpx.post(
            f"{seeded.url}api/CardSearch",
            json={"search": text, "pageSize": 50, "pageNumber": page},
        ).json()
        found |= {item["guid"] for item in answer["items"]}
        if not answer["items"] or len(found) >= answer["totalItems"]:
            return found
        page += 1


def test_two_french_translations_on_the_server_are_named_in_a_note(
    seeded,
    tmp_path: Path,
) -> None:
    first = _translation(seeded, ADDAX, "fr")
    second = {k: v for k, v in first.items() if k != "guid"}
    second.update(name="Mère de la harde", firstName="Mère de la harde")
    added = seeded.server.add_card(second, creator="bert@example.org")
    deck = tmp_path / "cards" / "ember"
    code, out = _pull(seeded, deck, ADDAX)
    assert code == 0, out
    notes = [line for line in out.splitlines() if line.startswith("note: ")]
    assert any(first["guid"] in n and added["guid"] in n for n in notes), out
    # The latest one is pulled, as the note says.
    assert _guids(deck)["addax-herdmother.fr.md"] == added["guid"]


# ------------------------------------------------------- a pull after changes on either side


def test_a_change_on_the_server_updates_the_file_and_its_record(
    seeded,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    assert _pull(seeded, deck, ADDAX)[0] == 0
    path = deck / "addax-herdmother.fr.md"
    record_before = (deck / ".aminduna" / "addax-herdmother.fr.json").read_bytes()
    _server_edit(seeded, _translation(seeded, ADDAX, "fr")["guid"], *HERD_TEXT)
    code, out = _pull(seeded, deck, ADDAX)
    assert code == 0, out
    assert f"updated {path}" in out
    assert HERD_TEXT[1] in path.read_text("utf-8") and HERD_TEXT[0] not in path.read_text("utf-8")
    assert (deck / ".aminduna" / "addax-herdmother.fr.json").read_bytes() != record_before
    _record_matches_server(seeded, path)
    # Pulled again: nothing changes.
    before = files(deck)
    assert _pull(seeded, deck, ADDAX)[0] == 0
    assert files(deck) == before


def test_a_local_change_not_pushed_is_kept(
    seeded,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    assert _pull(seeded, deck, ADDAX)[0] == 0
    path = deck / "addax-herdmother.fr.md"
    _edit(path, *HERD_TEXT)
    before = files(deck)
    code, out = _pull(seeded, deck, ADDAX)
    assert code == 0, out
    assert re.search(rf"^kept {re.escape(str(path))}: ", out, re.MULTILINE), out
    assert files(deck) == before


def _conflicting(seeded, tmp_path: Path) -> tuple[Path, Path, str]:
    """A French card changed both in the library (its last line) and on the server (its
    ability's name, and the card's name): (deck, file, the server's text)."""
    deck = tmp_path / "cards" / "ember"
    assert _pull(seeded, deck, ADDAX)[0] == 0
    path = deck / "addax-herdmother.fr.md"
    _edit(path, *HERD_TEXT)
    guid = _translation(seeded, ADDAX, "fr")["guid"]
    _server_edit(seeded, guid, "***Meute***", "***Horde***")
    seeded.server.edit_card(guid, {"firstName": "Mère addax"}, by="bert@example.org")
    return deck, path, seeded.server.card(guid)["markdownText"]


def test_a_change_on_both_sides_is_a_conflict_shown_field_by_field(
    seeded,
    tmp_path: Path,
) -> None:
    deck, path, server_text = _conflicting(seeded, tmp_path)
    local = path.read_bytes()
    code, out = _pull(seeded, deck, ADDAX)
    assert code == 1, out
    assert f"conflict {path}" in out and "by Bert" in out
    assert path.read_bytes() == local
    code, out = run(
        "pull",
        _address(seeded, _english(seeded, ADDAX)["guid"]),
        "--into",
        str(deck),
        "--lang",
        "fr",
        "--format",
        "json",
    )
    assert code == 1, out
    assert path.read_bytes() == local
    (conflict,) = json.loads(out)["conflicts"]
    assert conflict["path"] == str(path) and conflict["by"] == "Bert"
    fields = {f["field"]: f for f in conflict["fields"]}
    assert fields["name"]["pulled"] == "Mère des addax" == fields["name"]["local"]
    assert fields["name"]["server"] == "Mère addax"
    text = fields["text"]
    assert "***Meute***" in text["pulled"] and HERD_TEXT[0] in text["pulled"]
    assert text["server"] == server_text.replace("\r\n", "\n").strip("\n")
    assert "***Meute***" in text["local"] and HERD_TEXT[1] in text["local"]


def test_take_server_replaces_the_conflicting_file(
    seeded,
    tmp_path: Path,
) -> None:
    deck, path, _ = _conflicting(seeded, tmp_path)
    code, out = run(
        "pull",
        _address(seeded, _english(seeded, ADDAX)["guid"]),
        "--into",
        str(deck),
        "--lang",
        "fr",
        "--take-server",
    )
    assert code == 0, out
    fresh = tmp_path / "fresh" / "cards" / "ember"
    assert _pull(seeded, fresh, ADDAX)[0] == 0
    assert path.read_bytes() == (fresh / path.name).read_bytes()
    assert HERD_TEXT[1] not in path.read_text("utf-8")
    _record_matches_server(seeded, path)


def test_keep_local_keeps_the_file_and_a_push_would_send_it_over_the_servers(
    seeded,
    tmp_path: Path,
) -> None:
    deck, path, server_text = _conflicting(seeded, tmp_path)
    local = path.read_bytes()
    code, out = run(
        "pull",
        _address(seeded, _english(seeded, ADDAX)["guid"]),
        "--into",
        str(deck),
        "--lang",
        "fr",
        "--keep-local",
    )
    assert code == 0, out
    assert f"kept {path}" in out
    assert path.read_bytes() == local
    _record_matches_server(seeded, path)
    seeded.server.clear_log()
    code, out = run(
        "push", str(deck), "--lang", "fr", "--dry-run", "--include-unreviewed", "--format", "json"
    )
    assert code == 0, out
    assert seeded.server.requests == []
    (item,) = json.loads(out)["outgoing"]
    assert item["action"] == "patch" and item["path"] == str(path)
    changes = {c["field"]: c for c in item["changes"]}
    assert changes["markdownText"]["old"] == server_text
    assert "***Meute***" in changes["markdownText"]["new"]
    assert HERD_TEXT[1] in changes["markdownText"]["new"]
    assert changes["firstName"] == {
        "field": "firstName",
        "old": "Mère addax",
        "new": "Mère des addax",
    }


# ------------------------------------------------------------- a library made by hand


def test_a_library_imported_by_hand_gets_records_and_a_hand_edit_is_kept(
    seeded,
    tmp_path: Path,
) -> None:
    en, fr = _english(seeded, ADDAX), _translation(seeded, ADDAX, "fr")
    exports = []
    for card in (en, fr):
        export = tmp_path / f"{card['guid']}.json"
        export.write_text(httpx.get(f"{seeded.url}api/Cards/{card['guid']}").text, "utf-8")
        exports.append(str(export))
    deck = tmp_path / "cards" / "ember"
    code, out = run("import", "arcmage", *exports, "--into", str(deck))
    assert code == 0, out
    assert not (deck / ".aminduna").exists()
    path = deck / "addax-herdmother.fr.md"
    _edit(path, *HERD_TEXT)
    edited = path.read_bytes()
    english = (deck / "addax-herdmother.en.md").read_bytes()
    code, out = _pull(seeded, deck, ADDAX)
    assert code == 0, out
    assert (deck / "addax-herdmother.en.md").read_bytes() == english
    _record_matches_server(seeded, deck / "addax-herdmother.en.md")
    assert path.read_bytes() == edited
    assert re.search(rf"^kept {re.escape(str(path))}: .*no pull record", out, re.MULTILINE), out
    # Kept without a record: the hand edit is not taken for a pulled version.
    assert read_record(str(path)) is None


def test_local_only_fields_survive_a_pull_of_a_changed_card(
    seeded,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    assert _pull(seeded, deck, ADDAX)[0] == 0
    code, out = run(
        "review", "addax-herdmother", "--lang", "fr", "--library", str(deck.parent), "--by", "Ana"
    )
    assert code == 0, out
    (deck / "art").mkdir()
    (deck / "art" / "addax.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a picture")
    _edit(deck / "addax-herdmother.en.md", "artist:", "artwork: art/addax.jpg\nartist:")
    en_path, fr_path = deck / "addax-herdmother.en.md", deck / "addax-herdmother.fr.md"
    local = {key: _front(fr_path)[key] for key in ("source", "reviewed", "reviewer")}
    _server_edit(seeded, _translation(seeded, ADDAX, "fr")["guid"], *HERD_TEXT)
    seeded.server.edit_card(
        _english(seeded, ADDAX)["guid"], {"subType": "Human Herder"}, by="admin@example.org"
    )
    code, out = _pull(seeded, deck, ADDAX)
    assert code == 0, out
    assert f"updated {en_path}" in out and f"updated {fr_path}" in out
    assert _front(en_path)["artwork"] == "art/addax.jpg"
    assert _front(en_path)["subtype"] == "Human Herder"
    assert {key: _front(fr_path)[key] for key in local} == local
    assert HERD_TEXT[1] in fr_path.read_text("utf-8")


# ------------------------------------------------------------------ what a pull refuses


def test_into_a_file_is_refused(
    seeded,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = tmp_path / "deck.txt"
    target.write_text("not a deck\n", "utf-8")
    code, out = _pull(seeded, target, ADDAX)
    assert code == 2 and out == ""
    assert "not a directory" in _one_error_line(capsys)
    assert target.read_text("utf-8") == "not a deck\n"
    others = {p.name for p in tmp_path.iterdir()} - {"deck.txt"}
    assert all(name.startswith("aminduna.sqlite3") for name in others), others  # the stand-in's


def test_keep_local_and_take_server_together_are_refused(
    seeded,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    deck = tmp_path / "cards" / "ember"
    seeded.server.clear_log()
    code, out = run(
        "pull",
        _address(seeded, _english(seeded, ADDAX)["guid"]),
        "--into",
        str(deck),
        "--keep-local",
        "--take-server",
    )
    assert code == 2 and out == ""
    err = capsys.readouterr().err
    assert "--keep-local" in err and "--take-server" in err
    assert "Traceback" not in err
    assert not deck.exists() and seeded.server.requests == []


def test_no_reference_at_all_is_refused(
    seeded,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    deck = tmp_path / "cards" / "ember"
    code, out = run("pull", "--into", str(deck), "--server", seeded.url)
    assert code == 2 and out == ""
    assert "--search" in _one_error_line(capsys)
    assert not deck.exists()


def test_an_address_on_another_server_than_the_one_given_is_refused(
    seeded,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    deck = tmp_path / "cards" / "ember"
    guid = _english(seeded, ADDAX)["guid"]
    with StandIn() as other:
        code, out = run("pull", _address(seeded, guid), "--into", str(deck), "--server", other.url)
        assert other.requests == []
    assert code == 2 and out == ""
    line = _one_error_line(capsys)
    assert seeded.url in line and other.url in line
    assert not deck.exists()


def test_a_malformed_answer_is_one_error_line_and_nothing_is_written(
    seeded,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    deck = tmp_path / "cards" / "ember"
    assert _pull(seeded, deck, ADDAX, IMP)[0] == 0
    capsys.readouterr()
    before = files(deck)
    _server_edit(seeded, _translation(seeded, ADDAX, "fr")["guid"], *HERD_TEXT)
    seeded.server.inject("GET", r"/api/Cards/.+", "malformed", times=20)
    code, out = _pull(seeded, deck, ADDAX, IMP)
    assert code == 2 and out == ""
    _one_error_line(capsys)
    assert files(deck) == before
    fresh = tmp_path / "fresh" / "cards" / "ember"
    code, out = _pull(seeded, fresh, ADDAX)
    assert code == 2 and out == ""
    _one_error_line(capsys)
    assert not (tmp_path / "fresh").exists()


# -------------------------------------------------------------------------- privacy


def test_no_users_e_mail_address_reaches_the_library(
    seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The real server writes each user's e-mail address into every card it sends (the
    stand-in leaves it out); here the stand-in answers as the real one does."""
    plain = StandIn._user_json

    def as_the_real_server(server: StandIn, user_id: int) -> dict[str, Any]:
        user = server._users[user_id]
        return {"id": user_id, "email": user["email"], "isVerified": True, **plain(server, user_id)}

    monkeypatch.setattr(StandIn, "_user_json", as_the_real_server)
    translation = _translation(seeded, ADDAX, "fr")
    assert seeded.server.card(translation["guid"])["creator"]["email"] == "ana@example.org"
    root = tmp_path / "library"
    code, out = run(
        "pull", seeded.deck_address(), "--into", str(root / "cards" / "deck30"), "--no-progress"
    )
    assert code == 0, out
    pulled = files(root)
    assert len([name for name in pulled if name.endswith(".md")]) == 30 + 21 + 13
    leaks = {name for name, data in pulled.items() if EMAIL_RE.search(data.decode("utf-8"))}
    assert leaks == set()
    assert not EMAIL_RE.search(out)
    # The records keep who made a card, by name.
    record = read_record(str(root / "cards" / "deck30" / "addax-herdmother.fr.md"))
    assert record is not None and record.card["creator"]["name"] == "Ana"
