"""``translator lint``: translations checked against their English cards, the
glossaries and the style guides; ``--fix`` and ``--diff`` apply or show the safe fixes."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO

from . import output
from .common import (
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
    UsageError,
    api,
    command_help,
    diagnostics,
    explain,
    report_problems,
    reports,
    split_codes,
)

if TYPE_CHECKING:
    from ..lint.config import Config


def _config(args: argparse.Namespace) -> Config:
    """The configuration: none with ``--no-config``, ``--config FILE``, or the
    nearest file up from here."""
    if args.no_config:
        return api.Config()
    return api.load_config(file=args.config)


def _report_unchecked_spelling(messages: list[str]) -> None:
    """Say once per language that spelling was not checked (no dictionary)."""
    for message in messages:
        print(f"translator: {message}", file=sys.stderr)


def _report_redirected(messages: list[str]) -> None:
    """Say which former rule codes the selection named, and their codes now."""
    for message in messages:
        print(f"translator: warning: {message}", file=sys.stderr)


def cmd_lint(args: argparse.Namespace, out: TextIO) -> int:
    """``lint``: the report (or the fixes applied, or shown as a diff); exit 1 when
    findings reach ``--fail-on``."""
    if args.explain:
        return explain(args.explain, out)
    if args.list_rules:
        for rule in diagnostics.REGISTRY.rules():
            out.write(f"{rule.code}  {rule.severity.value:<7}  {rule.name}: {rule.summary}\n")
        return EXIT_OK
    settings: dict[str, Any] = {
        "config": _config(args),
        "languages": list(args.lang or []),
        "select": split_codes(args.select),
        "ignore": split_codes(args.ignore),
        "fail_on": args.fail_on,
        "sources": list(args.source or []),
        "glossary": list(args.library or []),
    }
    fixed = 0
    if args.fix or args.diff:
        fixes = api.fix(args.paths, write=args.fix, **settings)
        result = fixes.remaining
        _report_redirected(result.redirected)
        if args.diff:
            out.write(fixes.diff)
            _report_unchecked_spelling(result.unchecked)
            if result.problems:
                report_problems(result.problems)
                return EXIT_ERROR
            return EXIT_FINDINGS if fixes.changed else EXIT_OK
        fixed = fixes.fixed
    else:
        result = api.lint(args.paths, **settings)
        _report_redirected(result.redirected)
    if args.statistics:
        if args.format not in ("text", "json"):
            raise UsageError("--statistics writes text or json (--format text|json)")
        reports.write_statistics(result.report, out, args.format)
    else:
        reports.write(result.report, out, args.format, result.rules, fixed)
    _report_unchecked_spelling(result.unchecked)
    if result.problems:
        report_problems(result.problems)
        return EXIT_ERROR
    return EXIT_FINDINGS if result.failed else EXIT_OK


def register(commands: argparse._SubParsersAction) -> None:
    """``translator lint`` and its options."""
    p = commands.add_parser(
        "lint",
        help="check translations against their English cards",
        **command_help(
            "Check every card version: markup (MK), a translation against "
            "its English card (TR), the glossaries (GL).  Reads the card "
            "library, or Aminduna JSON files directly.",
            "translator lint cards/sample --lang fr --select TR,GL",
        ),
    )
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="library, deck, card files, or Aminduna JSON files (default: cards)",
    )
    p.add_argument(
        "--lang",
        action="append",
        metavar="LANG",
        help="only this language (repeatable; default: all)",
    )
    p.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="only these rules (codes or prefixes, comma-separated)",
    )
    p.add_argument("--ignore", action="append", metavar="CODES", help="skip these rules")
    p.add_argument(
        "--format",
        choices=output.FORMATS,
        default="text",
        help="text for people (default), json for scripts, sarif for code scanning, github "
        "for GitHub Actions annotations, gitlab for a GitLab Code Quality report "
        "(translator lint --format gitlab > gl-code-quality-report.json)",
    )
    p.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        help="lowest severity that makes the exit code 1 (default: warning)",
    )
    p.add_argument(
        "--source",
        action="append",
        metavar="FILE.json",
        help="Aminduna JSON holding the English cards of the JSON files linted",
    )
    p.add_argument(
        "--library",
        action="append",
        metavar="PATH",
        help="a library whose glossary files add to the shipped ones (default: the paths linted)",
    )
    p.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default: the nearest translator.toml, or "
        "pyproject.toml with [tool.translator])",
    )
    p.add_argument("--no-config", action="store_true", help="ignore configuration files")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--fix", action="store_true", help="apply the safe fixes to the translations (atomically)"
    )
    mode.add_argument(
        "--diff",
        action="store_true",
        help="print the safe fixes as a diff, change nothing (exit 1 if any)",
    )
    p.add_argument(
        "--statistics",
        action="store_true",
        help="count the findings per rule instead of listing them (as ruff)",
    )
    p.add_argument("--explain", metavar="CODE", help="print a rule's documentation")
    p.add_argument("--list-rules", action="store_true", help="list every rule")
    p.set_defaults(run=cmd_lint)
