"""Reading and checking card files and deck files.

Every problem is collected, not raised: a translator fixing a deck wants all of them
at once, each with the file, the line and what to do.  Values are checked against
Aminduna's vocabulary so that nothing reaches the card database (or the printer)
that it would refuse or print wrong.
"""

from __future__ import annotations

import datetime
import os
import re
from pathlib import Path, PurePath
from typing import Any

import yaml

from .. import config, yamlfile
from ..errors import UserError
from ..limits import MAX_CARD_FILE_BYTES, MAX_QUANTITY, MAX_STAT
from ..paths import inside
from ..problems import Problem, did_you_mean
from ..textio import InputError, decode, read_file, split_front_matter
from ..untrusted import bad_characters, describe, field_problem, position, too_long
from .model import (
    CARD_TYPES,
    FACTIONS,
    FINGERPRINT_RE,
    HAS_ATTACK,
    HAS_DEFENSE,
    INHERITED_FIELDS,
    SOURCE_FIELDS,
    SOURCE_LANGUAGE,
    STATUSES,
    TRANSLATION_FIELDS,
    CardFile,
    Deck,
    rule_codes,
)
from .state import REVIEW_FINGERPRINT_RE

CARD_FILE_RE = re.compile(r"^(?P<slug>[a-z0-9][a-z0-9-]{0,99})\.(?P<lang>[a-z]{2})\.md\Z")
#: A card's slug, wherever one comes from (a file name, deck.yaml, JSON, a PO context):
#: use it with ``fullmatch`` (``$`` would let a final line feed through).
CARD_SLUG_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,99}")
_GUID_RE = re.compile(
    r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
    r"[0-9a-fA-F]{12}$"
)
DECK_FILE = "deck.yaml"
REVIEWED_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DECK_FIELDS = ("name", "guid", "creator", "cards")


def read_yaml_mapping(
    text: str, path: str, first_line: int, problems: list[Problem]
) -> tuple[dict[str, Any], dict[str, int]] | None:
    """A YAML mapping and the line of each key (``first_line`` is the text's first line).

    Keys of nested mappings are listed too, as ``parent.key``.
    """
    loaded = yamlfile.load(text, path, first_line, problems)
    if loaded is None:
        return None
    data, node = loaded
    if node is None:
        return {}, {}
    if not isinstance(node, yaml.MappingNode) or not isinstance(data, dict):
        problems.append(
            Problem(
                path,
                first_line,
                "expected 'key: value' lines",
                "the front matter is a YAML mapping",
            )
        )
        return None
    lines: dict[str, int] = {}
    _key_lines(node, "", first_line, path, lines, problems)
    return {str(k): v for k, v in data.items()}, lines


def _key_lines(
    node: yaml.MappingNode,
    prefix: str,
    first_line: int,
    path: str,
    lines: dict[str, int],
    problems: list[Problem],
) -> None:
    for key_node, value_node in node.value:
        key = prefix + str(key_node.value)
        line = first_line + key_node.start_mark.line
        if key in lines:
            problems.append(
                Problem(
                    path,
                    line,
                    f"'{key}' is set twice",
                    f"the first one is on line {lines[key]}; keep one",
                )
            )
        lines[key] = line
        if isinstance(value_node, yaml.MappingNode):
            _key_lines(value_node, key + ".", first_line, path, lines, problems)


def parse_card_file(path: Path, deck: str, problems: list[Problem]) -> CardFile | None:
    """Read one card file; problems go to ``problems``; ``None`` if it is unusable."""
    display = str(path)
    match = CARD_FILE_RE.match(path.name)
    if match is None:
        problems.append(
            Problem(
                display,
                1,
                "card files are named <slug>.<language>.md",
                "e.g. storm-hawk.en.md, storm-hawk.fr.md (lower case, hyphens)",
            )
        )
        return None
    try:
        text = decode(read_file(path, MAX_CARD_FILE_BYTES, "card file"), display)
    except InputError as error:
        problems.append(Problem(display, error.line or 1, error.message, "", error.column))
        return None
    return parse_card_text(display, deck, text, problems)


def parse_card_text(display: str, deck: str, text: str, problems: list[Problem]) -> CardFile | None:
    """Parse the content of the card file at ``display`` (a path: it names the card)."""
    match = CARD_FILE_RE.match(Path(display).name)
    if match is None:
        problems.append(
            Problem(
                display,
                1,
                "card files are named <slug>.<language>.md",
                "e.g. storm-hawk.en.md (lower case, digits, hyphens)",
            )
        )
        return None
    front, body, body_line = split_front_matter(text)
    if not front:
        hint = (
            "close it with a line holding only ---"
            if text.startswith("---")
            else "start the file with ---, the card's fields, then ---"
        )
        problems.append(Problem(display, 1, "no front matter", hint))
        return None
    content = "".join(front.splitlines(keepends=True)[1:-1])
    parsed = read_yaml_mapping(content, display, 2, problems)
    if parsed is None:
        return None
    fields, lines = parsed
    card = CardFile(
        display, deck, match["slug"], match["lang"], fields, lines, body, body_line, front
    )
    check_card_fields(card, problems)
    return card


def check_card_fields(card: CardFile, problems: list[Problem]) -> None:
    """Check keys and values of a card file against Aminduna's vocabulary."""
    fields = card.fields

    def problem(key: str, message: str, hint: str = "") -> None:
        problems.append(Problem(card.path, card.line(key), message, hint))

    _check_keys(card, problems)
    _check_texts(card, problems)
    _check_body(card, problems)
    _check_choice(card, "status", STATUSES, required=False, problems=problems)
    if rule_codes(fields.get("lint-ignore")) is None:
        problem("lint-ignore", "'lint-ignore' lists rule codes", "e.g. lint-ignore: [TR404, GL1]")
    guid = fields.get("guid")
    if guid is not None and not _GUID_RE.match(str(guid)):
        problem(
            "guid",
            f"'{guid}' is not an Aminduna guid",
            "a guid looks like 3e2a7c51-0b9d-4f0e-a6c4-1d2e3f405162",
        )
    if card.is_source:
        _check_source_values(card, problems)
    else:
        _check_translation_values(card, problems)


def _check_keys(card: CardFile, problems: list[Problem]) -> None:
    """Keys a card file may not hold: unknown ones (with the key meant), and in a
    translation the fields it inherits from its source card (set there, once)."""
    allowed = SOURCE_FIELDS if card.is_source else TRANSLATION_FIELDS
    for key in card.fields:
        if key in allowed:
            continue
        if not card.is_source and key in INHERITED_FIELDS:
            problems.append(
                Problem(
                    card.path,
                    card.line(key),
                    f"'{key}' is inherited from the source card",
                    f"set it in {card.slug}.{SOURCE_LANGUAGE}.md; a translation holds only "
                    f"{', '.join(TRANSLATION_FIELDS)}",
                )
            )
        else:
            problems.append(
                Problem(
                    card.path,
                    card.line(key),
                    f"unknown key '{key}'",
                    did_you_mean(key, list(allowed)),
                )
            )


#: The fields that are text when present (YAML reads ``serie: 2`` as a number).
_TEXT_FIELDS = (
    "name2",
    "subtype",
    "info",
    "artist",
    "licensor",
    "license",
    "serie",
    "artwork_url",
    "reviewer",
)


def _check_texts(card: CardFile, problems: list[Problem]) -> None:
    """The card's name and text fields: a name, text where YAML may have read a
    number, a list or a mapping, and each text a sane line (no control or invisible
    character)."""
    fields = card.fields

    def problem(key: str, message: str, hint: str = "") -> None:
        problems.append(Problem(card.path, card.line(key), message, hint))

    if not _text(fields.get("name")):
        problem("name", "the card has no name", "add 'name: ...' (the first name line)")
    for key in _TEXT_FIELDS:
        if key in fields and not isinstance(fields[key], str | type(None)):
            problem(
                key,
                f"'{key}' must be text",
                f'quote it: {key}: "{fields[key]}"'
                if not isinstance(fields[key], dict | list)
                else "write it on one line",
            )
    if "name" in fields and isinstance(fields["name"], dict | list | bool):
        problem("name", "'name' must be text", "write the name on one line")
    for key, value in fields.items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                check_line(card.path, card.line(key), key, item, problems)


def _check_translation_values(card: CardFile, problems: list[Problem]) -> None:
    """The fields translator writes into a translation (``wip``, ``reviewed``,
    ``source``): a hand edit that breaks one would silently change the card's state."""
    fields = card.fields

    def problem(key: str, message: str, hint: str = "") -> None:
        problems.append(Problem(card.path, card.line(key), message, hint))

    if "wip" in fields and not isinstance(fields["wip"], bool):
        problem("wip", "'wip' is true or false")
    reviewed = fields.get("reviewed")
    if reviewed is not None and not _review_date(reviewed):
        problem(
            "reviewed",
            f"'{reviewed}' is not a review date (a day of the calendar, not after today)",
            "written by 'translator review' as a date, e.g. reviewed: 2026-11-30",
        )
    memory = fields.get("memory")
    if memory is not None and not (
        isinstance(memory, list) and all(isinstance(item, str) for item in memory)
    ):
        problem(
            "memory",
            "'memory' lists what a draft took from the translation memory, one line each",
            'written by translator translate, e.g. memory: ["paragraph 2: first/guard, reviewed"]; '
            "remove it once checked",
        )
    for key, pattern, example in (
        ("source", FINGERPRINT_RE, "five groups of eight hexadecimal digits"),
        ("reviewed-fingerprint", REVIEW_FINGERPRINT_RE, "six groups of eight hexadecimal digits"),
    ):
        value = fields.get(key)
        if value is not None and not (isinstance(value, str) and pattern.match(value)):
            problem(
                key,
                f"'{value}' is not a {'source' if key == 'source' else 'review'} fingerprint",
                f"it is written by translator, in quotes ({example}, e.g. "
                f'{key}: "{_EXAMPLE}{"" if key == "source" else "-1e2f3a4b"}"); '
                "remove it to reset",
            )


#: A fingerprint as translator writes it, for the messages.
_EXAMPLE = "1a2b3c4d-5e6f7a8b-9c0d1e2f-3a4b5c6d-7e8f9a0b"


def _review_date(value: object) -> bool:
    """A review's date: a day of the calendar, not after tomorrow (a reviewer's clock
    may be a time zone ahead); YAML reads an unquoted date as a date."""
    text = str(value)
    if not REVIEWED_RE.match(text):
        return False
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return day <= datetime.date.today() + datetime.timedelta(days=1)


def check_line(path: str, line: int, key: str, value: str, problems: list[Problem]) -> None:
    """A one-line field of a card or deck file: a sane length, no control or invisible
    character."""
    found = field_problem(value, one_line=True)
    if found:
        problems.append(Problem(path, line, f"'{key}' {found[0]}", found[1]))


def _check_body(card: CardFile, problems: list[Problem]) -> None:
    """The card text: at most :data:`MAX_TEXT_CHARS` characters, no control character
    (a NUL or an ESC is never meant, and Aminduna cannot store one), reported on its
    own line of the file."""
    body = card.body
    found_long = too_long(body, one_line=False)
    if found_long:
        problems.append(
            Problem(card.path, card.body_line, f"the card text {found_long[0]}", found_long[1])
        )
        return
    found = bad_characters(body, one_line=False)
    if found:
        index, char = found[0]
        line, column = position(body, index)
        line += card.body_line - 1
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        problems.append(
            Problem(
                card.path,
                line,
                f"the card text holds the invisible character {describe(char)}{more}",
                "delete it (translator markup check --fix does)",
                column,
            )
        )


def _text(value: Any) -> bool:
    return isinstance(value, str | int | float) and str(value).strip() != ""


def _check_choice(
    card: CardFile, key: str, choices: tuple[str, ...], required: bool, problems: list[Problem]
) -> None:
    value = card.fields.get(key)
    if value is None:
        if required:
            problems.append(
                Problem(
                    card.path,
                    card.line("name"),
                    f"the card has no {key}",
                    f"add '{key}: ...', one of: {', '.join(choices)}",
                )
            )
        return
    if str(value) not in choices:
        problems.append(
            Problem(
                card.path,
                card.line(key),
                f"unknown {key} '{value}'",
                did_you_mean(str(value), choices),
            )
        )


def _check_source_values(card: CardFile, problems: list[Problem]) -> None:
    fields = card.fields
    _check_choice(card, "type", CARD_TYPES, required=True, problems=problems)
    _check_choice(card, "faction", FACTIONS, required=True, problems=problems)
    card_type = str(fields.get("type"))

    def problem(key: str, message: str, hint: str = "") -> None:
        problems.append(Problem(card.path, card.line(key), message, hint))

    cost = fields.get("cost")
    if cost is not None and not (is_count(cost) or str(cost) == "X"):
        problem(
            "cost", f"cost {_shown(cost)} is not a number" + _range(cost), "a whole number, or X"
        )
    loyalty = fields.get("loyalty")
    if loyalty is not None and not (is_count(loyalty) and 0 <= int(loyalty) <= 3):
        problem(
            "loyalty",
            f"loyalty '{loyalty}' is not 0, 1, 2 or 3",
            "the number of loyalty marks printed",
        )
    for key, types in (("attack", HAS_ATTACK), ("defense", HAS_DEFENSE)):
        value = fields.get(key)
        if value is None:
            continue
        if not is_count(value):
            problem(key, f"{key} {_shown(value)} is not a number" + _range(value), "a whole number")
        elif card_type in CARD_TYPES and card_type not in types:
            problem(
                key,
                f"a {card_type} card prints no {key}",
                f"remove '{key}' (only {' and '.join(sorted(types))} cards have one)",
            )
    artwork = fields.get("artwork")
    if artwork is not None:
        try:
            artwork_path(card)
        except OutsideLibrary as error:
            problem("artwork", str(error), error.hint)


class OutsideLibrary(UserError):
    """A path a card names that leads out of its library, or to no file."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


def artwork_path(card: CardFile, allowed: tuple[Path, ...] | None = None) -> Path | None:
    """The artwork file a source card names, after following every link, if it lies in
    the card's deck folder or a folder ``[library] allow-paths`` allows; else
    :class:`OutsideLibrary`.  The build opens only what this returns, so a card cannot
    make it read ``/etc/passwd`` or a file beside the library."""
    value = card.fields.get("artwork")
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise OutsideLibrary(
            f"artwork {_shown(value)} is not a path",
            "a path relative to the card file, e.g. art/storm-hawk.jpg",
        )
    deck = Path(card.path).parent
    if _plainly_inside(deck, value):
        target = (deck / value).absolute()
    else:
        target = (deck / value).resolve()
        roots = [deck.resolve(), *(config.allowed_folders() if allowed is None else allowed)]
        if not any(target.is_relative_to(root) for root in roots):
            raise OutsideLibrary(
                f"artwork '{value}' is outside the library",
                f"it leads to {target}; keep artwork in the deck folder "
                "(e.g. art/) or allow its folder in translator.toml "
                "([library] allow-paths)",
            )
    if not target.is_file():
        raise ArtworkMissing(
            f"artwork '{value}' not found",
            f"no file {deck / value}: the path is relative to the card "
            "file; remove the key if the card has no artwork yet",
            target,
        )
    return target


class ArtworkMissing(OutsideLibrary):
    """Artwork named inside the library that is not there (yet)."""

    def __init__(self, message: str, hint: str, path: Path) -> None:
        super().__init__(message, hint)
        self.path = path


def _plainly_inside(deck: Path, value: str) -> bool:
    """Whether ``value`` names a file under ``deck`` without any link or ``..`` on the
    way: the usual case, decided with a few ``lstat`` calls instead of resolving
    every path of a large library."""
    parts = PurePath(value).parts
    if not parts or PurePath(value).is_absolute() or ".." in parts:
        return False
    return not any(os.path.islink(deck.joinpath(*parts[:i])) for i in range(1, len(parts) + 1))


def inside_library(path: Path, deck: Path) -> bool:
    """Whether a file found in a deck folder really is there (a link may lead out)."""
    if path.parent == deck and not os.path.islink(path):
        return True
    return any(inside(path, root) for root in (deck, *config.allowed_folders()))


def _shown(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else f"'{value}'"
    return text if len(text) <= 40 else text[:20] + f"... ({len(text):,} characters)"


def _range(value: Any) -> str:
    return (
        f" from 0 to {MAX_STAT}"
        if isinstance(value, int)
        or (isinstance(value, str) and value.isascii() and value.isdigit())
        else ""
    )


def is_count(value: Any) -> bool:
    """A stat (cost, attack, defense, loyalty): a whole number from 0 to
    :data:`MAX_STAT`, as a number or written in the digits 0 to 9."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value <= MAX_STAT
    return isinstance(value, str) and DIGITS_RE.match(value) is not None and int(value) <= MAX_STAT


#: A number as a card file or Aminduna writes it: ASCII digits ('²' and '٣' are not).
DIGITS_RE = re.compile(r"^[0-9]{1,6}$")


def parse_deck_file(path: Path, problems: list[Problem]) -> Deck | None:
    """Read a ``deck.yaml``: name, optional guid and creator, and card quantities."""
    display = str(path)
    try:
        text = decode(read_file(path, MAX_CARD_FILE_BYTES, "deck file"), display)
    except InputError as error:
        problems.append(Problem(display, error.line or 1, error.message, "", error.column))
        return None
    return parse_deck_text(display, text, problems)


def parse_deck_text(display: str, text: str, problems: list[Problem]) -> Deck | None:
    """Parse the content of the deck file at ``display``."""
    path = Path(display)
    parsed = read_yaml_mapping(text, display, 1, problems)
    if parsed is None:
        return None
    data, lines = parsed
    for key in (k for k in lines if "." not in k):
        if key not in DECK_FIELDS:
            problems.append(
                Problem(display, lines[key], f"unknown key '{key}'", did_you_mean(key, DECK_FIELDS))
            )
    name = data.get("name")
    if not _text(name):
        problems.append(Problem(display, 1, "the deck has no name", "add 'name: ...'"))
    quantities = _deck_quantities(data.get("cards") or {}, display, lines, problems)
    guid = data.get("guid")
    if guid is not None and not _GUID_RE.match(str(guid)):
        problems.append(Problem(display, lines.get("guid", 1), f"{_shown(guid)} is not a guid"))
    _check_deck_texts(data, display, lines, problems)
    return Deck(
        str(name or path.parent.name),
        str(path.parent),
        quantities,
        str(guid) if guid else None,
        data.get("creator"),
        lines,
    )


def _deck_quantities(
    cards: Any, display: str, lines: dict[str, int], problems: list[Problem]
) -> dict[str, int]:
    """The deck's ``cards`` mapping as slug → quantity, leaving out (with a problem)
    an entry whose quantity is not a positive number or whose key is no card slug."""
    quantities: dict[str, int] = {}
    if not isinstance(cards, dict):
        problems.append(
            Problem(
                display,
                lines.get("cards", 1),
                "'cards' lists slug: quantity",
                "e.g.\ncards:\n  storm-hawk: 3",
            )
        )
        return quantities
    for key, quantity in cards.items():
        if not (
            isinstance(quantity, int)
            and not isinstance(quantity, bool)
            and 0 < quantity <= MAX_QUANTITY
        ):
            problems.append(
                Problem(
                    display,
                    lines.get(f"cards.{key}", 1),
                    f"quantity of '{key}' is not a positive number (at most {MAX_QUANTITY})",
                    f"{key}: 1",
                )
            )
            continue
        # YAML reads 1000: as a number.
        slug = str(key) if isinstance(key, int) and not isinstance(key, bool) else key
        if not (isinstance(slug, str) and CARD_SLUG_RE.fullmatch(slug)):
            problems.append(
                Problem(
                    display,
                    lines.get(f"cards.{slug}", 1),
                    f"{_shown(slug)} is not a card slug",
                    "lower-case letters, digits and hyphens, as in the card's file name",
                )
            )
            continue
        quantities[str(slug)] = quantity
    return quantities


def _check_deck_texts(
    data: dict[str, Any], display: str, lines: dict[str, int], problems: list[Problem]
) -> None:
    """The deck's name and creator: text on one sane line; a value that is not text
    is reported and dropped (``data`` loses it), so that nothing prints a list."""
    for key in ("name", "creator"):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            problems.append(
                Problem(
                    display, lines.get(key, 1), f"'{key}' must be text", f"e.g. {key}: Jane Doe"
                )
            )
            data[key] = None
        else:
            check_line(display, lines.get(key, 1), key, str(value), problems)
