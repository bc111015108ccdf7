"""The record of files already proved: a print file whose bytes and preflight settings
have not changed keeps its findings, without a check.

A file's proof is kept under a key, the digest of the file's bytes (all of them: a byte
changed anywhere is a new file), of the settings it was checked with (the ink limit,
the render's resolution, the least resolution of images, the card size, which checks)
and of the checks' code (:func:`code_version`: the preflight's own sources and those of
what it reads with, the versions of pikepdf, Pillow and Ghostscript).  A build keeps
each file's proof in its build record (``checked``, beside the file's entry) and in its
cache folder (``BuildOptions.cache_dir``, else ``OUT/.cache``, with the converted
artwork: :class:`ProofRecord`, ``preflight-proofs.json``), where a card PDF written
again with the same bytes finds it though the build record forgot the file when it was
replaced (a ``--force`` build); nothing is kept in the user's own folders.  A file
checked again is checked whole, as if it were new; anything unreadable in the record
(a damaged or foreign file, an older format) is ignored.

A proof only ever vouches for the very bytes that were checked.  ``translator
preflight FILE`` of a file given by hand never reads it: it always checks.
"""

from __future__ import annotations

import hashlib
import shutil
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from ... import __version__
from ...cache import keep_newest, read_section

#: The proofs kept in a build's cache folder.
RECORD_NAME = "preflight-proofs.json"
#: Changes when the record's layout changes.
RECORD_FORMAT = 1
#: At most this many proofs kept there (the most recent).
RECORD_KEPT = 5000
_HEADER = ("format", RECORD_FORMAT)


def _findings(problems: object) -> bool:
    """Whether a record's entry reads as findings (a list of problems as dicts)."""
    return isinstance(problems, list) and all(isinstance(p, dict) for p in problems)


_HERE = Path(__file__).resolve().parent
#: The code whose changes can change a finding: the preflight's own modules, and the
#: modules it reads with (the painting reader, the geometry, the limits).
_CODE = (
    *sorted(_HERE.glob("*.py")),
    _HERE.parent / "pdfx.py",
    _HERE.parent / "geometry.py",
    _HERE.parent / "sizes.py",
    _HERE.parents[1] / "limits.py",
)


@lru_cache(maxsize=1)
def code_version() -> str:
    """A digest of what the checks are: their code's bytes, translator's version and
    those of pikepdf, Pillow and the Ghostscript found (its path, size and date)."""
    digest = hashlib.sha256(f"{RECORD_FORMAT} {__version__}".encode())
    for path in _CODE:
        digest.update(path.name.encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"-")
    for package in ("pikepdf", "pillow"):
        try:
            digest.update(f"{package} {metadata.version(package)}".encode())
        except metadata.PackageNotFoundError:  # pragma: no cover - a dependency
            digest.update(f"{package} ?".encode())
    gs = shutil.which("gs")
    if gs is not None:
        stat = Path(gs).resolve().stat()
        digest.update(f"gs {Path(gs).resolve()} {stat.st_size} {stat.st_mtime_ns}".encode())
    return digest.hexdigest()


def proof_key(path: Path, settings: str, digest: str | None = None) -> str:
    """What a check of ``path`` with ``settings`` depends on, as one digest: the file's
    bytes (``digest``, a digest of them the caller has already made, or read here),
    the settings and :func:`code_version` (a file that cannot be read gets a key of
    its own that nothing matches)."""
    key = hashlib.sha256(f"{code_version()}\n{settings}\n".encode())
    if digest is not None:
        key.update(f"bytes {digest}".encode())
        return key.hexdigest()
    try:
        key.update(f"bytes {hashlib.sha256(path.read_bytes()).hexdigest()}".encode())
    except OSError as error:
        key.update(f"unreadable {error}".encode())
    return key.hexdigest()


class ProofRecord:
    """Findings by proof key (:func:`proof_key`), kept in ``directory`` (a build's
    cache folder; None: nothing is kept)."""

    def __init__(self, directory: Path | None) -> None:
        self.path = None if directory is None else directory / RECORD_NAME
        self.entries: dict[str, list[dict]] = self._read()
        self.fresh: dict[str, list[dict]] = {}

    def _read(self) -> dict[str, list[dict]]:
        return {
            key: problems
            for key, problems in read_section(self.path, _HEADER, "proofs").items()
            if _findings(problems)
        }

    def findings(self, key: str) -> list[dict] | None:
        """The problems recorded for a check as ``key``, or None (never checked so)."""
        found = self.entries.get(key)
        return None if found is None else [dict(p) for p in found]

    def remember(self, key: str, problems: list[dict]) -> None:
        self.entries[key] = self.fresh[key] = problems

    def save(self) -> None:
        """Add what was proved to the record (another build's proofs since it was read
        kept too); a record that cannot be written only makes the next build check
        again."""
        if self.path is None or not self.fresh:
            return
        if keep_newest(self.path, _HEADER, "proofs", self.fresh, RECORD_KEPT, _findings):
            self.fresh = {}
