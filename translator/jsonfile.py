"""JSON from outside (Aminduna's API, a website export): read within limits, and the
line of any value found again for messages.

Python's ``json`` module accepts what no API sends (``NaN``, ``Infinity``) and fails
with a traceback on what an attacker sends (100,000 nested brackets, a number of
5,000 digits); both are refused here with the file and the line.  JSON keeps no
positions, so :func:`line_of` finds a value's line again by scanning the text, which
only a problem's message needs.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from typing import Any

from .limits import MAX_DEPTH, MAX_FILE_BYTES
from .problems import Problem
from .textio import InputError, decode, long_number_line, read_file
from .untrusted import position

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def load(
    text: str, path: str, problems: list[Problem], containers: int | None = None
) -> tuple[bool, Any]:
    """(True, data) of a JSON text, or (False, None) and a problem naming the line.

    ``containers``: how many objects and lists the text may hold at most, counted
    (braces and brackets, those in strings too: an over-count) before it is parsed.
    Parsed, each empty object takes some fifty times its three bytes: 20 MB of
    ``{},`` took 3.6 GB."""
    hint = "save the API's answer as it came"
    if containers is not None:
        found = text.count("{") + text.count("[")
        if found > containers:
            problems.append(
                Problem(
                    path,
                    1,
                    f"holds {found:,} JSON objects and lists, far more than its cards can "
                    f"(at most {containers:,})",
                    "is this the right file?",
                )
            )
            return False, None
    try:
        data = json.loads(text, parse_constant=_constant)
    except json.JSONDecodeError as error:
        problems.append(
            Problem(path, error.lineno, f"not valid JSON: {error.msg}", hint, error.colno)
        )
        return False, None
    except RecursionError:
        problems.append(
            Problem(
                path,
                1,
                f"JSON nested more than {MAX_DEPTH} levels deep",
                "Aminduna's JSON is a few levels deep: is this the right file?",
            )
        )
        return False, None
    except ValueError as error:  # NaN, Infinity, a number of thousands of digits
        message = str(error).split(";")[0]
        problems.append(
            Problem(path, _line_of_text(text, message), f"not valid JSON: {message}", hint)
        )
        return False, None
    deepest = depth(data)
    if deepest > MAX_DEPTH:
        problems.append(
            Problem(
                path,
                1,
                f"JSON nested {deepest} levels deep (at most {MAX_DEPTH})",
                "Aminduna's JSON is a few levels deep: is this the right file?",
            )
        )
        return False, None
    return True, data


def loads(text: str, path: str, hint: str = "") -> Any:
    """The data of a JSON ``text`` read from ``path``, or an :class:`InputError` naming
    the file and the line (``hint``: what to do, after the problem)."""
    problems: list[Problem] = []
    ok, data = load(text, path, problems)
    if not ok:
        problem = problems[0]
        message = f"{problem.message}; {hint}" if hint else problem.message
        raise InputError(path, message, problem.line, problem.column)
    return data


def read(
    path: str | os.PathLike[str],
    limit: int = MAX_FILE_BYTES,
    what: str = "JSON file",
    *,
    hint: str = "",
    beneath: str | os.PathLike[str] | None = None,
) -> Any:
    """The data of the JSON file ``path``: the one reader of every JSON file translator
    keeps or is given (pull records, build records, proofs, caches).  A regular file of
    at most ``limit`` bytes (:func:`translator.textio.read_file`: no FIFO, no device,
    with ``beneath`` no link), UTF-8, valid JSON nested at most
    :data:`~translator.limits.MAX_DEPTH` deep, without ``NaN`` or endless numbers;
    anything else an :class:`InputError` naming the file and line, never a
    traceback."""
    shown = os.fspath(path)
    return loads(decode(read_file(path, limit, what, beneath=beneath), shown), shown, hint)


def _line_of_text(text: str, message: str) -> int:
    for word in ("NaN", "-Infinity", "Infinity"):
        if message.startswith(word):
            match = re.search(rf"(?<![\w\"]){word}(?![\w\"])", text)
            if match:
                return position(text, match.start())[0]
    return long_number_line(text)


def depth(value: Any) -> int:
    """How deeply ``value`` nests (a scalar is 1), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


#: How many problems of one run get their line found: each search scans the text, so
#: a file with a problem in every one of 60,000 cards must not scan it 60,000 times
#: (the others are reported on line 0, after these).
LOCATED = 100


def line_of(text: str, path: tuple[str | int, ...]) -> int:
    """The line of the value at ``path`` (keys and indexes) in a JSON ``text``; of its
    nearest ancestor found, 1 if none."""
    newlines = [m.start() for m in re.finditer("\n", text)]

    def line(offset: int) -> int:
        return bisect.bisect_left(newlines, offset) + 1

    # One frame per open container: [is_object, key or index, expecting a key].
    stack: list[list[Any]] = []
    best = 1
    for match in _TOKEN.finditer(text):
        token = match.group()
        top = stack[-1] if stack else None
        if token in ",:" or token in "}]":
            if token == "," and top is not None:
                if top[0]:
                    top[2] = True
                else:
                    top[1] += 1
            elif token in "}]" and stack:
                stack.pop()
            continue
        if top is not None and top[0] and top[2]:  # a key
            top[1] = json.loads(token) if token.startswith('"') else token
            top[2] = False
            continue
        current = tuple(frame[1] for frame in stack)
        if current == path[: len(current)]:
            best = line(match.start())
            if current == path:
                return best
        if token in "{[":
            stack.append([token == "{", None if token == "{" else 0, token == "{"])
    return best
