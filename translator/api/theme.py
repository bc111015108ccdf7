"""``translator theme``: the official Arcmage look imported as a print theme
(:mod:`translator.themes.arcmage`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..themes.arcmage.importer import ImportReport

__all__ = ["import_theme"]


def import_theme(
    source: str,
    out: str | Path | None = None,
    *,
    cache: str | Path | None = None,
    progress: bool | None = None,
    icc: str | None = None,
) -> ImportReport:
    """Import an Arcmage template set (a folder, an archive or its address) as a
    theme into ``out`` (default: the user's themes folder, ``arcmage``): ``translator
    theme import-arcmage``.  ``cache``: where downloads are kept; ``progress``: a
    download's progress bar (None: on a terminal); ``icc``: the CMYK profile the
    colours are converted with.  A template set, a font or a theme that cannot be used
    is a :class:`~translator.errors.UserError`."""
    from ..themes.arcmage.importer import import_arcmage  # noqa: PLC0415 - Pillow, httpx

    return import_arcmage(
        source,
        out,
        cache_dir=Path(cache) if cache else None,
        progress=progress,
        icc=icc,
    )
