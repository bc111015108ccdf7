"""Reading and writing text files the way translators' files need it.

Every read names the file and the line of a problem (bad UTF-8, a NUL byte where a
text file cannot have one); every write is atomic (a temporary file in the same
directory, renamed over the original), so an interrupted run never leaves half a
card behind.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: A card text box holds a few hundred characters; anything this long is a mistake
#: (the wrong file), and the reference parser is quadratic on some inputs.
MAX_TEXT_CHARS = 65_536


class InputError(Exception):
    """A problem with an input file, reported as ``path:line:col: message``."""

    def __init__(self, path: str, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.path = path
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = self.path
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A card text file: its optional YAML front matter and its body (the card text)."""

    path: str
    front_matter: str
    body: str
    #: Line number (1-based) of the body's first line in the file.
    body_line: int

    @property
    def content(self) -> str:
        return self.front_matter + self.body

    def with_body(self, body: str) -> SourceFile:
        return SourceFile(self.path, self.front_matter, body, self.body_line)


def decode(data: bytes, path: str) -> str:
    """UTF-8 text, or an :class:`InputError` naming the line of the first bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputError(path, f"not valid UTF-8 (byte 0x{data[error.start]:02X}); "
                               "save the file as UTF-8", line, column) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except IsADirectoryError:
        raise InputError(path, "is a directory, not a file") from None
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror}") from None


def split_front_matter(text: str) -> tuple[str, str, int]:
    """(front matter including its ``---`` lines, body, body's first line number)."""
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return "", text, 1
    lines = text.splitlines(keepends=True)
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n") in ("---", "..."):
            front = "".join(lines[: index + 1])
            return front, text[len(front):], index + 2
    return "", text, 1


def read_source(path: str) -> SourceFile:
    """Read a card text file (or ``-`` for standard input)."""
    display = "<stdin>" if path == "-" else path
    text = decode(read_bytes(path), display)
    front, body, body_line = split_front_matter(text)
    if len(body) > MAX_TEXT_CHARS:
        raise InputError(display, f"the card text is {len(body):,} characters long; a card "
                                  f"holds a few hundred (limit {MAX_TEXT_CHARS:,}): is this "
                                  "the right file?", body_line)
    return SourceFile(display, front, body, body_line)


def atomic_write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8) so that readers see the old or the new file."""
    target = Path(path)
    mode = target.stat().st_mode if target.exists() else None
    try:
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                             suffix=".tmp")
    except OSError as error:  # name the file asked for, not the temporary one
        raise OSError(error.errno, f"cannot write: {error.strerror}", str(target)) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        # mkstemp makes the file private; a new file gets the usual permissions.
        os.chmod(temporary, mode if mode is not None else 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def expand_paths(paths: list[str], suffix: str = ".md") -> list[str]:
    """Files named, and the ``suffix`` files under directories named, in order."""
    found: list[str] = []
    for path in paths:
        candidate = Path(path)
        if path != "-" and candidate.is_dir():
            found.extend(str(p) for p in sorted(candidate.rglob(f"*{suffix}")) if p.is_file())
        else:
            found.append(path)
    return found
