"""``translator cards``: the card library checked, listed, and one card shown in every
language side by side."""

from __future__ import annotations

import argparse
import shutil
import textwrap
from typing import TextIO, TypedDict

from .. import cards
from . import output
from .common import (
    EXIT_ERROR,
    EXIT_OK,
    UsageError,
    add_format,
    command_group,
    command_help,
    load_library,
    report_problems,
)
from .output import plural

#: The fields ``cards show`` lists, in this order (the text goes below them).
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


def _library_summary(library: cards.Library) -> dict[str, int]:
    return {
        "decks": len(library.decks),
        "cards": len(library.cards),
        "translations": sum(len(c.translations) for c in library.cards.values()),
    }


def cmd_cards_check(args: argparse.Namespace, out: TextIO) -> int:
    """``cards check``: every problem of the library at once; exit 2 if any."""
    library, problems = load_library(args.paths)
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "problems": [p.as_dict() for p in problems],
                "summary": _library_summary(library),
            },
            out,
        )
    else:
        for problem in problems:
            out.write(f"{problem}\n")
        summary = _library_summary(library)
        out.write(
            f"{plural(summary['decks'], 'deck')}, {plural(summary['cards'], 'card')}, "
            f"{plural(summary['translations'], 'translation')}: "
            + (f"{plural(len(problems), 'problem')}.\n" if problems else "no problems.\n")
        )
    return EXIT_ERROR if problems else EXIT_OK


def _languages(library: cards.Library) -> list[str]:
    """English first, then the library's other languages in order."""
    found = {lang for card in library.cards.values() for lang in card.languages()}
    return [cards.SOURCE_LANGUAGE, *sorted(found - {cards.SOURCE_LANGUAGE})]


def _translation_state(card: cards.Card, lang: str) -> str:
    """``source`` for English, else the translation's state, the one ``status`` shows
    (missing, draft, translated, reviewed, stale: translator.cards.state)."""
    from ..cards.state import card_state  # noqa: PLC0415

    if lang == cards.SOURCE_LANGUAGE or card.source is None:
        return "source"
    return card_state(card, lang).state


class _CardRow(TypedDict):
    """A card of ``cards list --format json`` (a row of its table): its fields as
    printed in the listing's language, None when the card has none."""

    slug: str
    quantity: int
    name: str
    type: str | None
    faction: str | None
    status: str | None
    translation: str  # source, missing, wip or translated


class _DeckListing(TypedDict):
    """A deck in one language in ``cards list --format json`` (a table)."""

    deck: str
    directory: str
    lang: str
    cards: list[_CardRow]


def cmd_cards_list(args: argparse.Namespace, out: TextIO) -> int:
    """``cards list``: a table per deck and language."""
    library, problems = load_library(args.paths)
    report_problems(problems)
    languages = [args.lang] if args.lang else _languages(library)
    listing: list[_DeckListing] = []
    for name, deck in library.decks.items():
        for lang in languages:
            rows: list[_CardRow] = []
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
        output.dump_json({"version": 1, "decks": listing}, out)
    else:
        for block in listing:
            copies = sum(r["quantity"] for r in block["cards"])
            out.write(
                f"{block['deck']} ({block['directory']}) [{block['lang']}]: "
                f"{plural(len(block['cards']), 'card')}, {copies} in the deck\n"
            )
            out.write(
                output.table(
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


def _version_path(card: cards.Card, lang: str) -> str | None:
    """The file of ``card`` in ``lang``; None when the card is not in that language."""
    version = card.version(lang)
    return version.path if version else None


def cmd_cards_show(args: argparse.Namespace, out: TextIO) -> int:
    """``cards show``: one card's fields and text, a column per language."""
    library, problems = load_library(args.library)
    report_problems(problems)
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
                "path": _version_path(card, lang),
            }
            for lang in languages
        }
        output.dump_json(
            {"version": 1, "deck": card.deck, "slug": card.slug, "languages": data},
            out,
            default=str,
        )
        return EXIT_ERROR if problems else EXIT_OK
    columns = shutil.get_terminal_size((120, 24)).columns
    width = max(24, (columns - 12) // max(len(languages), 1) - 2)
    rows = [
        [key] + [_cell(card, key, lang) for lang in languages]
        for key in _SHOWN_FIELDS
        if any(card.get(key, lang) not in (None, "") for lang in languages)
    ]
    out.write(f"{card.deck}/{card.slug}\n")
    out.write(output.table(["field", *languages], rows) + "\n\n")
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
        output.table(
            [f"text ({lang})" for lang in languages],
            [[w[i] if i < len(w) else "" for w in wrapped] for i in range(height)],
        )
        + "\n"
    )
    return EXIT_ERROR if problems else EXIT_OK


def _cell(card: cards.Card, key: str, lang: str) -> str:
    """A field's value in ``lang``, marked when the translation inherits it."""
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
