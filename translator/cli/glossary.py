"""``translator glossary``: the community's lexicons looked up, exported (TBX, CSV)
and checked."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from .. import languages
from . import output
from .common import (
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
    add_format,
    api,
    command_group,
    command_help,
    report_problems,
    write_named,
)
from .output import plural


def cmd_glossary_lookup(args: argparse.Namespace, out: TextIO) -> int:
    """``glossary lookup``: a term on both sides, in any form; exit 1 when not found."""
    found = api.glossary_search(args.term, args.lang, library=args.library)
    report_problems(found.problems)
    results = [result.to_dict() for result in found.results]
    if args.format == "json":
        output.dump_json(
            {"version": 1, "query": args.term, "lang": args.lang, "results": results}, out
        )
    else:
        for result in results:
            out.write(_describe(result, args.lang))
        if not results:
            out.write(f"No '{args.term}' in the {args.lang} glossary.\n")
    return EXIT_OK if results else EXIT_FINDINGS


def _describe(result: dict[str, Any], lang: str) -> str:
    """A lookup result as text: the term or ability, its forms, history and notes."""
    if result["kind"] == "ability":
        lines = _describe_ability(result, lang)
    else:
        lines = _describe_entry(result, lang)
    for key in ("note", "decision"):
        if result.get(key):
            lines.append(f"  {key}: {result[key]}")
    return "\n".join(lines) + "\n\n"


def _describe_ability(result: dict[str, Any], lang: str) -> list[str]:
    """An ability's lines: its template, parameters, the reminder text in English and
    in ``lang``, and the names it replaced (what a translator needs to write it)."""
    lines = [
        f"{result['en']} -> {result['template']} (ability, {result['status']})  [{result['where']}]"
    ]
    if result["params"]:
        lines.append(f"  parameters: {', '.join(result['params'])}")
    if result["en_reminder"]:
        lines.append(f"  en: {result['en_template']}: {result['en_reminder']}")
    if result["reminder"]:
        lines.append(f"  {lang}: {result['template']}: {result['reminder']}")
    for old in result["deprecated"]:
        lines.append(
            f"  deprecated: {old['term']} -> {old['replaced_by'] or '?'}"
            + (f" since {old['date']}" if old["date"] else "")
        )
    return lines


def _describe_entry(result: dict[str, Any], lang: str) -> list[str]:
    """A glossary entry's lines: each of its terms with its status and gender, the
    forms the linter recognises (or the replacement of a deprecated term) and its
    evidence, then the adjective's agreements."""
    lines = [f"{result['en']} ({result['section']}, {result['pos']})  [{result['where']}]"]
    for term in result["terms"]:
        details = [term["status"]] + ([term["gender"]] if term["gender"] else [])
        line = f"  {lang}: {term['term']} ({', '.join(details)})"
        if term["status"] == "deprecated":
            line += f" -> {term['replaced_by'] or '?'}"
            line += f" since {term['date']}" if term["date"] else ""
        lines.append(line)
        if term["status"] != "deprecated":
            lines.append(f"      forms: {', '.join(term['forms'])}")
        if term["evidence"]:
            lines.append(f"      evidence: {term['evidence']}")
    if result["adjective"]:
        lines.append(
            "  adjective: " + ", ".join(f"{k} {v}" for k, v in result["adjective"].items())
        )
    return lines


def cmd_glossary_export(args: argparse.Namespace, out: TextIO) -> int:
    """``glossary export``: TBX or CSV, to a file or standard output."""
    export = api.export_glossary(args.lang, args.format, library=args.library, output=args.output)
    if export.problems:
        report_problems(export.problems)
        return EXIT_ERROR
    if export.files:
        write_named(export.files)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        out.write(export.text)
    return EXIT_OK


def cmd_glossary_check(args: argparse.Namespace, out: TextIO) -> int:
    """``glossary check``: file problems exit 2, inconsistencies exit 1."""
    checked = api.check_glossaries([args.lang] if args.lang else [], library=args.library)
    languages, loaded = checked.languages, checked.glossaries
    problems, findings = checked.problems, checked.findings
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "problems": [p.as_dict() for p in problems],
                "findings": [p.as_dict() for p in findings],
                "summary": checked.summary,
            },
            out,
        )
    else:
        for problem in [*problems, *findings]:
            out.write(f"{problem}\n")
        counts = ", ".join(
            f"{lang}: {len(loaded[lang].entries)} entries, {len(loaded[lang].abilities)} abilities"
            for lang in languages
        )
        total = len(problems) + len(findings)
        out.write(f"{counts}. " + (f"{plural(total, 'problem')}.\n" if total else "No problems.\n"))
    if problems:
        return EXIT_ERROR
    return EXIT_FINDINGS if findings else EXIT_OK


def register(commands: argparse._SubParsersAction) -> None:
    """``translator glossary`` and its subcommands."""
    sub = command_group(
        commands,
        "glossary",
        "the lexicons: look up, export, check",
        "The French Lexique, the Esperanto Leksikono and the abilities lists, as data.",
        "translator glossary lookup army --lang eo",
    )
    p = sub.add_parser(
        "lookup",
        help="find a term (English or target, any form)",
        **command_help(
            "Look a term up on both sides (English or the target language, in any inflected "
            "form): status, forms, replacement, notes.",
            "translator glossary lookup armées --lang fr",
        ),
    )
    p.add_argument("term", metavar="TERM")
    p.add_argument("--lang", choices=("fr", "eo"), required=True)
    p.add_argument(
        "--library",
        action="append",
        metavar="PATH",
        help="a library whose glossary files add to the shipped ones (default: cards, if present)",
    )
    add_format(p)
    p.set_defaults(run=cmd_glossary_lookup)
    p = sub.add_parser(
        "export",
        help="TBX (for Weblate, translate-toolkit) or CSV",
        **command_help(
            "Export a glossary as TBX v2 (English source) or CSV.",
            "translator glossary export --lang fr --format tbx -o arcmage-fr.tbx",
        ),
    )
    p.add_argument("--lang", choices=("fr", "eo"), required=True)
    p.add_argument("--format", choices=("tbx", "csv"), default="tbx")
    p.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    p.add_argument("--library", action="append", metavar="PATH")
    p.set_defaults(run=cmd_glossary_export)
    p = sub.add_parser(
        "check",
        help="validate the glossaries and their consistency",
        **command_help(
            "Check the glossary files (format: exit 2) and their consistency (duplicates, one "
            "target for two English terms, deprecated yet preferred, unknown references: exit 1).",
            "translator glossary check --lang fr",
        ),
    )
    p.add_argument("--lang", choices=languages.codes())
    p.add_argument("--library", action="append", metavar="PATH")
    add_format(p)
    p.set_defaults(run=cmd_glossary_check)
