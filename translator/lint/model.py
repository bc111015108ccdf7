"""What the linter reports, and the card text as the rules read it.

A :class:`Finding` is one problem on one card version, located in its file (path,
line, column) and in the card (slug, guid, language, field).  A :class:`PlainText`
is a card text as printed, paragraph by paragraph, with each character traced back
to the card file, so that a rule can search printed words (a drop cap joined to its
word, markup gone) and still report the right column.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Severity
from ..glossary.matcher import words
from ..markup.ruletext import FLAVOR_QUOTES
from ..markup.tree import Document, DropCap, LineBreak, Paragraph, Symbol, Text

#: The card fields a finding can be on, as the JSON output names them.  ``name2``
#: (the second name line) is reported as ``name``; ``text`` is the card text (body).
FIELDS = ("name", "subtype", "text", "info")


@dataclass(frozen=True, slots=True)
class Edit:
    """A safe fix: replace characters ``[start, end)`` of a field's value.

    ``key`` is the file's key (``name``, ``name2``, ``subtype``, ``info``) or
    ``text`` for the card text, whose offsets are offsets in the file's body.
    """

    key: str
    start: int
    end: int
    replacement: str


@dataclass(frozen=True, slots=True)
class About:
    """What a finding that compares a translation with its English card is about, as
    data, for a reader that marks it in the two texts (the review sheet): what the
    English has that the translation lacks, and what the translation has that the
    English lacks, each as the rule names it (a term or an ability as the English
    writes it, a number's value, a symbol's code; for modifiers in another order, the
    two orders).  The sheet marks what the rule found, never a second reading of the
    message."""

    english: tuple[str, ...] = ()
    translation: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    severity: Severity
    message: str
    path: str
    line: int
    column: int
    card: str
    guid: str | None
    lang: str
    #: The file key the finding is on (``name2`` included); :attr:`field` folds it.
    key: str
    edit: Edit | None = None
    #: For the rules that compare the two texts (numbers, symbols, terms, abilities).
    about: About | None = None

    @property
    def field(self) -> str:
        """One of :data:`FIELDS`: keys about the whole card (``source``, ``lint-ignore``)
        are reported on the name."""
        return self.key if self.key in FIELDS else "name"

    @property
    def fix(self) -> str | None:
        return None if self.edit is None else self.edit.replacement

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "card": self.card,
            "guid": self.guid,
            "lang": self.lang,
            "field": self.field,
            "fix": self.fix,
        }

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.code)


#: What separates an ability's name from its reminder on one line (`***Nom -***`).
_HEAD_SEPARATORS = ("-", "\u2013", "\u2014", ":")


def _name(head: str) -> str:
    """An ability's name in its bold heading, without the dash after it."""
    return head.strip().rstrip("".join(_HEAD_SEPARATORS)).rstrip()


@dataclass(frozen=True, slots=True)
class AbilityLine:
    """A line of a paragraph that opens with an ability's name in bold, and where the
    ability's reminder is (offsets in :attr:`PlainParagraph.text`)."""

    #: Where the line, and the bold name opening it, start and end.
    start: int
    end: int
    #: The bold run(s), without the dash that may follow the name (`Vol` of `Vol -`).
    name: str
    #: ``[start, end)`` of the reminder (its italic run), None when the line has none.
    reminder: tuple[int, int] | None


@dataclass(slots=True)
class PlainParagraph:
    """One printed paragraph as plain text, traceable to the source."""

    index: int
    text: str
    paragraph: Paragraph
    #: (start in :attr:`text`, node) of each text run and drop cap.
    runs: list[tuple[int, Text | DropCap]] = field(default_factory=list)
    line_breaks: int = 0
    _tokens: list[tuple[str, int, int]] | None = None

    @property
    def tokens(self) -> list[tuple[str, int, int]]:
        """The paragraph's words, normalized (computed once: every rule reads them)."""
        if self._tokens is None:
            self._tokens = words(self.text)
        return self._tokens

    def source_offset(self, index: int) -> int:
        """Offset in the card text (the file's body) of character ``index``."""
        best: tuple[int, Text | DropCap] | None = None
        for start, node in self.runs:
            if start > index:
                break
            best = (start, node)
        if best is None:
            return self.paragraph.pos.offset
        start, node = best
        length = len(node.text) if isinstance(node, Text) else len(node.letter)
        delta = min(index - start, max(length - 1, 0))
        offset = node.pos.offset + (delta + 1 if isinstance(node, DropCap) else delta)
        return min(offset, max(node.pos.end - 1, node.pos.offset))

    def first_bold(self) -> str | None:
        """The paragraph's leading bold run (up to a line break): an ability line."""
        children = self.paragraph.children
        if not children or not isinstance(children[0], Text) or not children[0].bold:
            return None
        parts = []
        for node in children:
            if isinstance(node, Text) and node.bold:
                parts.append(node.text)
            else:
                break
        return "".join(parts).strip().rstrip("".join(_HEAD_SEPARATORS)).rstrip()

    def after_first_break(self) -> str:
        """The paragraph's text after its first line break (an ability's reminder)."""
        start = self.reminder_start()
        return "" if start is None else self.text[start:]

    def reminder_start(self) -> int | None:
        """Where an ability's reminder starts: after the first line break
        (``***Nom***\\`` then ``*rappel*``), or on the same line after the bold name
        and its dash (``***Nom -*** *rappel*``, the French guide's inline style)."""
        cut = self.text.find("\n")
        if cut >= 0:
            return cut + 1
        children = self.paragraph.children
        if not children or not isinstance(children[0], Text) or not children[0].bold:
            return None
        end = 0
        for start, node in self.runs:
            if not isinstance(node, Text) or not node.bold:
                break
            end = start + len(node.text)
        head = self.text[:end].rstrip()
        if not head.endswith(_HEAD_SEPARATORS) and not self.text[end:].lstrip().startswith(
            _HEAD_SEPARATORS
        ):
            return None  # a bold phrase opening a sentence, not a name and its reminder
        while end < len(self.text) and (
            self.text[end].isspace() or self.text[end] in _HEAD_SEPARATORS
        ):
            end += 1
        return end if end < len(self.text) else None

    def ability_lines(self, is_ability: Callable[[str], bool]) -> list[AbilityLine]:
        """The lines naming an ability, each with its reminder.

        A paragraph may define several abilities, a line each (`***Vol***\\`
        `*rappel*\\` `***Longue portée***\\` `*rappel*`, or `***Vol -*** *rappel*\\`
        `***Longue portée -*** *rappel*`): the first line when it opens with bold (as
        :meth:`first_bold`), and a later line whose opening bold run, alone on its line
        or followed by a dash, ``is_ability`` (a name of the abilities list: a reminder
        in bold on the line after its name is no second ability, nor is a bold word
        opening a sentence, `**Squelettes** gagnent +1/+1.`).  A reminder is its italic
        run: what follows it (`*Je vole.* Pioche une carte.`) is the card's own text.
        """
        text = self.text
        heads: list[tuple[int, int, int | None]] = []  # line start, name end, reminder
        start = 0
        while start <= len(text):
            stop = text.find("\n", start)
            stop = len(text) if stop < 0 else stop
            end = self._bold_head(start, stop)
            if end is not None and (start == 0 or is_ability(_name(text[start:end]))):
                rest = text[end:stop]
                head = text[start:end].rstrip()
                dash = head.endswith(_HEAD_SEPARATORS) or rest.lstrip().startswith(_HEAD_SEPARATORS)
                if not rest.strip():  # the reminder on the next line
                    heads.append((start, end, stop + 1 if stop < len(text) else None))
                elif dash:  # `***Nom -*** *rappel*`
                    at = end
                    while at < stop and (text[at].isspace() or text[at] in _HEAD_SEPARATORS):
                        at += 1
                    heads.append((start, end, at if at < stop else None))
                elif start == 0:
                    heads.append((start, end, None))  # a bold phrase opening a sentence
            start = stop + 1
        found = []
        for i, (start, end, reminder) in enumerate(heads):
            limit = heads[i + 1][0] - 1 if i + 1 < len(heads) else len(text)
            span = None
            if reminder is not None and reminder < limit:
                span = (reminder, self._reminder_end(reminder, limit))
            found.append(AbilityLine(start, end, _name(text[start:end]), span))
        return found

    def _bold_head(self, start: int, stop: int) -> int | None:
        """The end of the bold run(s) opening the line ``[start, stop)``, if it opens
        with bold (a later line may be indented by spaces)."""
        at, head = start, None
        for run_start, node in self.runs:
            if run_start < start:
                continue
            if run_start >= stop or run_start != at or not isinstance(node, Text):
                break
            if node.bold:
                head = at = run_start + len(node.text)
            elif head is None and start > 0 and not node.text.strip():
                at = run_start + len(node.text)
            else:
                break
        return head

    def _reminder_end(self, start: int, limit: int) -> int:
        """Where the reminder starting at ``start`` ends: with its last italic run,
        before plain words (bold ones are names inside it) or a later line opening
        with bold (a heading, if no ability's that the list knows); ``limit`` if it has
        no italics (then all of it is compared)."""
        end = None
        for run_start, node in self.runs:
            run = node.text if isinstance(node, Text) else node.letter
            if run_start + len(run) <= start:
                continue
            if run_start >= limit or (
                run_start > start
                and self.text[run_start - 1] == "\n"
                and isinstance(node, Text)
                and node.bold
            ):
                break
            if isinstance(node, Text) and node.italic:
                end = min(run_start + len(run), limit)
            elif not (isinstance(node, Text) and node.bold) and any(c.isalnum() for c in run):
                break
        return limit if end is None else end


@dataclass(slots=True)
class PlainText:
    """A card text as printed: rule paragraphs, then flavour paragraphs."""

    paragraphs: list[PlainParagraph]
    #: Index of the first flavour paragraph (``len(paragraphs)`` if none).
    flavor_start: int

    @property
    def rules(self) -> list[PlainParagraph]:
        return self.paragraphs[: self.flavor_start]

    @property
    def flavor(self) -> list[PlainParagraph]:
        return self.paragraphs[self.flavor_start :]


#: What a symbol is in plain text: one character that separates words and is no space
#: (so that no typographic rule takes it for one).
SYMBOL_MARK = "\ufffc"


def plain_text(document: Document, lang: str) -> PlainText:
    """The printed text of ``document``; a symbol is :data:`SYMBOL_MARK`."""
    opening = FLAVOR_QUOTES.get(lang, FLAVOR_QUOTES["en"])[0]
    paragraphs: list[PlainParagraph] = []
    flavor_start: int | None = None
    for paragraph in document.paragraphs:
        if paragraph.is_empty:
            continue
        plain = PlainParagraph(len(paragraphs), "", paragraph)
        parts: list[str] = []
        length = 0
        for node in paragraph.children:
            if isinstance(node, Text):
                plain.runs.append((length, node))
                parts.append(node.text)
                length += len(node.text)
            elif isinstance(node, DropCap):
                plain.runs.append((length, node))
                parts.append(node.letter)
                length += len(node.letter)
            elif isinstance(node, Symbol):
                parts.append(SYMBOL_MARK)
                length += 1
            elif isinstance(node, LineBreak):
                parts.append("\n")
                length += 1
                plain.line_breaks += 1
        plain.text = "".join(parts)
        first = paragraph.children[0]
        if (
            flavor_start is None
            and isinstance(first, Text)
            and first.italic
            and first.text.lstrip().startswith(opening)
        ):
            flavor_start = plain.index
        paragraphs.append(plain)
    return PlainText(paragraphs, len(paragraphs) if flavor_start is None else flavor_start)
