"""What every HTTP request of translator shares: how it names itself, how long it
waits, how often it tries again, and which hosts plain ``http://`` may name.

Two stages talk to Aminduna servers (the template set download of
:mod:`translator.typeset.arcmage.source`, the card sync of :mod:`translator.sync`):
one set of numbers here means that a slow or flaky server is treated the same way by
both, and that a server's operator sees one recognisable client.  Nothing is imported
here but the version, so that either stage can use these without loading the other.
"""

from __future__ import annotations

from . import __version__

__all__ = [
    "CONNECT_TIMEOUT",
    "LOOPBACK_HOSTS",
    "MAX_REDIRECTS",
    "READ_TIMEOUT",
    "RETRY_DELAYS",
    "USER_AGENT",
]

#: How translator names itself to a server: an operator who sees odd traffic can tell
#: whose it is and which version sent it.
USER_AGENT = f"translator/{__version__} (Arcmage card toolchain)"
#: Seconds to wait for a connection, and for each read of an answer: a server that
#: says nothing for this long is treated as unreachable (after the retries).
CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 30.0
#: Seconds to wait before each new try after a connection error, a timeout or a 5xx
#: answer: three retries, backing off, then the server counts as unreachable.
RETRY_DELAYS: tuple[float, ...] = (0.5, 1.0, 2.0)
#: Redirects followed (on the same host only).
MAX_REDIRECTS = 5
#: Hosts that ``http://`` may name: this computer, whose traffic no one can alter.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
