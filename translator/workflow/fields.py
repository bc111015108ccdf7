"""The translatable units of a card version, as translators see them.

A translation tool shows one string per thing to translate: the name lines, the
type line, the rule text, the flavour text and, when a card has its own, the footer.
The card file keeps the rule text and the flavour in one body (Aminduna's
``markdownText``); it is split where Aminduna splits ``ruleText`` from
``flavorText``: at the first paragraph that opens with the language's quotation mark
in italics.
"""

from __future__ import annotations

from ..cards.model import DEFAULT_FOOTERS, SOURCE_LANGUAGE, CardFile
from ..lint.model import plain_text
from ..markup.parser import parse

#: The units, in the order a translator reads a card.
UNITS = ("name", "name2", "subtype", "text", "flavour", "info")
#: Which group of the source fingerprint covers each unit.
FINGERPRINT_GROUP = {
    "name": "name",
    "name2": "name2",
    "subtype": "subtype",
    "text": "text",
    "flavour": "text",
    "info": "info",
}
#: Units held in the front matter (one line each); the others are the body.
LINE_UNITS = frozenset({"name", "name2", "subtype", "info"})


def split_body(body: str, lang: str) -> tuple[str, str]:
    """(rule text, flavour text) of a card body, each as written, without the blank
    lines around it; the flavour is '' when the text has none."""
    body = body.replace("\r\n", "\n")
    plain = plain_text(parse(body).document, lang)
    if plain.flavor_start >= len(plain.paragraphs):
        return body.strip("\n"), ""
    offset = plain.paragraphs[plain.flavor_start].paragraph.pos.offset
    start = body.rfind("\n", 0, offset) + 1
    return body[:start].strip("\n"), body[start:].strip("\n")


def join_body(text: str, flavour: str) -> str:
    """A card body from its rule text and flavour (the file's layout: a blank line
    between them, a final newline)."""
    parts = [part.strip("\n") for part in (text, flavour) if part.strip("\n")]
    return "\n\n".join(parts) + "\n" if parts else ""


def units(file: CardFile) -> dict[str, str]:
    """The translatable units a card version holds (absent ones are left out).

    The footer counts only when the card sets one of its own: the language's default
    footer is no card's to translate.
    """
    found: dict[str, str] = {}
    for key in ("name", "name2", "subtype", "info"):
        value = file.fields.get(key)
        if value not in (None, ""):
            found[key] = str(value)
    if found.get("info") in DEFAULT_FOOTERS.values():
        del found["info"]
    text, flavour = split_body(file.body, file.lang)
    if text:
        found["text"] = text
    if flavour:
        found["flavour"] = flavour
    return {key: found[key] for key in UNITS if key in found}


def source_units(source: CardFile) -> dict[str, str]:
    """The units of an English card: what there is to translate."""
    assert source.lang == SOURCE_LANGUAGE
    return units(source)
