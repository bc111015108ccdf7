"""The translation workflow: ``translator translate`` (drafts from the glossary),
``translator status`` (what is missing, draft, stale...) and ``translator review``
(sign-off)."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TextIO

from . import output
from .common import (
    EXIT_FINDINGS,
    EXIT_OK,
    UsageError,
    add_format,
    api,
    command_help,
    reports,
)
from .output import plural


def cmd_translate(args: argparse.Namespace, out: TextIO) -> int:
    """``translate``: a draft for every English card without a translation in LANG."""
    made_drafts = api.translate(
        args.paths, lang=args.lang, memory=not args.no_memory, dry_run=args.dry_run
    )
    for path in made_drafts.appeared:
        print(f"translator: {path} appeared meanwhile: left alone", file=sys.stderr)
    lang, written = made_drafts.lang, made_drafts.drafts
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "lang": lang,
                "dry_run": args.dry_run,
                "memory": made_drafts.memory,
                "drafts": [d.to_dict() for d in written],
            },
            out,
        )
        return EXIT_OK
    for made in written:
        if args.dry_run:
            out.write(f"--- would create {made.path}\n{made.content}\n")
            continue
        english = ", ".join(made.english) or "nothing"
        from_memory = f", {len(made.memory)} from memory" if made.memory else ""
        out.write(
            f"created {made.path}: {plural(len(made.filled), 'glossary fill')}{from_memory}; "
            f"in English: {english}\n"
        )
    verb = "would be created" if args.dry_run else "created"
    translated = made_drafts.translated
    out.write(
        f"{plural(len(written), 'draft')} {verb} in {lang}; "
        f"{translated} cards already had a translation (never overwritten)\n"
    )
    recalled = sum(len(made.memory) for made in written)
    if recalled:
        out.write(
            f"{plural(recalled, 'part')} taken from the translation memory (listed under "
            "'memory:' in each draft: check they fit the card)\n"
        )
    if written and not args.dry_run:
        out.write(
            f"next: translate what is left in English ('translator lint --lang {lang} "
            f"--select TR401' lists it), then 'translator review CARD --lang {lang}'\n"
        )
    return EXIT_OK


def cmd_status(args: argparse.Namespace, out: TextIO) -> int:
    """``status``: per deck and language, the cards in each state, and those to work on."""
    paths = list(args.paths) or ["cards"]
    if args.diff:
        return _status_diff(paths, args, out)
    found_status = api.status(paths, languages=args.lang)
    found, table = found_status.states, found_status.table
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "cards": [s.to_dict() for s in found],
                "summary": {
                    "cards": len({(s.deck, s.card) for s in found}),
                    "languages": found_status.totals,
                    "decks": table,
                },
            },
            out,
        )
        return EXIT_OK
    color = output.use_color(out)
    for deck, per_lang in sorted(table.items()):
        count = len({s.card for s in found if s.deck == deck})
        out.write(f"{deck} ({plural(count, 'card')})\n")
        out.write("  lang  " + "".join(f"{state:>12}" for state in api.STATES) + "\n")
        for lang, counts in sorted(per_lang.items()):
            out.write(
                f"  {lang:<4}  " + "".join(f"{counts[state]:>12}" for state in api.STATES) + "\n"
            )
        # Every card with something to do: missing, draft, stale, and a translation
        # whose review no longer holds (edited since).
        todo = [s for s in found if s.deck == deck and s.why and s.state != "reviewed"]
        if todo:
            out.write("\n")
        for card_state in todo:
            what = card_state.state
            if card_state.state in ("stale", "translated"):
                what += f": {card_state.why}"
            what = output.paint(what, output.STATE_COLORS[card_state.state], color)
            out.write(f"  {card_state.card} ({card_state.lang}) {what}\n")
        out.write("\n")
    stale = sum(1 for s in found if s.state == "stale")
    if stale:
        out.write(
            f"{plural(stale, 'stale translation')}: 'translator status --diff CARD "
            "--lang LANG' shows what changed in English\n"
        )
    return EXIT_OK


def _status_diff(paths: list[str], args: argparse.Namespace, out: TextIO) -> int:
    """``status --diff CARD``: what changed in the English since the translation."""
    if not args.lang or len(args.lang) != 1:
        raise UsageError("--diff needs one --lang: translator status --diff CARD --lang fr")
    diff = api.status_diff(args.diff, args.lang[0], library=paths)
    card, lang, state, changes = diff.card, diff.lang, diff.state, diff.changes
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "card": card.slug,
                "lang": lang,
                "state": state.state,
                "changed": state.changed,
                "changes": [c.to_dict() for c in changes],
            },
            out,
        )
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
    color = output.use_color(out)
    for change in changes:
        where = f" (since {change.revision})" if change.revision else ""
        out.write(f"{card.slug} ({lang}): the English {change.unit} changed{where}\n")
        if change.old is None:
            out.write("  the text before is not known (not in git history); now:\n")
        out.write(textwrap.indent(output.word_diff_text(change.words(), color), "  ") + "\n")
    out.write(
        f"when the translation says what the English says now: translator review "
        f"{card.slug} --lang {lang}\n"
    )
    return EXIT_OK


def cmd_review(args: argparse.Namespace, out: TextIO) -> int:
    """``review``: translations marked reviewed (unless lint finds errors in them)."""
    done = api.sign_off(
        args.cards,
        lang=args.lang,
        by=args.by,
        force=args.force,
        dry_run=args.dry_run,
        library=args.library,
    )
    if done.report.findings and args.format == "text":
        reports.write_text(done.report, sys.stderr)
    for held in done.held:  # one card's errors do not hold the others back
        print(f"translator: {held.card} ({held.lang}) not reviewed: {held.reason}", file=sys.stderr)
    result = EXIT_FINDINGS if done.held else EXIT_OK
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "reviewed": [item.to_dict() for item in done.reviewed],
                "dry_run": args.dry_run,
                "not_reviewed": [held.to_dict() for held in done.held],
                "findings": [f.as_dict() for f in done.report.findings],
            },
            out,
        )
        return result
    for item in done.reviewed:
        was = (
            f" (was {item.was}"
            + (f": the English {', '.join(item.changed)} changed" if item.changed else "")
            + ")"
        )
        verb = "would mark" if args.dry_run else "marked"
        out.write(f"{verb} {item.path} reviewed{was}\n")
    return result


def register(commands: argparse._SubParsersAction) -> None:
    """``translator translate``, ``status`` and ``review``."""
    p = commands.add_parser(
        "translate",
        help="draft translations from the glossary",
        **command_help(
            "Create a draft translation for every English card that has none in LANG: the "
            "glossary fills the subtype, the footer, ability names and reminders, and game "
            "terms in bold; the translation memory (every translated card of the library, and "
            "its imported TMX files) fills what it has exactly: a name, a paragraph, a "
            "sentence, listed under 'memory:' in the draft; the rest stays in English, marked "
            "(wip: true, status Draft) so that 'translator lint' reports it as untranslated "
            "(TR401).  A translation that exists is never touched.",
            "translator translate cards/sample --lang eo --dry-run",
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="library or deck (default: cards)")
    p.add_argument("--lang", required=True)
    p.add_argument("--dry-run", action="store_true", help="print the drafts, write nothing")
    p.add_argument(
        "--no-memory",
        action="store_true",
        help="fill from the glossary only, not from the library's translations",
    )
    add_format(p)
    p.set_defaults(run=cmd_translate)

    p = commands.add_parser(
        "status",
        help="missing, draft, translated, reviewed, stale",
        **command_help(
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
    add_format(p)
    p.set_defaults(run=cmd_status)

    p = commands.add_parser(
        "review",
        help="mark translations reviewed",
        **command_help(
            "Mark translations reviewed against the current English card: the date goes in "
            "'reviewed', the fingerprints of the English card ('source') and of the "
            "translation as reviewed ('reviewed-fingerprint') are taken, and 'wip' is "
            "removed; a later edit of either makes the card translated or stale again.  The "
            "cards are linted first; errors, or a stale card (its English changed since it "
            "was translated: the fields are named), stop its review (--force).  The lint "
            "printed is that of the cards as reviewed.",
            "translator review courier harbor-lord --lang fr --by Ana",
        ),
    )
    p.add_argument("cards", nargs="+", metavar="CARD", help="slug, deck/slug, guid or path")
    p.add_argument("--lang", required=True)
    p.add_argument(
        "--library", action="append", metavar="PATH", help="the card library (default: cards)"
    )
    p.add_argument("--by", metavar="NAME", help="who reviewed (recorded as 'reviewer')")
    p.add_argument(
        "--force",
        action="store_true",
        help="review despite lint errors, or a stale card (its English changed)",
    )
    p.add_argument("--dry-run", action="store_true", help="say what would be marked")
    add_format(p)
    p.set_defaults(run=cmd_review)
