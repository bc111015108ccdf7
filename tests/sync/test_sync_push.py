"""``translator push`` as its help and :mod:`translator.sync.push` promise it, tested from
the outside against the Aminduna stand-in holding the 30-card deck: only reviewed,
lint-clean translations are sent (unless told otherwise), only the cards asked for,
never an English card, never without a login; a work in progress keeps its wip name
on the server; a Final card the server refuses does not stop the others.

Every command here runs through :class:`_Cli`, which also checks that no token and no
password ever reaches what the command printed, on stdout or stderr."""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass, field
from hashlib import md5
from pathlib import Path

import pytest

from tests.synckit import Seeded, requests, run
from tests.synckit import edit as _edit

ADDAX = "Addax Herdmother"  # its French translation is Ana's, Release Candidate
WRIT = "Writ of Exile"  # its French translation is Ana's, Release Candidate
SHIELD = "Shieldwall Veteran"  # its French translation is Ana's, and Final
BRAMBLE = "Bramble Ward"  # its French translation is the admin's wip copy
HERD_TEXT = ("le troupeau suit", "la harde suit")
WRIT_TEXT = ("Par ordre de la Cour", "Sur ordre de la Cour")
SHIELD_TEXT = ("Tiens la ligne.", "Tiens bon la ligne.")


@dataclass
class _Cli:
    """The command line, checked for secrets after each run."""

    seeded: Seeded
    capsys: pytest.CaptureFixture[str]
    monkeypatch: pytest.MonkeyPatch
    secrets: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for user in self.seeded.users.values():
            password = str(user["password"])
            self.secrets += [password, md5(password.encode()).hexdigest()]

    def __call__(self, *argv: str) -> tuple[int, str, str]:
        """``translator ARGV``: (exit code, stdout, stderr)."""
        code, out = run(*argv)
        captured = self.capsys.readouterr()
        shown = out + captured.out + captured.err
        for secret in self.secrets:
            assert secret not in shown, f"a secret in the output of {argv}"
        return code, out, captured.err

    def login(self, email: str = "ana@example.org") -> str:
        """$TRANSLATOR_TOKEN set to a token of that user."""
        token = str(self.seeded.token(email))
        self.secrets.append(token)
        self.monkeypatch.setenv("TRANSLATOR_TOKEN", token)
        return token

    def pull(self, deck: Path, *names: str) -> None:
        """The seed's English cards ``names`` and their French translations."""
        guids = {c["name"]: c["guid"] for c in self.seeded.english()}
        url = self.seeded.url
        refs = [f"{url}#/cards/{guids[name]}" for name in names]
        code, out, err = self("pull", *refs, "--into", str(deck), "--lang", "fr", "--no-progress")
        assert code == 0, out + err

    def review(self, deck: Path, *slugs: str) -> None:
        code, out, err = self(
            "review", *slugs, "--lang", "fr", "--library", str(deck.parent), "--by", "Ana"
        )
        assert code == 0, out + err

    def push(self, deck: Path, *extra: str) -> tuple[int, str, str]:
        return self("push", str(deck), "--lang", "fr", "--no-progress", *extra)


@pytest.fixture
def cli(seeded, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> _Cli:
    return _Cli(seeded, capsys, monkeypatch)


def _french_guid(seeded, name: str) -> str:
    (master,) = [c["guid"] for c in seeded.english() if c["name"] == name]
    (guid,) = [c["guid"] for c in seeded.translations("fr") if c["masterCard"]["guid"] == master]
    return str(guid)


def _writes(seeded) -> list:
    """The requests that change something on the server."""
    return [
        r
        for r in seeded.server.requests
        if r.method in ("POST", "PATCH", "PUT", "DELETE") and r.path != "/api/Login"
    ]


# ------------------------------------------------------------------ what is sent


def test_an_unreviewed_translation_is_skipped_unless_asked_for(
    seeded,
    cli: _Cli,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    cli.pull(deck, ADDAX)
    _edit(deck / "addax-herdmother.fr.md", *HERD_TEXT)
    cli.login()
    seeded.server.clear_log()
    code, out, _ = cli.push(deck)
    assert code == 0, out
    assert "skipped addax-herdmother.fr: not reviewed" in out
    assert _writes(seeded) == []
    guid = _french_guid(seeded, ADDAX)
    assert HERD_TEXT[0] in seeded.server.card(guid)["markdownText"]
    code, out, _ = cli.push(deck, "--include-unreviewed")
    assert code == 0, out
    assert f"patched addax-herdmother.fr ({guid})" in out
    assert [(r.method, r.path) for r in _writes(seeded)] == [("PATCH", f"/api/Cards/{guid}")]
    assert HERD_TEXT[1] in seeded.server.card(guid)["markdownText"]


def test_a_lint_error_stops_the_push_and_force_sends_it(
    seeded,
    cli: _Cli,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    cli.pull(deck, ADDAX, WRIT)
    _edit(deck / "writ-of-exile.fr.md", *WRIT_TEXT)
    cli.review(deck, "addax-herdmother", "writ-of-exile")
    # A slip after the review: the English card puts a 1/1 token in play, and 2/1 is an
    # error (TR101), not a matter of style.  The edit undoes the review: a plain push
    # skips the card, and one that includes it is stopped by its lint error.
    _edit(deck / "addax-herdmother.fr.md", "un jeton 1/1", "un jeton 2/1")
    cli.login()
    seeded.server.clear_log()
    code, out, _ = cli.push(deck, "--dry-run")
    assert "skipped addax-herdmother.fr: not reviewed as it is: its text edited since" in out
    code, out, _ = cli.push(deck, "--include-unreviewed")
    assert code == 1, out
    assert "TR101" in out and "addax-herdmother.fr.md" in out and "--force" in out
    assert _writes(seeded) == []  # not even the card without an error
    guid = _french_guid(seeded, ADDAX)
    assert "1/1" in seeded.server.card(guid)["markdownText"]
    code, out, _ = cli.push(deck, "--force", "--include-unreviewed")
    assert code == 0, out
    assert "patched addax-herdmother.fr" in out and "patched writ-of-exile.fr" in out
    assert "un jeton 2/1" in seeded.server.card(guid)["markdownText"]


def test_only_sends_only_that_card(
    seeded,
    cli: _Cli,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    cli.pull(deck, ADDAX, WRIT)
    _edit(deck / "addax-herdmother.fr.md", *HERD_TEXT)
    _edit(deck / "writ-of-exile.fr.md", *WRIT_TEXT)
    cli.review(deck, "addax-herdmother", "writ-of-exile")
    writ_path = deck / "writ-of-exile.fr.md"
    for ref in (_french_guid(seeded, WRIT), str(writ_path), "ember/writ-of-exile"):
        code, out, _ = cli.push(deck, "--dry-run", "--format", "json", "--only", ref)
        assert code == 0, out
        assert [item["card"] for item in json.loads(out)["outgoing"]] == ["writ-of-exile.fr"], ref
    cli.login()
    seeded.server.clear_log()
    code, out, _ = cli.push(deck, "--only", "writ-of-exile")
    assert code == 0, out
    writ, herd = _french_guid(seeded, WRIT), _french_guid(seeded, ADDAX)
    assert "patched writ-of-exile.fr" in out and "addax" not in out
    assert [(r.method, r.path) for r in _writes(seeded)] == [("PATCH", f"/api/Cards/{writ}")]
    assert WRIT_TEXT[1] in seeded.server.card(writ)["markdownText"]
    assert HERD_TEXT[0] in seeded.server.card(herd)["markdownText"]
    # The other card is still to send.
    code, out, _ = cli.push(deck, "--dry-run", "--format", "json")
    assert code == 0, out
    assert [item["card"] for item in json.loads(out)["outgoing"]] == ["addax-herdmother.fr"]


def test_english_cards_are_never_pushed(
    seeded,
    cli: _Cli,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    cli.pull(deck, ADDAX)
    _edit(deck / "addax-herdmother.en.md", "the herd follows", "the whole herd follows")
    cli.login()
    seeded.server.clear_log()
    for extra in ((), ("--dry-run",), ("--include-unreviewed", "--force")):
        code, out, err = cli("push", str(deck), "--lang", "en", *extra)
        assert code == 2 and out == "", (extra, out)
        assert "English cards are never" in err and err.count("\n") == 1, err
    assert seeded.server.requests == []


def test_a_wip_translation_keeps_its_wip_name_on_the_server(
    seeded,
    cli: _Cli,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    cli.pull(deck, BRAMBLE)
    path = deck / "bramble-ward.fr.md"
    text = path.read_text("utf-8")
    assert "wip: true" in text and "name: Bramble Ward\n" in text
    head = text.split("---\n")[1].replace("name: Bramble Ward", "name: Garde des ronces")
    head = head.replace("info: arcmage.org - rejoignez-nous!\n", "")
    body = (
        ":J:oue-moi sur une ***cité*** ciblée que tu contrôles.\n\n"
        "Les créatures qui attaquent cette ***cité*** gagnent -1/-0.\\\n"
        "Au début de ton tour, si aucune créature n’a attaqué cette cité au tour "
        "précédent, détruis-moi.\n"
    )
    path.write_text(f"---\n{head}---\n{body}", encoding="utf-8")
    cli.login("admin@example.org")
    code, out, _ = cli.push(deck)
    assert code == 0 and "skipped bramble-ward.fr: a work in progress" in out, out
    code, out, _ = cli.push(deck, "--include-unreviewed")
    assert code == 0 and "patched bramble-ward.fr" in out, out
    card = seeded.server.card(_french_guid(seeded, BRAMBLE))
    assert card["name"] == "Bramble Ward (fr wip)"
    assert card["firstName"] == "Garde des ronces"
    assert card["markdownText"].startswith(":J:oue-moi")


def test_a_final_card_refused_by_the_real_servers_500_does_not_stop_the_others(
    seeded,
    cli: _Cli,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    cli.pull(deck, SHIELD, ADDAX, WRIT)
    _edit(deck / "shieldwall-veteran.fr.md", *SHIELD_TEXT)
    _edit(deck / "addax-herdmother.fr.md", *HERD_TEXT)
    _edit(deck / "writ-of-exile.fr.md", *WRIT_TEXT)
    cli.review(deck, "shieldwall-veteran", "addax-herdmother", "writ-of-exile")
    cli.login()
    seeded.server.real_errors = True
    seeded.server.clear_log()
    code, out, _ = cli.push(deck)
    assert code == 1, out
    refused = [line for line in out.splitlines() if line.startswith("refused ")]
    assert len(refused) == 1 and "shieldwall-veteran.fr" in refused[0], out
    assert "Card is marked as final" in refused[0]
    assert "patched addax-herdmother.fr" in out and "patched writ-of-exile.fr" in out
    assert any(r.status == 500 for r in requests(seeded.server, "PATCH")), "no 500 answered"
    shield = seeded.server.card(_french_guid(seeded, SHIELD))
    assert SHIELD_TEXT[0] in shield["markdownText"]
    assert HERD_TEXT[1] in seeded.server.card(_french_guid(seeded, ADDAX))["markdownText"]
    assert WRIT_TEXT[1] in seeded.server.card(_french_guid(seeded, WRIT))["markdownText"]


# ---------------------------------------------------------------------- the login


def test_without_a_login_push_says_how_to_log_in(
    seeded,
    cli: _Cli,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    cli.pull(deck, ADDAX)
    _edit(deck / "addax-herdmother.fr.md", *HERD_TEXT)
    cli.review(deck, "addax-herdmother")
    seeded.server.clear_log()
    code, out, err = cli.push(deck)
    assert code == 2 and out == ""
    assert "translator login" in err and err.count("\n") == 1, err
    assert seeded.server.requests == []
    cli.login()
    seeded.server.clear_log()
    code, out, _ = cli.push(deck)
    assert code == 0 and "patched addax-herdmother.fr" in out, out
    assert all(r.authorization for r in _writes(seeded))


def test_a_stored_login_and_a_wrong_token_never_show_a_secret(
    seeded,
    cli: _Cli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """translator login with the password on standard input, a push with the stored
    token, and a push with a token the server does not accept: _Cli checks each
    output for every password (and its MD5) and every token."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    deck = tmp_path / "cards" / "ember"
    cli.pull(deck, ADDAX)
    _edit(deck / "addax-herdmother.fr.md", *HERD_TEXT)
    cli.review(deck, "addax-herdmother")
    password = seeded.users["ana@example.org"]["password"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(password + "\n"))
    code, out, err = cli(
        "login",
        "--server",
        seeded.url,
        "--email",
        "ana@example.org",
        "--password-stdin",
        "--format",
        "json",
    )
    assert code == 0, out + err
    stored = (tmp_path / "config" / "translator" / "credentials.json").read_text("utf-8")
    tokens = [s for s in _strings(json.loads(stored)) if s.count(".") == 2 and len(s) > 40]
    assert tokens, "no token in the credentials file"
    cli.secrets += tokens
    code, out, _ = cli.push(deck, "--format", "json")
    assert code == 0, out
    assert [s["label"] for s in json.loads(out)["sent"]] == ["addax-herdmother.fr"]
    wrong = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2JvZHkifQ.not-a-real-signature-at-all-0123456789"
    cli.secrets.append(wrong)
    monkeypatch.setenv("TRANSLATOR_TOKEN", wrong)
    _edit(deck / "addax-herdmother.fr.md", *reversed(HERD_TEXT))
    cli.review(deck, "addax-herdmother")
    code, out, err = cli.push(deck)
    assert code == 2, out + err
    assert "401" in err and "translator login" in err and err.count("\n") == 1, err


def _strings(value: object) -> list[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_a_translation_made_on_the_server_meanwhile_is_not_duplicated(
    seeded,
    cli: _Cli,
    tmp_path: Path,
) -> None:
    """Someone created the French card on the server after the pull: the push does not
    create a second one; it says so, and fails (the translator merges)."""
    from .test_sync_e2e import RAID_FR

    deck = tmp_path / "cards" / "ember"
    cli.pull(deck, "Raid the Granaries")
    (deck / "raid-the-granaries.fr.md").write_text(RAID_FR, encoding="utf-8")
    cli.review(deck, "raid-the-granaries")
    (master,) = [c["guid"] for c in seeded.english() if c["name"] == "Raid the Granaries"]
    other = seeded.server.add_card(
        {
            "name": "Razzia sur les greniers",
            "firstName": "Razzia sur les greniers",
            "markdownText": ":C:hoisis une ***cité***.",
            "type": {"name": "Event"},
            "faction": {"name": "Red Banner"},
            "status": {"name": "Draft"},
            "language": {"languageCode": "fr"},
            "masterCard": {"guid": master},
        },
        creator="bert@example.org",
    )
    cli.login()
    seeded.server.clear_log()
    code, out, _ = cli.push(deck)
    assert code == 1, out
    assert f"already holds a fr translation of this card ({other['guid']}, by Bert)" in out
    assert [r for r in _writes(seeded) if r.path != "/api/CardSearch"] == []
    assert "guid:" not in (deck / "raid-the-granaries.fr.md").read_text("utf-8")


def test_take_server_rewrites_only_what_differs(
    seeded,
    cli: _Cli,
    tmp_path: Path,
) -> None:
    deck = tmp_path / "cards" / "ember"
    cli.pull(deck, ADDAX, WRIT)
    _edit(deck / "addax-herdmother.fr.md", *HERD_TEXT)
    cli.review(deck, "writ-of-exile")  # a local-only change: the same card for Aminduna
    code, out, _ = cli(
        "pull",
        f"{seeded.url}#/cards/{_french_guid(seeded, ADDAX)}",
        "--into",
        str(deck),
        "--lang",
        "fr",
        "--take-server",
    )
    assert code == 0, out
    assert f"updated {deck / 'addax-herdmother.fr.md'}" in out
    assert "writ-of-exile" not in out
    assert HERD_TEXT[0] in (deck / "addax-herdmother.fr.md").read_text("utf-8")
    assert "reviewed:" in (deck / "writ-of-exile.fr.md").read_text("utf-8")


def _artwork_of(seeded, guid: str) -> bytes | None:
    import httpx

    answer = httpx.get(f"{seeded.url}api/Cards/{guid}/export", params={"format": "Art"})
    return answer.content if answer.status_code == 200 else None


def test_a_created_translation_gets_its_english_cards_artwork(
    seeded,
    cli: _Cli,
    tmp_path: Path,
) -> None:
    """As Aminduna's deck translator does: the artwork (never a render) is uploaded to
    the new card, which the server then generates; a failed copy is done by the next
    push."""
    from .test_sync_e2e import RAID_FR

    (master,) = [c["guid"] for c in seeded.english() if c["name"] == "Raid the Granaries"]
    art = b"\x89PNG\r\n\x1a\n" + b"artwork of the raid" * 10
    seeded.server.set_artwork(master, art)
    deck = tmp_path / "cards" / "ember"
    cli.pull(deck, "Raid the Granaries")
    (deck / "raid-the-granaries.fr.md").write_text(RAID_FR, encoding="utf-8")
    cli.review(deck, "raid-the-granaries")
    cli.login()
    seeded.server.inject("POST", r"/api/FileUpload/.+", "500", times=100)
    code, out, _ = cli.push(deck)
    assert code == 0, out
    assert "artwork not copied yet" in out and "the next push tries again" in out
    record = json.loads((deck / ".aminduna" / "raid-the-granaries.fr.json").read_text("utf-8"))
    assert record["pending"] == ["artwork"]
    assert _artwork_of(seeded, record["guid"]) is None
    seeded.server.clear_faults()
    seeded.server.clear_log()
    code, out, _ = cli.push(deck)
    assert code == 0, out
    assert _artwork_of(seeded, record["guid"]) == art
    forced = [
        r for r in requests(seeded.server, "PATCH") if r.query.get("forceGeneration") == "true"
    ]
    assert len(forced) == 1 and not requests(seeded.server, "POST", "/api/Cards")
    record = json.loads((deck / ".aminduna" / "raid-the-granaries.fr.json").read_text("utf-8"))
    assert "pending" not in record
    code, out, _ = cli.push(deck)
    assert code == 0 and "nothing to push" in out, out
