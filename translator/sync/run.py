"""A pull, a push, a login and a logout as the command line makes them: the server
chosen (and checked against the deck's records), the time limits resolved, the token
found, the client opened and closed around :mod:`.pull` and :mod:`.push`.
:mod:`translator.api` calls these.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    from .client import ServerChoice
    from .pull import PullResult
    from .push import Outgoing, PushResult

__all__ = [
    "LoginResult",
    "LoginTarget",
    "Logout",
    "login",
    "login_target",
    "logout",
    "pull",
    "push",
    "push_choice",
    "push_server",
    "sync_server",
]


def sync_server(server: str | None = None, references: Sequence[str] = ()) -> str:
    """The Aminduna server a pull or push talks to: ``server``, else the one the web
    addresses among ``references`` name, else $TRANSLATOR_SERVER, the configuration's
    ``[aminduna] server``, or the public server.  Addresses naming another server than
    ``server`` are a mistake (:class:`UsageError`)."""
    from . import client as sync_client  # noqa: PLC0415
    from .pull import parse_reference  # noqa: PLC0415

    named = {
        sync_client.server_address(ref.server)
        for ref in map(parse_reference, references)
        if ref.server
    }
    if len(named) > 1:
        raise UsageError(f"the addresses name {len(named)} servers; pull from one at a time")
    if named and server is None:
        return named.pop()
    chosen = sync_client.resolve_server(server)
    if named and named != {chosen}:
        raise UsageError(
            f"the address names {named.pop()} but the server is {chosen}: drop --server, "
            "or give an address on that server"
        )
    return chosen


def push_server(deck: str | os.PathLike[str], server: str | None = None) -> str:
    """Where a push of ``deck`` goes: ``server``, else $TRANSLATOR_SERVER, else the
    configuration's ``[aminduna] server``, else the public server: never a server a
    pull record names.  Every record of the deck must name that server (else a
    :class:`~translator.sync.records.RecordError` naming the record and both servers):
    checked here, before any request."""
    return push_choice(deck, server).address


def push_choice(deck: str | os.PathLike[str], server: str | None) -> ServerChoice:
    """The :class:`~translator.sync.client.ServerChoice` of a push of ``deck``, its
    records checked against it (:func:`push_server`)."""
    from . import client as sync_client  # noqa: PLC0415
    from .records import check_servers  # noqa: PLC0415

    choice = sync_client.choose_server(server)
    check_servers(os.fspath(deck), choice.address, choice.source)
    return choice


def pull(
    references: Sequence[str],
    into: str | os.PathLike[str],
    *,
    server: str | None = None,
    languages: Sequence[str] = ("fr", "eo"),
    search: str | None = None,
    library: str | os.PathLike[str] | None = None,
    keep_local: bool = False,
    take_server: bool = False,
    timeout: float | None = None,
    deadline: float | None = None,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> PullResult:
    """Pull decks, cards (web addresses or guids) and a ``search`` from Aminduna into
    the deck directory ``into``, with their translations in ``languages``: ``translator
    pull``.  Anonymous: the routes it reads need no login.  Conflicts are in the
    result (``result.conflicts``), not raised: everything else was pulled.

    ``timeout`` bounds each answer as a whole (default: ``[aminduna] timeout``, else
    30 s), ``deadline`` every request of the pull, retries included (default:
    ``[aminduna] deadline``, else 15 minutes): past it the pull stops, and writes
    nothing."""
    from . import client as sync_client  # noqa: PLC0415
    from . import pull as sync_pull  # noqa: PLC0415

    limit = sync_client.resolve_deadline(deadline)
    refs = [sync_pull.parse_reference(ref) for ref in references]
    address = sync_server(server, references)
    wait = sync_client.resolve_timeout(option=timeout)
    with sync_client.Client(address, timeout=wait, deadline=limit) as remote:
        return sync_pull.pull(
            remote,
            refs,
            os.fspath(into),
            search=search,
            languages=languages,
            library_root=None if library is None else os.fspath(library),
            keep_local=keep_local,
            take_server=take_server,
            on_progress=on_progress,
        )


def push(
    deck: str | os.PathLike[str],
    lang: str,
    *,
    server: str | None = None,
    token: str | None = None,
    only: Sequence[str] = (),
    dry_run: bool = False,
    force: bool = False,
    include_unreviewed: bool = False,
    library: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
    deadline: float | None = None,
    on_card: Callable[[Outgoing, int, int], None] | None = None,
) -> PushResult:
    """Send the translations of ``deck`` in ``lang`` changed since their pull, reviewed
    and lint-clean (``force``: despite lint errors): ``translator push``.  ``token``
    defaults to $TRANSLATOR_TOKEN or the stored login (``translator login``); a
    ``dry_run`` needs none and sends nothing.

    The server is ``server``, else $TRANSLATOR_SERVER, else ``[aminduna] server``,
    else the public one (:func:`push_server`; never a record's).  The token of
    $TRANSLATOR_TOKEN goes only to a server ``server`` or $TRANSLATOR_SERVER names, or
    the public one (:func:`translator.sync.auth.token_for`).  ``timeout`` and
    ``deadline`` as for :func:`pull`; a push stopped by its deadline keeps the records
    of the cards it sent (``result.stopped``)."""
    from . import auth  # noqa: PLC0415
    from . import client as sync_client  # noqa: PLC0415
    from . import push as sync_push  # noqa: PLC0415

    sync_push.check_language(lang)  # before asking for a login the push cannot use
    limit = sync_client.resolve_deadline(deadline)
    choice = push_choice(deck, server)
    address = choice.address
    remote = None
    user = None
    if not dry_run:
        wait = sync_client.resolve_timeout(option=timeout)
        token = token or auth.token_for(choice)
        user = auth.token_user(token)
        remote = sync_client.Client(address, token, timeout=wait, deadline=limit)
    try:
        return sync_push.push(
            remote,
            os.fspath(deck),
            lang,
            only=only,
            dry_run=dry_run,
            force=force,
            include_unreviewed=include_unreviewed,
            library_root=None if library is None else os.fspath(library),
            on_card=on_card,
            server=address,
            user=user,
        )
    finally:
        if remote is not None:
            remote.close()


# --------------------------------------------------------------------------------------
# login and logout


@dataclass(frozen=True)
class LoginTarget:
    """The server a login goes to, who named it (``origin``: ``option``,
    ``environment``, ``config``, ``default``; ``source``: the configuration file), and
    the time limits of the request."""

    address: str
    host: str
    origin: str
    source: str
    timeout: float
    deadline: float


def login_target(
    server: str | None = None, *, timeout: float | None = None, deadline: float | None = None
) -> LoginTarget:
    """Where ``translator login`` sends the password: ``server``, else
    $TRANSLATOR_SERVER, else ``[aminduna] server``, else the public one; checked before
    anything is asked (a caller warns when a configuration file chose it)."""
    from . import client as sync_client  # noqa: PLC0415

    choice = sync_client.choose_server(server)
    return LoginTarget(
        choice.address,
        sync_client.host_of(choice.address),
        choice.origin,
        choice.source,
        sync_client.resolve_timeout(option=timeout),
        sync_client.resolve_deadline(deadline),
    )


@dataclass(frozen=True)
class LoginResult:
    """A login stored: the server, the account, until when its token holds (None:
    the token does not say), and the file it is kept in."""

    server: str
    host: str
    email: str
    expires: datetime | None
    credentials: Path

    @property
    def until(self) -> str | None:
        """``expires`` as messages give it (``2026-12-09 14:00 UTC``)."""
        from .auth import shown_time  # noqa: PLC0415

        return None if self.expires is None else shown_time(self.expires)


def login(email: str, password: str, target: LoginTarget) -> LoginResult:
    """Log in to ``target`` (:func:`login_target`) and store the token the server
    gives, in a file only the user can read; never the password: ``translator
    login``."""
    from . import client as sync_client  # noqa: PLC0415
    from .auth import Login, save_login, token_expiry  # noqa: PLC0415

    with sync_client.Client(
        target.address, timeout=target.timeout, deadline=target.deadline
    ) as client:
        token = client.login(email, password)
    stored = Login(target.address, email, token, token_expiry(token))
    path = save_login(stored)
    return LoginResult(target.address, target.host, email, stored.expires, path)


@dataclass(frozen=True)
class Logout:
    """A login forgotten (``forgotten``: there was one), and whether
    $TRANSLATOR_TOKEN still gives commands a token."""

    server: str
    host: str
    forgotten: bool
    credentials: Path
    token_variable: str | None


def logout(server: str | None = None) -> Logout:
    """Forget the stored token of ``server`` (default: as for :func:`login_target`):
    ``translator logout``."""
    from .auth import TOKEN_VARIABLE, credentials_file, forget_login  # noqa: PLC0415
    from .client import host_of, resolve_server  # noqa: PLC0415

    address = resolve_server(server)
    forgotten = forget_login(address)
    variable = TOKEN_VARIABLE if os.environ.get(TOKEN_VARIABLE, "").strip() else None
    return Logout(address, host_of(address), forgotten, credentials_file(), variable)
