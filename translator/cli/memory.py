"""The translation memory on the command line: ``translator suggest`` (what the memory
offers one card), ``translator export tmx`` and ``translator import tmx`` (the memory
out to Weblate or OmegaT, and their memories in)."""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from . import output
from .common import (
    EXIT_FINDINGS,
    EXIT_OK,
    Parser,
    UsageError,
    add_format,
    api,
    command_help,
    write_named,
)
from .output import plural

if TYPE_CHECKING:
    from ..workflow.memory import Unit
    from ..workflow.stored import TmxImport
    from ..workflow.suggestions import Text

# --------------------------------------------------------------------------------------
# translator suggest


def cmd_suggest(args: argparse.Namespace, out: TextIO) -> int:
    """``suggest``: for each text of one card, the memory's exact or fuzzy matches."""
    found = api.suggest(
        args.card, args.lang, library=list(args.paths) or None, cutoff=args.min, limit=args.limit
    )
    summary = found.summary
    code = EXIT_OK if summary["exact"] or summary["fuzzy"] else EXIT_FINDINGS
    if args.format == "json":
        output.dump_json({"version": 1, **found.to_dict()}, out)
        return code
    color = output.use_color(out)
    card, lang = found.card, found.lang
    out.write(
        f"{card.deck}/{card.slug} ({lang}, {found.state}): {plural(summary['texts'], 'text')}; "
        f"{summary['exact']} with an exact match, {summary['fuzzy']} with suggestions "
        f"(≥ {args.min:g}%), {summary['none']} without\n"
    )
    for text in found.texts:
        _write_text(text, out, color)
    if code == EXIT_FINDINGS:
        out.write(
            f"nothing in the {lang} memory ({plural(found.memory, 'English text')}) is like "
            f"this card's English (a lower --min finds more)\n"
        )
    return code


def _write_text(text: Text, out: TextIO, color: bool) -> None:
    """One text, then its match or suggestions, each with where it comes from, its
    translation, and how the memory's English differs from this one."""
    out.write(f"\n{output.paint(text.label, output.BOLD, color)}\n")
    out.write(textwrap.indent(text.english, "    ") + "\n")
    matches = [text.exact] if text.exact is not None else text.fuzzy
    if not matches:
        out.write("  nothing in the memory\n")
    for match in matches:
        score = "exact" if match.exact else f"{match.score:.0f}%"
        others = (
            f" (+{plural(len(match.alternatives), 'other translation')})"
            if match.alternatives
            else ""
        )
        out.write(f"  {score}: {where(match.unit)}{others}\n")
        out.write(textwrap.indent(match.target, "      ") + "\n")
        pieces = match.words()
        if any(kind != "=" for kind, _ in pieces):
            diff = output.word_diff_text(pieces, color)
            out.write(textwrap.indent(f"English: {diff}", "      ") + "\n")


def where(unit: Unit) -> str:
    """Where a unit comes from, as a translator looks for it: the card and its state,
    or the TMX file it was imported from (and what that file says it came from)."""
    origin = unit.origin
    if origin.state != "imported":
        return str(origin)
    told = f" (from {origin.where})" if origin.where != Path(origin.path).name else ""
    return f"{origin.path}, imported{told}"


# --------------------------------------------------------------------------------------
# translator export tmx


def cmd_export_tmx(args: argparse.Namespace, out: TextIO) -> int:
    """``export tmx``: the library's memory of one language as a TMX file."""
    lang = api.target_language(args.lang)
    to_stdout = args.output in (None, "-")
    if to_stdout and args.format == "json":
        raise UsageError("--format json prints a summary: give the TMX file with -o FILE")
    data, units = api.export_tmx(list(args.paths) or None, lang)
    if to_stdout:
        out.write(data.decode("utf-8"))
    else:
        write_named({args.output: data.decode("utf-8")})
    kinds = dict(Counter(unit.kind for unit in units))
    origins = dict(Counter(unit.origin.state for unit in units))
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "lang": lang,
                "output": args.output,
                "units": len(units),
                "kinds": kinds,
                "states": origins,
            },
            out,
        )
        return EXIT_OK
    counts = ", ".join(f"{count} {kind}" for kind, count in kinds.items()) or "none"
    where_to = "standard output" if to_stdout else args.output
    print(f"wrote {where_to}: {plural(len(units), 'unit')} ({counts})", file=sys.stderr)
    if not units:
        print(
            f"translator: the {lang} memory is empty: no card has a {lang} translation "
            "to reuse (drafts and the parts of stale translations do not count)",
            file=sys.stderr,
        )
    return EXIT_OK


# --------------------------------------------------------------------------------------
# translator import tmx


def cmd_import_tmx(args: argparse.Namespace, out: TextIO) -> int:
    """``import tmx``: a TMX file's units into the library's memory of one language."""
    done = api.import_tmx(
        args.file, args.lang, library=list(args.library or []) or None, dry_run=args.dry_run
    )
    content = done.content
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "lang": content.lang,
                "dry_run": done.dry_run,
                "file": args.file,
                "memory": str(done.target),
                "imported": len(done.added),
                "known": done.known,
                "stored": done.stored,
                **{k: v for k, v in content.to_dict().items() if k in ("refused", "skipped")},
                "cards": [g.to_dict() for g in done.gains],
                "summary": {
                    "imported": len(done.added),
                    "refused": len(content.refused),
                    "cards": len(done.gains),
                    "exact": sum(g.exact for g in done.gains),
                    "fuzzy": sum(g.fuzzy for g in done.gains),
                },
            },
            out,
        )
    else:
        _write_import(args, done, out)
    return EXIT_FINDINGS if content.refused else EXIT_OK


def _write_import(args: argparse.Namespace, done: TmxImport, out: TextIO) -> None:
    """What ``import tmx`` did, for a person."""
    content, gains, lang = done.content, done.gains, done.content.lang
    for refusal in content.refused:
        print(f"translator: refused {refusal}", file=sys.stderr)
    verb = "would add" if done.dry_run else "added"
    skipped = [
        (content.other_language, "of another language"),
        (content.untranslated, "untranslated"),
        (content.inline, "with inline codes"),
        (content.duplicates, "repeated"),
    ]
    left = ", ".join(f"{count} {why}" for count, why in skipped if count)
    out.write(
        f"{verb} {plural(len(done.added), 'unit')} to {done.target} ({done.stored} "
        f"in all); {done.known} already there, {len(content.refused)} refused"
        f"{', skipped: ' + left if left else ''}\n"
    )
    if not gains:
        out.write(f"nothing new for the cards to translate into {lang}\n")
        return
    exact, fuzzy = sum(g.exact for g in gains), sum(g.fuzzy for g in gains)
    out.write(
        f"for the cards to translate into {lang}: {plural(exact, 'text')} now with an exact "
        f"match, {fuzzy} with a suggestion, in {plural(len(gains), 'card')}:\n"
    )
    for gain in gains:
        out.write(f"  {gain.card} ({gain.state}): {gain.exact} exact, {gain.fuzzy} fuzzy\n")
    paths = [p for p in args.library or [] if p != "cards"]
    where_ = "".join(f" {p}" for p in paths)
    out.write(f"see them: translator suggest {gains[0].card}{where_} --lang {lang}\n")


# --------------------------------------------------------------------------------------
# the commands


class _Intermixed(Parser):
    """A parser whose positionals may come after options (``suggest CARD --lang fr
    PATH``, the order people write): argparse's intermixed parsing, for one command."""

    _mixing = False

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if self._mixing:  # the passes of the intermixed parse itself
            return super().parse_known_args(args, namespace)
        self._mixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._mixing = False


def register(commands: argparse._SubParsersAction) -> None:
    """``translator suggest``."""
    p = commands.add_parser(
        "suggest",
        help="what the translation memory offers one card",
        **command_help(
            "For each text of one card, in reading order (name lines, subtype, each "
            "paragraph, and each sentence of a paragraph the memory does not hold whole, "
            "the footer of its own): the exact translation the library already has, or the "
            "most similar ones (--min percent or more), each with the card or TMX file it "
            "comes from and how its English differs, word by word.  The card's own "
            "translation is not suggested.  Exit 0: something found; 1: nothing.",
            "translator suggest second/herald --lang fr cards --min 80 --limit 2",
        ),
    )
    p.__class__ = _Intermixed  # the subcommands' parser class is the group's
    p.add_argument("card", metavar="CARD", help="a slug, deck/slug, guid or card file")
    p.add_argument("paths", nargs="*", metavar="PATH", help="library or deck (default: cards)")
    p.add_argument("--lang", required=True)
    p.add_argument(
        "--min",
        type=float,
        default=75.0,
        metavar="PERCENT",
        help="the lowest similarity suggested (default: 75)",
    )
    p.add_argument(
        "--limit", type=int, default=3, metavar="N", help="suggestions per text (default: 3)"
    )
    add_format(p)
    p.set_defaults(run=cmd_suggest)


def register_export(sub: argparse._SubParsersAction) -> None:
    """``translator export tmx`` (called by :mod:`.exchange`, which owns ``export``)."""
    p = sub.add_parser(
        "tmx",
        help="the translation memory as TMX (Weblate, OmegaT)",
        **command_help(
            "Write the library's translation memory of one language as a TMX 1.4 file: one "
            "unit per English text a translated card offers (name lines, subtype, footer, "
            "paragraphs, sentences) with its best translation (reviewed over translated over "
            "imported), its kind, card and state as x- properties; drafts and stale parts "
            "are left out.  Weblate and OmegaT import it as a translation memory.",
            "translator export tmx cards --lang fr -o memory.fr.tmx",
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="library or deck (default: cards)")
    p.add_argument("--lang", required=True)
    p.add_argument("-o", "--output", metavar="FILE.tmx", help="default: standard output")
    add_format(p)
    p.set_defaults(run=cmd_export_tmx)


def register_import(sub: argparse._SubParsersAction) -> None:
    """``translator import tmx`` (called by :mod:`.exchange`, which owns ``import``)."""
    p = sub.add_parser(
        "tmx",
        help="a translation memory (TMX) into the library's",
        **command_help(
            "Add the units of a TMX file (Weblate's, OmegaT's, 'translator export tmx') to "
            "the library's memory of one language, kept in LIBRARY/memory/LANG.tmx: from "
            "then on 'translate', 'suggest' and the PO export use them (after the library's "
            "own translations).  Units of other languages are skipped; translations with "
            "control characters or card markup errors are refused and listed (exit 1).  "
            "Then says which cards to translate the file helps.",
            "translator import tmx weblate-fr.tmx --lang fr --library cards",
        ),
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--lang", required=True, help="the translation's language in the file")
    p.add_argument(
        "--library", action="append", metavar="PATH", help="the card library (default: cards)"
    )
    p.add_argument("--dry-run", action="store_true", help="report, write nothing")
    add_format(p)
    p.set_defaults(run=cmd_import_tmx)
