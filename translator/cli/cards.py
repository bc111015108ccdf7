"""``translator cards``: the card library checked, listed, and one card shown in every
language side by side."""

from __future__ import annotations

import argparse
import shutil
import textwrap
from typing import TextIO

from . import output
from .common import (
    EXIT_ERROR,
    EXIT_OK,
    add_format,
    api,
    command_group,
    command_help,
    report_problems,
)
from .output import plural


def cmd_cards_check(args: argparse.Namespace, out: TextIO) -> int:
    """``cards check``: every problem of the library at once; exit 2 if any."""
    checked = api.check_library(args.paths)
    problems, summary = checked.problems, checked.summary
    if args.format == "json":
        output.dump_json(
            {"version": 1, "problems": [p.as_dict() for p in problems], "summary": summary},
            out,
        )
    else:
        for problem in problems:
            out.write(f"{problem}\n")
        out.write(
            f"{plural(summary['decks'], 'deck')}, {plural(summary['cards'], 'card')}, "
            f"{plural(summary['translations'], 'translation')}: "
            + (f"{plural(len(problems), 'problem')}.\n" if problems else "no problems.\n")
        )
    return EXIT_ERROR if problems else EXIT_OK


def cmd_cards_list(args: argparse.Namespace, out: TextIO) -> int:
    """``cards list``: a table per deck and language."""
    listing = api.list_cards(args.paths, lang=args.lang)
    report_problems(listing.problems)
    if args.format == "json":
        output.dump_json({"version": 1, **listing.to_dict()}, out)
    else:
        for block in listing.decks:
            out.write(
                f"{block.deck} ({block.directory}) [{block.lang}]: "
                f"{plural(len(block.cards), 'card')}, {block.copies} in the deck\n"
            )
            out.write(
                output.table(
                    ["qty", "slug", "name", "type", "faction", "status", "translation"],
                    [
                        [
                            str(r.quantity or ""),
                            r.slug,
                            r.name,
                            r.type or "",
                            r.faction or "",
                            r.status or "",
                            r.translation,
                        ]
                        for r in block.cards
                    ],
                )
                + "\n\n"
            )
    return EXIT_ERROR if listing.problems else EXIT_OK


def cmd_cards_show(args: argparse.Namespace, out: TextIO) -> int:
    """``cards show``: one card's fields and text, a column per language."""
    checked = api.check_library(args.library)
    report_problems(checked.problems)
    view = api.show_card(args.card, args.library, checked=checked)
    problems = view.problems
    card, languages = view.card, view.languages
    if args.format == "json":
        output.dump_json({"version": 1, **view.to_dict()}, out, default=str)
        return EXIT_ERROR if problems else EXIT_OK
    columns = shutil.get_terminal_size((120, 24)).columns
    width = max(24, (columns - 12) // max(len(languages), 1) - 2)
    rows = [
        [key] + [_cell(view, key, lang) for lang in languages]
        for key in api.SHOWN_FIELDS
        if any(view.value(key, lang) not in (None, "") for lang in languages)
    ]
    out.write(f"{card.deck}/{card.slug}\n")
    out.write(output.table(["field", *languages], rows) + "\n\n")
    wrapped = [
        [
            line
            for paragraph in (view.value("text", lang) or "").split("\n")
            for line in (textwrap.wrap(paragraph, width) or [""])
        ]
        for lang in languages
    ]
    height = max(len(w) for w in wrapped)
    out.write(
        output.table(
            [f"text ({lang})" for lang in languages],
            [[w[i] if i < len(w) else "" for w in wrapped] for i in range(height)],
        )
        + "\n"
    )
    return EXIT_ERROR if problems else EXIT_OK


def _cell(view: api.CardView, key: str, lang: str) -> str:
    """A field's value in ``lang``, marked when the translation inherits it."""
    value = view.value(key, lang)
    text = "" if value is None else str(value)
    inherited = view.inherited(key, lang)
    return f"{text} (inherited)" if inherited and key not in ("info",) else text


def register(commands: argparse._SubParsersAction) -> None:
    """``translator cards`` and its subcommands."""
    sub = command_group(
        commands,
        "cards",
        "the card library: check, list, show",
        "Card files (cards/<deck>/<slug>.<lang>.md) and decks (deck.yaml).",
        "translator cards list cards/",
    )
    p = sub.add_parser(
        "check",
        help="validate card files and decks (exit 2 on problems)",
        **command_help(
            "Check every card file and deck under the paths: front matter, "
            "values, sources, guids, artwork, deck lists.",
            "translator cards check cards/",
        ),
    )
    p.add_argument(
        "paths", nargs="*", metavar="PATH", help="library, deck or card (default: cards)"
    )
    add_format(p)
    p.set_defaults(run=cmd_cards_check)
    p = sub.add_parser(
        "list",
        help="a table per deck and language",
        **command_help(
            "List the cards of each deck, per language: name, type, faction, status, translated.",
            "translator cards list --lang fr cards/sample",
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--lang", help="only this language")
    add_format(p)
    p.set_defaults(run=cmd_cards_list)
    p = sub.add_parser(
        "show",
        help="one card, its source and translations side by side",
        **command_help(
            "Show one card in every language; inherited fields are marked.",
            "translator cards show storm-hawk",
        ),
    )
    p.add_argument("card", metavar="CARD", help="slug, deck/slug, guid or card file path")
    p.add_argument(
        "--library", action="append", metavar="PATH", help="where to look (default: cards)"
    )
    add_format(p)
    p.set_defaults(run=cmd_cards_show)
