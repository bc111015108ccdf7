"""What a run keeps for the next one: the user's cache folder, and data read from files
kept as plain data beside it.

A lint of one card reads the glossaries of two languages (some 1,500 YAML nodes, about
60 ms even with LibYAML) before it looks at the card; kept from the last run they load
in a few milliseconds.  A kept value is only ever used for the very files it was made
from: its key holds the path and a digest of the bytes of each of them, the path, size
and modification time of the code that reads them (so that a changed reader, as in a
checkout, starts afresh), and the Python and package versions.

Nothing read from the cache can run code or hand the program a value of the wrong
type: a kept value is JSON, read by the size-checked reader (:mod:`translator.jsonfile`)
and built again from its declared type (:mod:`translator.plain`), so that a damaged,
foreign or hostile file is a value made afresh, never a traceback.  The folder must be
the user's own, as ssh wants its keys: a folder (or a file in it) that another user
owns or may write to is not used (one line says so, and how to fix it), and the files
are written readable by the user alone.  A cache that cannot be written only makes the
next run slower.  ``TRANSLATOR_CACHE=`` (empty) keeps nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from . import __version__, jsonfile, plain
from .atomic import write_file
from .textio import InputError, read_file

T = TypeVar("T")

#: Changes when what a kept value holds changes in a way the files' dates cannot tell.
CACHE_FORMAT = 2
#: Bytes of one kept value read back (the glossaries of a language are about 1 MB).
MAX_KEPT_BYTES = 64 << 20
#: Bytes of a record kept in an output folder (a build record, the preflight's proofs).
MAX_RECORD_BYTES = 256 << 20
#: The mode of every file and folder the cache makes: the user's alone.
PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700

#: Why the cache folder is not used (said once per process), by folder.
_REFUSED: dict[Path, str] = {}


def cache_directory() -> Path | None:
    """Where runs keep data for the next ones: ``$TRANSLATOR_CACHE`` (empty: nowhere),
    else ``$XDG_CACHE_HOME/translator`` or ``~/.cache/translator``; None when there
    is none or it is not the user's own (:func:`private_folder`)."""
    value = os.environ.get("TRANSLATOR_CACHE")
    if value is not None:
        folder = Path(value) if value else None
    else:
        base = os.environ.get("XDG_CACHE_HOME")
        try:
            folder = (Path(base) if base else Path.home() / ".cache") / "translator"
        except RuntimeError:  # no home directory
            folder = None
    return folder if folder is not None and private_folder(folder) else None


def private_folder(folder: Path) -> bool:
    """Whether ``folder`` may hold what the user's runs keep: missing (it is made
    ``0700`` when first written), or a folder the user owns that no one else may
    write to.  A refusal is said once, on standard error, with what to do."""
    if folder in _REFUSED:
        return False
    try:
        info = os.stat(folder)
    except FileNotFoundError:
        return True
    except OSError as error:
        return _refuse(folder, f"cannot be used ({error.strerror})")
    why = _not_private(info, "folder")
    return _refuse(folder, why) if why else True


def _not_private(info: os.stat_result, what: str) -> str | None:
    """Why a file or folder with ``info`` is not the user's own, or None."""
    if os.name == "nt":  # pragma: no cover - POSIX modes only
        return None
    if what == "folder" and not stat.S_ISDIR(info.st_mode):
        return "is not a folder"
    if what == "file" and not stat.S_ISREG(info.st_mode):
        return "is not a regular file"
    if info.st_uid != os.getuid():
        return "belongs to another user"
    if info.st_mode & 0o022:
        return "may be written by other users"
    return None


def _refuse(folder: Path, why: str) -> bool:
    _REFUSED[folder] = why
    print(
        f"translator: the cache folder {folder} {why}: nothing is kept there or read from "
        f"it (make it yours alone: chmod 700 {folder}; or set TRANSLATOR_CACHE to another "
        "folder)",
        file=sys.stderr,
    )
    return False


def read_private(path: Path, limit: int = MAX_KEPT_BYTES) -> bytes | None:
    """The bytes of a file of the cache folder, or None when there is none or it may
    not be trusted: not a regular file, larger than ``limit``, another user's or
    writable by others (a file someone else could have written is made afresh)."""
    try:
        data = read_file(path, limit, "cache file")
        info = os.stat(path)
    except (InputError, OSError):
        return None
    return None if _not_private(info, "file") else data


def write_private(path: Path, data: bytes) -> bool:
    """Write a file of the cache folder (``0600``, inside the folder, all at once);
    False when it cannot be written (the next run is only slower)."""
    folder = path.parent
    try:
        if not folder.is_dir():
            folder.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
        write_file(path, data, PRIVATE_FILE, within=folder)
    except OSError:
        return False
    return True


def file_identity(paths: Iterable[Path]) -> list[str]:
    """Each file's path, size and modification time (``-`` for one that is missing):
    enough to tell that code has changed, which nobody rewrites within a clock tick."""
    identity: list[str] = []
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            identity.append(f"{path}:-")
            continue
        identity.append(f"{path}:{info.st_size}:{info.st_mtime_ns}")
    return identity


def content_identity(paths: Iterable[Path]) -> list[str]:
    """Each file's path and a digest of its bytes (``-`` for one that cannot be read):
    a data file saved twice within a clock tick with the same size (an editor, a test)
    is still told apart, which its date and size would not do.  Reading is cheap; it
    is parsing that the cache saves."""
    identity: list[str] = []
    for path in paths:
        try:
            digest = hashlib.blake2b(read_file(path), digest_size=16).hexdigest()
        except InputError:
            digest = "-"
        identity.append(f"{path}:{digest}")
    return identity


def kept(
    kind: str,
    inputs: Iterable[Path],
    code: Iterable[Path],
    make: Callable[[], T],
    shape: Any,
) -> T:
    """``make()``, or what it returned in an earlier run from the same ``inputs`` (the
    same bytes) read by the same ``code`` (the same files).  ``kind`` names the value
    (``glossary-fr``): one file per kind is kept, the last one made; ``shape`` is the
    type of the value (``tuple[Glossary, list[Problem]]``), which what is read back
    must be (:func:`translator.plain.decode`)."""
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
    key = hashlib.sha256("\0".join(identity).encode("utf-8")).hexdigest().encode("ascii")
    path = directory / f"{kind}.json"
    stored = read_private(path) or b""
    head, _, payload = stored.partition(b"\n")
    if head == key + b" " + payload_digest(payload):
        try:
            value: T = plain.decode(json.loads(payload), shape)
            return value
        except (ValueError, RecursionError):  # foreign, or of another shape
            pass
    value = make()
    try:
        text = json.dumps(plain.encode(value), ensure_ascii=False, separators=(",", ":"))
    except (plain.Mismatch, ValueError):
        return value  # not plain data: not kept
    data = text.encode("utf-8")
    write_private(path, key + b" " + payload_digest(data) + b"\n" + data)
    (directory / f"{kind}.pickle").unlink(missing_ok=True)  # an older version's
    return value


def payload_digest(payload: bytes) -> bytes:
    """A kept file's digest of its own content, on its first line: a file damaged after
    it was written (a disk error, a hand edit, a program gone wrong) is made afresh,
    never read as something its inputs do not say (a glossary, spelling answers)."""
    return hashlib.blake2b(payload, digest_size=16).hexdigest().encode("ascii")


# -- records kept in folders others can write: sealed ------------------------------------
#
# A build's output folder is shared, committed, restored from a CI cache: what it keeps
# for the next build (the build record, the preflight's proofs and images' maxima, the
# converted artwork) could have been written by anyone.  Read back, a record decides
# that a file need not be made or checked again: a record edited to say "no problem"
# would make a build vouch for a PDF it never checked.  So every such record is sealed
# with a key that only the user's own runs know (in the private cache folder, made
# once): a record another hand wrote or changed does not verify, and is a record
# missing: the files are made and checked again.

#: The key's file in the cache folder.
SEAL_KEY = "seal.key"
_KEYS: dict[Path | None, bytes] = {}


def seal_key() -> bytes:
    """The key this user's runs seal records with: kept in the cache folder (``0600``
    in a folder of the user's own), made once; without a cache folder, one for this
    process only (a record is then trusted by no later run)."""
    directory = cache_directory()
    if directory in _KEYS:
        return _KEYS[directory]
    key = None
    if directory is not None:
        path = directory / SEAL_KEY
        key = read_private(path, 1024)
        if not key or len(key) < 32:
            fresh = os.urandom(32)
            key = fresh if write_private(path, fresh) else None
            again = read_private(path, 1024)  # another process may have made one first
            key = again if again and len(again) >= 32 else key
    _KEYS[directory] = key or os.urandom(32)
    return _KEYS[directory]


#: The key of a record's seal.
SEAL = "seal"


def sealed(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (a JSON object) with a ``seal`` that proves this user's runs wrote
    it: an HMAC of its canonical JSON (keys sorted, no spaces) under :func:`seal_key`.
    The record stays JSON anyone can read."""
    content = {key: value for key, value in document.items() if key != SEAL}
    return {**content, SEAL: _mac(content)}


def verified(document: Any) -> dict[str, Any] | None:
    """The record ``document`` without its seal when :func:`sealed` made it with this
    user's key; None when it has none, or was written or changed by another hand."""
    if not isinstance(document, dict) or not isinstance(document.get(SEAL), str):
        return None
    content = {key: value for key, value in document.items() if key != SEAL}
    return content if hmac.compare_digest(document[SEAL], _mac(content)) else None


def _mac(content: dict[str, Any]) -> str:
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return mac(canonical.encode("utf-8"))


def mac(data: bytes) -> str:
    """The seal of ``data`` under :func:`seal_key` (HMAC-SHA256, hex): what proves a
    file of a shared folder (a converted image) was written by this user's runs."""
    return hmac.new(seal_key(), data, hashlib.sha256).hexdigest()


def read_section(path: Path | None, header: tuple[str, int], section: str) -> dict:
    """The entries of ``section`` in the JSON record at ``path`` whose ``header`` (a
    key and the format it names) is this code's; {} for a record missing, damaged or
    of another format (the build record, the preflight's proofs and images' maxima:
    what a record lacks is made or checked again, never trusted).  Read by the one JSON
    reader (:func:`translator.jsonfile.loads` of :func:`translator.textio.read_file`),
    as its folder's own file (no link followed), sealed by this user's runs
    (:func:`verified`): a FIFO, a link to ``/dev/zero`` or elsewhere, JSON nested
    100,000 deep, a record written or edited by another hand is a record missing."""
    if path is None:
        return {}
    try:
        document = verified(jsonfile.read(path, MAX_RECORD_BYTES, "record", beneath=path.parent))
    except InputError:
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
        data = json.dumps(sealed(document), separators=(",", ":")).encode()
        write_file(path, data, 0o644, within=path.parent)
    except OSError:
        return False
    return True
