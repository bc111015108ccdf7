"""The translation memory out to TMX files and back in (Weblate, OmegaT, any CAT tool).

TMX 1.4 is how translation memories travel: Weblate imports and exports it, OmegaT
keeps its project memory in it.  Writing and parsing are translate-toolkit's
(:class:`translate.storage.tmx.tmxfile`, as Weblate's own), so that what we write is
what those tools read:

- the header says ``srclang="en"`` and ``creationtool="translator"``;
- one ``<tu>`` per unit of the memory, with ``<tuv xml:lang="en">`` and the
  translation's ``<tuv>``, and what the memory knows of it as properties that other
  tools keep and ignore: ``x-kind`` (name, subtype, info, paragraph, sentence),
  ``x-origin`` (the card, ``deck/slug``), ``x-state`` (reviewed, translated,
  imported) and, for a text that printed its card's own name, ``x-name`` and
  ``x-target-name``, so that the unit read back matches "Herald deals 2 damage" as it
  matched on the card Courier.  The texts themselves are as the card writes them,
  its name included (the memory's placeholder never leaves it).

A TMX file read in is a stranger's file, read as :mod:`.exchange` reads an XLIFF file
(docs/security.md): a regular file within
:data:`~translator.limits.MAX_EXCHANGE_BYTES` and at most
:data:`~translator.limits.MAX_EXCHANGE_ENTRIES` units, counted before parsing; no
entity declarations and no internal DTD subset (the one document type declaration
TMX writers put there, ``<!DOCTYPE tmx SYSTEM "tmx14.dtd">``, is let through: the
parser never loads it, and never resolves an entity); what cannot be read is one
:class:`~translator.textio.InputError` naming the file and the line.  Then, unit by
unit:

- the source language must be English (``srclang`` ``en``, ``EN-US``, ``*all*``)
  and the translation the one asked for (``fr-FR``, ``FR``, ``fr_CA``: ``fr``); a
  unit without both is skipped and counted, as is a segment holding inline codes
  (``<bpt>``, ``<ph>``: markup of another file format, not card text) and a unit
  with no translation, or the English as its translation;
- a unit without ``x-kind`` (a foreign TMX) is a *sentence* when its English is one
  sentence (one line, no ability name before a reminder), else a *paragraph*, and
  then its sentences are units too where both sides have as many, with the same
  numbers and symbols (as the memory cuts a card's paragraphs); the memory looks a
  card's one-sentence paragraphs up among the sentences too;
- a translation is checked as a PO target is: one line for a name, subtype or footer,
  no control or invisible character (:mod:`translator.untrusted`), within the text
  limits, and no error of ``translator markup check`` in a paragraph or sentence; a
  unit that fails is refused, with its line.

Every unit read in is an *imported* one: whatever its ``x-state`` says, a card of the
library wins over it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from lxml import etree
from translate.storage import tmx

from .. import __version__
from ..cards.model import SOURCE_LANGUAGE
from ..limits import MAX_EXCHANGE_BYTES, MAX_EXCHANGE_ENTRIES
from ..textio import InputError, decode, read_file
from ..untrusted import field_problem
from .incoming import (
    DECLARATION,
    XML_ROOT,
    Lines,
    language_code,
    markup_errors,
    parse_problem,
    shown,
)
from .memory import (
    KINDS,
    NAME,
    Origin,
    Unit,
    agree,
    segments,
)

#: What the messages call the file.
WHAT = "TMX file"
#: The one-line kinds (a name line, the subtype, the footer).
LINE_KINDS = ("name", "subtype", "info")
#: TMX's segment type of each kind (the ``segtype`` of a ``<tu>``).
SEGTYPES = {
    "name": "phrase",
    "subtype": "phrase",
    "info": "phrase",
    "paragraph": "paragraph",
    "sentence": "sentence",
}
#: The properties translator writes on a ``<tu>`` (``x-``: a tool's own, in TMX).
PROP_KIND, PROP_ORIGIN, PROP_STATE = "x-kind", "x-origin", "x-state"
PROP_NAME, PROP_TARGET_NAME = "x-name", "x-target-name"

_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
#: ``<tu`` as a unit starts (counted before the file is parsed).
_TU = re.compile(r"<tu(?=[\s/>])")
#: The document type declaration TMX writers put in every file (translate-toolkit,
#: OmegaT, Heartsome): a name and an external identifier, no internal subset.  The
#: parser reads no DTD, so it cannot bring anything in.
_PLAIN_DOCTYPE = re.compile(
    r"<!DOCTYPE[ \t\r\n]+tmx[ \t\r\n]+"
    r"(?:SYSTEM|PUBLIC[ \t\r\n]+(?:\"[^\"<>\[\]]*\"|'[^'<>\[\]]*'))[ \t\r\n]+"
    r"(?:\"[^\"<>\[\]]*\"|'[^'<>\[\]]*')[ \t\r\n]*>",
    re.IGNORECASE,
)
_SRCLANG = re.compile(r"\bsrclang[ \t\r\n]*=")
#: The longest ``x-origin`` kept (a ``deck/slug``, a file name).
_MAX_ORIGIN = 200


# --------------------------------------------------------------------------------------
# Out


def write_tmx(units: Iterable[Unit], lang: str) -> bytes:
    """A TMX 1.4 file of ``units`` (English into ``lang``), as Weblate and OmegaT
    read it."""
    store = tmx.tmxfile(sourcelanguage=SOURCE_LANGUAGE, targetlanguage=lang)
    header = store.document.getroot().find(store.namespaced("header"))
    assert header is not None  # the skeleton's
    header.set("creationtool", "translator")
    header.set("creationtoolversion", __version__)
    header.set("segtype", "paragraph")
    for unit in units:
        tu = store.addsourceunit(unit.english)
        tu.settarget(unit.target, lang)
        element = tu.xmlelement
        element.set("segtype", SEGTYPES[unit.kind])
        props = [
            (PROP_KIND, unit.kind),
            (PROP_ORIGIN, unit.origin.where),
            (PROP_STATE, unit.origin.state),
        ]
        if unit.name and unit.target_name:
            props += [(PROP_NAME, unit.name), (PROP_TARGET_NAME, unit.target_name)]
        # TMX 1.4: a <tu>'s notes and properties come before its <tuv>s.
        for index, (kind, value) in enumerate(props):
            prop = etree.Element(tu.namespaced("prop"))
            prop.set("type", kind)
            prop.text = value
            element.insert(index, prop)
    return bytes(store)


# --------------------------------------------------------------------------------------
# In


@dataclass
class Refused:
    """A unit of a TMX file that cannot go into the memory."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "message": self.message}


@dataclass
class TmxContent:
    """What a TMX file brings to the memory of one language, and what it does not."""

    path: str
    lang: str
    units: list[Unit] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    #: Units without an English segment or one in ``lang`` (another language pair).
    other_language: int = 0
    #: Units with no translation, or the English as their translation.
    untranslated: int = 0
    #: Units whose segments hold inline codes (another file format's markup).
    inline: int = 0
    #: Units the file holds twice (the same kind, English and translation).
    duplicates: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "units": len(self.units),
            "refused": [r.to_dict() for r in self.refused],
            "skipped": {
                "other_language": self.other_language,
                "untranslated": self.untranslated,
                "inline_codes": self.inline,
                "duplicates": self.duplicates,
            },
        }


def read_tmx(path: str, lang: str, data: bytes | None = None) -> TmxContent:
    """The units of the TMX file ``path`` (its bytes ``data`` when read already) from
    English into ``lang``, each checked; :class:`InputError` naming the file and line
    when it is no TMX file, or one that is not to be parsed."""
    if data is None:
        data = read_file(path, MAX_EXCHANGE_BYTES, WHAT)
    text = decode(data, path)
    lines = Lines(text)
    _check_xml(path, text, lines)
    try:
        store = tmx.tmxfile.parsestring(data)
    except Exception as error:  # lxml and translate-toolkit raise many kinds
        if isinstance(error, AssertionError):  # translate-toolkit's check of the root
            raise InputError(path, "not a valid TMX file: its root element is not tmx") from None
        reason, line = parse_problem("tmx", error)
        raise InputError(path, f"not a valid TMX file: {reason}", line) from None
    root = store.document.getroot()
    entity = next(root.iter(etree.Entity), None)
    if entity is not None:
        raise InputError(
            path,
            f"not a valid TMX file: it uses the entity {shown(str(entity.text), 40)}, which "
            "no TMX file needs (only &amp; &lt; &gt; &quot; &apos;); it is refused",
            _line(entity),
        )
    _check_source_language(path, root, store, text, lines)
    content = TmxContent(path, lang)
    seen: set[tuple[tuple[str, str], str]] = set()
    for tu in store.units:
        for unit in _units(path, lang, tu.xmlelement, content):
            identity = (unit.key, unit.target_for(NAME))
            if identity in seen:
                content.duplicates += 1
                continue
            seen.add(identity)
            content.units.append(unit)
    return content


def read_units(path: Path, lang: str) -> list[Unit]:
    """The units of a TMX file kept in a library's memory folder (what
    :func:`~.stored.load_memory` adds): what ``translator import tmx`` checked and
    wrote there; a unit that is refused now (the file was edited by hand) is left
    out, a file that cannot be read is an :class:`InputError`."""
    return read_tmx(str(path), lang).units


def _check_xml(path: str, text: str, lines: Lines) -> None:
    """Refuse before it is parsed a file that declares entities or an internal DTD
    subset, that is no TMX file, or that holds more units than the limit."""
    root_at = text.find("<tmx")
    plain = _PLAIN_DOCTYPE.search(text, 0, root_at if root_at >= 0 else len(text))
    doctype = DECLARATION.search(text)
    if doctype is not None and plain is not None and doctype.start() == plain.start():
        doctype = DECLARATION.search(text, plain.end())  # the plain declaration is fine
    if doctype is not None:
        raise InputError(
            path,
            "not a valid TMX file: it declares entities or a document type of its own "
            "(<!ENTITY, <!DOCTYPE ... [ ]), which TMX files have no use for (<!DOCTYPE tmx "
            'SYSTEM "tmx14.dtd"> alone is fine); they are refused',
            lines.at(doctype.start()),
        )
    root = XML_ROOT.match(text, plain.end() if plain is not None else 0)
    if root is not None and root.group(1) != "tmx":
        raise InputError(
            path,
            f"not a valid TMX file: its root element is {shown(root.group(1), 40)}, not tmx",
            lines.at(root.start(1)),
        )
    for count, match in enumerate(_TU.finditer(text), start=1):
        if count > MAX_EXCHANGE_ENTRIES:
            raise InputError(
                path,
                f"more than {MAX_EXCHANGE_ENTRIES:,} units (the limit of a {WHAT}; the "
                "memory of the whole card base has a few thousand): is this the right file?",
                lines.at(match.start()),
            )


def _check_source_language(
    path: str, root: etree._Element, store: tmx.tmxfile, text: str, lines: Lines
) -> None:
    """The header's ``srclang`` must be English (or TMX's ``*all*``)."""
    header = root.find(store.namespaced("header"))
    source = header.get("srclang") if header is not None else None
    if source is None or language_code(source) in (SOURCE_LANGUAGE, "*all*"):
        return
    # The header comes before the units: the first srclang is its own.
    found = _SRCLANG.search(text)
    line = lines.at(found.start()) if found is not None else _line(root)
    raise InputError(
        path,
        f"the source language (the header's srclang) is {shown(source, 40)}: the memory "
        'translates the English of the cards (srclang="en"); export the memory from '
        "English",
        line,
    )


def _units(path: str, lang: str, tu: etree._Element, content: TmxContent) -> list[Unit]:
    """One ``<tu>`` as memory units: none (skipped, counted in ``content``, or
    refused, listed there), one, or, for a foreign file's paragraph, the paragraph and
    its sentences (as the memory cuts a card's: lines, an ability's name and reminder,
    sentences) where both sides have as many, holding the same numbers and symbols."""
    unit = _unit(path, lang, tu, content)
    if unit is None or unit.kind != "paragraph" or PROP_KIND in _props(tu):
        return [] if unit is None else [unit]
    english, target = segments(unit.english), segments(unit.target)
    if len(english) != len(target):
        return [unit]
    found = [unit]
    for one, other in zip(english, target, strict=True):
        if agree(one, other) and " ".join(one.split()) != " ".join(other.split()):
            if _problem("sentence", one, other) is None:
                found.append(replace(unit, kind="sentence", english=one, target=other))
    return found


def _unit(path: str, lang: str, tu: etree._Element, content: TmxContent) -> Unit | None:
    """One ``<tu>`` as a memory unit, or None: skipped (counted in ``content``) or
    refused (listed there)."""
    pair = _pair(lang, tu, content)
    if pair is None:
        return None
    english, target = pair
    props = _props(tu)
    kind = props.get(PROP_KIND)
    if kind is None:  # a foreign file's unit: one sentence, or a paragraph
        kind = "paragraph" if len(segments(english)) > 1 else "sentence"
    problem = (
        _problem(kind, english, target)
        if kind in KINDS
        else f"its {PROP_KIND} is {shown(kind, 40)}, not one of the memory's kinds "
        f"({', '.join(KINDS)})"
    )
    if problem is not None:
        content.refused.append(Refused(path, _line(tu), f"{shown(english, 60)}: {problem}"))
        return None
    name, target_name = _names(kind, props)
    origin = Origin("imported", _origin(props.get(PROP_ORIGIN)) or Path(path).name, path)
    return Unit(kind, english, target, origin, name, target_name)


def _pair(lang: str, tu: etree._Element, content: TmxContent) -> tuple[str, str] | None:
    """(English, translation) of a ``<tu>``, or None: a unit of another language
    pair, with inline codes, or untranslated (counted in ``content``)."""
    if language_code(tu.get("srclang") or SOURCE_LANGUAGE) not in (SOURCE_LANGUAGE, "*all*"):
        content.other_language += 1
        return None
    segments: dict[str, etree._Element | None] = {}
    for tuv in tu.iterchildren(_tag(tu, "tuv")):
        # TMX 1.4 writes xml:lang, TMX 1.1 (older OmegaT) lang.
        code = language_code(tuv.get(_XML_LANG) or tuv.get("lang"))
        segments.setdefault(code, tuv.find(_tag(tu, "seg")))
    if SOURCE_LANGUAGE not in segments or lang not in segments:
        content.other_language += 1
        return None
    source, translation = segments[SOURCE_LANGUAGE], segments[lang]
    if source is None or translation is None:
        content.untranslated += 1
        return None
    if _inline(source) or _inline(translation):
        content.inline += 1
        return None
    english, target = _text(source), _text(translation)
    if not english or not target or " ".join(english.split()) == " ".join(target.split()):
        content.untranslated += 1
        return None
    return english, target


def _line(element: etree._Element) -> int:
    """The line an element starts on (0: unknown)."""
    return int(getattr(element, "sourceline", 0) or 0)


def _tag(element: etree._Element, name: str) -> str:
    """``name`` in the namespace of ``element`` (TMX has none; a file may give one)."""
    namespace = etree.QName(element).namespace
    return f"{{{namespace}}}{name}" if namespace else name


def _inline(seg: etree._Element) -> bool:
    """Does a segment hold inline codes (``<bpt>``, ``<ph>``, ``<hi>``...)?"""
    return any(isinstance(child.tag, str) for child in seg)


def _text(seg: etree._Element) -> str:
    """A segment's text, its surrounding spaces left out (a card's lines have none)."""
    return cast(str, seg.xpath("string()")).strip()


def _props(tu: etree._Element) -> dict[str, str]:
    """A unit's ``<prop type="...">`` values (the first of each type)."""
    found: dict[str, str] = {}
    for prop in tu.iterchildren(_tag(tu, "prop")):
        kind = prop.get("type")
        if kind:
            found.setdefault(kind, cast(str, prop.xpath("string()")).strip())
    return found


def _problem(kind: str, english: str, target: str) -> str | None:
    """Why a unit cannot go into the memory (as a PO target could not go into a card),
    or None."""
    one_line = kind in LINE_KINDS
    for side, text in (("English", english), ("translation", target)):
        if one_line and "\n" in text:
            return f"a {kind} is one line; the {side} has several"
        bad = field_problem(text, one_line)
        if bad is not None:
            return f"the {side} {bad[0]} ({bad[1]})"
        if "\ufffc" in text:
            return (
                f"the {side} holds U+FFFC OBJECT REPLACEMENT CHARACTER, which prints "
                "nothing (the memory keeps it for itself): delete it"
            )
    if not one_line:
        errors = markup_errors(target)
        if errors:
            return "the translation breaks the card markup: " + "; ".join(errors)
    return None


def _names(kind: str, props: dict[str, str]) -> tuple[str | None, str | None]:
    """The card names a text printed (``x-name``, ``x-target-name``), when both are
    names (one line, nothing invisible); else none."""
    name, target_name = props.get(PROP_NAME), props.get(PROP_TARGET_NAME)
    if kind in ("name", "subtype") or not name or not target_name:
        return None, None
    for value in (name, target_name):
        if field_problem(value, True) is not None or "\ufffc" in value:
            return None, None
    return name, target_name


def _origin(value: str | None) -> str | None:
    """An ``x-origin`` worth showing (a card, a file name), else None."""
    if not value or len(value) > _MAX_ORIGIN:
        return None
    return value if field_problem(value, True) is None else None


# --------------------------------------------------------------------------------------
# The library's memory folder
