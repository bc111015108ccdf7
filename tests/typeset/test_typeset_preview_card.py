"""``api.preview_card``: one card file, laid out as ``translator build`` lays it out,
pictured as a PNG from the text an editor holds (unsaved), fast once warm.

Real renders (WeasyPrint, the soft proof through Ghostscript) of a copy of the sample.
"""

from __future__ import annotations

import math
import shutil
import time
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import ROOT
from translator import api
from translator.errors import UserError
from translator.pdf.sizes import MM_PT, card_size

SAMPLE = ROOT / "cards" / "sample"
CARD = "cards/sample/veil-stalker.fr.md"
#: A paragraph long enough that no scale fits it on a card.
LONG = "\n\n" + "Je pioche une carte, puis je défausse une carte de ma main. " * 30


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ``cards/sample``, a copy of the sample nobody changes."""
    where = tmp_path_factory.mktemp("preview")
    shutil.copytree(SAMPLE, where / "cards" / "sample")
    return where


@pytest.fixture
def here(library: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(library)
    return library


def pixels(path: str | Path) -> bytes:
    with Image.open(path) as image:
        return image.convert("RGB").tobytes()


def expected_size(dpi: float, size: str = "arcmage") -> tuple[int, int]:
    """A card's picture at ``dpi``: its page (PDFium's size, rounded up) less the bleed
    on every side, as the build's previews are cut."""
    card = card_size(size)
    cut = round(card.bleed / 25.4 * dpi)
    return (
        math.ceil(card.page_width * MM_PT * dpi / 72) - 2 * cut,
        math.ceil(card.page_height * MM_PT * dpi / 72) - 2 * cut,
    )


@pytest.mark.slow
def test_the_unsaved_text_is_pictured(here: Path) -> None:
    """The picture follows the editor's text, not the file, which stays as it is; the
    second preview in the process is the warm one (under a second, measured on a loaded
    two-core machine at about half of it)."""
    saved = Path(CARD).read_text("utf-8")
    first = api.preview_card(CARD)
    assert first.summary == "fits" and first.printable
    assert first.png == "out/preview/veil-stalker.fr.png"
    assert first.pdf is None and not list(Path("out/preview").glob("*.pdf"))
    before = pixels(first.png)
    start = time.perf_counter()
    changed = api.preview_card(CARD, text=saved.replace("Rôdeur du voile", "Rôdeuse du voile"))
    warm = time.perf_counter() - start
    assert pixels(changed.png) != before
    assert Path(CARD).read_text("utf-8") == saved
    assert changed.errors == [] and changed.warnings == []
    assert warm < 3.0, f"a warm preview took {warm:.2f} s"
    # Nothing half written is left: only the picture (and the artwork cache).
    assert sorted(p.name for p in Path("out/preview").iterdir()) == [
        ".cache",
        "veil-stalker.fr.png",
    ]


@pytest.mark.slow
@pytest.mark.parametrize("dpi", [96, 150])
def test_the_picture_has_the_size_of_its_dpi(here: Path, dpi: int) -> None:
    shown = api.preview_card(CARD, dpi=dpi, out="out/dpi", proof=dpi == 150)
    with Image.open(shown.png) as image:
        assert image.size == expected_size(dpi)
        assert round(image.info["dpi"][0]) == dpi


@pytest.mark.slow
def test_a_text_too_long_is_refused_and_shown(here: Path) -> None:
    """The build would refuse it: the preview says so, and its picture outlines the
    text box in red (the cut text is the build's layout at its floor)."""
    text = Path(CARD).read_text("utf-8") + LONG
    shown = api.preview_card(CARD, text=text, out="out/long")
    assert shown.summary.startswith("refused: the text does not fit (")
    assert shown.summary.endswith(" mm too tall at 68 %)")
    assert not shown.printable and shown.overflow is not None and shown.overflow > 5
    assert shown.errors == [
        f"{CARD}: the text is {shown.overflow:.1f} mm too tall for its box at 68 %: shorten it"
    ]
    data = pixels(shown.png)
    red = sum(
        1
        for r, g, b in zip(data[0::3], data[1::3], data[2::3], strict=True)
        if r > 200 and g < 60 and b < 60
    )
    assert red > 500  # the outline and its label
    assert shown.pdf is None


@pytest.mark.slow
def test_a_kept_pdf_is_the_builds(here: Path) -> None:
    """``keep_pdf``: the card's PDF beside the picture, print-ready as the build's."""
    shown = api.preview_card(CARD, out="out/kept", keep_pdf=True)
    assert shown.pdf == "out/kept/veil-stalker.fr.pdf"
    [report] = api.preflight(shown.pdf, size="arcmage")
    assert report.ok, report.problems
    long = api.preview_card(CARD, text=Path(CARD).read_text("utf-8") + LONG, out="out/kept2")
    assert long.pdf is None  # a refused card has no print file


@pytest.mark.slow
def test_an_english_card_and_a_shrunk_text(here: Path) -> None:
    english = "cards/sample/veil-stalker.en.md"
    text = Path(english).read_text("utf-8") + "\n\nI draw a card, then I discard a card. " * 4
    shown = api.preview_card(english, text=text)
    assert shown.lang == "en" and shown.png == "out/preview/veil-stalker.en.png"
    assert shown.summary.startswith("shrunk to ") and shown.scale < 1.0, shown.summary


@pytest.mark.slow
def test_a_changed_theme_is_seen(here: Path, tmp_path: Path) -> None:
    """The renderer is kept between previews, but not once its theme file changed."""
    theme = tmp_path / "theme"
    theme.mkdir()
    (theme / "theme.yaml").write_text("name: preview test\n", "utf-8")
    plain = pixels(api.preview_card(CARD, theme=str(theme), out="out/theme").png)
    (theme / "theme.yaml").write_text(
        "name: preview test\nfactions:\n"
        "  Dark Legion: {ink: [0, 100, 100, 0], tint: [0, 40, 40, 0]}\n",
        "utf-8",
    )
    assert pixels(api.preview_card(CARD, theme=str(theme), out="out/theme").png) != plain


# --------------------------------------------------------------------------------------
# bad input: one line naming the file and the line, never a picture


def test_broken_yaml_names_the_file_and_line(here: Path) -> None:
    text = Path(CARD).read_text("utf-8").replace("subtype: Ombre", "subtype: [Ombre")
    with pytest.raises(UserError) as raised:
        api.preview_card(CARD, text=text, out="out/broken")
    # YAML finds the bracket unclosed on the next line.
    assert str(raised.value).startswith(f"{CARD}:4:7: malformed YAML: "), str(raised.value)
    assert not Path("out/broken/veil-stalker.fr.png").exists()


def test_a_value_aminduna_refuses_names_its_line(here: Path) -> None:
    text = Path(CARD).read_text("utf-8").replace("status: Draft", "status: Drafty")
    with pytest.raises(UserError, match=rf"^{CARD}:4: "):
        api.preview_card(CARD, text=text)


def test_not_a_card_file(here: Path) -> None:
    with pytest.raises(UserError, match=r"^cards/sample/notes\.md: not a card file"):
        api.preview_card("cards/sample/notes.md", text="hello")
    with pytest.raises(UserError, match=r"^cards/sample/ghost\.fr\.md: no such file"):
        api.preview_card("cards/sample/ghost.fr.md")


def test_outside_a_library(here: Path, tmp_path: Path) -> None:
    stray = tmp_path / "veil-stalker.fr.md"
    stray.write_text(Path(CARD).read_text("utf-8"), "utf-8")
    with pytest.raises(UserError, match=r"outside a library: no deck\.yaml next to this file"):
        api.preview_card(str(stray))
    other = tmp_path / "cards" / "other"
    shutil.copytree(SAMPLE, other, ignore=shutil.ignore_patterns("art"))
    with pytest.raises(UserError, match=rf"^{CARD}: not a card of the library {other}: "):
        api.preview_card(CARD, library=str(other))


def test_a_translation_without_its_english_card(here: Path) -> None:
    text = Path(CARD).read_text("utf-8")
    with pytest.raises(UserError, match=r"no nobody\.en\.md beside it"):
        api.preview_card("cards/sample/nobody.fr.md", text=text)


def test_a_dpi_out_of_range(here: Path) -> None:
    with pytest.raises(UserError, match="dpi is between 24 and 1200"):
        api.preview_card(CARD, dpi=5000)


def test_a_changed_glossary_drops_the_cached_glossaries(tmp_path: Path) -> None:
    """What keeps a long-lived process (an editor's server, a watching build) from
    printing with a glossary or theme older than its files."""
    from translator.typeset import card_preview, fitting

    glossary = tmp_path / "glossary.fr.yaml"
    glossary.write_text("language: fr\n", "utf-8")
    roots = [tmp_path]
    card_preview.refresh(None, roots, ["fr"])  # what the caches are made from now
    fitting.cached_glossary("fr", tuple(roots))
    assert not card_preview.refresh(None, roots, ["fr"])
    assert fitting.cached_glossary.cache_info().currsize > 0
    glossary.write_text("language: fr\nentries: []\n", "utf-8")
    assert card_preview.refresh(None, roots, ["fr"])
    assert fitting.cached_glossary.cache_info().currsize == 0
    assert not card_preview.refresh(None, roots, ["fr"])
