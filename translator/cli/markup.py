"""``translator markup``: card text converted (layout XML, markdown, rules, HTML),
formatted and checked, exactly as the Arcmage server reads it.

Every subcommand is a client of :mod:`translator.api` (its markup module imports no
stage until called: ``tests/cli/test_cli.py`` checks what ``markup xml`` imports)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from .. import languages
from . import output
from .common import (
    EXIT_FINDINGS,
    EXIT_OK,
    UsageError,
    add_format,
    api,
    command_group,
    command_help,
    diagnostics,
    explain,
    reports,
    split_codes,
)


def _sources(paths: Sequence[str]) -> list[str]:
    """The files and directories named (none: standard input, when it is piped); the
    API expands the directories and reads ``-`` when none is named."""
    if not paths and sys.stdin.isatty():
        raise UsageError(
            "no input: name card text files or directories, or pipe text in "
            "(FILE '-' reads standard input)"
        )
    return list(paths)


def cmd_xml(args: argparse.Namespace, out: TextIO) -> int:
    """``markup xml``: the layout XML of each file (one JSON object for several)."""
    results = api.markup_xml(_sources(args.files))
    if args.format == "json":
        output.dump_json(results, out)
    else:
        for path, xml in results.items():
            if len(results) > 1:
                out.write(f"==> {path} <==\n")
            out.write(xml + "\n")
    return EXIT_OK


def cmd_markdown(args: argparse.Namespace, out: TextIO) -> int:
    """``markup markdown``: layout XML back to card text."""
    out.write(api.markup_markdown(args.file, newline=args.newline))
    return EXIT_OK


def cmd_rules(args: argparse.Namespace, out: TextIO) -> int:
    """``markup rules``: the plain ruleText and flavorText."""
    output.dump_json(api.markup_rule_text(args.file, args.lang), out)
    return EXIT_OK


def cmd_html(args: argparse.Namespace, out: TextIO) -> int:
    """``markup html``: the card text as an HTML fragment."""
    out.write(api.markup_html(args.file) + "\n")
    return EXIT_OK


def cmd_format(args: argparse.Namespace, out: TextIO) -> int:
    """``markup format``: canonical card text, printed, written or only checked."""
    files = _sources(args.files)
    done = api.markup_format(files, write=args.write)
    if not args.write and not args.check:
        for source, formatted in done.files:
            out.write(source.with_body(formatted).content if source.front_matter else formatted)
    if args.check:
        for path in done.changed:
            out.write(f"would reformat {path}\n")
        return EXIT_FINDINGS if done.changed else EXIT_OK
    if args.write:
        print(
            f"{len(done.changed)} file(s) reformatted, {done.unchanged} unchanged",
            file=sys.stderr,
        )
    return EXIT_OK


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    """``markup check``: where Aminduna will read the text otherwise than meant."""
    if args.explain:
        return explain(args.explain, out)
    if args.list_rules:
        for rule in api.markup_rules():
            out.write(f"{rule.code}  {rule.severity.value:<7}  {rule.name}: {rule.summary}\n")
        return EXIT_OK
    # Former codes are read as their codes now, with a warning each (lint.md).
    select, warned = diagnostics.REGISTRY.redirected(split_codes(args.select))
    ignore, warned_ignore = diagnostics.REGISTRY.redirected(split_codes(args.ignore))
    for message in warned + warned_ignore:
        print(f"translator: warning: {message}", file=sys.stderr)
    rules = api.markup_rules(select, ignore)
    files = _sources(args.files)
    checked = api.markup_check(files, rules=rules, fix=args.fix)
    report: reports.MarkupReport = checked.files
    if args.format == "json":
        reports.write_markup_json(report, out, checked.fixed)
    else:
        reports.write_markup_text(report, out, checked.fixed)
    return EXIT_FINDINGS if checked.found else EXIT_OK


def register(commands: argparse._SubParsersAction) -> None:
    """``translator markup`` and its subcommands."""
    sub = command_group(
        commands,
        "markup",
        "card text: convert, format, check",
        "Read card text (Aminduna's markdown dialect) exactly as the Arcmage server does.",
        "translator markup check cards/sample/",
    )

    p = sub.add_parser(
        "xml",
        help="card text -> Aminduna layout XML",
        **command_help(
            "Print the layout XML Aminduna makes from card text (files, directories or -).",
            "translator markup xml cards/sample/flame-lash.en.md",
        ),
    )
    p.add_argument(
        "files", nargs="*", metavar="FILE", help="card text files or directories; - for stdin"
    )
    add_format(p)
    p.set_defaults(run=cmd_xml)

    p = sub.add_parser(
        "markdown",
        help="layout XML -> card text (the reference's reverse)",
        **command_help(
            "Convert layout XML back to card text as Aminduna does (CRLF line "
            "ends, drop caps cut to one capital letter).",
            "translator markup xml card.md | translator markup markdown -",
        ),
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE")
    p.add_argument(
        "--newline",
        choices=("crlf", "lf"),
        default="crlf",
        help="line ends: the reference's CRLF (default) or LF",
    )
    p.set_defaults(run=cmd_markdown)

    p = sub.add_parser(
        "rules",
        help="ruleText and flavorText as JSON",
        **command_help(
            "Print the plain ruleText and flavorText Aminduna derives from card text.",
            "translator markup rules --lang fr cards/sample/harbor-lord.fr.md",
        ),
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE")
    p.add_argument("--lang", choices=languages.codes(), default="en")
    p.set_defaults(run=cmd_rules)

    p = sub.add_parser(
        "html",
        help="card text -> HTML fragment (escaped)",
        **command_help(
            "Print the card text as an HTML fragment for the print templates.",
            "translator markup html cards/sample/flame-lash.en.md",
        ),
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE")
    p.set_defaults(run=cmd_html)

    p = sub.add_parser(
        "format",
        help="canonical spelling of card text, same layout",
        **command_help(
            "Rewrite card text canonically (** and *, \\ line breaks, one line per paragraph); "
            "the layout never changes.",
            "translator markup format --write cards/sample/",
        ),
    )
    p.add_argument("files", nargs="*", metavar="FILE")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite the files in place")
    mode.add_argument(
        "--check", action="store_true", help="only list files that would change (exit 1 if any)"
    )
    p.set_defaults(run=cmd_format)

    p = sub.add_parser(
        "check",
        help="diagnostics: where Aminduna will surprise you",
        **command_help(
            "Report what Aminduna will read differently from what the author meant: stray "
            "colons, unknown codes, dropped markdown, vanishing spaces, ...",
            "translator markup check --select MK1,MK2 cards/sample/",
        ),
    )
    p.add_argument("files", nargs="*", metavar="FILE")
    add_format(p)
    p.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="only these rules (codes or prefixes, comma-separated)",
    )
    p.add_argument("--ignore", action="append", metavar="CODES", help="skip these rules")
    p.add_argument("--fix", action="store_true", help="apply the safe fixes in place")
    p.add_argument("--explain", metavar="CODE", help="print a rule's documentation")
    p.add_argument("--list-rules", action="store_true", help="list the rules")
    p.set_defaults(run=cmd_check)
