"""``translator theme``: print themes; ``import-arcmage`` makes one of the official
card look from an Arcmage template set."""

from __future__ import annotations

import argparse
from typing import TextIO

from . import output
from .common import EXIT_OK, add_format, api, command_group, command_help
from .output import plural


def cmd_theme_import_arcmage(args: argparse.Namespace, out: TextIO) -> int:
    """Import the official template set as a theme (:func:`translator.api.import_theme`).
    A template set, a font or a theme that cannot be used is a ``UserError`` that
    :func:`translator.cli.main` prints (exit 2)."""
    report = api.import_theme(
        args.source,
        args.out,
        cache=args.cache,
        progress=False if args.no_progress else None,
        icc=args.icc,
    )
    if args.format == "json":
        output.dump_json({"version": 1, **report.to_dict()}, out)
        return EXIT_OK
    for note in report.notes:
        out.write(f"note: {note}\n")
    svgs = sum(1 for name in report.missing_optional if name.endswith(".svg"))
    out.write(
        f"Imported the official look from {report.origin} into {report.theme} in "
        f"{report.seconds:.1f} s: {plural(report.frames, 'frame')}, the back, "
        f"{plural(report.layouts_from_svg + report.layouts_from_defaults, 'layout')} "
        f"({report.layouts_from_svg} read from SVG templates, "
        f"{report.layouts_from_defaults} from translator's defaults"
        f"{f': the set lacks {svgs} SVG files' if svgs else ''}), "
        + (
            f"{plural(len(report.symbols), 'symbol')} from the official symbol font."
            if report.symbols
            else "no symbol font (translator's symbols print)."
        )
        + "\n"
    )
    use = "arcmage" if args.out is None else str(args.out)
    out.write(f"Print with it: translator build DECK --theme {use}\n")
    return EXIT_OK


def register(commands: argparse._SubParsersAction) -> None:
    """``translator theme`` and its subcommands."""
    sub = command_group(
        commands,
        "theme",
        "print themes: import the official look",
        "Themes for translator build --theme.",
        "translator theme import-arcmage ~/src/arcmage",
    )
    p = sub.add_parser(
        "import-arcmage",
        help="the official card look, from a template set",
        **command_help(
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
    add_format(p)
    p.set_defaults(run=cmd_theme_import_arcmage)
