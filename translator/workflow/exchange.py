"""Translations out to gettext PO and XLIFF files, and back into the card files.

Translators work in Poedit, in Weblate, in any CAT tool; they all read PO, most read
XLIFF.  A file holds one entry per translatable unit of a deck's cards
(:mod:`.fields`): the card and unit as its context (``courier:text``), the English
as the source, the translation as the target, and for the translator a note with
the card's type and faction and the glossary's words for the terms and abilities
the English uses.  An entry is *fuzzy* when its translation is stale (the English
changed since; the old English is given as the previous source when git has it)
or a draft's.

Reading and writing both formats is translate-toolkit's (the library Weblate itself
uses for them), so that what we write is what those tools read.

Importing writes back only what changed, entry by entry:

- an empty or fuzzy target changes nothing (``fuzzy=True`` imports fuzzy targets as
  drafts);
- an entry whose English is no longer the card's is refused (the file is older than
  the card: export again);
- a target that breaks the card markup (an error of ``translator markup check``), a
  name on two lines, a control or invisible character (:mod:`translator.untrusted`), a
  text longer than :data:`~translator.limits.MAX_TEXT_CHARS` or a line longer than
  :data:`~translator.limits.MAX_LINE_CHARS` is refused; so is a context whose card is
  no slug of the library's (a path is no card), and a second entry for one unit;
- a rule text that repeats a paragraph of the flavour, or the reverse, is refused: the
  card would print it twice (a draft's split follows its English card's, so that an
  export offers each paragraph once);
- the file is a translator's, not trusted: a regular file within
  :data:`~translator.limits.MAX_EXCHANGE_BYTES` and
  :data:`~translator.limits.MAX_EXCHANGE_ENTRIES`, an XLIFF file without a document
  type (no entities), its language normalised (``FR``, ``fr_CA``: ``fr``); what cannot
  be read is one :class:`InputError` naming the file and line; and nothing is written
  outside the English card's folder, links resolved;
- a translated, non-fuzzy entry counts as checked against the current English: when
  every unit of a fingerprint group is, the group is refreshed, so that a stale card
  a translator confirmed in Weblate is no longer stale.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from lxml import etree
from translate.storage import lisa, po, pocommon, pypo, xliff
from translate.storage.base import TranslationStore, TranslationUnit

from .. import languages
from ..cards.edit import REMOVE, EditError, edit_card, render_card_file
from ..cards.files import CARD_SLUG_RE, Problem, parse_card_text
from ..cards.model import (
    LANGUAGE_NAMES,
    SOURCE_LANGUAGE,
    TRANSLATED_FIELDS,
    TRANSLATION_FIELDS,
    Card,
    CardFile,
    Library,
    same_group,
    source_fingerprint,
)
from ..glossary.model import LANGUAGES
from ..glossary.model import Entry as GlossaryEntry
from ..limits import (
    MAX_CARD_FILE_BYTES,
    MAX_EXCHANGE_BYTES,
    MAX_EXCHANGE_ENTRIES,
)
from ..lint.context import Language
from ..lint.model import PlainParagraph, plain_text
from ..markup.parser import parse
from ..paths import inside
from ..textio import InputError, decode, read_file
from ..untrusted import field_problem
from .fields import FINGERPRINT_GROUP, LINE_UNITS, UNITS, join_body, split_body, units
from .incoming import (
    DECLARATION,
    XML_ROOT,
    Lines,
    language_code,
    markup_errors,
    parse_problem,
    shown,
)
from .memory import Memory, normalize, paragraphs
from .states import source_changes
from .suggestions import Suggestion, suggest_units

FORMATS = ("po", "xliff")
#: A PO header naming the deck the file was exported from.
DECK_HEADER = "X-Translator-Deck"
_LABELS = {
    "name": "name",
    "name2": "second name line",
    "subtype": "subtype",
    "text": "rule text",
    "flavour": "flavour text",
    "info": "footer line",
}


def format_of(path: str) -> str:
    """``po`` or ``xliff``, from a file name."""
    suffix = Path(path).suffix.lower()
    if suffix in (".po", ".pot"):
        return "po"
    if suffix in (".xlf", ".xliff"):
        return "xliff"
    raise InputError(path, "not a PO (.po) or XLIFF (.xlf, .xliff) file name")


# --------------------------------------------------------------------------------------
# Export


@dataclass
class Entry:
    """One unit of one card, as it goes out."""

    card: Card
    unit: str
    source: str
    target: str
    fuzzy: bool
    notes: list[str]
    location: str
    previous: str | None = None
    #: What the translation memory has for it, one line each (translator comments).
    suggestions: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.card.slug}:{self.unit}"


def _location(file: CardFile, unit: str, text: str) -> str:
    """``path:line`` of a unit in its card file (for the translator's "source" link)."""
    if unit in LINE_UNITS:
        return f"{file.path}:{file.line(unit)}"
    at = max(file.body.find(text.split("\n", 1)[0]), 0)
    return f"{file.path}:{file.body_line + file.body.count(chr(10), 0, at)}"


def _glossary_notes(language: Language, english: Language, unit: str, text: str) -> list[str]:
    """The glossary's words for the terms and abilities the English uses: every
    rendering of a word that has several, since the glossary's choice between them is
    the context's (``gets`` is *perd*, *gagne* or *reçoit* by the modifier)."""
    if unit in LINE_UNITS:
        found = language.english.find(text)
    else:
        found = [
            m
            for p in plain_text(parse(text).document, SOURCE_LANGUAGE).paragraphs
            for m in language.english.find(p.text, p.tokens)
        ]
    terms: dict[str, str] = {}
    for match in found:
        hit = match.hit
        if hit.kind == "ability":
            ability = language.glossary.abilities.get(hit.id)
            own = english.glossary.abilities.get(hit.id)
            if ability is not None:
                reminder = f" ({ability.reminder})" if ability.reminder and unit == "text" else ""
                terms.setdefault(
                    f"ability {own.en if own else match.text}",
                    f"{ability.template or ability.name}{reminder}",
                )
            continue
        entry = language.glossary.entries.get(hit.id)
        rendered = _renderings(entry) if entry is not None else None
        if entry is not None and rendered is not None:
            terms.setdefault(entry.en, rendered)
    return [f"glossary: {en} → {target}" for en, target in terms.items()]


def _renderings(entry: GlossaryEntry) -> str | None:
    """A glossary entry's renderings as a note gives them: the preferred ones, then the
    admitted ones (``gagne / perd / reçoit``), then the deprecated ones to avoid
    (``(not: Jeton Addax)``); None when it has none to suggest."""
    suggested = [t.text for s in ("preferred", "admitted") for t in entry.terms if t.status == s]
    if not suggested:
        return None
    avoided = [t.text for t in entry.terms if t.deprecated]
    shown = " / ".join(dict.fromkeys(suggested))
    return f"{shown} (not: {', '.join(dict.fromkeys(avoided))})" if avoided else shown


def entries(
    library: Library,
    deck: str,
    lang: str,
    language: Language,
    english: Language,
    memory: Memory | Callable[[], Memory] | None = None,
) -> list[Entry]:
    """The entries of ``deck``'s cards, in the deck's order; an untranslated entry
    gets what ``memory`` suggests (:func:`_remembered`; a callable is called only when
    an entry needs it: a deck translated through reads no other deck)."""
    order = {slug: index for index, slug in enumerate(library.decks[deck].quantities)}
    cards = sorted(library.deck_cards(deck), key=lambda c: (order.get(c.slug, len(order)), c.slug))
    found: list[Entry] = []
    for card in cards:
        if card.source is not None:
            found.extend(_card_entries(card, lang, language, english))
    if memory is not None:
        _remembered(found, memory, lang)
    return found


def _remembered(found: list[Entry], memory: Memory | Callable[[], Memory], lang: str) -> None:
    """Untranslated entries (and a draft's) with the memory's suggestions, as Poedit
    and Weblate show one: the translation in the entry, fuzzy (imported only with
    ``--fuzzy``), the English it translates as the previous source, where it comes from
    in the comments; a partial match (some paragraphs, some sentences), or a match for
    a draft's entry (whose target is the draft's), only in the comments."""
    offers: dict[tuple[str, str], dict[str, Suggestion]] = {}
    wanted = [entry for entry in found if not entry.target or _draft(entry.card, lang)]
    if not wanted:
        return
    loaded = memory() if callable(memory) else memory
    for entry in wanted:
        card = entry.card
        key = (card.deck, card.slug)
        if key not in offers:
            offers[key] = suggest_units(loaded, card, lang)
        suggestion = offers[key].get(entry.unit)
        if suggestion is None:
            continue
        entry.suggestions = suggestion.notes
        if suggestion.target and not entry.target:
            entry.target, entry.fuzzy = suggestion.target, True
            if entry.previous is None:
                entry.previous = suggestion.previous


def _draft(card: Card, lang: str) -> bool:
    """Whether the translation is a draft (``wip``: a stale draft too, its entries that
    did not go stale are still the draft's)."""
    version = card.translations.get(lang)
    return bool(version is not None and version.fields.get("wip"))


def _card_entries(card: Card, lang: str, language: Language, english: Language) -> list[Entry]:
    """The entries of one card (which has its English source): one per English unit."""
    source = card.source
    assert source is not None
    version = card.translations.get(lang)
    own = version_units(version, source) if version is not None else {}
    wip = _draft(card, lang)
    stale_units = {change.unit: change for change in source_changes(card, lang)}
    found = []
    for unit, text in units(source).items():
        target = own.get(unit, "")
        if wip and target == text:
            target = ""  # still the English: nothing translated yet
        change = stale_units.get(unit)
        stale = change is not None
        notes = [
            f"card: {card.name(SOURCE_LANGUAGE)} ({_about(source)})",
            *_glossary_notes(language, english, unit, text),
        ]
        if stale and target:
            notes.append("stale: the English changed since this was translated")
        found.append(
            Entry(
                card,
                unit,
                text,
                target,
                bool(target) and (stale or wip),
                notes,
                _location(source, unit, text),
                None if change is None else change.old,
            )
        )
    return found


def _about(source: CardFile) -> str:
    """The card's type, faction and subtype, for the translator's note."""
    return ", ".join(
        str(source.fields.get(k))
        for k in ("type", "faction", "subtype")
        if source.fields.get(k) not in (None, "")
    )


def version_units(version: CardFile, source: CardFile) -> dict[str, str]:
    """The translatable units of a translation of ``source``: :func:`.fields.units`,
    but a draft's text and flavour split as :func:`version_split` splits them."""
    found = units(version)
    if not version.fields.get("wip"):
        return found
    found.pop("text", None)
    found.pop("flavour", None)
    text, flavour = version_split(version, source)
    found.update({k: v for k, v in (("text", text), ("flavour", flavour)) if v})
    return {key: found[key] for key in UNITS if key in found}


def version_split(version: CardFile, source: CardFile) -> tuple[str, str]:
    """(rule text, flavour) of a translation of ``source``.

    A finished translation is split at its own quotation marks (:func:`.fields.split_body`).
    A draft (``wip``) is split where its English card is: ``translator translate``
    writes it paragraph by paragraph, so its flavour is still the English quote (or a
    translation of it written in place), which the language's quotation-mark test
    does not find; left in the rule text, it would be offered twice to the translator.
    A draft whose paragraphs no longer match the English's is split at its own quotes,
    else at the English ones.
    """
    lang = version.lang
    if not version.fields.get("wip"):
        return split_body(version.body, lang)
    body = version.body.replace("\r\n", "\n")
    english = plain_text(parse(source.body.replace("\r\n", "\n")).document, SOURCE_LANGUAGE)
    if english.flavor_start >= len(english.paragraphs):
        return body.strip("\n"), ""  # the English has no flavour: all of it is rule text
    paragraphs = plain_text(parse(body).document, lang).paragraphs
    if len(paragraphs) == len(english.paragraphs):
        return _split_at(body, paragraphs, english.flavor_start)
    own = split_body(body, lang)
    return own if own[1] else split_body(body, SOURCE_LANGUAGE)


def _split_at(body: str, paragraphs: list[PlainParagraph], index: int) -> tuple[str, str]:
    """``body`` cut before its paragraph ``index`` (at the start of its line)."""
    offset = paragraphs[index].paragraph.pos.offset
    start = body.rfind("\n", 0, offset) + 1
    return body[:start].strip("\n"), body[start:].strip("\n")


def _header(lang: str, deck: str, deck_name: str) -> dict[str, str]:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = time.gmtime(int(epoch)) if epoch and epoch.isdigit() else time.gmtime()
    stamp = time.strftime("%Y-%m-%d %H:%M+0000", moment)
    return {
        "Project-Id-Version": f"Arcmage {deck_name}",
        "POT-Creation-Date": stamp,
        "PO-Revision-Date": stamp,
        "Last-Translator": "",
        "Language-Team": f"Arcmage {LANGUAGE_NAMES.get(lang, lang)}",
        "Language": lang,
        "Plural-Forms": languages.get(lang).plural_forms,
        DECK_HEADER: deck,
    }


def write_store(found: list[Entry], kind: str, lang: str, deck: str, deck_name: str) -> bytes:
    """The PO or XLIFF file of ``found``."""
    store: TranslationStore
    if kind == "po":
        store = po.pofile()
        header = _header(lang, deck, deck_name)
        store.updateheader(add=True, **{k.replace("-", "_"): v for k, v in header.items()})
        store.header().removenotes()
    else:
        store = xliff.xlifffile(sourcelanguage=SOURCE_LANGUAGE, targetlanguage=lang)
        store.setfilename(store.getfilenode("NoName"), deck)
    for entry in found:
        unit = store.UnitClass(entry.source)
        store.addunit(unit)
        if kind == "po":
            unit.setcontext(entry.key)
        else:
            unit.setid(entry.key)
        for note in entry.notes:
            unit.addnote(note, origin="developer")
        for note in entry.suggestions:
            unit.addnote(note, origin="translator")
        unit.addlocation(entry.location)
        if entry.target:
            unit.target = entry.target
        if entry.fuzzy:
            unit.markfuzzy(True)
        if entry.previous is not None and kind == "po":
            unit.prev_source = entry.previous
    return bytes(store)


# --------------------------------------------------------------------------------------
# Import


@dataclass
class Incoming:
    """One entry read from a file."""

    key: str
    line: int
    source: str
    target: str
    fuzzy: bool


@dataclass
class Refusal:
    path: str
    line: int
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.key}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "entry": self.key, "message": self.message}


@dataclass
class CardUpdate:
    """What importing does to one card's translation file."""

    card: Card
    path: str
    old: str | None
    new: str
    units: list[str] = field(default_factory=list)
    confirmed: list[str] = field(default_factory=list)
    #: Whether the import removes the translation's ``reviewed`` mark (its text changed,
    #: so the review no longer holds).
    unreviewed: bool = False
    #: The new content read as a card file (checked valid before it is planned).
    parsed: CardFile | None = None


@dataclass
class ImportResult:
    lang: str
    updates: list[CardUpdate] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    fuzzy_skipped: int = 0
    unchanged: int = 0
    untranslated: int = 0


#: A card's slug as its file names it (``cards/files.py``): what a context's card is.
#: A PO entry's ``msgctxt`` (maybe on several lines) or ``msgid`` at the start of a line.
_PO_CONTEXT = re.compile(
    r'^msgctxt[ \t]+((?:"(?:[^"\\\n]|\\.)*"[ \t]*\r?(?:\n|\Z))+)', re.MULTILINE
)
_PO_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_PO_MSGID = re.compile(r"(?:^|(?<=[\r\n]))msgid\b", re.MULTILINE)
_PO_LANGUAGE = re.compile(r'^"Language:', re.MULTILINE)
_XLIFF_UNIT = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?trans-unit\b")
_XLIFF_LANGUAGE = re.compile(r"\btarget-language[ \t\r\n]*=")
#: A document type declaration, or an entity one: an XLIFF file has none (entities
#: are how an XML file makes a few bytes into gigabytes, or reads other files).
_FILE_WHAT = {"po": "PO file", "xliff": "XLIFF file"}


@dataclass
class Store:
    """What a PO or XLIFF file holds."""

    kind: str
    #: The target language as the file gives it (the PO header's ``Language``, the
    #: XLIFF ``target-language``), not checked; and the line that gives it (0: unknown).
    lang: str | None
    lang_line: int
    entries: list[Incoming]


def read_exchange(path: str) -> Store:
    """Read the PO or XLIFF file ``path`` (a regular file, within the size limit)."""
    kind = format_of(path)
    return read_store(path, read_file(path, MAX_EXCHANGE_BYTES, _FILE_WHAT[kind]))


def read_store(path: str, data: bytes) -> Store:
    """The entries of a PO or XLIFF file; :class:`InputError` naming the file and,
    where it can, the line when it is not one, or holds too many entries."""
    kind = format_of(path)
    text = decode(data, path)
    lines = Lines(text)
    _check_size(path, kind, text, lines)
    if kind == "xliff":
        _check_xml(path, text, lines)
    try:
        store: TranslationStore = (
            po.pofile.parsestring(data) if kind == "po" else xliff.xlifffile.parsestring(data)
        )
        if kind == "xliff" and etree.QName(_xliff(store).document.getroot()).localname != "xliff":
            raise InputError(
                path, "not a valid XLIFF file: its root element is not xliff (XLIFF 1.1 or 1.2)"
            )
        units_found = [unit for unit in store.unit_iter() if not unit.isheader()]
        found = _incoming(kind, text, units_found)
        lang, lang_line = _file_language(store, kind, text, lines)
    except InputError:
        raise
    except Exception as error:  # translate-toolkit and lxml raise many kinds
        reason, line = parse_problem(kind, error)
        raise InputError(path, f"not a valid {kind.upper()} file: {reason}", line) from None
    if len(found) > MAX_EXCHANGE_ENTRIES:
        _too_many(path, kind, found[MAX_EXCHANGE_ENTRIES].line)
    return Store(kind, lang, lang_line, found)


def _xliff(store: TranslationStore) -> xliff.xlifffile:
    """``store`` as the XLIFF file it is: :func:`read_store` reads a file of the xliff
    kind with ``xlifffile``, whose XML document and namespaces the base class lacks."""
    return cast(xliff.xlifffile, store)


def _xml_element(unit: TranslationUnit) -> etree._Element:
    """The XML element of a unit of an XLIFF file: translate-toolkit's XML (LISA)
    units hold it, which the base class does not declare."""
    return cast(lisa.LISAunit, unit).xmlelement


def _check_size(path: str, kind: str, text: str, lines: Lines) -> None:
    """Refuse a file of more than :data:`MAX_EXCHANGE_ENTRIES` entries before it is
    parsed (the parse holds them all)."""
    pattern = _PO_MSGID if kind == "po" else _XLIFF_UNIT
    limit = MAX_EXCHANGE_ENTRIES + (1 if kind == "po" else 0)  # a PO header is an entry
    for count, match in enumerate(pattern.finditer(text), start=1):
        if count > limit:
            _too_many(path, kind, lines.at(match.start()))


def _check_xml(path: str, text: str, lines: Lines) -> None:
    """Refuse, before it is parsed, an XML file that declares a document type (entities:
    how a few bytes become gigabytes, or bring in another file) or is no XLIFF file."""
    doctype = DECLARATION.search(text)
    if doctype is not None:
        raise InputError(
            path,
            "not a valid XLIFF file: it declares a document type or "
            "entities (<!DOCTYPE, <!ENTITY), which XLIFF files have "
            "no use for; they are refused",
            lines.at(doctype.start()),
        )
    root = XML_ROOT.match(text)
    if root is not None and root.group(1).rpartition(":")[2] != "xliff":
        raise InputError(
            path,
            f"not a valid XLIFF file: its root element is "
            f"{shown(root.group(1), 40)}, not xliff (XLIFF 1.1 or 1.2)",
            lines.at(root.start(1)),
        )


def _too_many(path: str, kind: str, line: int) -> None:
    raise InputError(
        path,
        f"more than {MAX_EXCHANGE_ENTRIES:,} entries (the limit of a "
        f"{_FILE_WHAT[kind]}; a deck has a few hundred): is this the "
        "right file? Export one deck per file",
        line,
    )


def _incoming(kind: str, text: str, found: list[TranslationUnit]) -> list[Incoming]:
    """The entries, each with the line of its context (for PO, found in one pass)."""
    po_lines: dict[str, list[int]] = {}
    if kind == "po":
        lines = Lines(text)
        for match in _PO_CONTEXT.finditer(text):
            key = pypo.unescape("".join(_PO_STRING.findall(match.group(1))))
            po_lines.setdefault(key, []).append(lines.at(match.start()))
        for context_lines in po_lines.values():
            context_lines.reverse()  # popped from the end: the first one first
    entries = []
    for unit in found:
        key = _key(unit, kind)
        if kind == "po":
            taken = po_lines.get(key)
            line = (taken.pop() if len(taken) > 1 else taken[0]) if taken else 0
        else:
            line = int(getattr(_xml_element(unit), "sourceline", 0) or 0)
        entries.append(
            Incoming(
                key, line, str(unit.source or ""), str(unit.target or ""), bool(unit.isfuzzy())
            )
        )
    return entries


def _file_language(
    store: TranslationStore, kind: str, text: str, lines: Lines
) -> tuple[str | None, int]:
    """(the target language as the file gives it, the line giving it)."""
    if kind == "po":
        # po.pofile (pypo's or cpo's) is a pocommon.pofile, which reads the header.
        header = cast(pocommon.pofile, store).parseheader()
        value = header.get("Language") or store.gettargetlanguage()
        match = _PO_LANGUAGE.search(text) if header.get("Language") else None
    else:
        xliff_file = _xliff(store)
        files = list(xliff_file.document.getroot().iterchildren(xliff_file.namespaced("file")))
        value = files[0].get("target-language") if files else None
        match = _XLIFF_LANGUAGE.search(text)
    line = lines.at(match.start()) if match is not None else 0
    return (str(value).strip() or None) if value is not None else None, line


def _shown_key(key: str) -> str:
    """A context as a refusal names it: as is when it is a card's, else quoted, escaped
    and shortened (it is the file's, and goes to a terminal)."""
    slug, _, unit = key.rpartition(":")
    return key if CARD_SLUG_RE.fullmatch(slug) and unit in UNITS else shown(key)


def _key(unit: TranslationUnit, kind: str) -> str:
    if kind == "po":
        return str(unit.getcontext() or "")
    element = _xml_element(unit)
    return str(element.get("id") or element.get("resname") or "")


def target_language(path: str, store: Store) -> str:
    """The language ``store`` is a translation into, normalised (``FR``, ``fr_CA``,
    ``fr-CA.UTF-8``: ``fr``); :class:`InputError` naming the header line when it names
    none, or one translator does not translate into."""
    where = "the header's Language" if store.kind == "po" else "the target-language"
    if store.lang is None:
        raise InputError(
            path,
            f"the file names no target language ({where} is missing): give --lang",
            store.lang_line,
        )
    code = language_code(store.lang)
    if code in LANGUAGES and code != SOURCE_LANGUAGE:
        return code
    targets = ", ".join(x for x in LANGUAGES if x != SOURCE_LANGUAGE)
    given = shown(store.lang, 40)
    if code == SOURCE_LANGUAGE:
        raise InputError(
            path,
            f"{where} is {given}, the English of the cards: a "
            f"translation is into {targets} (give --lang)",
            store.lang_line,
        )
    raise InputError(
        path,
        f"{where} is {given}, not a language translator translates "
        f"into ({targets}): fix the header or give --lang",
        store.lang_line,
    )


def _check(entry: Incoming, unit: str, english: dict[str, str]) -> str | None:
    """Why ``entry`` cannot be imported, or None."""
    target = entry.target
    one_line = unit in LINE_UNITS
    text = target.strip(" \n") if one_line else target
    if one_line and "\n" in text:
        return f"a {_LABELS[unit]} is one line; the translation has several"
    bad = field_problem(text, one_line)
    if bad is not None:
        return f"the translation {bad[0]} ({bad[1]})"
    if unit not in english:
        return f"the English card has no {_LABELS[unit]}"
    if entry.source.strip() != english[unit].strip():
        return (
            f"the English {_LABELS[unit]} changed since this file was exported: "
            "export the file again and translate the new text"
        )
    if unit not in LINE_UNITS:
        errors = markup_errors(target)
        if errors:
            return "the translation breaks the card markup: " + "; ".join(errors)
    return None


def plan_import(
    path: str,
    library: Library,
    lang: str | None = None,
    fuzzy: bool = False,
    store: Store | None = None,
) -> ImportResult:
    """What importing the PO or XLIFF file ``path`` (``store`` when it was read
    already) into ``library`` changes."""
    store = store or read_exchange(path)
    lang = lang or target_language(path, store)
    if lang == SOURCE_LANGUAGE:
        raise InputError(path, "English is the cards' language: give --lang")
    result = ImportResult(lang)
    by_slug = {slug: card for (_, slug), card in library.cards.items() if card.source is not None}
    grouped: dict[str, list[tuple[str, Incoming]]] = {}
    first: dict[str, int] = {}
    for entry in store.entries:
        slug, _, unit = entry.key.rpartition(":")
        if not slug or unit not in UNITS:
            result.refused.append(
                Refusal(
                    path,
                    entry.line,
                    _shown_key(entry.key) if entry.key else "(no context)",
                    "not an entry of translator's (its context is card:unit, e.g. courier:text)",
                )
            )
            continue
        # Only a card's slug goes on: anything else (a path, '..') is no card's.
        if CARD_SLUG_RE.fullmatch(slug) is None:
            result.refused.append(
                Refusal(
                    path,
                    entry.line,
                    _shown_key(entry.key),
                    f"no card {shown(slug)} in the library (a "
                    "card's name is lowercase letters, digits and "
                    "hyphens, e.g. courier:text)",
                )
            )
            continue
        if slug not in by_slug:
            result.refused.append(
                Refusal(path, entry.line, entry.key, f"no card '{slug}' in the library")
            )
            continue
        if entry.key in first:
            result.refused.append(
                Refusal(
                    path,
                    entry.line,
                    entry.key,
                    f"a second entry for {entry.key} (the first is on "
                    f"line {first[entry.key]}): only the first counts",
                )
            )
            continue
        first[entry.key] = entry.line
        grouped.setdefault(slug, []).append((unit, entry))
    for slug, card_entries in grouped.items():
        update = _card_update(path, by_slug[slug], lang, card_entries, fuzzy, result)
        if update is not None:
            result.updates.append(update)
    return result


def _card_update(
    path: str,
    card: Card,
    lang: str,
    card_entries: list[tuple[str, Incoming]],
    fuzzy: bool,
    result: ImportResult,
) -> CardUpdate | None:
    """The change one card's entries make to its translation in ``lang`` (a new file,
    or an edit of the existing one), or None: nothing to write, or refused."""
    if card.source is None:  # plan_import gives only English cards
        return None
    english = units(card.source)
    version = card.translations.get(lang)
    current = version_units(version, card.source) if version is not None else {}
    if version is not None and version.fields.get("wip"):
        current = {u: v for u, v in current.items() if english.get(u) != v}
    merged = _merge_entries(path, card_entries, english, current, fuzzy, result)
    own = version_split(version, card.source) if version is not None else ("", "")
    _refuse_repeats(path, card_entries, merged, current, own, result)
    fingerprint = _fingerprint(card.source, version, merged.confirmed, english)
    changes, complete = _field_changes(merged, version, current, english, fingerprint)
    if (
        version is not None
        and not merged.touched
        and "wip" not in changes
        and (fingerprint is None or fingerprint == version.fields.get("source"))
    ):
        return None  # nothing to write: the file is not even read
    body = None
    if {"text", "flavour"} & set(merged.touched):
        body = join_body(merged.new.get("text", own[0]), merged.new.get("flavour", own[1]))
    if version is None:
        if not merged.touched:
            return None
        target = str(Path(card.source.path).with_name(f"{card.slug}.{lang}.md"))
    else:
        target = version.path
    if not _refuse_outside(target, card.source, path, card_entries, result):
        return None
    if version is None:
        old_content = None
        content = _new_card_file(changes, complete, english, body)
    else:
        edited = _edited_card_file(version, changes, body, path, card_entries, result)
        if edited is None:
            return None
        old_content, content = edited
    update = CardUpdate(
        card, target, old_content, content, merged.touched, sorted(merged.confirmed)
    )
    update.unreviewed = bool(
        version is not None and version.fields.get("reviewed") and merged.touched
    )
    return _checked(update, path, card_entries, result)


def _paragraphs(text: str) -> list[str]:
    """The paragraphs of a card text, each on one line with its spaces collapsed (to
    compare them), leaving out those with no letter or digit (a lone ``\\``)."""
    return [normalize(p) for p in paragraphs(text) if any(c.isalnum() for c in p)]


def _refuse_repeats(
    path: str,
    card_entries: list[tuple[str, Incoming]],
    merged: _Merged,
    current: dict[str, str],
    own: tuple[str, str],
    result: ImportResult,
) -> None:
    """Refuse a rule text that repeats a paragraph of the flavour, or the reverse: the
    card file would print it twice (an export that put the flavour in the rule text
    too, edited in place, with the flavour entry filled as well).  The refused entry's
    unit keeps its current text."""
    texts = {"text": merged.new.get("text", own[0]), "flavour": merged.new.get("flavour", own[1])}
    lines = {unit: entry.line for unit, entry in card_entries if unit in merged.touched}
    for unit, other in (("text", "flavour"), ("flavour", "text")):
        if unit not in merged.touched:
            continue
        repeated = set(_paragraphs(texts[other]))
        twice = next((p for p in _paragraphs(texts[unit]) if p in repeated), None)
        if twice is None:
            continue
        entry = next(e for u, e in card_entries if u == unit)
        where = (
            f"the :{other} entry on line {lines[other]}"
            if other in lines
            else f"the card's {_LABELS[other]}"
        )
        result.refused.append(
            Refusal(
                path,
                entry.line,
                entry.key,
                f"the {_LABELS[unit]} repeats the paragraph {shown(twice, 60)} of "
                f"{where}: the card would print it twice; keep it in the :{other} "
                f"entry only (remove it from this one) and import again",
            )
        )
        merged.touched.remove(unit)
        merged.confirmed.discard(unit)
        if unit in current:
            merged.new[unit] = current[unit]
        else:
            merged.new.pop(unit, None)
        texts[unit] = merged.new.get(unit, own[0 if unit == "text" else 1])


@dataclass
class _Merged:
    """What a card's entries bring: the units' new texts (``new``, the current ones
    included), the units confirmed (not fuzzy), whether a fuzzy entry made a draft,
    and the units whose text changes (``touched``, in the file's order)."""

    new: dict[str, str]
    confirmed: set[str] = field(default_factory=set)
    drafted: bool = False
    touched: list[str] = field(default_factory=list)


def _merge_entries(
    path: str,
    card_entries: list[tuple[str, Incoming]],
    english: dict[str, str],
    current: dict[str, str],
    fuzzy: bool,
    result: ImportResult,
) -> _Merged:
    """Take each entry of one card that can be imported (counting the empty, fuzzy
    and unchanged ones, refusing the broken ones) into the card's units."""
    merged = _Merged(dict(current))
    for unit, entry in card_entries:
        if not entry.target.strip():
            result.untranslated += 1
            continue
        if entry.fuzzy and not fuzzy:
            result.fuzzy_skipped += 1
            continue
        problem = _check(entry, unit, english)
        if problem is not None:
            result.refused.append(Refusal(path, entry.line, entry.key, problem))
            continue
        target = entry.target.strip("\n") if unit not in LINE_UNITS else entry.target.strip()
        if entry.fuzzy:
            if target == current.get(unit):
                result.unchanged += 1  # a fuzzy entry nobody edited: nothing to import
                continue
            merged.drafted = True
        else:
            merged.confirmed.add(unit)
        if target != current.get(unit):
            merged.new[unit] = target
            merged.touched.append(unit)
        else:
            result.unchanged += 1
    return merged


def _field_changes(
    merged: _Merged,
    version: CardFile | None,
    current: dict[str, str],
    english: dict[str, str],
    fingerprint: str | None,
) -> tuple[dict[str, Any], bool]:
    """The front-matter changes of the import (the one-line units, the source
    fingerprint, the review and draft state), and whether every English unit is now
    translated with none of it left as a draft."""
    changes: dict[str, Any] = {
        unit: merged.new[unit] for unit in merged.touched if unit in LINE_UNITS
    }
    if fingerprint is not None:
        changes["source"] = fingerprint
    if merged.touched:
        changes["reviewed"] = REMOVE  # the reviewed text is no longer the text
    complete = not merged.drafted and all(u in merged.confirmed or u in current for u in english)
    if merged.drafted:
        changes["wip"] = True
    elif version is not None and version.fields.get("wip") and complete:
        changes["wip"] = REMOVE
        if "memory" in version.fields:
            changes["memory"] = REMOVE  # every unit confirmed: the memory's parts too
    return changes, complete


def _new_card_file(
    changes: dict[str, Any], complete: bool, english: dict[str, str], body: str | None
) -> str:
    """The content of a translation the import creates: a draft unless complete (what
    is not translated stays English), with a name (TR401 reports an English one)."""
    fields = {k: v for k, v in changes.items() if v is not REMOVE}
    if not complete:
        fields["wip"] = True
    if "name" not in fields:
        fields["name"] = english["name"]
    return render_card_file(fields, body or "", TRANSLATION_FIELDS)


def _edited_card_file(
    version: CardFile,
    changes: dict[str, Any],
    body: str | None,
    path: str,
    card_entries: list[tuple[str, Incoming]],
    result: ImportResult,
) -> tuple[str, str] | None:
    """(old, new) content of an existing translation edited in place (everything the
    import does not change kept byte for byte), or None: the same content, or an edit
    that cannot be made (its entries refused)."""
    old_content = decode(read_file(version.path, MAX_CARD_FILE_BYTES, "card file"), version.path)
    try:
        content = edit_card(version, old_content, changes, body)
    except EditError as error:
        result.refused.append(
            Refusal(path, card_entries[0][1].line, card_entries[0][1].key, str(error))
        )
        return None
    if content == old_content:
        return None
    return old_content, content


def _refuse_outside(
    target: str,
    source: CardFile,
    path: str,
    card_entries: list[tuple[str, Incoming]],
    result: ImportResult,
) -> bool:
    """Whether ``target`` (a file the import would write) is in the folder of the
    English card ``source`` it translates, links resolved; if not, its entries are
    refused."""
    if inside(Path(target), Path(source.path).parent):
        return True
    real = os.path.realpath(target)
    line, key = card_entries[0][1].line, card_entries[0][1].key
    result.refused.append(
        Refusal(
            path,
            line,
            key,
            f"the card's file {target} leads out of its deck (to {real}): nothing is written there",
        )
    )
    return False


def _checked(
    update: CardUpdate, path: str, card_entries: list[tuple[str, Incoming]], result: ImportResult
) -> CardUpdate | None:
    """``update``, or None (its entries refused) when the file it would write is not a
    valid card file: an import never leaves the library unloadable."""
    problems: list[Problem] = []
    update.parsed = parse_card_text(update.path, update.card.deck, update.new, problems)
    if update.parsed is not None and not problems:
        return update
    line, key = card_entries[0][1].line, card_entries[0][1].key
    result.refused.append(
        Refusal(
            path,
            line,
            key,
            "the card file would be invalid: " + "; ".join(p.message for p in problems),
        )
    )
    return None


def _fingerprint(
    source: CardFile, version: CardFile | None, confirmed: set[str], english: dict[str, str]
) -> str | None:
    """The translation's fingerprint after import: the groups whose every unit was
    confirmed take the English card's current hash; the others keep theirs."""
    now = dict(zip(TRANSLATED_FIELDS, source_fingerprint(source).split("-"), strict=True))
    old = version.fields.get("source") if version is not None else None
    groups: dict[str, list[str]] = {}
    for unit in english:
        groups.setdefault(FINGERPRINT_GROUP[unit], []).append(unit)
    fresh = {g for g, members in groups.items() if all(u in confirmed for u in members)}
    if version is None:
        return "-".join(now.values())  # a new file: made from the current English
    if not isinstance(old, str) or len(old.split("-")) != len(TRANSLATED_FIELDS):
        # No fingerprint (or the old format): set one only when everything was checked.
        return "-".join(now.values()) if fresh >= set(groups) else None
    then = dict(zip(TRANSLATED_FIELDS, old.split("-"), strict=True))
    # A group the English card has no unit of (no name2, its default footer) keeps its
    # hash: if it changed (the English dropped its name2), nobody has checked that yet.
    # A group that still matches stays as written (four digits, before they were
    # eight): an import that confirms a card changes its file only where it must.
    merged = [
        now[k] if k in fresh and not same_group(then[k], now[k]) else then[k]
        for k in TRANSLATED_FIELDS
    ]
    return "-".join(merged)


def reparsed(updates: Iterable[CardUpdate]) -> list[CardFile]:
    """The updated files as card files (to lint them before they are written)."""
    return [update.parsed for update in updates if update.parsed is not None]
