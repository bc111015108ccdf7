"""PDF/X-4 for every print file: its labels, its output intent, black that overprints.

Every PDF translator hands to a printer (card, card back, deck, print-and-play sheet)
goes through :func:`finish`, which makes it a PDF/X-4 file as a print shop's workflow
(Acrobat's preflight, callas pdfToolbox, a RIP) reads it:

* **the labels**: ``GTS_PDFXVersion`` (``PDF/X-4``), ``Trapped`` (``/False``: nobody
  trapped the file, the RIP may), ``CreationDate`` and ``ModDate`` in the document
  info, and the same in an XMP packet on the catalog (``pdfxid:GTS_PDFXVersion``,
  ``pdf:Trapped``, ``xmp:CreateDate``, ``xmp:ModifyDate``, title, producer, document
  and instance ids), the two agreeing as PDF/X wants;
* **the output intent** (:func:`output_condition`): the printing condition the CMYK
  numbers are made for, by its *registered* name when the profile characterises one
  of the ICC registry (``CGATS TR 001`` for Ghostscript's SWOP profile, ``FOGRA39``
  for ISO Coated v2 ...: ``templates/print/output-conditions.yaml``), else
  ``Custom``; the profile is embedded either way;
* **black that overprints** (:func:`overprint_black`, card pages and the back only:
  decks and sheets copy those pages): text and thin rules in pure black (DeviceCMYK
  ``0 0 0 1``) get an ExtGState ``/OP true /op true /OPM 1``, so a RIP prints the
  black over the ground instead of knocking the ground out under it (a white halo
  round every letter when the plates misregister).

Why PDF/X-4 and not PDF/X-1a everywhere: X-1a forbids transparency and wants PDF 1.3
(X-1a:2001) without ICC-based colour; a theme may use opacity (WeasyPrint writes soft
masks and transparency groups for it) and nothing here flattens transparency, so X-1a
could be claimed only file by file after proving there is none.  X-4 allows both, is
what current workflows (the Adobe PDF Print Engine, every RIP of the last decade)
expect, and one label for every file means one set of rules to meet.

Dates are the build's time (UTC), or ``SOURCE_DATE_EPOCH`` when it is set, as
reproducible-build tools do: then the document ids derive from the file's title and
page labels and the trailer's /ID from its content (:func:`reproducible`), so that
the same inputs make the same bytes.  The incremental build keys on inputs, not on
file bytes, so real dates cost no rebuild.

The overprint needs to know what is under the black: black over a ground of C+M+Y
above ``ink_limit - 100`` % would exceed the total ink the printer accepts, and black
over an image (artwork: unknown inks) could too, so those keep knocking out.
:class:`_Painter` follows the page's painting (paths, clips, images, text) closely
enough to say which flat colour lies under a point.  The same reading finds small
white text knocked out of several inks (:func:`knockouts`) and small light text on a
darker ground (reversed text), two preflight warnings (:class:`TextCheck`).
"""

from __future__ import annotations

import binascii
import contextlib
import copy
import datetime as dt
import hashlib
import io
import itertools
import math
import os
import re
import statistics
import uuid
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property, lru_cache
from html import escape
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar

import pikepdf
import yaml
from PIL import Image, ImageCms

from .. import __version__
from ..errors import InvalidValue
from ..shipped import templates_root
from ..yamlfile import safe_load
from .geometry import IDENTITY, Box, Matrix, Point, apply, multiply
from .profiles import INK_LIMIT, Profile, ProfileError

PDFX_VERSION = "PDF/X-4"
"""What every print file claims to be (``GTS_PDFXVersion``)."""

MAX_PDF_VERSION = "1.6"
"""The newest PDF version a PDF/X-4 file may declare (ISO 15930-7)."""

CUSTOM = "Custom"
"""The OutputConditionIdentifier of a profile that characterises no registered
condition (its embedded profile says everything)."""

SMALL_TEXT_PT = 8.0
"""White text smaller than this, knocked out of several inks, misregisters visibly:
its strokes are a few tenths of a millimetre, about what the plates may be off."""

INK_PRESENT = 0.10
"""An ink counts in a ground when it is above this share (10 %): a lighter tint's
misregistration is not seen."""

RULE_MAX_PT = 1.0
"""A black fill narrower than this (or a black stroke this wide, at most) is a rule:
it overprints like text.  Wider black areas keep knocking out (a solid black over art
would show the art through it, and add its ink)."""

SOURCE_DATE_EPOCH = "SOURCE_DATE_EPOCH"
_NAMESPACE = uuid.UUID("5f1c3e58-6a53-4c29-9b1e-6e0c9d5a2b7e")
"""Namespace of the document ids made from a file's title (reproducible builds)."""


def registry_path() -> Path:
    """The registry of printing conditions: ``templates/print/output-conditions.yaml``
    (inside the package when installed)."""
    return templates_root() / "print" / "output-conditions.yaml"


# ----------------------------------------------------------------------- output intent


@dataclass(frozen=True)
class Condition:
    """An output intent's description of the printing condition."""

    #: OutputConditionIdentifier: the registered name, or :data:`CUSTOM`.
    identifier: str
    #: RegistryName (None for :data:`CUSTOM`).
    registry: str | None
    #: OutputCondition: a readable description.
    condition: str
    #: Info: the profile's own description.
    info: str


@dataclass(frozen=True)
class _Entry:
    identifier: str
    condition: str
    descriptions: frozenset[str]
    ids: frozenset[str]


def _normal(text: str) -> str:
    """A description as compared: case-insensitive, runs of white space as one."""
    return " ".join(text.split()).casefold()


@lru_cache(maxsize=4)
def _registry(path: Path) -> tuple[str, tuple[_Entry, ...]]:
    """The registry name and the conditions of ``path``; a malformed file is an
    :class:`ProfileError` naming it (it ships with translator: reinstall, or fix it)."""

    def fault(what: str) -> ProfileError:
        return ProfileError(
            f"{path}: {what} (see the comment at its top; reinstall "
            "translator if you did not edit it)"
        )

    try:
        data = safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise fault(f"cannot be read: {error.strerror or error}") from None
    except yaml.YAMLError as error:
        raise fault(f"malformed YAML: {str(error).splitlines()[0]}") from None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("registry"), str)
        or not isinstance(data.get("conditions"), dict)
    ):
        raise fault("wants a 'registry' name and a mapping 'conditions'")
    entries = []
    for identifier, entry in data["conditions"].items():
        if not isinstance(entry, dict) or not isinstance(entry.get("condition"), str):
            raise fault(f"condition {identifier!r} wants a 'condition' text")
        descriptions = entry.get("descriptions") or []
        ids = entry.get("md5") or []
        if not (isinstance(descriptions, list) and all(isinstance(d, str) for d in descriptions)):
            raise fault(f"condition {identifier!r}: 'descriptions' is a list of texts")
        if not (
            isinstance(ids, list)
            and all(isinstance(i, str) and re.fullmatch(r"[0-9a-fA-F]{32}", i) for i in ids)
        ):
            raise fault(f"condition {identifier!r}: 'md5' is a list of 32 hex digits each")
        entries.append(
            _Entry(
                str(identifier),
                entry["condition"],
                frozenset(_normal(d) for d in descriptions),
                frozenset(i.lower() for i in ids),
            )
        )
    return data["registry"], tuple(entries)


def profile_id(icc: bytes) -> str:
    """The ICC profile ID of ``icc`` (ICC.1:2010 7.2.18): the MD5 of the profile with
    its flags, rendering intent and profile ID fields zeroed.  Computed, it names a v2
    profile as surely as the ID a v4 profile carries."""
    if len(icc) < 128:
        return hashlib.md5(icc, usedforsecurity=False).hexdigest()
    data = bytearray(icc)
    data[44:48] = bytes(4)
    data[64:68] = bytes(4)
    data[84:100] = bytes(16)
    return hashlib.md5(bytes(data), usedforsecurity=False).hexdigest()


@lru_cache(maxsize=8)
def output_condition(profile: Profile) -> Condition:
    """The printing condition ``profile`` characterises: a registered one when the
    registry knows the profile (by its ID or file digest first, then by its
    description), else :data:`CUSTOM` with the profile's description."""
    registry, entries = _registry(registry_path())
    icc = profile.icc_bytes()
    ids = {hashlib.md5(icc, usedforsecurity=False).hexdigest(), profile_id(icc)}
    if len(icc) >= 100 and any(icc[84:100]):
        ids.add(icc[84:100].hex())
    described = _normal(profile.description)
    found = next((e for e in entries if e.ids & ids), None) or next(
        (e for e in entries if described in e.descriptions), None
    )
    if found is None:
        return Condition(CUSTOM, None, profile.description, profile.description)
    return Condition(found.identifier, registry, found.condition, profile.description)


@lru_cache(maxsize=4)
def _compressed_profile(profile: Profile) -> bytes:
    """The profile's bytes, deflated once (saving it otherwise compresses it again in
    every card's PDF: most of the time spent writing a card)."""
    return zlib.compress(profile.icc_bytes(), 6)


def _output_intent(pdf: pikepdf.Pdf, profile: Profile) -> None:
    """The catalog's /OutputIntents: one GTS_PDFX intent with the profile embedded."""
    condition = output_condition(profile)
    icc = pikepdf.Stream(pdf, b"")
    icc.write(_compressed_profile(profile), filter=pikepdf.Name.FlateDecode)
    icc.N = 4
    intent = pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent,
        S=pikepdf.Name.GTS_PDFX,
        OutputConditionIdentifier=pikepdf.String(condition.identifier),
        OutputCondition=pikepdf.String(condition.condition),
        Info=pikepdf.String(condition.info),
        DestOutputProfile=icc,
    )
    if condition.registry is not None:
        intent.RegistryName = pikepdf.String(condition.registry)
    pdf.Root.OutputIntents = pikepdf.Array([intent])


def made_for(pdf: pikepdf.Pdf) -> str | None:
    """The description of the profile ``pdf``'s output intent was made with (its
    /Info; files older than the PDF/X labelling gave it as the identifier), or None."""
    intents = pdf.Root.get("/OutputIntents")
    if not isinstance(intents, pikepdf.Array) or len(intents) == 0:
        return None
    intent = intents[0]
    if not isinstance(intent, pikepdf.Dictionary):
        return None
    for key in ("/Info", "/OutputConditionIdentifier"):
        value = intent.get(key)
        if value is not None and str(value) and str(value) != CUSTOM:
            return str(value)
    return None


# ------------------------------------------------------------------------ labels, dates


def reproducible() -> bool:
    """True when ``SOURCE_DATE_EPOCH`` is set: the same inputs must make the same
    bytes (fixed dates, XMP ids derived from the title and labels, the trailer's /ID
    from the content: :func:`.build.write_atomic`)."""
    return bool(os.environ.get(SOURCE_DATE_EPOCH, "").strip())


def build_time() -> dt.datetime:
    """The files' creation date: ``SOURCE_DATE_EPOCH`` (seconds since 1970, UTC) when
    set, else now, to the second, in UTC.  A malformed value is a :class:`ValueError`
    that says what to give (reproducible-build tools stop on one)."""
    value = os.environ.get(SOURCE_DATE_EPOCH, "").strip()
    if not value:
        return dt.datetime.now(dt.UTC).replace(microsecond=0)
    try:
        if not value.isdigit():
            raise ValueError
        return dt.datetime.fromtimestamp(int(value), dt.UTC)
    except (ValueError, OverflowError, OSError):
        raise InvalidValue(
            f"{SOURCE_DATE_EPOCH}={value[:40]!r} is not a number of seconds "
            "since 1970: unset it, or give one (e.g. the last commit's: "
            "git log -1 --format=%ct)"
        ) from None


def pdf_date(when: dt.datetime) -> str:
    """``when`` (UTC) as a PDF date: ``D:20240131120000+00'00'``."""
    return when.astimezone(dt.UTC).strftime("D:%Y%m%d%H%M%S+00'00'")


def xmp_date(when: dt.datetime) -> str:
    """``when`` (UTC) as an XMP date: ``2024-01-31T12:00:00+00:00``."""
    return when.astimezone(dt.UTC).isoformat(timespec="seconds")


@lru_cache(maxsize=1)
def producer() -> str:
    """The Producer of every file: translator, and what rendered and wrote it."""
    try:
        weasyprint = metadata.version("weasyprint")
    except metadata.PackageNotFoundError:  # pragma: no cover - a dependency
        weasyprint = "?"
    return f"translator {__version__} (WeasyPrint {weasyprint}, pikepdf {pikepdf.__version__})"


def _labels(pdf: pikepdf.Pdf) -> str:
    """The page labels' prefixes (what names the cards of a file), one text."""
    labels = pdf.Root.get("/PageLabels")
    nums = labels.get("/Nums") if isinstance(labels, pikepdf.Dictionary) else None
    if not isinstance(nums, pikepdf.Array):
        return ""
    return "\n".join(str(n.get("/P", "")) for n in nums if isinstance(n, pikepdf.Dictionary))


def _ids(pdf: pikepdf.Pdf, title: str, when: dt.datetime) -> tuple[str, str]:
    """The XMP document and instance ids: random, or (reproducible builds) derived
    from the title, page labels, page count and date."""
    if not reproducible():
        return f"uuid:{uuid.uuid4()}", f"uuid:{uuid.uuid4()}"
    seed = f"{title}\n{_labels(pdf)}\n{len(pdf.pages)}\n{xmp_date(when)}"
    return (
        f"uuid:{uuid.uuid5(_NAMESPACE, 'document ' + seed)}",
        f"uuid:{uuid.uuid5(_NAMESPACE, 'instance ' + seed)}",
    )


def _labelled(pdf: pikepdf.Pdf, title: str, when: dt.datetime) -> None:
    """The document info and the XMP packet, saying the same things."""
    made = pdf_date(when)
    pdf.docinfo = pdf.make_indirect(
        pikepdf.Dictionary(
            Title=pikepdf.String(title),
            Producer=pikepdf.String(producer()),
            Creator=pikepdf.String("translator build"),
            CreationDate=pikepdf.String(made),
            ModDate=pikepdf.String(made),
            Trapped=pikepdf.Name("/False"),
            GTS_PDFXVersion=pikepdf.String(PDFX_VERSION),
        )
    )
    document, instance = _ids(pdf, title, when)
    # The title last: a title holding another value's slot text stays as it is.
    values = {"stamp": xmp_date(when), "document": document, "instance": instance, "title": title}
    if all(_XML_SAFE.match(value) for value in values.values()):
        packet = _xmp_packet()
        for key, value in values.items():
            packet = packet.replace(_slot(key), escape(value, quote=False))
        pdf.Root.Metadata = pikepdf.Stream(pdf, packet.encode("utf-8"))
        pdf.Root.Metadata[pikepdf.Name.Type] = pikepdf.Name.Metadata
        pdf.Root.Metadata[pikepdf.Name.Subtype] = pikepdf.Name.XML
    else:  # what lxml refuses or escapes otherwise: pikepdf's own way, and its errors
        _set_xmp(pdf, values)


#: Text written in an XMP packet as it is, but for ``&``, ``<`` and ``>`` (lxml's
#: escapes in a text node): no control character, surrogate or non-character.
_XML_SAFE = re.compile(r"[^\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]*\Z")


def _slot(key: str) -> str:
    return f"translator-xmp-{key}-slot"


@lru_cache(maxsize=1)
def _xmp_packet() -> str:
    """The XMP packet pikepdf writes for a card (:func:`_set_xmp`), with a slot for
    each value that differs between files: made once, filled for each file (pikepdf
    parses and serialises the packet with lxml, about 1 ms a file)."""
    pdf = pikepdf.new()
    _set_xmp(pdf, {key: _slot(key) for key in ("title", "stamp", "document", "instance")})
    return bytes(pdf.Root.Metadata.read_bytes()).decode("utf-8")


def _set_xmp(pdf: pikepdf.Pdf, values: dict[str, str]) -> None:
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        meta["dc:title"] = values["title"]
        meta["dc:format"] = "application/pdf"
        meta["pdf:Producer"] = producer()
        meta["pdf:Trapped"] = "False"
        meta["xmp:CreatorTool"] = "translator build"
        meta["xmp:CreateDate"] = values["stamp"]
        meta["xmp:ModifyDate"] = values["stamp"]
        meta["xmp:MetadataDate"] = values["stamp"]
        meta["xmpMM:DocumentID"] = values["document"]
        meta["xmpMM:InstanceID"] = values["instance"]
        meta["xmpMM:VersionID"] = "1"
        meta["xmpMM:RenditionClass"] = "default"
        meta["pdfxid:GTS_PDFXVersion"] = PDFX_VERSION


def finish(
    pdf: pikepdf.Pdf,
    profile: Profile,
    title: str,
    *,
    overprint: bool = False,
    ink_limit: float = INK_LIMIT,
) -> None:
    """Make ``pdf`` a PDF/X-4 file for ``profile``'s printing condition, titled
    ``title``: the output intent, the document info and XMP labels; and, with
    ``overprint`` (pages rendered here: cards, the back), black text and thin black
    rules set to overprint where the ground under them leaves the total ink at most
    ``ink_limit`` % (:func:`overprint_black`).  Call it last, before saving: a
    reproducible build's document ids derive from the page labels."""
    if overprint:
        for page in pdf.pages:
            overprint_black(page, ink_limit)
    _output_intent(pdf, profile)
    _labelled(pdf, title, build_time())


# ---------------------------------------------------------------- reading the painting

#: A ground: its DeviceCMYK colour (0-1), or what it is when that is not known.
Ground = tuple[float, ...] | str
_PAPER: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)
_BLACK: tuple[float, ...] = (0.0, 0.0, 0.0, 1.0)
_EVERYWHERE: Box = (-1e7, -1e7, 1e7, 1e7)
_FILLS = {"f": False, "F": False, "f*": True, "B": False, "B*": True, "b": False, "b*": True}
#: Text rendering modes that fill, and that stroke, the glyphs.
_FILL_MODES = frozenset({0, 2, 4, 6})
_STROKE_MODES = frozenset({1, 2, 5, 6})
_CURVE_STEPS = 6
#: The weights of a cubic Bézier's four points at each flattened point (t = 1/6 ... 1):
#: ``(1-t)^3, 3 (1-t)^2 t, 3 (1-t) t^2, t^3``.
_CURVE_WEIGHTS = tuple(
    (u**3, 3 * u * u * t, 3 * u * t * t, t**3)
    for t, u in ((s / _CURVE_STEPS, 1 - s / _CURVE_STEPS) for s in range(1, _CURVE_STEPS + 1))
)
_MAX_SAMPLES = 32
_MAX_DEPTH = 12


def operand_numbers(operands: Sequence[Any]) -> list[float] | None:
    """The operands as numbers, None when one is not a number: an instruction's
    operands (or an array's items) may be any PDF object, and float() is the test."""
    try:
        return [float(v) for v in operands]
    except (TypeError, ValueError):
        return None


def _matrix(operands: Sequence[Any]) -> Matrix | None:
    """The operands as a matrix; None unless they are six numbers (such a matrix is
    ignored, as viewers do)."""
    numbers = operand_numbers(operands)
    if numbers is None or len(numbers) != 6:
        return None
    a, b, c, d, e, f = numbers
    return (a, b, c, d, e, f)


#: An edge of a polygon: (x0, y0, x1, y1).
Edge = tuple[float, float, float, float]
#: Horizontal bands a region's edges are sorted into (:meth:`_Region.contains`).
_BANDS = 32


@dataclass(frozen=True)
class _Region:
    """An area of the page: polygons (page space) filled by the nonzero or even-odd
    rule."""

    polygons: tuple[tuple[Point, ...], ...]
    even_odd: bool
    box: Box
    #: One axis-aligned rectangle (most clips and grounds): its box says it all.
    rectangle: bool = False
    #: The crossings of the horizontal line at a height, by height (:meth:`_row`).
    _rows: dict[float, tuple[tuple[float, int], ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @classmethod
    def of(cls, polygons: Sequence[Sequence[Point]], even_odd: bool) -> _Region | None:
        kept = tuple(tuple(p) for p in polygons if len(p) >= 2)
        if not kept:
            return None
        xs, ys = zip(*itertools.chain.from_iterable(kept), strict=True)
        box = (min(xs), min(ys), max(xs), max(ys))  # geometry.bounds, without a list
        rectangle = False
        if len(kept) == 1:
            corners = {(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])}
            rectangle = set(kept[0]) <= corners and len(set(kept[0])) == 4
        return cls(kept, even_odd, box, rectangle)

    def with_rule(self, even_odd: bool) -> _Region:
        """The same polygons filled by the other rule (a path that fills and clips)."""
        if even_odd == self.even_odd:
            return self
        return _Region(self.polygons, even_odd, self.box, self.rectangle)

    @cached_property
    def _bands(self) -> tuple[float, float, tuple[tuple[Edge, ...], ...]]:
        """The polygons' edges (not horizontal) by horizontal band of the box: a point
        is tested against the few edges of its band, not every edge (the frame of a
        card, a ring of flattened curves, has dozens; ``contains`` runs thousands of
        times a page)."""
        edges = []
        for polygon in self.polygons:
            count = len(polygon)
            for i in range(count):
                (x0, y0), (x1, y1) = polygon[i], polygon[(i + 1) % count]
                if y0 != y1:
                    edges.append((x0, y0, x1, y1))
        low, high = self.box[1], self.box[3]
        step = max((high - low) / _BANDS, 1e-9)
        bands: list[list[Edge]] = [[] for _ in range(_BANDS)]
        for edge in edges:
            first = min(_BANDS - 1, max(0, int((min(edge[1], edge[3]) - low) / step)))
            last = min(_BANDS - 1, max(0, int((max(edge[1], edge[3]) - low) / step)))
            for band in range(first, last + 1):
                bands[band].append(edge)
        return low, step, tuple(tuple(band) for band in bands)

    def _row(self, y: float) -> tuple[tuple[float, int], ...]:
        """Where the edges of the band of ``y`` cross the horizontal line at ``y``, and
        which way (1 upwards, -1 downwards).  Kept by height: a text's points are in two
        rows, looked at by the clips' test and then under the text, so most points
        are judged on a row already found."""
        row = self._rows.get(y)
        if row is None:
            low, step, bands = self._bands
            row = self._rows[y] = tuple(
                (x0 + (y - y0) * (x1 - x0) / (y1 - y0), 1 if y1 > y0 else -1)
                for x0, y0, x1, y1 in bands[min(_BANDS - 1, max(0, int((y - low) / step)))]
                if (y0 <= y) != (y1 <= y)
            )
        return row

    def contains(self, x: float, y: float) -> bool:
        """Whether ``(x, y)`` is inside: the crossings of the horizontal line through it
        on its right, counted (even-odd) or by direction (nonzero)."""
        box = self.box
        if not (box[0] <= x <= box[2] and box[1] <= y <= box[3]):
            return False
        if self.rectangle:
            return True
        winding = crossings = 0
        for at, direction in self._row(y):
            if at > x:
                crossings += 1
                winding += direction
        return crossings % 2 == 1 if self.even_odd else winding != 0


_NOWHERE: Box = (math.inf, math.inf, -math.inf, -math.inf)


def _meet(one: Box, other: Box) -> Box:
    """The intersection of two boxes; :data:`_NOWHERE` when a side is not a number (no
    point is inside such a box: every comparison with NaN is false)."""
    if any(map(math.isnan, (*one, *other))):
        return _NOWHERE
    return (
        max(one[0], other[0]),
        max(one[1], other[1]),
        min(one[2], other[2]),
        min(one[3], other[3]),
    )


@dataclass(frozen=True)
class _Clips:
    """The clipping paths in force (page space), in the order they were set: a point is
    painted where all of them contain it.  Most are rectangles, which their boxes'
    intersection judges at once; only the others (:attr:`shapes`) are tested one by
    one."""

    regions: tuple[_Region, ...] = ()
    #: The intersection of the regions' boxes.
    box: Box = (-math.inf, -math.inf, math.inf, math.inf)
    #: The regions that are not one rectangle.
    shapes: tuple[_Region, ...] = ()

    def plus(self, region: _Region) -> _Clips:
        """These clips and ``region`` (a clip set within them)."""
        shapes = self.shapes if region.rectangle else (*self.shapes, region)
        return _Clips((*self.regions, region), _meet(self.box, region.box), shapes)

    def contains(self, x: float, y: float) -> bool:
        box = self.box
        if not (box[0] <= x <= box[2] and box[1] <= y <= box[3]):
            return False
        return all(shape.contains(x, y) for shape in self.shapes)

    def inside(self, points: list[Point]) -> list[Point]:
        """The ``points`` these clips contain, in order."""
        x0, y0, x1, y1 = self.box
        kept = [p for p in points if x0 <= p[0] <= x1 and y0 <= p[1] <= y1]
        for shape in self.shapes:
            kept = [p for p in kept if shape.contains(p[0], p[1])]
        return kept


_UNCLIPPED = _Clips()


def _text_points(
    placed: Matrix, advance: float, count: int, heights: Sequence[float]
) -> list[Point]:
    """Points along a text (page space, by ``placed``): ``count`` steps from 2 % to
    98 % of its ``advance``, at each of the ``heights`` (text space), in that order;
    :func:`.geometry.apply`'s sums, with the products shared by a step's points."""
    a, b, c, d, e, f = placed
    across = [(c * height, d * height) for height in heights]
    points = []
    for i in range(count):
        along = advance * (0.02 + 0.96 * i / (count - 1))
        x, y = a * along, b * along
        points += [(x + cx + e, y + dy + f) for cx, dy in across]
    return points


@dataclass(frozen=True)
class _Paint:
    """Something painted: where (within its clips) and in what colour."""

    region: _Region
    clips: _Clips
    colour: Ground
    #: The box of the region within its clips' boxes: a point outside is not covered.
    box: Box = field(init=False)
    #: What a point in :attr:`box` must also be in to be covered: the region and the
    #: clips that are not their box.
    shapes: tuple[_Region, ...] = field(init=False)
    #: An image XObject painted (``colour`` says "an image"), and the CTM it was drawn
    #: with, so that its pixels can be read under a point (:class:`TextCheck`).
    image: pikepdf.Object | None = None
    matrix: Matrix = IDENTITY

    def __post_init__(self) -> None:
        region = self.region
        shapes = self.clips.shapes if region.rectangle else (region, *self.clips.shapes)
        object.__setattr__(self, "box", _meet(region.box, self.clips.box))
        object.__setattr__(self, "shapes", shapes)


def _covering(paints: Sequence[_Paint], x: float, y: float) -> _Paint | None:
    """The first of ``paints`` that covers ``(x, y)``: in its box, and in each of its
    :attr:`_Paint.shapes`; or None."""
    for paint in paints:
        box = paint.box
        if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
            for shape in paint.shapes:
                if not shape.contains(x, y):
                    break
            else:
                return paint
    return None


@dataclass(frozen=True)
class _Colour:
    """A fill or stroke colour as set: its space (``cmyk`` for DeviceCMYK,
    ``pattern``, or ``other``) and values."""

    space: str = "other"
    values: tuple[float, ...] = (0.0,)


#: The colours a colour space starts with (DeviceCMYK's black) or leaves unknown.
_CMYK_BLACK = _Colour("cmyk", _BLACK)
_PATTERN = _Colour("pattern")
_OTHER = _Colour()


@dataclass
class _State:
    """The graphics state this reading needs (saved by q, restored by Q)."""

    ctm: Matrix = IDENTITY
    clips: _Clips = _UNCLIPPED
    fill: _Colour = field(default_factory=_Colour)
    stroke: _Colour = field(default_factory=_Colour)
    line_width: float = 1.0
    fill_alpha: float = 1.0
    stroke_alpha: float = 1.0
    #: A soft mask or a blend mode other than Normal is in force.
    blended: bool = False
    #: (OP, op, OPM) as the content set them.
    overprint: tuple[bool, bool, int] = (False, False, 0)
    font: pikepdf.Object | None = None
    font_size: float = 0.0
    char_spacing: float = 0.0
    word_spacing: float = 0.0
    horizontal: float = 1.0
    leading: float = 0.0
    rise: float = 0.0
    mode: int = 0


def _written_items(written: bytes) -> list[bytes | float] | None:
    """The items of a TJ array as pikepdf writes it, ``[ <0044> 0 <0055> 15 () 0.5 ]``:
    the hex strings' bytes and the numbers (the float of their text, as of pikepdf's
    number); None when it holds anything else (a literal string but the empty one, a
    name, an array...), to be read from pikepdf's objects.  pikepdf makes a Python
    object of each item, which costs four times this reading: WeasyPrint writes a
    string and a number for every glyph."""
    tokens = written.split()
    if len(tokens) < 2 or tokens[0] != b"[" or tokens[-1] != b"]":
        return None
    items: list[bytes | float] = []
    try:
        for token in itertools.islice(tokens, 1, len(tokens) - 1):
            if token[0] == 60:  # "<": a hex string, whole (no spaces in it)
                if token[-1] != 62:  # not ">": a dictionary
                    return None
                items.append(binascii.unhexlify(token[1:-1]))
            elif token == b"()":
                items.append(b"")
            else:  # a number (a literal string, a name, true... are not floats)
                items.append(float(token))
    except ValueError:  # binascii.Error too
        return None
    return items


@dataclass(frozen=True)
class _GraphicsState:
    """What an ExtGState sets of the graphics state this reading follows (None: not
    set): its alpha, line width, soft mask, blend mode and overprint."""

    fill_alpha: float | None = None
    stroke_alpha: float | None = None
    line_width: float | None = None
    #: A soft mask other than /None (False: /None, which ends one).
    soft_mask: bool | None = None
    #: A blend mode other than Normal.
    blend: bool | None = None
    #: OP, op, OPM.
    overprint_stroke: bool | None = None
    overprint_fill: bool | None = None
    overprint_mode: int | None = None

    @classmethod
    def named(cls, resources: pikepdf.Dictionary, name: str) -> _GraphicsState | None:
        """The ExtGState ``name`` of ``resources``, None when there is none."""
        states = resources.get("/ExtGState")
        found = states.get(name) if isinstance(states, pikepdf.Dictionary) else None
        if not isinstance(found, pikepdf.Dictionary):
            return None
        numbers: list[float | None] = [None, None, None]  # /ca, /CA, /LW
        try:  # the first that is not a number ends the reading of the three
            for i, key in enumerate(("/ca", "/CA", "/LW")):
                if key in found:
                    numbers[i] = float(found[key])
        except (TypeError, ValueError):
            pass
        blend = None
        if "/BM" in found:
            mode = found.BM
            names = [str(m) for m in mode] if isinstance(mode, pikepdf.Array) else [str(mode)]
            blend = names[0] not in ("/Normal", "/Compatible")
        stroke = bool(found.OP) if "/OP" in found else None
        return cls(
            fill_alpha=numbers[0],
            stroke_alpha=numbers[1],
            line_width=numbers[2],
            soft_mask=str(found.SMask) != "/None" if "/SMask" in found else None,
            blend=blend,
            overprint_stroke=stroke,
            overprint_fill=bool(found.op) if "/op" in found else stroke,
            overprint_mode=int(found.OPM) if "/OPM" in found else None,
        )

    def apply(self, state: _State) -> None:
        """Set what this sets in ``state``."""
        if self.fill_alpha is not None:
            state.fill_alpha = self.fill_alpha
        if self.stroke_alpha is not None:
            state.stroke_alpha = self.stroke_alpha
        if self.line_width is not None:
            state.line_width = self.line_width
        if self.soft_mask is not None:
            state.blended = self.soft_mask
        if self.blend is not None:
            state.blended = state.blended or self.blend
        stroke, fill, mode = state.overprint
        state.overprint = (
            stroke if self.overprint_stroke is None else self.overprint_stroke,
            fill if self.overprint_fill is None else self.overprint_fill,
            mode if self.overprint_mode is None else self.overprint_mode,
        )


@dataclass
class _Metrics:
    """Glyph widths of a font (thousandths of the text size), enough to know where a
    string ends."""

    two_byte: bool
    widths: dict[int, float]
    default: float
    scale: float = 0.001

    @cached_property
    def _scaled(self) -> dict[int, float]:
        """The widths per unit of text size (:attr:`scale` applied), by code."""
        return {code: width * self.scale for code, width in self.widths.items()}

    def advance(self, items: Sequence[bytes | float], state: _State) -> float:
        """How far showing ``items`` (a text operator's strings and a TJ array's
        adjustments, in thousandths of the text size: :func:`_shown`) moves the text
        position (text space, unscaled by the text matrix)."""
        size, horizontal = state.font_size, state.horizontal
        widths, missing = self._scaled, self.default * self.scale
        spacing = state.char_spacing + 0.0
        word = state.char_spacing + state.word_spacing  # after a single-byte space
        advance = 0.0
        for item in items:
            if not isinstance(item, bytes):
                advance -= item / 1000 * size * horizontal
                continue
            total = 0.0
            if self.two_byte:
                for i in range(0, len(item) - 1, 2):
                    width = widths.get(item[i] << 8 | item[i + 1], missing)
                    total += (width * size + spacing) * horizontal
            else:
                for code in item:
                    width = widths.get(code, missing)
                    total += (width * size + (word if code == 32 else spacing)) * horizontal
            advance += total
        return advance


def _shown(operands: Sequence[Any]) -> list[bytes | float]:
    """What a text operator shows, in order: its strings' bytes, and the numbers a TJ
    array puts between them; other objects are left out."""
    if len(operands) == 1 and isinstance(operands[0], pikepdf.Array):
        written = _written_items(operands[0].unparse())
        if written is not None:
            return written
    items: list[bytes | float] = []
    for operand in operands:
        for item in operand if isinstance(operand, pikepdf.Array) else (operand,):
            kind = type(item)
            if kind is int or kind is Decimal:  # most items: tested first, at once
                items.append(float(item))
            elif isinstance(item, pikepdf.String):
                items.append(bytes(item))
            else:
                with contextlib.suppress(TypeError, ValueError):
                    items.append(float(item))
    return items


def text_metrics(font: pikepdf.Object | None) -> _Metrics:
    """The widths of ``font``: a Type0 font's /W and /DW (two-byte codes, as
    WeasyPrint's Identity-H), a simple font's /Widths, a Type3 font's scaled by its
    /FontMatrix; an unreadable font gives every glyph half an em."""
    if not isinstance(font, pikepdf.Dictionary):
        return _Metrics(False, {}, 500.0)
    try:
        if font.get("/Subtype") == "/Type0":
            descendants = font.get("/DescendantFonts")
            cid = descendants[0] if isinstance(descendants, pikepdf.Array) else None
            widths: dict[int, float] = {}
            listed: pikepdf.Object | list[pikepdf.Object] = (
                cid.get("/W", []) if isinstance(cid, pikepdf.Dictionary) else []
            )
            items, i = list(listed), 0
            while i < len(items) - 1:
                first = int(items[i])
                if isinstance(items[i + 1], pikepdf.Array):
                    for offset, width in enumerate(items[i + 1]):
                        widths[first + offset] = float(width)
                    i += 2
                elif i + 2 < len(items):
                    for code in range(first, min(int(items[i + 1]), first + 65536) + 1):
                        widths[code] = float(items[i + 2])
                    i += 3
                else:
                    break
            default = float(cid.get("/DW", 1000)) if isinstance(cid, pikepdf.Dictionary) else 1000.0
            return _Metrics(True, widths, default)
        first = int(font.get("/FirstChar", 0))
        widths = {first + i: float(w) for i, w in enumerate(font.get("/Widths", []))}
        descriptor = font.get("/FontDescriptor")
        missing = (
            float(descriptor.get("/MissingWidth", 0))
            if isinstance(descriptor, pikepdf.Dictionary)
            else 0.0
        )
        scale = 0.001
        if font.get("/Subtype") == "/Type3":
            matrix = operand_numbers(list(font.get("/FontMatrix", [0.001])))
            scale = abs(matrix[0]) if matrix else 0.001
        return _Metrics(False, widths, missing, scale)
    except (TypeError, ValueError, KeyError, AttributeError, pikepdf.PdfError):
        return _Metrics(False, {}, 500.0)


#: The widths of composite fonts read, by what they are read from (:func:`_widths_key`):
#: the card files of a batch each have their own copy of the batch's fonts.
_WIDTHS: dict[tuple[bytes, str], _Metrics] = {}
_WIDTHS_KEPT = 64
#: A /W array of numbers alone (a reference to another object would read ``n 0 R``).
_NUMBERS_ONLY = re.compile(rb"[0-9.+\-\[\]\s]*")


def _widths_key(font: pikepdf.Object | None) -> tuple[bytes, str] | None:
    """What :func:`text_metrics` reads a composite font's widths from, written out (its
    /W, and its /DW); None for another font, or one whose /W is not numbers alone."""
    if not isinstance(font, pikepdf.Dictionary) or font.get("/Subtype") != "/Type0":
        return None
    descendants = font.get("/DescendantFonts")
    if not isinstance(descendants, pikepdf.Array) or len(descendants) == 0:
        return None
    cid = descendants[0]
    widths = cid.get("/W") if isinstance(cid, pikepdf.Dictionary) else None
    if not isinstance(widths, pikepdf.Array):
        return None
    written = widths.unparse(resolved=True)
    if not _NUMBERS_ONLY.fullmatch(written):
        return None
    return written, repr(cid.get("/DW", 1000))


def _kept_metrics(font: pikepdf.Object | None) -> _Metrics:
    """:func:`text_metrics` of ``font``, read once for the copies of one composite font."""
    key = _widths_key(font)
    if key is None:
        return text_metrics(font)
    found = _WIDTHS.get(key)
    if found is None:
        if len(_WIDTHS) >= _WIDTHS_KEPT:
            _WIDTHS.clear()
        found = _WIDTHS[key] = text_metrics(font)
    return found


@dataclass
class _Show:
    """A text-showing operator, as painted."""

    #: How many paints came before it (its ground is among them).
    ground: int
    #: Points of its glyph area (page space) to look at the ground under.
    points: list[Point]
    #: The text size on the page, in points.
    size: float
    fill: _Colour
    stroke: _Colour
    mode: int
    #: Plain painting: opaque, Normal blend, no soft mask.
    opaque: bool
    overprint: tuple[bool, bool, int]
    where: str
    #: The index of the operator in the page's content, and of the BT that opens its
    #: text object (None inside a form).
    index: int | None
    text_object: int | None
    #: The operator's operands (its strings) and font, to name the text and its weight.
    operands: Sequence[object] = ()
    font: pikepdf.Object | None = None
    #: Where it is printed, to read the page's text in order (:func:`_reading`): its
    #: text matrix times the CTM (page space; None when not placed) and how far it
    #: moves along its line (text space).
    line: Matrix | None = None
    advance: float = 0.0


@dataclass
class _Rule:
    """A pure black path painted: whether it is thin, the points under it."""

    ground: int
    points: list[Point]
    thin: bool
    opaque: bool
    overprint: tuple[bool, bool, int]
    #: The indexes of the path's first operator and of its painting operator.
    start: int
    index: int


@dataclass
class _Walk:
    """The interpreter's state while it reads one content stream: the graphics state
    (and those saved by ``q``), the path being built, the text matrices and the text
    object open; and what the stream is (its resources, where it is, whether it is
    the page's own content)."""

    resources: object
    state: _State
    where: str
    top: bool
    saved: list[_State] = field(default_factory=list)
    path: list[list[Point]] = field(default_factory=list)
    #: The index of the current path's first operator.
    path_start: int | None = None
    #: ``W`` (False) or ``W*`` (True) pending: the next painted path also clips.
    clip: bool | None = None
    tm: Matrix = IDENTITY
    tlm: Matrix = IDENTITY
    #: The index of the ``BT`` of the text object open.
    text_object: int | None = None
    #: The ExtGStates and the fonts of :attr:`resources` found so far, by name.
    graphics: dict[str, _GraphicsState | None] = field(default_factory=dict)
    fonts: dict[str, pikepdf.Object | None] = field(default_factory=dict)


#: A handler of :meth:`_Painter._walk`: (painter, walk, operands, operator, index).
_Handler = Callable[["_Painter", _Walk, Sequence[Any], str, int], None]


class _Painter:
    """Follows a page's painting: every fill, image and shading as a :class:`_Paint`
    (in order), every text shown as a :class:`_Show`, every black path as a
    :class:`_Rule`.

    It reads as much of PDF's imaging model as deciding what colour lies under a
    point needs: the CTM, clipping paths (nonzero and even-odd), path geometry
    (curves flattened), DeviceCMYK fill colours, images and shadings (colours not
    known), forms (their matrix, bounding box and resources) and text positions (the
    fonts' widths).  Strokes are not a ground (thin lines); text is not a ground."""

    def __init__(self, operators: str = "", grounds: bool = True) -> None:
        #: Only these operators are read (qpdf filters them, far faster than Python),
        #: or all of them.
        self.operators = operators
        #: Whether text is placed (its points, to look at the ground under them).
        self.grounds = grounds
        self.paints: list[_Paint] = []
        self.shows: list[_Show] = []
        self.rules: list[_Rule] = []
        self.text_gs: set[int] = set()
        self.text_metrics: dict[tuple[int, int], _Metrics] = {}
        self._walking: list[tuple[int, int]] = []

    # -- entry

    def walked(
        self, page: pikepdf.Page, parsed: Sequence[tuple[str, Sequence[Any]]] | None = None
    ) -> _Painter:
        """Read ``page``; this painter.  ``parsed``: the page's content already parsed,
        as (operator, operands), with at least every operator this painter reads
        (:data:`PAINTED_OPERATORS`): only those of :attr:`operators` are read."""
        if parsed is None:
            self.page(page)
            return self
        wanted = set(self.operators.split()) if self.operators else None
        if wanted is not None and "BI" in wanted:
            wanted.add("INLINE IMAGE")
        kept = parsed if wanted is None else [i for i in parsed if i[0] in wanted]
        self._walk(kept, page.obj.get("/Resources"), _State(), "page content", top=True)
        return self

    def page(self, page: pikepdf.Page) -> list[Any]:
        """Read ``page`` (and the forms it draws); its parsed content, to edit."""
        instructions = pikepdf.parse_content_stream(page, self.operators)
        resources = page.obj.get("/Resources")
        self._walk(instructions, resources, _State(), "page content", top=True)
        return instructions

    def grounds_of(self, points: Sequence[Point], before: int) -> Iterator[Ground]:
        """The colour under each of ``points`` of the paints before the ``before``-th:
        the last that covers the point, paper where none does (:meth:`under`)."""
        for paint in self.under(points, before):
            yield _PAPER if paint is None else paint.colour

    def under(self, points: Sequence[Point], before: int) -> Iterator[_Paint | None]:
        """The last of the paints before the ``before``-th that covers each of
        ``points``, or None (paper): one point after the other (a caller may stop at
        the first it refuses).

        The paints whose box is clear of all the points are left out first: a text's
        ground is looked for at a few dozen points, each through the paints from the
        last back to the first that covers it, often the card's background, far back."""
        if not points:
            return
        paints = self.paints[:before]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        low_x, low_y, high_x, high_y = min(xs), min(ys), max(xs), max(ys)
        if not any(map(math.isnan, (low_x, low_y, high_x, high_y))):
            paints = [
                p
                for p in paints
                if p.box[0] <= high_x
                and p.box[2] >= low_x
                and p.box[1] <= high_y
                and p.box[3] >= low_y
            ]
        paints.reverse()
        for x, y in points:
            yield _covering(paints, x, y)

    # -- the interpreter

    def _walk(
        self, instructions: Sequence[Any], resources: object, state: _State, where: str, top: bool
    ) -> None:
        """Interpret ``instructions``, drawn with ``resources`` from ``state``: each operator
        the painter follows has its handler (:attr:`_HANDLERS`), the others change
        nothing it looks at.  ``top``: the page's own content (not a form's), the only one
        whose operators are recorded by index, to be edited."""
        walk = _Walk(resources, state, where, top)
        handlers = self._HANDLERS
        for index, op, operands in _operations(instructions):
            handlers[op](self, walk, operands, op, index)

    # The handlers of _walk, one per family of operators: (walk, operands, operator, its
    # index in the content stream).

    def _save(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``q``: the graphics state saved, for ``Q`` to restore."""
        saved = _State.__new__(_State)  # copy.copy, at a fifth of its cost
        saved.__dict__.update(walk.state.__dict__)
        walk.saved.append(saved)

    def _restore(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Q``: the last saved graphics state back (a ``Q`` too many changes nothing)."""
        if walk.saved:
            walk.state = walk.saved.pop()

    def _transform(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``cm``: the CTM multiplied by the operands' matrix (one that is not six numbers
        is ignored, as viewers do)."""
        matrix = _matrix(operands)
        if matrix is not None:
            walk.state.ctm = multiply(matrix, walk.state.ctm)

    # ``m l c v y h re``: points added to the current path (page space); the index of
    # its first operator is kept, as the start of a rule to edit.  Operands that are not
    # the operator's numbers add nothing.

    def _move(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``m``: a new subpath."""
        if not walk.path:
            walk.path_start = index
        values = operand_numbers(operands)
        if values is not None and len(values) == 2:
            walk.path.append([apply(walk.state.ctm, values[0], values[1])])

    def _line(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``l``: a straight segment."""
        path = walk.path
        if not path:
            walk.path_start = index
            return
        values = operand_numbers(operands)
        if values is not None and len(values) == 2:
            path[-1].append(apply(walk.state.ctm, values[0], values[1]))

    def _curve(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``c v y``: a cubic Bézier segment (``v``: its first control point is the
        current point, ``y``: its second is its end), flattened."""
        path = walk.path
        if not path:
            walk.path_start = index
            return
        values = operand_numbers(operands)
        if not values or not path[-1]:
            return
        ctm = walk.state.ctm
        points = [apply(ctm, values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]
        start = path[-1][-1]
        if op == "c" and len(points) == 3:
            one, two, end = points
        elif op == "v" and len(points) == 2:
            one, (two, end) = start, points
        elif op == "y" and len(points) == 2:
            (one, end), two = points, points[1]
        else:
            return
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = start, one, two, end
        path[-1] += [
            (w0 * x0 + w1 * x1 + w2 * x2 + w3 * x3, w0 * y0 + w1 * y1 + w2 * y2 + w3 * y3)
            for w0, w1, w2, w3 in _CURVE_WEIGHTS
        ]

    def _rectangle(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``re``: a closed rectangular subpath."""
        if not walk.path:
            walk.path_start = index
        values = operand_numbers(operands)
        if values is not None and len(values) == 4:
            x, y, w, h = values
            ctm = walk.state.ctm
            walk.path.append(
                [
                    apply(ctm, x, y),
                    apply(ctm, x + w, y),
                    apply(ctm, x + w, y + h),
                    apply(ctm, x, y + h),
                ]
            )

    def _close(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``h``: the subpath closed (every subpath is read as closed already)."""
        if not walk.path:
            walk.path_start = index

    def _clip(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``W``, ``W*``: the path about to be painted also clips (nonzero, even-odd)."""
        walk.clip = op == "W*"

    def _paint_path(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """A fill, stroke or ``n``: the path recorded as painted, the clip it sets applied
        to what follows, and a new path begun."""
        region = _Region.of(walk.path, _FILLS.get(op, False))
        if region is not None:
            self._painted(op, region, walk.state, walk.top, walk.path_start, index)
            if walk.clip is not None:
                walk.state.clips = walk.state.clips.plus(region.with_rule(walk.clip))
        walk.path, walk.path_start, walk.clip = [], None, None

    def _set_colour(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """A colour or colour space set, for filling or stroking."""
        self._colour(op, operands, walk.state)

    def _line_width(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``w``: the line width, which tells a thin rule from a thick one."""
        width = operand_numbers(operands)
        if width:
            walk.state.line_width = width[0]

    def _set_graphics_state(
        self, walk: _Walk, operands: Sequence[Any], op: str, index: int
    ) -> None:
        """``gs``: an ExtGState applied (each read once a stream).  A page's text object
        that sets one is noted: an overprint state wrapped around that whole object
        would be undone inside it."""
        if operands and isinstance(walk.resources, pikepdf.Dictionary):
            name = str(operands[0])
            if name not in walk.graphics:
                walk.graphics[name] = _GraphicsState.named(walk.resources, name)
            found = walk.graphics[name]
            if found is not None:
                found.apply(walk.state)
        if walk.text_object is not None and walk.top:
            self.text_gs.add(walk.text_object)

    def _begin_text(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``BT``: a text object opens, its matrices reset; its index is kept, to wrap it."""
        walk.tm = walk.tlm = IDENTITY
        walk.text_object = index

    def _end_text(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``ET``: the text object closes."""
        walk.text_object = None

    def _set_text_state(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Tc Tw Tz TL Ts Tr Tf``: spacing, scaling, leading, rise, mode or font (each
        font found once a stream)."""
        if op == "Tf" and len(operands) == 2:
            name = str(operands[0])
            if name not in walk.fonts:
                resources = walk.resources
                fonts = (
                    resources.get("/Font") if isinstance(resources, pikepdf.Dictionary) else None
                )
                walk.fonts[name] = (
                    fonts.get(name) if isinstance(fonts, pikepdf.Dictionary) else None
                )
            walk.state.font = walk.fonts[name]
            size = operand_numbers(operands[1:])
            walk.state.font_size = size[0] if size else 0.0
            return
        self._text_state(op, operands, walk.state)

    def _next_line(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Td TD T* ' "``: the text line moved (by the operands, or down one leading);
        ``'`` and ``"`` then show their text there (``"`` after setting the spacings)."""
        state = walk.state
        if op in ("TD", "Td"):
            moved = operand_numbers(operands)
            if moved and len(moved) == 2:
                if op == "TD":
                    state.leading = -moved[1]
                walk.tlm = multiply((1, 0, 0, 1, moved[0], moved[1]), walk.tlm)
        else:
            if op == '"':
                spacing = operand_numbers(operands[:2])
                if spacing and len(spacing) == 2:
                    state.word_spacing, state.char_spacing = spacing
            walk.tlm = multiply((1, 0, 0, 1, 0, -state.leading), walk.tlm)
        walk.tm = walk.tlm
        if op in ("'", '"'):
            self._show_text(walk, operands[-1:], op, index)

    def _text_matrix(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Tm``: the text matrix and the line matrix set."""
        matrix = _matrix(operands)
        if matrix is not None:
            walk.tm = walk.tlm = matrix

    def _show_text(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Tj``, ``TJ``: a text shown, the text matrix moved past it."""
        walk.tm = self._show(
            operands,
            walk.state,
            walk.tm,
            walk.where,
            index if walk.top else None,
            walk.text_object if walk.top else None,
        )

    def _draw_object(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Do``: an image or a form drawn."""
        self._do(operands, walk.resources, walk.state, walk.where)

    def _paint_shading(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``sh``: a shading paints its whole clip, in colours not known."""
        x0, y0, x1, y1 = _EVERYWHERE
        region = _Region.of([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], False)
        if region is not None:
            self.paints.append(_Paint(region, walk.state.clips, "a shading"))

    def _inline_image(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """An inline image: it paints, in colours not known."""
        self._image(walk.state, "an image", None)

    _HANDLERS: ClassVar[dict[str, _Handler]] = {
        "q": _save,
        "Q": _restore,
        "cm": _transform,
        "m": _move,
        "l": _line,
        **dict.fromkeys(("c", "v", "y"), _curve),
        "re": _rectangle,
        "h": _close,
        **dict.fromkeys(("W", "W*"), _clip),
        **dict.fromkeys((*_FILLS, "S", "s", "n"), _paint_path),
        **dict.fromkeys(
            ("k", "K", "g", "G", "rg", "RG", "cs", "CS", "sc", "SC", "scn", "SCN"), _set_colour
        ),
        "w": _line_width,
        "gs": _set_graphics_state,
        "BT": _begin_text,
        "ET": _end_text,
        **dict.fromkeys(("Tc", "Tw", "Tz", "TL", "Ts", "Tr", "Tf"), _set_text_state),
        **dict.fromkeys(("Td", "TD", "T*", "'", '"'), _next_line),
        "Tm": _text_matrix,
        **dict.fromkeys(("Tj", "TJ"), _show_text),
        "Do": _draw_object,
        "sh": _paint_shading,
        "INLINE IMAGE": _inline_image,
    }

    def _painted(
        self, op: str, region: _Region, state: _State, top: bool, start: int | None, index: int
    ) -> None:
        """A path painted (its ``region``): a ground when filled; a rule when pure black."""
        opaque = not state.blended
        if op in _FILLS:
            opaque = opaque and state.fill_alpha >= 1.0
            self.paints.append(_Paint(region, state.clips, _ground(state.fill, opaque)))
            if top and start is not None and op in ("f", "F", "f*") and _black(state.fill):
                width = min(region.box[2] - region.box[0], region.box[3] - region.box[1])
                self.rules.append(
                    _Rule(
                        len(self.paints) - 1,
                        _along(region.box),
                        width <= RULE_MAX_PT,
                        opaque,
                        state.overprint,
                        start,
                        index,
                    )
                )
        elif op in ("S", "s") and top and start is not None and _black(state.stroke):
            scale = math.sqrt(abs(state.ctm[0] * state.ctm[3] - state.ctm[1] * state.ctm[2]))
            points = [p for polygon in region.polygons for p in polygon][:_MAX_SAMPLES]
            self.rules.append(
                _Rule(
                    len(self.paints),
                    points,
                    state.line_width * scale <= RULE_MAX_PT,
                    opaque and state.stroke_alpha >= 1.0,
                    state.overprint,
                    start,
                    index,
                )
            )

    @staticmethod
    def _colour(op: str, operands: Sequence[object], state: _State) -> None:
        stroke = op.isupper()
        current = state.stroke if stroke else state.fill
        lower = op.lower()
        if lower == "k":
            values = operand_numbers(operands)
            colour = _Colour("cmyk", tuple(values)) if values and len(values) == 4 else _OTHER
        elif lower in ("g", "rg"):
            colour = _OTHER
        elif lower == "cs":
            name = str(operands[0]) if operands else ""
            colour = (
                _CMYK_BLACK
                if name in ("/DeviceCMYK", "/CMYK")
                else _PATTERN
                if name == "/Pattern"
                else _OTHER
            )
        elif operands and isinstance(operands[-1], pikepdf.Name):  # scn /Pattern name
            colour = _PATTERN
        elif current.space == "cmyk":  # sc, scn: values in the current space
            values = operand_numbers(operands)
            colour = _Colour("cmyk", tuple(values)) if values and len(values) == 4 else current
        else:
            colour = current
        if stroke:
            state.stroke = colour
        else:
            state.fill = colour

    @staticmethod
    def _text_state(op: str, operands: Sequence[object], state: _State) -> None:
        if op == "Tf":  # without its two operands: nothing
            return
        values = operand_numbers(operands)
        if not values:
            return
        if op == "Tr":
            state.mode = int(values[0])
        else:
            set_text_parameter(state, op, values[0])

    def _font_metrics(self, font: pikepdf.Object | None) -> _Metrics:
        key = font.objgen if isinstance(font, pikepdf.Object) and font.is_indirect else None
        if key is None:
            return text_metrics(font)
        if key not in self.text_metrics:
            self.text_metrics[key] = _kept_metrics(font)
        return self.text_metrics[key]

    def _show(
        self,
        operands: Sequence[object],
        state: _State,
        tm: Matrix,
        where: str,
        index: int | None,
        text_object: int | None,
    ) -> Matrix:
        """Record a text shown; the text matrix after it."""
        if not self.grounds:  # its colour and size only (where it is: not needed)
            placed = multiply(tm, state.ctm)
            self.shows.append(
                _Show(
                    len(self.paints),
                    [],
                    state.font_size * math.hypot(placed[2], placed[3]),
                    state.fill,
                    state.stroke,
                    state.mode,
                    True,
                    state.overprint,
                    where,
                    index,
                    text_object,
                    operands,
                    state.font,
                )
            )
            return tm
        advance = self._font_metrics(state.font).advance(_shown(operands), state)
        placed = multiply(tm, state.ctm)
        size = state.font_size * math.hypot(placed[2], placed[3])
        low, high = state.rise + 0.15 * state.font_size, state.rise + 0.5 * state.font_size
        # Two rows of points, an em apart along the line (a ground changing under a
        # text changes over more than an em), at least both ends.
        count = max(
            2, min(_MAX_SAMPLES // 2, math.ceil(abs(advance) / max(state.font_size, 1e-6)) + 1)
        )
        points = state.clips.inside(_text_points(placed, advance, count, (low, high)))
        if points and state.mode not in (3, 7):
            opaque = (
                not state.blended
                and state.fill_alpha >= 1.0
                and (state.mode not in _STROKE_MODES or state.stroke_alpha >= 1.0)
            )
            self.shows.append(
                _Show(
                    len(self.paints),
                    points,
                    size,
                    state.fill,
                    state.stroke,
                    state.mode,
                    opaque,
                    state.overprint,
                    where,
                    index,
                    text_object,
                    operands,
                    state.font,
                    placed,
                    advance,
                )
            )
        return multiply((1, 0, 0, 1, advance, 0), tm)

    def _do(self, operands: Sequence[object], resources: object, state: _State, where: str) -> None:
        if not operands or not isinstance(resources, pikepdf.Dictionary):
            return
        xobjects = resources.get("/XObject")
        xobject = (
            xobjects.get(str(operands[0])) if isinstance(xobjects, pikepdf.Dictionary) else None
        )
        if not isinstance(xobject, pikepdf.Stream):
            return
        if xobject.get("/Subtype") == "/Image":
            self._image(state, "an image", xobject)
        elif xobject.get("/Subtype") == "/Form":
            self._form(str(operands[0]), xobject, resources, state, where)

    def _image(self, state: _State, what: str, image: pikepdf.Object | None) -> None:
        """An image covers the unit square of the CTM; a stencil mask paints the fill
        colour."""
        ctm = state.ctm
        region = _Region.of(
            [[apply(ctm, 0, 0), apply(ctm, 1, 0), apply(ctm, 1, 1), apply(ctm, 0, 1)]], False
        )
        if region is None:
            return
        stencil = image is not None and bool(image.get("/ImageMask", False))
        colour: Ground = (
            _ground(state.fill, state.fill_alpha >= 1.0 and not state.blended) if stencil else what
        )
        plain = not (stencil or state.blended or state.fill_alpha < 1.0)  # its pixels show
        self.paints.append(_Paint(region, state.clips, colour, image if plain else None, ctm))

    def _form(
        self, name: str, form: pikepdf.Stream, resources: object, state: _State, where: str
    ) -> None:
        """A form: its matrix, bounding box (a clip) and resources; each form is read
        in every place it is drawn, never inside itself."""
        if form.objgen in self._walking or len(self._walking) >= _MAX_DEPTH:
            return
        inner = copy.copy(state)
        matrix = _matrix(list(form.get("/Matrix", [])))
        if matrix is not None:
            inner.ctm = multiply(matrix, state.ctm)
        box = operand_numbers(list(form.get("/BBox", [])))
        if box is not None and len(box) == 4:
            x0, y0, x1, y1 = box
            region = _Region.of(
                [
                    [
                        apply(inner.ctm, x0, y0),
                        apply(inner.ctm, x1, y0),
                        apply(inner.ctm, x1, y1),
                        apply(inner.ctm, x0, y1),
                    ]
                ],
                False,
            )
            if region is not None:
                inner.clips = inner.clips.plus(region)
        if "/Group" in form:
            inner.blended = inner.blended or state.fill_alpha < 1.0
        self._walking.append(form.objgen)
        try:
            instructions = pikepdf.parse_content_stream(form, self.operators)
            label = f"form {name}" if where == "page content" else f"form {name} in {where}"
            self._walk(instructions, form.get("/Resources", resources), inner, label, top=False)
        except pikepdf.PdfError:
            pass
        finally:
            self._walking.pop()


#: Every operator :class:`_Painter` reads (``INLINE IMAGE``: ``BI ... EI``).
PAINTED_OPERATORS = frozenset(_Painter._HANDLERS)

#: The operators whose operands are numbers alone (in well-formed content).
NUMERIC_OPERATORS = frozenset(
    {"m", "l", "c", "v", "y", "re", "cm", "w", "M", "j", "J", "i", "Tm", "Td", "TD"}
    | {"Tc", "Tw", "Tz", "TL", "Ts", "Tr", "k", "K", "g", "G", "rg", "RG", "sc", "SC"}
    | {"scn", "SCN"}
)


def read_instructions(instructions: Sequence[Any]) -> list[tuple[str, list[Any]]]:
    """pikepdf's parsed ``instructions`` as (operator, operands), the operands of
    :data:`NUMERIC_OPERATORS` as floats: what this module's painter and the
    preflight's readers take (each takes ``float()`` of them).

    pikepdf gives each real operand as a Decimal made from its text, which costs more
    than the rest of the reading of a path: the numbers are read from the content as
    pikepdf writes it back instead, one instruction a line (an inline image's data may
    hold line ends: then every operand is converted from pikepdf's), as the floats of
    the same text.  An operand that is not a number (a pattern's name before ``scn``)
    leaves that instruction's operands as pikepdf has them."""
    lines = pikepdf.unparse_content_stream(instructions).split(b"\n") if instructions else []
    if len(lines) != len(instructions):
        return [_numbers(str(i.operator), i.operands) for i in instructions]
    read: list[tuple[str, list[Any]]] = []
    for instruction, line in zip(instructions, lines, strict=True):
        cut = line.rfind(b" ")
        op = line[cut + 1 :].decode("latin-1")
        if op in NUMERIC_OPERATORS and cut > 0:
            try:
                read.append((op, [float(number) for number in line[:cut].split()]))
                continue
            except ValueError:
                pass
            read.append(_numbers(op, instruction.operands))
        else:
            read.append((op, list(instruction.operands)))
    return read


def _numbers(op: str, operands: Sequence[Any]) -> tuple[str, list[Any]]:
    """(``op``, its operands as floats when it is an operator of numbers and they all
    are, else as they are)."""
    if op in NUMERIC_OPERATORS and operands:
        try:
            return op, [float(value) for value in operands]
        except (TypeError, ValueError):
            pass  # a name (scn /P0) or a malformed operand: read as it is
    return op, list(operands)


def _operations(instructions: Sequence[Any]) -> Iterator[tuple[int, str, Sequence[Any]]]:
    """(index, operator, operands) of each of ``instructions`` that :class:`_Painter`
    reads (:data:`PAINTED_OPERATORS`): pikepdf's (:func:`read_instructions`), or
    (operator, operands) pairs read already, given as they are."""
    if instructions and not isinstance(instructions[0], tuple):
        instructions = read_instructions(instructions)
    for index, (op, operands) in enumerate(instructions):
        if op in PAINTED_OPERATORS:
            yield index, op, operands


#: The text state's parameters set by one number (``Tz`` in percent), by operator: the
#: attribute of the same name on every reader's text state (this module's painter, the
#: preflight's ink bound).
TEXT_PARAMETERS = {
    "Tc": "char_spacing",
    "Tw": "word_spacing",
    "Tz": "horizontal",
    "TL": "leading",
    "Ts": "rise",
}


def set_text_parameter(state: object, op: str, value: float) -> None:
    """Set the text parameter of ``op`` (:data:`TEXT_PARAMETERS`) on ``state``."""
    setattr(state, TEXT_PARAMETERS[op], value / 100 if op == "Tz" else value)


def _black(colour: _Colour) -> bool:
    """Pure black: DeviceCMYK 0 0 0 1."""
    return (
        colour.space == "cmyk"
        and len(colour.values) == 4
        and all(abs(v - b) < 1e-6 for v, b in zip(colour.values, _BLACK, strict=True))
    )


def _white(colour: _Colour) -> bool:
    """Paper white: DeviceCMYK 0 0 0 0 (no ink at all)."""
    return colour.space == "cmyk" and all(abs(v) < 1e-6 for v in colour.values)


def _ground(colour: _Colour, opaque: bool) -> Ground:
    """What a fill leaves as the ground: its DeviceCMYK colour, or what it is."""
    if not opaque:
        return "a transparent fill"
    if colour.space == "cmyk" and len(colour.values) == 4:
        return tuple(min(1.0, max(0.0, v)) for v in colour.values)
    return "a pattern" if colour.space == "pattern" else "a colour that is not DeviceCMYK"


def _along(box: Box) -> list[Point]:
    """Points along the middle of a box's long side (a rule's ground)."""
    x0, y0, x1, y1 = box
    count = 8
    if x1 - x0 >= y1 - y0:
        return [
            (x0 + (x1 - x0) * (0.02 + 0.96 * i / (count - 1)), (y0 + y1) / 2) for i in range(count)
        ]
    return [((x0 + x1) / 2, y0 + (y1 - y0) * (0.02 + 0.96 * i / (count - 1))) for i in range(count)]


# ------------------------------------------------------------------------ overprint


def _fits(painter: _Painter, points: Sequence[Point], before: int, ink_limit: float) -> bool:
    """Whether black overprinted at ``points`` stays within ``ink_limit``: every ground
    under them is a known flat colour whose C+M+Y plus the black's 100 % is at most
    the limit (black replaces the ground's own K)."""
    for ground in painter.grounds_of(points, before):
        if isinstance(ground, str):
            return False
        if (ground[0] + ground[1] + ground[2]) * 100 + 100 > ink_limit + 1e-6:
            return False
    return True


def _state_name(state: tuple[bool, bool, int]) -> str:
    stroke, fill, mode = state
    return f"/TrOP{int(stroke)}{int(fill)}{mode}"


_ON: tuple[bool, bool, int] = (True, True, 1)


def overprint_black(page: pikepdf.Page, ink_limit: float = INK_LIMIT) -> int:
    """Set pure-black text (and thin pure-black rules) of ``page``'s own content to
    overprint; returns how many text objects and rules now do.

    Each is wrapped in ``/TrOP111 gs`` (``/OP true /op true /OPM 1``: with OPM 1 the
    zero C, M and Y of ``0 0 0 1`` leave the inks under them alone) and a graphics
    state restoring the overprint that was in force; a text object all black gets
    them around BT ... ET, one of mixed colours around each black show.  Not set:
    text in a form (forms may be transparency groups, where overprint means something
    else), transparent or blended black, and black whose ground is not a known flat
    colour with C+M+Y at most ``ink_limit`` - 100 % (over an image the sum is not
    known: it keeps knocking out, as the preflight's ink check measured it before)."""
    painter = _Painter()
    instructions = painter.page(page)
    before: dict[int, list[str]] = {}
    after: dict[int, list[str]] = {}
    objects: dict[int, list[tuple[_Show, bool]]] = {}
    for show in painter.shows:
        if show.index is None or show.text_object is None:
            continue
        fills, strokes = show.mode in _FILL_MODES, show.mode in _STROKE_MODES
        black = (not fills or _black(show.fill)) and (not strokes or _black(show.stroke))
        wanted = black and show.opaque and _fits(painter, show.points, show.ground, ink_limit)
        objects.setdefault(show.text_object, []).append((show, wanted))
    done = 0
    for start, shows in objects.items():
        if all(wanted for _, wanted in shows) and start not in painter.text_gs:
            end = _text_end(instructions, start)
            if end is not None:
                before.setdefault(start, []).append(_state_name(_ON))
                after.setdefault(end, []).append(_state_name(shows[0][0].overprint))
                done += 1
                continue
        for show, wanted in shows:
            if wanted and show.index is not None:
                before.setdefault(show.index, []).append(_state_name(_ON))
                after.setdefault(show.index, []).append(_state_name(show.overprint))
                done += 1
    for rule in painter.rules:
        if rule.thin and rule.opaque and _fits(painter, rule.points, rule.ground, ink_limit):
            before.setdefault(rule.start, []).append(_state_name(_ON))
            after.setdefault(rule.index, []).append(_state_name(rule.overprint))
            done += 1
    if not done:
        return 0
    _rewrite(page, instructions, before, after)
    return done


def _text_end(instructions: Sequence[Any], start: int) -> int | None:
    for index in range(start + 1, len(instructions)):
        if str(instructions[index].operator) == "ET":
            return index
    return None


def _rewrite(
    page: pikepdf.Page,
    instructions: Sequence[Any],
    before: dict[int, list[str]],
    after: dict[int, list[str]],
) -> None:
    """Write the content again with the overprint states inserted (a restore followed
    at once by the next overprint is left out: the black simply goes on overprinting),
    and add those states to the page's resources."""
    gs = pikepdf.Operator("gs")
    out: list[Any] = []
    pending_restore = False
    used: set[str] = set()

    def emit(name: str, restore: bool) -> None:
        nonlocal pending_restore
        if not restore and pending_restore and name == _state_name(_ON):
            out.pop()  # the restore just written: overprint simply goes on
            pending_restore = False
            return
        out.append(([pikepdf.Name(name)], gs))
        used.add(name)
        pending_restore = restore

    copied = 0  # the instructions before this one are in out
    for index in sorted(before.keys() | after.keys()):
        if index > copied:
            out += instructions[copied:index]
            pending_restore = False
        for name in before.get(index, []):
            emit(name, restore=False)
        out.append(instructions[index])
        pending_restore = False
        for name in after.get(index, []):
            emit(name, restore=True)
        copied = index + 1
    out += instructions[copied:]
    resources = page.obj.get("/Resources")
    if not isinstance(resources, pikepdf.Dictionary):
        resources = page.obj.Resources = pikepdf.Dictionary()
    states = resources.get("/ExtGState")
    if not isinstance(states, pikepdf.Dictionary):
        states = resources.ExtGState = pikepdf.Dictionary()
    for name in sorted(used):
        stroke, fill, mode = name[-3] == "1", name[-2] == "1", int(name[-1])
        states[name] = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, OP=stroke, op=fill, OPM=mode)
    page.contents_coalesce()  # one stream (a page's own, written in place)
    page.obj.Contents.write(pikepdf.unparse_content_stream(out))


# ------------------------------------------------------------------------ knockouts


#: What :class:`TextCheck` reads first: the text, its colour, size and font, and the forms.
_TEXT_OPERATORS = (
    "q Q cm cs CS sc SC scn SCN k K g G rg RG gs BT ET Tc Tw Tz TL Ts Tr Tf "
    "Td TD T* Tm Tj TJ ' \" Do"
)


_SIZE_SLACK = 0.005
"""Points a text size may fall short of a floor and still be at it: WeasyPrint writes
sizes in CSS pixels scaled by 0.75, so that 8 pt comes out as 7.9999997."""


def _small_white(show: _Show) -> bool:
    """Text filled in paper white, smaller than :data:`SMALL_TEXT_PT`."""
    return (
        show.size < SMALL_TEXT_PT - _SIZE_SLACK and show.mode in _FILL_MODES and _white(show.fill)
    )


def _ink_count(ground: Ground) -> int:
    """How many inks of a flat ground are above :data:`INK_PRESENT`."""
    return 0 if isinstance(ground, str) else sum(1 for v in ground if v > INK_PRESENT)


def _inks(colour: tuple[float, ...]) -> str:
    named = [
        f"{ink} {round(value * 100):g}"
        for ink, value in zip("CMYK", colour, strict=False)
        if value > 1e-6
    ]
    return " ".join(named) + " %"


def _knockout(painter: _Painter, show: _Show) -> str | None:
    """The ``knockout`` message of a small white text (:func:`_small_white`), or None
    when its ground is paper or one ink: what misregisters on press."""
    grounds = set(painter.grounds_of(show.points, show.ground))
    unknown = sorted(g for g in grounds if isinstance(g, str))
    if unknown:
        ground_text = f"{unknown[0]} (inks not known)"
    else:
        worst = max((g for g in grounds if not isinstance(g, str)), key=_ink_count)
        if _ink_count(worst) < 2:
            return None
        ground_text = f"{_ink_count(worst)} inks ({_inks(worst)})"
    return (
        f"white text of {show.size:.1f} pt knocked out of {ground_text} in "
        f"{show.where}: it misregisters on press (coloured fringes, filled "
        f"counters); print it at {SMALL_TEXT_PT:g} pt or more, or its ground in "
        "one ink (K only, say), or the text in black"
    )


def knockouts(page: pikepdf.Page) -> list[str]:
    """White text smaller than :data:`SMALL_TEXT_PT` on a ground of more than one ink
    above :data:`INK_PRESENT` (or on an image, a shading or a pattern, whose inks are
    not known): what misregisters on press, one message per kind and place, with how
    many times it occurs.  Read from the page as painted, forms included: first its
    text alone (most pages have no small white text: a millisecond), then, if it has
    some, everything painted under it.  :class:`TextCheck` without the ``reversed``
    check (the preflight runs both in one reading)."""
    return [message for _, message in TextCheck(reversed_text=False).page(page)]


# ---------------------------------------------------------------------- reversed text


REVERSED_PT = 7.0
"""Light text on a darker ground ("reversed", knocked out of the ink around it)
smaller than this gets a ``reversed`` warning.  Prepress guides put reversed type at
7 to 8 pt at least, serifs at the upper end: the ink spreads on paper (dot gain) into
the strokes left free, which thins them and fills the serifs and counters in.  7 pt
is the floor the official Arcmage look needs (its rule text shrinks from 9 pt, its
footer is 6.2 pt, pale gold on dark frames); the default theme's white 7.5 pt second
name line (on a K 80 % strip) is above it."""

REVERSED_BOLD_PT = 6.0
"""The same floor for bold text (see :func:`_bold`): its strokes are about half as
thick again as the regular's, so the ink's spread takes less of them and it reads a
point smaller; under 6 pt no weight helps."""

REVERSED_CONTRAST = 30.0
"""How much lighter than its ground (CIE L*, 0 black to 100 paper white) a text must
be to count as reversed: a clear step, so that text on a light tint (white on a 15 %
grey, L* 88 on SWOP) or light grey on paper (darker than its ground) is not; pale gold
(L* about 88) on a dark brown frame (L* 25 to 35) is, by 50 and more."""

EXCERPT_CHARS = 30
"""How much of a reported text its warning quotes (then an ellipsis)."""

SAMPLE_PPI = 75.0
"""The resolution an image under text is decoded at (a JPEG's reduced decoding, an
other image averaged down): what is wanted is the ground's lightness, not its detail,
and a pixel of 0.34 mm is less than a 6 pt letter's x-height.  libjpeg's 1/8 decoding
(75 ppi of a 600 ppi frame) is its cheapest, though not by much: 9 ms for a card's
frame (1606 x 2220 px), 30 ms whole; hence :data:`DECODED_IMAGES`."""

DECODED_IMAGES = 48
"""Images decoded for :class:`TextCheck` are kept, by content, this many at most (200
KB each at :data:`SAMPLE_PPI`): the frames of a deck, or of the separate card files
one preflight checks, repeat (six factions times a few layouts), each page its own
copy of the same bytes."""

MAX_IMAGE_PIXELS = 60_000_000
"""An image under text larger than this is not decoded (its ground is not known):
a card's frame at 1200 ppi is 14 Mpx."""

#: A font's name whose style part says it is bold (``LiberationSerif-Bold``,
#: ``Arial,BoldItalic``, ``Inter-SemiBold``, ``Roboto-Black``).
_BOLD_STYLE = re.compile(r"bold|black|heavy|demi", re.IGNORECASE)
_BOLD_WEIGHT = 600


#: Output profiles decoded, by their stream as stored (its bytes and the entries that
#: decode them): every card PDF of a build embeds the same one, inflated once (0.9 ms a
#: file) instead of in each, and compared as it is stored (a digest of its 140 kB cost
#: 0.15 ms a file).
_PROFILES: list[tuple[bytes, bytes, bytes]] = []
_PROFILES_KEPT = 8


def intent_profile(pdf: pikepdf.Pdf) -> bytes | None:
    """The CMYK ICC profile of ``pdf``'s output intent (what its CMYK numbers mean), or
    None when it has none that can be read."""
    try:
        intents = pdf.Root.get("/OutputIntents")
        if not isinstance(intents, pikepdf.Array):
            return None
        for intent in intents:
            profile = (
                intent.get("/DestOutputProfile") if isinstance(intent, pikepdf.Dictionary) else None
            )
            if isinstance(profile, pikepdf.Stream) and int(profile.get("/N", 0)) == 4:
                return _profile_bytes(profile)
    except (pikepdf.PdfError, ValueError, TypeError, AttributeError):
        return None
    return None


def _profile_bytes(profile: pikepdf.Stream) -> bytes:
    """A profile stream's bytes, decoded once per stored content (:data:`_PROFILES`)."""
    stored = profile.read_raw_bytes()
    decoding = b" ".join(
        b"-" if value is None else value.unparse(resolved=True)
        for value in (profile.get("/Filter"), profile.get("/DecodeParms"))
    )
    for raw, entries, decoded in _PROFILES:
        if raw == stored and entries == decoding:
            return decoded
    found = profile.read_bytes()
    if len(_PROFILES) >= _PROFILES_KEPT:
        _PROFILES.clear()
    _PROFILES.append((stored, decoding, found))
    return found


@lru_cache(maxsize=4)
def _lab(icc: bytes) -> ImageCms.ImageCmsTransform | None:
    """CMYK in ``icc`` to CIE Lab, relative colorimetric (paper white is L* 100); built
    once per profile (about 15 ms), None when LittleCMS cannot use the profile."""
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        return ImageCms.buildTransform(
            source,
            ImageCms.createProfile("LAB"),
            "CMYK",
            "LAB",
            ImageCms.Intent.RELATIVE_COLORIMETRIC,
        )
    except (OSError, ImageCms.PyCMSError):
        return None


def _naive_lightness(pixel: bytes) -> float:
    """L* of a CMYK pixel converted as a viewer without a profile does: R = (1 - C)(1 -
    K) ... read as sRGB."""
    black = 1 - pixel[3] / 255
    linear = []
    for value in pixel[:3]:
        channel = (1 - value / 255) * black
        linear.append(channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4)
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    cube = luminance ** (1 / 3) if luminance > 216 / 24389 else (luminance * 24389 / 27 + 16) / 116
    return 116 * cube - 16


class Lightness:
    """The lightness (CIE L*, 0 black to 100 paper white) of DeviceCMYK colours as they
    print, to tell light text from a darker ground.

    Through the file's output profile when it has one (LittleCMS, relative
    colorimetric): the press's own inks, paper and dot gain, so that K 100 % is L* 22
    on Ghostscript's SWOP profile and a four-ink brown as dark as it prints.  Without
    one, the naive conversion a viewer makes (R = (1 - C)(1 - K) ..., as sRGB): its
    shadows are darker than print (K 100 % is L* 0, K 80 % L* 21 where SWOP prints 41),
    but text and ground go through the same conversion, and it is their difference
    that is judged."""

    def __init__(self, profile: bytes | None = None) -> None:
        self._transform = _lab(profile) if profile else None
        self._known: dict[bytes, float] = {}

    def of(self, pixels: Sequence[bytes]) -> list[float]:
        """L* of each CMYK pixel (4 bytes, 0-255 each), converted in one call."""
        wanted = [p for p in dict.fromkeys(pixels) if p not in self._known]
        if wanted and self._transform is not None:
            strip = Image.frombytes("CMYK", (len(wanted), 1), b"".join(wanted))
            try:
                lab = ImageCms.applyTransform(strip, self._transform)
            except (OSError, ImageCms.PyCMSError):  # LittleCMS refused: judge as viewers do
                self._transform = lab = None
            if lab is not None:
                for pixel, value in zip(wanted, lab.tobytes()[::3], strict=True):
                    self._known[pixel] = value * 100 / 255
                wanted = []
        for pixel in wanted:
            self._known[pixel] = _naive_lightness(pixel)
        return [self._known[p] for p in pixels]

    def colour(self, values: Sequence[float]) -> float:
        """L* of a DeviceCMYK colour (0-1 each)."""
        return self.of([_pixel(values)])[0]


def _pixel(values: Sequence[float]) -> bytes:
    return bytes(min(255, max(0, round(v * 255))) for v in values)


def _cmyk_image(image: pikepdf.Object) -> bool:
    """An image whose samples are CMYK, 8 bits each, without a mask (DeviceCMYK or a
    four-channel ICC space): what :func:`_decoded` reads."""
    space = image.get("/ColorSpace")
    if isinstance(space, pikepdf.Array) and len(space) == 2 and space[0] == "/ICCBased":
        four = isinstance(space[1], pikepdf.Stream) and int(space[1].get("/N", 0)) == 4
    else:
        four = space == "/DeviceCMYK"
    return (
        four
        and int(image.get("/BitsPerComponent", 8)) == 8
        and "/SMask" not in image
        and "/Mask" not in image
    )


#: Images decoded, by their bytes' and dictionary's digest and the reduction factor.
_DECODED: dict[tuple[bytes, int], Image.Image | None] = {}


def _decoded(image: pikepdf.Stream, matrix: Matrix) -> Image.Image | None:
    """``image``'s CMYK samples (as the PDF means them: its /Decode applied), reduced to
    about :data:`SAMPLE_PPI` at the size it is drawn with ``matrix``; None when it is
    not a CMYK image this reads, or cannot be decoded.  The same bytes are decoded once
    (:data:`DECODED_IMAGES`).

    A JPEG is decoded reduced (libjpeg's scaled decoding); Pillow inverts an Adobe CMYK
    JPEG's samples as it reads them, which a /Decode of [1 0 ...] (WeasyPrint writes it
    for such JPEGs) also does."""
    try:
        width, height = int(image.Width), int(image.Height)
        if not _cmyk_image(image) or not 0 < width * height <= MAX_IMAGE_PIXELS:
            return None
        drawn = (math.hypot(matrix[0], matrix[1]), math.hypot(matrix[2], matrix[3]))
        wanted = [max(1.0, side * SAMPLE_PPI / 72) for side in drawn]
        factor = max(1, int(min(width / wanted[0], height / wanted[1])))
        raw = image.read_raw_bytes()
        described = repr(sorted((k, str(v)) for k, v in image.items() if k != "/Length"))
        key = (hashlib.sha1(raw + described.encode(), usedforsecurity=False).digest(), factor)
        if key not in _DECODED:
            while len(_DECODED) >= DECODED_IMAGES:
                del _DECODED[next(iter(_DECODED))]
            _DECODED[key] = _decode(image, raw, factor)
        return _DECODED[key]
    except (pikepdf.PdfError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _decode(image: pikepdf.Stream, raw: bytes, factor: int) -> Image.Image | None:
    """:func:`_decoded`'s work: ``image`` (its stream's bytes ``raw``) decoded, reduced
    ``factor`` times."""
    width, height = int(image.Width), int(image.Height)
    try:
        filters = image.get("/Filter")
        names = (
            [str(f) for f in filters]
            if isinstance(filters, pikepdf.Array)
            else [str(filters)]
            if filters is not None
            else []
        )
        if names == ["/DCTDecode"]:
            picture: Image.Image = Image.open(io.BytesIO(raw))
            if picture.mode != "CMYK":
                return None
            inverted = "adobe" in picture.info  # the samples as stored are inverted
            picture.draft("CMYK", (max(1, width // factor), max(1, height // factor)))
            picture.load()
        else:
            data = image.read_bytes()
            if len(data) < width * height * 4:
                return None
            picture = Image.frombytes("CMYK", (width, height), data[: width * height * 4])
            picture = picture.reduce(factor) if factor > 1 else picture
            inverted = False
        decode = operand_numbers(list(image.get("/Decode", [])))
        if decode and len(decode) >= 2 and decode[0] > decode[1]:
            inverted = not inverted
        return picture.point(lambda v: 255 - v) if inverted else picture
    except (
        pikepdf.PdfError,
        OSError,
        ValueError,
        TypeError,
        KeyError,
        AttributeError,
        Image.DecompressionBombError,
    ):
        return None


def _bold(show: _Show) -> bool:
    """Whether a text is bold: its font's name says so in its style part (after the
    family: ``LiberationSerif-Bold``), or its descriptor's /FontWeight is 600 or more,
    or the glyphs are filled and stroked (emboldened)."""
    if show.mode in (2, 6):
        return True
    font = show.font
    if not isinstance(font, pikepdf.Dictionary):
        return False
    name = str(font.get("/BaseFont", "")).lstrip("/").split("+")[-1]
    parts = re.split(r"[-,]", name, maxsplit=1)
    if len(parts) == 2 and _BOLD_STYLE.search(parts[1]):
        return True
    try:
        descendants = font.get("/DescendantFonts")
        described = descendants[0] if isinstance(descendants, pikepdf.Array) else font
        descriptor = described.get("/FontDescriptor")
        weight = (
            descriptor.get("/FontWeight") if isinstance(descriptor, pikepdf.Dictionary) else None
        )
        return weight is not None and float(weight) >= _BOLD_WEIGHT
    except (pikepdf.PdfError, TypeError, ValueError, IndexError, AttributeError):
        return False


def _unicode(font: pikepdf.Object | None) -> dict[int, str]:
    """A font's codes to text, from its /ToUnicode CMap (bfchar and bfrange), as a
    reader copies text from the page; empty without one."""
    found: dict[int, str] = {}
    stream = font.get("/ToUnicode") if isinstance(font, pikepdf.Dictionary) else None
    if not isinstance(stream, pikepdf.Stream):
        return found
    try:
        instructions = pikepdf.parse_content_stream(stream, "endbfchar endbfrange")
    except pikepdf.PdfError:
        return found

    def text(value: object) -> str:
        return (
            bytes(value).decode("utf-16-be", "replace") if isinstance(value, pikepdf.String) else ""
        )

    for instruction in instructions:
        operands = list(instruction.operands)
        if str(instruction.operator) == "endbfchar":
            for code, value in zip(operands[0::2], operands[1::2], strict=False):
                if isinstance(code, pikepdf.String):
                    found[int.from_bytes(bytes(code), "big")] = text(value)
            continue
        for start, end, value in zip(operands[0::3], operands[1::3], operands[2::3], strict=False):
            if not (isinstance(start, pikepdf.String) and isinstance(end, pikepdf.String)):
                continue
            first, last = int.from_bytes(bytes(start), "big"), int.from_bytes(bytes(end), "big")
            for offset, number in enumerate(range(first, min(last, first + 65535) + 1)):
                if isinstance(value, pikepdf.Array):
                    found[number] = text(value[offset]) if offset < len(value) else ""
                else:
                    base = text(value)
                    found[number] = base[:-1] + chr(ord(base[-1]) + offset) if base else ""
    return found


@dataclass
class _Reversed:
    """The reversed texts of one size and weight on a page, to report in one line."""

    size: float
    bold: bool
    texts: list[str] = field(default_factory=list)
    light: list[float] = field(default_factory=list)
    dark: list[float] = field(default_factory=list)
    #: Which of the page's texts (:attr:`_Painter.shows`, by index) these are, to find
    #: the text blocks they print in.
    shows: list[int] = field(default_factory=list)
    #: What the warning quotes: the text of those blocks as printed (:func:`_reading`);
    #: None when the page's text could not be read in order, and then :attr:`texts`
    #: alone, joined.
    quote: str | None = None

    def message(self) -> str:
        """What is found, its lightnesses (a range when they differ) and the cure."""
        floor = REVERSED_BOLD_PT if self.bold else REVERSED_PT
        joined = self.quote if self.quote is not None else _joined(self.texts)
        quoted = f"'{_excerpt(joined)}' " if joined else ""
        runs = f" ({len(self.texts)} runs of text)" if len(self.texts) > 1 else ""
        cure = f"print it at {floor:g} pt or more" + (
            "" if self.bold else f", or bold at {REVERSED_BOLD_PT:g} pt or more"
        )
        return (
            f"reversed {'bold ' if self.bold else ''}text under {floor:g} pt: {quoted}"
            f"at {self.size:.1f} pt{runs}, light ({_span(self.light)}) on dark "
            f"({_span(self.dark)}): the ink spreads into its thin strokes; {cure}"
        )


def _joined(texts: Sequence[str]) -> str:
    """The reversed ``texts`` alone, in order, when the page's text cannot be read in
    order (:attr:`_Reversed.quote`): runs are pieces of lines (a font change, a line
    break); a run ends with its space where a word ends, and a line's last run has none,
    so a space is put only between runs that do not already meet at one or at
    punctuation.  The runs of other sizes, weights or colours between them (a drop cap,
    bold words) are not among them: what :func:`_reading` is for."""
    joined = ""
    for text in texts:
        piece = " ".join(text.split())
        if not piece:
            continue
        if (
            joined
            and not joined.endswith(" ")
            and not text[:1].isspace()
            and piece[0] not in ",.;:!?)»’"
        ):
            joined += " "
        joined += piece + (" " if text[-1:].isspace() else "")
    return joined.strip()


# How a text shown follows the one shown before it on the page (:func:`_reading`).
_BREAK = 0  # elsewhere: another text block starts
_GLUED = 1  # on the same line, touching it: the same word goes on (a font change)
_SPACED = 2  # on the same line, after a gap: a space
_NEXT_LINE = 3  # at the start of the next line of the same block: a space, unless hyphenated

READING_SPACE_EM = 0.15
"""A gap between two texts on one line wider than this (in em of the smaller text)
reads as a space: a word space is a quarter of an em or more in the fonts of cards
(Gentium's 0.25 em, stretched, never shrunk, by justification), kerning and a font's
side bearings a few hundredths."""

READING_GAP_EM = 3.0
"""A gap on one line wider than this (em) is no longer a space, or an inline symbol
between words (a cypher disc with its spaces is 0.7 to 1.4 em), but another text on
the same baseline: the card's name and its cost, 3.5 em apart and more in the default
theme."""

READING_LINE_EM = 3.2
"""Lines of one text block are at most this far apart (baseline to baseline, em of the
smaller text): 1.25 within a paragraph, 1.75 between paragraphs (half a line between
them), 3 after a one-line paragraph opened by a drop cap or a large mark (two lines
tall) or around an empty paragraph.  The type line or the footer, a box away, are
farther (4 em and more in the official look)."""

READING_LINE_SIZES = 1.02
"""Lines of one text block differ in size by at most this ratio (the writer's
rounding): a text box is scaled whole, so that its lines have one size, bold and
italic runs included; the type line above it (7.5 pt over text of 7.9 pt in the
default theme, 1.8 em above it: as far as a paragraph) has another."""

DROP_CAP_RATIO = 1.5
"""A text of a few letters at least this many times larger than the next text, beside
the lines it shows on, is that text's drop cap: the first letter of its word."""

#: Ends of a line whose word goes on on the next line: a hyphen after a letter.
_HYPHENATED = re.compile(r"\S[-\u2010\u00ad]$")
#: The hyphens a line break adds (a theme's ``hyphenate-character``, U+2010 in the
#: default one, or a soft hyphen shown), not the word's own: card text writes its
#: compounds' hyphens as U+002D (``mort-vivant``), which stays.
_BREAK_HYPHENS = "\u2010\u00ad"


@dataclass(frozen=True)
class _Placed:
    """Where a text shown is printed (page space): its baseline's start and end, the
    unit vectors along its line and up its glyphs, its size."""

    start: Point
    end: Point
    along: Point
    up: Point
    size: float


def _placed(show: _Show) -> _Placed | None:
    """Where ``show`` is printed; None when it is not placed (read without its
    position) or its matrix is degenerate."""
    line = show.line
    if line is None or not show.size > 0:
        return None
    a, b, c, d, e, f = line
    across, height = math.hypot(a, b), math.hypot(c, d)
    if not (across > 1e-9 and height > 1e-9 and math.isfinite(show.advance)):
        return None
    end = (e + a * show.advance, f + b * show.advance)
    return _Placed((e, f), end, (a / across, b / across), (c / height, d / height), show.size)


def _glyphs(show: _Show) -> int:
    """How many glyphs ``show`` prints (two bytes a glyph in a composite font)."""
    count = sum(len(item) for item in _shown(show.operands) if isinstance(item, bytes))
    font = show.font
    two_byte = isinstance(font, pikepdf.Dictionary) and font.get("/Subtype") == "/Type0"
    return count // 2 if two_byte else count


def _follows(before: _Show, was: _Placed, now: _Placed) -> int:
    """How a text placed at ``now`` follows ``before`` (placed at ``was``) in reading:
    :data:`_GLUED`, :data:`_SPACED`, :data:`_NEXT_LINE` or :data:`_BREAK`."""
    if was.along[0] * now.along[0] + was.along[1] * now.along[1] < 0.99:
        return _BREAK  # another direction: another text
    # How far past the end of the one before it starts, along the line; how far below
    # its baseline (positive: lower), in page points.
    gap = (now.start[0] - was.end[0]) * was.along[0] + (now.start[1] - was.end[1]) * was.along[1]
    drop = (was.start[0] - now.start[0]) * was.up[0] + (was.start[1] - now.start[1]) * was.up[1]
    small, large = min(was.size, now.size), max(was.size, now.size)
    if (
        was.size >= DROP_CAP_RATIO * now.size
        and -was.size <= drop <= 0.3 * now.size
        and -0.3 * now.size <= gap <= 0.5 * was.size
        and _glyphs(before) <= 3
    ):
        return _GLUED  # a drop cap, its word on the line beside it
    if abs(drop) <= 0.3 * small:
        if large <= DROP_CAP_RATIO * small and -0.5 * small <= gap <= READING_GAP_EM * small:
            return _SPACED if gap > READING_SPACE_EM * small else _GLUED
        return _BREAK
    if (
        large <= READING_LINE_SIZES * small
        and 0.6 * small <= drop <= READING_LINE_EM * small
        and gap <= 0
    ):
        return _NEXT_LINE
    return _BREAK


def _reading(shows: Sequence[_Show]) -> list[tuple[int, int]]:
    """Each text shown on a page, in the order painted (the reading order of the
    pages this checks: WeasyPrint paints lines in order, and a drop cap before its
    line), as (its text block, how it follows the one before: :data:`_GLUED`...).

    A warning quotes the text as printed, not the texts it is about alone: a drop cap,
    bold words or the words of another colour are other texts (another font, size or
    operator), which the warning may not concern, and the spaces between texts are
    often no glyph at all but a gap in their positions (a word in bold between plain
    ones: neither run holds the space).  So texts are read with their positions:
    one follows the one before on its line (touching it, or after a gap: a space), or
    starts the next line of the same block (or paragraph), or a drop cap opens it;
    anything else starts another block."""
    found: list[tuple[int, int]] = []
    block = -1
    before: tuple[_Show, _Placed] | None = None
    for show in shows:
        now = _placed(show)
        how = _BREAK if before is None or now is None else _follows(*before, now)
        if how == _BREAK:
            block += 1
        found.append((block, how))
        before = None if now is None else (show, now)
    return found


def _line_starts(reading: Sequence[tuple[int, int]], shows: Iterable[int]) -> dict[int, int]:
    """For each text block (of ``reading``, :func:`_reading`) holding some of the texts
    ``shows`` (their indexes, in order), the index of the text that starts the line of
    the first of them."""
    starts: dict[int, int] = {}
    for number in shows:
        block = reading[number][0]
        if block not in starts:
            first = number
            while first > 0 and reading[first][1] in (_GLUED, _SPACED):
                first -= 1
            starts[block] = first
    return starts


def _top_left(show: _Show) -> tuple[float, float]:
    """Where ``show`` starts, to order text blocks top to bottom, then left to right
    (page space, tenths of a point)."""
    placed = _placed(show)
    return (0.0, 0.0) if placed is None else (-round(placed.start[1], 1), placed.start[0])


def _printed(runs: Sequence[tuple[int, str]]) -> str:
    """The text of a block's runs, each (how it follows the one before, its text), as
    printed: a run's own spaces kept (one, however many), a space where the positions
    show one or a line ends.  A word hyphenated at a line's end is read whole (its
    line joins the next without a space, the hyphen the break added left out, so that
    the quote can be found in the card's text); a run with no text (codes its font
    cannot name) keeps the space due before it."""
    joined = ""
    space = False
    for how, text in runs:
        words = " ".join(text.split())
        if how == _NEXT_LINE and _HYPHENATED.search(joined):
            if joined[-1] in _BREAK_HYPHENS:
                joined = joined[:-1]
        elif how in (_SPACED, _NEXT_LINE) or text[:1].isspace():
            space = True
        if words:
            joined += (" " if space and joined else "") + words
            space = text[-1:].isspace()
    return joined


def _excerpt(text: str) -> str:
    """The first :data:`EXCERPT_CHARS` of ``text``, cut after a word when one ends in
    the second half, with an ellipsis when cut."""
    if len(text) <= EXCERPT_CHARS:
        return text
    cut = text[: EXCERPT_CHARS + 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > EXCERPT_CHARS // 2 else cut[:EXCERPT_CHARS]).rstrip() + "…"


def _span(values: Sequence[float]) -> str:
    low, high = round(min(values)), round(max(values))
    return f"L* {low}" if low == high else f"L* {low}-{high}"


class TextCheck:
    """The preflight's warnings about text and its ground, for the pages of one file:

    * ``knockout``: white text under :data:`SMALL_TEXT_PT` knocked out of a ground of
      several inks (:func:`knockouts`): it misregisters;
    * ``reversed``: text at least :data:`REVERSED_CONTRAST` lighter (L*, through the
      file's output profile: :class:`Lightness`) than what is painted under it, a flat
      colour or a CMYK image's pixels, smaller than :data:`REVERSED_PT`
      (:data:`REVERSED_BOLD_PT` bold): the ink's spread makes it hard to read.  One
      line per size and weight on a page, quoting the text.

    White text small enough gets both: two faults with two cures (its ground in one
    ink, or the text in black, for the registration; its size or weight for the ink's
    spread), and 8 pt cures both.

    Both read the page as painted, in one reading: first the text alone (a page with
    no small light text costs 2 ms), then everything painted under it (8 ms).  The
    ground of a text is the median lightness under the points it is looked at; points
    over a shading, a pattern, a transparent fill or an image this does not decode are
    left out, and a text with no known ground is not judged.  One check serves a
    file's pages: the lightnesses and the images decoded are kept."""

    def __init__(self, profile: bytes | None = None, *, reversed_text: bool = True) -> None:
        self.reversed_text = reversed_text
        self.lightness = Lightness(profile)
        self._images: dict[tuple[int, int], Image.Image | None] = {}
        self._unicode: dict[tuple[int, int], dict[int, str]] = {}

    def page(
        self, page: pikepdf.Page, parsed: Sequence[tuple[str, Sequence[Any]]] | None = None
    ) -> list[tuple[str, str]]:
        """(code, message) of every warning about ``page``'s text, knockouts first.
        ``parsed``: the page's content already parsed, with at least
        :data:`PAINTED_OPERATORS` (the preflight's content walk shares its own)."""
        first = _Painter(_TEXT_OPERATORS, grounds=False).walked(page, parsed)
        if not any(_small_white(s) or self._small_light(s) for s in first.shows):
            return []
        painter = _Painter().walked(page, parsed)
        knocked: dict[str, int] = {}
        reversed_texts: dict[tuple[float, bool], _Reversed] = {}
        for number, show in enumerate(painter.shows):
            message = _knockout(painter, show) if _small_white(show) else None
            if message is not None:
                knocked[message] = knocked.get(message, 0) + 1
            if self._small_light(show):
                self._reversed(painter, show, number, reversed_texts)
        if reversed_texts:
            self._quote(painter.shows, reversed_texts.values())
        return [("knockout", m if n == 1 else f"{m} ({n} times)") for m, n in knocked.items()] + [
            ("reversed", found.message()) for found in reversed_texts.values()
        ]

    def _quote(self, shows: Sequence[_Show], groups: Iterable[_Reversed]) -> None:
        """Set each group's :attr:`_Reversed.quote`: its texts as the card prints them
        (:func:`_reading`), drop cap, bold words and spaces included.  In each text
        block holding some of them, from the start of the line of the first (the
        drop cap or the bold words before it on its line are part of what is read
        there; the lines above, another paragraph maybe in another colour, are not
        what the warning is about) to the block's end; blocks top to bottom (a
        positioned paragraph is painted after the others).  Only those texts are
        decoded, the reversed ones once (a page with reversed text has a dozen or
        two).  A page whose text cannot be read so (a font or string this cannot
        decode) keeps the reversed texts alone, joined as they were (:func:`_joined`):
        a quote is worth no failed check."""
        groups = list(groups)
        texts = {n: text for g in groups for n, text in zip(g.shows, g.texts, strict=False)}
        try:
            reading = _reading(shows)
            for group in groups:
                starts = _line_starts(reading, group.shows)
                printed = []
                for block, first in sorted(starts.items(), key=lambda s: _top_left(shows[s[1]])):
                    runs: list[tuple[int, str]] = []
                    for number in range(first, len(reading)):
                        if reading[number][0] != block:
                            break
                        if number not in texts:
                            texts[number] = self._text(shows[number])
                        runs.append((reading[number][1] if runs else _BREAK, texts[number]))
                    printed.append(_printed(runs))
                group.quote = " ".join(text for text in printed if text) or None
        except (
            pikepdf.PdfError,
            ValueError,
            TypeError,
            ArithmeticError,
            LookupError,
            AttributeError,
        ):
            return

    def _small_light(self, show: _Show) -> bool:
        """A text that may be reversed: filled, opaque, in DeviceCMYK, under
        :data:`REVERSED_PT`, and light enough to be that much lighter than a ground."""
        return (
            self.reversed_text
            and show.size < REVERSED_PT - _SIZE_SLACK
            and show.opaque
            and show.mode in _FILL_MODES
            and show.fill.space == "cmyk"
            and len(show.fill.values) == 4
            and self.lightness.colour(show.fill.values) >= REVERSED_CONTRAST
        )

    def _reversed(
        self,
        painter: _Painter,
        show: _Show,
        number: int,
        found: dict[tuple[float, bool], _Reversed],
    ) -> None:
        """Add ``show`` (the ``number``-th of the page's texts) to the page's reversed
        texts when it is one."""
        bold = _bold(show)
        if show.size >= (REVERSED_BOLD_PT if bold else REVERSED_PT) - _SIZE_SLACK:
            return
        under = painter.under(show.points, show.ground)
        pixels = [p for p in map(self._pixel, under, show.points) if p is not None]
        if not pixels:
            return
        ground = statistics.median(self.lightness.of(pixels))
        light = self.lightness.colour(show.fill.values)
        if light - ground < REVERSED_CONTRAST:
            return
        group = found.setdefault((round(show.size, 1), bold), _Reversed(round(show.size, 1), bold))
        group.texts.append(self._text(show))
        group.shows.append(number)
        group.light.append(light)
        group.dark.append(ground)

    def _pixel(self, paint: _Paint | None, point: Point) -> bytes | None:
        """The CMYK pixel ``paint`` (the one :meth:`_Painter.under` found, None: paper)
        paints at ``point``, or None when it is not known."""
        x, y = point
        if paint is None:
            return _pixel(_PAPER)
        if not isinstance(paint.colour, str):
            return _pixel(paint.colour)
        image = paint.image
        if not isinstance(image, pikepdf.Stream):
            return None
        key = image.objgen
        if key not in self._images or key == (0, 0):
            self._images[key] = _decoded(image, paint.matrix)
        picture = self._images[key]
        a, b, c, d, e, f = paint.matrix
        det = a * d - b * c
        if picture is None or abs(det) < 1e-12:
            return None
        u = ((x - e) * d - (y - f) * c) / det
        v = ((y - f) * a - (x - e) * b) / det
        column = min(picture.width - 1, max(0, int(u * picture.width)))
        row = min(picture.height - 1, max(0, int((1 - v) * picture.height)))
        pixel = picture.getpixel((column, row))
        assert isinstance(pixel, tuple)  # a CMYK picture (_decoded): four bands
        return bytes(pixel)

    def _text(self, show: _Show) -> str:
        """What ``show`` shows, as a reader copies it (its font's /ToUnicode; the
        codes as Latin-1 for a simple font without one)."""
        font = show.font
        if not isinstance(font, pikepdf.Dictionary):
            return ""
        key = font.objgen
        if key not in self._unicode or key == (0, 0):
            self._unicode[key] = _unicode(font)
        table = self._unicode[key]
        two_byte = font.get("/Subtype") == "/Type0"
        text: list[str] = []
        for item in _shown(show.operands):  # a TJ array read at once, as it is placed
            if isinstance(item, bytes):
                if two_byte:
                    text += (
                        table.get(item[i] << 8 | item[i + 1], "")
                        for i in range(0, len(item) - 1, 2)
                    )
                else:
                    text += (table.get(code, "" if code < 32 else chr(code)) for code in item)
            elif item < -250:  # a gap as wide as a space
                text.append(" ")
        return "".join(text)
