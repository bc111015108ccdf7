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
(a damaged or foreign file, an older format, a FIFO or a link to a device, JSON nested
too deep, a finding of another shape: :func:`valid_findings`) is ignored, and the
record written again in its place.

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
from ...limits import MAX_PDF_BYTES
from ...paths import clear_odd
from ...textio import InputError, read_file

#: The proofs kept in a build's cache folder.
RECORD_NAME = "preflight-proofs.json"
#: Changes when the record's layout changes.
RECORD_FORMAT = 1
#: At most this many proofs kept there (the most recent).
RECORD_KEPT = 5000
_HEADER = ("format", RECORD_FORMAT)


#: A finding as recorded: :class:`.report.Problem`'s fields and their types.
_FIELDS = {"path": str, "page": int, "card": str, "code": str, "severity": str, "message": str}
_SEVERITIES = frozenset({"error", "warning"})


def valid_findings(problems: object) -> bool:
    """Whether a record's entry reads as findings: a list of problems, each a dict of
    exactly :class:`.report.Problem`'s fields with their types (a page is a number, not
    ``true``) and a known severity.  Anything else (a number, a list of lists, a
    severity the report would not count) is a proof missing: the file is checked
    again, never a ``TypeError``, never a finding that passes for what it is not."""
    return isinstance(problems, list) and all(_finding(p) for p in problems)


def _finding(problem: object) -> bool:
    return (
        isinstance(problem, dict)
        and problem.keys() == _FIELDS.keys()
        and all(type(problem[name]) is kind for name, kind in _FIELDS.items())
        and problem["severity"] in _SEVERITIES
    )


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
        data = read_file(path, MAX_PDF_BYTES, "PDF")
    except InputError as error:
        key.update(f"unreadable {error}".encode())
    else:
        key.update(f"bytes {hashlib.sha256(data).hexdigest()}".encode())
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
            if valid_findings(problems)
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
        clear_odd(self.path)  # a link or a FIFO in its place: a record made anew
        if keep_newest(self.path, _HEADER, "proofs", self.fresh, RECORD_KEPT, valid_findings):
            self.fresh = {}
