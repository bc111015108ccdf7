"""Reading and writing text files the way translators' files need it.

Every read names the file and the line of a problem (bad UTF-8, a NUL byte where a
text file cannot have one); every write is atomic (a temporary file in the same
directory, renamed over the original), so an interrupted run never leaves half a
card behind.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from .atomic import sweep, write_file
from .errors import UserError
from .limits import MAX_CARD_FILE_BYTES, MAX_FILE_BYTES, MAX_TEXT_CHARS
from .paths import LinkRefused, OutsideError, open_beneath
from .untrusted import position

__all__ = [
    "MAX_TEXT_CHARS",
    "InputError",
    "SourceFile",
    "atomic_write",
    "decode",
    "expand_paths",
    "read_file",
    "read_source",
    "read_text",
    "split_front_matter",
]


class InputError(UserError):
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
        raise InputError(
            path,
            f"not valid UTF-8 (byte 0x{data[error.start]:02X}); save the file as UTF-8",
            line,
            column,
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def read_file(
    path: str | os.PathLike[str],
    limit: int = MAX_FILE_BYTES,
    what: str = "file",
    *,
    beneath: str | os.PathLike[str] | None = None,
) -> bytes:
    """The bytes of a regular file (``-``: standard input), at most ``limit`` of them.

    A FIFO, a device or a directory where a file is expected would hang the reader
    or never end (``/dev/zero``), so it is refused before a byte is read: the file is
    opened without blocking and checked with ``fstat``, which also sees through links
    as a reader would.  With ``beneath`` (a folder ``path`` lies in), no link is
    followed below that folder (:func:`translator.paths.open_beneath`): what is served
    or copied out of a folder someone else filled is that folder's own file.
    """
    display = str(path)
    if display == "-":
        return _read_stdin(limit, what)
    descriptor = (
        _open_without_blocking(path, display)
        if beneath is None
        else _open_beneath(path, beneath, display, what)
    )
    try:
        info = os.fstat(descriptor)
        _check_regular_file(info, display, limit, what)
        os.set_blocking(descriptor, True)
        data = _read_up_to(descriptor, info.st_size, limit)
    except OSError as error:
        raise InputError(display, f"cannot read: {error.strerror or error}") from None
    finally:
        if descriptor >= 0:
            os.close(descriptor)
    if len(data) > limit:  # it grew while being read
        raise InputError(display, f"is larger than {_size(limit)}; a {what} is smaller")
    return data


def _read_stdin(limit: int, what: str) -> bytes:
    """Standard input, at most ``limit`` bytes: it has no size to check beforehand, so
    one byte more than the limit is read to tell a too-large input."""
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise InputError(
            "<stdin>",
            f"more than {_size(limit)} on standard input; a "
            f"{what} is smaller: is this the right input?",
        )
    return data


def _open_without_blocking(path: str | os.PathLike[str], display: str) -> int:
    """A descriptor of ``path`` opened without blocking (a FIFO would wait for a writer
    otherwise), the usual reasons it cannot be opened said in words."""
    try:
        return os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(display, "no such file") from None
    except IsADirectoryError:
        raise InputError(display, "is a directory, not a file") from None
    except OSError as error:
        raise InputError(display, f"cannot read: {error.strerror}") from None


def _open_beneath(
    path: str | os.PathLike[str], root: str | os.PathLike[str], display: str, what: str
) -> int:
    """:func:`translator.paths.open_beneath` of ``path`` (a path inside ``root``),
    its refusals said as this module says them."""
    try:
        relative = Path(path).relative_to(root)
    except ValueError:
        raise InputError(display, f"is not inside {root}") from None
    try:
        return open_beneath(root, relative, what=what)
    except LinkRefused as refused:
        raise InputError(display, str(refused.strerror)) from None
    except FileNotFoundError:
        raise InputError(display, "no such file") from None
    except OSError as error:
        raise InputError(display, f"cannot read: {error.strerror or error}") from None


def _check_regular_file(info: os.stat_result, display: str, limit: int, what: str) -> None:
    """Refuse what is not a regular file of at most ``limit`` bytes, before a byte is
    read: a directory, a device or a pipe, or a file too large to be a ``what``."""
    if stat.S_ISDIR(info.st_mode):
        raise InputError(display, "is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(
            display, f"is {_kind(info.st_mode)}, not a regular file: give the path of a {what}"
        )
    if info.st_size > limit:
        raise InputError(
            display,
            f"is {_size(info.st_size)}; a {what} is at most "
            f"{_size(limit)}: is this the right file?",
        )


def _read_up_to(descriptor: int, expected: int, limit: int) -> bytes:
    """The file's bytes, at most one more than ``limit``: in one read when the file is
    as large as ``fstat`` said (``expected``), in chunks when it grows or says it is
    empty (``/proc``), so that a file growing without end is cut off."""
    chunks = []
    size, want = 0, expected + 1
    while size <= limit:
        asked = min(want, limit + 1 - size)
        chunk = os.read(descriptor, asked)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if len(chunk) < asked and size == expected:
            break  # the whole file, as fstat said: no need to ask for the end
        want = 1 << 20  # a file that grows, or says it is empty (/proc)
    return b"".join(chunks)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _size(count: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if count >= size:
            return f"{count / size:,.1f} {unit}".replace(".0 ", " ")
    return f"{count:,} bytes"


def read_text(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES, what: str = "file") -> str:
    """A regular UTF-8 file's text (a byte-order mark dropped), problems named."""
    return decode(read_file(path, limit, what), str(path))


def long_number_line(text: str) -> int:
    """The line (1-based) of the first number too long for Python to read (more than
    4,300 digits), 1 if there is none: the line a "number too long" error is on."""
    match = re.search(r"\d{4301,}", text)
    return position(text, match.start())[0] if match else 1


def split_front_matter(text: str) -> tuple[str, str, int]:
    """(front matter including its ``---`` lines, body, body's first line number)."""
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return "", text, 1
    lines = text.splitlines(keepends=True)
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n") in ("---", "..."):
            front = "".join(lines[: index + 1])
            return front, text[len(front) :], index + 2
    return "", text, 1


def read_source(path: str) -> SourceFile:
    """Read a card text file (or ``-`` for standard input)."""
    display = "<stdin>" if path == "-" else path
    text = decode(read_file(path, MAX_CARD_FILE_BYTES, "card text file"), display)
    front, body, body_line = split_front_matter(text)
    if len(body) > MAX_TEXT_CHARS:
        raise InputError(
            display,
            f"the card text is {len(body):,} characters long; a card "
            f"holds a few hundred (limit {MAX_TEXT_CHARS:,}): is this "
            "the right file?",
            body_line,
        )
    return SourceFile(display, front, body, body_line)


def atomic_write(path: str, text: str, *, within: str | os.PathLike[str] | None) -> None:
    """Write ``text`` to ``path`` (UTF-8) so that readers see the old or the new file.

    The file stays what it was: a link is written through (the file it points to is
    replaced, the link stays a link), a byte-order mark is kept, and so are the file's
    permissions; it is synced to the disk (:func:`.atomic.write_file`).  A problem
    names ``path``, not the temporary file.  ``within`` is the folder the file belongs
    in (a card's deck), which the file written, links followed, must lie in; None for a
    file the user named on the command line (``-o FILE``) and the files written beside
    it (``FILE.tbx``): it must lie in the folder named with it, so that a link there
    (committed to a repository: ``deck.fr.txt`` leading to ``~/.bashrc``) carries no
    write elsewhere (name the file it leads to instead).
    """
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    _sweep_once(target.parent)
    data = text.encode("utf-8")
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666
    else:
        if not data.startswith(_BOM) and _starts_with_bom(target):
            data = _BOM + data
    fence = Path(os.path.abspath(path)).parent if within is None else within
    try:
        write_file(target, data, mode, within=fence)
    except OutsideError:
        raise OutsideError(path, fence) from None
    except OSError as error:  # name the file asked for (a link), not the one written
        raise OSError(error.errno, error.strerror or str(error), str(path)) from None


_BOM = b"\xef\xbb\xbf"
_SWEPT: set[Path] = set()


def _sweep_once(directory: Path) -> None:
    """What killed writers left beside the file and in the library above it (an
    import's staging folder): removed by the first write there of any command."""
    for folder in (directory, directory.parent):
        if folder not in _SWEPT:
            _SWEPT.add(folder)
            sweep(folder)


def _starts_with_bom(path: Path) -> bool:
    """Whether the file to be replaced starts with a byte-order mark (a FIFO or a
    device in its place is not read: it is replaced as any file is)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(descriptor).st_mode) and os.read(descriptor, 3) == _BOM
    except OSError:
        return False
    finally:
        os.close(descriptor)


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
