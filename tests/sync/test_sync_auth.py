"""The login token store (translator.sync.auth) and ``translator login`` / ``logout``:
a file only its owner reads, one login per server, expiry read from the token, the
token of $TRANSLATOR_TOKEN first; the commands end to end against the stand-in."""

from __future__ import annotations

import base64
import io
import json
import os
import stat
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.aminduna_standin import StandIn
from translator.cli import main
from translator.sync.auth import (
    CredentialsError,
    Login,
    LoginExpired,
    NotLoggedIn,
    UnconfirmedServer,
    config_directory,
    credentials_file,
    forget_login,
    save_login,
    stored_login,
    token_expiry,
    token_for,
)
from translator.sync.client import ServerChoice, host_of

SERVER = "https://aminduna.arcmage.org/"
OTHER = "https://cards.example.org/"
EMAIL, PASSWORD = "ann@example.org", "correct horse battery staple"


def jwt(claims: dict[str, object]) -> str:
    """A token shaped as the server's (the signature is not checked here)."""

    def part(data: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(claims)}.c2lnbmF0dXJl"


def expiring(delta: timedelta) -> tuple[str, datetime]:
    moment = (datetime.now(UTC) + delta).replace(microsecond=0)
    return jwt({"unique_name": "u", "exp": int(moment.timestamp())}), moment


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    monkeypatch.delenv("TRANSLATOR_TOKEN", raising=False)
    monkeypatch.delenv("TRANSLATOR_SERVER", raising=False)
    return home


def test_the_file_is_under_xdg_config_home(config_home: Path) -> None:
    assert config_directory() == config_home / "translator"
    assert credentials_file() == config_home / "translator" / "credentials.json"


def test_save_load_forget() -> None:
    token, moment = expiring(timedelta(days=7))
    path = save_login(Login(SERVER, EMAIL, token, moment))
    save_login(Login(OTHER, "bob@example.org", "b.b.b", None))
    assert path == credentials_file()
    assert stored_login(SERVER) == Login(SERVER, EMAIL, token, moment)
    assert stored_login(OTHER) == Login(OTHER, "bob@example.org", "b.b.b", None)
    assert stored_login("https://unknown.example.org/") is None
    newer, later = expiring(timedelta(days=8))
    save_login(Login(SERVER, EMAIL, newer, later))  # a new login replaces the server's
    assert stored_login(SERVER) == Login(SERVER, EMAIL, newer, later)
    assert forget_login(SERVER) is True
    assert stored_login(SERVER) is None and stored_login(OTHER) is not None
    assert forget_login(SERVER) is False
    assert forget_login(OTHER) is True
    assert not path.exists()  # no login left, no file
    assert forget_login(OTHER) is False


def test_file_0600_and_folder_0700_whatever_the_umask() -> None:
    previous = os.umask(0)
    try:
        path = save_login(Login(SERVER, EMAIL, "t.t.t", None))
    finally:
        os.umask(previous)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize(
    ("mode", "word"), [(0o640, "readable"), (0o604, "readable"), (0o620, "writable")]
)
def test_a_file_others_may_read_is_refused(mode: int, word: str) -> None:
    path = save_login(Login(SERVER, EMAIL, "secret.token.value", None))
    path.chmod(mode)
    for action in (lambda: stored_login(SERVER), lambda: token_for(SERVER)):
        with pytest.raises(CredentialsError) as caught:
            action()
        assert str(caught.value) == f"{path} is {word} by others: chmod 600 {path}"
    with pytest.raises(CredentialsError):  # nor is it written, keeping the others' entries
        save_login(Login(OTHER, EMAIL, "o.o.o", None))


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("{not json", "not JSON"),
        ('["a list"]', 'no "servers" object'),
        ('{"servers": {"https://x/": {"email": "a"}}}', "no e-mail or no token"),
        (
            '{"servers": {"https://x/": {"email": "a", "token": "t", "expires": "soon"}}}',
            "not a date",
        ),
        ("\udcff", "not JSON"),
    ],
)
def test_a_damaged_file_is_one_line_naming_it(content: str, why: str) -> None:
    path = credentials_file()
    path.parent.mkdir(parents=True)
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    path.chmod(0o600)
    with pytest.raises(CredentialsError) as caught:
        stored_login(SERVER)
    message = str(caught.value)
    assert message.startswith(f"{path} is damaged (") and why in message
    assert message.endswith("delete it, then run translator login again")
    assert "\n" not in message


def test_expiry_read_from_the_token() -> None:
    token, moment = expiring(timedelta(days=7))
    assert token_expiry(token) == moment
    assert token_expiry(jwt({"unique_name": "u"})) is None
    assert token_expiry(jwt({"exp": "tomorrow"})) is None
    assert token_expiry(jwt({"exp": 10**30})) is None
    assert token_expiry("not a token") is None
    assert token_expiry("a.!!!.c") is None


def test_the_repr_of_a_login_holds_no_token() -> None:
    token, moment = expiring(timedelta(days=7))
    login = Login(SERVER, EMAIL, token, moment)
    assert token not in repr(login) and EMAIL in repr(login)


def test_token_for(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(NotLoggedIn) as caught:
        token_for(SERVER)
    assert str(caught.value) == (
        "not logged in to aminduna.arcmage.org: run translator login --server "
        f"{SERVER} (or set TRANSLATOR_TOKEN)"
    )
    token, moment = expiring(timedelta(days=7))
    save_login(Login(SERVER, EMAIL, token, moment))
    assert token_for(SERVER) == token
    monkeypatch.setenv("TRANSLATOR_TOKEN", "  ci.token.value\n")
    assert token_for(SERVER) == "ci.token.value"  # the CI's token wins
    assert token_for(OTHER) == "ci.token.value"


def test_the_environment_token_goes_only_where_the_user_said(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """$TRANSLATOR_TOKEN is not for a server the library's translator.toml alone names;
    a stored login is for its own server, whoever named it."""
    by_file = ServerChoice(OTHER, "config", "/ci/library/translator.toml")
    save_login(Login(OTHER, EMAIL, "stored.for.other", None))
    assert token_for(by_file) == "stored.for.other"
    monkeypatch.setenv("TRANSLATOR_TOKEN", "ci.token.value")
    with pytest.raises(UnconfirmedServer) as caught:
        token_for(by_file)
    message = str(caught.value)
    assert "ci.token.value" not in message and "\n" not in message
    assert "/ci/library/translator.toml" in message and f"TRANSLATOR_SERVER={OTHER}" in message
    for origin in ("option", "environment"):
        assert token_for(ServerChoice(OTHER, origin, "")) == "ci.token.value"
    assert token_for(ServerChoice(SERVER, "config", "translator.toml")) == "ci.token.value"


@pytest.mark.parametrize("left", [timedelta(days=-2), timedelta(seconds=30)])
def test_an_expired_login(left: timedelta) -> None:
    token, moment = expiring(left)
    save_login(Login(SERVER, EMAIL, token, token_expiry(token)))
    with pytest.raises(LoginExpired) as caught:
        token_for(SERVER)
    when = moment.strftime("%Y-%m-%d %H:%M UTC")
    assert str(caught.value) == (
        f"your login to aminduna.arcmage.org expired on {when}: "
        f"run translator login --server {SERVER}"
    )
    assert token not in str(caught.value)


# -- the commands ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def standin() -> Iterator[StandIn]:
    with StandIn() as server:
        server.add_user(EMAIL, PASSWORD, name="Ann")
        yield server


def run(monkeypatch: pytest.MonkeyPatch, stdin: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    out = io.StringIO()
    return main(list(args), out), out.getvalue()


def test_login_end_to_end(
    standin: StandIn, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(
        monkeypatch,
        PASSWORD + "\n",
        *("login", "--server", standin.url, "--email", EMAIL, "--password-stdin"),
    )
    assert code == 0, capsys.readouterr().err
    login = stored_login(standin.url)
    assert login is not None and login.email == EMAIL and login.expires is not None
    assert login.expires - datetime.now(UTC) > timedelta(days=6)
    when = login.expires.strftime("%Y-%m-%d %H:%M UTC")
    path = credentials_file()
    assert out == f"logged in to {host_of(standin.url)} as {EMAIL} until {when} ({path})\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert PASSWORD not in path.read_text("utf-8")
    assert token_for(standin.url) == login.token
    assert PASSWORD not in out + capsys.readouterr().err
    assert login.token not in out


def test_login_json(standin: StandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(
        monkeypatch,
        PASSWORD + "\n",
        *("login", "--server", standin.url, "--email", EMAIL, "--password-stdin"),
        *("--format", "json"),
    )
    assert code == 0
    data = json.loads(out)
    assert data["email"] == EMAIL and data["server"] == standin.url
    assert data["credentials"] == str(credentials_file())
    assert datetime.fromisoformat(data["expires"]) > datetime.now(UTC)
    assert "token" not in data


def test_login_refused(
    standin: StandIn, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = "not the right password"
    code, out = run(
        monkeypatch,
        wrong + "\n",
        *("login", "--server", standin.url, "--email", EMAIL, "--password-stdin"),
    )
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert err == (
        f"translator: {host_of(standin.url)}: 400 login refused: "
        "Username or password is incorrect\n"
    )
    assert wrong not in err
    assert not credentials_file().exists()


@pytest.mark.parametrize(
    ("stdin", "args", "message"),
    [
        ("pw\n", ["--password-stdin"], "--password-stdin needs --email"),
        ("", ["--email", EMAIL, "--password-stdin"], "standard input is empty"),
        ("\n", ["--email", EMAIL, "--password-stdin"], "the password is empty"),
        ("", ["--server", "http://example.org/", "--email", EMAIL], "plain http://"),
    ],
)
def test_login_usage(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stdin: str,
    args: list[str],
    message: str,
) -> None:
    code, _ = run(monkeypatch, stdin, "login", *args)
    assert code == 2
    assert message in capsys.readouterr().err
    assert not credentials_file().exists()


def test_login_asks_the_email(standin: StandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    monkeypatch.setattr("getpass.getpass", lambda prompt: asked.append(prompt) or PASSWORD)
    code, out = run(monkeypatch, EMAIL + "\n", "login", "--server", standin.url)
    assert code == 0 and asked == ["Password: "]
    assert f"as {EMAIL} until" in out


def test_logout(standin: StandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    save_login(Login(standin.url, EMAIL, "t.t.t", None))
    save_login(Login(OTHER, EMAIL, "o.o.o", None))
    code, out = run(monkeypatch, "", "logout", "--server", standin.url)
    host = host_of(standin.url)
    assert (code, out) == (
        0,
        f"logged out of {host} (its token is deleted from {credentials_file()})\n",
    )
    assert stored_login(standin.url) is None and stored_login(OTHER) is not None
    code, out = run(monkeypatch, "", "logout", "--server", standin.url)
    assert (code, out) == (0, f"not logged in to {host}: there was no token to forget\n")
    monkeypatch.setenv("TRANSLATOR_TOKEN", "ci.token.value")
    code, out = run(monkeypatch, "", "logout", "--server", standin.url)
    assert "TRANSLATOR_TOKEN is set" in out and "ci.token.value" not in out
