"""``translator pull``, ``push``, ``login`` and ``logout``: cards between a deck and
Aminduna, and the token a push writes with (thin callers of
:mod:`translator.sync.run`, where the result types live)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..sync.pull import PullResult
    from ..sync.push import Outgoing, PushResult
    from ..sync.run import LoginResult, LoginTarget, Logout

__all__ = ["login", "login_target", "logout", "pull", "push", "push_server", "sync_server"]


def sync_server(server: str | None = None, references: Sequence[str] = ()) -> str:
    """The Aminduna server a pull or push talks to: ``server``, else the one the web
    addresses among ``references`` name, else $TRANSLATOR_SERVER, the configuration's
    ``[aminduna] server``, or the public server.  Addresses naming another server than
    ``server`` are a mistake (:class:`UsageError`)."""
    from ..sync import run  # noqa: PLC0415

    return run.sync_server(server, references)


def push_server(deck: str | os.PathLike[str], server: str | None = None) -> str:
    """Where a push of ``deck`` goes: ``server``, else $TRANSLATOR_SERVER, else the
    configuration's ``[aminduna] server``, else the public server: never a server a
    pull record names.  Every record of the deck must name that server (else a
    :class:`~translator.sync.records.RecordError` naming the record and both servers):
    checked here, before any request."""
    from ..sync import run  # noqa: PLC0415

    return run.push_server(deck, server)


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
    from ..sync import run  # noqa: PLC0415

    return run.pull(
        references,
        into,
        server=server,
        languages=languages,
        search=search,
        library=library,
        keep_local=keep_local,
        take_server=take_server,
        timeout=timeout,
        deadline=deadline,
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
    from ..sync import run  # noqa: PLC0415

    return run.push(
        deck,
        lang,
        server=server,
        token=token,
        only=only,
        dry_run=dry_run,
        force=force,
        include_unreviewed=include_unreviewed,
        library=library,
        timeout=timeout,
        deadline=deadline,
        on_card=on_card,
    )


def login_target(
    server: str | None = None, *, timeout: float | None = None, deadline: float | None = None
) -> LoginTarget:
    """Where ``translator login`` sends the password: ``server``, else
    $TRANSLATOR_SERVER, else ``[aminduna] server``, else the public one; checked before
    anything is asked (a caller warns when a configuration file chose it)."""
    from ..sync import run  # noqa: PLC0415

    return run.login_target(server, timeout=timeout, deadline=deadline)


def login(email: str, password: str, target: LoginTarget) -> LoginResult:
    """Log in to ``target`` (:func:`login_target`) and store the token the server
    gives, in a file only the user can read; never the password: ``translator
    login``."""
    from ..sync import run  # noqa: PLC0415

    return run.login(email, password, target)


def logout(server: str | None = None) -> Logout:
    """Forget the stored token of ``server`` (default: as for :func:`login_target`):
    ``translator logout``."""
    from ..sync import run  # noqa: PLC0415

    return run.logout(server)
