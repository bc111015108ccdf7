"""The official Arcmage template set, from a folder or an Aminduna server, verified.

``translator theme import-arcmage SOURCE`` starts here: :func:`open_source` turns SOURCE
into a :class:`TemplateSet`, a local folder shaped like ``wwwroot/arcmage`` of the
wtactics/arcmage repository whose every file has been checked.  The files a set has
are data: ``templates/arcmage/files.yaml`` (:func:`catalogue`).

SOURCE is either

* a folder: a clone of wtactics/arcmage (its root, ``Arcmage.Server.Api``, or the
  ``wwwroot/arcmage`` folder itself, or its ``CardTemplates`` folder), read in place;
* an address: the ``arcmage`` folder of an Aminduna server
  (``https://aminduna.arcmage.org/arcmage/``) or the server's root (``arcmage/`` is
  appended when the address has no ``CardTemplates/back.png``).  Only ``https://``:
  plain ``http://`` only from this computer (the tests' local server), since a template
  set fetched in clear could be swapped on the way.  Downloads are cached, per server,
  in ``$XDG_CACHE_HOME/translator/arcmage/<host>/``; a later run asks the server only
  for what changed (``If-None-Match``, ``If-Modified-Since``) and, when the server
  cannot be reached, uses a cache that holds every required file.  Each file's
  download (all its tries) ends within :data:`FILE_SECONDS`, the whole download
  within :data:`DOWNLOAD_SECONDS` (:func:`translator.web.deadline`): a server that
  drips its answers is cut off.

A template set is someone else's folder (or server): every file of a folder is read
without following a link below the folder the user named (``read_file`` of
:mod:`translator.textio` with ``beneath``): a link to a file or to a sub-folder, a
FIFO, a device is refused with its name.  What the import then uses is the bytes
verified here, never the source's paths opened again: :meth:`TemplateSet.stage`
copies them into a private folder, each compared with its verified sha256.

Every file is verified before use, because a wrong file would otherwise surface as a
broken card much later: a PNG decodes with Pillow, is RGB or RGBA and has the pixels of
its physical size at a print resolution; an SVG template parses within limits
(:func:`svg_problem`: entity declarations refused, 64 levels of elements, a value of
4 M characters, 16 MB) and has the text group; the font has a font signature; a
licence is UTF-8.  A required file missing or invalid is a :class:`SourceError` (one
line: the file or address, what is wrong, what to do); an optional one missing is
listed in :attr:`TemplateSet.missing_optional`.  Nothing is printed, except a progress
bar on a terminal: the command line prints the summary and :attr:`TemplateSet.notes`.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import posixpath
import re
import sys
import time
import xml.parsers.expat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

import httpx
import PIL
from PIL import Image

from ... import jsonfile
from ...atomic import replacing
from ...cache import cache_directory, payload_digest, read_private, write_private
from ...limits import MAX_CONFIG_BYTES, MAX_DEPTH, MAX_IMAGE_BYTES
from ...paths import OutsideError
from ...shipped import templates_root
from ...textio import InputError, read_file, read_text
from ...typeset.theme import FONT_SIGNATURES
from ...web import (
    CONNECT_TIMEOUT,
    LOOPBACK_HOSTS,
    MAX_REDIRECTS,
    READ_TIMEOUT,
    RETRY_DELAYS,
    USER_AGENT,
    deadline,
    expired,
    http_client,
    time_left,
)
from ...yamlfile import safe_load

__all__ = [
    "Catalogue",
    "FileSpec",
    "Kind",
    "SourceError",
    "TemplateSet",
    "catalogue",
    "check_file",
    "file_limit",
    "locate_folder",
    "open_source",
    "svg_problem",
]

#: Bytes of one file of the set, read or downloaded: the artwork images' limit (the
#: largest file of the set, the print border, is 2.8 MB).
MAX_SOURCE_FILE_BYTES = MAX_IMAGE_BYTES
#: Bytes of an SVG template (the official ones are 0.3 to 0.94 MB): an SVG is parsed,
#: and the layout builds a tree of it, so its limit is far below the images'.
MAX_SVG_BYTES = 16 << 20
#: Characters of one attribute value of an SVG template (a path's ``d``, an embedded
#: image's ``href``): the longest of the official set is 214,650 (an image).
MAX_SVG_ATTRIBUTE_CHARS = 4 << 20
#: Nesting of an SVG template's elements (the official ones: 5); the layout walks
#: outlines recursively.
MAX_SVG_DEPTH = MAX_DEPTH
#: Seconds one file of a download may take, all its tries together, and the whole
#: download (60 to 100 MB): a server that drips its answers is cut off, not waited for
#: (docs/printing.md states both).
FILE_SECONDS = 180.0
DOWNLOAD_SECONDS = 1800.0
#: Bytes of the record of a cached set (:data:`INDEX_NAME`, about 20 KB).
MAX_INDEX_BYTES = MAX_CONFIG_BYTES
# CONNECT_TIMEOUT, READ_TIMEOUT, RETRY_DELAYS (bound here: tests shorten it), MAX_REDIRECTS
# and LOOPBACK_HOSTS are translator.web's, shared with the card sync.
#: The file in a cached set that records, per file, its hash and the server's
#: validators (ETag, Last-Modified).
INDEX_NAME = ".translator-source.json"
#: Where the set is inside a clone of wtactics/arcmage.
CLONE_PATH = ("Arcmage.Server.Api", "wwwroot", "arcmage")
_INDEX_VERSION = 1
#: The answers that send elsewhere (304 is a 3xx that does not).
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_SVG_NS = "http://www.w3.org/2000/svg"
_MM_PER_INCH = 25.4
_WHAT_TO_GIVE = (
    "give a clone of wtactics/arcmage, its Arcmage.Server.Api/wwwroot/arcmage "
    "folder, or the address of an Aminduna server "
    "(https://aminduna.arcmage.org/arcmage/)"
)


class SourceError(InputError):
    """A template set that cannot be used: ``where`` (a file, a folder or an address)
    and a one-line message saying what is wrong and what to do."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(where, message)


# -- the catalogue of files ----------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """What a kind of file must be (``kinds`` in files.yaml)."""

    name: str
    #: ``png``, ``svg``, ``font`` or ``text``.
    format: str
    #: (width, height) in mm of a PNG.
    size_mm: tuple[float, float] | None = None
    #: The ``id`` of the ``<g>`` an SVG must have.
    group: str | None = None


@dataclass(frozen=True)
class FileSpec:
    """One file of the set: its path relative to the root, its kind, whether needed."""

    path: str
    kind: Kind
    required: bool


@dataclass(frozen=True)
class Catalogue:
    """``templates/arcmage/files.yaml``: every file of a template set, in fetch order."""

    factions: tuple[str, ...]
    types: tuple[str, ...]
    probe: str
    dpi: tuple[float, float]
    tolerance_mm: float
    files: tuple[FileSpec, ...]

    def spec(self, path: str) -> FileSpec:
        """The entry of ``path`` (a KeyError for a path the set does not have)."""
        for entry in self.files:
            if entry.path == path:
                return entry
        raise KeyError(path)


def catalogue_path() -> Path:
    """``templates/arcmage/files.yaml``, installed or in the source tree."""
    return templates_root() / "arcmage" / "files.yaml"


@cache
def catalogue() -> Catalogue:
    """The shipped list of files, patterns expanded, the probe first: it is data
    (maintained with the upstream set), so the code holds no file names."""
    data = safe_load(read_text(catalogue_path(), MAX_CONFIG_BYTES, "template catalogue"))
    kinds = {
        name: Kind(name, value["format"], _size_mm(value.get("size_mm")), value.get("group"))
        for name, value in data["kinds"].items()
    }
    factions, types = tuple(data["factions"]), tuple(data["types"])
    files: list[FileSpec] = []
    for required in (True, False):
        for entry in data["required" if required else "optional"]:
            for path in _expand(entry["path"], factions, types):
                files.append(FileSpec(path, kinds[entry["kind"]], required))
    probe = data["probe"]
    files.sort(key=lambda entry: entry.path != probe)  # stable: the rest keep their order
    low, high = data["png"]["dpi"]
    return Catalogue(
        factions,
        types,
        probe,
        (float(low), float(high)),
        float(data["png"]["tolerance_mm"]),
        tuple(files),
    )


def _size_mm(value: list[float] | None) -> tuple[float, float] | None:
    """``[width, height]`` of files.yaml as a pair (none for a kind that is not a PNG)."""
    return None if value is None else (float(value[0]), float(value[1]))


def _expand(pattern: str, factions: tuple[str, ...], types: tuple[str, ...]) -> list[str]:
    """Every path ``pattern`` names, factions outermost (a faction's files together)."""
    paths = [pattern]
    for name, values in (("{faction}", factions), ("{type}", types)):
        if name in pattern:
            paths = [path.replace(name, value) for path in paths for value in values]
    return paths


# -- the result ----------------------------------------------------------------------


@dataclass
class TemplateSet:
    """A verified template set in a local folder shaped like ``wwwroot/arcmage``."""

    #: The folder: the source itself (a folder source), or the cache (a download).
    root: Path
    #: SOURCE as given.
    origin: str
    #: Relative path -> sha256 (hex) of every file of the catalogue that is present.
    files: dict[str, str]
    #: The optional files that are not there (in catalogue order).
    missing_optional: list[str]
    #: What the caller may tell the user (the set was under ``arcmage/``, it came from
    #: the cache because the server could not be reached).
    notes: list[str] = field(default_factory=list)
    #: The folder below which no link is followed when a file is read (the folder
    #: the user named, which holds :attr:`root`; None: :attr:`root` itself).
    beneath: Path | None = None

    def path(self, relative: str) -> Path:
        """The local file of ``relative`` (``CardTemplates/gaian/creature.png``)."""
        return self.root / relative

    def has(self, relative: str) -> bool:
        """Whether the set holds ``relative`` (verified)."""
        return relative in self.files

    def read(self, relative: str) -> bytes:
        """The bytes of ``relative`` as they were verified: read again without
        following a link below the set (:func:`translator.textio.read_file` with
        ``beneath``, a regular file only) and compared with the sha256 taken when it
        was verified, so that a file swapped since (for a link, for another file) is
        refused, never used."""
        path = self.root / relative
        try:
            data = read_file(
                path, MAX_SOURCE_FILE_BYTES, "template file", beneath=self.beneath or self.root
            )
        except InputError as error:
            raise SourceError(str(path), f"{error.message}; {_WHAT_TO_GIVE}") from None
        if hashlib.sha256(data).hexdigest() != self.files[relative]:
            raise SourceError(
                str(path),
                "changed since it was verified (is something writing the template "
                "set?): import again once it is still",
            )
        return data

    def stage(self, folder: Path) -> TemplateSet:
        """The set copied into ``folder`` (a new, private folder of the caller's), each
        file the bytes :meth:`read` gives: what an import composes, parses and copies
        is then the verified set, however the source changes meanwhile and whatever
        links it holds.  The copy's files are the owner's alone (0600)."""
        for relative in self.files:
            data = self.read(relative)
            target = folder / relative
            target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with replacing(target, 0o600, within=folder) as temporary:
                temporary.write_bytes(data)
        return TemplateSet(
            folder, self.origin, dict(self.files), list(self.missing_optional), list(self.notes)
        )


def open_source(
    spec: str, *, cache_dir: Path | None = None, progress: bool | None = None
) -> TemplateSet:
    """The template set SOURCE names (a folder or an address, see the module's
    documentation), every file verified.

    ``cache_dir`` is where downloads go (default: the user's cache folder, one per
    server); ``progress`` shows a progress bar on stderr (default: when stderr is a
    terminal)."""
    if progress is None:
        progress = sys.stderr.isatty()
    try:
        if "://" in spec:
            return _open_url(spec, cache_dir, progress)
        return _open_folder(spec, progress)
    finally:
        _keep_verified()  # once for the set, whether it passed or stopped at a file


# -- verifying a file ----------------------------------------------------------------


def check_file(data: bytes, kind: Kind, entries: Catalogue | None = None) -> str | None:
    """What is wrong with ``data`` as a file of ``kind`` (a phrase to follow the file's
    name), or ``None`` when it is fine."""
    if kind.format == "png":
        return _png_problem(data, kind, entries or catalogue())
    if kind.format == "svg":
        return svg_problem(data, kind.group)
    if kind.format == "font":
        if data[:4] not in FONT_SIGNATURES:
            return "is not a font file (no TrueType or OpenType signature)"
        return None
    if kind.format == "text":
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return "is not UTF-8 text"
        return "is not text (it holds NUL bytes)" if b"\0" in data else None
    raise ValueError(f"files.yaml: unknown format {kind.format!r}")


def _png_problem(data: bytes, kind: Kind, entries: Catalogue) -> str | None:
    """A PNG's problem: not one, not RGB(A), not its physical size at a print
    resolution, damaged or cut short, or not decodable.  The size is checked before
    decoding, so that a huge image is refused without its pixels being unpacked; the
    chunks' checksums and the end chunk are checked apart (Pillow's ``verify``), since
    decoding stops once it has every row and would miss a cut-off end.

    Decoding a template is most of what verifying a set costs, and an import reads the
    same set again and again (into another folder, after an upgrade, from a cached
    download): the very bytes found fine for the same kind, catalogue and Pillow are
    not decoded again (:func:`_verified_before`)."""
    key = _verification_key(data, kind, entries)
    if _verified_before(key):
        return None
    problem = _decoded_png_problem(data, kind, entries)
    if problem is None:
        _remember_verified(key)
    return problem


#: The file of the user's cache folder that lists the template images found fine.
VERIFIED_FILE = "verified-template-images.txt"
#: How many it lists: the last ones found (a set is a few dozen).
MAX_VERIFIED = 4096


def _verification_key(data: bytes, kind: Kind, entries: Catalogue) -> str:
    """What a verification's answer depends on: the bytes, what the kind and the
    catalogue ask of them, and the Pillow that decodes them."""
    asked = [kind.format, kind.size_mm, entries.dpi, entries.tolerance_mm, PIL.__version__]
    return hashlib.sha256(json.dumps(asked).encode("utf-8") + b"\0" + data).hexdigest()


@dataclass
class _Verified:
    """The keys of the images found fine, and whether this process added any since the
    list was read or written."""

    keys: list[str]
    added: bool = False


@cache
def _verified_list(directory: Path | None) -> _Verified:
    """The images found fine, read once per process from the user's cache folder
    ``directory`` (none without one: :func:`translator.cache.cache_directory`).  The
    file's first line is its content's digest: a damaged file lists nothing."""
    stored = read_private(directory / VERIFIED_FILE) if directory is not None else None
    if stored:
        head, _, payload = stored.partition(b"\n")
        if head == payload_digest(payload):
            return _Verified(payload.decode("ascii", "replace").split()[-MAX_VERIFIED:])
    return _Verified([])


def _verified_before(key: str) -> bool:
    return key in _verified_list(cache_directory()).keys


def _remember_verified(key: str) -> None:
    """Add ``key`` to the list of this process (:func:`_keep_verified` writes it)."""
    verified = _verified_list(cache_directory())
    verified.keys.append(key)
    del verified.keys[:-MAX_VERIFIED]
    verified.added = True


def _keep_verified() -> None:
    """Write the list to the user's cache folder when this process added to it: once
    for a whole set (:func:`open_source`), not once per image.  A folder that cannot
    be written only makes the next import slower."""
    directory = cache_directory()
    verified = _verified_list(directory)
    if directory is None or not verified.added:
        return
    payload = "\n".join(verified.keys).encode("ascii")
    if write_private(directory / VERIFIED_FILE, payload_digest(payload) + b"\n" + payload):
        verified.added = False


def _decoded_png_problem(data: bytes, kind: Kind, entries: Catalogue) -> str | None:
    """:func:`_png_problem`'s checks, the image decoded."""
    try:
        with Image.open(io.BytesIO(data), formats=["PNG"]) as image:
            if image.mode not in ("RGB", "RGBA"):
                return f"is a {image.mode} image; a template is RGB or RGBA"
            if kind.size_mm is not None:
                problem = _size_problem(image.size, kind.size_mm, entries)
                if problem is not None:
                    return problem
            image.verify()
        with Image.open(io.BytesIO(data), formats=["PNG"]) as image:
            image.load()
    except Image.DecompressionBombError:
        return "is far too large an image for a card"
    except (OSError, SyntaxError, ValueError) as error:  # Pillow's ways of saying "bad"
        return f"is not a PNG image Pillow can read ({_first_line(error)})"
    return None


def _size_problem(
    pixels: tuple[int, int], size_mm: tuple[float, float], entries: Catalogue
) -> str | None:
    """Whether some resolution within the allowed range gives both sides of the image
    their physical size, within the tolerance: each side allows a range of resolutions,
    and they must meet."""
    low, high = entries.dpi
    tolerance = entries.tolerance_mm
    for count, millimetres in zip(pixels, size_mm, strict=True):
        low = max(low, count * _MM_PER_INCH / (millimetres + tolerance))
        high = min(high, count * _MM_PER_INCH / (millimetres - tolerance))
    if low <= high:
        return None
    width, height = size_mm
    return (
        f"is {pixels[0]} x {pixels[1]} pixels, which is not {width:g} x {height:g} mm "
        f"(±{tolerance:g} mm) at any resolution from {entries.dpi[0]:g} to "
        f"{entries.dpi[1]:g} dpi: is this the right file?"
    )


class _Refused(Exception):
    """An SVG construct refused while parsing (an entity declaration, a nesting or a
    value beyond the limits)."""


def file_limit(kind: Kind) -> int:
    """Bytes a file of ``kind`` may have, read or downloaded: an SVG's own limit,
    the images' for the rest."""
    return MAX_SVG_BYTES if kind.format == "svg" else MAX_SOURCE_FILE_BYTES


def svg_problem(data: bytes, group: str | None = None) -> str | None:
    """An SVG's problem: larger than :data:`MAX_SVG_BYTES`, not well-formed XML, not
    SVG, declaring entities (the way to make a small file expand to gigabytes),
    elements nested deeper than :data:`MAX_SVG_DEPTH`, an attribute value longer than
    :data:`MAX_SVG_ATTRIBUTE_CHARS`, or (``group`` given) without the ``<g
    id=group>``.  Parsed by expat as a stream, each limit checked as the parser gets
    there: no tree is built, and a file nested 100,000 deep or holding a 100 MB path
    stops at the first element too deep or the first value too long.  The one check
    of an SVG template: the source's and the layout's (:mod:`.layout` parses only
    bytes that pass it)."""
    if len(data) > MAX_SVG_BYTES:
        return (
            f"is {len(data):,} bytes; an SVG template is at most {MAX_SVG_BYTES:,} "
            "(the official ones are under 1 MB)"
        )
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    seen: dict[str, bool] = {"root": False, "svg": False, "group": group is None}
    depth = [0]

    def start(name: str, attributes: dict[str, str]) -> None:
        depth[0] += 1
        if depth[0] > MAX_SVG_DEPTH:
            raise _Refused(
                f"nests elements more than {MAX_SVG_DEPTH} deep (line "
                f"{parser.CurrentLineNumber}); a card template is a few levels deep"
            )
        for key, value in attributes.items():
            if len(value) > MAX_SVG_ATTRIBUTE_CHARS:
                raise _Refused(
                    f"has a {key.rpartition(' ')[2]}= of {len(value):,} characters (line "
                    f"{parser.CurrentLineNumber}); a value of a card template is at most "
                    f"{MAX_SVG_ATTRIBUTE_CHARS:,}"
                )
        if not seen["root"]:
            seen["root"], seen["svg"] = True, name == f"{_SVG_NS} svg"
        if name == f"{_SVG_NS} g" and attributes.get("id") == group:
            seen["group"] = True

    def end(_name: str) -> None:
        depth[0] -= 1

    def entity(*_: object) -> None:
        raise _Refused("declares an XML entity, which a template never does")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(data, True)
    except _Refused as refused:
        return str(refused)
    except xml.parsers.expat.ExpatError as error:
        return f"is not well-formed XML ({error})"
    if not seen["svg"]:
        return "is not an SVG image (its root element is not <svg>)"
    if not seen["group"]:
        return f'has no <g id="{group}"> (the group of the text elements): not a card template'
    return None


def _first_line(error: BaseException) -> str:
    return (str(error).splitlines() or [type(error).__name__])[0]


# -- a folder ------------------------------------------------------------------------


def locate_folder(spec: str) -> Path:
    """The set's root in the folder ``spec``: ``spec`` itself (it has ``CardTemplates``),
    its parent (``spec`` is ``CardTemplates``), or ``Arcmage.Server.Api/wwwroot/arcmage``
    (or the end of that path) inside it (a clone)."""
    folder = Path(spec).expanduser()
    if not folder.exists():
        raise SourceError(spec, f"no such folder; {_WHAT_TO_GIVE}")
    if not folder.is_dir():
        raise SourceError(spec, f"is a file, not a folder; {_WHAT_TO_GIVE}")
    probe = catalogue().probe
    candidates = [
        folder,
        *(folder.joinpath(*CLONE_PATH[start:]) for start in range(len(CLONE_PATH))),
    ]
    if folder.name == probe.split("/")[0]:  # the CardTemplates folder itself
        candidates.append(folder.parent)
    for candidate in candidates:
        if (candidate / probe).is_file():
            return candidate
    raise SourceError(
        spec,
        f"not an Arcmage template set: no {probe} in it nor in "
        f"{'/'.join(CLONE_PATH)}/; {_WHAT_TO_GIVE}",
    )


def _open_folder(spec: str, progress: bool) -> TemplateSet:
    """A folder source, read in place: every required file present (all those missing
    named at once, which is cheap), then every file verified in catalogue order, the
    first bad one reported.

    Each file is read without following a link below the folder named (a link to a
    file, a linked sub-folder, a FIFO or a device in the set is refused, naming it):
    a template set is someone else's folder, and a link in it would copy whatever it
    points at into the theme."""
    root = locate_folder(spec)
    given = Path(spec).expanduser()
    beneath = given if given in root.parents else root
    entries = catalogue()
    # A link is "present" (and refused when read), even one that leads nowhere.
    absent = [entry for entry in entries.files if not os.path.lexists(root / entry.path)]
    absent_required = [entry.path for entry in absent if entry.required]
    if absent_required:
        more = (
            f" (and {len(absent_required) - 1} more required files)"
            if len(absent_required) > 1
            else ""
        )
        raise SourceError(
            str(root / absent_required[0]),
            f"missing{more}: the template set is incomplete; {_WHAT_TO_GIVE}",
        )
    files: dict[str, str] = {}
    present = [entry for entry in entries.files if entry not in absent]
    with _bar(progress, len(present), "verifying") as step:
        for entry in present:
            step(entry.path)
            where = str(root / entry.path)
            try:
                data = read_file(
                    root / entry.path, file_limit(entry.kind), "template file", beneath=beneath
                )
            except InputError as error:
                raise SourceError(where, f"{error.message}; {_WHAT_TO_GIVE}") from None
            problem = check_file(data, entry.kind, entries)
            if problem is not None:
                raise SourceError(where, f"{problem}; replace it with the file of wtactics/arcmage")
            files[entry.path] = hashlib.sha256(data).hexdigest()
    return TemplateSet(
        root,
        spec,
        files,
        [entry.path for entry in absent],
        beneath=None if beneath == root else beneath,
    )


# -- an address ----------------------------------------------------------------------


def parse_address(spec: str) -> str:
    """The base address of ``spec``, ending in ``/``: ``https://``, or ``http://`` to
    this computer, no user name, query or ``..``."""
    try:
        parts = urlsplit(spec)
        host = parts.hostname
        parts.port  # noqa: B018 - a port out of range raises here
    except ValueError as error:
        raise SourceError(spec, f"not a valid address ({error})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        raise SourceError(spec, f"{scheme}:// addresses are not supported; {_WHAT_TO_GIVE}")
    if not host:
        raise SourceError(
            spec, "the address names no server; write it as https://aminduna.arcmage.org/arcmage/"
        )
    if scheme == "http" and host not in LOOPBACK_HOSTS:
        raise SourceError(
            spec,
            "plain http:// is refused (the files could be altered on "
            "the way); use https://, or a local folder",
        )
    if parts.username is not None or parts.password is not None:
        raise SourceError(
            spec,
            "an address with a user name is not supported: the "
            "template set is public; drop the user@ part",
        )
    if parts.query:
        raise SourceError(
            spec, "the address of a template set has no ?query; give the arcmage folder's address"
        )
    if ".." in parts.path.split("/"):
        raise SourceError(spec, "the address holds '..'; give the arcmage folder's address")
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    netloc = parts.netloc.lower()
    return f"{scheme}://{netloc}{path}"


def default_cache_dir(base: str) -> Path:
    """``$XDG_CACHE_HOME/translator/arcmage/<host>/`` (``~/.cache`` without it; the
    project's cache folder, ``$TRANSLATOR_CACHE`` if set), a folder per server: the
    port is part of the host's name."""
    from ...cache import cache_directory  # noqa: PLC0415 - the project's one rule

    directory = cache_directory()
    if directory is None:
        raise SourceError(
            base,
            "downloads need a cache folder, and there is none "
            "(TRANSLATOR_CACHE is empty, or no home folder): set "
            "TRANSLATOR_CACHE or XDG_CACHE_HOME to a folder",
        )
    parts = urlsplit(base)
    host = re.sub(r"[^A-Za-z0-9.-]", "_", parts.hostname or "server")
    if parts.port is not None:
        host += f"_{parts.port}"
    return directory / "arcmage" / host


def _cache_root(cache_dir: Path, base: str) -> Path:
    """The folder of ``base``'s files in ``cache_dir``: its path below the server
    (checked by :func:`parse_address` to hold no ``..``)."""
    segments = [
        s for s in posixpath.normpath(urlsplit(base).path).split("/") if s not in ("", ".", "..")
    ]
    return cache_dir.joinpath(*segments)


class _Unreachable(Exception):
    """The server did not answer (connection error, timeout, 5xx) after the retries."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(reason)
        self.url = url
        self.reason = reason


class _Transient(Exception):
    """An answer worth asking again for (5xx)."""


@dataclass
class _Outcome:
    """What fetching one file gave: ``new`` (downloaded, verified), ``same`` (304, the
    cached file kept) or ``missing`` (404, or a web page instead of the file)."""

    state: str
    sha256: str = ""
    reason: str = ""
    etag: str | None = None
    last_modified: str | None = None


class _Index:
    """The record of a cached set (``INDEX_NAME`` in its folder): per file, its hash
    when verified and the server's validators.  A damaged record is an empty one: the
    files are then fetched again."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.entries: dict[str, dict[str, Any]] = {}
        self.base = ""
        self.updated = ""
        try:
            data = jsonfile.read(
                root / INDEX_NAME, MAX_INDEX_BYTES, "template cache record", beneath=root
            )
        except InputError:  # none yet, or damaged: the files are fetched again
            return
        if (
            isinstance(data, dict)
            and data.get("version") == _INDEX_VERSION
            and isinstance(data.get("files"), dict)
        ):
            self.entries = {k: v for k, v in data["files"].items() if isinstance(v, dict)}
            self.base, self.updated = str(data.get("base", "")), str(data.get("updated", ""))

    def cached(self, path: str) -> str | None:
        """The sha256 of ``path``'s cached file when it is still the file recorded (a
        file changed or cut short since, or not a regular file of the cache, is not
        cached)."""
        entry = self.entries.get(path)
        if entry is None or not isinstance(entry.get("size"), int):
            return None
        try:
            data = read_file(
                self.root / path, MAX_SOURCE_FILE_BYTES, "cached template file", beneath=self.root
            )
        except InputError:
            return None
        if len(data) != entry["size"]:
            return None
        digest = hashlib.sha256(data).hexdigest()
        return digest if digest == entry.get("sha256") else None

    def record(self, path: str, url: str, outcome: _Outcome) -> None:
        self.entries[path] = {
            "url": url,
            "sha256": outcome.sha256,
            "size": (self.root / path).stat().st_size,
            "etag": outcome.etag,
            "last_modified": outcome.last_modified,
        }

    def save(self, base: str) -> None:
        """Write the record atomically (a cache that cannot be written is reported)."""
        self.base = base
        self.updated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        text = json.dumps(
            {
                "version": _INDEX_VERSION,
                "base": base,
                "updated": self.updated,
                "files": self.entries,
            },
            indent=1,
            sort_keys=True,
        )
        with replacing(self.root / INDEX_NAME, within=self.root) as temporary:
            temporary.write_text(text + "\n", encoding="utf-8")


def _open_url(spec: str, cache_dir: Path | None, progress: bool) -> TemplateSet:
    """A download into the cache, or the cache alone when the server cannot be reached
    and it holds every required file."""
    base = parse_address(spec)
    cache_dir = cache_dir if cache_dir is not None else default_cache_dir(base)
    entries = catalogue()
    headers = {"User-Agent": USER_AGENT}
    try:
        with (
            deadline(DOWNLOAD_SECONDS),
            http_client(
                headers=headers, read_timeout=READ_TIMEOUT, connect_timeout=CONNECT_TIMEOUT
            ) as client,
            _bar(progress, len(entries.files), "downloading") as step,
        ):
            return _download(client, spec, base, cache_dir, entries, step)
    except _Unreachable as failure:
        cached = _from_cache(spec, base, cache_dir, entries)
        if cached is None:
            raise SourceError(
                failure.url,
                f"the server cannot be reached ({failure.reason}), "
                f"and {cache_dir} holds no complete copy of the "
                "template set: check the address and the "
                "connection, or give a local clone of "
                "wtactics/arcmage",
            ) from None
        checked = _Index(cached.root).updated
        cached.notes.append(
            f"{spec}: the server cannot be reached ({failure.reason}); "
            f"using the copy cached in {cached.root}"
            + (f" (last checked {checked})" if checked else "")
        )
        return cached
    except OutsideError:  # a link in the cache: said as it is (remove the link)
        raise
    except OSError as error:  # the cache cannot be written
        where = error.filename if isinstance(error.filename, str) else str(cache_dir)
        raise SourceError(
            where,
            f"cannot write the cache ({error.strerror or error}); free "
            "some space or pass another cache folder",
        ) from None


def _download(
    client: httpx.Client,
    spec: str,
    base: str,
    cache_dir: Path,
    entries: Catalogue,
    step: Callable[[str], None],
) -> TemplateSet:
    """Every file of the catalogue, the probe first (it decides between the address as
    given and its ``arcmage/``), the rest in order; the record saved even when a file
    fails, so that what was fetched need not be fetched again."""
    notes: list[str] = []
    probe = entries.spec(entries.probe)
    step(probe.path)
    index = _Index(_cache_root(cache_dir, base))
    outcome = _fetch(client, base, probe, index, entries)
    if outcome.state == "missing":
        other = urljoin(base, "arcmage/")
        other_index = _Index(_cache_root(cache_dir, other))
        other_outcome = _fetch(client, other, probe, other_index, entries)
        if other_outcome.state == "missing":
            raise SourceError(
                urljoin(base, quote(probe.path)),
                f"not found ({outcome.reason}), nor under {other}: this is "
                "not the arcmage folder of an Aminduna server; give "
                "https://aminduna.arcmage.org/arcmage/ or a local clone of "
                "wtactics/arcmage",
            )
        base, index, outcome = other, other_index, other_outcome
        notes.append(f"{spec}: the template set is under {base}")
    files: dict[str, str] = {}
    missing: list[str] = []
    try:
        _keep(index, base, probe, outcome, files, missing)
        for entry in entries.files:
            if entry is probe:
                continue
            step(entry.path)
            outcome = _fetch(client, base, entry, index, entries)
            if outcome.state == "missing" and entry.required:
                raise SourceError(
                    urljoin(base, quote(entry.path)),
                    f"not found ({outcome.reason}): the server lacks a "
                    "required file of the template set; try again later, "
                    "or give a local clone of wtactics/arcmage",
                )
            _keep(index, base, entry, outcome, files, missing)
    finally:
        if files:
            index.save(base)
    return TemplateSet(index.root, spec, files, missing, notes)


def _keep(
    index: _Index,
    base: str,
    entry: FileSpec,
    outcome: _Outcome,
    files: dict[str, str],
    missing: list[str],
) -> None:
    """Note one file's outcome in the result and the record."""
    if outcome.state == "missing":
        missing.append(entry.path)
        index.entries.pop(entry.path, None)
        return
    files[entry.path] = outcome.sha256
    if outcome.state == "new":
        index.record(entry.path, urljoin(base, quote(entry.path)), outcome)


class _Late(Exception):
    """A file's download cut short by a deadline (its own or the whole download's)."""


def _fetch(
    client: httpx.Client, base: str, entry: FileSpec, index: _Index, entries: Catalogue
) -> _Outcome:
    """One file within :data:`FILE_SECONDS` (all its tries) and what is left of
    :data:`DOWNLOAD_SECONDS`: past either, a :class:`SourceError` saying which, not a
    retry (a server that drips its answer would only drip again)."""
    url = urljoin(base, quote(entry.path))
    with deadline(FILE_SECONDS):
        try:
            return _tries(client, url, entry, index, entries)
        except _Late:
            pass
    if expired():  # the whole download's deadline, outside this file's
        raise SourceError(
            url,
            f"the download of the template set took longer than {DOWNLOAD_SECONDS:g} s in "
            "all, and was stopped: the server is too slow; try again later, or give a "
            "local clone of wtactics/arcmage",
        )
    raise SourceError(
        url,
        f"took longer than {FILE_SECONDS:g} s to download, and was stopped: the server "
        "is too slow; try again later, or give a local clone of wtactics/arcmage",
    )


def _tries(
    client: httpx.Client, url: str, entry: FileSpec, index: _Index, entries: Catalogue
) -> _Outcome:
    """One file, asked for conditionally when its cached copy is intact, retried on
    connection errors and 5xx answers (an :class:`_Unreachable` after the last, a
    :class:`_Late` once the thread's deadline has passed)."""
    cached = index.cached(entry.path)
    headers: dict[str, str] = {}
    if cached is not None:
        record = index.entries[entry.path]
        if record.get("etag"):
            headers["If-None-Match"] = str(record["etag"])
        if record.get("last_modified"):
            headers["If-Modified-Since"] = str(record["last_modified"])
    reason = ""
    for delay in (0.0, *RETRY_DELAYS):
        if delay:
            left = time_left()
            time.sleep(delay if left is None else min(delay, left))
        try:
            return _attempt(client, url, entry, index, cached, headers, entries)
        except _Transient as transient:
            reason = str(transient)
        except httpx.TimeoutException:
            if expired():
                raise _Late from None
            reason = "timed out"
        except (httpx.TransportError, httpx.DecodingError) as error:
            reason = _first_line(error) or type(error).__name__
        if expired():
            raise _Late
    raise _Unreachable(url, f"{reason}, {1 + len(RETRY_DELAYS)} tries")


def _attempt(
    client: httpx.Client,
    url: str,
    entry: FileSpec,
    index: _Index,
    cached: str | None,
    headers: dict[str, str],
    entries: Catalogue,
) -> _Outcome:
    """One try at ``url``, following redirects on the same host."""
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        with client.stream("GET", current, headers=headers) as response:
            status = response.status_code
            if status in _REDIRECTS:
                current = _redirected(url, current, response.headers.get("location", ""))
                continue
            if status >= 500:
                raise _Transient(f"HTTP {status} {response.reason_phrase}".strip())
            if status == 304 and cached is not None:
                return _Outcome("same", cached)
            if status in (404, 410):
                return _Outcome("missing", reason=f"HTTP {status}")
            if status != 200:
                raise SourceError(
                    current,
                    f"the server refused it (HTTP {status} "
                    f"{response.reason_phrase}); try again later, or "
                    "give a local clone of wtactics/arcmage",
                )
            if _is_web_page(response, entry):
                return _Outcome("missing", reason="the server answered with a web page")
            digest = _store(response, current, entry, index.root, entries)
            return _Outcome(
                "new",
                digest,
                etag=response.headers.get("etag"),
                last_modified=response.headers.get("last-modified"),
            )
    raise SourceError(
        url, f"more than {MAX_REDIRECTS} redirects; give the address the server redirects to"
    )


def _redirected(original: str, current: str, location: str) -> str:
    """Where a redirect leads, if it stays on the same server (``http`` may become
    ``https``, not the reverse): files from another host are not what was asked for."""
    target = urljoin(current, location)
    here, there = urlsplit(current), urlsplit(target)
    same_host = (here.hostname, here.port) == (there.hostname, there.port)
    scheme_ok = there.scheme == here.scheme or (here.scheme, there.scheme) == ("http", "https")
    if not (location and same_host and scheme_ok):
        raise SourceError(
            original,
            f"the server redirects to {target or '(nowhere)'}, on "
            "another server, which translator does not follow: give "
            "that address if you trust it",
        )
    return target


def _is_web_page(response: httpx.Response, entry: FileSpec) -> bool:
    """Whether the answer is an HTML page where a file was asked for: the fallback page
    of a web application, which means "no such file"."""
    content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
    return content_type in (
        "text/html",
        "application/xhtml+xml",
    ) and not entry.path.lower().endswith((".html", ".htm"))


def _store(
    response: httpx.Response, url: str, entry: FileSpec, root: Path, entries: Catalogue
) -> str:
    """Stream the body to a temporary file beside ``entry``'s file in the cache
    ``root``, verify it, and rename it over that file (the cached file is replaced only
    by a good one); its sha256.  The body is at most :func:`file_limit` bytes (an SVG
    far less than an image), counted as it comes."""
    limit = file_limit(entry.kind)
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise SourceError(
            url,
            f"is {int(declared):,} bytes; a file of the template set of its kind is "
            f"at most {limit:,}: is this the right server?",
        )
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes(1 << 16):
        size += len(chunk)
        if size > limit:
            raise SourceError(url, f"is larger than {limit:,} bytes: is this the right server?")
        chunks.append(chunk)
    data = b"".join(chunks)
    del chunks
    problem = check_file(data, entry.kind, entries)
    if problem is not None:
        raise SourceError(
            url,
            f"{problem}; the server does not serve the template set "
            "as it should: give a local clone of wtactics/arcmage",
        )
    with replacing(root / entry.path, 0o644, within=root) as temporary:
        temporary.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def _from_cache(spec: str, base: str, cache_dir: Path, entries: Catalogue) -> TemplateSet | None:
    """The cached set of ``base`` (or of its ``arcmage/``), if it holds every required
    file intact; ``None`` otherwise."""
    for candidate in (base, urljoin(base, "arcmage/")):
        index = _Index(_cache_root(cache_dir, candidate))
        files = {
            entry.path: digest
            for entry in entries.files
            if (digest := index.cached(entry.path)) is not None
        }
        if all(entry.path in files for entry in entries.files if entry.required):
            missing = [entry.path for entry in entries.files if entry.path not in files]
            return TemplateSet(index.root, spec, files, missing)
    return None


# -- progress ------------------------------------------------------------------------


@contextlib.contextmanager
def _bar(wanted: bool, total: int, what: str) -> Iterator[Callable[[str], None]]:
    """A function to call before each file: a rich progress bar on stderr when
    ``wanted`` (it disappears when done), nothing otherwise."""
    if not wanted or not total:
        yield lambda _name: None
        return
    from rich.console import Console  # noqa: PLC0415 - only on a terminal
    from rich.progress import (  # noqa: PLC0415
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    bar = Progress(
        TextColumn("{task.description:<12}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[name]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(what, total=total, name="")
    started = [False]

    def step(name: str) -> None:
        if started[0]:
            bar.advance(task)
        started[0] = True
        bar.update(task, name=name)

    with bar:
        yield step
        bar.update(task, completed=total)
