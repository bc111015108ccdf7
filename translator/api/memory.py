"""The translation memory: ``translator suggest``, ``export tmx`` and ``import tmx``
(thin callers of :mod:`translator.workflow`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..paths import Paths

if TYPE_CHECKING:
    from ..cards import Library
    from ..workflow.memory import Memory, Unit
    from ..workflow.stored import TmxImport

__all__ = ["export_tmx", "import_tmx", "load_memory"]


def load_memory(library: Library | Paths | None, lang: str, *, whole: bool = True) -> Memory:
    """The translation memory of ``lang`` for work on ``library`` (a loaded library,
    or paths): every translated, non-draft, non-stale unit of the library's cards and
    of the decks beside them (``whole``), and the TMX files imported into it.

    >>> memory = load_memory("cards/sample", "fr")
    >>> memory.exact("name", "Courier").target
    'Messager'
    """
    from ..cards.model import Library as LoadedLibrary  # noqa: PLC0415
    from ..cards.select import read_library  # noqa: PLC0415
    from ..workflow.stored import load_memory as read_memory  # noqa: PLC0415
    from ..workflow.targets import target_language  # noqa: PLC0415

    loaded = library if isinstance(library, LoadedLibrary) else read_library(library)
    return read_memory(loaded, target_language(lang), whole=whole)


def export_tmx(library: Paths | None, lang: str) -> tuple[bytes, list[Unit]]:
    """The translation memory of ``lang`` of the library under ``library`` (its own
    decks, and the TMX files imported into it) as a TMX 1.4 file, and its units."""
    from ..workflow import tmx  # noqa: PLC0415 - translate-toolkit loads slowly

    units = load_memory(library, lang, whole=False).units()
    return tmx.write_tmx(units, lang), units


def import_tmx(
    file: str, lang: str, *, library: Paths | None = None, dry_run: bool = False
) -> TmxImport:
    """Add a TMX file's units to the library's memory of ``lang``
    (``LIBRARY/memory/LANG.tmx``), and say what they bring to the cards to translate."""
    from ..cards.select import read_library  # noqa: PLC0415
    from ..workflow import stored, tmx  # noqa: PLC0415 - translate-toolkit loads slowly
    from ..workflow.targets import target_language  # noqa: PLC0415

    lang = target_language(lang)
    content = tmx.read_tmx(file, lang)  # first: a file that cannot be read says so at once
    return stored.import_tmx(content, read_library(library), lang, dry_run=dry_run)
