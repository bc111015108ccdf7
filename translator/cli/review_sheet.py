"""``translator review-sheet``: static HTML pages for proofreaders, each card as
printed in English and in the language side by side, with the lint findings."""

from __future__ import annotations

import argparse
import os
from typing import TextIO

from . import output
from .common import EXIT_OK, add_format, api, command_help, print_errors
from .output import plural


def cmd_review_sheet(args: argparse.Namespace, out: TextIO) -> int:
    """``review-sheet``: a page per deck and language, and an index."""
    plan = api.plan_review_sheets(
        args.paths,
        languages=args.lang or (),
        out=args.out,
        build_dir=args.build_dir,
        dpi=args.dpi,
        renders=not args.no_renders,
        size=args.size,
        theme=args.theme,
        icc=args.icc,
        jobs=args.jobs,
    )
    with print_errors(args.out), output.Progress(args.format == "text", plan.total) as step:
        made = plan.run(step.advance, step.stage)
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "index": str(made.index),
                "sheets": [
                    {**page.to_dict(), "path": str(made.path(page))} for page in made.sheets
                ],
            },
            out,
        )
        return EXIT_OK
    for page in made.sheets:
        states_ = ", ".join(f"{n} {s}" for s, n in page.states.items() if n)
        out.write(
            f"{made.path(page)}: "
            f"{plural(len(page.rows), 'card')} ({states_}); "
            f"{page.with_findings} with findings, "
            f"{len(page.overflowing)} overflowing"
            + (
                ""
                if page.preflight is None
                else f"; deck preflight: {'passes' if not page.preflight else 'FAILS'}"
            )
            + "\n"
        )
    out.write(f"open {made.index}\n")
    return EXIT_OK


def register(commands: argparse._SubParsersAction) -> None:
    """``translator review-sheet``."""
    p = commands.add_parser(
        "review-sheet",
        help="HTML pages for proofreaders",
        **command_help(
            "Write a static HTML page per deck and language (and an index): each card as "
            "printed in English and in LANG side by side, the texts side by side with numbers, "
            "symbols and glossary terms marked (outlined where a lint finding says they differ, "
            "and only there), the lint findings with their fixes, the state "
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
    add_format(p)
    p.set_defaults(run=cmd_review_sheet)
