"""Helpers shared by the print tests."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest

from translator.typeset.arcmage.importer import import_arcmage
from translator.typeset.artwork import Profile, find_profile

from .conftest import shared_dir


def cmyk_profile() -> Profile:
    """The CMYK profile a build uses, or the calling test module skipped with why (a
    machine without Ghostscript's profile)."""
    try:
        return find_profile()
    except Exception as error:  # any reason to skip is reported
        pytest.skip(f"no CMYK profile: {error} (apt-get install ghostscript)",
                    allow_module_level=True)


def official_templates() -> Path:
    """The official template set (``../shared/arcmage-official``), or the calling test
    skipped: the set is reference material next to a development checkout, never in
    the repository."""
    shared = shared_dir()
    folder = shared / "arcmage-official" if shared is not None else None
    if folder is None or not (folder / "CardTemplates" / "back.png").is_file():
        pytest.skip("../shared/arcmage-official is not next to this checkout (the "
                    "official template set; set TRANSLATOR_SHARED)")
    return folder


@lru_cache(maxsize=1)
def _imported(folder: str) -> Path:
    work = tempfile.mkdtemp(prefix="translator-arcmage-theme-")
    atexit.register(shutil.rmtree, work, ignore_errors=True)
    out = Path(work) / "arcmage"
    import_arcmage(folder, out, progress=False)
    return out


def arcmage_theme() -> Path:
    """The official look imported from :func:`official_templates`, once per test
    session (about 15 s), into a temporary folder."""
    return _imported(str(official_templates()))
