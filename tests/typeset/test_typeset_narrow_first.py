"""Footers that need the narrow face are known before the cards are laid out
(translator/typeset/fitting.py, ``_narrow_first``): in the official look, whose footers
are often too long for its regular face, such a card is laid out whole once, not twice,
and prints as it did when the narrow face was chosen after a first layout."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.printkit import cmyk_profile, sample_deck
from translator import cards
from translator.pdf.sizes import PRESETS
from translator.typeset import build, fitting, render
from translator.typeset.options import BuildOptions

cmyk_profile()

#: Sample cards whose French footer needs the narrow face in the official look (the
#: first two: the text of one fits, of the other shrinks), and one whose footer does not.
CHOSEN = ("courier", "tide-warden", "flame-lash")


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> cards.Library:
    return sample_deck(tmp_path_factory.mktemp("narrow") / "deck", CHOSEN)


def _build(library: cards.Library, theme: Path, out: Path) -> dict[str, tuple]:
    # One cache folder for the test's builds: the frames converted once.
    options = BuildOptions(PRESETS["arcmage"], str(theme), jobs=1, cache_dir=out.parent / "cache")
    return {
        r.slug: (r.scale, r.overflow, r.elements, r.errors)
        for r in build.build_cards(library, "fr", out, options, force=True)
    }


@pytest.mark.slow  # the official look: frames converted, seconds
def test_a_footer_too_long_is_narrowed_before_the_card_is_laid_out(
    library: cards.Library, arcmage_theme: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRANSLATOR_CACHE", "")  # every card fitted: no answer kept
    renders: list[tuple[int, object]] = []
    narrowed: list[str] = []
    original = render.Renderer.render

    def counted(self: render.Renderer, pages: list, measure: render.Measure = False) -> object:
        renders.append((len(pages), measure))
        if measure is False:
            narrowed.extend(p.slug for p in pages if "info" in p.narrow)
        return original(self, pages, measure)

    monkeypatch.setattr(render.Renderer, "render", counted)
    found = _build(library, arcmage_theme, tmp_path / "now")
    assert renders[0] == (3, render.FOOTERS)
    assert sorted(narrowed) == ["courier", "tide-warden"]  # already in the first layout
    whole = [count for count, measure in renders if measure is False]
    assert whole == [3]  # each card laid out whole once

    # The same cards with the narrow face chosen after a first layout, as before.
    monkeypatch.setattr(render.Renderer, "render", original)
    monkeypatch.setattr(fitting, "_narrow_first", lambda renderer, pages: None)
    assert _build(library, arcmage_theme, tmp_path / "after") == found


def test_a_theme_without_a_narrow_face_lays_no_footer_out_alone(
    library: cards.Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRANSLATOR_CACHE", "")
    modes: list[object] = []
    original = render.Renderer.render

    def counted(self: render.Renderer, pages: list, measure: render.Measure = False) -> object:
        modes.append(measure)
        return original(self, pages, measure)

    monkeypatch.setattr(render.Renderer, "render", counted)
    options = BuildOptions(PRESETS["arcmage"], jobs=1, cache_dir=tmp_path / ".cache")
    build.build_cards(library, "fr", tmp_path, options, force=True)
    assert render.FOOTERS not in modes
