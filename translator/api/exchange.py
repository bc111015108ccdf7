"""``translator import`` and ``translator export``: cards in and out of Aminduna's JSON
(:mod:`translator.cards.aminduna`), translations in and out of PO and XLIFF files
(:mod:`translator.workflow.runs`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UsageError

if TYPE_CHECKING:
    from ..cards import Problem
    from ..cards.aminduna import ImportPlan
    from ..workflow.runs import ExchangeExport

__all__ = [
    "ArcmageExport",
    "export_arcmage",
    "export_exchange",
    "import_arcmage",
]


def import_arcmage(files: list[str], into: str, *, library: str | None = None) -> ImportPlan:
    """Import Aminduna JSON files (a card, a deck, a list, a search result) into the
    deck directory ``into``, translations next to their source: all or nothing
    (:class:`translator.cards.ImportError_`, with its ``problems``, when anything
    fails; nothing is written then): ``translator import arcmage``.  ``library``: the
    library searched for existing cards (default: the directory above ``into``)."""
    from ..cards import import_files  # noqa: PLC0415

    return import_files(files, into, library)


@dataclass
class ArcmageExport:
    """A deck as Aminduna's JSON and its ``deck.txt`` (``export arcmage``), the files
    written, or the library's problems (nothing exported then)."""

    data: dict[str, Any]
    deck_txt: str
    #: What to write where the caller named a file: the JSON there, ``deck.txt``
    #: beside it (the command line writes them: a file the user named is written there).
    files: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The JSON as written."""
        return json.dumps(self.data, ensure_ascii=False, indent=2) + "\n"


def export_arcmage(deck: str, lang: str, *, output: str | None = None) -> ArcmageExport:
    """The deck directory ``deck`` in ``lang`` as Aminduna's JSON and its ``deck.txt``,
    written to ``output`` and ``output`` with ``.txt`` (None or ``-``: returned only):
    ``translator export arcmage``.  A library with problems exports nothing (they are
    in the result).

    >>> export = export_arcmage("cards/sample", "fr")
    >>> export.problems, export.data["totalCards"] > 0, export.deck_txt.splitlines()[0]
    ([], True, '# Sample by translator')
    """
    from ..cards import export_deck, load_library  # noqa: PLC0415
    from ..workflow.runs import deck_name  # noqa: PLC0415

    library, problems = load_library([deck])
    if problems:
        return ArcmageExport({}, "", problems=problems)
    name = deck_name(deck)
    if name not in library.decks:
        raise UsageError(f"{deck} is not a deck directory (it has no deck.yaml)")
    data, deck_txt = export_deck(library, name, lang)
    result = ArcmageExport(data, deck_txt)
    if output in (None, "-"):
        return result
    destination = Path(output)
    result.files = {str(destination): result.text, str(destination.with_suffix(".txt")): deck_txt}
    return result


def export_exchange(
    deck: str,
    lang: str,
    kind: str = "po",
    *,
    output: str | None = None,
    memory: bool = True,
    tbx: bool = True,
) -> ExchangeExport:
    """The translatable text of the deck directory ``deck`` in ``lang`` as a ``kind``
    (``po``, ``xliff``) file, with the translation memory's suggestions (``memory``),
    written to ``output`` (None or ``-``: returned only, in ``.data``) with the
    glossary beside it as TBX (``tbx``): ``translator export po|xliff``.

    >>> export = export_exchange("cards/sample", "fr", memory=False)
    >>> len(export.entries) > 0, list(export.files)
    (True, [])
    """
    from ..workflow import runs  # noqa: PLC0415
    from .memory import load_memory  # noqa: PLC0415

    return runs.export_exchange(
        deck,
        lang,
        kind,
        output=output,
        memory=load_memory if memory else None,
        tbx=tbx,
    )
