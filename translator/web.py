"""What every HTTP request of translator shares: how it names itself, how long it
waits, how often it tries again, and which hosts plain ``http://`` may name.

Two stages talk to Aminduna servers (the template set download of
:mod:`translator.themes.arcmage.source`, the card sync of :mod:`translator.sync`):
one set of numbers here means that a slow or flaky server is treated the same way by
both, and that a server's operator sees one recognisable client.  Nothing is imported
here but the version, so that either stage can use these without loading the other
(the HTTP client and its transport, :mod:`.transport`, when a command asks for one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import __version__

# The thread's deadline, which every request made here waits within: part of this
# module's interface (translator.deadlines holds it, below the transport).
from .deadlines import deadline, expired, time_left

if TYPE_CHECKING:
    import httpx

__all__ = [
    "COMMAND_DEADLINE",
    "CONNECT_TIMEOUT",
    "LOOPBACK_HOSTS",
    "MAX_REDIRECTS",
    "READ_TIMEOUT",
    "RETRY_DELAYS",
    "USER_AGENT",
    "deadline",
    "expired",
    "http_client",
    "time_left",
]

#: How translator names itself to a server: an operator who sees odd traffic can tell
#: whose it is and which version sent it.
USER_AGENT = f"translator/{__version__} (Arcmage card toolchain)"
#: Seconds to wait for a connection, and for each read of an answer: a server that
#: says nothing for this long is treated as unreachable (after the retries).  The card
#: sync also bounds each whole answer by READ_TIMEOUT (:func:`deadline`).
CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 30.0
#: Seconds a whole command that talks to a server (``pull``, ``push``, ``login``) may
#: take, all its requests and their retries included: a server that answers every
#: request just in time must not keep a CI job for hours.  A pull of a whole search
#: (thousands of cards, four requests at a time) takes a few minutes.
COMMAND_DEADLINE = 900.0
#: Seconds to wait before each new try after a connection error, a timeout or a 5xx
#: answer: three retries, backing off, then the server counts as unreachable.
RETRY_DELAYS: tuple[float, ...] = (0.5, 1.0, 2.0)
#: Redirects followed (on the same host only).
MAX_REDIRECTS = 5
#: Hosts that ``http://`` may name: this computer, whose traffic no one can alter.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})


def http_client(
    *,
    headers: dict[str, str],
    read_timeout: float,
    connect_timeout: float,
) -> httpx.Client:
    """An HTTP client whose every connection, write and read waits at most until the
    calling thread's :func:`deadline`, besides its own time-outs; redirects are the
    caller's to follow (it checks where they lead)."""
    import httpx  # noqa: PLC0415 - only the commands that talk to a server need it

    from .transport import DeadlineTransport  # noqa: PLC0415

    return httpx.Client(
        headers=headers,
        timeout=httpx.Timeout(read_timeout, connect=connect_timeout),
        follow_redirects=False,
        transport=DeadlineTransport(),
        trust_env=False,  # the transport reads the proxy settings itself
    )
