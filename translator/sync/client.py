"""A careful HTTP client for the Aminduna API: what ``translator pull`` and ``push``
say to the server, and nothing they need not trust.

The network fails in ways that matter differently for reading and for writing.  A
read (a card, a deck, a search page) or a PATCH, which sends the whole card and so
may be sent twice, is tried again after a connection error, a timeout, a 5xx answer,
a connection closed in the middle of the answer, or an answer that is not JSON; 4xx
answers are the server's decision and are never tried again.  A create (POST
api/Cards) is different: once its request may have reached the server, a second try
could make a second card, so every doubt is an :class:`Uncertain` for the caller to
settle (by looking for the card) rather than a retry.

Every request is bounded in time as a whole: each try of it by ``timeout`` (the
connection, the headers, the body and the redirects of that try: a server that drips
one byte a second is cut off, :func:`translator.web.deadline`), and every request of
the client, retries and their pauses included, by the command's ``deadline``.

Every answer is checked before use: its size (:data:`MAX_ANSWER_BYTES` for JSON,
which a parser makes some fifty times larger in memory; an artwork
:data:`~translator.limits.MAX_IMAGE_BYTES`),
that it is JSON of the expected kind (an object with a guid for a card, a string for a
token), and that a redirect stays on the same server, since a token sent to another
host is a token given away.  Tokens and passwords appear in no message, repr or
exception: what went wrong is said as ``HOST: STATUS REASON``, one line, as a
:class:`~translator.errors.UserError` the command line prints and exits 2 on.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple, Self
from urllib.parse import SplitResult, quote, urljoin, urlsplit

import httpx

from ..config import find_config, line_of, table
from ..errors import UsageError, UserError
from ..jsonfile import depth
from ..limits import MAX_DEPTH, MAX_IMAGE_BYTES, MAX_IMPORT_CARDS
from ..problems import did_you_mean
from ..textio import InputError
from ..web import (
    COMMAND_DEADLINE,
    CONNECT_TIMEOUT,
    LOOPBACK_HOSTS,
    MAX_REDIRECTS,
    READ_TIMEOUT,
    RETRY_DELAYS,
    USER_AGENT,
    deadline,
    expired,
    http_client,
)
from ..web import time_left as thread_time_left

__all__ = [
    "DEFAULT_SERVER",
    "BadToken",
    "Client",
    "Forbidden",
    "InvalidServer",
    "NotFound",
    "ServerChoice",
    "ServerError",
    "Unauthorized",
    "Uncertain",
    "choose_server",
    "host_of",
    "resolve_deadline",
    "resolve_server",
    "resolve_timeout",
    "server_address",
]

#: The public Aminduna server.
DEFAULT_SERVER = "https://aminduna.arcmage.org/"
#: The environment variable naming the server when ``--server`` is not given.
SERVER_VARIABLE = "TRANSLATOR_SERVER"
#: The keys of the configuration file's ``[aminduna]`` table.
CONFIG_KEYS = ("server", "timeout", "deadline")
#: Bytes of one JSON answer: a 30-card deck with its cards is about 70 KB, a page of 50
#: search results about 100 KB.  Parsed, JSON of many small values takes some fifty
#: times its size in memory (a 20 MB answer of empty objects, a gigabyte), so the
#: limit is the answers' size with room to spare, not the whole card base's.
MAX_ANSWER_BYTES = 8 << 20
#: The largest ``timeout`` (seconds for one answer) and ``deadline`` (for a whole
#: command) accepted: a day is far more than any pull needs.
MAX_TIMEOUT = 600.0
MAX_DEADLINE = 86_400.0
#: What an example of a server address looks like, for the messages.
_EXAMPLE = "https://aminduna.arcmage.org/"
#: The answers that send elsewhere (304 is a 3xx that does not).
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
#: The redirects that keep the method and body: the only ones a write may follow.
_KEEP_METHOD = frozenset({307, 308})
#: What a JWT looks like (three base64url parts): anything else is not a token.
_JWT_RE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")
#: What a token sent in a header may hold: visible ASCII (a line break or a space
#: would make the request malformed, and h11 then names the header's value).
_TOKEN_CHARS_RE = re.compile(r"[\x21-\x7e]+")
_JSON_TYPE = "application/json; charset=utf-8"
#: Characters of the server's own text kept in a message: one line, not a page.
_MAX_REASON_CHARS = 200
#: The shortest password masked in messages (a shorter one would mask common words).
_MIN_MASKED = 8


# -- errors ----------------------------------------------------------------------------


class InvalidServer(UserError):
    """A server address that cannot be used: what is wrong and what to give instead."""


class BadToken(UserError):
    """A token that cannot be sent (a line break in $TRANSLATOR_TOKEN, say)."""


class ServerError(UserError):
    """What the server answered, or failed to: ``HOST: STATUS REASON``, and the card
    the request was about when the caller names it (:meth:`about`).

    ``status`` is None when no answer came (a connection problem, a timeout) or the
    answer itself was wrong (not JSON, not a card)."""

    def __init__(self, host: str, status: int | None, reason: str, card: str | None = None) -> None:
        super().__init__(host, status, reason)
        self.host = host
        self.status = status
        self.reason = reason
        self.card = card

    def __str__(self) -> str:
        status = f"{self.status} " if self.status is not None else ""
        card = f" (card: {self.card})" if self.card else ""
        return f"{self.host}: {status}{self.reason}{card}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def about(self, card: str) -> Self:
        """A copy of this error naming ``card``: the client knows guids, the caller
        knows which card file a request was for."""
        named = copy.copy(self)
        named.card = card
        return named


class Unauthorized(ServerError):
    """401: no token, a wrong one, or an expired one: log in again."""


class Forbidden(ServerError):
    """403: the account lacks the right (a Final card, another's card): the server's
    own words say which."""


class NotFound(ServerError):
    """404: no such card or deck on this server."""


class Uncertain(ServerError):
    """A create whose request may have reached the server while its answer did not
    arrive whole: the card may exist now.  Never retried: look for it first.

    ``finished`` says the server had answered (a status line came: a 5xx, an answer
    cut or not JSON), so it is done with the request and a search tells whether the
    card exists; after a timeout or a connection closed before any answer it may still
    be making it."""

    def __init__(
        self,
        host: str,
        status: int | None,
        reason: str,
        card: str | None = None,
        *,
        finished: bool = False,
    ) -> None:
        super().__init__(host, status, reason, card)
        self.finished = finished


# -- addresses -------------------------------------------------------------------------


def server_address(spec: str) -> str:
    """The base address of the server ``spec`` names, ending in ``/``: ``https://``
    (``http://`` only to this computer: a password and a token would cross the
    network in clear), no ``user@``, no query, no ``#`` (a page of the web site, such
    as ``.../#/decks/GUID``, is the caller's to read).  A bare host name means
    ``https://``; the default port and a trailing ``api/`` are dropped, so that one
    server has one address (and one stored login)."""
    text = spec.strip()
    shown = _shown(text)
    if not text:
        raise InvalidServer(f"the server address is empty: give one such as {_EXAMPLE}")
    if re.search(r"[\s\x00-\x1f\x7f]", text):
        raise InvalidServer(f"{shown}: a server address holds no space or control character")
    if "://" not in text:
        text = "https://" + text
    try:
        parts = urlsplit(text)
        host = parts.hostname
        port = parts.port
    except ValueError as error:
        raise InvalidServer(f"{shown}: not a valid address ({error})") from None
    scheme = parts.scheme.lower()
    why = _refusal(parts, scheme, host, text)
    if why:
        raise InvalidServer(f"{shown}: {why}")
    assert host is not None
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    if path.lower().endswith("/api/"):
        path = path[: -len("api/")]
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != {"https": 443, "http": 80}[scheme]:
        netloc += f":{port}"
    return f"{scheme}://{netloc}{path}"


def _refusal(parts: SplitResult, scheme: str, host: str | None, text: str) -> str | None:
    """Why an address cannot name a server, or None."""
    segments = parts.path.split("/")
    checks = (
        (
            scheme not in ("https", "http"),
            f"{scheme}:// is not supported; give an https:// address",
        ),
        (not host, f"the address names no server; write it as {_EXAMPLE}"),
        (
            parts.username is not None or parts.password is not None,
            "an address with user@ is not supported; drop it and run translator login",
        ),
        (
            scheme == "http" and host not in LOOPBACK_HOSTS,
            "plain http:// is refused (the password and the token would cross the network "
            "in clear); use https://",
        ),
        (bool(parts.query), f"a server address has no ?query; give {_EXAMPLE}"),
        (
            bool(parts.fragment) or text.endswith("#"),
            "this is the address of a page of the web site (#...), not of the server; "
            f"give the server's own, such as {_EXAMPLE}",
        ),
        (".." in segments or "." in segments, f"the address holds '.' or '..'; give {_EXAMPLE}"),
    )
    return next((why for wrong, why in checks if wrong), None)


def _shown(spec: str) -> str:
    """``spec`` as a message may show it: a ``user:password@`` part masked."""
    return re.sub(r"(?<=//)[^/@]*@", "***@", spec)


def host_of(server: str) -> str:
    """How messages name ``server``: its host, and its port when not the default
    (``aminduna.arcmage.org``, ``127.0.0.1:8765``)."""
    return urlsplit(server).netloc


@dataclass(frozen=True)
class ServerChoice:
    """The server a command talks to, and who named it: ``origin`` is ``option``
    (``--server``, or the caller of the API), ``environment`` ($TRANSLATOR_SERVER),
    ``config`` (``server`` in ``[aminduna]`` of the configuration file ``source``) or
    ``default`` (the public server)."""

    address: str
    origin: str
    #: How a message names the origin: ``--server``, ``$TRANSLATOR_SERVER``, the file.
    source: str

    @property
    def confirmed(self) -> bool:
        """Whether a token from the environment may go to this server: the user named
        it (the command line, the environment, which a library cannot change) or it is
        the public one.  A configuration file is the library's, and a pull request can
        change it as easily as a pull record."""
        return self.origin in ("option", "environment") or self.address == DEFAULT_SERVER


def choose_server(option: str | None, start: Path | None = None) -> ServerChoice:
    """The server a command talks to: ``--server``, else $TRANSLATOR_SERVER, else
    ``server`` in the configuration file's ``[aminduna]`` table, else the public one;
    normalised (:func:`server_address`), with where it came from.  Nothing a library
    holds besides its configuration file (a pull record, a card) chooses it."""
    if option is not None:
        return ServerChoice(server_address(option), "option", "--server")
    variable = os.environ.get(SERVER_VARIABLE, "").strip()
    if variable:
        try:
            address = server_address(variable)
        except InvalidServer as error:
            raise InvalidServer(f"${SERVER_VARIABLE}: {error}") from None
        return ServerChoice(address, "environment", f"${SERVER_VARIABLE}")
    configured = _settings(start).get("server")
    if isinstance(configured, str):
        path = find_config(start)
        return ServerChoice(server_address(configured), "config", str(path))
    return ServerChoice(DEFAULT_SERVER, "default", "the default")


def resolve_server(option: str | None, start: Path | None = None) -> str:
    """The address of :func:`choose_server`."""
    return choose_server(option, start).address


def resolve_timeout(start: Path | None = None, option: float | None = None) -> float:
    """Seconds to wait for a whole answer: ``option`` (``--timeout``), else ``timeout``
    in ``[aminduna]``, else :data:`~translator.web.READ_TIMEOUT` (a slow server, a
    slow link)."""
    if option is not None:
        return _seconds(option, "--timeout", MAX_TIMEOUT)
    configured = _settings(start).get("timeout")
    return float(configured) if configured is not None else READ_TIMEOUT


def resolve_deadline(option: float | None = None, start: Path | None = None) -> float:
    """Seconds a whole command may take, every request, retry and pause included:
    ``option`` (``--deadline``), else ``deadline`` in ``[aminduna]``, else
    :data:`~translator.web.COMMAND_DEADLINE`."""
    if option is not None:
        return _seconds(option, "--deadline", MAX_DEADLINE)
    configured = _settings(start).get("deadline")
    return float(configured) if configured is not None else COMMAND_DEADLINE


def _seconds(value: float, option: str, most: float) -> float:
    """A number of seconds given as an option, checked as the configuration's are."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= most:
        raise UsageError(f"{option} is seconds, more than 0 and at most {most:g}, not {value!r}")
    return float(value)


def _settings(start: Path | None) -> dict[str, Any]:
    """The ``[aminduna]`` table of the configuration file, checked (empty without one)."""
    path = find_config(start)
    if path is None:
        return {}
    found, text, where = table(path, "aminduna")
    for key in found:
        if key not in CONFIG_KEYS:
            raise InputError(
                str(path),
                f"unknown key '{key}' in {where} ({did_you_mean(key, CONFIG_KEYS)})",
                line_of(text, key),
            )
    server = found.get("server")
    if server is not None:
        if not isinstance(server, str):
            raise InputError(
                str(path),
                f'server is an address, e.g. server = "{_EXAMPLE}"',
                line_of(text, "server"),
            )
        try:
            server_address(server)
        except InvalidServer as error:
            raise InputError(str(path), f"server: {error}", line_of(text, "server")) from None
    for key, most in (("timeout", MAX_TIMEOUT), ("deadline", MAX_DEADLINE)):
        value = found.get(key)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= most
        ):
            raise InputError(
                str(path),
                f"{key} is seconds, more than 0 and at most {most:g}, not {value!r}",
                line_of(text, key),
            )
    return found


# -- the client ------------------------------------------------------------------------


class _Answer(NamedTuple):
    status: int
    reason: str
    content_type: str
    body: bytes


class _Transient(Exception):
    """A try that failed in a way another try may not: ``sent`` says whether the
    request may have reached the server (a create is then uncertain); ``final`` that
    no other try may be made (the command's deadline has passed)."""

    def __init__(
        self,
        reason: str,
        *,
        sent: bool,
        status: int | None = None,
        answered: bool = False,
        final: bool = False,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.sent = sent
        self.status = status
        #: A status line came: the server had finished with the request.
        self.answered = answered or status is not None
        self.final = final


class _Malformed(Exception):
    """An answer that came whole but is not what was asked for: ``again`` when
    another try may do better (not JSON: cut, or a proxy's page)."""

    def __init__(self, reason: str, *, again: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.again = again


_Parse = Callable[[_Answer], Any]


class Client:
    """The Aminduna API of one server, as one user (``token``) or anonymously.

    ``server`` is normalised already (:func:`server_address`); ``timeout`` is the
    seconds a whole answer may take, each try of a request (a connection waits at
    most :data:`~translator.web.CONNECT_TIMEOUT` of them); ``retry_delays`` the
    pauses before each new try of a request that may be repeated; ``deadline`` the
    seconds, from now, by which every request of this client must have ended (the
    command's bound), and the deadline of the thread that makes the client, if any
    (:func:`translator.web.deadline`), counts too.  The client carries that moment
    into every thread that uses it (a pull asks four cards at a time): a deadline of
    :mod:`translator.web` belongs to one thread."""

    def __init__(
        self,
        server: str,
        token: str | None = None,
        *,
        timeout: float | None = None,
        retry_delays: Sequence[float] | None = None,
        deadline: float | None = None,
    ) -> None:
        self.server = server
        self.host = host_of(server)
        #: HTTP requests sent (every try and redirect): a dry run sends none.
        self.requests_sent = 0
        if token is not None and not _TOKEN_CHARS_RE.fullmatch(token):
            raise BadToken(
                "the token holds a space, a line break or a character no token has: "
                "run translator login again, or check $TRANSLATOR_TOKEN"
            )
        self._secrets = [token] if token else []
        self._read_timeout = READ_TIMEOUT if timeout is None else float(timeout)
        self._connect_timeout = min(CONNECT_TIMEOUT, self._read_timeout)
        #: The command's bound in seconds (for messages), and the moment it ends.
        self._deadline = deadline
        now = time.monotonic()
        ends = [now + s for s in (deadline, thread_time_left()) if s is not None]
        self._ends = min(ends) if ends else None
        #: The pauses before each new try (a caller that retries by itself, such as a
        #: push looking for a card it may have created, pauses as long).
        self.retry_delays = tuple(RETRY_DELAYS if retry_delays is None else retry_delays)
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._http = http_client(
            headers=headers,
            read_timeout=self._read_timeout,
            connect_timeout=self._connect_timeout,
        )

    def __repr__(self) -> str:
        return f"Client({self.server!r})"

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- the routes --------------------------------------------------------------------

    def login(self, email: str, password: str) -> str:
        """A token for ``email``: the password goes as its MD5 hex digest, as
        Aminduna's web and C# clients send it (the server compares that)."""
        digest = hashlib.md5(password.encode("utf-8"), usedforsecurity=False).hexdigest()
        # The digest is as good as the password to the server; a password too short to
        # mask without garbling the message is not masked (the server never echoes it).
        secrets = [digest, *([password] if len(password) >= _MIN_MASKED else [])]
        self._secrets += secrets
        try:
            token: str = self._call(
                "POST",
                "api/Login",
                _expect("token"),
                what="login",
                payload={"email": email, "password": digest},
            )
        except ServerError as error:
            if error.status == 400:
                raise ServerError(self.host, 400, f"login refused: {error.reason}") from None
            raise
        finally:
            del self._secrets[-len(secrets) :]
        return token

    def card(self, guid: str) -> dict[str, Any]:
        """The card ``guid``, with its ``masterCard`` one level deep."""
        card: dict[str, Any] = self._call(
            "GET", f"api/Cards/{_part(guid)}", _expect("card"), what=f"card {guid}"
        )
        return card

    def deck(self, guid: str) -> dict[str, Any]:
        """The deck ``guid``, with its ``deckCards``."""
        deck: dict[str, Any] = self._call(
            "GET", f"api/Decks/{_part(guid)}", _expect("deck"), what=f"deck {guid}"
        )
        return deck

    def search(
        self,
        options: dict[str, Any],
        *,
        page_size: int = 50,
        on_page: Callable[[int, int], None] | None = None,
    ) -> list[dict[str, Any]]:
        """Every card the search ``options`` (Aminduna's CardSearchOptions) finds, page
        after page until the total the server gives is read (or a page is empty);
        ``on_page(read so far, total)`` after each.  A card met twice (the cards moved
        between pages while they were read) is kept once."""
        found: dict[str, dict[str, Any]] = {}
        unnamed: list[dict[str, Any]] = []
        received = 0
        number = 0
        while True:
            number += 1
            body = {**_without_nulls(options), "pageSize": page_size, "pageNumber": number}
            page: dict[str, Any] = self._call(
                "POST", "api/CardSearch", _expect("page"), what="card search", payload=body
            )
            items, total = page["items"], page["totalItems"]
            if total > MAX_IMPORT_CARDS:
                raise ServerError(
                    self.host,
                    None,
                    f"the search finds {total} cards (at most {MAX_IMPORT_CARDS}): narrow it",
                )
            received += len(items)
            for item in items:
                guid = item.get("guid")
                if isinstance(guid, str):
                    found.setdefault(guid, item)
                else:
                    unnamed.append(item)
            if on_page is not None:
                on_page(min(received, total), total)
            if not items or received >= total:
                return [*found.values(), *unnamed]

    def statuses(self) -> list[dict[str, Any]]:
        """The card statuses (Draft, Release Candidate, Final) with their guids."""
        answer: dict[str, Any] = self._call("GET", "api/Statuses", _expect("list"), what="statuses")
        items: list[dict[str, Any]] = answer["items"]
        return items

    def create_card(self, card: dict[str, Any]) -> dict[str, Any]:
        """A new card (the server gives it its guid), as the server saved it.  Tried
        once: a doubt about whether it arrived is an :class:`Uncertain`."""
        created: dict[str, Any] = self._call(
            "POST",
            "api/Cards",
            _expect("card"),
            what="new card",
            payload=_without_nulls(card),
            unsure="the card may have been created or not: look for it on the server "
            "before creating it again",
        )
        return created

    def patch_card(
        self, guid: str, card: dict[str, Any], *, force_generation: bool = False
    ) -> dict[str, Any]:
        """Replace the card ``guid`` by ``card`` (the whole object: what is left out
        becomes empty on the server), as the server saved it.  The same whole card
        sent twice is the same card, so this is tried again like a read."""
        patched: dict[str, Any] = self._call(
            "PATCH",
            f"api/Cards/{_part(guid)}",
            _expect("card"),
            what=f"card {guid}",
            params={"forceGeneration": "true" if force_generation else "false"},
            payload=_without_nulls(card),
        )
        return patched

    def artwork(self, guid: str) -> bytes | None:
        """The artwork of the card ``guid`` as the server has it, None when it has none."""
        try:
            data: bytes = self._call(
                "GET",
                f"api/Cards/{_part(guid)}/export",
                _raw,
                what=f"artwork of card {guid}",
                params={"format": "Art"},
            )
        except NotFound:
            return None
        return data

    def upload_artwork(self, guid: str, data: bytes, filename: str = "art.png") -> None:
        """Send ``data`` as the artwork of the card ``guid`` (the server keeps it as
        its ``art.png``).  Tried again like a PATCH: the same file twice is one file."""
        suffix = Path(filename).suffix.lower()
        kind = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}.get(
            suffix, "application/octet-stream"
        )
        self._call(
            "POST",
            f"api/FileUpload/{_part(guid)}",
            _raw,
            what=f"artwork of card {guid}",
            files={"file": (filename, data, kind)},
        )

    # -- one request, tried again when it may be -----------------------------------------

    def _call(
        self,
        method: str,
        route: str,
        parse: _Parse,
        *,
        what: str,
        params: dict[str, str] | None = None,
        payload: Any = None,
        files: dict[str, tuple[str, bytes, str]] | None = None,
        unsure: str | None = None,
    ) -> Any:
        """``parse`` of the answer to ``method route``.  Without ``unsure`` the request
        may be repeated: every transient failure is tried again after the delays.  With
        it (a create) a request is repeated only when it cannot have reached the server
        (no connection was made); any other doubt raises :class:`Uncertain`, whose
        reason ends with ``unsure``."""
        url = urljoin(self.server, route)
        content = headers = None
        if payload is not None:
            content = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            headers = {"Content-Type": _JSON_TYPE}
        tries = 1 + len(self.retry_delays)
        failure: _Transient | None = None
        for number in range(tries):
            if number:
                self.pause(self.retry_delays[number - 1], failure)
            elif self.out_of_time():
                raise ServerError(self.host, None, self._late())
            try:
                limit = MAX_IMAGE_BYTES if parse is _raw else MAX_ANSWER_BYTES
                with deadline(self.time_left()), deadline(self._read_timeout):
                    answer = self._send(method, url, params, content, headers, files, limit)
                if answer.status >= 500:
                    raise _Transient(
                        answer.reason or "server error", sent=True, status=answer.status
                    )
                self._check_status(answer, what)
                return parse(answer)
            except _Transient as transient:
                if unsure is not None and transient.sent:
                    raise Uncertain(
                        self.host,
                        transient.status,
                        f"{transient.reason}; {unsure}",
                        finished=transient.answered,
                    ) from None
                if transient.final:
                    raise ServerError(self.host, transient.status, transient.reason) from None
                failure = transient
            except _Malformed as malformed:
                if unsure is not None:
                    raise Uncertain(
                        self.host, None, f"{malformed.reason}; {unsure}", finished=True
                    ) from None
                if not malformed.again:
                    raise ServerError(self.host, None, malformed.reason) from None
                failure = _Transient(malformed.reason, sent=True)
        assert failure is not None
        raise ServerError(
            self.host, failure.status, f"{failure.reason}, {tries} tr{'y' if tries == 1 else 'ies'}"
        )

    # -- time ---------------------------------------------------------------------------

    def time_left(self) -> float | None:
        """Seconds left before the command's deadline (0 once passed), None without one."""
        return None if self._ends is None else max(0.0, self._ends - time.monotonic())

    def out_of_time(self) -> bool:
        """Whether the command's deadline has passed."""
        left = self.time_left()
        return left is not None and left <= 0

    def pause(self, seconds: float, failure: _Transient | None = None) -> None:
        """Wait ``seconds`` before another try, unless the command's deadline would
        pass meanwhile: then stop now (a :class:`ServerError` saying so, and why the
        last try failed), rather than sleep into it."""
        left = self.time_left()
        if left is not None and seconds >= left:
            last = f" (the last try: {failure.reason})" if failure is not None else ""
            raise ServerError(self.host, None, self._late() + last)
        if seconds > 0:
            time.sleep(seconds)

    def _late(self) -> str:
        """What a command stopped by its deadline says: the bound and how to change it."""
        bound = f"{self._deadline:g} s" if self._deadline is not None else "its time"
        return (
            f"stopped: the command took its whole time limit ({bound} in all); give it "
            "more with --deadline SECONDS or deadline in [aminduna] of translator.toml"
        )

    def _send(
        self,
        method: str,
        url: str,
        params: dict[str, str] | None,
        content: bytes | None,
        headers: dict[str, str] | None,
        files: dict[str, tuple[str, bytes, str]] | None,
        limit: int,
    ) -> _Answer:
        """One try: the request, redirects on the same server followed, the whole
        answer read (within ``limit`` bytes).  Failures of the network are
        :class:`_Transient`; what the server clearly said is returned."""
        current = url
        for _ in range(MAX_REDIRECTS + 1):
            self.requests_sent += 1
            answered = False
            try:
                with self._http.stream(
                    method, current, params=params, content=content, headers=headers, files=files
                ) as response:
                    answered = True
                    if response.status_code in _REDIRECTS:
                        current = self._redirected(method, url, current, response)
                        params = None  # the new address carries its own query
                        continue
                    return _Answer(
                        response.status_code,
                        response.reason_phrase,
                        response.headers.get("content-type", ""),
                        self._body(response, limit),
                    )
            except httpx.HTTPError as error:
                raise self._transient(error, answered, cut=expired()) from None
        raise ServerError(
            self.host, None, f"more than {MAX_REDIRECTS} redirects; give the server's own address"
        )

    def _transient(self, error: httpx.HTTPError, answered: bool, *, cut: bool) -> Exception:
        """What a failure of httpx means: a :class:`_Transient` saying whether the
        request may have arrived (only a connection never made says it did not), or,
        for a request that could not be made at all, a :class:`ServerError`.  ``cut``:
        the try's deadline had passed (the whole answer's, or the command's)."""
        said = self._scrub(_first_line(error))
        late = self._cut(error, answered) if cut else None
        if late is not None:
            return late
        if isinstance(error, httpx.ConnectTimeout | httpx.PoolTimeout):
            limit = self._connect_timeout
            return _Transient(f"cannot connect (no answer within {limit:g} s)", sent=False)
        if isinstance(error, httpx.ConnectError | httpx.ProxyError):
            return _Transient(f"cannot connect ({said})", sent=False)
        reason = self._failure(error, answered, said)
        if reason is None:
            return ServerError(self.host, None, f"the request could not be made ({said})")
        return _Transient(reason, sent=True, answered=answered)

    def _cut(self, error: httpx.HTTPError, answered: bool) -> _Transient | None:
        """A try cut short by a deadline: the command's (no other try), or the whole
        answer's (``timeout``: a server too slow in all, however often it sends a
        byte); None for a failure that is not a time-out."""
        if not isinstance(error, httpx.TimeoutException):
            return None
        sent = not isinstance(error, httpx.ConnectTimeout | httpx.PoolTimeout)
        if self.out_of_time():
            return _Transient(self._late(), sent=sent, answered=answered, final=True)
        if not sent:
            return None  # said as a connection that could not be made
        return _Transient(
            f"the answer took longer than {self._read_timeout:g} s in all",
            sent=True,
            answered=answered,
        )

    def _failure(self, error: httpx.HTTPError, answered: bool, said: str) -> str | None:
        """How a request that may have arrived failed, or None for one never made."""
        limit = self._read_timeout
        if isinstance(error, httpx.ReadTimeout):
            if answered:
                return f"the answer stopped coming (nothing for {limit:g} s)"
            return f"no answer within {limit:g} s"
        where = "in the middle of the answer" if answered else "before answering"
        kinds: tuple[tuple[type[Exception] | tuple[type[Exception], ...], str], ...] = (
            (httpx.TimeoutException, "timed out while sending"),
            (
                (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError),
                f"the connection closed {where} ({said})",
            ),
            (httpx.DecodingError, f"the answer could not be decoded ({said})"),
            (httpx.NetworkError, f"network error ({said})"),
        )
        return next((text for kind, text in kinds if isinstance(error, kind)), None)

    def _redirected(
        self, method: str, original: str, current: str, response: httpx.Response
    ) -> str:
        """Where a redirect leads, if it stays on this server (``http`` may become
        ``https``, not the reverse) and keeps a write a write: a token sent elsewhere
        is given away, and a create turned into a GET is a create lost."""
        location = response.headers.get("location", "")
        target = urljoin(current, location)
        here, there = urlsplit(current), urlsplit(target)
        same_host = (here.hostname, here.port) == (there.hostname, there.port)
        scheme_ok = there.scheme == here.scheme or (here.scheme, there.scheme) == ("http", "https")
        if not (location and same_host and scheme_ok):
            raise ServerError(
                self.host,
                response.status_code,
                f"the server redirects to {_shown(target) or '(nowhere)'}, another server, "
                "which translator does not follow: give that server with --server if you "
                "trust it",
            )
        if method not in ("GET", "HEAD") and response.status_code not in _KEEP_METHOD:
            raise ServerError(
                self.host,
                response.status_code,
                f"the server redirects a {method} of {urlsplit(original).path} to "
                f"{there.path}, which would lose what was sent: give the server's own address",
            )
        return target

    def _body(self, response: httpx.Response, limit: int) -> bytes:
        """The whole body, refused past ``limit`` bytes (announced or read)."""
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise self._too_large(response.status_code, limit)
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > limit:
                raise self._too_large(response.status_code, limit)
            chunks.append(chunk)
        return b"".join(chunks)

    def _too_large(self, status: int, limit: int) -> _Malformed:
        """Not tried again (another try reads as much), and for a create uncertain:
        a 2xx that large may still have made the card."""
        return _Malformed(
            f"the answer ({status}) is larger than {limit >> 20} MB, far more "
            "than an Aminduna answer: is this the right server?",
            again=False,
        )

    def _check_status(self, answer: _Answer, what: str) -> None:
        """Raise what a non-2xx answer (below 500) means."""
        status = answer.status
        if 200 <= status < 300:
            return
        text = self._scrub(_server_text(answer))
        if status == 401:
            raise Unauthorized(
                self.host,
                status,
                f"not logged in, or the login expired: run translator login --server {self.server}",
            )
        if status == 403:
            raise Forbidden(self.host, status, text or "forbidden (your account lacks the right)")
        if status in (404, 410):
            raise NotFound(self.host, status, f"{what} not found")
        raise ServerError(self.host, status, text or answer.reason or "refused")

    def _scrub(self, text: str) -> str:
        """``text`` with any secret of this client masked: the server's words and
        the network's errors are not ours, and could echo one."""
        for secret in self._secrets:
            if secret:
                text = text.replace(secret, "***")
        return text


# -- answers -----------------------------------------------------------------------------


def _part(guid: str) -> str:
    """``guid`` as one segment of a path: nothing in it can climb to another route."""
    return quote(guid, safe="")


def _without_nulls(data: dict[str, Any]) -> dict[str, Any]:
    """The top-level values that are not None: Aminduna writes no nulls, and reads a
    missing key as one."""
    return {key: value for key, value in data.items() if value is not None}


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return (lines[0] if lines else "")[:_MAX_REASON_CHARS] or type(error).__name__


def _server_text(answer: _Answer) -> str:
    """The server's own words in an error answer, one line: a JSON string, a
    ``message`` (or a problem's ``title``), or plain text; nothing from a web page."""
    raw = answer.body.decode("utf-8", errors="replace").strip()
    if not raw:
        return ""
    text = raw
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        if raw.startswith("<"):  # an HTML page: a proxy's, not the server's words
            return ""
    else:
        if isinstance(data, str):
            text = data
        elif isinstance(data, dict):
            found = data.get("message", data.get("title"))
            text = found if isinstance(found, str) else ""
        else:
            text = ""
    line = " ".join(text.split())
    return line if len(line) <= _MAX_REASON_CHARS else line[: _MAX_REASON_CHARS - 1] + "…"


def _decoded(answer: _Answer) -> Any:
    """The JSON of an answer, or a :class:`_Malformed` worth another try."""
    try:
        data = json.loads(answer.body.decode("utf-8-sig"), parse_constant=_no_constant)
    except (ValueError, RecursionError):
        kind = answer.content_type.split(";")[0].strip() or "no type"
        raise _Malformed(
            f"the server's answer is not JSON ({len(answer.body)} bytes, {kind})", again=True
        ) from None
    if depth(data) > MAX_DEPTH:
        raise _Malformed(f"the server's answer is nested more than {MAX_DEPTH} deep", again=False)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _raw(answer: _Answer) -> bytes:
    return answer.body


def _expect(kind: str) -> _Parse:
    """The parser of an answer of ``kind``: its JSON, checked to be one."""

    def parse(answer: _Answer) -> Any:
        data = _decoded(answer)
        problem = _KINDS[kind](data)
        if problem:
            raise _Malformed(f"the server's answer is not {_NAMES[kind]} ({problem})", again=False)
        return data

    return parse


def _described(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number")


def _object_with_guid(value: Any) -> str | None:
    if not isinstance(value, dict):
        return _described(value)
    return None if isinstance(value.get("guid"), str) else "an object without a guid"


def _token(value: Any) -> str | None:
    if not isinstance(value, str):
        return _described(value)
    return None if _JWT_RE.fullmatch(value) else "a string that is not a JWT"


def _items(value: Any) -> str | None:
    if not isinstance(value, dict):
        return _described(value)
    items = value.get("items")
    if not isinstance(items, list):
        return "no list of items"
    if not all(isinstance(item, dict) for item in items):
        return "an item is not an object"
    return None


def _page(value: Any) -> str | None:
    problem = _items(value)
    if problem:
        return problem
    total = value.get("totalItems")
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        return "no totalItems count"
    return None


_KINDS: dict[str, Callable[[Any], str | None]] = {
    "card": _object_with_guid,
    "deck": _object_with_guid,
    "token": _token,
    "list": _items,
    "page": _page,
}
_NAMES = {
    "card": "a card",
    "deck": "a deck",
    "token": "a login token",
    "list": "a list",
    "page": "a page of search results",
}
