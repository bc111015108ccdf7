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
- a target that breaks the card markup (an error of ``translator markup check``), or
  a name on two lines, is refused;
- a translated, non-fuzzy entry counts as checked against the current English: when
  every unit of a fingerprint group is, the group is refreshed, so that a stale card
  a translator confirmed in Weblate is no longer stale.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.plurals import get_plural
from translate.storage import po, xliff
from translate.storage.base import TranslationStore, TranslationUnit

from ..cards.edit import REMOVE, EditError, edit_card, render_card_file
from ..cards.files import Problem, parse_card_text
from ..cards.model import (
    LANGUAGE_NAMES,
    SOURCE_LANGUAGE,
    TRANSLATED_FIELDS,
    TRANSLATION_FIELDS,
    Card,
    CardFile,
    Library,
    source_fingerprint,
)
from ..diagnostics import REGISTRY, Severity
from ..lint.context import Language
from ..lint.model import plain_text
from ..markup.checks import TARGET as MARKUP
from ..markup.checks import check_text
from ..markup.parser import parse
from ..textio import InputError, decode, read_bytes
from .fields import FINGERPRINT_GROUP, LINE_UNITS, UNITS, join_body, split_body, units
from .states import source_changes

FORMATS = ("po", "xliff")
#: A PO header naming the deck the file was exported from.
DECK_HEADER = "X-Translator-Deck"
_LABELS = {"name": "name", "name2": "second name line", "subtype": "subtype",
           "text": "rule text", "flavour": "flavour text", "info": "footer line"}


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

    @property
    def key(self) -> str:
        return f"{self.card.slug}:{self.unit}"


def _location(file: CardFile, unit: str, text: str) -> str:
    """``path:line`` of a unit in its card file (for the translator's "source" link)."""
    if unit in LINE_UNITS:
        return f"{file.path}:{file.line(unit)}"
    at = max(file.body.find(text.split("\n", 1)[0]), 0)
    return f"{file.path}:{file.body_line + file.body.count(chr(10), 0, at)}"


def _glossary_notes(language: Language, english: Language, unit: str,
                    text: str) -> list[str]:
    """The glossary's words for the terms and abilities the English uses."""
    if unit in LINE_UNITS:
        found = language.english.find(text)
    else:
        found = [m for p in plain_text(parse(text).document, SOURCE_LANGUAGE).paragraphs
                 for m in language.english.find(p.text, p.tokens)]
    terms: dict[str, str] = {}
    for match in found:
        hit = match.hit
        if hit.kind == "ability":
            ability = language.glossary.abilities.get(hit.id)
            own = english.glossary.abilities.get(hit.id)
            if ability is not None:
                reminder = f" ({ability.reminder})" if ability.reminder and unit == "text" \
                    else ""
                terms.setdefault(f"ability {own.en if own else match.text}",
                                 f"{ability.template or ability.name}{reminder}")
            continue
        entry = language.glossary.entries.get(hit.id)
        if entry is not None and entry.preferred is not None:
            terms.setdefault(entry.en, entry.preferred.text)
    return [f"glossary: {en} → {target}" for en, target in terms.items()]


def entries(library: Library, deck: str, lang: str, language: Language,
            english: Language) -> list[Entry]:
    """The entries of ``deck``'s cards, in the deck's order."""
    order = list(library.decks[deck].quantities)
    cards = sorted(library.deck_cards(deck),
                   key=lambda c: (order.index(c.slug) if c.slug in order else len(order),
                                  c.slug))
    found: list[Entry] = []
    for card in cards:
        source = card.source
        if source is None:
            continue
        version = card.translations.get(lang)
        english_units = units(source)
        own = units(version) if version is not None else {}
        wip = bool(version is not None and version.fields.get("wip"))
        stale_units = {change.unit: change for change in source_changes(card, lang)}
        about = ", ".join(str(source.fields.get(k)) for k in ("type", "faction", "subtype")
                          if source.fields.get(k) not in (None, ""))
        for unit, text in english_units.items():
            target = own.get(unit, "")
            if wip and target == text:
                target = ""  # still the English: nothing translated yet
            change = stale_units.get(unit)
            stale, previous = change is not None, None if change is None else change.old
            notes = [f"card: {card.name(SOURCE_LANGUAGE)} ({about})",
                     *_glossary_notes(language, english, unit, text)]
            if stale and target:
                notes.append("stale: the English changed since this was translated")
            found.append(Entry(card, unit, text, target, bool(target) and (stale or wip),
                               notes, _location(source, unit, text), previous))
    return found


def _header(lang: str, deck: str, deck_name: str) -> dict[str, str]:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = time.gmtime(int(epoch)) if epoch and epoch.isdigit() else time.gmtime()
    stamp = time.strftime("%Y-%m-%d %H:%M+0000", moment)
    return {"Project-Id-Version": f"Arcmage {deck_name}", "POT-Creation-Date": stamp,
            "PO-Revision-Date": stamp, "Last-Translator": "",
            "Language-Team": f"Arcmage {LANGUAGE_NAMES.get(lang, lang)}",
            "Language": lang, "Plural-Forms": get_plural(lang).plural_forms,
            DECK_HEADER: deck}


def write_store(found: list[Entry], kind: str, lang: str, deck: str,
                deck_name: str) -> bytes:
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
        return {"path": self.path, "line": self.line, "entry": self.key,
                "message": self.message}


@dataclass
class CardUpdate:
    """What importing does to one card's translation file."""

    card: Card
    path: str
    old: str | None
    new: str
    units: list[str] = field(default_factory=list)
    confirmed: list[str] = field(default_factory=list)
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


def read_store(path: str, data: bytes) -> tuple[str | None, list[Incoming]]:
    """(language, entries) of a PO or XLIFF file; :class:`InputError` if unreadable."""
    kind = format_of(path)
    text = decode(data, path)
    try:
        store: TranslationStore = (po.pofile.parsestring(data) if kind == "po"
                                   else xliff.xlifffile.parsestring(data))
    except Exception as error:  # translate-toolkit raises many kinds
        raise InputError(path, f"not a valid {kind.upper()} file: {error}") from None
    lang = store.gettargetlanguage() or None
    found = []
    for unit in store.unit_iter():
        if unit.isheader():
            continue
        key = _key(unit, kind)
        found.append(Incoming(key, _line_of(text, key, kind), str(unit.source or ""),
                              str(unit.target or ""), bool(unit.isfuzzy())))
    return lang, found


def _key(unit: TranslationUnit, kind: str) -> str:
    if kind == "po":
        return str(unit.getcontext() or "")
    return str(unit.xmlelement.get("id") or unit.xmlelement.get("resname") or "")


def _line_of(text: str, key: str, kind: str) -> int:
    needle = f'msgctxt "{key}"' if kind == "po" else f'id="{key}"'
    at = text.find(needle)
    return 1 if at < 0 else text.count("\n", 0, at) + 1


def _markup_errors(text: str) -> list[str]:
    """The errors ``translator markup check`` finds in a text (warnings do not stop
    an import)."""
    errors = [rule for rule in REGISTRY.rules(MARKUP) if rule.severity == Severity.ERROR]
    return [f"{d.code} {d.message}" for d in check_text(text, rules=errors)]


def _check(entry: Incoming, unit: str, english: dict[str, str]) -> str | None:
    """Why ``entry`` cannot be imported, or None."""
    if unit not in english:
        return f"the English card has no {_LABELS[unit]}"
    if entry.source.strip() != english[unit].strip():
        return (f"the English {_LABELS[unit]} changed since this file was exported: "
                "export the file again and translate the new text")
    if unit in LINE_UNITS and "\n" in entry.target.strip():
        return f"a {_LABELS[unit]} is one line; the translation has several"
    if unit not in LINE_UNITS:
        errors = _markup_errors(entry.target)
        if errors:
            return "the translation breaks the card markup: " + "; ".join(errors)
    return None


def plan_import(path: str, library: Library, lang: str | None = None,
                fuzzy: bool = False) -> ImportResult:
    """What importing the PO or XLIFF file ``path`` into ``library`` changes."""
    file_lang, incoming = read_store(path, read_bytes(path))
    lang = lang or file_lang
    if not lang or lang == SOURCE_LANGUAGE:
        raise InputError(path, "the file names no target language: give --lang")
    result = ImportResult(lang)
    by_slug = {slug: card for (_, slug), card in library.cards.items()
               if card.source is not None}
    grouped: dict[str, list[tuple[str, Incoming]]] = {}
    for entry in incoming:
        slug, _, unit = entry.key.rpartition(":")
        if not slug or unit not in UNITS:
            result.refused.append(Refusal(path, entry.line, entry.key or "(no context)",
                                          "not an entry of translator's (its context is "
                                          "card:unit, e.g. courier:text)"))
            continue
        if slug not in by_slug:
            result.refused.append(Refusal(path, entry.line, entry.key,
                                          f"no card '{slug}' in the library"))
            continue
        grouped.setdefault(slug, []).append((unit, entry))
    for slug, card_entries in grouped.items():
        update = _card_update(path, by_slug[slug], lang, card_entries, fuzzy, result)
        if update is not None:
            result.updates.append(update)
    return result


def _card_update(path: str, card: Card, lang: str, card_entries: list[tuple[str, Incoming]],
                 fuzzy: bool, result: ImportResult) -> CardUpdate | None:
    assert card.source is not None
    english = units(card.source)
    version = card.translations.get(lang)
    current = units(version) if version is not None else {}
    if version is not None and version.fields.get("wip"):
        current = {u: v for u, v in current.items() if english.get(u) != v}
    new = dict(current)
    confirmed: set[str] = set()
    drafted = False
    touched: list[str] = []
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
            drafted = True
        else:
            confirmed.add(unit)
        if target != current.get(unit):
            new[unit] = target
            touched.append(unit)
        else:
            result.unchanged += 1
    fingerprint = _fingerprint(card.source, version, confirmed, english)
    changes: dict[str, Any] = {unit: new[unit] for unit in touched if unit in LINE_UNITS}
    if fingerprint is not None:
        changes["source"] = fingerprint
    if touched:
        changes["reviewed"] = REMOVE  # the reviewed text is no longer the text
    # Every English unit translated, none of it left as a draft.
    complete = not drafted and all(u in confirmed or u in current for u in english)
    if drafted:
        changes["wip"] = True
    elif version is not None and version.fields.get("wip") and complete:
        changes["wip"] = REMOVE
    body = None
    if {"text", "flavour"} & set(touched):
        own_text, own_flavour = split_body(version.body, lang) if version else ("", "")
        body = join_body(new.get("text", own_text), new.get("flavour", own_flavour))
    if version is None:
        if not touched:
            return None
        fields = {k: v for k, v in changes.items() if v is not REMOVE}
        if not complete:
            fields["wip"] = True  # what is not translated stays English: a draft
        if "name" not in fields:
            fields["name"] = english["name"]  # a card file has a name; TR401 reports it
        target_path = str(Path(card.source.path).with_name(f"{card.slug}.{lang}.md"))
        content = render_card_file(fields, body or "", TRANSLATION_FIELDS)
        return _checked(CardUpdate(card, target_path, None, content, touched,
                                   sorted(confirmed)), path, card_entries, result)
    old_content = decode(read_bytes(version.path), version.path)
    try:
        content = edit_card(version, old_content, changes, body)
    except EditError as error:
        result.refused.append(Refusal(path, card_entries[0][1].line, card_entries[0][1].key,
                                      str(error)))
        return None
    if content == old_content:
        return None
    return _checked(CardUpdate(card, version.path, old_content, content, touched,
                               sorted(confirmed)), path, card_entries, result)


def _checked(update: CardUpdate, path: str, card_entries: list[tuple[str, Incoming]],
             result: ImportResult) -> CardUpdate | None:
    """``update``, or None (its entries refused) when the file it would write is not a
    valid card file: an import never leaves the library unloadable."""
    problems: list[Problem] = []
    update.parsed = parse_card_text(update.path, update.card.deck, update.new, problems)
    if update.parsed is not None and not problems:
        return update
    line, key = card_entries[0][1].line, card_entries[0][1].key
    result.refused.append(Refusal(path, line, key, "the card file would be invalid: "
                                  + "; ".join(p.message for p in problems)))
    return None


def _fingerprint(source: CardFile, version: CardFile | None, confirmed: set[str],
                 english: dict[str, str]) -> str | None:
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
    merged = [now[k] if k in fresh else then[k] for k in TRANSLATED_FIELDS]
    return "-".join(merged)


def reparsed(updates: Iterable[CardUpdate]) -> list[CardFile]:
    """The updated files as card files (to lint them before they are written)."""
    return [update.parsed for update in updates if update.parsed is not None]
