"""``translator markup format`` and ``markup check``: card text written canonically,
and checked for what Aminduna will read otherwise than meant (:mod:`translator.markup`).

``translator markup xml``, ``markdown``, ``rules`` and ``html``: card text converted
as the Arcmage server converts it (:func:`markup_xml`, :func:`markup_markdown`,
:func:`markup_rule_text`, :func:`markup_html`).  This module imports no stage until
it is called: a conversion starts without the linter or YAML (issue 20's start-up
targets, checked by ``tests/cli/test_cli.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    from ..diagnostics import Diagnostic, Rule
    from ..markup import ParseResult
    from ..textio import SourceFile

__all__ = [
    "MarkupCheck",
    "MarkupFormat",
    "markup_check",
    "markup_format",
    "markup_html",
    "markup_markdown",
    "markup_rule_text",
    "markup_rules",
    "markup_xml",
]


def _files(paths: Sequence[str]) -> list[str]:
    """The files named, directories expanded (``-``: standard input)."""
    from ..textio import expand_paths  # noqa: PLC0415

    return expand_paths(list(paths) or ["-"])


def _parse(source: SourceFile) -> ParseResult:
    from ..markup import parse  # noqa: PLC0415

    return parse(source.body, source.body_line)


def _convertible(path: str) -> tuple[SourceFile, ParseResult]:
    """A card text read and parsed, which the Arcmage converter can convert.

    Converting a text the reference fails on would hand out a result the server
    never produces: it is an input error, located, with a pointer to ``check``."""
    from ..textio import InputError, read_source  # noqa: PLC0415

    source = read_source(path)
    result = _parse(source)
    if result.crashes:
        crash = result.crashes[0]
        line, column = result.pre.source_map.line_col(crash.offset)
        raise InputError(
            source.path,
            f"the Arcmage converter fails on this text ({crash.reason}); run "
            "'translator markup check' for details",
            line,
            column,
        )
    return source, result


def markup_xml(paths: Sequence[str] = ()) -> dict[str, str]:
    """The layout XML Aminduna makes of each card text of ``paths`` (files,
    directories, ``-``: standard input), by the path as read: ``translator markup
    xml``.  A text the reference converter fails on is an :class:`InputError`.

    >>> markup_xml(["cards/sample/courier.en.md"])["cards/sample/courier.en.md"][:26]
    '<layout><p><bi>Flying</bi>'
    """
    from ..markup import to_xml  # noqa: PLC0415

    converted: dict[str, str] = {}
    for path in _files(paths):
        source, result = _convertible(path)
        converted[source.path] = to_xml(result.document)
    return converted


def markup_markdown(path: str = "-", *, newline: str = "crlf") -> str:
    """Layout XML (the file ``path``, ``-``: standard input) converted back to card
    text as Aminduna does, with its CRLF line ends (``newline="lf"``: LF, and a final
    line end): ``translator markup markdown``.  XML that is not Aminduna's layout is
    an :class:`InputError` on its line and column."""
    from ..markup import LayoutXmlError, to_markdown  # noqa: PLC0415
    from ..textio import InputError, decode, read_file  # noqa: PLC0415

    display = "<stdin>" if path == "-" else path
    xml = decode(read_file(path), display)
    try:
        text = to_markdown(xml)
    except LayoutXmlError as error:
        raise InputError(display, str(error), error.line, error.column) from None
    if newline == "lf":
        text = text.replace("\r\n", "\n")
        if text:
            text += "\n"
    return text


def markup_rule_text(path: str, lang: str = "en") -> dict[str, str]:
    """The plain ``ruleText`` and ``flavorText`` Aminduna stores for the card text of
    ``path`` in language ``lang``: ``translator markup rules``."""
    from ..markup import rule_and_flavor  # noqa: PLC0415

    _, result = _convertible(path)
    return rule_and_flavor(result.document, lang)


def markup_html(path: str) -> str:
    """The card text of ``path`` as the HTML fragment Aminduna shows:
    ``translator markup html``."""
    from ..markup import to_html  # noqa: PLC0415

    _, result = _convertible(path)
    return to_html(result.document)


@dataclass
class MarkupFormat:
    """Card text written canonically (``markup format``): each file's source and its
    formatted content, the files that change, and whether they were written."""

    #: (the file as read, its content formatted) for each file, in order.
    files: list[tuple[SourceFile, str]]
    changed: list[str]
    written: bool

    @property
    def unchanged(self) -> int:
        return len(self.files) - len(self.changed)


def markup_format(paths: Sequence[str] = (), *, write: bool = False) -> MarkupFormat:
    """The card text of ``paths`` (files, directories, ``-``: standard input) in its
    canonical spelling (``**`` and ``*``, ``\\`` line breaks, one line per
    paragraph), the layout never changed; ``write`` rewrites the files that change:
    ``translator markup format``.

    >>> done = markup_format(["cards/sample/veil-stalker.fr.md"])
    >>> done.changed
    []
    """
    from ..markup import format_text  # noqa: PLC0415
    from ..textio import atomic_write, read_source  # noqa: PLC0415

    files = _files(paths)
    if write and "-" in files:
        raise UsageError("--write needs files, not standard input")
    done: list[tuple[SourceFile, str]] = []
    changed: list[str] = []
    for path in files:
        source = read_source(path)
        formatted = format_text(source.body)
        if formatted != source.body:
            changed.append(source.path)
            if write:
                atomic_write(path, source.with_body(formatted).content, within=Path(path).parent)
        done.append((source, formatted))
    return MarkupFormat(done, changed, write)


def markup_rules(select: Sequence[str] = (), ignore: Sequence[str] = ()) -> list[Rule]:
    """The markup rules (MK) ``select`` and ``ignore`` (codes or prefixes) leave; all
    of them when both are empty.  An unknown code is a :class:`UsageError`."""
    from ..diagnostics import REGISTRY  # noqa: PLC0415
    from ..markup.checks import TARGET  # noqa: PLC0415 - the parser: only to check

    chosen = [c.upper() for c in select]
    skipped = [c.upper() for c in ignore]
    unknown = REGISTRY.unknown_prefixes(chosen + skipped)
    if unknown:
        raise UsageError(
            f"no rule matches {', '.join(unknown)} (see 'translator markup check --list-rules')"
        )
    return REGISTRY.select(chosen or None, skipped or None, TARGET)


@dataclass
class MarkupCheck:
    """What ``markup check`` found: each file with its findings (after the fixes,
    when ``fix``), and how many fixes were applied."""

    files: list[tuple[SourceFile, list[Diagnostic]]]
    fixed: int = 0
    rules: list[Rule] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return any(findings for _, findings in self.files)


def markup_check(
    paths: Sequence[str] = (),
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    fix: bool = False,
    rules: list[Rule] | None = None,
) -> MarkupCheck:
    """Where Aminduna will read the card text of ``paths`` otherwise than its author
    meant (stray colons, unknown codes, dropped markdown...): ``translator markup
    check``.  ``fix`` applies the safe fixes of what was found (one pass) and checks
    again.  ``rules``: the rules to run, as :func:`markup_rules` chose them (instead
    of ``select`` and ``ignore``).

    >>> checked = markup_check(["cards/sample/veil-stalker.fr.md"])
    >>> checked.found, checked.fixed
    (False, 0)
    """
    from ..diagnostics import apply_fixes  # noqa: PLC0415
    from ..markup import check  # noqa: PLC0415
    from ..textio import atomic_write, read_source  # noqa: PLC0415

    rules = markup_rules(select, ignore) if rules is None else rules
    files = _files(paths)
    if fix and "-" in files:
        raise UsageError("--fix needs files, not standard input")
    report: list[tuple[SourceFile, list[Diagnostic]]] = []
    fixed_total = 0
    for path in files:
        source = read_source(path)
        findings: list[Diagnostic] = check(_parse(source), rules)
        if fix:
            # Only the fixes of what was found are applied (one pass: no fix of a
            # finding the user has not seen); what remains is reported.
            body, fixed = apply_fixes(source.body, findings)
            if fixed:
                atomic_write(path, source.with_body(body).content, within=Path(path).parent)
                fixed_total += fixed
                source = source.with_body(body)
                findings = check(_parse(source), rules)
        report.append((source, findings))
    return MarkupCheck(report, fixed_total, rules)
