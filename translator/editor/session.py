"""What the language server knows of a card library, without the protocol.

A :class:`Session` is one library, read once with its lint setup (the configuration
of its project, the glossaries, the spelling dictionaries) and kept warm: an editor
asks again on every key stroke, and reading the glossaries takes longer than linting a
card.  The editor's buffers win over the disk: a buffer's text is parsed and put in the
library in place of the file's (``Library.add`` replaces a version), so that its English
card, its deck and the cross-card rules see what the translator is typing; a closed
buffer goes back to the file on disk.

Everything here works on offsets into the buffer's text (Python string indexes);
:class:`Lines` turns them into the editor's positions (line, and character in UTF-16
code units unless the client chose another encoding) and back.  The server
(:mod:`.server`) calls these methods from one worker thread; a lock keeps them apart
from the few calls the event loop makes itself.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import threading
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..cards.files import CARD_FILE_RE, DECK_FILE
from ..cards.model import SOURCE_LANGUAGE
from ..errors import UserError
from ..limits import MAX_CARD_FILE_BYTES, MAX_TEXT_CHARS
from ..textio import decode, read_file, split_front_matter

if TYPE_CHECKING:
    from ..api import CardPreview
    from ..cards import Card, CardFile, Library, Problem
    from ..lint import Finding, Options
    from ..lint.context import Resources
    from .assist import Assistant


_LSP_BREAK = re.compile(r"\r\n|\r|\n")
#: A lone surrogate: half of a UTF-16 pair, which JSON's ``"\ud800"`` gives a buffer.
_SURROGATE = re.compile("[\ud800-\udfff]")
_WORD = re.compile(r"\w+")
#: What :func:`text_changes` compares: words, and every other character alone.
_TOKEN = re.compile(r"\w+|\W", re.DOTALL)


# --------------------------------------------------------------------------------------
# positions


def _units(text: str, encoding: str) -> int:
    """How many code units of ``encoding`` (``utf-8``, ``utf-16``, ``utf-32``) ``text``
    takes: LSP counts characters in UTF-16 units unless the client chose another.  A
    lone surrogate (an editor's buffer may hold one) is one UTF-16 unit, three bytes."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-8":
        return utf8_size(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf8_size(text: str) -> int:
    """The bytes of ``text`` in UTF-8, a lone surrogate counted as the three bytes
    it would take (it has no UTF-8 of its own)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _index(content: str, character: int, encoding: str) -> int:
    """The index in ``content`` (one line) of ``character`` code units of
    ``encoding``: the first character that starts at or after it (a position inside
    a character is the next one), the line's end past it.  In C, not character by
    character: a line may be a megabyte long."""
    if character <= 0:
        return 0
    if encoding == "utf-32" or content.isascii():
        return min(character, len(content))
    if encoding == "utf-8":
        return _utf8_index(content, character)
    if _SURROGATE.search(content) is not None:  # UTF-16 would pair two lone halves
        count = 0
        for index, char in enumerate(content):
            if count >= character:
                return index
            count += 2 if ord(char) > 0xFFFF else 1
        return len(content)
    data = content.encode("utf-16-le")
    # Half of a pair decodes to a lone surrogate, counted as the whole character.
    return len(data[: 2 * character].decode("utf-16-le", "surrogatepass"))


def _utf8_index(content: str, character: int) -> int:
    data = content.encode("utf-8", "surrogatepass")
    cut = min(character, len(data))
    while cut < len(data) and data[cut] & 0xC0 == 0x80:  # inside a character
        cut += 1
    return len(data[:cut].decode("utf-8", "surrogatepass"))


def offset_at(text: str, line: int, character: int, encoding: str = "utf-16") -> int:
    """:meth:`Lines.offset` without a table of the lines: where a change of a buffer
    of any size starts or ends (a buffer of a million lines would take hundreds of
    megabytes of table).  Past a line's end is its end, past the last line the text's
    end, a negative line the start."""
    if line < 0:
        return 0
    if "\r" not in text:  # the usual case, in C: the rest after ``line`` line feeds
        parts = text.split("\n", line)
        if len(parts) <= line:
            return len(text)
        start = len(text) - len(parts[-1])
    else:
        start = 0
        for _ in range(line):
            found = _LSP_BREAK.search(text, start)
            if found is None:
                return len(text)
            start = found.end()
    found = _LSP_BREAK.search(text, start)
    stop = found.start() if found is not None else len(text)
    return start + _index(text[start:stop], character, encoding)


class Lines:
    """A buffer's text, with what turns offsets into positions and back.

    Two line tables: the linter counts lines by line feeds (a finding's line and
    column, the column in characters, 1-based, as the command line prints them); LSP
    counts ``\\r\\n``, ``\\r`` and ``\\n`` alike, and characters in the client's units.
    """

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding
        self._linter = [0] + [m.end() for m in re.finditer("\n", text)]
        self._lsp = [0] + [m.end() for m in _LSP_BREAK.finditer(text)]

    def offset_of(self, line: int, column: int) -> int:
        """The offset of the linter's 1-based ``line`` and ``column`` (0: the line's
        start), kept inside the text."""
        index = min(max(line, 1), len(self._linter)) - 1
        start = self._linter[index]
        stop = self._linter[index + 1] - 1 if index + 1 < len(self._linter) else len(self.text)
        return min(start + max(column - 1, 0), max(stop, start))

    def position(self, offset: int) -> tuple[int, int]:
        """The LSP position (0-based line, character in code units) of ``offset``."""
        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self._lsp, offset) - 1
        start = self._lsp[line]
        return line, _units(self.text[start:offset], self.encoding)

    def offset(self, line: int, character: int) -> int:
        """The offset of an LSP position; past a line's end is its end, past the last
        line the text's end (what clients send at the end of a buffer)."""
        if line < 0:
            return 0
        if line >= len(self._lsp):
            return len(self.text)
        start = self._lsp[line]
        stop = self._lsp[line + 1] if line + 1 < len(self._lsp) else len(self.text)
        content = _LSP_BREAK.sub("", self.text[start:stop])
        return start + _index(content, character, self.encoding)

    def word_end(self, offset: int) -> int:
        """Where the word at ``offset`` ends (one character on, at least, but never past
        the line): the range a finding with no span of its own underlines."""
        match = _WORD.match(self.text, offset)
        if match is not None and match.end() > offset:
            return match.end()
        if offset < len(self.text) and self.text[offset] not in "\r\n":
            return offset + 1
        return offset


def text_change(old: str, new: str) -> Change:
    """The one replacement that turns ``old`` into ``new``: ``old[start:end]`` becomes
    the text returned (what an editor applies without moving the rest of the buffer)."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    return start, end_old, new[start:end_new]


def text_changes(old: str, new: str) -> tuple[Change, ...]:
    """The small replacements that turn ``old`` into ``new``, a word or a mark each
    (compared word by word, so that *villes* -> *cités* is one replacement, not
    letters here and there): fixing a whole card touches a few places, and an editor
    keeps the cursor and the undo steps of the rest."""
    before, after = _TOKEN.findall(old), _TOKEN.findall(new)
    starts = [0]
    for token in before:
        starts.append(starts[-1] + len(token))
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return tuple(
        (starts[i1], starts[i2], "".join(after[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    )


# --------------------------------------------------------------------------------------
# what a buffer gets


@dataclass(frozen=True)
class Issue:
    """A diagnostic of a buffer: ``text[start:end]`` is what it is about."""

    start: int
    end: int
    #: ``error``, ``warning`` or ``info`` (:class:`translator.diagnostics.Severity`).
    severity: str
    message: str
    #: The rule's code; None for a problem of the file itself (YAML, a field).
    code: str | None = None
    #: Whether a safe fix exists (a code action offers it).
    fixable: bool = False


#: A change of a buffer: ``text[start:end]`` becomes the string.
Change = tuple[int, int, str]


@dataclass(frozen=True)
class Fix:
    """A safe fix as an editor applies it: changes of the buffer's text, each offset
    in the text before any of them (as LSP's text edits are)."""

    title: str
    changes: tuple[Change, ...]
    #: The issue it fixes (None for "apply all safe fixes").
    issue: Issue | None = None


@dataclass
class Linted:
    """A buffer's text linted: the card it parses to, its problems and findings."""

    text: str
    file: CardFile | None
    problems: list[Problem]
    findings: list[Finding]
    #: The problems' issues (YAML, fields), then the findings'.
    issues: list[Issue] = field(default_factory=list)
    #: Each finding with its issue (what a quick fix fixes).
    pairs: list[tuple[Finding, Issue]] = field(default_factory=list)
    #: For an English card: its translations (their findings may have changed).
    dependents: list[str] = field(default_factory=list)
    #: Why the buffer was not linted (:func:`too_large`): its one issue says so.
    refused: str | None = None


def _shown(text: str) -> str:
    """A few characters of a fix for its title, invisible ones named (a no-break
    space is the usual replacement)."""
    if not text:
        return "nothing"
    shown = "".join(f"U+{ord(c):04X}" if c.isspace() and c != " " else c for c in text)
    return f"“{shown if len(shown) <= 30 else shown[:29] + '…'}”"


def fix_title(code: str, old: str, new: str) -> str:
    """What a quick fix says it does: ``FR203: replace “'” with “’”``."""
    if not old:
        return f"{code}: insert {_shown(new)}"
    if not new:
        return f"{code}: delete {_shown(old)}"
    return f"{code}: replace {_shown(old)} with {_shown(new)}"


# --------------------------------------------------------------------------------------
# what an editor's buffer may be

#: Issues of lone surrogates a buffer gets at most: the first ones say where to look.
MAX_SURROGATE_ISSUES = 20
#: Findings shown as diagnostics at most (a card has a handful): a text of 60,000
#: colons has 120,000 findings, whose diagnostics would be a message of 30 MB that
#: the server takes seconds to write and the editor to read.
MAX_FINDING_ISSUES = 500


def too_large(text: str, size: int | None = None) -> str | None:
    """Why a buffer is not linted, or None: more bytes than a card file may have
    (:data:`~translator.limits.MAX_CARD_FILE_BYTES`, as UTF-8; ``size`` when the
    caller counted them, as the server does for a buffer whose text it no longer
    keeps), or a card text longer than a card may hold
    (:data:`~translator.limits.MAX_TEXT_CHARS`).  The command line refuses such a
    file; an editor's buffer is not refused, it is left alone, and said so."""
    if size is None:
        size = len(text) if len(text) > MAX_CARD_FILE_BYTES else utf8_size(text)
    if size > MAX_CARD_FILE_BYTES:
        return (
            f"this buffer is {_amount(size)}, more than a card file may be "
            f"({_amount(MAX_CARD_FILE_BYTES)}): translator does not lint it (a card "
            "holds a few hundred characters: is this the right file?)"
        )
    body = split_front_matter(text)[1]
    if len(body) > MAX_TEXT_CHARS:
        return (
            f"the card text is {len(body):,} characters long, more than a card may hold "
            f"({MAX_TEXT_CHARS:,}): translator does not lint it (a card holds a few "
            "hundred: is this the right file?)"
        )
    return None


def _amount(size: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:,.1f} {unit}".replace(".0 ", " ")
    return f"{size:,} bytes"


def holds_surrogate(text: str) -> bool:
    """Whether ``text`` holds a surrogate (lone, or one half of a pair that two
    changes of a buffer typed apart)."""
    return _SURROGATE.search(text) is not None


def readable(text: str) -> str:
    """``text`` with each lone surrogate (half of a UTF-16 pair, which no file can
    hold and no encoder writes) replaced by U+FFFD: the linter, the preview and hover
    read the buffer as it would be saved.  One character for one: every offset, and
    every position in UTF-16 units or UTF-8 bytes, stays what it was."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def surrogate_issues(text: str) -> list[Issue]:
    """An issue on each lone surrogate of ``text`` (the first
    :data:`MAX_SURROGATE_ISSUES`; the last of them counts the others)."""
    found = [match.start() for match in _SURROGATE.finditer(text)]
    issues = []
    for number, offset in enumerate(found[:MAX_SURROGATE_ISSUES], 1):
        more = len(found) - MAX_SURROGATE_ISSUES
        others = (
            f"; {more:,} more after this one" if number == MAX_SURROGATE_ISSUES and more > 0 else ""
        )
        issues.append(
            Issue(
                offset,
                offset + 1,
                "error",
                f"a lone surrogate, U+{ord(text[offset]):04X}: half of a character, which "
                f"no file can hold{others} (delete it, or type the character again)",
            )
        )
    return issues


# --------------------------------------------------------------------------------------
# finding a library


def deck_folder(path: Path) -> Path | None:
    """The deck a card file is in: its folder, when that holds a ``deck.yaml``."""
    folder = path.parent
    return folder if (folder / DECK_FILE).is_file() else None


def library_root(path: Path, bounds: Sequence[Path] = ()) -> Path | None:
    """The library a card file belongs to: the folder of decks above its deck (as
    ``cards/`` holds ``cards/sample/``), when that folder is inside one of ``bounds``
    (the workspace folders, the project folder of its configuration) or no bound is
    known; else the deck alone (a workspace that is one deck).  None outside a deck."""
    deck = deck_folder(path)
    if deck is None:
        return None
    above = deck.parent
    if not bounds or any(above == b or above.is_relative_to(b) for b in bounds):
        return above
    return deck


def is_card_name(path: Path) -> bool:
    return CARD_FILE_RE.match(path.name) is not None


# --------------------------------------------------------------------------------------
# a session


class Session:
    """One card library, its lint setup and the editor's buffers of its files.

    :meth:`load` reads it (seconds: the glossaries; the first lint loads the spelling
    dictionaries), the first method that needs it calls it; a configuration with a
    problem (an unknown rule code, bad TOML) leaves the session unloaded with
    :attr:`failure` saying what to fix, and the next call tries again.  Problems of
    glossary and deck files are in :attr:`load_problems` (the server logs them).
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.library: Library | None = None
        self.resources: Resources | None = None
        self.options: Options | None = None
        #: Why the library could not be set up (a problem of its configuration).
        self.failure: str | None = None
        #: Problems found while loading that concern no buffer (glossary files...).
        self.load_problems: list[Problem] = []
        self.buffers: dict[str, str] = {}
        self._last: dict[str, Linted] = {}
        self._assistants: dict[str, Assistant | None] = {}
        self._names: dict[Path, str] = {}
        self._lock = threading.RLock()

    # -- loading

    @property
    def loaded(self) -> bool:
        return self.resources is not None

    def load(self) -> bool:
        """Read the library and set up the linter, once; False (and :attr:`failure`)
        when the project's configuration has a problem."""
        with self._lock:
            if self.loaded:
                return True
            try:
                self._load()
            except UserError as error:
                problems = getattr(error, "problems", [])
                self.failure = "; ".join(str(p) for p in problems[:3]) or str(error)
                return False
            self.failure = None
            return True

    def _load(self) -> None:
        from .. import api, cards, lint  # noqa: PLC0415 - the linter loads slowly
        from ..glossary.model import LANGUAGES  # noqa: PLC0415

        config = api.load_config(self.root)
        options, _ = api.lint_options(config)
        if not options.glossary_paths:
            options.glossary_paths = [str(self.root)]
        library, problems = cards.load_library([str(self.root)])
        glossary_problems: list[Problem] = []
        languages = [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]
        resources = lint.load_resources(languages, options, glossary_problems)
        self.load_problems = glossary_problems + [p for p in problems if not _card_problem(p)]
        self.library, self.options = library, options
        self._name_files()
        for path, text in self.buffers.items():  # opened before the library was read
            self._put(path, text, [])
        self.resources = resources

    def warm(self) -> None:
        """Lint one translation of each language once: the first lint loads the
        spelling dictionaries (seconds), better before the translator's first key."""
        with self._lock:
            if not self.load():
                return
            assert self.library is not None
            seen: set[str] = set()
            for card in self.library.cards.values():
                for lang, version in card.translations.items():
                    if lang not in seen and card.source is not None:
                        seen.add(lang)
                        self._lint([version.path])

    # -- buffers

    def path_of(self, path: Path) -> str:
        """The library's name for the card file at ``path`` (the path it was read
        under, whatever way the editor writes it).  Read from a table that only grows,
        so that the event loop may ask while the worker lints."""
        real = path.resolve()
        return self._names.get(real) or str(path)

    def _name_files(self) -> None:
        """The table of :meth:`path_of`: every file of the library by its real path."""
        assert self.library is not None
        for card in self.library.cards.values():
            for version in (card.source, *card.translations.values()):
                if version is not None:
                    self._names.setdefault(Path(version.path).resolve(), version.path)

    def _deck(self, path: str) -> str | None:
        """The deck key (its folder's name) of a card file of the library."""
        assert self.library is not None
        folder = Path(path).parent.resolve()
        for key, deck in self.library.decks.items():
            if Path(deck.directory).resolve() == folder:
                return key
        return None

    def _put(self, path: str, text: str, problems: list[Problem]) -> CardFile | None:
        """Parse ``text`` as the card file ``path`` and file it in the library in place
        of the version read before; the library keeps the last good version of a
        buffer that does not parse."""
        from ..cards.files import parse_card_text  # noqa: PLC0415

        deck = self._deck(path)
        if deck is None:
            problems.append(_problem(path, "this deck is not in the library as it was read"))
            return None
        parsed = parse_card_text(path, deck, text, problems)
        if parsed is not None:
            assert self.library is not None
            self.library.add(parsed)
            self._names.setdefault(Path(path).resolve(), path)
        return parsed

    def close(self, path: str) -> None:
        """The buffer is closed: the library has the file on disk again (or no longer
        has it, when it was never saved)."""
        with self._lock:
            self.buffers.pop(path, None)
            self._last.pop(path, None)
            self.refresh(path)

    def refresh(self, path: str) -> None:
        """A file changed on disk: read it again, unless a buffer holds it."""
        from ..cards.files import parse_card_file  # noqa: PLC0415

        with self._lock:
            if self.library is None or path in self.buffers:
                return
            deck = self._deck(path)
            parsed = (
                parse_card_file(Path(path), deck, []) if deck and Path(path).is_file() else None
            )
            if parsed is not None:
                self.library.add(parsed)
            elif deck is not None:
                _remove(self.library, deck, Path(path).name)
            self._last.clear()

    # -- linting

    def lint(self, path: str, text: str, encoding: str = "utf-16") -> Linted:
        """The buffer ``text`` of the card file ``path`` put in the library and linted
        (only that file; the engine still reads its deck and library for the
        cross-card rules): its problems and findings as :class:`Issue`.

        A buffer too large for a card file is not linted (:func:`too_large`: one
        issue, at its start, says why; the library keeps the buffer's last version);
        a lone surrogate gets an issue of its own, the rest of the text is linted as
        usual (:func:`readable`)."""
        refused = too_large(text)
        if refused is not None:
            return Linted(text, None, [], [], [Issue(0, 0, "error", refused)], refused=refused)
        clean = readable(text)
        with self._lock:
            self.buffers[path] = clean
            if not self.load():
                return Linted(text, None, [], [], [Issue(0, 0, "error", self._failure())])
            problems: list[Problem] = []
            file = self._put(path, clean, problems)
            findings = self._lint([path]) if file is not None else []
            findings = [f for f in findings if f.path == path]
            linted = Linted(text, file, problems, findings)
            lines = Lines(clean, encoding)
            if file is not None:
                shown = findings[:MAX_FINDING_ISSUES]
                linted.pairs = [(f, _finding_issue(f, file, lines)) for f in shown]
            linted.issues = (
                surrogate_issues(text)
                + self._issues(linted, lines)
                + [issue for _, issue in linted.pairs]
                + _more_issues(len(findings), linted.pairs)
            )
            if file is not None and file.is_source:
                linted.dependents = self.translations(path)
            self._last[path] = linted
            return linted

    def _failure(self) -> str:
        return f"translator cannot lint this library: {self.failure}"

    def _lint(self, paths: Iterable[str]) -> list[Finding]:
        from ..lint import lint as run_lint  # noqa: PLC0415

        assert self.library is not None and self.resources is not None
        assert self.options is not None
        options = replace(self.options, files=set(paths))
        return run_lint(self.library, self.resources, options).findings

    def _issues(self, linted: Linted, lines: Lines) -> list[Issue]:
        issues = [_problem_issue(p, lines) for p in linted.problems]
        if linted.file is not None and not linted.file.is_source:
            assert self.library is not None
            card = self.library.cards.get((linted.file.deck, linted.file.slug))
            if card is not None and card.source is None:
                issues.append(
                    Issue(0, lines.word_end(0), "error", _no_source(linted.file.slug), None)
                )
        return issues

    def _current(self, path: str, text: str) -> Linted:
        """The lint of ``text``, from the last call when the text is the same."""
        last = self._last.get(path)
        return last if last is not None and last.text == text else self.lint(path, text)

    # -- fixes

    def fixes(self, path: str, text: str, start: int = 0, end: int | None = None) -> list[Fix]:
        """A fix for each finding with a safe fix whose issue touches ``[start, end]``
        (the whole text by default), each checked to read back as intended; none on
        an English card (the reference the translations are checked against)."""
        from ..lint.fixes import fix_file  # noqa: PLC0415

        end = len(text) if end is None else end
        with self._lock:
            linted = self._current(path, text)
            file = linted.file
            if file is None or file.is_source:
                return []
            clean = readable(text)
            found = []
            for finding, issue in linted.pairs:
                if finding.edit is None or issue.end < start or issue.start > end:
                    continue
                done = fix_file(file, clean, [finding.edit])
                if done is None or done[0] == clean:
                    continue
                at, stop, replacement = text_change(clean, done[0])
                title = fix_title(finding.code, clean[at:stop], replacement)
                found.append(Fix(title, ((at, stop, replacement),), issue))
            return found

    def fix_all(self, path: str, text: str) -> Fix | None:
        """Every safe fix of the buffer, applied as ``translator lint --fix`` does:
        fix, lint again, until nothing fixable is left; None when nothing changes.
        The buffer's version stays in the library (nothing is written)."""
        from ..lint.fixes import fix_library  # noqa: PLC0415

        with self._lock:
            linted = self._current(path, text)
            file = linted.file
            if file is None or file.is_source or not any(f.edit for f in linted.findings):
                return None
            assert self.library is not None
            clean = readable(text)
            result = fix_library(
                self.library, lambda _: self._lint([path]), linted.findings, lambda _: clean
            )
            self.library.add(file)  # the buffer, not the fixed text, until it is applied
            new = result.contents.get(path, clean)
            if new == clean:
                return None
            count = result.applied
            title = f"Apply all safe fixes ({count} fix{'' if count == 1 else 'es'})"
            return Fix(title, text_changes(clean, new))

    # -- the card's other files

    def english(self, path: str) -> str | None:
        """The English card file of the card ``path`` is a version of."""
        with self._lock:
            card = self._card(path)
            return None if card is None or card.source is None else card.source.path

    def translations(self, path: str) -> list[str]:
        """The translations of the card whose English file is ``path`` (what its
        change may change the findings of)."""
        with self._lock:
            card = self._card(path)
            if card is None or card.source is None or card.source.path != path:
                return []
            return [version.path for version in card.translations.values()]

    def _card(self, path: str) -> Card | None:
        if not self.load():
            return None
        assert self.library is not None
        deck = self._deck(path)
        match = CARD_FILE_RE.match(Path(path).name)
        if deck is None or match is None:
            return None
        return self.library.cards.get((deck, match["slug"]))

    # -- hover, completion and the preview

    def assistant(self, lang: str) -> Assistant | None:
        """Hover and completion for ``lang`` (None while the library is not read, or
        without :mod:`.assist`)."""
        if self.resources is None:
            return None
        if lang not in self._assistants:
            try:
                from .assist import Assistant  # noqa: PLC0415
            except ImportError:
                return None
            self._assistants[lang] = Assistant(self.resources, lang)
        return self._assistants[lang]

    def cached_assistant(self, lang: str) -> Assistant | None:
        """The assistant of ``lang`` if it is made already (hover need not wait)."""
        return self._assistants.get(lang)

    def preview_folder(self, base: Path) -> Path:
        """Where this library's previews go under ``base``: a folder per library, so
        that two libraries' cards of one slug do not overwrite each other."""
        digest = hashlib.sha256(str(self.root).encode()).hexdigest()[:12]
        return base / digest

    def preview(self, path: str, text: str | None, base: Path) -> CardPreview:
        """The card rendered to PNG from the buffer's text, as ``translator build``
        lays it out (:func:`translator.api.preview_card`); without a buffer, from the
        file, read as the command line reads a card file (a regular file of at most
        :data:`~translator.limits.MAX_CARD_FILE_BYTES`: a FIFO or a device named like
        a card is refused, not waited on)."""
        from .. import api  # noqa: PLC0415

        if text is None:
            text = decode(read_file(path, MAX_CARD_FILE_BYTES, "card file"), path)
        refused = too_large(text)
        if refused is not None:
            raise UserError(f"{Path(path).name}: {refused}")
        out = self.preview_folder(base)
        return api.preview_card(path, text=readable(text), out=out, library=str(self.root))


def _remove(library: Library, deck: str, name: str) -> None:
    """Take the card version of the file ``name`` out of ``library`` (deleted)."""
    slug, lang = name.split(".")[:2]
    card = library.cards.get((deck, slug))
    if card is None:
        return
    if lang == SOURCE_LANGUAGE:
        card.source = None
    else:
        card.translations.pop(lang, None)
    if card.source is None and not card.translations:
        del library.cards[(deck, slug)]


def _card_problem(problem: Problem) -> bool:
    """A problem of a card file, which the file's buffer reports when it is opened."""
    return problem.path.endswith(".md")


def _problem(path: str, message: str) -> Problem:
    from ..problems import Problem  # noqa: PLC0415

    return Problem(
        path,
        1,
        message,
        "a new deck, or a broken deck.yaml: fix it, then run the command translator.reload",
    )


def _no_source(slug: str) -> str:
    return f"translation without a source card ({slug}.{SOURCE_LANGUAGE}.md is missing in its deck)"


def _problem_issue(problem: Problem, lines: Lines) -> Issue:
    """A file problem as an issue: its column when it has one, else its line."""
    start = lines.offset_of(problem.line, problem.column or 1)
    if problem.column:
        end = lines.word_end(start)
    else:
        end = lines.offset_of(problem.line + 1, 0)
        end = start if end <= start else end - 1
        while end > start and lines.text[end - 1] in "\r\n":
            end -= 1
    message = problem.message + (f" ({problem.hint})" if problem.hint else "")
    return Issue(start, max(end, start), "error", message)


def _more_issues(count: int, pairs: list[tuple[Finding, Issue]]) -> list[Issue]:
    """When findings were left out (:data:`MAX_FINDING_ISSUES`): one issue, on the
    last one shown, that counts them."""
    if count <= len(pairs) or not pairs:
        return []
    last = pairs[-1][1]
    return [
        Issue(
            last.start,
            last.end,
            "info",
            f"{count - len(pairs):,} more findings after this one, not shown "
            "(translator lint FILE lists them all)",
        )
    ]


def _finding_issue(finding: Finding, file: CardFile, lines: Lines) -> Issue:
    """A finding as an issue: from its position to the end of its fix's span when the
    fix starts there, else to the end of the word."""
    start = lines.offset_of(finding.line, finding.column)
    end = lines.word_end(start)
    edit = finding.edit
    if edit is not None:
        first = _edit_offset(file, edit.key, edit.start, lines)
        last = _edit_offset(file, edit.key, edit.end, lines)
        if first <= start <= max(last, first + 1):
            start, end = first, max(last, lines.word_end(first) if last == first else last)
    return Issue(
        start, end, finding.severity.value, finding.message, finding.code, edit is not None
    )


def _edit_offset(file: CardFile, key: str, offset: int, lines: Lines) -> int:
    """The offset in the file of character ``offset`` of a field's value."""
    from ..lint.context import file_locator  # noqa: PLC0415

    _, line, column = file_locator(file, key, offset)
    return lines.offset_of(line, column)


# --------------------------------------------------------------------------------------
# the sessions of a workspace


class Sessions:
    """The libraries of the editor's workspace, each read once when a file of it is
    first opened."""

    def __init__(self, folders: Sequence[Path] = ()) -> None:
        self.folders = []
        for folder in folders:
            try:
                self.folders.append(folder.resolve())
            except (OSError, ValueError):  # a client's folder that is no path (a NUL)
                continue
        self.by_root: dict[Path, Session] = {}
        self._lock = threading.Lock()

    def bounds(self, path: Path) -> list[Path]:
        """Where a library may reach up to: the workspace folders holding ``path``,
        and the project folder of its configuration file."""
        from ..config import find_config  # noqa: PLC0415

        found = [f for f in self.folders if path.is_relative_to(f)]
        config = find_config(path.parent)
        if config is not None and path.is_relative_to(config.parent):
            found.append(config.parent)
        return found

    def for_path(self, path: Path) -> Session | None:
        """The session of the library the card file ``path`` is in (None outside a
        deck)."""
        path = path.resolve()
        root = library_root(path, self.bounds(path))
        if root is None:
            return None
        with self._lock:
            session = self.by_root.get(root)
            if session is None:
                session = self.by_root[root] = Session(root)
            return session

    def default_roots(self) -> list[Path]:
        """The libraries worth reading before any file is opened: ``cards/`` in each
        workspace folder (the command line's default library), when it holds a deck."""
        return [
            folder / "cards"
            for folder in self.folders
            if (folder / "cards").is_dir() and any((folder / "cards").glob(f"*/{DECK_FILE}"))
        ]

    def session(self, root: Path) -> Session:
        with self._lock:
            return self.by_root.setdefault(root, Session(root))

    def reload(self, root: Path) -> Session:
        """A new session for the library at ``root`` (its configuration, a glossary or
        a deck changed), read on its next use, with the buffers of the old one."""
        with self._lock:
            old = self.by_root.get(root)
            fresh = self.by_root[root] = Session(root)
            if old is not None:
                fresh.buffers = dict(old.buffers)
            return fresh
