"""The workflow's commands as use cases: drafts written (``translator translate``), a
deck's text carried out to PO or XLIFF with its glossary (``export po|xliff``), and
translations carried back, linted before anything is written (``import po|xliff``).
:mod:`translator.api` calls these; the command line prints what they return.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..paths import Paths, path_list

if TYPE_CHECKING:
    from ..cards import Library
    from ..diagnostics import Severity
    from ..lint import Report
    from ..lint.context import Resources
    from .draft import Draft
    from .exchange import Entry, ImportResult
    from .memory import Memory

__all__ = [
    "Drafts",
    "ExchangeExport",
    "ExchangeImport",
    "export_exchange",
    "import_exchange",
    "write_drafts",
]

#: How the translation memory is read when a draft or an entry first needs it (None:
#: not at all, ``--no-memory``).
MemoryReader = Callable[["Library", str], "Memory"]


@dataclass
class Drafts:
    """What ``translate`` made: the drafts (written unless ``dry_run``), the files
    that appeared meanwhile (left alone), the memory's size when it was read."""

    lang: str
    drafts: list[Draft]
    dry_run: bool
    #: Cards that already had a translation (never overwritten).
    translated: int
    #: Draft files another writer created meanwhile: left alone.
    appeared: list[str] = field(default_factory=list)
    #: How many units the translation memory held, when a draft needed it.
    memory: int | None = None


def write_drafts(
    library: Library,
    lang: str,
    resources: Resources,
    *,
    memory: Callable[[], Memory] | None,
    dry_run: bool = False,
) -> Drafts:
    """A draft for every English card of ``library`` without a ``lang`` translation,
    written atomically unless ``dry_run`` (a file that appeared meanwhile is left
    alone); ``memory`` is called when a draft first needs it."""
    from ..textio import atomic_write  # noqa: PLC0415
    from . import draft  # noqa: PLC0415

    used: list[Memory] = []

    def remember() -> Memory:
        """The memory, read when a draft first needs it (no draft to make: no read)."""
        assert memory is not None
        used.append(memory())
        return used[0]

    drafts = draft.plan_drafts(
        library, resources, lang, memory=None if memory is None else remember
    )
    written = []
    appeared = []
    for made in drafts:
        if not dry_run:
            if Path(made.path).exists():
                appeared.append(made.path)
                continue
            atomic_write(made.path, made.content, within=Path(made.path).parent)
        written.append(made)
    translated = sum(
        1
        for card in library.cards.values()
        if card.source is not None and lang in card.translations
    )
    return Drafts(lang, written, dry_run, translated, appeared, len(used[0]) if used else None)


@dataclass
class ExchangeExport:
    """A deck's translatable text as a PO or XLIFF file (``export po|xliff``): its
    entries, the file's bytes, and the files written (the glossary's TBX beside it)."""

    entries: list[Entry]
    data: bytes
    #: What to write where the caller named a file: the PO or XLIFF there, the TBX
    #: glossary beside it (the command line writes them).
    files: dict[str, str] = field(default_factory=dict)

    @property
    def fuzzy(self) -> int:
        return sum(1 for e in self.entries if e.fuzzy)

    @property
    def empty(self) -> int:
        """Entries with no translation."""
        return sum(1 for e in self.entries if not e.target)

    @property
    def suggested(self) -> int:
        """Entries with the translation memory's suggestions."""
        return sum(1 for e in self.entries if e.suggestions)


def deck_name(deck: str) -> str:
    """The deck a ``DECK_DIR`` argument names (the directory, or a file's directory)."""
    return Path(deck).name if Path(deck).is_dir() else Path(deck).parent.name


def export_exchange(
    deck: str,
    lang: str,
    kind: str,
    *,
    output: str | None = None,
    memory: MemoryReader | None = None,
    tbx: bool = True,
) -> ExchangeExport:
    """The deck directory ``deck``'s text in ``lang`` as a ``kind`` (``po``,
    ``xliff``) file, with the translation memory's suggestions (``memory``: how it is
    read; None: none), written to ``output`` (None or ``-``: returned only) with the
    glossary beside it as TBX (``tbx``)."""
    from ..cards.select import read_library  # noqa: PLC0415
    from ..glossary.exchange import to_tbx  # noqa: PLC0415
    from ..lint.run import lint_setup  # noqa: PLC0415
    from ..typeset.overflow import overflowing  # noqa: PLC0415 - cheap: PR101's measure
    from . import exchange  # noqa: PLC0415 - translate-toolkit loads slowly
    from .targets import target_language  # noqa: PLC0415

    lang = target_language(lang)
    library = read_library([deck])
    name = deck_name(deck)
    if name not in library.decks:
        raise UsageError(f"{deck} is not a deck directory (it has no deck.yaml)")
    resources = lint_setup([lang], [deck], fit=overflowing).resources
    found = exchange.entries(
        library,
        name,
        lang,
        resources.language(lang),
        resources.english,
        None if memory is None else lambda: memory(library, lang),
    )
    data = exchange.write_store(found, kind, lang, name, library.decks[name].name)
    result = ExchangeExport(found, data)
    if output in (None, "-"):
        return result
    destination = Path(output)
    result.files[str(destination)] = data.decode("utf-8")
    if tbx:
        result.files[str(destination.with_suffix(".tbx"))] = to_tbx(
            resources.language(lang).glossary, resources.english.glossary
        )
    return result


@dataclass
class ExchangeImport:
    """Translations of a PO or XLIFF file carried into the card files (``import
    po|xliff``): what the import changed or refused, and the lint of the cards as
    they are now (or would be, in a dry run)."""

    result: ImportResult
    lang: str
    report: Report
    fail_on: Severity
    dry_run: bool

    @property
    def failed(self) -> bool:
        """Entries refused, or findings at ``fail_on`` or above (exit 1)."""
        return bool(self.result.refused) or self.report.failed(self.fail_on)


def import_exchange(
    file: str,
    *,
    lang: str | None = None,
    library: Paths | None = None,
    fuzzy: bool = False,
    dry_run: bool = False,
) -> ExchangeImport:
    """The translations of the PO or XLIFF ``file`` into the card files of
    ``library`` (default: ``cards``), in ``lang`` (default: the file's): each card as
    it would be is linted before anything is written; ``fuzzy`` imports fuzzy entries
    as drafts; ``dry_run`` writes nothing: ``translator import po|xliff``.  The result
    says what changed, what was refused, and the lint (``failed``: exit 1)."""
    from ..cards.select import read_library  # noqa: PLC0415
    from ..lint import Report, lint  # noqa: PLC0415
    from ..lint.run import lint_setup  # noqa: PLC0415
    from ..textio import atomic_write  # noqa: PLC0415
    from ..typeset.overflow import overflowing  # noqa: PLC0415 - cheap: PR101's measure
    from . import exchange  # noqa: PLC0415 - translate-toolkit loads slowly
    from .targets import target_language  # noqa: PLC0415

    # The file first: a file that cannot be imported says so before the library loads.
    store = exchange.read_exchange(file)
    chosen = target_language(lang) if lang else exchange.target_language(file, store)
    paths = path_list(library)
    loaded = read_library(paths)
    result = exchange.plan_import(file, loaded, chosen, fuzzy, store)
    chosen = target_language(result.lang)
    # Lint the cards as they would be, before anything is written.
    for parsed in exchange.reparsed(result.updates):
        loaded.add(parsed)
    setup = lint_setup([chosen], paths, fit=overflowing)
    options = setup.options
    options.files = {u.path for u in result.updates}
    report = lint(loaded, setup.resources, options) if options.files else Report([], 0, 0, 0)
    if not dry_run:
        for update in result.updates:
            atomic_write(update.path, update.new, within=Path(update.path).parent)
    return ExchangeImport(result, chosen, report, setup.fail_on, dry_run)
