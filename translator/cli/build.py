"""``translator build`` and ``translator preflight``: print-ready PDFs, and the proof
that they are.  The typesetter (WeasyPrint) loads slowly: it is imported inside the
commands, never when the command line starts."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from . import output
from .common import (
    EXIT_FINDINGS,
    EXIT_OK,
    UsageError,
    add_format,
    api,
    command_help,
    print_errors,
)
from .output import plural

if TYPE_CHECKING:
    from ..pdf.preflight import FileReport
    from ..pdf.sizes import CardSize
    from ..typeset.batch import Report as BuildReport
    from ..typeset.results import CardResult


def cmd_build(args: argparse.Namespace, out: TextIO) -> int:
    """``build``: the cards (and decks, sheets, previews) into ``--out``, checked by the
    preflight; exit 1 when a card could not be printed or a file fails."""
    if args.watch:
        return _watch(args, out)
    if args.port is not None:
        raise UsageError("--port goes with --watch (the preview page's port)")
    plan = api.plan_build(args.paths, **_settings(args))
    with print_errors(args.out), output.Progress(args.format == "text", plan.total) as step:
        report = plan.run(step.advance, step.stage)
    for result in report.cards:
        _report_card(result)
    for problem in report.problems:
        print(f"translator: preflight: {problem}", file=sys.stderr)
    if args.format == "json":
        output.dump_json(_build_json(report), out)
    else:
        out.write(_build_summary(report, args.out) + "\n")
    return EXIT_OK if report.passes(args.fail_on) else EXIT_FINDINGS


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    """The build's settings, as :func:`translator.api.plan_build` takes them."""
    return {
        "languages": args.lang or ["en"],
        "out": args.out,
        "cards": args.card or [],
        "size": args.size,
        "theme": args.theme,
        "icc": args.icc,
        "floor": args.floor,
        "min_size": args.min_size,
        "allow_overflow": args.allow_overflow,
        "jobs": args.jobs,
        "force": args.force,
        "deck": args.deck,
        "backs": args.backs,
        "sheets": args.sheets,
        "gutter": args.gutter,
        "margin": args.margin,
        "sheet_backs": args.sheet_backs,
        "previews": [kind for kind in ("png", "webp") if getattr(args, kind)],
        "dpi": args.dpi,
        "ink_limit": args.ink_limit,
        "check": not args.no_preflight,
        "fallback": args.fallback,
        "strict": args.strict,
    }


def _watch(args: argparse.Namespace, out: TextIO) -> int:
    """``build --watch``: build, then rebuild what changes until Ctrl-C (exit 0); a
    line per card changed on ``out``, problems on stderr
    (:mod:`translator.watch`)."""
    if args.format != "text":
        raise UsageError("--watch prints a line per card changed: --format json is for one build")
    if args.port is not None and not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port is between 1 and 65535 (0: a free one)")
    from .. import watch  # noqa: PLC0415 - WeasyPrint and watchfiles load slowly

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    def warn(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    settings = watch.Settings(list(args.paths), _settings(args))
    with print_errors(args.out):
        return watch.watch(settings, port=args.port or 0, say=say, warn=warn)


def _report_card(result: CardResult) -> None:
    """A card's warnings and why it was not printed, on stderr."""
    if result.withheld:
        print(f"translator: {result.withheld}", file=sys.stderr)
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


def _build_summary(report: BuildReport, out: str) -> str:
    """The build in one line (then the deck and sheet files not made).  Its counts are
    those of the lines printed above it: the warnings are every warning line (the
    cards' and the preflight's), and the preflight "passes" only without any."""
    failed, withheld, fallbacks = report.failed, report.withheld, report.fallbacks
    languages = len(report.languages)
    cards_done = len(report.cards)
    rendered = sum(1 for r in report.cards if r.path and not r.reused)
    up_to_date = cards_done - rendered - len(failed) - len(withheld)
    line = (
        f"{plural(cards_done, 'card')} in {plural(languages, 'language')} "
        f"({rendered} rendered, {up_to_date} up to date"
        + (f", {len(failed)} not printable" if failed else "")
        + (f", {len(withheld)} not printed: {_withheld(withheld)}" if withheld else "")
        + (
            f", {len(fallbacks)} printed in English: no translation "
            f"({', '.join(f'{r.slug} ({r.lang})' for r in fallbacks)})"
            if fallbacks
            else ""
        )
        + "); "
        f"{plural(len(report.files), 'print file')}"
        + (f" and {plural(len(report.images), 'preview')}" if report.images else "")
        + f", {plural(report.pages, 'page')}, in {out} in {report.seconds:.1f} s; "
        f"{plural(report.warning_count, 'warning')}; "
    )
    errors, warnings = report.errors, report.preflight_warnings
    if errors or warnings:
        files = len({p.path for p in (*errors, *warnings)})
        found = [
            plural(len(errors), "error") if errors else "",
            plural(len(warnings), "warning") if warnings else "",
        ]
        line += f"preflight: {' and '.join(f for f in found if f)} in {plural(files, 'file')}."
    else:
        line += "preflight: every file passes."
    # Deck and sheet files a failed card kept from being made (the old ones are gone).
    return "\n".join([line, *(str(missing) for missing in report.missing)])


def _withheld(results: Sequence[CardResult]) -> str:
    """The cards not printed for their state, grouped: ``missing: courier (fr); stale:
    harbor-lord (eo)``."""
    groups: dict[str, list[str]] = {}
    for r in results:
        groups.setdefault(str(r.state), []).append(f"{r.slug} ({r.lang})")
    return "; ".join(f"{kind}: {', '.join(cards)}" for kind, cards in groups.items())


def _build_json(report: BuildReport) -> dict[str, Any]:
    """The build for scripts (``version`` 1)."""
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
                "withheld": r.withheld,
                "fallback": r.fallback,
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
            "warnings": report.warning_count,
            "preflight_errors": len(report.errors),
            "preflight_warnings": len(report.preflight_warnings),
            "withheld": len(report.withheld),
            "fallbacks": len(report.fallbacks),
            "missing": len(report.missing),
        },
    }


def cmd_preflight(args: argparse.Namespace, out: TextIO) -> int:
    """``preflight``: each PDF checked for print; exit 1 when one fails."""
    return run_preflight(
        args.files, size=args.size, ink_limit=args.ink_limit, fmt=args.format, out=out
    )


def run_preflight(
    paths: Sequence[str | os.PathLike[str]],
    *,
    size: str | CardSize | None,
    ink_limit: float = 300.0,
    fmt: str = "text",
    out: TextIO | None = None,
) -> int:
    """Preflight ``paths`` (:func:`translator.api.preflight`) and print the report:
    text, ``path:page (card): code: message`` lines and a summary line; or JSON,
    ``{"version": 1, "files": [{"path", "pages", "ok", "problems"}], "summary":
    {"files", "failed", "problems"}}``.  0 when every file passes, 1 when one fails
    (an error; warnings pass).  ``out`` is standard output when None (looked up at
    call time)."""
    if fmt not in ("text", "json"):
        raise ValueError(f"unknown format {fmt!r}: text or json")
    out = sys.stdout if out is None else out
    reports = api.preflight(paths, size=size, ink_limit=ink_limit)
    if fmt == "json":
        output.dump_json(_preflight_json(reports), out)
    else:
        out.write(_preflight_text(reports))
    return EXIT_FINDINGS if any(not r.ok for r in reports) else EXIT_OK


def _preflight_text(reports: list[FileReport]) -> str:
    """``path:page (card): code: message`` lines, then one summary line."""
    lines = [str(problem) for report in reports for problem in report.problems]
    failed = sum(not r.ok for r in reports)
    problems = sum(len(r.problems) for r in reports)
    verdict = "all print-ready" if not failed else f"{failed} not print-ready"
    lines.append(
        f"preflight: {plural(len(reports), 'file')}, {verdict}, {plural(problems, 'problem')}"
    )
    return "".join(line + "\n" for line in lines)


def _preflight_json(reports: list[FileReport]) -> dict[str, Any]:
    """The preflight for scripts (``version`` 1): every file with its problems."""
    return {
        "version": 1,
        "files": [
            {
                "path": r.path,
                "pages": r.pages,
                "ok": r.ok,
                "problems": [p.to_dict() for p in r.problems],
            }
            for r in reports
        ],
        "summary": {
            "files": len(reports),
            "failed": sum(not r.ok for r in reports),
            "problems": sum(len(r.problems) for r in reports),
        },
    }


def register(commands: argparse._SubParsersAction) -> None:
    """``translator build`` and ``translator preflight``."""
    _register_build(commands)
    _register_preflight(commands)


def _register_build(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "build",
        help="typeset cards into print-ready CMYK PDFs",
        **command_help(
            "Write one PDF per card: vector text in embedded fonts, "
            "CMYK colours and artwork, trim and bleed boxes, the ICC "
            "profile as output intent; text shrunk to fit, never "
            "cut silently.",
            "translator build cards/sample --lang all --deck --sheets a4 --out out/\n"
            "  translator build cards/sample --lang fr --watch   "
            "# rebuild and preview at every change; Ctrl-C stops (exit 0)",
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
    p.add_argument(
        "--fallback",
        choices=["en"],
        default=None,
        help="print the English card where a translation is missing (default: not printed, "
        "nor the deck and sheet files holding it; or [build] fallback in translator.toml)",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        default=None,
        help="refuse stale translations and drafts (default: printed with a warning; or "
        "[build] strict in translator.toml)",
    )
    p.add_argument(
        "--fail-on",
        choices=["warning", "error"],
        default="warning",
        help="exit 1 on warnings too (default), or only when a card or file fails",
    )
    p.add_argument(
        "--watch",
        action="store_true",
        help="build, then rebuild what changed whenever a card, deck, glossary or theme "
        "file changes: a line per card changed (its fit and lint), a PNG of each in "
        "DIR/preview/ and a page showing them that reloads itself (served on 127.0.0.1; "
        "DIR/preview/index.html); Ctrl-C or SIGTERM stops it cleanly (exit 0)",
    )
    p.add_argument(
        "--port",
        type=int,
        metavar="PORT",
        help="with --watch: the preview page's port on 127.0.0.1 (default: a free one, printed)",
    )
    add_format(p)
    p.set_defaults(run=cmd_build)


def _register_preflight(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "preflight",
        help="check that PDFs are ready to print",
        **command_help(
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
    add_format(p)
    p.set_defaults(run=cmd_preflight)
