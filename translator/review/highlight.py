"""Card text as HTML with what a proofreader compares marked: numbers, symbols, terms.

A reviewer reads the English and the translated text side by side.  What must agree
between them is marked in both, in the printed text (the document tree, so exactly
what Aminduna prints):

- numbers (stat modifiers, digits, number words, X): ``num``;
- symbols, drawn as on the card: ``sym``;
- glossary terms and ability names: ``term``, with ``data-term`` naming the glossary
  entry on both sides (the page links the two); a term of the translation that the
  English text does not have is ``term extra``.

Whether two texts *differ* is the linter's word, never the sheet's: a mark is a
difference (``num diff``, ``sym diff``, ``term diff``) only where a finding of the
card's lint report says so, and it carries that finding (``data-rule``, ``data-line``,
the message as its title).  The sheet only reads where things are, with the linter's
own readers (:func:`translator.lint.numbers.read_numbers`, the glossary matchers of
the lint context); which numbers, symbols and terms are missing, deprecated or out
of order is decided once, by the rules of :data:`DIFF_RULES`, with the project's
configuration, the card's ``lint-ignore`` and the abilities lists' authority over
their own reminders.  So the sheet can never mark what ``translator lint`` accepts,
nor leave unmarked a difference it reports.

Every piece of card text is escaped (:func:`markupsafe.escape`); the result is
:class:`markupsafe.Markup`, safe to put in a template as is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from markupsafe import Markup, escape

from ..cards.model import CardFile
from ..glossary.matcher import Match, normalize
from ..lint.context import Subject
from ..lint.model import Finding, PlainParagraph, PlainText
from ..lint.numbers import NO_PHRASES, Number, Phrases, read_numbers
from ..markup.html import styled
from ..markup.tree import DropCap, LineBreak, Symbol, Text


@dataclass(frozen=True, slots=True)
class Mark:
    """A span of a paragraph's plain text to wrap: ``[start, end)``, its classes, its
    ``data-term`` (for glossary terms), and the lint finding that makes it a
    difference (``diff``), shown as its title."""

    start: int
    end: int
    classes: str
    term: str | None = None
    title: str | None = None
    finding: Finding | None = None


def _attributes(mark: Mark, with_classes: bool = True) -> str:
    """A mark's HTML attributes: classes, term, and its finding's code, line and
    message (``data-rule``, ``data-line``, ``title``)."""
    attributes = f' class="{mark.classes}"' if with_classes else ""
    if mark.term is not None:
        attributes += f' data-term="{escape(mark.term)}"'
    title = mark.title
    if mark.finding is not None:
        finding = mark.finding
        attributes += f' data-rule="{escape(finding.code)}" data-line="{finding.line}"'
        title = f"{finding.code}: {finding.message}"
    if title is not None:
        attributes += f' title="{escape(title)}"'
    return attributes


# --------------------------------------------------------------------------------------
# Reading: where the numbers, symbols and terms are


def marked_numbers(
    here: PlainParagraph,
    words: dict[str, str],
    counterpart: Counter[str] | None,
    phrases: Phrases = NO_PHRASES,
) -> list[Number]:
    """The numbers of ``here`` as the linter reads them (``phrases``: the English
    text's multi-word number words and idioms), but for the number words whose value
    ``counterpart`` (the other text's values, taken one by one) lacks: *un*, *une*
    are also articles, which the linter does not count either, and marking every one
    would bury the numbers that matter."""
    found = read_numbers(here.text, words, here.tokens, phrases)
    if counterpart is None:
        return found
    left = counterpart.copy()
    kept = []
    for number in found:
        if left[number.value] > 0:
            left[number.value] -= 1
        elif number.role == "word":
            continue
        kept.append(number)
    return kept


def _symbols(paragraph: PlainParagraph) -> Iterator[tuple[int, Symbol]]:
    """(plain offset, node) of each symbol of a paragraph (one character each)."""
    offset = 0
    for node in paragraph.paragraph.children:
        if isinstance(node, Symbol):
            yield offset, node
            offset += 1
        elif isinstance(node, Text):
            offset += len(node.text)
        elif isinstance(node, DropCap):
            offset += len(node.letter)
        elif isinstance(node, LineBreak):
            offset += 1


@dataclass(slots=True)
class _Item:
    """A number, symbol or term the sheet marks in one text, and the finding that
    makes it a difference, if one does."""

    paragraph: int
    start: int
    end: int
    #: ``num``, ``sym`` or ``term``.
    kind: str
    #: A number's value, a symbol's code, a term's glossary key (``data-term``).
    value: str
    #: A number's role (``stat``, ``number``, ``word``); a term's hit kind
    #: (``english``, ``term``, ``ability``).
    role: str = ""
    #: A term's glossary term (an ability's English name on the English side) and
    #: status (``deprecated``...); the text it is printed as.
    term: str = ""
    status: str = ""
    text: str = ""
    #: Where it starts in the file's body (a finding's position points at it).
    at: int = -1
    finding: Finding | None = None


def _term_key(kind: str, identifier: str) -> str:
    return f"{'ability' if kind == 'ability' else 'term'}:{identifier}"


def _read(
    plain: PlainText,
    matches: Iterable[tuple[int, Match]],
    numbers: Callable[[PlainParagraph], list[Number]],
) -> list[_Item]:
    """The numbers, symbols and glossary terms of one text, in reading order."""
    items: list[_Item] = []
    for paragraph in plain.paragraphs:
        for number in numbers(paragraph):
            items.append(
                _Item(
                    paragraph.index,
                    number.start,
                    number.end,
                    "num",
                    number.value,
                    number.role,
                    at=paragraph.source_offset(number.start),
                )
            )
        for offset, node in _symbols(paragraph):
            items.append(
                _Item(paragraph.index, offset, offset + 1, "sym", node.code, at=node.pos.offset)
            )
    for index, match in matches:
        paragraph = plain.paragraphs[index]
        hit = match.hit
        items.append(
            _Item(
                index,
                match.start,
                match.end,
                "term",
                _term_key(hit.kind, hit.id),
                hit.kind,
                hit.term,
                hit.status,
                match.text,
                paragraph.source_offset(match.start),
            )
        )
    items.sort(key=lambda i: (i.paragraph, i.start))
    return items


# --------------------------------------------------------------------------------------
# The linter's differences: which of them its findings are about
#
# A finding says where it is (its line and column: a paragraph, or the very number,
# term or symbol) and, in its message, what: the rules report a missing English term
# or number on the translated paragraph, naming it.  Both are read here, the decision
# never remade; tests/review/test_review_sheet_agrees.py fails if a message changes shape.


@dataclass
class _Scope:
    """What one finding may be about: the items of both texts, in its paragraph when
    the texts' paragraphs pair up (in the whole texts otherwise, as the rules compare
    them then), and where in the translation's body it points."""

    english: list[_Item]
    target: list[_Item]
    offset: int


def _body_offset(file: CardFile, finding: Finding) -> int | None:
    """The offset in the file's body of a finding on the card text (its line and
    column, as :func:`translator.lint.context.file_locator` made them)."""
    row = finding.line - file.body_line
    if finding.key != "text" or row < 0:
        return None
    start = 0
    for _ in range(row):
        start = file.body.find("\n", start) + 1
        if start == 0:
            return None
    return start + finding.column - 1


def _paragraph_at(plain: PlainText, offset: int) -> int | None:
    """The printed paragraph holding body offset ``offset``: the last one starting at
    or before it."""
    found = None
    for paragraph in plain.paragraphs:
        if paragraph.paragraph.pos.offset > offset:
            break
        found = paragraph.index
    return found


def _from_end(items: list[_Item], values: Iterable[str]) -> list[_Item]:
    """As many items of each value as ``values`` holds, the last ones (the first
    ones pair with the other text's)."""
    wanted = Counter(values)
    chosen = []
    for item in reversed(items):
        if wanted[item.value] > 0:
            wanted[item.value] -= 1
            chosen.append(item)
    return chosen


def _from_start(items: list[_Item], values: Iterable[str]) -> list[_Item]:
    """As many items of each value as ``values`` holds, the first ones (the linter
    reports the first ones as extra)."""
    return _from_end(items[::-1], values)


def _english(finding: Finding) -> tuple[str, ...]:
    """What the English has that the translation lacks, as the rule found it."""
    return () if finding.about is None else finding.about.english


def _translation(finding: Finding) -> tuple[str, ...]:
    """What the translation has that the English lacks, as the rule found it."""
    return () if finding.about is None else finding.about.translation


def _terms_missing(finding: Finding, scope: _Scope) -> list[_Item]:
    """GL101 to GL103: the English term the rule found unrendered."""
    wanted = {normalize(text) for text in _english(finding)}
    return [
        i
        for i in scope.english
        if i.kind == "term" and i.role == "english" and normalize(i.text) in wanted
    ]


def _ability_missing(finding: Finding, scope: _Scope) -> list[_Item]:
    """TR403: the English ability the rule found unnamed (with its parameters: the
    longest ability name it starts with)."""
    if not _english(finding):
        return []
    named = normalize(_english(finding)[0])
    abilities = [i for i in scope.english if i.kind == "term" and i.role == "ability"]
    fits = [i for i in abilities if f"{named} ".startswith(f"{normalize(i.term)} ")]
    longest = max((len(i.term) for i in fits), default=0)
    return [i for i in fits if len(i.term) == longest]


def _deprecated(finding: Finding, scope: _Scope) -> list[_Item]:
    """GL201, GL202: the translation's term where the finding points."""
    role = "ability" if finding.code == "GL202" else "term"
    return [
        i
        for i in scope.target
        if i.kind == "term" and i.role == role and i.status == "deprecated" and i.at == scope.offset
    ]


def _stats(items: list[_Item]) -> list[_Item]:
    return [i for i in items if i.kind == "num" and i.role == "stat"]


def _stats_differ(finding: Finding, scope: _Scope) -> list[_Item]:
    """TR101: the English modifiers missing, the translation's in their place."""
    return _from_end(_stats(scope.english), _english(finding)) + _from_start(
        _stats(scope.target), _translation(finding)
    )


def _stats_order(finding: Finding, scope: _Scope) -> list[_Item]:
    """TR102: every modifier of both texts (their order is the difference)."""
    return _stats(scope.english) + _stats(scope.target)


def _numbers_missing(finding: Finding, scope: _Scope) -> list[_Item]:
    """TR103: the English numbers of the values the rule found missing."""
    numbers = [i for i in scope.english if i.kind == "num" and i.role != "stat"]
    return _from_end(numbers, _english(finding))


def _number_extra(finding: Finding, scope: _Scope) -> list[_Item]:
    """TR104: the translation's digits where the finding points (of the value the
    rule found, when it points at the whole text)."""
    values = _translation(finding)
    digits = [
        i for i in scope.target if i.kind == "num" and i.role == "number" and i.value in values
    ]
    return [i for i in digits if i.at == scope.offset] or _from_start(digits, values)


def _symbols_differ(finding: Finding, scope: _Scope) -> list[_Item]:
    """TR201: the English symbols missing, the translation's not in the English."""
    english = [i for i in scope.english if i.kind == "sym"]
    target = [i for i in scope.target if i.kind == "sym"]
    return _from_end(english, _english(finding)) + _from_start(target, _translation(finding))


def _symbols_order(finding: Finding, scope: _Scope) -> list[_Item]:
    """TR202: the first symbol out of order (where the finding points), and the
    English one in its place."""
    english = [i for i in scope.english if i.kind == "sym"]
    target = [i for i in scope.target if i.kind == "sym"]
    for position, item in enumerate(target):
        if item.at == scope.offset:
            return [item, *english[position : position + 1]]
    return []


#: What each rule's finding is about, and whether it is about the whole texts (the
#: symbol rules compare them whole) or about its paragraph.
_ABOUT: dict[str, tuple[Callable[[Finding, _Scope], list[_Item]], bool]] = {
    "GL101": (_terms_missing, False),
    "GL102": (_terms_missing, False),
    "GL103": (_terms_missing, False),
    "TR403": (_ability_missing, False),
    "GL201": (_deprecated, False),
    "GL202": (_deprecated, False),
    "TR101": (_stats_differ, False),
    "TR102": (_stats_order, False),
    "TR103": (_numbers_missing, False),
    "TR104": (_number_extra, False),
    "TR201": (_symbols_differ, True),
    "TR202": (_symbols_order, True),
}

#: The lint rules whose findings are differences marked in the texts: numbers (TR1),
#: symbols (TR201, TR202), ability names (TR403), glossary terms missing (GL101 to
#: GL103) or deprecated (GL201, GL202).  Their other findings (style, spelling, a
#: missing phrase) are in the card's list of findings, not in its texts.
DIFF_RULES = frozenset(_ABOUT)


def _mark_differences(
    subject: Subject, findings: Iterable[Finding], english: list[_Item], target: list[_Item]
) -> None:
    """Give each item that a finding of :data:`DIFF_RULES` is about that finding (the
    first one, when several are)."""
    assert subject.source is not None
    aligned = len(subject.plain.paragraphs) == len(subject.source.plain.paragraphs)
    for finding in findings:
        about = _ABOUT.get(finding.code)
        if about is None or finding.lang != subject.lang or finding.path != subject.file.path:
            continue
        offset = _body_offset(subject.file, finding)
        if offset is None:
            continue
        rule, whole = about
        where = None if whole or not aligned else _paragraph_at(subject.plain, offset)
        scope = _Scope(
            [i for i in english if where is None or i.paragraph == where],
            [i for i in target if where is None or i.paragraph == where],
            offset,
        )
        for item in rule(finding, scope):
            if item.finding is None:
                item.finding = finding


def text_marks(
    subject: Subject, findings: Iterable[Finding]
) -> tuple[dict[int, list[Mark]], dict[int, list[Mark]]]:
    """The marks of a translation's English and translated texts, by paragraph: every
    number, symbol, glossary term and ability name, a difference (``diff``) where one
    of ``findings`` (the card's lint findings) is about it, and only there."""
    assert subject.source is not None
    english_plain, target_plain = subject.source.plain, subject.plain
    english_words = subject.resources.english.numbers
    phrases = subject.resources.english.phrases
    english = _read(
        english_plain,
        subject.source.english_matches(subject.language),
        lambda p: read_numbers(p.text, english_words, p.tokens, phrases),
    )
    values = [Counter[str]() for _ in english_plain.paragraphs]
    for item in english:
        if item.kind == "num":
            values[item.paragraph][item.value] += 1
    aligned = len(english_plain.paragraphs) == len(target_plain.paragraphs)
    whole = sum(values, Counter[str]())
    target = _read(
        target_plain,
        subject.matches,
        lambda p: marked_numbers(
            p, subject.language.numbers, values[p.index] if aligned else whole
        ),
    )
    _mark_differences(subject, findings, english, target)
    english_terms = {item.value for item in english if item.kind == "term"}
    return _marks(english, english_terms, False), _marks(target, english_terms, True)


def _marks(items: list[_Item], english_terms: set[str], translated: bool) -> dict[int, list[Mark]]:
    """The items of one text as marks, by paragraph."""
    marks: dict[int, list[Mark]] = {}
    for item in items:
        classes, title = item.kind, None
        if item.finding is not None:
            classes += " diff"
        elif item.kind == "term" and translated and item.value not in english_terms:
            classes, title = "term extra", "not in the English text"
        term = item.value if item.kind == "term" else None
        marks.setdefault(item.paragraph, []).append(
            Mark(item.start, item.end, classes, term, title, item.finding)
        )
    return marks


# --------------------------------------------------------------------------------------
# HTML


def paragraph_html(
    paragraph: PlainParagraph,
    marks: Iterable[Mark],
    symbol: Callable[[str, str], str],
) -> Markup:
    """One printed paragraph, its marks wrapped in ``<span>`` elements (a drop cap
    with the rest of its word's); a symbol is drawn with its mark's classes (a symbol
    a finding is about, in a ``<span>`` carrying the finding)."""
    # Of marks on the same span (a word naming two glossary concepts), a difference
    # first: the one shown.
    ordered = sorted(marks, key=lambda m: (m.start, -m.end, m.finding is None))
    symbols: dict[int, Mark] = {}
    for each in ordered:
        if each.classes.split()[0] == "sym":
            symbols.setdefault(each.start, each)
    texts = [m for m in ordered if m.classes.split()[0] != "sym"]
    parts: list[str] = []
    offset = 0
    for node in paragraph.paragraph.children:
        if isinstance(node, Text):
            parts.append(styled(node, _marked(node.text, offset, texts)))
            offset += len(node.text)
        elif isinstance(node, DropCap):
            letter = f'<span class="dropcap">{escape(node.letter)}</span>'
            # A drop cap is the first letter of a word: marked with it (*O*nce).
            mark = next((m for m in texts if m.start <= offset < m.end), None)
            parts.append(letter if mark is None else f"<span{_attributes(mark)}>{letter}</span>")
            offset += len(node.letter)
        elif isinstance(node, Symbol):
            mark = symbols.get(offset)
            drawing = symbol(node.code, "sym" if mark is None else mark.classes)
            if mark is not None and mark.finding is not None:
                drawing = f"<span{_attributes(mark, with_classes=False)}>{drawing}</span>"
            parts.append(drawing)
            offset += 1
        elif isinstance(node, LineBreak):
            parts.append("<br>")
            offset += 1
    return Markup(f"<p>{''.join(parts)}</p>")


def _marked(text: str, offset: int, marks: list[Mark]) -> str:
    """``text`` (which starts at plain offset ``offset``) escaped, with the parts of
    ``marks`` that fall in it wrapped (a mark across two runs is wrapped in each)."""
    end = offset + len(text)
    out: list[str] = []
    position = offset
    for mark in marks:
        start, stop = max(mark.start, offset), min(mark.end, end)
        if stop <= start or start < position:
            continue
        out.append(str(escape(text[position - offset : start - offset])))
        out.append(
            f"<span{_attributes(mark)}>{escape(text[start - offset : stop - offset])}</span>"
        )
        position = stop
    out.append(str(escape(text[position - offset :])))
    return "".join(out)


def text_html(
    plain: PlainText,
    marks: dict[int, list[Mark]],
    symbol: Callable[[str, str], str],
) -> Markup:
    """Every printed paragraph of a text, with its marks (:func:`text_marks`)."""
    return Markup("\n").join(
        paragraph_html(paragraph, marks.get(paragraph.index, []), symbol)
        for paragraph in plain.paragraphs
    )
