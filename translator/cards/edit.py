"""Changing a card file in place: front matter values and the body, nothing else.

Card files are edited by people and kept in git, so a program that changes one
(``lint --fix``, ``review``, ``import po``) must leave every other byte alone: the
order of the keys, their quoting, comments.  A value is rewritten on its own line in
its own quoting style; a new key is inserted where the file order of
:data:`~.model.TRANSLATION_FIELDS` puts it; a removed key loses its line.  What cannot
be written that way (a value spread over several lines) makes the whole front matter
written again, which loses comments but never data; the result is read back and
compared with what was intended before anyone writes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import yaml

from .. import yamlfile
from ..errors import UserError
from .files import Problem, parse_card_text
from .model import SOURCE_FIELDS, TRANSLATION_FIELDS, CardFile

KEY_LINE = re.compile(r"^(?P<key>[A-Za-z0-9_-]+):(?P<space>[ \t]*)(?P<rest>.*?)(?P<eol>\r?\n?)$")
#: A value meaning "remove this key".
REMOVE = None


class EditError(UserError):
    """The edit would not read back as intended (the file is left alone)."""


def scalar(rest: str) -> tuple[str, str, str] | None:
    """(quote style, value text as written, trailing text) of a one-line YAML scalar."""
    if rest[:1] == '"':
        match = re.match(r'"((?:[^"\\]|\\.)*)"(.*)$', rest)
        return ('"', match.group(1), match.group(2)) if match else None
    if rest[:1] == "'":
        match = re.match(r"'((?:[^']|'')*)'(.*)$", rest)
        return ("'", match.group(1), match.group(2)) if match else None
    if rest[:1] in ("|", ">", "[", "{", "&", "*", "!") or not rest:
        return None
    comment = re.search(r"\s#", rest)
    value = rest[: comment.start()] if comment else rest
    stripped = value.rstrip()
    return "", stripped, rest[len(stripped) :]


def render(value: Any, style: str = "") -> str:
    """``value`` as a one-line YAML scalar, in ``style`` when that is still valid."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if not isinstance(value, str):
        return json.dumps(value, ensure_ascii=False, default=str)
    if style == "'":
        return "'" + value.replace("'", "''") + "'"
    if style == "":
        try:
            if yaml.safe_load(f"k: {value}") == {"k": value}:
                return value
        except yaml.YAMLError:
            pass
    return json.dumps(value, ensure_ascii=False)


def set_line(lines: list[str], index: int, key: str, value: Any) -> bool:
    """Rewrite line ``index`` (``key: ...``) with ``value`` in the line's own quoting and
    with its trailing comment; False when that line is not a one-line scalar."""
    match = KEY_LINE.match(lines[index])
    if match is None or match["key"] != key:
        return False
    found = scalar(match["rest"])
    if found is None:
        return False
    style, _, trailing = found
    # A string a quoted line held stays quoted (a fingerprint must stay a string).
    lines[index] = (
        f"{key}:{match['space'] or ' '}{render(value, style)}{trailing}{match['eol'] or chr(10)}"
    )
    return True


def _order(file: CardFile) -> tuple[str, ...]:
    return SOURCE_FIELDS if file.is_source else TRANSLATION_FIELDS


def _front_lines(file: CardFile, changes: Mapping[str, Any]) -> list[str] | None:
    """The front matter's lines with ``changes`` made line by line, or None."""
    lines = file.front_matter.splitlines(keepends=True)
    if len(lines) < 2:
        return None
    order = _order(file)
    removals: list[int] = []
    for key, value in changes.items():
        line = file.lines.get(key)  # file lines: 1 is the opening ---, as in ``lines[0]``
        if line is not None:
            if not 0 < line - 1 < len(lines) - 1:
                return None
            if value is REMOVE:
                removals.append(line - 1)
            elif not set_line(lines, line - 1, key, value):
                return None
            continue
        # A new key: after the last key that comes before it in the file order.
        rank = order.index(key) if key in order else len(order)
        before = [
            line
            for k, line in file.lines.items()
            if "." not in k and (order.index(k) if k in order else len(order)) <= rank
        ]
        at = max(before) if before else 1
        while at < len(lines) - 1 and lines[at][:1] in (" ", "\t", "-"):
            at += 1  # past the continuation lines of the key before
        lines.insert(at, f"{key}: {render(value)}{_eol(file.front_matter)}")
        file = _shifted(file, at, key)
        removals = [r + 1 if r >= at else r for r in removals]
    for index in sorted(set(removals), reverse=True):
        del lines[index]
        if index < len(lines) - 1 and lines[index][:1] in (" ", "\t", "-"):
            return None  # a value on several lines: not removed line by line
    return lines


def _eol(front: str) -> str:
    """The front matter's line ending (a CRLF file stays CRLF)."""
    return "\r\n" if front.startswith("---\r\n") else "\n"


def _shifted(file: CardFile, at: int, key: str) -> CardFile:
    """``file`` with a key inserted at index ``at`` of the front matter's lines: the
    keys below move down, the new key has its line (for the next insertion's place)."""
    lines = {k: (v + 1 if v > at else v) for k, v in file.lines.items()}
    lines[key] = at + 1
    return CardFile(
        file.path,
        file.deck,
        file.slug,
        file.lang,
        file.fields,
        lines,
        file.body,
        file.body_line,
        file.front_matter,
    )


def render_card_file(fields: dict[str, Any], body: str, order: tuple[str, ...]) -> str:
    """A card file written from its fields: known keys in ``order``, others after, the
    fingerprint in quotes (as the card files' documentation shows it), then the body."""
    ordered = {k: fields[k] for k in order if fields.get(k) is not None}
    ordered.update({k: v for k, v in fields.items() if k not in ordered and v is not None})
    front = yamlfile.dump(ordered)
    front = _FINGERPRINT_LINE.sub(r'source: "\1"', front)
    return f"---\n{front}---\n{body}"


_FINGERPRINT_LINE = re.compile(r"^source: ([0-9a-f-]+)$", re.MULTILINE)


def _changed(fields: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """``fields`` with ``changes`` made (:data:`REMOVE` removes a key)."""
    found = dict(fields)
    for key, value in changes.items():
        if value is REMOVE:
            found.pop(key, None)
        else:
            found[key] = value
    return found


def _rewritten(file: CardFile, changes: Mapping[str, Any]) -> str:
    """The front matter written again (comments are lost; used only when needed)."""
    text = render_card_file(_changed(file.fields, changes), "", _order(file))
    return text.replace("\n", _eol(file.front_matter))


def _needed(file: CardFile, key: str, value: Any) -> bool:
    if value is REMOVE:
        return key in file.fields
    current = file.fields.get(key, REMOVE)
    return current is REMOVE or current != value or type(current) is not type(value)


def edit_card(
    file: CardFile, content: str, changes: Mapping[str, Any] | None = None, body: str | None = None
) -> str:
    """``content`` (the file ``file`` was read from) with front matter ``changes``
    (``key: value``; :data:`REMOVE` removes a key) and, if given, a new body.

    Raises :class:`EditError` when the file changed since it was read or when the
    result would not read back with exactly the intended fields and body.
    """
    changes = dict(changes or {})
    if not content.startswith(file.front_matter) or content[len(file.front_matter) :] != file.body:
        raise EditError(f"{file.path} changed since it was read")
    changes = {k: v for k, v in changes.items() if _needed(file, k, v)}
    new_body = file.body if body is None else body
    lines = _front_lines(file, changes) if changes else file.front_matter.splitlines(True)
    front = "".join(lines) if lines is not None else _rewritten(file, changes)
    new = front + new_body
    expected = _changed(file.fields, changes)
    problems: list[Problem] = []
    parsed = parse_card_text(file.path, file.deck, new, problems)
    if parsed is None or parsed.body != new_body or parsed.fields != expected:
        if lines is not None:  # try once more, written again from the fields
            new = _rewritten(file, changes) + new_body
            parsed = parse_card_text(file.path, file.deck, new, [])
        if parsed is None or parsed.body != new_body or parsed.fields != expected:
            raise EditError(f"{file.path}: the edited file would not read back as intended")
    return new
