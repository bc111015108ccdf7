"""The ``translator`` command line: a thin client of the library.

Exit codes, for every command: 0 everything fine, 1 findings (or files that need
formatting), 2 usage or input error (unreadable file, bad UTF-8, malformed XML, a card
text the Arcmage converter cannot convert).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from . import __version__, markup
from .diagnostics import REGISTRY, Diagnostic, Severity, apply_fixes
from .markup.checks import TARGET as MARKUP
from .textio import (
    InputError,
    SourceFile,
    atomic_write,
    decode,
    expand_paths,
    read_bytes,
    read_source,
)

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    """Wrong arguments: reported on stderr, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        raise UsageError(message)


def _help(text: str, example: str) -> dict[str, str]:
    return {"description": text, "epilog": f"example:\n  {example}",
            "formatter_class": argparse.RawDescriptionHelpFormatter}


def _use_color(stream: TextIO) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


_COLORS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}


# --------------------------------------------------------------------------------------
# markup commands


def _sources(paths: Sequence[str]) -> list[str]:
    if not paths and sys.stdin.isatty():
        raise UsageError("no input: name card text files or directories, or pipe text in "
                         "(FILE '-' reads standard input)")
    return expand_paths(list(paths) or ["-"])


def _body_result(source: SourceFile) -> markup.ParseResult:
    return markup.parse(source.body, source.body_line)


def _convertible(path: str) -> tuple[SourceFile, markup.ParseResult]:
    """Read and parse a card text that the Arcmage converter can convert.

    Converting a text the reference fails on would hand out a result the server
    never produces: it is an input error, located, with a pointer to ``check``.
    """
    source = read_source(path)
    result = _body_result(source)
    if result.crashes:
        crash = result.crashes[0]
        line, column = result.pre.source_map.line_col(crash.offset)
        raise InputError(source.path, f"the Arcmage converter fails on this text "
                                      f"({crash.reason}); run 'translator markup check' "
                                      "for details", line, column)
    return source, result


def cmd_xml(args: argparse.Namespace, out: TextIO) -> int:
    files = _sources(args.files)
    results: dict[str, str] = {}
    for path in files:
        source, result = _convertible(path)
        results[source.path] = markup.to_xml(result.document)
    if args.format == "json":
        json.dump(results, out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        for path, xml in results.items():
            if len(results) > 1:
                out.write(f"==> {path} <==\n")
            out.write(xml + "\n")
    return EXIT_OK


def cmd_markdown(args: argparse.Namespace, out: TextIO) -> int:
    path = args.file
    display = "<stdin>" if path == "-" else path
    xml = decode(read_bytes(path), display)
    try:
        text = markup.to_markdown(xml)
    except markup.LayoutXmlError as error:
        raise InputError(display, str(error), error.line, error.column) from None
    if args.newline == "lf":
        text = text.replace("\r\n", "\n")
    out.write(text)
    if args.newline == "lf" and text:
        out.write("\n")
    return EXIT_OK


def cmd_rules(args: argparse.Namespace, out: TextIO) -> int:
    _, result = _convertible(args.file)
    json.dump(markup.rule_and_flavor(result.document, args.lang), out, ensure_ascii=False,
              indent=2)
    out.write("\n")
    return EXIT_OK


def cmd_html(args: argparse.Namespace, out: TextIO) -> int:
    _, result = _convertible(args.file)
    out.write(markup.to_html(result.document) + "\n")
    return EXIT_OK


def cmd_format(args: argparse.Namespace, out: TextIO) -> int:
    files = _sources(args.files)
    if args.write and "-" in files:
        raise UsageError("--write needs files, not standard input")
    changed: list[str] = []
    for path in files:
        source = read_source(path)
        formatted = markup.format_text(source.body)
        if formatted != source.body:
            changed.append(source.path)
        if args.write:
            if formatted != source.body:
                atomic_write(path, source.with_body(formatted).content)
        elif not args.check:
            out.write(source.with_body(formatted).content if source.front_matter else formatted)
    if args.check:
        for path in changed:
            out.write(f"would reformat {path}\n")
        return EXIT_FINDINGS if changed else EXIT_OK
    if args.write:
        print(f"{len(changed)} file(s) reformatted, {len(files) - len(changed)} unchanged",
              file=sys.stderr)
    return EXIT_OK


def _selected_rules(args: argparse.Namespace) -> list:
    select = _split_codes(args.select)
    ignore = _split_codes(args.ignore)
    unknown = REGISTRY.unknown_prefixes(select + ignore)
    if unknown:
        raise UsageError(f"no rule matches {', '.join(unknown)} "
                         "(see 'translator markup check --list-rules')")
    return REGISTRY.select(select or None, ignore or None, MARKUP)


def _split_codes(values: list[str] | None) -> list[str]:
    return [code.strip().upper() for value in values or [] for code in value.split(",")
            if code.strip()]


def _explain(code: str, out: TextIO) -> int:
    rule = REGISTRY.get(code)
    if rule is None:
        close = [r.code for r in REGISTRY.rules() if r.code[:3] == code.upper()[:3]]
        hint = f" (rules of that family: {', '.join(close)})" if close else ""
        raise UsageError(f"unknown rule {code}{hint}")
    out.write(rule.explain())
    return EXIT_OK


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    if args.explain:
        return _explain(args.explain, out)
    if args.list_rules:
        for rule in REGISTRY.rules(MARKUP):
            out.write(f"{rule.code}  {rule.severity.value:<7}  {rule.name}: {rule.summary}\n")
        return EXIT_OK
    rules = _selected_rules(args)
    files = _sources(args.files)
    if args.fix and "-" in files:
        raise UsageError("--fix needs files, not standard input")
    report: list[tuple[SourceFile, list[Diagnostic]]] = []
    fixed_total = 0
    for path in files:
        source = read_source(path)
        diagnostics = markup.check(_body_result(source), rules)
        if args.fix:
            # Only the fixes of what was found are applied (one pass: no fix of a
            # finding the user has not seen); what remains is reported.
            body, fixed = apply_fixes(source.body, diagnostics)
            if fixed:
                atomic_write(path, source.with_body(body).content)
                fixed_total += fixed
                source = source.with_body(body)
                diagnostics = markup.check(_body_result(source), rules)
        report.append((source, diagnostics))
    if args.format == "json":
        _write_json(report, out, fixed_total)
    else:
        _write_text(report, out, fixed_total)
    found = any(diagnostics for _, diagnostics in report)
    return EXIT_FINDINGS if found else EXIT_OK


def _summary(report: list[tuple[SourceFile, list[Diagnostic]]]) -> dict[str, int]:
    counts = dict.fromkeys(Severity, 0)
    for _, diagnostics in report:
        for diagnostic in diagnostics:
            counts[diagnostic.severity] += 1
    return {"files": len(report), "errors": counts[Severity.ERROR],
            "warnings": counts[Severity.WARNING], "infos": counts[Severity.INFO]}


def _write_json(report: list[tuple[SourceFile, list[Diagnostic]]], out: TextIO,
                fixed: int) -> None:
    findings = [{"path": source.path, **diagnostic.as_dict()}
                for source, diagnostics in report for diagnostic in diagnostics]
    summary = _summary(report)
    summary["fixed"] = fixed
    json.dump({"version": 1, "findings": findings, "summary": summary}, out,
              ensure_ascii=False, indent=2)
    out.write("\n")


def _write_text(report: list[tuple[SourceFile, list[Diagnostic]]], out: TextIO,
                fixed: int) -> None:
    color = _use_color(out)
    for source, diagnostics in report:
        for diagnostic in diagnostics:
            code = diagnostic.code
            if color:
                code = f"{_COLORS[diagnostic.severity]}{code}\033[0m"
            fixable = " [fix]" if diagnostic.fix is not None else ""
            out.write(f"{source.path}:{diagnostic.line}:{diagnostic.column} {code} "
                      f"{diagnostic.message}{fixable}\n")
    summary = _summary(report)
    total = summary["errors"] + summary["warnings"] + summary["infos"]
    fixable = sum(1 for _, ds in report for d in ds if d.fix is not None)
    files = _plural(summary["files"], "file")
    if total:
        line = (f"{_plural(total, 'finding')} in {files}: {_plural(summary['errors'], 'error')}, "
                f"{_plural(summary['warnings'], 'warning')}, {_plural(summary['infos'], 'info')}.")
    else:
        line = f"No findings in {files}."
    if fixed:
        line += f" Fixed {fixed}."
    elif fixable:
        line += f" {fixable} fixable with --fix."
    out.write(line + "\n")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


# --------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="translator", **_help(
        "Translation and typesetting toolchain for Arcmage cards.",
        "translator markup check cards/"))
    parser.add_argument("--version", action="version", version=f"translator {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    group = commands.add_parser("markup", help="card text: convert, format, check", **_help(
        "Read card text (Aminduna's markdown dialect) exactly as the Arcmage server does.",
        "translator markup check cards/sample/"))
    sub = group.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("xml", help="card text -> Aminduna layout XML", **_help(
        "Print the layout XML Aminduna makes from card text (files, directories or -).",
        "translator markup xml cards/sample/deal-damage.en.md"))
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="card text files or directories; - for stdin")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_xml)

    p = sub.add_parser("markdown", help="layout XML -> card text (the reference's reverse)",
                       **_help("Convert layout XML back to card text as Aminduna does (CRLF line "
                               "ends, drop caps cut to one capital letter).",
                               "translator markup xml card.md | translator markup markdown -"))
    p.add_argument("file", nargs="?", default="-", metavar="FILE")
    p.add_argument("--newline", choices=("crlf", "lf"), default="crlf",
                   help="line ends: the reference's CRLF (default) or LF")
    p.set_defaults(run=cmd_markdown)

    p = sub.add_parser("rules", help="ruleText and flavorText as JSON", **_help(
        "Print the plain ruleText and flavorText Aminduna derives from card text.",
        "translator markup rules --lang fr cards/sample/gardien.fr.md"))
    p.add_argument("file", nargs="?", default="-", metavar="FILE")
    p.add_argument("--lang", choices=markup.LANGUAGES, default="en")
    p.set_defaults(run=cmd_rules)

    p = sub.add_parser("html", help="card text -> HTML fragment (escaped)", **_help(
        "Print the card text as an HTML fragment for the print templates.",
        "translator markup html cards/sample/deal-damage.en.md"))
    p.add_argument("file", nargs="?", default="-", metavar="FILE")
    p.set_defaults(run=cmd_html)

    p = sub.add_parser("format", help="canonical spelling of card text, same layout", **_help(
        "Rewrite card text canonically (** and *, \\ line breaks, one line per paragraph); "
        "the layout never changes.",
        "translator markup format --write cards/sample/"))
    p.add_argument("files", nargs="*", metavar="FILE")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite the files in place")
    mode.add_argument("--check", action="store_true",
                      help="only list files that would change (exit 1 if any)")
    p.set_defaults(run=cmd_format)

    p = sub.add_parser("check", help="diagnostics: where Aminduna will surprise you", **_help(
        "Report what Aminduna will read differently from what the author meant: stray "
        "colons, unknown codes, dropped markdown, vanishing spaces, ...",
        "translator markup check --select MK1,MK2 cards/sample/"))
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--select", action="append", metavar="CODES",
                   help="only these rules (codes or prefixes, comma-separated)")
    p.add_argument("--ignore", action="append", metavar="CODES", help="skip these rules")
    p.add_argument("--fix", action="store_true", help="apply the safe fixes in place")
    p.add_argument("--explain", metavar="CODE", help="print a rule's documentation")
    p.add_argument("--list-rules", action="store_true", help="list the rules")
    p.set_defaults(run=cmd_check)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        run: Callable[[argparse.Namespace, TextIO], int] = args.run
        return run(args, out)
    except UsageError as error:
        print(f"translator: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except InputError as error:
        print(f"translator: {error}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("translator: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
