"""An HTTP transport whose every wait ends at the calling thread's deadline.

httpx bounds each read, write and connection by its own time-out; none bounds a whole
answer, so a server that drips a byte a second holds a request for as long as it
likes.  This transport is httpx's own connection pool (httpcore) over a network
backend whose streams give each wait at most the time left before the thread's
deadline (:func:`translator.deadlines.deadline`), and raise the time-out of that wait once
it has passed.  Only public APIs of httpx and httpcore are used: ``BaseTransport``,
``ConnectionPool(network_backend=...)``, the ``NetworkBackend``/``NetworkStream``
interfaces and the exceptions both packages export under the same names.
"""

from __future__ import annotations

import ssl
import urllib.request
from collections.abc import Iterable, Iterator
from typing import Any

import httpcore
import httpx

from .deadlines import time_left

__all__ = ["DeadlineTransport"]


def _bounded(timeout: float | None, late: type[Exception]) -> float | None:
    """The time-out of a wait: the caller's, cut to the time left before the thread's
    deadline; ``late`` raised when none is left."""
    left = time_left()
    if left is None:
        return timeout
    if left <= 0:
        raise late("the deadline of the whole answer has passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    """A connection whose reads and writes end by the deadline."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _bounded(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _bounded(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        wait = _bounded(timeout, httpcore.ConnectTimeout)
        return _Stream(self._stream.start_tls(ssl_context, server_hostname, wait))

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    """The system's sockets (httpcore's ``SyncBackend``), each connection a
    :class:`_Stream`."""

    def __init__(self) -> None:
        self._backend = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        wait = _bounded(timeout, httpcore.ConnectTimeout)
        return _Stream(self._backend.connect_tcp(host, port, wait, local_address, socket_options))

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:  # pragma: no cover - translator connects over TCP
        wait = _bounded(timeout, httpcore.ConnectTimeout)
        return _Stream(self._backend.connect_unix_socket(path, wait, socket_options))

    def sleep(self, seconds: float) -> None:  # pragma: no cover - httpcore's retries
        self._backend.sleep(seconds)


#: httpcore's exceptions as httpx raises them: the same names in both packages.
_MAPPED = tuple(
    (getattr(httpcore, name), getattr(httpx, name))
    for name in (
        "ConnectTimeout",
        "ReadTimeout",
        "WriteTimeout",
        "PoolTimeout",
        "ConnectError",
        "ReadError",
        "WriteError",
        "ProxyError",
        "UnsupportedProtocol",
        "RemoteProtocolError",
        "LocalProtocolError",
        "TimeoutException",
        "NetworkError",
        "ProtocolError",
    )
)


def _mapped(error: Exception, request: httpx.Request) -> Exception:
    """The httpx exception of an httpcore one (the first class that matches, most
    precise first), for ``request``; any other exception as it is."""
    for ours, theirs in _MAPPED:
        if isinstance(error, ours):
            return theirs(str(error), request=request)
    return error


#: Every httpcore exception :func:`_mapped` knows.
_CORE_ERRORS = tuple(ours for ours, _ in _MAPPED)


class _Body(httpx.SyncByteStream):
    """An answer's body, read by the deadline, its errors httpx's."""

    def __init__(self, stream: Iterable[bytes], request: httpx.Request) -> None:
        self._stream = stream
        self._request = request

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield from self._stream
        except _CORE_ERRORS as error:
            raise _mapped(error, self._request) from None

    def close(self) -> None:
        close = getattr(self._stream, "close", None)
        if close is not None:
            close()


class DeadlineTransport(httpx.BaseTransport):
    """httpx's connection pool for HTTP/1.1 over :class:`_Backend`, verifying
    certificates as httpx does by default, through the proxy the environment names
    (``https_proxy``, ``no_proxy``... as :mod:`urllib.request` reads them), whose
    connections keep the deadline too."""

    def __init__(self) -> None:
        self._context = httpx.create_ssl_context()
        self._backend = _Backend()
        self._direct = httpcore.ConnectionPool(
            ssl_context=self._context, http1=True, http2=False, network_backend=self._backend
        )
        self._proxies = {
            scheme: address
            for scheme, address in urllib.request.getproxies().items()
            if scheme in ("http", "https") and address
        }
        self._through: dict[str, httpcore.HTTPProxy] = {}

    def _pool(self, url: httpx.URL) -> httpcore.ConnectionPool:
        """The direct pool, or the pool through the proxy for ``url``'s scheme."""
        address = self._proxies.get(url.scheme)
        if address is None or urllib.request.proxy_bypass(url.host):
            return self._direct
        if address not in self._through:
            proxy = httpx.URL(address if "://" in address else f"http://{address}")
            auth = (proxy.username.encode(), proxy.password.encode()) if proxy.username else None
            self._through[address] = httpcore.HTTPProxy(
                proxy_url=httpcore.URL(
                    scheme=proxy.raw_scheme,
                    host=proxy.raw_host,
                    port=proxy.port,
                    target=b"/",
                ),
                proxy_auth=auth,
                ssl_context=self._context,
                http1=True,
                http2=False,
                network_backend=self._backend,
            )
        return self._through[address]

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.SyncByteStream)
        core = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        try:
            answer = self._pool(request.url).handle_request(core)
        except _CORE_ERRORS as error:
            raise _mapped(error, request) from None
        assert isinstance(answer.stream, Iterable)
        return httpx.Response(
            status_code=answer.status,
            headers=answer.headers,
            stream=_Body(answer.stream, request),
            extensions=answer.extensions,
        )

    def close(self) -> None:
        self._direct.close()
        for pool in self._through.values():
            pool.close()
