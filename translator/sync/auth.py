"""The login tokens of ``translator login``: one per server, in a file only its owner
may read.

A token is a key to the user's Aminduna account for seven days, so it is kept as ssh
keeps a key: ``$XDG_CONFIG_HOME/translator/credentials.json`` (``~/.config/...``
without it), in a folder made ``0700``, written all at once through a temporary file
made ``0600`` (never a moment when another user could read it), and refused when
someone loosened its mode, rather than used.  Continuous integration, which has no
home to log in from, passes the token in ``$TRANSLATOR_TOKEN`` instead.

Where a token goes is the user's decision, never the library's: a stored login goes
to its own server only, and the token of ``$TRANSLATOR_TOKEN`` to the server the
command line or ``$TRANSLATOR_SERVER`` names, or to the public one
(:func:`token_for`).  A library's ``translator.toml`` and pull records can be changed
by any pull request, so a server they name gets no token from the environment.

The password is never stored: only the token the server gave for it.  Nothing here
puts a token in a message or a repr.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .. import jsonfile
from ..atomic import write_file
from ..errors import UserError
from ..limits import MAX_CONFIG_BYTES
from ..textio import InputError
from .client import SERVER_VARIABLE, ServerChoice, host_of

__all__ = [
    "TOKEN_VARIABLE",
    "CredentialsError",
    "Login",
    "LoginExpired",
    "NotLoggedIn",
    "UnconfirmedServer",
    "config_directory",
    "credentials_file",
    "forget_login",
    "save_login",
    "shown_time",
    "stored_login",
    "token_expiry",
    "token_for",
]

#: The environment variable that gives a token without a login (CI).
TOKEN_VARIABLE = "TRANSLATOR_TOKEN"
#: A token that expires within this margin counts as expired: a push must not start
#: with a token that runs out half-way.
EXPIRY_MARGIN = timedelta(seconds=60)
_FILE_VERSION = 1
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


class NotLoggedIn(UserError):
    """No token for the server: log in first."""


class LoginExpired(UserError):
    """The stored token has expired: log in again."""


class CredentialsError(UserError):
    """The credentials file cannot be used (readable by others, damaged)."""


class UnconfirmedServer(UserError):
    """A token from the environment for a server that only the library names."""


@dataclass
class Login:
    """A token the server ``server`` gave ``email``, valid until ``expires`` (None:
    the token does not say)."""

    server: str
    email: str
    token: str = field(repr=False)
    expires: datetime | None = None


def config_directory() -> Path:
    """translator's configuration folder: ``$XDG_CONFIG_HOME/translator``, else
    ``~/.config/translator``."""
    base = os.environ.get("XDG_CONFIG_HOME", "").strip()
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return root / "translator"


def credentials_file() -> Path:
    """The file of the stored logins."""
    return config_directory() / "credentials.json"


def token_claims(token: str) -> dict[str, Any]:
    """The claims of the JWT ``token``, read without checking its signature: only the
    server can, and it will; these are for saying "log in again" before a request
    fails, and whose cards are whose.  Empty when the token is not a JWT."""
    parts = token.split(".")
    if len(parts) != 3:
        return {}
    try:
        payload = base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4))
        claims = json.loads(payload)
    except (binascii.Error, ValueError, RecursionError):
        return {}
    return claims if isinstance(claims, dict) else {}


def token_expiry(token: str) -> datetime | None:
    """When the JWT ``token`` expires (its ``exp`` claim, in UTC); None when it does
    not say."""
    expires = token_claims(token).get("exp")
    if isinstance(expires, bool) or not isinstance(expires, int | float):
        return None
    try:
        return datetime.fromtimestamp(expires, UTC)
    except (OverflowError, OSError, ValueError):
        return None


def token_user(token: str) -> str | None:
    """The guid of the user a token is for (Aminduna's ``unique_name`` claim)."""
    user = token_claims(token).get("unique_name")
    return user.lower() if isinstance(user, str) and user else None


def shown_time(moment: datetime) -> str:
    """A moment as messages give it: ``2026-12-09 14:00 UTC``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def save_login(login: Login) -> Path:
    """Store ``login`` (replacing the server's previous one, keeping the others'),
    and return the file."""
    path = credentials_file()
    directory = path.parent
    if not directory.is_dir():
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(directory, 0o700)  # whatever the umask
    with _locked(directory):
        servers = _read(path)
        servers[login.server] = {
            "email": login.email,
            "token": login.token,
            "expires": login.expires.astimezone(UTC).isoformat() if login.expires else None,
        }
        _write(path, servers)
    return path


def stored_login(server: str) -> Login | None:
    """The stored login to ``server`` (as :func:`~.client.server_address` writes it),
    expired or not; None when there is none."""
    entry = _read(credentials_file()).get(server)
    if entry is None:
        return None
    return _login(server, entry, credentials_file())


def forget_login(server: str) -> bool:
    """Delete the stored login to ``server``; whether there was one.  The file goes
    when it holds no other."""
    path = credentials_file()
    if not path.exists():
        return False
    with _locked(path.parent):
        servers = _read(path)
        if servers.pop(server, None) is None:
            return False
        if servers:
            _write(path, servers)
        else:
            path.unlink()
    return True


def token_for(server: str | ServerChoice) -> str:
    """The token to send to ``server``: ``$TRANSLATOR_TOKEN`` when set, else the stored
    login's while it has more than a minute left; else :class:`NotLoggedIn` or
    :class:`LoginExpired`, saying how to log in.

    ``server`` is a :class:`~.client.ServerChoice` when a command chose it
    (:func:`~.client.choose_server`): the token of ``$TRANSLATOR_TOKEN`` goes only to a
    server the user named (``--server``, ``$TRANSLATOR_SERVER``) or the public one,
    not to one named only by the library's ``translator.toml``
    (:class:`UnconfirmedServer`, saying how to confirm it).  A bare address is the
    caller's own choice.  A stored login is kept per server, and only that server's
    is returned."""
    choice = server if isinstance(server, ServerChoice) else ServerChoice(server, "option", "")
    server = choice.address
    variable = os.environ.get(TOKEN_VARIABLE, "").strip()
    if variable:
        if not choice.confirmed:
            raise UnconfirmedServer(
                f"${TOKEN_VARIABLE} is not sent to {host_of(server)}, a server only "
                f"{choice.source} names (a file a pull request can change): if it is yours, "
                f"set {SERVER_VARIABLE}={server} (or give --server {server})"
            )
        return variable
    login = stored_login(server)
    host = host_of(server)
    if login is None:
        raise NotLoggedIn(
            f"not logged in to {host}: run translator login --server {server} "
            f"(or set {TOKEN_VARIABLE})"
        )
    if login.expires is not None and login.expires <= datetime.now(UTC) + EXPIRY_MARGIN:
        raise LoginExpired(
            f"your login to {host} expired on {shown_time(login.expires)}: "
            f"run translator login --server {server}"
        )
    return login.token


# -- the file ----------------------------------------------------------------------------


def _read(path: Path) -> dict[str, dict[str, Any]]:
    """The logins of the file, per server (none without a file): refused when others
    may read it, when it is not a regular file of its own (a link, a FIFO), or when it
    is not what :func:`_write` writes.  Read by the one JSON reader
    (:func:`translator.jsonfile.read`: size, depth, UTF-8), without following a link
    in the configuration folder."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return {}
    _check_private(path, info)
    try:
        document = jsonfile.read(path, MAX_CONFIG_BYTES, "credentials file", beneath=path.parent)
    except InputError as error:
        why = error.message.split(";")[0].removeprefix("not valid JSON: ")
        raise _damaged(path, f"not JSON: {why[:120]}") from None
    servers = document.get("servers") if isinstance(document, dict) else None
    if not isinstance(servers, dict):
        raise _damaged(path, 'no "servers" object')
    for server, entry in servers.items():
        _login(server, entry, path)  # every entry checked, so none is dropped unseen
    return servers


def _check_private(path: Path, info: os.stat_result) -> None:
    """Refuse a file that another user may read or change, as ssh does: a token that
    others could have copied is not worth guarding, and one they could have written
    is not the user's."""
    if os.name == "nt":
        return
    if not stat.S_ISREG(info.st_mode):
        raise CredentialsError(f"{path} is not a regular file: delete it and log in again")
    if info.st_uid != os.getuid():
        raise CredentialsError(
            f"{path} belongs to another user: delete it and run translator login"
        )
    if info.st_mode & 0o077:
        what = "readable" if info.st_mode & 0o044 else "writable"
        raise CredentialsError(f"{path} is {what} by others: chmod 600 {path}")


def _login(server: str, entry: Any, path: Path) -> Login:
    """One entry of the file as a :class:`Login`."""
    if not isinstance(entry, dict):
        raise _damaged(path, f"the entry of {server} is not an object")
    email, token, expires = entry.get("email"), entry.get("token"), entry.get("expires")
    if not isinstance(email, str) or not isinstance(token, str) or not token:
        raise _damaged(path, f"the entry of {server} has no e-mail or no token")
    if expires is None:
        return Login(server, email, token, None)
    try:
        moment = datetime.fromisoformat(expires) if isinstance(expires, str) else None
    except ValueError:
        moment = None
    if moment is None:
        raise _damaged(path, f"the entry of {server} has an expiry that is not a date")
    return Login(server, email, token, moment if moment.tzinfo else moment.replace(tzinfo=UTC))


def _damaged(path: Path, why: str) -> CredentialsError:
    return CredentialsError(
        f"{path} is damaged ({why}): delete it, then run translator login again"
    )


def _write(path: Path, servers: dict[str, dict[str, Any]]) -> None:
    """The whole file at once, ``0600`` from its first byte (:func:`~translator.atomic.write_file`
    makes the temporary file with ``os.open`` and that mode, syncs it and renames it)."""
    document = {"version": _FILE_VERSION, "servers": servers}
    text = json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    write_file(path, text.encode("utf-8"), mode=0o600, within=path.parent)


#: The lock file of earlier versions, removed when seen (the folder is locked now).
_OLD_LOCK = "credentials.json.lock"


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Hold the lock of the configuration folder: two logins at once (to two servers)
    must not each write the file without the other's entry.  The lock is the folder
    itself (``flock`` on a descriptor of it), so nothing is left behind: no lock file
    that a logout would leave, or another user could make first."""
    if sys.platform == "win32":
        yield
        return
    import fcntl  # noqa: PLC0415 - POSIX only

    descriptor = os.open(directory, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
        old = directory / _OLD_LOCK
        if old.is_file() and not old.is_symlink():
            old.unlink(missing_ok=True)
    finally:
        os.close(descriptor)
