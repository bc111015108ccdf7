"""The ``translator`` command line: a thin client of the library.

Exit codes, for every command: 0 everything fine, 1 findings (or files that need
formatting), 2 usage or input error (unreadable file, bad UTF-8, malformed XML, a card
text the Arcmage converter cannot convert).
"""

from __future__ import annotations

import argparse
import difflib
import errno
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TextIO

from . import __version__, cards, glossary, lint, markup
from .diagnostics import REGISTRY, Diagnostic, Severity, apply_fixes
from .lint import config as lint_config
from .lint import fixes as lint_fixes
from .lint import output as lint_output
from .lint import sources as lint_sources
from .lint import spelling as lint_spelling
from .markup.checks import TARGET as MARKUP
from .textio import (
    InputError,
    SourceFile,
    atomic_write,
    decode,
    expand_paths,
    read_file,
    read_source,
    read_text,
)
from .untrusted import PrintableStream

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
#: What a full disk (or quota) looks like: the hint is then to free some space.
_DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


class UsageError(Exception):
    """Wrong arguments: reported on stderr, exit code 2."""


class _Reported(Exception):
    """Problems were printed already: exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        raise UsageError(message)


def _help(text: str, example: str) -> dict[str, str]:
    return {
        "description": text,
        "epilog": f"example:\n  {example}",
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }


def _use_color(stream: TextIO) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


_COLORS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}


# --------------------------------------------------------------------------------------
# markup commands


def _sources(paths: Sequence[str]) -> list[str]:
    if not paths and sys.stdin.isatty():
        raise UsageError(
            "no input: name card text files or directories, or pipe text in "
            "(FILE '-' reads standard input)"
        )
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
        raise InputError(
            source.path,
            f"the Arcmage converter fails on this text "
            f"({crash.reason}); run 'translator markup check' "
            "for details",
            line,
            column,
        )
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
    xml = decode(read_file(path), display)
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
    json.dump(markup.rule_and_flavor(result.document, args.lang), out, ensure_ascii=False, indent=2)
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
        print(
            f"{len(changed)} file(s) reformatted, {len(files) - len(changed)} unchanged",
            file=sys.stderr,
        )
    return EXIT_OK


def _selected_rules(args: argparse.Namespace) -> list:
    select = _split_codes(args.select)
    ignore = _split_codes(args.ignore)
    unknown = REGISTRY.unknown_prefixes(select + ignore)
    if unknown:
        raise UsageError(
            f"no rule matches {', '.join(unknown)} (see 'translator markup check --list-rules')"
        )
    return REGISTRY.select(select or None, ignore or None, MARKUP)


def _split_codes(values: list[str] | None) -> list[str]:
    return [
        code.strip().upper() for value in values or [] for code in value.split(",") if code.strip()
    ]


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
    return {
        "files": len(report),
        "errors": counts[Severity.ERROR],
        "warnings": counts[Severity.WARNING],
        "infos": counts[Severity.INFO],
    }


def _write_json(report: list[tuple[SourceFile, list[Diagnostic]]], out: TextIO, fixed: int) -> None:
    findings = [
        {"path": source.path, **diagnostic.as_dict()}
        for source, diagnostics in report
        for diagnostic in diagnostics
    ]
    summary = _summary(report)
    summary["fixed"] = fixed
    json.dump(
        {"version": 1, "findings": findings, "summary": summary}, out, ensure_ascii=False, indent=2
    )
    out.write("\n")


def _write_text(report: list[tuple[SourceFile, list[Diagnostic]]], out: TextIO, fixed: int) -> None:
    color = _use_color(out)
    for source, diagnostics in report:
        for diagnostic in diagnostics:
            code = diagnostic.code
            if color:
                code = f"{_COLORS[diagnostic.severity]}{code}\033[0m"
            fixable = " [fix]" if diagnostic.fix is not None else ""
            out.write(
                f"{source.path}:{diagnostic.line}:{diagnostic.column}: {code} "
                f"{diagnostic.message}{fixable}\n"
            )
    summary = _summary(report)
    total = summary["errors"] + summary["warnings"] + summary["infos"]
    fixable = sum(1 for _, ds in report for d in ds if d.fix is not None)
    files = _plural(summary["files"], "file")
    if total:
        line = (
            f"{_plural(total, 'finding')} in {files}: {_plural(summary['errors'], 'error')}, "
            f"{_plural(summary['warnings'], 'warning')}, {_plural(summary['infos'], 'info')}."
        )
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
# cards, import, export


def _library(paths: Sequence[str] | None) -> tuple[cards.Library, list[cards.Problem]]:
    return cards.load_library(list(paths or []) or ["cards"])


def _report_problems(problems: list[cards.Problem]) -> None:
    for problem in problems:
        print(f"translator: {problem}", file=sys.stderr)
    if problems:
        print(
            f"translator: {_plural(len(problems), 'problem')}; fix them and run again",
            file=sys.stderr,
        )


def cmd_cards_check(args: argparse.Namespace, out: TextIO) -> int:
    library, problems = _library(args.paths)
    if args.format == "json":
        json.dump(
            {
                "version": 1,
                "problems": [p.as_dict() for p in problems],
                "summary": _library_summary(library),
            },
            out,
            ensure_ascii=False,
            indent=2,
        )
        out.write("\n")
    else:
        for problem in problems:
            out.write(f"{problem}\n")
        summary = _library_summary(library)
        out.write(
            f"{_plural(summary['decks'], 'deck')}, {_plural(summary['cards'], 'card')}, "
            f"{_plural(summary['translations'], 'translation')}: "
            + (f"{_plural(len(problems), 'problem')}.\n" if problems else "no problems.\n")
        )
    return EXIT_ERROR if problems else EXIT_OK


def _library_summary(library: cards.Library) -> dict[str, int]:
    return {
        "decks": len(library.decks),
        "cards": len(library.cards),
        "translations": sum(len(c.translations) for c in library.cards.values()),
    }


def _languages(library: cards.Library) -> list[str]:
    found = {lang for card in library.cards.values() for lang in card.languages()}
    return [cards.SOURCE_LANGUAGE, *sorted(found - {cards.SOURCE_LANGUAGE})]


def _table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain text table (columns padded with spaces, a dashed line under the headers)."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]
    lines = [
        "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in [headers, ["-" * w for w in widths], *rows]
    ]
    return "\n".join(lines)


def _translation_state(card: cards.Card, lang: str) -> str:
    if lang == cards.SOURCE_LANGUAGE:
        return "source"
    version = card.translations.get(lang)
    if version is None:
        return "missing"
    if version.fields.get("wip"):
        return "wip"
    return "translated"


def cmd_cards_list(args: argparse.Namespace, out: TextIO) -> int:
    library, problems = _library(args.paths)
    _report_problems(problems)
    languages = [args.lang] if args.lang else _languages(library)
    listing = []
    for name, deck in library.decks.items():
        for lang in languages:
            rows = []
            for card in library.deck_cards(name):
                rows.append(
                    {
                        "slug": card.slug,
                        "quantity": deck.quantities.get(card.slug, 0),
                        "name": card.name(lang),
                        "type": card.get("type"),
                        "faction": card.get("faction"),
                        "status": card.get("status", lang),
                        "translation": _translation_state(card, lang),
                    }
                )
            listing.append(
                {"deck": deck.name, "directory": deck.directory, "lang": lang, "cards": rows}
            )
    if args.format == "json":
        json.dump({"version": 1, "decks": listing}, out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        for block in listing:
            copies = sum(r["quantity"] for r in block["cards"])
            out.write(
                f"{block['deck']} ({block['directory']}) [{block['lang']}]: "
                f"{_plural(len(block['cards']), 'card')}, {copies} in the deck\n"
            )
            out.write(
                _table(
                    ["qty", "slug", "name", "type", "faction", "status", "translation"],
                    [
                        [
                            str(r["quantity"] or ""),
                            r["slug"],
                            r["name"],
                            r["type"] or "",
                            r["faction"] or "",
                            r["status"] or "",
                            r["translation"],
                        ]
                        for r in block["cards"]
                    ],
                )
                + "\n\n"
            )
    return EXIT_ERROR if problems else EXIT_OK


_SHOWN_FIELDS = (
    "name",
    "name2",
    "type",
    "faction",
    "subtype",
    "cost",
    "loyalty",
    "attack",
    "defense",
    "info",
    "status",
    "guid",
    "source",
)


def cmd_cards_show(args: argparse.Namespace, out: TextIO) -> int:
    library, problems = _library(args.library)
    _report_problems(problems)
    found = library.find(args.card)
    if not found:
        raise UsageError(
            f"no card '{args.card}' in {', '.join(args.library or ['cards'])} "
            "(give a slug, deck/slug, guid or file path)"
        )
    if len(found) > 1:
        raise UsageError(
            f"'{args.card}' matches several cards: "
            + ", ".join(f"{c.deck}/{c.slug}" for c in found)
        )
    card = found[0]
    languages = card.languages()
    if args.format == "json":
        data = {
            lang: {
                **{key: card.get(key, lang) for key in _SHOWN_FIELDS},
                "text": card.get("text", lang),
                "path": card.version(lang).path if card.version(lang) else None,
            }
            for lang in languages
        }
        json.dump(
            {"version": 1, "deck": card.deck, "slug": card.slug, "languages": data},
            out,
            ensure_ascii=False,
            indent=2,
            default=str,
        )
        out.write("\n")
        return EXIT_ERROR if problems else EXIT_OK
    columns = shutil.get_terminal_size((120, 24)).columns
    width = max(24, (columns - 12) // max(len(languages), 1) - 2)
    rows = [
        [key] + [_cell(card, key, lang) for lang in languages]
        for key in _SHOWN_FIELDS
        if any(card.get(key, lang) not in (None, "") for lang in languages)
    ]
    out.write(f"{card.deck}/{card.slug}\n")
    out.write(_table(["field", *languages], rows) + "\n\n")
    wrapped = [
        [
            line
            for paragraph in (card.get("text", lang) or "").split("\n")
            for line in (textwrap.wrap(paragraph, width) or [""])
        ]
        for lang in languages
    ]
    height = max(len(w) for w in wrapped)
    out.write(
        _table(
            [f"text ({lang})" for lang in languages],
            [[w[i] if i < len(w) else "" for w in wrapped] for i in range(height)],
        )
        + "\n"
    )
    return EXIT_ERROR if problems else EXIT_OK


def _cell(card: cards.Card, key: str, lang: str) -> str:
    value = card.get(key, lang)
    version = card.version(lang)
    inherited = (
        lang != cards.SOURCE_LANGUAGE
        and version is not None
        and key not in version.fields
        and value not in (None, "")
    )
    text = "" if value is None else str(value)
    return f"{text} (inherited)" if inherited and key not in ("info",) else text


def cmd_import(args: argparse.Namespace, out: TextIO) -> int:
    try:
        plan = cards.import_files(args.files, args.into, args.library)
    except cards.ImportError_ as error:
        for problem in error.problems:
            print(f"translator: {problem}", file=sys.stderr)
        print("translator: nothing was imported; the library is unchanged", file=sys.stderr)
        return EXIT_ERROR
    for label, paths in (("created", plan.created), ("updated", plan.updated)):
        for path in paths:
            out.write(f"{label} {path}\n")
    out.write(
        f"{len(plan.created)} created, {len(plan.updated)} updated, "
        f"{len(plan.unchanged)} unchanged\n"
    )
    return EXIT_OK


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    library, problems = cards.load_library([args.deck])
    if problems:
        _report_problems(problems)
        return EXIT_ERROR
    deck_name = Path(args.deck).name if Path(args.deck).is_dir() else Path(args.deck).parent.name
    if deck_name not in library.decks:
        raise UsageError(f"{args.deck} is not a deck directory (it has no deck.yaml)")
    data, deck_txt = cards.export_deck(library, deck_name, args.lang)
    text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if args.output in (None, "-"):
        out.write(text)
        return EXIT_OK
    output = Path(args.output)
    atomic_write(str(output), text)
    atomic_write(str(output.with_suffix(".txt")), deck_txt)
    print(f"wrote {output} and {output.with_suffix('.txt')}", file=sys.stderr)
    return EXIT_OK


# --------------------------------------------------------------------------------------
# glossary


def _glossary_library(args: argparse.Namespace) -> list[str]:
    if args.library:
        return list(args.library)
    return ["cards"] if Path("cards").is_dir() else []


def _load_glossaries(
    args: argparse.Namespace, languages: Sequence[str]
) -> tuple[dict[str, glossary.Glossary], list[cards.Problem]]:
    library = _glossary_library(args)
    loaded: dict[str, glossary.Glossary] = {}
    problems: list[cards.Problem] = []
    for lang in dict.fromkeys(["en", *languages]):
        loaded[lang], found = glossary.load_glossary(lang, library)
        problems += found
    return loaded, problems


def _entry_data(entry: glossary.Entry, lang: str) -> dict[str, Any]:
    return {
        "id": entry.id,
        "en": entry.en,
        "section": entry.section,
        "pos": entry.pos,
        "terms": [
            {
                "term": t.text,
                "status": t.status,
                "gender": t.gender,
                "forms": sorted(glossary.forms(t.text, lang, entry.pos, t.forms)),
                "replaced_by": t.replaced_by,
                "date": t.date,
                "evidence": t.evidence,
            }
            for t in entry.terms
        ],
        "adjective": entry.adjective or None,
        "note": entry.note,
        "decision": entry.decision,
        "see": list(entry.see),
        "where": f"{entry.path}:{entry.line}",
    }


def _ability_data(ability: glossary.Ability, english: glossary.Ability | None) -> dict[str, Any]:
    """An ability with its English template and reminder next to it, since a translator
    looking one up is comparing the two."""
    return {
        "id": ability.id,
        "en": ability.en,
        "name": ability.name,
        "en_template": english.template if english else None,
        "en_reminder": english.reminder if english else None,
        "template": ability.template,
        "params": list(ability.params),
        "reminder": ability.reminder,
        "example": ability.example,
        "status": ability.status,
        "deprecated": [
            {"term": t.text, "replaced_by": t.replaced_by, "date": t.date, "evidence": t.evidence}
            for t in ability.deprecated
        ],
        "note": ability.note,
        "where": f"{ability.path}:{ability.line}",
    }


def cmd_glossary_lookup(args: argparse.Namespace, out: TextIO) -> int:
    loaded, problems = _load_glossaries(args, [args.lang])
    _report_problems(problems)
    target = loaded[args.lang]
    hits = glossary.Matcher(target, side="english").lookup(args.term) + glossary.Matcher(
        target
    ).lookup(args.term)
    if not hits:
        wanted = glossary.words(args.term)
        needle = " ".join(w for w, _, _ in wanted)
        hits = [
            glossary.Hit("term", e.id, e.en, "preferred")
            for e in target.entries.values()
            if needle
            and (needle in e.en.casefold() or any(needle in t.text.casefold() for t in e.terms))
        ]
        hits += [
            glossary.Hit("ability", a.id, a.name, a.status)
            for a in target.abilities.values()
            if needle and (needle in a.en.casefold() or needle in a.name.casefold())
        ]
    seen: set[tuple[str, str]] = set()
    results: list[dict[str, Any]] = []
    for hit in hits:
        kind = "ability" if hit.kind == "ability" else "entry"
        if (kind, hit.id) in seen:
            continue
        seen.add((kind, hit.id))
        if kind == "ability":
            results.append(
                {
                    "kind": kind,
                    **_ability_data(target.abilities[hit.id], loaded["en"].abilities.get(hit.id)),
                }
            )
        else:
            results.append({"kind": kind, **_entry_data(target.entries[hit.id], args.lang)})
    if args.format == "json":
        json.dump(
            {"version": 1, "query": args.term, "lang": args.lang, "results": results},
            out,
            ensure_ascii=False,
            indent=2,
        )
        out.write("\n")
    else:
        for result in results:
            out.write(_describe(result, args.lang))
        if not results:
            out.write(f"No '{args.term}' in the {args.lang} glossary.\n")
    return EXIT_OK if results else EXIT_FINDINGS


def _describe(result: dict[str, Any], lang: str) -> str:
    lines: list[str] = []
    if result["kind"] == "ability":
        lines.append(
            f"{result['en']} -> {result['template']} (ability, {result['status']})"
            f"  [{result['where']}]"
        )
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
    else:
        lines.append(f"{result['en']} ({result['section']}, {result['pos']})  [{result['where']}]")
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
    for key in ("note", "decision"):
        if result.get(key):
            lines.append(f"  {key}: {result[key]}")
    return "\n".join(lines) + "\n\n"


def cmd_glossary_export(args: argparse.Namespace, out: TextIO) -> int:
    loaded, problems = _load_glossaries(args, [args.lang])
    if problems:
        _report_problems(problems)
        return EXIT_ERROR
    if args.format == "tbx":
        text = glossary.to_tbx(loaded[args.lang], loaded["en"])
    else:
        text = glossary.to_csv(loaded[args.lang])
    if args.output in (None, "-"):
        out.write(text)
    else:
        atomic_write(args.output, text)
        print(f"wrote {args.output}", file=sys.stderr)
    return EXIT_OK


def cmd_glossary_check(args: argparse.Namespace, out: TextIO) -> int:
    languages = [args.lang] if args.lang else list(glossary.LANGUAGES)
    loaded, problems = _load_glossaries(args, languages)
    findings = [
        p for lang in languages for p in glossary.check_glossary(loaded[lang], loaded.get("en"))
    ]
    if args.format == "json":
        json.dump(
            {
                "version": 1,
                "problems": [p.as_dict() for p in problems],
                "findings": [p.as_dict() for p in findings],
                "summary": {
                    lang: {
                        "entries": len(loaded[lang].entries),
                        "abilities": len(loaded[lang].abilities),
                        "files": len(loaded[lang].files),
                    }
                    for lang in languages
                },
            },
            out,
            ensure_ascii=False,
            indent=2,
        )
        out.write("\n")
    else:
        for problem in [*problems, *findings]:
            out.write(f"{problem}\n")
        counts = ", ".join(
            f"{lang}: {len(loaded[lang].entries)} entries, {len(loaded[lang].abilities)} abilities"
            for lang in languages
        )
        total = len(problems) + len(findings)
        out.write(
            f"{counts}. " + (f"{_plural(total, 'problem')}.\n" if total else "No problems.\n")
        )
    if problems:
        return EXIT_ERROR
    return EXIT_FINDINGS if findings else EXIT_OK


# --------------------------------------------------------------------------------------
# theme


def cmd_theme_import_arcmage(args: argparse.Namespace, out: TextIO) -> int:
    """Import the official template set as a theme (translator.typeset.arcmage)."""
    from .typeset.arcmage.importer import import_arcmage  # noqa: PLC0415 - Pillow, httpx
    from .typeset.theme import ThemeError  # noqa: PLC0415

    try:
        report = import_arcmage(
            args.source,
            args.out,
            cache_dir=Path(args.cache) if args.cache else None,
            progress=False if args.no_progress else None,
            icc=args.icc,
        )
    except ThemeError as error:  # the written theme does not load: a bug, said plainly
        print(f"translator: {error}", file=sys.stderr)
        return EXIT_ERROR
    if args.format == "json":
        json.dump({"version": 1, **report.to_dict()}, out, ensure_ascii=False, indent=2)
        out.write("\n")
        return EXIT_OK
    for note in report.notes:
        out.write(f"note: {note}\n")
    svgs = sum(1 for name in report.missing_optional if name.endswith(".svg"))
    out.write(
        f"Imported the official look from {report.origin} into {report.theme} in "
        f"{report.seconds:.1f} s: {_plural(report.frames, 'frame')}, the back, "
        f"{_plural(report.layouts_from_svg + report.layouts_from_defaults, 'layout')} "
        f"({report.layouts_from_svg} read from SVG templates, "
        f"{report.layouts_from_defaults} from translator's defaults"
        f"{f': the set lacks {svgs} SVG files' if svgs else ''}), "
        + (
            f"{_plural(len(report.symbols), 'symbol')} from the official symbol font."
            if report.symbols
            else "no symbol font (translator's symbols print)."
        )
        + "\n"
    )
    use = "arcmage" if args.out is None else str(args.out)
    out.write(f"Print with it: translator build DECK --theme {use}\n")
    return EXIT_OK


# --------------------------------------------------------------------------------------
# lint


def _lint_options(args: argparse.Namespace) -> tuple[lint.Options, Severity]:
    """Options from the configuration file, overridden by the command line."""
    if args.no_config:
        config = lint_config.Config()
    else:
        path = Path(args.config) if args.config else lint_config.find_config()
        if args.config and not Path(args.config).is_file():
            raise UsageError(f"no configuration file {args.config}")
        config = lint_config.load_config(path) if path else lint_config.Config()
    select = _split_codes(args.select) or [c.upper() for c in config.select]
    ignore = [c.upper() for c in config.ignore] + _split_codes(args.ignore)
    unknown = REGISTRY.unknown_prefixes(select + ignore)
    if unknown:
        where = f" (in {config.path})" if config.path and not args.select else ""
        raise UsageError(
            f"no rule matches {', '.join(unknown)}{where} (see 'translator lint --list-rules')"
        )
    options = lint.Options(
        select=select,
        ignore=ignore,
        languages=list(args.lang or []),
        allow_english=config.allow_english,
        glossary_paths=[*config.glossary, *(args.library or [])],
        settings=dict(config.settings),
    )
    fail_on = Severity(args.fail_on or config.fail_on or "warning")
    return options, fail_on


def _report_unchecked_spelling() -> None:
    """Say once per language that spelling was not checked (no dictionary)."""
    for message in lint_spelling.missing_dictionaries():
        print(f"translator: {message}", file=sys.stderr)


def cmd_lint(args: argparse.Namespace, out: TextIO) -> int:
    if args.explain:
        return _explain(args.explain, out)
    if args.list_rules:
        for rule in REGISTRY.rules():
            out.write(f"{rule.code}  {rule.severity.value:<7}  {rule.name}: {rule.summary}\n")
        return EXIT_OK
    options, fail_on = _lint_options(args)
    paths = list(args.paths) or ["cards"]
    if args.source and not any(p.lower().endswith(".json") for p in paths):
        raise UsageError(
            "--source is for Aminduna JSON files: "
            "translator lint deck.fr.json --source deck.en.json"
        )
    inputs = lint_sources.load_inputs(paths, list(args.source or []))
    if not options.glossary_paths and not any(p.lower().endswith(".json") for p in paths):
        options.glossary_paths = paths
    languages = options.languages or sorted(
        {lang for card in inputs.library.cards.values() for lang in card.translations}
    )
    problems = list(inputs.problems)
    resources = lint.load_resources(languages, options, problems)
    options.files = inputs.files
    report = lint.lint(inputs.library, resources, options, inputs.locator)
    fixed = 0
    if args.fix or args.diff:
        if any(p.lower().endswith(".json") for p in paths):
            raise UsageError(
                "--fix and --diff change card files, not Aminduna JSON: import "
                "it first (translator import arcmage)"
            )
        result = lint_fixes.fix_library(
            inputs.library,
            lambda library: lint.lint(library, resources, options, inputs.locator).findings,
            report.findings,
            read_text,
        )
        if args.diff:
            out.write(result.diff())
            _report_unchecked_spelling()
            if problems:
                _report_problems(problems)
                return EXIT_ERROR
            return EXIT_FINDINGS if result.changed else EXIT_OK
        for path in result.changed:
            atomic_write(path, result.contents[path])
        fixed = result.applied
        if fixed:
            report = lint.lint(inputs.library, resources, options, inputs.locator)
    if args.statistics:
        if args.format not in ("text", "json"):
            raise UsageError("--statistics writes text or json (--format text|json)")
        lint_output.write_statistics(report, out, args.format)
    else:
        lint_output.write(report, out, args.format, lint.selected_rules(options), fixed)
    _report_unchecked_spelling()
    if problems:
        _report_problems(problems)
        return EXIT_ERROR
    return EXIT_FINDINGS if report.failed(fail_on) else EXIT_OK


# --------------------------------------------------------------------------------------
# the translation workflow: translate, status, review, export/import po|xliff


def _workflow_library(paths: Sequence[str]) -> cards.Library:
    """The library under ``paths``; its problems are an input error (exit 2)."""
    library, problems = _library(paths)
    if problems:
        _report_problems(problems)
        raise _Reported
    return library


def _target_language(lang: str) -> str:
    if lang == cards.SOURCE_LANGUAGE or lang not in glossary.LANGUAGES:
        targets = ", ".join(x for x in glossary.LANGUAGES if x != cards.SOURCE_LANGUAGE)
        raise UsageError(f"--lang {lang}: translations are into {targets}")
    return lang


def _config_options(
    languages: Sequence[str], paths: Sequence[str]
) -> tuple[lint.Options, Severity]:
    """Lint options from the configuration file (as ``translator lint`` reads them)."""
    path = lint_config.find_config()
    config = lint_config.load_config(path) if path else lint_config.Config()
    options = lint.Options(
        select=[c.upper() for c in config.select],
        ignore=[c.upper() for c in config.ignore],
        languages=list(languages),
        allow_english=config.allow_english,
        glossary_paths=[*config.glossary, *paths],
        settings=dict(config.settings),
    )
    return options, Severity(config.fail_on or "warning")


def _resources(
    languages: Sequence[str], paths: Sequence[str]
) -> tuple[lint.Resources, lint.Options, Severity]:
    options, fail_on = _config_options(languages, paths)
    problems: list[cards.Problem] = []
    resources = lint.load_resources(languages, options, problems)
    if problems:
        _report_problems(problems)
        raise _Reported
    return resources, options, fail_on


def cmd_translate(args: argparse.Namespace, out: TextIO) -> int:
    from .workflow import draft  # noqa: PLC0415

    lang = _target_language(args.lang)
    paths = list(args.paths) or ["cards"]
    library = _workflow_library(paths)
    resources, _, _ = _resources([lang], paths)
    drafts = draft.plan_drafts(library, resources, lang)
    written = []
    for made in drafts:
        if not args.dry_run:
            if Path(made.path).exists():
                print(f"translator: {made.path} appeared meanwhile: left alone", file=sys.stderr)
                continue
            atomic_write(made.path, made.content)
        written.append(made)
    if args.format == "json":
        json.dump(
            {
                "version": 1,
                "lang": lang,
                "dry_run": args.dry_run,
                "drafts": [d.to_dict() for d in written],
            },
            out,
            ensure_ascii=False,
            indent=2,
        )
        out.write("\n")
        return EXIT_OK
    for made in written:
        if args.dry_run:
            out.write(f"--- would create {made.path}\n{made.content}\n")
            continue
        english = ", ".join(made.english) or "nothing"
        out.write(
            f"created {made.path}: {_plural(len(made.filled), 'glossary fill')}; "
            f"in English: {english}\n"
        )
    verb = "would create" if args.dry_run else "created"
    translated = sum(
        1
        for card in library.cards.values()
        if card.source is not None and lang in card.translations
    )
    out.write(
        f"{_plural(len(written), 'draft')} {verb} in {lang}; "
        f"{translated} cards already had a translation (never overwritten)\n"
    )
    if written and not args.dry_run:
        out.write(
            f"next: translate what is left in English ('translator lint --lang {lang} "
            f"--select TR401' lists it), then 'translator review CARD --lang {lang}'\n"
        )
    return EXIT_OK


_STATE_COLORS = {
    "missing": "\033[31m",
    "stale": "\033[33m",
    "draft": "\033[36m",
    "translated": "",
    "reviewed": "\033[32m",
}


def _status_languages(library: cards.Library, langs: Sequence[str] | None) -> list[str]:
    if langs:
        return [_target_language(lang) for lang in dict.fromkeys(langs)]
    found = sorted({lang for card in library.cards.values() for lang in card.translations})
    return found or [x for x in glossary.LANGUAGES if x != cards.SOURCE_LANGUAGE]


def cmd_status(args: argparse.Namespace, out: TextIO) -> int:
    from .workflow import states  # noqa: PLC0415

    paths = list(args.paths) or ["cards"]
    library = _workflow_library(paths)
    if args.diff:
        return _status_diff(library, args, out)
    languages = _status_languages(library, args.lang)
    found = states.library_states(library, languages)
    table = states.summary(found)
    if args.format == "json":
        totals: dict[str, dict[str, int]] = {}
        for per_lang in table.values():
            for lang, counts in per_lang.items():
                total = totals.setdefault(lang, dict.fromkeys(states.STATES, 0))
                for state, count in counts.items():
                    total[state] += count
        json.dump(
            {
                "version": 1,
                "cards": [s.to_dict() for s in found],
                "summary": {
                    "cards": len({(s.deck, s.card) for s in found}),
                    "languages": totals,
                    "decks": table,
                },
            },
            out,
            ensure_ascii=False,
            indent=2,
        )
        out.write("\n")
        return EXIT_OK
    color = _use_color(out)
    for deck, per_lang in sorted(table.items()):
        count = len({s.card for s in found if s.deck == deck})
        out.write(f"{deck} ({_plural(count, 'card')})\n")
        out.write("  lang  " + "".join(f"{state:>12}" for state in states.STATES) + "\n")
        for lang, counts in sorted(per_lang.items()):
            out.write(
                f"  {lang:<4}  " + "".join(f"{counts[state]:>12}" for state in states.STATES) + "\n"
            )
        todo = [s for s in found if s.deck == deck and s.state in ("missing", "draft", "stale")]
        if todo:
            out.write("\n")
        for state in todo:
            what = state.state
            if state.state == "stale":
                what += (
                    f": the English {', '.join(state.changed)} changed"
                    if state.changed
                    else ": the English changed (old fingerprint format)"
                )
            if color and _STATE_COLORS[state.state]:
                what = f"{_STATE_COLORS[state.state]}{what}\033[0m"
            out.write(f"  {state.card} ({state.lang}) {what}\n")
        out.write("\n")
    stale = sum(1 for s in found if s.state == "stale")
    if stale:
        out.write(
            f"{_plural(stale, 'stale translation')}: 'translator status --diff CARD "
            "--lang LANG' shows what changed in English\n"
        )
    return EXIT_OK


def _one_card(library: cards.Library, reference: str) -> cards.Card:
    matches = [c for c in library.find(reference) if c.source is not None]
    if not matches:
        raise UsageError(f"no card '{reference}' (a slug, deck/slug, guid or card file path)")
    if len(matches) > 1:
        raise UsageError(f"'{reference}' names {len(matches)} cards: write deck/slug")
    return matches[0]


def _status_diff(library: cards.Library, args: argparse.Namespace, out: TextIO) -> int:
    from .workflow import states  # noqa: PLC0415

    if not args.lang or len(args.lang) != 1:
        raise UsageError("--diff needs one --lang: translator status --diff CARD --lang fr")
    lang = _target_language(args.lang[0])
    card = _one_card(library, args.diff)
    state = states.card_state(card, lang)
    changes = states.source_changes(card, lang)
    if args.format == "json":
        json.dump(
            {
                "version": 1,
                "card": card.slug,
                "lang": lang,
                "state": state.state,
                "changed": state.changed,
                "changes": [c.to_dict() for c in changes],
            },
            out,
            ensure_ascii=False,
            indent=2,
        )
        out.write("\n")
        return EXIT_OK
    if state.state != "stale":
        why = {
            "missing": f"there is no {lang} translation",
            "translated": "the English has not changed since it was translated"
            if state.fingerprint
            else "it has no source fingerprint (nothing to compare)",
        }.get(state.state, "the English has not changed since")
        out.write(f"{card.slug} ({lang}) is {state.state}: {why}\n")
        return EXIT_OK
    if not state.changed:
        out.write(
            f"{card.slug} ({lang}) is stale, but its fingerprint is of the old format: "
            "which fields changed cannot be told\n"
        )
        return EXIT_OK
    color = _use_color(out)
    for change in changes:
        where = f" (since {change.revision})" if change.revision else ""
        out.write(f"{card.slug} ({lang}): the English {change.unit} changed{where}\n")
        if change.old is None:
            out.write("  the text before is not known (not in git history); now:\n")
        out.write(textwrap.indent(_word_diff_text(change.words(), color), "  ") + "\n")
    out.write(
        f"when the translation says what the English says now: translator review "
        f"{card.slug} --lang {lang}\n"
    )
    return EXIT_OK


def _word_diff_text(pieces: list[tuple[str, str]], color: bool) -> str:
    """git's --word-diff styles: colours on a terminal, [-old-]{+new+} elsewhere."""
    parts = []
    for kind, text in pieces:
        if kind == "=":
            parts.append(text)
        elif color:
            parts.append(("\033[31m" if kind == "-" else "\033[32m") + text + "\033[0m")
        else:
            parts.append(f"[-{text}-]" if kind == "-" else f"{{+{text}+}}")
    return "".join(parts)


def cmd_review(args: argparse.Namespace, out: TextIO) -> int:
    from .cards.edit import EditError, edit_card  # noqa: PLC0415
    from .workflow import states  # noqa: PLC0415

    lang = _target_language(args.lang)
    paths = list(args.library or []) or ["cards"]
    library = _workflow_library(paths)
    chosen = [_one_card(library, reference) for reference in args.cards]
    missing = [c.slug for c in chosen if lang not in c.translations]
    if missing:
        raise UsageError(
            f"no {lang} translation of {', '.join(missing)}: 'translator translate' makes a draft"
        )
    resources, options, _ = _resources([lang], paths)
    options.files = {c.translations[lang].path for c in chosen}
    report = lint.lint(library, resources, options)
    errors: dict[str, int] = {}
    for finding in report.findings:
        if finding.severity == Severity.ERROR:
            errors[finding.card] = errors.get(finding.card, 0) + 1
    if report.findings and args.format == "text":
        lint_output.write_text(report, sys.stderr)
    held = [] if args.force else [c for c in chosen if c.slug in errors]
    for card in held:  # one card's errors do not hold the others back
        print(
            f"translator: {card.slug} not reviewed: {_plural(errors[card.slug], 'error')} "
            "to fix first (--force reviews anyway)",
            file=sys.stderr,
        )
    done = []
    for card in chosen:
        if card in held:
            continue
        version = card.translations[lang]
        state = states.card_state(card, lang)
        content = read_text(version.path)
        try:
            new = edit_card(version, content, states.review_changes(card, lang, reviewer=args.by))
        except EditError as error:
            raise InputError(version.path, str(error)) from None
        if not args.dry_run and new != content:
            atomic_write(version.path, new)
        done.append(
            {
                "card": card.slug,
                "lang": lang,
                "path": version.path,
                "was": state.state,
                "changed": state.changed,
                "written": new != content and not args.dry_run,
            }
        )
    result = EXIT_FINDINGS if held else EXIT_OK
    if args.format == "json":
        json.dump(
            {
                "version": 1,
                "reviewed": done,
                "dry_run": args.dry_run,
                "not_reviewed": [
                    {"card": c.slug, "lang": lang, "errors": errors[c.slug]} for c in held
                ],
                "findings": [f.as_dict() for f in report.findings],
            },
            out,
            ensure_ascii=False,
            indent=2,
        )
        out.write("\n")
        return result
    for item in done:
        was = (
            f" (was {item['was']}"
            + (f": the English {', '.join(item['changed'])} changed" if item["changed"] else "")
            + ")"
        )
        verb = "would mark" if args.dry_run else "marked"
        out.write(f"{verb} {item['path']} reviewed{was}\n")
    return result


def cmd_export_exchange(args: argparse.Namespace, out: TextIO) -> int:
    from .glossary.exchange import to_tbx  # noqa: PLC0415
    from .workflow import exchange  # noqa: PLC0415

    lang = _target_language(args.lang)
    library = _workflow_library([args.deck])
    deck_dir = Path(args.deck)
    deck = deck_dir.name if deck_dir.is_dir() else deck_dir.parent.name
    if deck not in library.decks:
        raise UsageError(f"{args.deck} is not a deck directory (it has no deck.yaml)")
    resources, _, _ = _resources([lang], [args.deck])
    found = exchange.entries(library, deck, lang, resources.language(lang), resources.english)
    data = exchange.write_store(found, args.subcommand, lang, deck, library.decks[deck].name)
    fuzzy = sum(1 for e in found if e.fuzzy)
    empty = sum(1 for e in found if not e.target)
    if args.output in (None, "-"):
        out.write(data.decode("utf-8"))
        return EXIT_OK
    output = Path(args.output)
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(str(output.parent), f"cannot create: {error.strerror}") from None
    atomic_write(str(output), data.decode("utf-8"))
    written = [str(output)]
    if not args.no_tbx:
        tbx = output.with_suffix(".tbx")
        atomic_write(
            str(tbx), to_tbx(resources.language(lang).glossary, resources.english.glossary)
        )
        written.append(str(tbx))
    print(
        f"wrote {' and '.join(written)}: {len(found)} entries "
        f"({fuzzy} fuzzy, {empty} untranslated)",
        file=sys.stderr,
    )
    return EXIT_OK


def cmd_import_exchange(args: argparse.Namespace, out: TextIO) -> int:
    from .workflow import exchange  # noqa: PLC0415

    # The file first: a file that cannot be imported says so before the library loads.
    store = exchange.read_exchange(args.file)
    lang = _target_language(args.lang) if args.lang else exchange.target_language(args.file, store)
    paths = list(args.library or []) or ["cards"]
    library = _workflow_library(paths)
    result = exchange.plan_import(args.file, library, lang, args.fuzzy, store)
    lang = _target_language(result.lang)
    # Lint the cards as they would be, before anything is written.
    for parsed in exchange.reparsed(result.updates):
        library.add(parsed)
    resources, options, fail_on = _resources([lang], paths)
    options.files = {u.path for u in result.updates}
    report = lint.lint(library, resources, options) if options.files else lint.Report([], 0, 0, 0)
    if not args.dry_run:
        for update in result.updates:
            atomic_write(update.path, update.new)
    if args.format == "json":
        json.dump(
            {
                "version": 1,
                "lang": lang,
                "dry_run": args.dry_run,
                "updated": [
                    {
                        "card": u.card.slug,
                        "path": u.path,
                        "created": u.old is None,
                        "units": u.units,
                        "confirmed": u.confirmed,
                    }
                    for u in result.updates
                ],
                "refused": [r.to_dict() for r in result.refused],
                "findings": [f.as_dict() for f in report.findings],
                "summary": {
                    "updated": len(result.updates),
                    "refused": len(result.refused),
                    "unchanged": result.unchanged,
                    "fuzzy_skipped": result.fuzzy_skipped,
                    "untranslated": result.untranslated,
                },
            },
            out,
            ensure_ascii=False,
            indent=2,
        )
        out.write("\n")
    else:
        verb = "would write" if args.dry_run else "wrote"
        for update in result.updates:
            what = (
                ", ".join(update.units)
                or "fingerprint (confirmed: " + ", ".join(update.confirmed) + ")"
            )
            created = " (new file)" if update.old is None else ""
            out.write(f"{verb} {update.path}{created}: {what}\n")
            if args.dry_run:
                out.write(
                    "".join(
                        difflib.unified_diff(
                            (update.old or "").splitlines(keepends=True),
                            update.new.splitlines(keepends=True),
                            f"a/{update.path}",
                            f"b/{update.path}",
                        )
                    )
                )
        for refusal in result.refused:
            print(f"translator: refused {refusal}", file=sys.stderr)
        if report.findings:
            out.write("\n")
            lint_output.write_text(report, out)
        out.write(
            f"{_plural(len(result.updates), 'card')} updated, "
            f"{len(result.refused)} {'entry' if len(result.refused) == 1 else 'entries'}"
            " refused, "
            f"{result.unchanged} unchanged, {result.fuzzy_skipped} fuzzy left out"
            f"{' (--fuzzy imports them as drafts)' if result.fuzzy_skipped else ''}, "
            f"{result.untranslated} untranslated\n"
        )
    return EXIT_FINDINGS if result.refused or report.failed(fail_on) else EXIT_OK


def cmd_review_sheet(args: argparse.Namespace, out: TextIO) -> int:
    from .review import sheet as review  # noqa: PLC0415
    from .typeset import build as typeset  # noqa: PLC0415 - WeasyPrint loads slowly

    paths = list(args.paths) or ["cards"]
    library = _workflow_library(paths)
    languages = _status_languages(library, args.lang)
    if not 24 <= args.dpi <= 300:
        raise UsageError("--dpi is between 24 and 300 (96: a screen; 150: zoom in)")
    size = _card_size(args.size)
    target = Path(args.out)
    build_dir = Path(args.build_dir) if args.build_dir else target / "build"
    resources, options, _ = _resources(languages, paths)
    build_options = typeset.BuildOptions(size, args.theme, args.icc, jobs=max(1, args.jobs))
    made = []
    with _print_errors(args.out):
        target.mkdir(parents=True, exist_ok=True)
        count = sum(1 for card in library.cards.values() if card.source is not None)
        total = 0 if args.no_renders else count * 2 * len(languages)
        with _Progress(args.format == "text", total) as step:
            for lang in languages:
                renders = None
                if not args.no_renders:
                    renders = review.render_cards(
                        library, lang, build_dir, build_options, args.dpi, step.advance, step.stage
                    )
                step.stage(f"sheets ({lang})")
                report = review.lint_report(library, resources, options, lang)
                for deck in sorted(library.decks):
                    page = review.make_sheet(
                        library, deck, lang, resources, options, renders, target, report
                    )
                    review.write_sheet(page, target)
                    made.append(page)
        index = review.write_index(made, target)
    if args.format == "json":
        json.dump(
            {
                "version": 1,
                "index": str(index),
                "sheets": [
                    {
                        **page.to_dict(),
                        "path": str(target / review.sheet_file(page.deck, page.lang)),
                    }
                    for page in made
                ],
            },
            out,
            ensure_ascii=False,
            indent=2,
        )
        out.write("\n")
        return EXIT_OK
    for page in made:
        states_ = ", ".join(f"{n} {s}" for s, n in page.states.items() if n)
        out.write(
            f"{target / review.sheet_file(page.deck, page.lang)}: "
            f"{_plural(len(page.rows), 'card')} ({states_}); "
            f"{page.with_findings} with findings, "
            f"{len(page.overflowing)} overflowing"
            + (
                ""
                if page.preflight is None
                else f"; deck preflight: {'passes' if not page.preflight else 'FAILS'}"
            )
            + "\n"
        )
    out.write(f"open {index}\n")
    return EXIT_OK


# --------------------------------------------------------------------------------------
# build


@contextmanager
def _print_errors(out: str) -> Iterator[None]:
    """What stops a print build, in one line each (exit 2): a theme, artwork or colour
    profile that cannot be used, an output directory that cannot be written."""
    from .typeset.artwork import ArtworkError  # noqa: PLC0415
    from .typeset.theme import ThemeError  # noqa: PLC0415

    try:
        yield
    except (ThemeError, ArtworkError, ValueError) as error:
        print(f"translator: {error}", file=sys.stderr)
        raise _Reported from None
    except OSError as error:
        # The file that could not be written (translator.atomic names the target, never
        # its temporary file), as under --out as it was typed, and why.
        name = error.filename
        where = (
            Path(os.fsdecode(name)) if isinstance(name, (str, bytes, os.PathLike)) else Path(out)
        )
        with suppress(OSError, ValueError):  # outside --out (the artwork cache, a theme)
            where = Path(out) / where.resolve().relative_to(Path(out).resolve())
        hint = (
            "free some space or choose another --out"
            if error.errno in _DISK_FULL
            else "choose another --out: a directory you can write to"
        )
        print(
            f"translator: cannot write {where}: {error.strerror or error} ({hint})", file=sys.stderr
        )
        raise _Reported from None


def _card_size(name: str) -> Any:
    from .typeset.sizes import card_size  # noqa: PLC0415

    try:
        return card_size(name)
    except ValueError as error:
        raise UsageError(str(error)) from error


def cmd_build(args: argparse.Namespace, out: TextIO) -> int:
    from .typeset import batch  # noqa: PLC0415 - WeasyPrint loads slowly
    from .typeset import build as typeset  # noqa: PLC0415

    size = _card_size(args.size)
    if not 0.2 <= args.floor <= 1.0:
        raise UsageError("--floor is a scale between 0.2 and 1.0 (the reference's 0.52)")
    if not 4.0 <= args.min_size <= 9.0:
        raise UsageError("--min-size is a text size between 4 and 9 points (default 6)")
    if not 24 <= args.dpi <= 1200:
        raise UsageError("--dpi is between 24 and 1200 (300 to review, 96 for thumbnails)")
    if not 0 <= args.gutter <= 20:
        raise UsageError("--gutter is between 0 and 20 mm")
    if args.sheet_backs and not args.sheets:
        raise UsageError("--sheet-backs goes with --sheets a4|letter")
    if not 0 <= args.margin <= 30:
        raise UsageError("--margin is between 0 and 30 mm (5: what most printers leave)")
    if args.sheets:
        from .typeset import assemble  # noqa: PLC0415

        fault = assemble.layout_fault(size, args.sheets, args.gutter, args.margin)
        if fault is not None:
            raise UsageError(f"--sheets {args.sheets}: {fault}")
    library, problems = _library(args.paths)
    if problems:
        _report_problems(problems)
        return EXIT_ERROR
    langs = batch.languages(args.lang, library)
    present = set(batch.languages(["all"], library))
    unknown = [lang for lang in langs if lang not in present]
    if unknown:
        raise UsageError(
            f"--lang {unknown[0]}: no card is in that language here; "
            f"one of {', '.join(sorted(present))} or all"
        )
    if not 100 <= args.ink_limit <= 400:
        raise UsageError("--ink-limit is a total ink coverage between 100 and 400 (%)")
    slugs = {card.slug for card in library.cards.values() if card.source is not None}
    for slug in args.card or []:
        if slug not in slugs:
            close = difflib.get_close_matches(slug, sorted(slugs), n=1)
            raise UsageError(
                f"--card {slug}: no such card in {', '.join(args.paths or ['cards'])}"
                + (f" (did you mean {close[0]}?)" if close else "")
            )
    options = typeset.BuildOptions(
        size,
        args.theme,
        args.icc,
        args.floor,
        args.allow_overflow,
        max(1, args.jobs),
        ink_limit=args.ink_limit,
        min_size=args.min_size,
    )
    request = batch.Request(
        langs,
        Path(args.out),
        options,
        slugs=list(args.card or []),
        force=args.force,
        deck=args.deck,
        backs=args.backs,
        sheets=args.sheets,
        gutter=args.gutter,
        margin=args.margin,
        sheet_backs=args.sheet_backs,
        previews=[kind for kind in ("png", "webp") if getattr(args, kind)],
        dpi=args.dpi,
        check=not args.no_preflight,
    )
    with (
        _print_errors(args.out),
        _Progress(args.format == "text", batch.total_cards(library, request)) as step,
    ):
        report = batch.produce(library, request, step.advance, step.stage)
    for result in report.cards:
        _report_card(result)
    for problem in report.problems:
        print(f"translator: preflight: {problem}", file=sys.stderr)
    failed = [r for r in report.cards if r.failed]
    if args.format == "json":
        json.dump(_build_json(report), out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        out.write(_build_summary(report, len(langs), args.out, failed) + "\n")
    return EXIT_FINDINGS if failed or report.errors or report.missing else EXIT_OK


def _report_card(result: Any) -> None:
    """A card's warnings and why it was not printed, on stderr."""
    for warning in result.warnings:
        print(f"translator: warning: {warning}", file=sys.stderr)
    if result.missing_glyphs:
        print(
            f"translator: {result.slug} ({result.lang}): the card font lacks "
            f"{', '.join(result.missing_glyphs)}: another font would print it; "
            "use another character or a theme font that has it",
            file=sys.stderr,
        )
    for error in result.errors:
        print(f"translator: {error}", file=sys.stderr)


def _build_summary(report: Any, languages: int, out: str, failed: list) -> str:
    cards_done = len(report.cards)
    rendered = sum(1 for r in report.cards if r.path and not r.reused)
    line = (
        f"{_plural(cards_done, 'card')} in {_plural(languages, 'language')} "
        f"({rendered} rendered, {cards_done - rendered - len(failed)} up to date"
        + (f", {len(failed)} not printable" if failed else "")
        + "); "
        f"{_plural(len(report.files), 'print file')}"
        + (f" and {_plural(len(report.images), 'preview')}" if report.images else "")
        + f", {_plural(report.pages, 'page')}, in {out} in {report.seconds:.1f} s; "
        f"{_plural(len(report.warnings), 'warning')}; "
    )
    errors = report.errors
    if errors:
        files = len({p.path for p in errors})
        line += f"preflight: {_plural(len(errors), 'problem')} in {_plural(files, 'file')}."
    else:
        line += "preflight: every file passes."
    # Deck and sheet files a failed card kept from being made (the old ones are gone).
    return "\n".join([line, *(str(missing) for missing in report.missing)])


def _build_json(report: Any) -> dict[str, Any]:
    return {
        "version": 1,
        "cards": [
            {
                "card": r.slug,
                "lang": r.lang,
                "pdf": r.path,
                "scale": r.scale,
                "overflow_mm": None if r.overflow is None else round(r.overflow, 2),
                "missing_glyphs": r.missing_glyphs,
                "errors": r.errors,
                "warnings": r.warnings,
                "reused": r.reused,
                "min_size_pt": None if r.min_size is None else round(r.min_size, 2),
                "elements": r.elements,
            }
            for r in report.cards
        ],
        "files": report.files,
        "images": report.images,
        "missing": [m.to_dict() for m in report.missing],
        "preflight": [p.to_dict() for p in report.problems],
        "summary": {
            "cards": len(report.cards),
            "files": len(report.files),
            "made": report.made,
            "pages": report.pages,
            "seconds": round(report.seconds, 2),
            "warnings": len(report.warnings),
            "preflight_errors": len(report.errors),
            "missing": len(report.missing),
        },
    }


class _Progress:
    """A progress bar on a terminal (rich, on stderr), nothing otherwise: logs stay
    quiet.  ``advance`` counts cards done; ``stage`` names what is being done."""

    def __init__(self, wanted: bool, total: int) -> None:
        self.bar: Any = None
        if wanted and sys.stderr.isatty() and total:
            from rich.progress import (  # noqa: PLC0415
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self.bar = Progress(
                TextColumn("{task.description:<16}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                transient=True,
            )
            self.task = self.bar.add_task("cards", total=total)

    def advance(self, count: int) -> None:
        if self.bar is not None:
            self.bar.advance(self.task, count)

    def stage(self, text: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, description=text)

    def __enter__(self) -> _Progress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def cmd_preflight(args: argparse.Namespace, out: TextIO) -> int:
    from .typeset import preflight  # noqa: PLC0415

    size = _card_size(args.size) if args.size else None
    if not 100 <= args.ink_limit <= 400:
        raise UsageError("--ink-limit is a total ink coverage between 100 and 400 (%)")
    for name in args.files:  # nothing to check at all: an input error, before any check
        fault = preflight.input_fault(name)
        if fault is not None:
            raise InputError(name, fault)
    return preflight.run(args.files, size=size, ink_limit=args.ink_limit, fmt=args.format, out=out)


# --------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="translator",
        **_help(
            "Translation and typesetting toolchain for Arcmage cards.",
            "translator markup check cards/",
        ),
    )
    parser.add_argument("--version", action="version", version=f"translator {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    group = commands.add_parser(
        "markup",
        help="card text: convert, format, check",
        **_help(
            "Read card text (Aminduna's markdown dialect) exactly as the Arcmage server does.",
            "translator markup check cards/sample/",
        ),
    )
    sub = group.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser(
        "xml",
        help="card text -> Aminduna layout XML",
        **_help(
            "Print the layout XML Aminduna makes from card text (files, directories or -).",
            "translator markup xml cards/sample/flame-lash.en.md",
        ),
    )
    p.add_argument(
        "files", nargs="*", metavar="FILE", help="card text files or directories; - for stdin"
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_xml)

    p = sub.add_parser(
        "markdown",
        help="layout XML -> card text (the reference's reverse)",
        **_help(
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
        **_help(
            "Print the plain ruleText and flavorText Aminduna derives from card text.",
            "translator markup rules --lang fr cards/sample/harbor-lord.fr.md",
        ),
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE")
    p.add_argument("--lang", choices=markup.LANGUAGES, default="en")
    p.set_defaults(run=cmd_rules)

    p = sub.add_parser(
        "html",
        help="card text -> HTML fragment (escaped)",
        **_help(
            "Print the card text as an HTML fragment for the print templates.",
            "translator markup html cards/sample/flame-lash.en.md",
        ),
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE")
    p.set_defaults(run=cmd_html)

    p = sub.add_parser(
        "format",
        help="canonical spelling of card text, same layout",
        **_help(
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
        **_help(
            "Report what Aminduna will read differently from what the author meant: stray "
            "colons, unknown codes, dropped markdown, vanishing spaces, ...",
            "translator markup check --select MK1,MK2 cards/sample/",
        ),
    )
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--format", choices=("text", "json"), default="text")
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

    p = commands.add_parser(
        "lint",
        help="check translations against their English cards",
        **_help(
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
    p.add_argument("--format", choices=lint_output.FORMATS, default="text")
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

    p = commands.add_parser(
        "build",
        help="typeset cards into print-ready CMYK PDFs",
        **_help(
            "Write one PDF per card: vector text in embedded fonts, "
            "CMYK colours and artwork, trim and bleed boxes, the ICC "
            "profile as output intent; text shrunk to fit, never "
            "cut silently.",
            "translator build cards/sample --lang all --deck --sheets a4 --out out/",
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="library or deck (default: cards)")
    p.add_argument(
        "--lang",
        action="append",
        metavar="LANG",
        help="a language to print: en, fr, eo, or all (repeatable; default: en)",
    )
    p.add_argument("--out", default="out", metavar="DIR", help="where the PDFs go (default: out)")
    p.add_argument("--card", action="append", metavar="SLUG", help="only this card (repeatable)")
    p.add_argument(
        "--size",
        default="arcmage",
        help="arcmage (64 x 90 mm, 2 mm bleed; the default), poker (63 x 88 mm, "
        "3 mm bleed) or WxH+B in mm",
    )
    p.add_argument("--theme", metavar="DIR", help="a theme directory (default: translator's)")
    p.add_argument(
        "--icc", metavar="FILE", help="the CMYK ICC profile (default: Ghostscript's SWOP profile)"
    )
    p.add_argument(
        "--floor",
        type=float,
        default=0.52,
        help="smallest text scale when fitting (default: 0.52, as the reference; "
        "raised so that nothing is under --min-size)",
    )
    p.add_argument(
        "--min-size",
        type=float,
        default=6.0,
        metavar="PT",
        help="the smallest text size printed, in points (default: 6): the text's "
        "and the names' shrink floors follow it",
    )
    p.add_argument(
        "--allow-overflow",
        action="store_true",
        help="print cards whose text, name or type line does not fit even at the "
        "floor (cut at the box; counted as warnings)",
    )
    p.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)"
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="rebuild everything (default: only what changed since the last build into --out)",
    )
    p.add_argument(
        "--deck",
        action="store_true",
        help="also one PDF per deck and language for print on demand: each card "
        "by its quantity, with backs",
    )
    p.add_argument(
        "--backs",
        choices=("duplex", "end", "none"),
        default="duplex",
        help="in --deck files: a back after each card (default), all at the end, or none",
    )
    p.add_argument(
        "--sheets",
        choices=("a4", "letter"),
        help="also print-and-play sheets: 3 x 3 cards a page, crop marks",
    )
    p.add_argument(
        "--gutter",
        type=float,
        default=0.0,
        metavar="MM",
        help="space between cards on sheets (default: 0, one cut between cards; "
        "else at least 2, room for crop marks)",
    )
    p.add_argument(
        "--margin",
        type=float,
        default=5.0,
        metavar="MM",
        help="the sheet's outer margin the printer cannot print (default: 5): "
        "cards and crop marks stay inside it",
    )
    p.add_argument(
        "--sheet-backs",
        action="store_true",
        help="a mirrored sheet of backs after each sheet (long-edge duplex)",
    )
    p.add_argument("--png", action="store_true", help="also PNG previews in DIR/png/")
    p.add_argument("--webp", action="store_true", help="also WebP previews in DIR/webp/")
    p.add_argument(
        "--dpi",
        type=float,
        default=300,
        help="preview resolution (default: 300 to review; 96 for thumbnails)",
    )
    p.add_argument(
        "--ink-limit",
        type=float,
        default=300,
        metavar="PERCENT",
        help="the printer's total ink limit (default: 300): artwork is "
        "converted under it, the preflight holds every file to it",
    )
    p.add_argument("--no-preflight", action="store_true", help="do not check the files written")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_build)

    p = commands.add_parser(
        "preflight",
        help="check that PDFs are ready to print",
        **_help(
            "Check print PDFs: CMYK only, fonts embedded and subset, total ink at most the limit "
            "(on rendered separations), images at least 300 ppi, trim and bleed boxes, an output "
            "intent.  Names the page, card and object at fault; exit 1 when a file fails.",
            "translator preflight out/sample.fr.deck.pdf --size arcmage",
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE.pdf")
    p.add_argument(
        "--size",
        help="the card size the pages must have (arcmage, poker or WxH+B); "
        "default: only check that the boxes are consistent",
    )
    p.add_argument(
        "--ink-limit",
        type=float,
        default=300,
        metavar="PERCENT",
        help="highest total ink coverage (default: 300)",
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_preflight)

    p = commands.add_parser(
        "translate",
        help="draft translations from the glossary",
        **_help(
            "Create a draft translation for every English card that has none in LANG: the "
            "glossary fills the subtype, the footer, ability names and reminders, and game "
            "terms in bold; the rest stays in English, marked (wip: true, status Draft) so that "
            "'translator lint' reports it as untranslated (TR401).  A translation that exists "
            "is never touched.",
            "translator translate cards/sample --lang eo --dry-run",
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="library or deck (default: cards)")
    p.add_argument("--lang", required=True)
    p.add_argument("--dry-run", action="store_true", help="print the drafts, write nothing")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_translate)

    p = commands.add_parser(
        "status",
        help="missing, draft, translated, reviewed, stale",
        **_help(
            "Count, per deck and language, the cards whose translation is missing, a draft, "
            "translated, reviewed, or stale (the English changed since it was made or "
            "reviewed), and list those that need work.  --diff shows, word by word, what "
            "changed in the English card since (the old text comes from git).",
            "translator status cards/ --lang fr\n  translator status --diff courier --lang fr",
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="library or deck (default: cards)")
    p.add_argument("--lang", action="append", help="a language (repeatable; default: all)")
    p.add_argument("--diff", metavar="CARD", help="what changed in this card's English")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_status)

    p = commands.add_parser(
        "review",
        help="mark translations reviewed",
        **_help(
            "Mark translations reviewed against the current English card: the date goes in "
            "'reviewed', the source fingerprint is refreshed (the card is no longer stale) and "
            "'wip' is removed.  The cards are linted first; errors stop the review (--force).",
            "translator review courier harbor-lord --lang fr --by Ana",
        ),
    )
    p.add_argument("cards", nargs="+", metavar="CARD", help="slug, deck/slug, guid or path")
    p.add_argument("--lang", required=True)
    p.add_argument(
        "--library", action="append", metavar="PATH", help="the card library (default: cards)"
    )
    p.add_argument("--by", metavar="NAME", help="who reviewed (recorded as 'reviewer')")
    p.add_argument("--force", action="store_true", help="review despite lint errors")
    p.add_argument("--dry-run", action="store_true", help="say what would be marked")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_review)

    p = commands.add_parser(
        "review-sheet",
        help="HTML pages for proofreaders",
        **_help(
            "Write a static HTML page per deck and language (and an index): each card as "
            "printed in English and in LANG side by side, the texts side by side with numbers, "
            "symbols and glossary terms marked, the lint findings with their fixes, the state "
            "and the sign-off command; filters, search, keyboard navigation (n, p, /), a print "
            "stylesheet; on top, counts by state and rule, overflowing cards and the deck "
            "PDF's preflight.  Opens from disk, no server.",
            "translator review-sheet cards/sample --lang fr --out out/review/",
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="library or deck (default: cards)")
    p.add_argument(
        "--lang", action="append", help="a language (repeatable; default: those of the library)"
    )
    p.add_argument("--out", default="out/review", help="where to write (default: out/review)")
    p.add_argument(
        "--build-dir",
        metavar="DIR",
        help="where the renders are made and kept between runs (default: OUT/build)",
    )
    p.add_argument("--dpi", type=float, default=96, help="render resolution (default: 96)")
    p.add_argument("--no-renders", action="store_true", help="texts and findings only")
    p.add_argument("--size", default="arcmage", help="card size (default: arcmage)")
    p.add_argument("--theme", metavar="DIR", help="a theme directory")
    p.add_argument("--icc", metavar="FILE", help="the printer's CMYK profile")
    p.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="render processes (default: one per core)",
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_review_sheet)

    group = commands.add_parser(
        "cards",
        help="the card library: check, list, show",
        **_help(
            "Card files (cards/<deck>/<slug>.<lang>.md) and decks (deck.yaml).",
            "translator cards list cards/",
        ),
    )
    sub = group.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", parser_class=_Parser)
    sub.required = True
    p = sub.add_parser(
        "check",
        help="validate card files and decks (exit 2 on problems)",
        **_help(
            "Check every card file and deck under the paths: front matter, "
            "values, sources, guids, artwork, deck lists.",
            "translator cards check cards/",
        ),
    )
    p.add_argument(
        "paths", nargs="*", metavar="PATH", help="library, deck or card (default: cards)"
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_cards_check)
    p = sub.add_parser(
        "list",
        help="a table per deck and language",
        **_help(
            "List the cards of each deck, per language: name, type, faction, status, translated.",
            "translator cards list --lang fr cards/sample",
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--lang", help="only this language")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_cards_list)
    p = sub.add_parser(
        "show",
        help="one card, its source and translations side by side",
        **_help(
            "Show one card in every language; inherited fields are marked.",
            "translator cards show storm-hawk",
        ),
    )
    p.add_argument("card", metavar="CARD", help="slug, deck/slug, guid or card file path")
    p.add_argument(
        "--library", action="append", metavar="PATH", help="where to look (default: cards)"
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_cards_show)

    group = commands.add_parser(
        "import",
        help="import cards (Aminduna) or translations (PO)",
        **_help(
            "Import cards from Aminduna's JSON, or translations from PO and XLIFF files.",
            "translator import arcmage deck.json --into cards/sample",
        ),
    )
    sub = group.add_subparsers(dest="subcommand", metavar="FORMAT", parser_class=_Parser)
    sub.required = True
    p = sub.add_parser(
        "arcmage",
        help="Aminduna JSON files",
        **_help(
            "Import Aminduna JSON into a deck directory.  Translations go next to their source "
            "(found by masterCard guid, in the import or the library); re-importing updates "
            "files in place and keeps local-only fields; nothing is written if anything fails.",
            "translator import arcmage keeper.json keeper.fr.json --into cards/sample",
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--into", required=True, metavar="DECK_DIR")
    p.add_argument(
        "--library",
        metavar="ROOT",
        help="the library to search for existing cards (default: DECK_DIR/..)",
    )
    p.set_defaults(run=cmd_import)
    for kind, suffix in (("po", "po"), ("xliff", "xlf")):
        p = sub.add_parser(
            kind,
            help=f"translations from a {kind.upper()} file (Poedit, Weblate)",
            **_help(
                f"Write the translations of a {kind.upper()} file (made by 'translator export "
                f"{kind}') back into the card files: only changed entries; empty and fuzzy "
                "ones change nothing; entries whose English changed since the export, or that "
                "break the card markup, are refused and listed; the cards are linted.  A "
                "translated, non-fuzzy entry counts as checked against the current English "
                "(a stale card confirmed in Weblate is no longer stale).",
                f"translator import {kind} deck.fr.{suffix} --library cards",
            ),
        )
        p.add_argument("file", metavar="FILE")
        p.add_argument(
            "--library", action="append", metavar="PATH", help="the card library (default: cards)"
        )
        p.add_argument("--lang", help="the translation language (default: the file's)")
        p.add_argument(
            "--fuzzy", action="store_true", help="import fuzzy entries too, as drafts (wip)"
        )
        p.add_argument(
            "--dry-run", action="store_true", help="show the changes as a diff, write nothing"
        )
        p.add_argument("--format", choices=("text", "json"), default="text")
        p.set_defaults(run=cmd_import_exchange)

    group = commands.add_parser(
        "export",
        help="export a deck (Aminduna, PO, XLIFF)",
        **_help(
            "Export a deck in Aminduna's JSON shape, or its translatable text as PO or XLIFF.",
            "translator export arcmage cards/sample --lang fr -o deck.fr.json",
        ),
    )
    sub = group.add_subparsers(dest="subcommand", metavar="FORMAT", parser_class=_Parser)
    sub.required = True
    p = sub.add_parser(
        "arcmage",
        help="Aminduna JSON and deck.txt",
        **_help(
            "Write the deck as Aminduna's deck JSON (cards with markdownText, ruleText, "
            "flavorText, names, stats, language, masterCard) and OUTPUT.txt in deck.txt format.",
            "translator export arcmage cards/sample --lang fr -o deck.fr.json",
        ),
    )
    p.add_argument("deck", metavar="DECK_DIR")
    p.add_argument("--lang", default="en")
    p.add_argument("-o", "--output", metavar="OUTPUT.json", help="default: standard output")
    p.set_defaults(run=cmd_export)
    for kind, suffix in (("po", "po"), ("xliff", "xlf")):
        p = sub.add_parser(
            kind,
            help=f"a deck's translatable text as {kind.upper()} (Poedit, Weblate)",
            **_help(
                f"Write a {kind.upper()} file with one entry per translatable unit of the deck's "
                "cards (name lines, subtype, rule text, flavour, a footer of their own): the "
                "card and unit as context, the English as source, the translation as target, "
                "the card's type, faction and glossary words as notes; stale and draft entries "
                "are fuzzy.  The glossary goes with it as OUTPUT.tbx, for Weblate's glossary.",
                f"translator export {kind} cards/sample --lang fr -o sample.fr.{suffix}",
            ),
        )
        p.add_argument("deck", metavar="DECK_DIR")
        p.add_argument("--lang", required=True)
        p.add_argument(
            "-o",
            "--output",
            metavar=f"OUTPUT.{suffix}",
            help="default: standard output (no TBX then)",
        )
        p.add_argument("--no-tbx", action="store_true", help="do not write OUTPUT.tbx")
        p.set_defaults(run=cmd_export_exchange)

    group = commands.add_parser(
        "theme",
        help="print themes: import the official look",
        **_help(
            "Themes for translator build --theme.", "translator theme import-arcmage ~/src/arcmage"
        ),
    )
    sub = group.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", parser_class=_Parser)
    sub.required = True
    p = sub.add_parser(
        "import-arcmage",
        help="the official card look, from a template set",
        **_help(
            "Make a theme that prints the official Arcmage cards' look (their frames, back, "
            "layout and symbol font) from an official template set: a clone of "
            "wtactics/arcmage, its wwwroot/arcmage folder, or the https:// address of an "
            "Aminduna server (downloaded with a progress bar, verified, cached).  Without "
            "--out the theme goes to the user's themes folder, and builds use it with "
            "--theme arcmage.",
            "translator theme import-arcmage https://aminduna.arcmage.org/arcmage/",
        ),
    )
    p.add_argument(
        "source",
        metavar="SOURCE",
        help="a folder shaped like wwwroot/arcmage, or an https:// address",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="the theme directory (default: the user's themes folder, arcmage)",
    )
    p.add_argument(
        "--cache", metavar="DIR", help="where downloads are kept (default: the user's cache folder)"
    )
    p.add_argument(
        "--icc",
        metavar="PROFILE.icc",
        help="the CMYK profile the layout's colours are converted with",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_theme_import_arcmage)

    group = commands.add_parser(
        "glossary",
        help="the lexicons: look up, export, check",
        **_help(
            "The French Lexique, the Esperanto Leksikono and the abilities lists, as data.",
            "translator glossary lookup army --lang eo",
        ),
    )
    sub = group.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", parser_class=_Parser)
    sub.required = True
    p = sub.add_parser(
        "lookup",
        help="find a term (English or target, any form)",
        **_help(
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
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_glossary_lookup)
    p = sub.add_parser(
        "export",
        help="TBX (for Weblate, translate-toolkit) or CSV",
        **_help(
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
        **_help(
            "Check the glossary files (format: exit 2) and their consistency (duplicates, one "
            "target for two English terms, deprecated yet preferred, unknown references: exit 1).",
            "translator glossary check --lang fr",
        ),
    )
    p.add_argument("--lang", choices=glossary.LANGUAGES)
    p.add_argument("--library", action="append", metavar="PATH")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_glossary_check)
    return parser


def _check_languages(args: argparse.Namespace) -> None:
    """Every command refuses a language it does not know (exit 2): ``--lang fe`` must
    not lint nothing and report "no findings"."""
    given = getattr(args, "lang", None)
    values = given if isinstance(given, list) else [given] if given else []
    known = [*glossary.LANGUAGES]
    for value in values:
        for lang in str(value).split(","):
            if lang.strip() not in (*known, "all"):
                raise UsageError(
                    f"--lang {lang.strip()}: unknown language (known: {', '.join(known)})"
                )


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    # Card text is untrusted: what reaches a terminal never holds a raw escape sequence.
    sys.stdout = PrintableStream.around(sys.stdout)
    sys.stderr = PrintableStream.around(sys.stderr)
    out = PrintableStream.around(out or sys.stdout)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        _check_languages(args)
        run: Callable[[argparse.Namespace, TextIO], int] = args.run
        return run(args, out)
    except UsageError as error:
        print(f"translator: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except InputError as error:
        print(f"translator: {error}", file=sys.stderr)
        return EXIT_ERROR
    except _Reported:
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("translator: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except OSError as error:  # a file that cannot be read or written, wherever it is
        where = error.filename or "translator"
        hint = (
            "free some space" if error.errno in _DISK_FULL else "check the path and its permissions"
        )
        print(f"translator: {where}: {error.strerror or error}: {hint}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
