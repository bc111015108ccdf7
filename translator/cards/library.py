"""Loading a card library: decks, cards and translations, checked together.

A library is found by walking the paths given: every directory holding a
``deck.yaml`` is a deck, and the card files next to it are its cards.  Checks that
need more than one file (a translation without its source, a guid used twice, a
deck listing a card that does not exist) are made here, after every file is read.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .files import (
    DECK_FILE,
    Problem,
    inside_library,
    parse_card_file,
    parse_deck_file,
)
from .model import SOURCE_LANGUAGE, Library


def deck_directories(paths: Iterable[str], problems: list[Problem]) -> list[Path]:
    """The deck directories under ``paths`` (a deck file, a card file or a directory)."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            directory = path.parent
            if not (directory / DECK_FILE).is_file():
                problems.append(
                    Problem(
                        str(path),
                        1,
                        f"no {DECK_FILE} next to this file",
                        "a deck directory names its deck in deck.yaml",
                    )
                )
                continue
            found.append(directory)
        elif path.is_dir():
            decks = sorted(p.parent for p in path.rglob(DECK_FILE))
            if not decks:
                problems.append(
                    Problem(
                        str(path),
                        0,
                        f"no deck here (no {DECK_FILE} found)",
                        "decks live in cards/<deck>/deck.yaml",
                    )
                )
            found.extend(decks)
        else:
            problems.append(Problem(str(path), 0, "no such file or directory"))
    unique: list[Path] = []
    for directory in found:
        if directory not in unique:
            unique.append(directory)
    return unique


def load_library(paths: Iterable[str]) -> tuple[Library, list[Problem]]:
    """Read and check every deck under ``paths``; all problems are returned."""
    problems: list[Problem] = []
    library = Library()
    #: Card files there but unusable (reported): what depends on them is not "missing".
    unusable: set[tuple[str, str]] = set()
    for directory in deck_directories(paths, problems):
        if not inside_library(directory / DECK_FILE, directory):
            problems.append(_outside(directory / DECK_FILE))
            continue
        deck = parse_deck_file(directory / DECK_FILE, problems)
        if deck is None:
            continue
        key = deck.slug
        if key in library.decks:
            problems.append(
                Problem(
                    str(directory / DECK_FILE),
                    1,
                    f"two decks are named '{key}'",
                    f"the other one is {library.decks[key].directory}",
                )
            )
            continue
        library.decks[key] = deck
        for path in sorted(directory.glob("*.md")):
            if path.name.lower() == "readme.md":
                continue
            if not inside_library(path, directory):
                problems.append(_outside(path))
                continue
            card_file = parse_card_file(path, key, problems)
            if card_file is None:
                unusable.add((str(directory), path.name))
                continue
            library.add(card_file)
    _check_across_files(library, problems, unusable)
    problems.sort(key=lambda p: (p.path, p.line))
    return library, problems


def _outside(path: Path) -> Problem:
    return Problem(
        str(path),
        1,
        f"is a link to {path.resolve()}, outside the library",
        "a card library holds its files; copy the file here instead of linking "
        "it (or allow its folder in translator.toml: [library] allow-paths)",
    )


def _check_across_files(
    library: Library, problems: list[Problem], unusable: set[tuple[str, str]]
) -> None:
    seen_slugs: dict[str, str] = {}
    seen_guids: dict[str, tuple[str, int]] = {}
    for (deck, slug), card in sorted(library.cards.items()):
        source_file = (library.decks[deck].directory, f"{slug}.{SOURCE_LANGUAGE}.md")
        if card.source is None and source_file not in unusable:
            for version in card.translations.values():
                problems.append(
                    Problem(
                        version.path,
                        1,
                        "translation without a source card",
                        f"{slug}.{SOURCE_LANGUAGE}.md is missing in "
                        f"{library.decks[deck].directory}",
                    )
                )
        if slug in seen_slugs and seen_slugs[slug] != deck:
            path = (card.source or next(iter(card.translations.values()))).path
            problems.append(
                Problem(
                    path,
                    1,
                    f"the slug '{slug}' is used in two decks",
                    f"also in deck '{seen_slugs[slug]}'; rename one of them",
                )
            )
        seen_slugs.setdefault(slug, deck)
        for card_file in (card.source, *card.translations.values()):
            if card_file is None or not card_file.fields.get("guid"):
                continue
            guid = str(card_file.fields["guid"])
            if guid in seen_guids:
                other, line = seen_guids[guid]
                problems.append(
                    Problem(
                        card_file.path,
                        card_file.line("guid"),
                        f"guid {guid} is used twice",
                        f"also in {other}:{line}; each card version has its own",
                    )
                )
            else:
                seen_guids[guid] = (card_file.path, card_file.line("guid"))
    for name, listing in library.decks.items():
        for slug in listing.quantities:
            listed = library.cards.get((name, slug))
            if (listed is None or listed.source is None) and (
                listing.directory,
                f"{slug}.{SOURCE_LANGUAGE}.md",
            ) not in unusable:
                problems.append(
                    Problem(
                        str(Path(listing.directory) / "deck.yaml"),
                        listing.lines.get(f"cards.{slug}", 1),
                        f"the deck lists '{slug}', which has no card file",
                        f"create {slug}.{SOURCE_LANGUAGE}.md or fix the slug",
                    )
                )
