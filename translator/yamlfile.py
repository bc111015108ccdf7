"""YAML that people edit: loaded with the line of everything, errors located.

PyYAML composes a node tree with positions before building Python values; keeping
both lets every later check say on which line a value stands.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from .problems import Problem
from .textio import InputError, decode, long_number_line, read_file
from .untrusted import describe, position

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_LIBYAML_DUMPER: type[Any] | None = getattr(yaml, "CSafeDumper", None)
#: Keys LibYAML's emitter writes as the Python one does (a card file's and a deck
#: file's keys: field names and slugs).
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


def safe_load(text: str) -> Any:
    """``yaml.safe_load`` with LibYAML's loader when PyYAML has it: the same values,
    about ten times faster than the pure Python one (the shipped data files are read
    by every lint)."""
    return yaml.load(text, Loader=Loader)


def dump(data: dict[str, Any]) -> str:
    """``data`` as the YAML of a file people edit (a card file's front matter, a deck
    file): ``yaml.safe_dump`` in block style, keys in their order, characters as they
    are (no escapes), lines never folded.

    The very bytes of PyYAML's Python emitter, with LibYAML's where it writes the same:
    several times faster, and an import or a pull of thousands of cards writes as many
    files.  LibYAML writes otherwise a key that is empty or long, a character beyond
    U+FFFF (escaped: an emoji would read ``\\U0001F600``) and NEL (U+0085); data holding
    one of them, or a key other than a field name or slug, goes through the Python
    emitter (``tests/cards/test_yamlfile_dump.py`` compares the two)."""
    libyaml = _LIBYAML_DUMPER is not None and _libyaml_writes_it(data)
    dumper = _LIBYAML_DUMPER if libyaml else yaml.SafeDumper
    return str(yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False, width=1000))


def _libyaml_writes_it(value: Any) -> bool:
    """Whether LibYAML's emitter writes ``value`` as the Python one does (see
    :func:`dump`)."""
    if isinstance(value, str):
        return "\x85" not in value and (value.isascii() or max(map(ord, value)) <= 0xFFFF)
    if isinstance(value, dict):
        return all(
            isinstance(key, str) and _PLAIN_KEY.fullmatch(key) is not None for key in value
        ) and all(_libyaml_writes_it(item) for item in value.values())
    if isinstance(value, list | tuple):
        return all(_libyaml_writes_it(item) for item in value)
    return value is None or isinstance(value, bool | int | float)


def load(
    text: str, path: str, first_line: int, problems: list[Problem]
) -> tuple[Any, yaml.Node | None] | None:
    """(data, node) of a YAML document, or ``None`` (and a problem) if it is malformed.

    ``first_line`` is the line of the text's first line in its file.
    """
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        if node is not None and "*" in text and _shares_nodes(node):
            problems.append(
                Problem(
                    path,
                    first_line + _alias_line(text),
                    "YAML aliases (*name) are not allowed here",
                    "write the value out in full",
                    0,
                )
            )
            return None
        data = loader.construct_document(node) if node is not None else None
    except (yaml.YAMLError, ValueError, RecursionError) as error:
        problems.append(_malformed(error, text, path, first_line))
        return None
    finally:
        loader.dispose()
    return data, node


def _malformed(error: Exception, text: str, path: str, first_line: int) -> Problem:
    """The problem a YAML error makes, on the line it names: each kind of error
    locates itself differently (a mark, a character position, nothing), and each
    calls for a different hint."""
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        return Problem(
            path,
            first_line + (mark.line if mark else 0),
            f"malformed YAML: {error.problem}",
            "check the indentation, colons and quotes of this line",
            (mark.column + 1) if mark else 0,
        )
    if isinstance(error, yaml.reader.ReaderError):  # a character YAML does not allow
        line, column = position(text, min(error.position, len(text)))
        char = error.character
        what = describe(chr(char) if isinstance(char, int) else str(char)[:1] or "?")
        return Problem(
            path,
            first_line - 1 + line,
            f"malformed YAML: the character {what} is not allowed",
            "delete it: it prints nothing",
            column,
        )
    if isinstance(error, yaml.YAMLError):
        return Problem(path, first_line, f"malformed YAML: {error}")
    if isinstance(error, ValueError):  # a number of thousands of digits
        return Problem(
            path,
            first_line - 1 + long_number_line(text),
            f"malformed YAML: {str(error).split(';')[0]}",
            "no value of a card or deck is this long",
        )
    return Problem(path, first_line, "malformed YAML: nested too deeply")  # RecursionError


def read(path: Path, limit: int, what: str) -> tuple[Any, yaml.Node | None]:
    """(data, node) of a small YAML file translator reads as settings (a theme.yaml,
    the official look's layout defaults): at most ``limit`` bytes of UTF-8.  Any
    problem is a :class:`ValueError` of one line, ``path:line: what is wrong`` (the
    caller makes it its own error)."""
    try:
        text = decode(read_file(path, limit, what), str(path))
    except InputError as error:
        raise ValueError(str(error)) from None
    problems: list[Problem] = []
    loaded = load(text, str(path), 1, problems)
    if loaded is None:
        raise ValueError(str(problems[0]) if problems else f"{path}: malformed YAML")
    return loaded


def _shares_nodes(root: yaml.Node) -> bool:
    """Whether a node is reached twice: an alias.  Aliases are how a few hundred bytes
    of YAML expand into gigabytes (a "billion laughs"), and no file people edit here
    needs one, so they are refused rather than limited."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            return True
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.append(key)
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return False


def _alias_line(text: str) -> int:
    """The line (0-based) of the first alias in ``text``."""
    try:
        for event in yaml.parse(text, Loader=Loader):
            # The parser marks every event it reads (only hand-made events have none).
            if isinstance(event, yaml.AliasEvent) and event.start_mark is not None:
                return event.start_mark.line
    except yaml.YAMLError:
        pass
    return 0


def child(node: yaml.Node | None, key: str | int) -> yaml.Node | None:
    """The node under a mapping key or a sequence index."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if key_node.value == key:
                return value_node
    elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        return node.value[key]
    return None


def line_of(node: yaml.Node | None, *path: str | int, first_line: int = 1) -> int:
    """Line of the value at ``path`` under ``node`` (its nearest existing ancestor's)."""
    line = first_line + (node.start_mark.line if node is not None else 0)
    for key in path:
        node = child(node, key)
        if node is None:
            break
        line = first_line + node.start_mark.line
    return line


def key_line_of(node: yaml.Node | None, *path: str | int, first_line: int = 1) -> int:
    """Line of the key that ends ``path`` (where a wrong key is written)."""
    parent = node
    for key in path[:-1]:
        parent = child(parent, key)
    if isinstance(parent, yaml.MappingNode) and path:
        for key_node, _ in parent.value:
            if key_node.value == path[-1]:
                return first_line + key_node.start_mark.line
    return line_of(node, *path, first_line=first_line)
