"""Incremental builds: what each output was made from, kept in the output directory.

A card PDF depends on its card file and its English source, its artwork, the
glossary (type lines and faction names are translated), the theme (templates, CSS,
symbols), its fonts, the ICC profile and the build settings.  Each is hashed; the
digest of a card's inputs is stored next to its output in ``.translator-build.json``.
A rebuild renders only the cards whose digest changed or whose PDF is gone, so that
changing one card re-renders one card.  ``--force`` ignores the record.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import astuple, dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__
from ..atomic import replacing
from ..cache import read_section
from ..cards.files import ArtworkMissing, OutsideLibrary, artwork_path
from ..cards.model import Card

if TYPE_CHECKING:
    from .build import BuildOptions

MANIFEST = ".translator-build.json"
#: The translator package (its Python code: what makes the outputs).
PACKAGE = Path(__file__).resolve().parents[1]
#: Changes when the meaning of a recorded digest changes.
FORMAT = 1


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


@lru_cache(maxsize=4096)
def _cached_digest(path: str, size: int, mtime: int) -> str:
    """A file's digest, remembered while its size and time stay the same."""
    return _file_digest(Path(path))


def file_digest(path: Path) -> str:
    try:
        return stamped(path).digest
    except OSError:
        return "missing"


@dataclass(frozen=True)
class Stamped:
    """A file's digest, of the bytes it had at this size and modification time."""

    path: str
    size: int
    mtime_ns: int
    digest: str


def stamped(path: Path) -> Stamped:
    """``path``'s digest with the size and time it is for (:func:`vouch` takes it to
    another process)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    return Stamped(*key, _VOUCHED.get(key) or _cached_digest(*key))


#: Digests another process of the build made (a worker, of the files it wrote), by
#: path, size and time: trusted as this process trusts its own (:func:`_cached_digest`).
_VOUCHED: dict[tuple[str, int, int], str] = {}
_VOUCHED_KEPT = 4096


def vouch(stamp: Stamped) -> None:
    """Take ``stamp``'s digest for its file while the file keeps that size and time: the
    build's own process need not read again every card PDF its workers wrote."""
    if len(_VOUCHED) >= _VOUCHED_KEPT:
        _VOUCHED.clear()
    _VOUCHED[(stamp.path, stamp.size, stamp.mtime_ns)] = stamp.digest


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
    """Output file name -> {"digest", "scale"} of what it was made from (empty when
    unknown)."""
    outputs = read_section(out / MANIFEST, ("format", FORMAT), "outputs")
    return {k: v for k, v in outputs.items() if isinstance(v, dict) and "digest" in v}


def write(out: Path, outputs: dict[str, dict]) -> None:
    """Record the outputs' digests (atomically: an interrupted build keeps the old)."""
    text = json.dumps({"format": FORMAT, "outputs": dict(sorted(outputs.items()))}, indent=1)
    try:
        if (out / MANIFEST).read_text(encoding="utf-8") == text:
            return  # unchanged: a build that changed nothing touches nothing
    except (OSError, ValueError):
        pass
    with replacing(out / MANIFEST, within=out) as temporary:
        temporary.write_text(text, encoding="utf-8")


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
