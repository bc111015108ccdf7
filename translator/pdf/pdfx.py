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

The black overprint (:mod:`.overprint`) and the preflight's text checks
(:mod:`.textcheck`) read the painting with :mod:`.painter`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import uuid
import zlib
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from importlib import metadata
from pathlib import Path

import pikepdf
import yaml

from .. import __version__
from ..errors import InvalidValue
from ..shipped import templates_root
from ..yamlfile import safe_load
from .overprint import overprint_black
from .profiles import INK_LIMIT, Profile, ProfileError

PDFX_VERSION = "PDF/X-4"
"""What every print file claims to be (``GTS_PDFXVersion``)."""

MAX_PDF_VERSION = "1.6"
"""The newest PDF version a PDF/X-4 file may declare (ISO 15930-7)."""

CUSTOM = "Custom"
"""The OutputConditionIdentifier of a profile that characterises no registered
condition (its embedded profile says everything)."""

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
