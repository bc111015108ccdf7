"""Incremental builds: what each output was made from, kept in the output directory.

A card PDF depends on its card file and its English source, its artwork, the
glossary (type lines and faction names are translated), the theme (templates, CSS,
symbols), its fonts, the ICC profile and the build settings.  Each is hashed; the
digest of a card's inputs is stored next to its output in ``.translator-build.json``.
A rebuild renders only the cards whose digest changed or whose PDF is gone, so that
changing one card re-renders one card.  ``--force`` ignores the record.

The record also keeps the digest of each output's own bytes as they were written
(``output``): a file is reused only while it is still what was built (:func:`intact`),
so that a PDF of another card copied over a card's PDF, a deck or a preview swapped,
is made again rather than vouched for as "up to date" (its preflight then is of the
bytes made).  What a record holds is read as untrusted input (:func:`read`): an entry
of another shape is an entry missing, and its file is made again.
"""

from __future__ import annotations

import hashlib
import json
import math
import stat
from collections.abc import Iterable
from dataclasses import astuple, dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__
from ..atomic import replacing
from ..cache import MAX_RECORD_BYTES, read_section, sealed
from ..cards.files import ArtworkMissing, OutsideLibrary, artwork_path
from ..cards.model import Card
from ..limits import MAX_PDF_BYTES
from ..paths import clear_odd
from ..textio import InputError, read_file

if TYPE_CHECKING:
    from .options import BuildOptions

MANIFEST = ".translator-build.json"
#: The translator package (its Python code: what makes the outputs).
PACKAGE = Path(__file__).resolve().parents[1]
#: Changes when the meaning of a recorded digest changes (2: each output's own digest).
FORMAT = 2
#: What :func:`file_digest` says of a file it cannot read (missing, not a regular file,
#: larger than :data:`~translator.limits.MAX_PDF_BYTES`): no output is ever recorded so.
MISSING = "missing"


def _file_digest(path: Path) -> str:
    """The digest of a regular file's bytes, read by the size-checked reader: a FIFO
    or a link to ``/dev/zero`` where an output or an input was is :data:`MISSING`,
    never a hang or an endless read."""
    try:
        return hashlib.sha256(read_file(path, MAX_PDF_BYTES, "file")).hexdigest()
    except InputError:
        return MISSING


@lru_cache(maxsize=4096)
def _cached_digest(path: str, size: int, mtime: int, inode: int, ctime: int) -> str:
    """A file's digest, remembered while it stays the same file (:class:`Stamped`)."""
    return _file_digest(Path(path))


def file_digest(path: Path) -> str:
    """The digest of ``path``'s bytes (:func:`stamped`), :data:`MISSING` when it cannot
    be read."""
    try:
        return stamped(path).digest
    except OSError:
        return MISSING


@dataclass(frozen=True)
class Stamped:
    """A file's digest, of the bytes it had as this file (its inode) at this size,
    modification time and change time.  The change time is the system's, set by any
    write or rename and by no one's choice: a file copied over another with its time
    kept (``cp -p``, ``touch -r``), even of the same size, is another file here."""

    path: str
    size: int
    mtime_ns: int
    inode: int
    ctime_ns: int
    digest: str

    @property
    def key(self) -> tuple[str, int, int, int, int]:
        return (self.path, self.size, self.mtime_ns, self.inode, self.ctime_ns)


def stamped(path: Path) -> Stamped:
    """``path``'s digest with the file it is for (:func:`vouch` takes it to another
    process); an :class:`OSError` when it is missing or not a regular file."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise OSError(f"{path}: not a regular file")
    key = (str(path), info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns)
    return Stamped(*key, _VOUCHED.get(key) or _cached_digest(*key))


#: Digests another process of the build made (a worker, of the files it wrote), by
#: :attr:`Stamped.key`: trusted as this process trusts its own (:func:`_cached_digest`).
_VOUCHED: dict[tuple[str, int, int, int, int], str] = {}
_VOUCHED_KEPT = 4096


def vouch(stamp: Stamped) -> None:
    """Take ``stamp``'s digest for its file while it stays that file: the build's own
    process need not read again every card PDF its workers wrote."""
    if len(_VOUCHED) >= _VOUCHED_KEPT:
        _VOUCHED.clear()
    _VOUCHED[stamp.key] = stamp.digest


def intact(out: Path, name: str, entry: object, inputs: str) -> bool:
    """Whether the file ``name`` of ``out`` is still what the build record's ``entry``
    says was built from inputs of digest ``inputs``: the one decision of every reuse
    (card PDFs, decks, sheets, previews, the back).  The entry's inputs are those, and
    the file is a regular file there (not a link: :func:`write` and the outputs'
    writers never make one), whose bytes have the digest recorded when it was written
    (``output``): another card's PDF copied over it, with its time kept or not, is
    not.  Hashing an output costs about a millisecond per card PDF, once per process
    (:func:`stamped`), and the preflight reads the same digest."""
    if not isinstance(entry, dict) or entry.get("digest") != inputs:
        return False
    path = out / name
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return False
    except OSError:
        return False
    recorded = entry.get("output")
    return isinstance(recorded, str) and recorded != MISSING and recorded == file_digest(path)


def tree_digest(paths: Iterable[Path]) -> str:
    """One digest of files and of every file under directories (names and contents)."""
    digest = hashlib.sha256()
    for root in paths:
        inside = root.resolve()
        files = (
            sorted(p for p in root.rglob("*") if p.is_file() and p.resolve().is_relative_to(inside))
            if root.is_dir()
            else [root]
        )
        for path in files:
            if "__pycache__" in path.parts or path.suffix == ".pyc":
                continue
            digest.update(str(path).encode("utf-8"))
            digest.update(file_digest(path).encode("ascii"))
    return digest.hexdigest()


@lru_cache(maxsize=1)
def code_digest() -> str:
    """translator's own code and the renderer's version: a PDF made by other code is
    made again (a version number alone would miss a change not yet released)."""
    return f"{__version__} {metadata.version('weasyprint')} {tree_digest([PACKAGE])}"


def shared_digest(
    theme_dirs: Iterable[Path],
    fonts: Iterable[Path],
    glossary_files: Iterable[Path],
    profile_sha256: str,
    settings: tuple,
) -> str:
    """What every card of a build depends on alike."""
    digest = hashlib.sha256(f"{FORMAT}".encode())
    for part in (
        code_digest(),
        tree_digest(theme_dirs),
        tree_digest(fonts),
        tree_digest(glossary_files),
        profile_sha256,
        repr(settings),
    ):
        digest.update(part.encode("utf-8"))
    return digest.hexdigest()


def card_digest(card: Card, lang: str, shared: str) -> str:
    """What one card's PDF depends on: the shared inputs, its files and its artwork."""
    digest = hashlib.sha256(shared.encode("ascii"))
    digest.update(lang.encode("utf-8"))
    for version in (card.source, card.version(lang)):
        if version is not None:
            digest.update(file_digest(Path(version.path)).encode("ascii"))
    image = safe_artwork(card)
    if image is not None:
        digest.update(file_digest(image).encode("ascii"))
    return digest.hexdigest()


def safe_artwork(card: Card) -> Path | None:
    """The artwork file of ``card`` if it may be read (:func:`artwork_path`), else None
    (``cards check`` reports why; the build never opens it)."""
    if card.source is None:
        return None
    try:
        return artwork_path(card.source)
    except ArtworkMissing as missing:
        return missing.path  # inside the library: the build says it is missing
    except OutsideLibrary:
        return None


def read(out: Path) -> dict[str, dict]:
    """Output file name -> its entry: ``digest`` (of what it was made from), ``output``
    (of its bytes as written), for a card PDF ``scale``, ``overflow``, ``warnings``,
    ``min_size``, and ``checked`` (its preflight).  Empty when unknown.  The record is
    read by the one JSON reader (:func:`translator.cache.read_section`: a FIFO, a link
    to ``/dev/zero``, JSON nested 100,000 deep or not UTF-8 is a record missing), and
    an entry of another shape (:func:`_valid`) is an entry missing: its file is made
    again, never a traceback."""
    outputs = read_section(out / MANIFEST, ("format", FORMAT), "outputs")
    return {name: entry for name, entry in outputs.items() if _valid(name, entry)}


def _number(value: object, low: float, high: float) -> bool:
    """A JSON number (not ``true``) from ``low`` to ``high``."""
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and low <= value <= high
    )


def valid_scale(value: object) -> bool:
    """A scale as a record keeps it (a card's text, an element): a JSON number in
    (0, 1]."""
    return _number(value, 0.0, 1.0) and value != 0


def _valid(name: str, entry: object) -> bool:
    """Whether a record's entry has the shape this code writes: a name of a file in
    the output folder (or one of its folders of previews), digests as text, a card's
    scale, sizes and warnings of their types.  (``checked`` is read by the preflight,
    which checks its findings itself: :func:`.preflight.record.valid_findings`.)"""
    parts = name.split("/")
    if (
        not isinstance(entry, dict)
        or len(parts) > 2
        or any(part in ("", ".", "..") for part in parts)
        or "\\" in name
        or not isinstance(entry.get("digest"), str)
        or not isinstance(entry.get("output"), str)
    ):
        return False
    checks = (
        ("scale", valid_scale),
        ("overflow", lambda v: v is None or _number(v, 0.0, math.inf)),
        ("min_size", lambda v: v is None or _number(v, 0.0, math.inf)),
        ("warnings", lambda v: isinstance(v, list) and all(isinstance(w, str) for w in v)),
        ("checked", lambda v: isinstance(v, dict)),
    )
    return all(key not in entry or check(entry[key]) for key, check in checks)


def write(out: Path, outputs: dict[str, dict]) -> None:
    """Record the outputs' digests (atomically: an interrupted build keeps the old).
    What stands at the record's name and is not a regular file (a link, a FIFO, a
    device) is a damaged record: replaced, never read nor written through."""
    path = out / MANIFEST
    # Sealed: a record only this user's runs wrote is read back (cache.verified).
    record = sealed({"format": FORMAT, "outputs": dict(sorted(outputs.items()))})
    data = json.dumps(record, indent=1).encode("utf-8")
    try:  # the folder's own file (a link with the same text is replaced all the same)
        if read_file(path, MAX_RECORD_BYTES, "build record", beneath=out) == data:
            return  # unchanged: a build that changed nothing touches nothing
    except InputError:
        pass
    clear_odd(path)
    with replacing(path, within=out) as temporary:
        temporary.write_bytes(data)


def settings_key(options: BuildOptions) -> tuple:
    """The build settings that change an output (not where it goes, nor parallelism)."""
    size = options.size
    return (
        astuple(size),
        options.floor,
        options.allow_overflow,
        options.ink_limit,
        options.min_size,
        options.shrink_floor,
    )
