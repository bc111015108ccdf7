"""Print (translator.typeset): layout, themes, the official Arcmage look, artwork, PDF/X,
preflight, sheets, the build and its watch server.  Builds shared by several modules
are session fixtures here, made once for the run (tests/conftest.py's shared_build)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT, shared_build


@pytest.fixture(scope="session")
def french_sample() -> tuple[Path, list]:
    """The sample deck built in French (24 card PDFs, the default theme, Arcmage size):
    (output folder, the build's card results), built once for the run."""

    def make(out: Path) -> list:
        from translator import cards
        from translator.pdf.sizes import PRESETS
        from translator.typeset import build
        from translator.typeset.options import BuildOptions

        library, problems = cards.load_library([str(ROOT / "cards" / "sample")])
        assert not problems, problems
        options = BuildOptions(PRESETS["arcmage"], jobs=2, cache_dir=out / ".cache")
        return build.build_cards(library, "fr", out, options)

    return shared_build("sample-fr", make)
