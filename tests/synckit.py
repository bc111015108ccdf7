"""What the pull and push tests share: a seeded Aminduna stand-in (the ``seeded``
fixture, in tests/conftest.py, runs one), the command line run in this process (with
retries that do not wait), and a library's files as bytes."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from translator import cli

from .aminduna_standin import StandIn, load_seed

DECK_30 = Path(__file__).resolve().parent / "data" / "aminduna" / "deck-30.json"
#: Retries that do not wait: the fault tests try the same request several times.
FAST_RETRIES = (0.01, 0.02, 0.04)


@dataclass
class Seeded:
    """A stand-in holding the 30-card deck: its address, the deck's guid, the users."""

    server: StandIn
    deck: str
    users: dict[str, dict[str, Any]]
    data: dict[str, Any]

    @property
    def url(self) -> str:
        return self.server.url

    def deck_address(self) -> str:
        return f"{self.url}#/decks/{self.deck}"

    def token(self, email: str) -> str:
        """A login of that user, as ``translator login`` gets one."""
        from hashlib import md5

        import httpx

        password = self.users[email]["password"]
        answer = httpx.post(
            f"{self.url}api/Login",
            json={"email": email, "password": md5(password.encode()).hexdigest()},
        )
        answer.raise_for_status()
        return str(answer.json())

    def english(self) -> list[dict[str, Any]]:
        return [c["card"] for c in self.data["cards"] if _lang(c["card"]) == "en"]

    def translations(self, lang: str) -> list[dict[str, Any]]:
        return [c["card"] for c in self.data["cards"] if _lang(c["card"]) == lang]


def _lang(card: dict[str, Any]) -> str:
    return str((card.get("language") or {}).get("languageCode") or "en")


def seed(server: StandIn, path: Path = DECK_30) -> Seeded:
    """Fill the stand-in with the deck file's users, cards and deck."""
    data = json.loads(path.read_text(encoding="utf-8"))
    load_seed(server, data, default_creator=data["deck"]["creator"])
    users = {user["email"]: user for user in data["users"]}
    return Seeded(server, data["deck"]["guid"], users, data)


def run(*argv: str) -> tuple[int, str]:
    """``translator ARGV`` in this process: (exit code, what it printed)."""
    out = io.StringIO()
    code = cli.main([*argv], out=out)
    return code, out.getvalue()


def edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` (which must be there) by ``new`` in a card file, as a translator's
    editor would."""
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, text)
    path.write_text(text.replace(old, new), encoding="utf-8")


def files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (records included), by relative path."""
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def requests(server: StandIn, method: str | None = None, path: str = "") -> list[Any]:
    """The requests the stand-in received (of one method, under a path)."""
    return [
        r
        for r in server.requests
        if (method is None or r.method == method) and r.path.startswith(path)
    ]
