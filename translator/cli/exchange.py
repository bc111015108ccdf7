"""``translator import`` and ``translator export``: cards in and out of Aminduna's
JSON, translations in and out of PO and XLIFF files (Poedit, Weblate)."""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import TextIO

from . import memory as tmx_commands
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
    reports,
    write_named,
)
from .output import plural

#: The exchange formats and the suffix of their files.
_EXCHANGE_FORMATS = (("po", "po"), ("xliff", "xlf"))


def cmd_import(args: argparse.Namespace, out: TextIO) -> int:
    """``import arcmage``: Aminduna JSON into a deck directory, all or nothing."""
    try:
        plan = api.import_arcmage(args.files, args.into, library=args.library)
    except api.ImportError_ as error:
        for problem in error.problems:
            print(f"translator: {problem}", file=sys.stderr)
        print("translator: nothing was imported; the library is unchanged", file=sys.stderr)
        return EXIT_ERROR
    for rename in plan.renamed:
        out.write(f"renamed {rename}\n")
    for label, paths in (("created", plan.created), ("updated", plan.updated)):
        for path in paths:
            out.write(f"{label} {path}\n")
    out.write(
        f"{len(plan.created)} created, {len(plan.updated)} updated, "
        f"{len(plan.unchanged)} unchanged\n"
    )
    return EXIT_OK


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    """``export arcmage``: a deck as Aminduna's JSON, and its ``deck.txt``."""
    export = api.export_arcmage(args.deck, args.lang, output=args.output)
    if export.problems:
        report_problems(export.problems)
        return EXIT_ERROR
    if not export.files:
        out.write(export.text)
        return EXIT_OK
    print(f"wrote {' and '.join(write_named(export.files))}", file=sys.stderr)
    return EXIT_OK


def cmd_export_exchange(args: argparse.Namespace, out: TextIO) -> int:
    """``export po|xliff``: a deck's translatable text, and the glossary as TBX."""
    export = api.export_exchange(
        args.deck,
        args.lang,
        args.subcommand,
        output=args.output,
        memory=not args.no_memory,
        tbx=not args.no_tbx,
    )
    if not export.files:
        out.write(export.data.decode("utf-8"))
        return EXIT_OK
    written = write_named(export.files)
    print(
        f"wrote {' and '.join(written)}: {len(export.entries)} entries "
        f"({export.fuzzy} fuzzy, {export.empty} untranslated; {export.suggested} with "
        "translation memory suggestions)",
        file=sys.stderr,
    )
    return EXIT_OK


def cmd_import_exchange(args: argparse.Namespace, out: TextIO) -> int:
    """``import po|xliff``: translations back into the card files, linted first."""
    done = api.import_exchange(
        args.file, lang=args.lang, library=args.library, fuzzy=args.fuzzy, dry_run=args.dry_run
    )
    result, lang, report = done.result, done.lang, done.report
    if args.format == "json":
        output.dump_json(
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
                        "review_removed": u.unreviewed,
                    }
                    for u in result.updates
                ],
                "review_removed": [u.card.slug for u in result.updates if u.unreviewed],
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
        )
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
        unreviewed = [u.card.slug for u in result.updates if u.unreviewed]
        if unreviewed:
            removes = "would remove" if args.dry_run else "removed"
            out.write(
                f"{removes} the review mark of {plural(len(unreviewed), 'card')} whose text "
                f"changed (review again: 'translator review CARD --lang {lang}'): "
                f"{', '.join(unreviewed)}\n"
            )
        for refusal in result.refused:
            print(f"translator: refused {refusal}", file=sys.stderr)
        if report.findings:
            out.write("\n")
            reports.write_text(report, out)
        out.write(
            f"{plural(len(result.updates), 'card')} updated, "
            f"{len(result.refused)} {'entry' if len(result.refused) == 1 else 'entries'}"
            " refused, "
            f"{result.unchanged} unchanged, {result.fuzzy_skipped} fuzzy left out"
            f"{' (--fuzzy imports them as drafts)' if result.fuzzy_skipped else ''}, "
            f"{result.untranslated} untranslated\n"
        )
    return EXIT_FINDINGS if done.failed else EXIT_OK


def register(commands: argparse._SubParsersAction) -> None:
    """``translator import`` and ``translator export``, each with its formats."""
    _register_import(commands)
    _register_export(commands)


def _register_import(commands: argparse._SubParsersAction) -> None:
    sub = command_group(
        commands,
        "import",
        "import cards (Aminduna) or translations (PO)",
        "Import cards from Aminduna's JSON, or translations from PO and XLIFF files.",
        "translator import arcmage deck.json --into cards/sample",
        metavar="FORMAT",
    )
    p = sub.add_parser(
        "arcmage",
        help="Aminduna JSON files",
        **command_help(
            "Import Aminduna JSON into a deck directory.  Translations go next to their source "
            "(found by masterCard guid, in the import or the library); re-importing updates "
            "files in place and keeps local-only fields; a card whose slug is taken gets the "
            "next free one (each rename is listed); a card that lives in another deck is "
            "refused (import it into that deck); nothing is written if anything fails.",
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
    for kind, suffix in _EXCHANGE_FORMATS:
        p = sub.add_parser(
            kind,
            help=f"translations from a {kind.upper()} file (Poedit, Weblate)",
            **command_help(
                f"Write the translations of a {kind.upper()} file (made by 'translator export "
                f"{kind}') back into the card files: only changed entries; empty and fuzzy "
                "ones change nothing; entries whose English changed since the export, that "
                "break the card markup, or that repeat the flavour in the rule text (or the "
                "reverse), are refused and listed; the cards are linted; cards whose text "
                "changed lose their review mark, listed.  A "
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
        add_format(p)
        p.set_defaults(run=cmd_import_exchange)
    tmx_commands.register_import(sub)


def _register_export(commands: argparse._SubParsersAction) -> None:
    sub = command_group(
        commands,
        "export",
        "export a deck (Aminduna, PO, XLIFF)",
        "Export a deck in Aminduna's JSON shape, or its translatable text as PO or XLIFF.",
        "translator export arcmage cards/sample --lang fr -o deck.fr.json",
        metavar="FORMAT",
    )
    p = sub.add_parser(
        "arcmage",
        help="Aminduna JSON and deck.txt",
        **command_help(
            "Write the deck as Aminduna's deck JSON (cards with markdownText, ruleText, "
            "flavorText, names, stats, language, masterCard) and OUTPUT.txt in deck.txt format.",
            "translator export arcmage cards/sample --lang fr -o deck.fr.json",
        ),
    )
    p.add_argument("deck", metavar="DECK_DIR")
    p.add_argument("--lang", default="en")
    p.add_argument("-o", "--output", metavar="OUTPUT.json", help="default: standard output")
    p.set_defaults(run=cmd_export)
    for kind, suffix in _EXCHANGE_FORMATS:
        p = sub.add_parser(
            kind,
            help=f"a deck's translatable text as {kind.upper()} (Poedit, Weblate)",
            **command_help(
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
        p.add_argument(
            "--no-memory",
            action="store_true",
            help="no translation memory suggestions for the untranslated entries",
        )
        p.set_defaults(run=cmd_export_exchange)
    tmx_commands.register_export(sub)
