"""Glossaries out: TBX for translation tools, CSV for spreadsheets.

The TBX is version 2 (``martif``, TBX-Basic), which translate-toolkit and Weblate
read: one ``termEntry`` per concept (its id is the entry's), English terms and the
target language's terms in ``langSet``s, each term with its
``administrativeStatus`` (preferred, admitted, deprecated), part of speech and
gender, and the wiki evidence in notes.  Abilities are concepts too, with their
reminder text as the definition.
"""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

from .model import Glossary, Term

TBX_STATUS = {
    "preferred": "preferredTerm-admn-sts",
    "admitted": "admittedTerm-admn-sts",
    "deprecated": "deprecatedTerm-admn-sts",
}
TBX_GENDER = {"m": "masculine", "f": "feminine"}
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _term_note(tig: ET.Element, kind: str, value: str) -> None:
    note = ET.SubElement(tig, "termNote", type=kind)
    note.text = value


def _tig(lang_set: ET.Element, term: Term | str, pos: str | None) -> None:
    tig = ET.SubElement(lang_set, "tig")
    text = term if isinstance(term, str) else term.text
    ET.SubElement(tig, "term").text = text
    if isinstance(term, str):
        _term_note(tig, "administrativeStatus", TBX_STATUS["preferred"])
        return
    _term_note(tig, "administrativeStatus", TBX_STATUS[term.status])
    if pos:
        _term_note(tig, "partOfSpeech", pos)
    if term.gender:
        _term_note(tig, "grammaticalGender", TBX_GENDER[term.gender])
    if term.status == "deprecated":
        parts = []
        if term.replaced_by:
            parts.append(f"replaced by {term.replaced_by}")
        if term.date:
            parts.append(f"since {term.date}")
        if term.evidence:
            parts.append(term.evidence)
        if parts:
            ET.SubElement(tig, "note").text = "; ".join(parts)


def to_tbx(glossary: Glossary, english: Glossary | None = None) -> str:
    """The glossary as TBX (English source, the glossary's language as target)."""
    root = ET.Element("martif", {"type": "TBX", _XML_LANG: "en"})
    header = ET.SubElement(ET.SubElement(root, "martifHeader"), "fileDesc")
    ET.SubElement(
        ET.SubElement(header, "sourceDesc"), "p"
    ).text = f"Arcmage glossary, English to {glossary.lang}, from the Arcmage wiki"
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    for entry in glossary.entries.values():
        term_entry = ET.SubElement(body, "termEntry", id=entry.id)
        ET.SubElement(term_entry, "descrip", type="subjectField").text = entry.section
        for text in (entry.note, entry.decision):
            if text:
                ET.SubElement(term_entry, "note").text = text
        source = ET.SubElement(term_entry, "langSet", {_XML_LANG: "en"})
        _tig(source, entry.en, None)
        target = ET.SubElement(term_entry, "langSet", {_XML_LANG: glossary.lang})
        for term in entry.terms:
            _tig(target, term, entry.pos)
    for ability in glossary.abilities.values():
        term_entry = ET.SubElement(body, "termEntry", id=f"ability-{ability.id}")
        ET.SubElement(term_entry, "descrip", type="subjectField").text = "ability"
        if ability.note:
            ET.SubElement(term_entry, "note").text = ability.note
        source = ET.SubElement(term_entry, "langSet", {_XML_LANG: "en"})
        english_ability = english.abilities.get(ability.id) if english else None
        if english_ability and english_ability.reminder:
            ET.SubElement(source, "descrip", type="definition").text = english_ability.reminder
        _tig(source, ability.en, None)
        target = ET.SubElement(term_entry, "langSet", {_XML_LANG: glossary.lang})
        if ability.reminder:
            ET.SubElement(target, "descrip", type="definition").text = ability.reminder
        _tig(target, Term(ability.name, ability.status), "noun")
        for term in ability.deprecated:
            _tig(target, term, "noun")
    ET.indent(root)
    declaration = '<?xml version="1.0" encoding="UTF-8"?>\n'
    doctype = (
        '<!DOCTYPE martif PUBLIC "ISO 12200:1999A//DTD MARTIF core (DXFcdV04)//EN" '
        '"TBXcdv04.dtd">\n'
    )
    return declaration + doctype + ET.tostring(root, encoding="unicode") + "\n"


CSV_COLUMNS = (
    "id",
    "section",
    "en",
    "term",
    "status",
    "part_of_speech",
    "gender",
    "replaced_by",
    "date",
    "evidence",
    "note",
)


def to_csv(glossary: Glossary) -> str:
    """One row per target term (abilities included), for spreadsheets."""
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in glossary.entries.values():
        for term in entry.terms:
            writer.writerow(
                [
                    entry.id,
                    entry.section,
                    entry.en,
                    term.text,
                    term.status,
                    entry.pos,
                    term.gender or "",
                    term.replaced_by or "",
                    term.date or "",
                    term.evidence or "",
                    entry.note or "",
                ]
            )
    for ability in glossary.abilities.values():
        writer.writerow(
            [
                ability.id,
                "ability",
                ability.en,
                ability.name,
                ability.status,
                "noun",
                "",
                "",
                "",
                "",
                ability.note or "",
            ]
        )
        for term in ability.deprecated:
            writer.writerow(
                [
                    ability.id,
                    "ability",
                    ability.en,
                    term.text,
                    "deprecated",
                    "noun",
                    "",
                    term.replaced_by or "",
                    term.date or "",
                    term.evidence or "",
                    "",
                ]
            )
    return stream.getvalue()
