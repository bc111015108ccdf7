"""What ``translator lint`` reads: the card library, or Aminduna JSON as it comes.

A translator can check a deck exported from the website without importing it:
``translator lint deck.fr.json --source deck.en.json``.  The JSON is turned into card
files in memory by the import code itself (so it is read exactly as an import would
read it), and every finding is sent back to the JSON file: the line of the card's
field (``markdownText``, ``subType``, ...) in that file.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cards.files import DECK_FILE, parse_card_text, parse_deck_text
from ..cards.library import load_library
from ..cards.model import SOURCE_LANGUAGE, CardFile, Library
from ..limits import MAX_EXCHANGE_BYTES
from ..problems import Problem
from ..textio import decode, read_file
from .context import Locator, file_locator

#: The Aminduna JSON key of each card field.
JSON_KEYS = {
    "text": "markdownText",
    "name": "firstName",
    "name2": "lastName",
    "subtype": "subType",
    "info": "info",
    "source": "translator",
    "lint-ignore": "translator",
}
_VIRTUAL_DECK = Path("<aminduna>") / "deck"
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]')


@dataclass
class Inputs:
    """A library to lint, which of its files to report on, and where findings point."""

    library: Library
    problems: list[Problem]
    files: set[str] = field(default_factory=set)
    locator: Locator = file_locator


def is_json(path: str) -> bool:
    return path.lower().endswith(".json")


def load_inputs(paths: list[str], sources: list[str]) -> Inputs:
    """Read the library (or the Aminduna JSON files) named on the command line."""
    if any(is_json(p) for p in paths):
        return load_json(paths, sources)
    library, problems = load_library(paths)
    named = {str(Path(p)) for p in paths if Path(p).is_file() and p.endswith(".md")}
    return Inputs(library, problems, named)


@dataclass
class _CardLocation:
    path: str
    lines: dict[str, int]


def card_locations(path: str, text: str) -> list[_CardLocation]:
    """The lines of the keys of each card object of a JSON text, in document order.

    A card object is one with a ``markdownText`` or ``firstName`` key (a ``masterCard``
    reference or a language has neither); card objects never nest, so they come in the
    order the import code reads the cards.
    """
    newlines = [m.start() for m in re.finditer("\n", text)]
    found: list[_CardLocation] = []
    # One frame per open object or array: [is_object, key -> line, expecting a key].
    stack: list[list] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        top = stack[-1] if stack else None
        if token in "{[":
            stack.append([token == "{", {}, token == "{"])
        elif token in "}]":
            frame = stack.pop() if stack else None
            if frame and frame[0] and ("markdownText" in frame[1] or "firstName" in frame[1]):
                found.append(_CardLocation(path, frame[1]))
        elif top is None or not top[0]:
            continue
        elif token == ":":
            top[2] = False
        elif token == ",":
            top[2] = True
        elif top[2]:
            top[1].setdefault(token[1:-1], bisect.bisect_left(newlines, match.start()) + 1)
    return found


def _identity(lang: str, name: object, body: str) -> tuple[str, str, str]:
    return lang, str(name or ""), body.replace("\r\n", "\n").strip()


def load_json(paths: list[str], sources: list[str]) -> Inputs:
    """Aminduna JSON (cards, decks, lists) with their English sources, as a library."""
    # The importer only for JSON: linting card files does without it.
    from ..cards.aminduna import ImportError_, plan_import, read_documents  # noqa: PLC0415

    problems: list[Problem] = []
    if not all(is_json(p) for p in paths):
        problems.append(
            Problem(
                next(p for p in paths if not is_json(p)),
                0,
                "lint either Aminduna JSON files or a card library, not both at once",
            )
        )
        return Inputs(Library(), problems)
    try:
        documents = read_documents(paths + sources)
        plan = plan_import(documents, _VIRTUAL_DECK, Library())
    except ImportError_ as error:
        return Inputs(Library(), _explain_import_problems(list(error.problems), sources))
    locations, linted = _json_card_locations(documents, paths)
    library = Library()
    files: set[str] = set()
    where: dict[str, _CardLocation] = {}
    for virtual, content in plan.files.items():
        if Path(virtual).name == DECK_FILE:
            deck = parse_deck_text(virtual, content, [])
            if deck is not None:
                library.decks[_VIRTUAL_DECK.name] = deck
            continue
        card_file = _virtual_card(virtual, content, paths, locations, problems)
        if card_file is None:
            continue
        key = _identity(card_file.lang, card_file.fields.get("name"), card_file.body)
        if key in locations:
            where[virtual] = locations[key]
        library.add(card_file)
        if key in linted:
            files.add(virtual)
    return Inputs(library, problems, files, _json_locator(where, paths[0]))


CardKey = tuple[str, str, str]


def _json_card_locations(
    documents: list[tuple[str, Any]], paths: list[str]
) -> tuple[dict[CardKey, _CardLocation], set[CardKey]]:
    """Where each card is in its JSON file, by its identity (language, name, text), and
    which cards are linted (those of ``paths``, not of the ``--source`` files).  The
    import reads cards in document order, as the scanner does."""
    from ..cards.aminduna import cards_of, remote_fields  # noqa: PLC0415

    locations: dict[CardKey, _CardLocation] = {}
    linted: set[CardKey] = set()
    for origin, document in documents:
        text = decode(read_file(origin, MAX_EXCHANGE_BYTES, "JSON file"), origin)
        incoming = cards_of(document, origin, [])[0]
        for item, location in zip(incoming, card_locations(origin, text), strict=False):
            fields, body = remote_fields(item, item.lang == SOURCE_LANGUAGE)
            key = _identity(item.lang, fields.get("name"), body)
            locations.setdefault(key, location)
            if origin in paths:
                linted.add(key)
    return locations, linted


def _virtual_card(
    virtual: str,
    content: str,
    paths: list[str],
    locations: dict[CardKey, _CardLocation],
    problems: list[Problem],
) -> CardFile | None:
    """One card file the import would write, read in memory; its problems are sent
    back to the card's line in the JSON file (a card file the user never sees is no
    place to point at)."""
    found_problems: list[Problem] = []
    card_file = parse_card_text(virtual, _VIRTUAL_DECK.name, content, found_problems)
    if card_file is None:
        problems.extend(found_problems)
        return None
    key = _identity(card_file.lang, card_file.fields.get("name"), card_file.body)
    location = locations.get(key)
    for problem in found_problems:
        if problem.message.startswith("artwork"):
            continue  # a local artwork path in an export: irrelevant here
        problems.append(
            Problem(
                location.path if location else paths[0],
                location.lines.get("name", 0) if location else 0,
                problem.message,
                problem.hint,
            )
        )
    return card_file


def _json_locator(where: dict[str, _CardLocation], fallback: str) -> Locator:
    """A locator that points a finding at the line of its field's key in the card's
    JSON object (the card's name, or its first key, for a field it does not have)."""

    def locate(file: CardFile, key: str, offset: int) -> tuple[str, int, int]:
        location = where.get(file.path)
        if location is None:
            return fallback, 1, 1
        lines = location.lines
        line = (
            lines.get(JSON_KEYS.get(key, "name"))
            or lines.get("name")
            or min(lines.values(), default=1)
        )
        return location.path, line, 1

    return locate


def _explain_import_problems(problems: list[Problem], sources: list[str]) -> list[Problem]:
    """Translations without their English cards: one clear message, not one per card."""
    orphans = [p for p in problems if "has no source card" in p.message]
    if not orphans:
        return problems
    hint = (
        "give the English cards with --source deck.en.json"
        if not sources
        else "the --source files do not hold their English cards (masterCard guid)"
    )
    rest = [p for p in problems if p not in orphans]
    return [
        *rest,
        Problem(
            orphans[0].path,
            0,
            f"{len(orphans)} translated card"
            f"{'s' if len(orphans) > 1 else ''} without their English card "
            f"(first: {orphans[0].message.split(' has no')[0]})",
            hint,
        ),
    ]
