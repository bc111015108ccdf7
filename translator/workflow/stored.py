"""The library's translation memory on disk: what a command reads (the translated
cards of the library and of the decks beside it, and the TMX files imported into
``.translator/memory/``), what ``translator import tmx`` merges into it, and what it
offers one card of the library (:func:`suggest`: ``translator suggest``).

Apart from the memory itself (:mod:`.memory`, segments and matches), the TMX format
(:mod:`.tmx`) and the suggestions (:mod:`.suggestions`), which it uses all three: none
of them needs to know where a memory is kept.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cards.files import DECK_FILE
from ..cards.library import load_library
from ..cards.model import Card, Library
from ..errors import UsageError
from ..limits import MAX_EXCHANGE_ENTRIES
from ..paths import Paths, inside
from ..textio import InputError, atomic_write
from .memory import (
    KINDS,
    MEMORY_FOLDER,
    NAME,
    Memory,
    Unit,
    build_memory,
    library_roots,
    memory_files,
)
from .suggestions import Gain, Text, card_texts, gains

if TYPE_CHECKING:
    from .tmx import TmxContent


def load_memory(
    library: Library, lang: str, *, whole: bool = True, imported: bool = True
) -> Memory:
    """The memory of ``lang`` for work on ``library``: every translated card of the
    library it is part of (the other decks beside its decks, when ``whole``), and the
    TMX files imported into it (when ``imported``: ``import tmx`` reads the one it
    merges into itself).  A sibling deck that cannot be read adds nothing (its
    problems are the business of ``translator cards check``), it does not stop the
    work on this one."""
    roots = library_roots(library)
    source = library
    own = {Path(deck.directory).resolve() for deck in library.decks.values()}
    # The decks beside the library's own, one folder level only: a deck kept in a
    # home directory must not make us read the whole home directory.
    siblings = [
        str(folder)
        for root in (roots if whole else ())
        for folder in sorted(root.iterdir())
        if (folder / DECK_FILE).is_file() and folder.resolve() not in own
    ]
    if siblings:
        around, _ = load_library(siblings)
        around.cards.update(library.cards)
        source = around
    extra: list[Unit] = []
    files = memory_files(roots, lang) if imported else []
    if files:
        from . import tmx  # noqa: PLC0415  (translate-toolkit: only when there is a file)

        extra = [unit for path in files for unit in tmx.read_units(path, lang)]
    return build_memory(source, lang, extra)


def memory_path(root: Path, lang: str) -> Path:
    """``<root>/memory/<lang>.tmx``: where the TMX files imported into a library are
    kept (what :func:`~.memory.memory_files` finds)."""
    return root / MEMORY_FOLDER / f"{lang}.tmx"


def merge(stored: Iterable[Unit], new: Iterable[Unit]) -> tuple[list[Unit], list[Unit]]:
    """(every unit, the new ones): ``stored`` then those of ``new`` it lacks, one
    unit per kind, English and translation (the card's own name as the memory keys it:
    "Courier deals 2" translated on Courier is "Herald deals 2" translated on Herald)."""
    kept = list(stored)
    seen = {(u.key, u.target_for(NAME)) for u in kept}
    added = []
    for unit in new:
        identity = (unit.key, unit.target_for(NAME))
        if identity not in seen:
            seen.add(identity)
            added.append(unit)
    return kept + added, added


def stored_units(units: Iterable[Unit]) -> list[Unit]:
    """``units`` in the order a memory file keeps them (stable, so that an import that
    brings nothing new rewrites the same file)."""
    return sorted(units, key=lambda u: (KINDS.index(u.kind), u.key[1], u.target))


@dataclass
class TmxImport:
    """What ``translator import tmx`` did (or, dry, would do) to a library's memory."""

    content: TmxContent
    #: The library's memory file of the language.
    target: Path
    #: The units new to it, and how many it holds now.
    added: list[Unit]
    stored: int
    #: What the new units bring to the cards to translate.
    gains: list[Gain]
    dry_run: bool = False

    @property
    def known(self) -> int:
        return len(self.content.units) - len(self.added)


def library_root(library: Library) -> Path:
    """The one folder holding the library's decks, where its memory is kept."""
    roots = library_roots(library)
    if len(roots) == 1:
        return roots[0]
    raise UsageError(
        f"the decks are in {len(roots)} folders ({', '.join(map(str, roots))}): "
        "give --library with the one whose memory this is"
    )


def import_tmx(
    content: TmxContent, library: Library, lang: str, *, dry_run: bool = False
) -> TmxImport:
    """Add the units of a TMX file (read by :func:`read_tmx`) to ``library``'s memory
    of ``lang`` (``<root>/memory/<lang>.tmx``, merged, written atomically unless
    ``dry_run``), and say what they bring to the cards to translate."""
    root = library_root(library)
    target = memory_path(root, lang)
    if not inside(target, root):
        raise InputError(
            str(target),
            f"leads out of the library (to {os.path.realpath(target)}): nothing is written "
            "there; make it a plain folder and file",
        )
    from .tmx import read_units, write_tmx  # noqa: PLC0415 - translate-toolkit loads slowly

    stored = read_units(target, lang) if target.is_file() else []
    merged, added = merge(stored, content.units)
    if len(merged) > MAX_EXCHANGE_ENTRIES:
        raise InputError(
            content.path,
            f"the {lang} memory would hold {len(merged):,} units, more than a TMX file may "
            f"({MAX_EXCHANGE_ENTRIES:,}): is this the right file?",
        )
    if added and not dry_run:
        target.parent.mkdir(exist_ok=True)
        text = write_tmx(stored_units(merged), lang).decode("utf-8")
        atomic_write(str(target), text, within=root)
    # The library's memory with the file merged, read once (not again from disk).
    memory = load_memory(library, lang, imported=False)
    memory.add(merged)
    found = gains(library, lang, memory, set(added))
    return TmxImport(content, target, added, len(merged), found, dry_run)


#: The most suggestions :func:`suggest` gives a text (a screenful).
MAX_SUGGESTIONS = 20


@dataclass
class CardSuggestions:
    """What the translation memory offers one card (``translator suggest``)."""

    card: Card
    lang: str
    #: The card's state in ``lang`` (missing, draft, ...).
    state: str
    #: How many English texts the memory holds.
    memory: int
    cutoff: float
    texts: list[Text]

    @property
    def summary(self) -> dict[str, int]:
        exact = sum(1 for t in self.texts if t.exact is not None)
        fuzzy = sum(1 for t in self.texts if t.exact is None and t.fuzzy)
        return {
            "texts": len(self.texts),
            "exact": exact,
            "fuzzy": fuzzy,
            "none": len(self.texts) - exact - fuzzy,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": f"{self.card.deck}/{self.card.slug}",
            "lang": self.lang,
            "state": self.state,
            "memory": self.memory,
            "min": self.cutoff,
            "texts": [t.to_dict() for t in self.texts],
            "summary": self.summary,
        }


def suggest(
    card: str,
    lang: str,
    *,
    library: Paths | None = None,
    cutoff: float = 75.0,
    limit: int = 3,
) -> CardSuggestions:
    """For each text of ``card`` (a slug, ``deck/slug``, guid or file), the exact
    translation the memory has, or its most similar ones (``cutoff`` percent or more,
    ``limit`` each); the card's own translation is never a suggestion for itself.

    >>> found = suggest("veil-stalker", "fr", library="cards/sample")
    >>> found.summary["texts"] > 0
    True
    """
    from ..cards.select import card_library, find_card, read_library  # noqa: PLC0415
    from ..errors import UsageError  # noqa: PLC0415
    from . import states  # noqa: PLC0415
    from .targets import target_language  # noqa: PLC0415

    lang = target_language(lang)
    if not 0 < cutoff <= 100:
        raise UsageError(f"--min {cutoff:g}: a similarity in percent, above 0 and at most 100")
    if not 1 <= limit <= MAX_SUGGESTIONS:
        raise UsageError(f"--limit {limit}: from 1 to {MAX_SUGGESTIONS} suggestions a text")
    loaded = read_library(card_library([card], library))
    found = find_card(loaded, card)
    memory = load_memory(loaded, lang)
    return CardSuggestions(
        found,
        lang,
        states.card_state(found, lang).state,
        len(memory),
        cutoff,
        card_texts(found, lang, memory, cutoff, limit),
    )
