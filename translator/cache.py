"""What a run keeps for the next one: the user's cache folder, and data read from files
kept as a pickle beside it.

A lint of one card reads the glossaries of two languages (some 1,500 YAML nodes, about
60 ms even with LibYAML) before it looks at the card; kept from the last run they load
in a millisecond or two.  A kept value is only ever used for the very files it was made
from: its key holds the path and a digest of the bytes of each of them, the path, size
and modification time of the code that reads them (so that a changed reader, as in a
checkout, starts afresh), and the Python and package versions.  Anything unreadable
(an old format, a half-written file, a pickle of another version) is read afresh,
never trusted; a cache that cannot be written only makes the next run slower.

The folder is the user's own (``~/.cache/translator``), as pip's and mypy's are: a
pickle there is data the user's own runs wrote.  ``TRANSLATOR_CACHE=`` (empty) keeps
nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from . import __version__
from .atomic import write_file

T = TypeVar("T")

#: Changes when what a kept value holds changes in a way the files' dates cannot tell.
CACHE_FORMAT = 1


def cache_directory() -> Path | None:
    """Where runs keep data for the next ones: ``$TRANSLATOR_CACHE`` (empty: nowhere),
    else ``$XDG_CACHE_HOME/translator`` or ``~/.cache/translator``."""
    value = os.environ.get("TRANSLATOR_CACHE")
    if value is not None:
        return Path(value) if value else None
    base = os.environ.get("XDG_CACHE_HOME")
    try:
        return (Path(base) if base else Path.home() / ".cache") / "translator"
    except RuntimeError:  # no home directory
        return None


def file_identity(paths: Iterable[Path]) -> list[str]:
    """Each file's path, size and modification time (``-`` for one that is missing):
    enough to tell that code has changed, which nobody rewrites within a clock tick."""
    identity: list[str] = []
    for path in paths:
        try:
            stat = path.stat()
        except OSError:
            identity.append(f"{path}:-")
            continue
        identity.append(f"{path}:{stat.st_size}:{stat.st_mtime_ns}")
    return identity


def content_identity(paths: Iterable[Path]) -> list[str]:
    """Each file's path and a digest of its bytes (``-`` for one that cannot be read):
    a data file saved twice within a clock tick with the same size (an editor, a test)
    is still told apart, which its date and size would not do.  Reading is cheap; it
    is parsing that the cache saves."""
    identity: list[str] = []
    for path in paths:
        try:
            digest = hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
        except OSError:
            digest = "-"
        identity.append(f"{path}:{digest}")
    return identity


def kept(kind: str, inputs: Iterable[Path], code: Iterable[Path], make: Callable[[], T]) -> T:
    """``make()``, or what it returned in an earlier run from the same ``inputs`` (the
    same bytes) read by the same ``code`` (the same files).  ``kind`` names the value
    (``glossary-fr``): one file per kind is kept, the last one made."""
    directory = cache_directory()
    if directory is None:
        return make()
    identity = [
        str(CACHE_FORMAT),
        kind,
        __version__,
        sys.version,
        *content_identity(inputs),
        *file_identity(code),
    ]
    digest = hashlib.sha256("\0".join(identity).encode("utf-8")).hexdigest()
    path = directory / f"{kind}.pickle"
    try:
        stored = path.read_bytes()
    except OSError:
        stored = b""  # none yet
    if stored[:64] == digest.encode("ascii"):
        try:
            value: T = pickle.loads(stored[64:])
            return value
        except Exception:  # whatever a damaged file raises: made afresh
            pass
    value = make()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        write_file(path, digest.encode("ascii") + pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass  # a cache that cannot be written is only slower
    return value


def read_section(path: Path | None, header: tuple[str, int], section: str) -> dict:
    """The entries of ``section`` in the JSON record at ``path`` whose ``header`` (a
    key and the format it names) is this code's; {} for a record missing, damaged or
    of another format (the build record, the preflight's proofs and images' maxima:
    what a record lacks is made or checked again, never trusted)."""
    if path is None:
        return {}
    try:
        document = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    name, version = header
    if not isinstance(document, dict) or document.get(name) != version:
        return {}
    entries = document.get(section)
    return {str(key): value for key, value in entries.items()} if isinstance(entries, dict) else {}


def keep_newest(
    path: Path,
    header: tuple[str, int],
    section: str,
    fresh: dict,
    most: int,
    valid: Callable[[object], bool] = lambda _: True,
) -> bool:
    """Add ``fresh`` to the record at ``path`` (read again first: what another process
    kept since stays, its ``valid`` entries) and write it at once, its ``most`` newest
    entries; False when it cannot be written (a cache that cannot be written only
    makes the next check slower)."""
    kept = {
        key: value for key, value in read_section(path, header, section).items() if valid(value)
    }
    for key, value in fresh.items():
        kept.pop(key, None)
        kept[key] = value
    name, version = header
    document = {name: version, section: dict(list(kept.items())[-most:])}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, json.dumps(document, separators=(",", ":")).encode(), 0o644)
    except OSError:
        return False
    return True
