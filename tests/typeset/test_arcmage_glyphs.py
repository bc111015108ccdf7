"""The official look's symbols (translator.themes.arcmage.glyphs): drawn from the
official symbol font, at the official size, on the baseline, in CMYK.

The font is read from the template set in ``../shared/arcmage-official`` (never copied
into the repository): the module is skipped without it.  Positions are measured in a
card WeasyPrint renders with the symbols in a theme directory: the glyphs' outlines
from pypdfium2's page objects (the glyphs are drawn in magenta ink, to find them), the
text's baselines from its text page, the ink from a render of the page.
"""

from __future__ import annotations

import ctypes
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pypdfium2
import pypdfium2.raw as pdfium
import pytest
from fontTools.ttLib import newTable
from PIL import Image

from tests.conftest import NO_OFFICIAL_SET, ROOT, official_template_set
from translator import cards
from translator.markup import parse
from translator.markup.tree import SYMBOL_CODES, symbol_kind
from translator.pdf.sizes import PRESETS
from translator.themes.arcmage import glyphs
from translator.themes.arcmage.glyphs import (
    GlyphError,
    Metrics,
    contact_sheet,
    load_table,
    write_symbols,
)
from translator.typeset.render import Renderer, card_page, text_html, weasyprint_markup
from translator.typeset.symbols import symbol_drawing, symbol_path, symbol_svg
from translator.typeset.theme import load_theme

from .test_typeset_symbols import page_problems

#: The official template set (a folder that does not exist where it is absent).
SHARED = official_template_set() or Path("/nonexistent/arcmage-official")
FONT = SHARED / "Fonts" / "WTactics Symbols.ttf"
pytestmark = pytest.mark.skipif(not FONT.is_file(), reason=NO_OFFICIAL_SET)

SVG = "{http://www.w3.org/2000/svg}"
PT_MM = 25.4 / 72
LIBERATION = Path("/usr/share/fonts/truetype/liberation")
#: The official font's glyphs are 1000 units tall, on the baseline, in 2048 units an
#: em; cyphers and the arrow 1000 units wide (their advance), tags 1800.  Aminduna sets
#: them at 16 (inline, column) and 35 (large) against the text's 11.25.
INLINE, LARGE = 16 / 11.25, 35 / 11.25
GLYPH_HEIGHT = 1000 / 2048
MAGENTA = [0, 100, 0, 0]


def expected_size(code: str) -> tuple[float, float]:
    """The drawing's size in em: the glyph's advance, and its kind's box height."""
    char = load_table().codes[code][0]
    advance = (1800 if char in "M0123456789ATX" else 1000) / 2048
    kind = symbol_kind(code)
    if kind == "mark":
        return advance * LARGE, 2.25
    return advance * INLINE, 1.0


@pytest.fixture(scope="module")
def theme_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("theme")
    (directory / "theme.yaml").write_text("name: official glyphs\n", encoding="utf-8")
    write_symbols(FONT, directory / "symbols")
    return directory


# --- the files ----------------------------------------------------------------------


def test_every_code_is_mapped_and_written(tmp_path: Path) -> None:
    assert set(load_table().codes) == SYMBOL_CODES
    written = write_symbols(FONT, tmp_path / "symbols")
    assert written == list(load_table().codes)
    assert {p.stem for p in (tmp_path / "symbols").glob("*.svg")} == SYMBOL_CODES


@pytest.mark.parametrize("code", sorted(SYMBOL_CODES))
def test_each_file_is_a_theme_symbol_of_the_official_size(theme_dir: Path, code: str) -> None:
    assert symbol_path(code, theme_dir) == theme_dir / "symbols" / f"{code}.svg"
    drawing = symbol_drawing(code, theme_dir)
    width, height = expected_size(code)
    assert drawing.size_em == pytest.approx((width, height), abs=0.0001)
    root = ET.fromstring(symbol_svg(code, theme_dir=theme_dir))
    assert float(root.get("width", "").removesuffix("em")) == pytest.approx(width, abs=0.0001)
    assert float(root.get("height", "").removesuffix("em")) == pytest.approx(height)


@pytest.mark.parametrize("code", sorted(SYMBOL_CODES))
def test_each_file_is_paths_in_one_cmyk_ink(theme_dir: Path, code: str) -> None:
    path = theme_dir / "symbols" / f"{code}.svg"
    root = ET.parse(path).getroot()
    children = list(root)
    assert children and all(child.tag == f"{SVG}path" for child in children)
    assert {child.get("fill") for child in children} == {"device-cmyk(0 0 0 1)"}
    assert set(root.attrib) <= {"viewBox", "preserveAspectRatio"}
    text = path.read_text(encoding="utf-8")
    assert glyphs.MADE_BY in text and "GPL-3 or CC BY-SA 4.0" in text
    # column marks: the glyph and the stem run on below it
    assert len(children) == (2 if symbol_kind(code) == "column" else 1)


def test_the_ink_is_the_one_given(tmp_path: Path) -> None:
    write_symbols(FONT, tmp_path, ink=[0, 5, 30, 10])
    assert 'fill="device-cmyk(0 0.05 0.3 0.1)"' in (tmp_path / "g1.svg").read_text("utf-8")


def test_an_ink_must_be_four_percentages(tmp_path: Path) -> None:
    for ink in ([0, 0, 100], [0, 0, 0, 180]):
        with pytest.raises(ValueError, match="four CMYK percentages"):
            write_symbols(FONT, tmp_path, ink=ink)


def test_column_marks_run_on_with_tall(theme_dir: Path) -> None:
    markup = symbol_svg("mc", theme_dir=theme_dir, tall=30.0)
    assert 'viewBox="0 0 125 3000"' in markup and 'height="30em"' in markup
    assert 'preserveAspectRatio="xMidYMin meet"' in markup


def test_the_figures_are_the_fonts_holes(theme_dir: Path) -> None:
    """As the font draws them: one outline with its counters (no paper-white fill)."""
    text = (theme_dir / "symbols" / "g8.svg").read_text("utf-8")
    assert text.count("<path") == 1 and text.count("Z") >= 3  # the disc, the 8's two holes
    assert "device-cmyk(0 0 0 0)" not in text


# --- the font -------------------------------------------------------------------------


def edited_font(tmp_path: Path, drop: str) -> Path:
    """The official font without the characters ``drop`` (and with the tables fontTools
    cannot write back, ``FFTM`` and the broken ``post``, replaced or left out)."""
    font = glyphs._read_font(FONT.read_bytes())
    for table in font["cmap"].tables:
        for char in drop:
            table.cmap.pop(ord(char), None)
    del font["FFTM"]
    post = newTable("post")
    post.formatType, post.italicAngle = 3.0, 0
    post.underlinePosition, post.underlineThickness, post.isFixedPitch = -100, 50, 0
    post.minMemType42 = post.maxMemType42 = post.minMemType1 = post.maxMemType1 = 0
    font["post"] = post
    path = tmp_path / "edited.ttf"
    font.save(path)
    return path


def test_codes_the_font_lacks_are_left_to_the_default(tmp_path: Path) -> None:
    out = tmp_path / "theme" / "symbols"
    write_symbols(FONT, out)
    (out / "gt.svg").write_text("<svg/>", encoding="utf-8")  # a file of the user's own
    written = write_symbols(edited_font(tmp_path, "tx"), out)
    assert set(written) == SYMBOL_CODES - {"gt", "gx"}
    assert not (out / "gx.svg").exists()  # this module's earlier drawing: removed
    assert (out / "gt.svg").read_text("utf-8") == "<svg/>"  # not ours: kept
    assert symbol_path("gx", out.parent).parent.parent.name == "default"


def one_line_error(font: Path, *words: str) -> str:
    with pytest.raises(GlyphError) as caught:
        write_symbols(font, font.parent / "out")
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"{font}: ")
    for word in words:
        assert word in message
    assert not (font.parent / "out").exists()
    return message


def test_a_file_that_is_not_a_font_is_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.ttf"
    text.write_text("not a font\n", encoding="utf-8")
    one_line_error(text, "not a font file", "WTactics Symbols.ttf")
    broken = tmp_path / "broken.ttf"
    broken.write_bytes(FONT.read_bytes()[:400])
    one_line_error(broken, "not a usable font")
    one_line_error(tmp_path / "missing.ttf", "no such file")


def test_a_text_font_is_not_the_symbol_font(tmp_path: Path) -> None:
    """A text font has every character of the table: its glyphs are not discs."""
    regular = load_theme(None).fonts["regular"]
    copy = tmp_path / regular.name
    copy.write_bytes(regular.read_bytes())
    one_line_error(copy, "not the Arcmage symbol font", "not a disc")


def test_a_font_without_the_symbols_is_refused(tmp_path: Path) -> None:
    font = edited_font(tmp_path, "".join(sorted({c for c, _ in load_table().codes.values()})))
    one_line_error(font, "has none of the symbol characters")


# --- printed by WeasyPrint -------------------------------------------------------------

TEXT = (
    "Pay :g3: now, then :mis: it.\n\n"
    ":m2: Deal two damage.\\\nDraw a card.\n\n"
    ":mc: One.\\\nTwo.\\\nThree."
)


def text_fonts() -> list[Any]:
    """The default theme's text font, and Liberation Serif (the official look's) when
    installed: the symbols' baselines follow the font's metrics."""
    fonts = [pytest.param(None, id="default-font")]
    liberation = LIBERATION / "LiberationSerif-Regular.ttf"
    fonts.append(
        pytest.param(
            liberation,
            id="liberation-serif",
            marks=pytest.mark.skipif(
                not liberation.is_file(), reason="fonts-liberation is not installed"
            ),
        )
    )
    return fonts


@pytest.fixture(scope="module", params=text_fonts())
def printed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[bytes, Path]:
    """A sample creature whose text has each kind of symbol, in a theme whose symbols
    are the font's (magenta, to be found), printed by translator's renderer."""
    directory = tmp_path_factory.mktemp("printed")
    yaml = "name: official glyphs\n"
    regular = request.param
    if regular is not None:
        faces = {
            "regular": "Regular",
            "bold": "Bold",
            "italic": "Italic",
            "bold-italic": "BoldItalic",
        }
        yaml += "fonts:\n  text:\n" + "".join(
            f"    {face}: {LIBERATION / f'LiberationSerif-{name}.ttf'}\n"
            for face, name in faces.items()
        )
    (directory / "theme.yaml").write_text(yaml, encoding="utf-8")
    theme = load_theme(directory)
    write_symbols(
        FONT, directory / "symbols", ink=MAGENTA, text=Metrics(**theme.metrics()["regular"])
    )
    sample = (ROOT / "cards" / "sample").resolve()
    library, problems = cards.load_library([str(sample)])
    assert not problems
    page = card_page(library.cards[("sample", "courier")], "en", theme, None)
    page.values["text"] = weasyprint_markup(text_html(parse(TEXT).document, theme, "en"))
    return Renderer(theme, PRESETS["arcmage"], [sample]).render([page]).write_pdf(), directory


def magenta_paths(page: Any) -> list[tuple[float, float, float, float]]:
    """The outlines drawn in magenta (the symbols), (left, bottom, right, top) in mm
    from the page's bottom left, top to bottom."""
    found = []
    for item in page.get_objects(max_depth=8):
        if item.type != pdfium.FPDF_PAGEOBJ_PATH:
            continue
        r, g, b, a = (ctypes.c_uint() for _ in range(4))
        pdfium.FPDFPageObj_GetFillColor(item.raw, r, g, b, a)
        if r.value > 200 and g.value < 60 and 100 < b.value < 200:  # pdfium: 237 2 140
            found.append(tuple(v * PT_MM for v in item.get_bounds()))
    return sorted(found, key=lambda box: -box[3])


def baselines(page: Any) -> dict[str, float]:
    """The baseline (mm from the bottom) of the text's lines, by their first word."""
    text = page.get_textpage()
    found: dict[str, float] = {}
    for word in ("Pay", "Deal", "Draw", "One", "Two"):
        index = text.search(word).get_next()
        assert index is not None, word
        x, y = ctypes.c_double(), ctypes.c_double()
        pdfium.FPDFText_GetCharOrigin(text.raw, index[0], x, y)
        found[word] = y.value * PT_MM
    return found


def test_the_symbols_print_in_cmyk(printed: tuple[bytes, Path]) -> None:
    assert page_problems(printed[0]) == [[]]


def test_the_glyphs_sit_on_the_baselines_at_the_official_size(printed: tuple[bytes, Path]) -> None:
    document = pypdfium2.PdfDocument(printed[0])
    try:
        page = document[0]
        lines = baselines(page)
        cypher, arrow, mark, column, stem = magenta_paths(page)
    finally:
        document.close()
    em = 9 * PT_MM  # the card text at full size
    # pdfium's boxes hold the outlines' control points: the tag's corners overshoot by
    # 10 units in 1000 (0.02 mm at 16), hence 0.04 mm.
    close = 0.04
    inline_h, large_h = GLYPH_HEIGHT * INLINE * em, GLYPH_HEIGHT * LARGE * em
    # cypher and arrow inline, on the line's baseline, 16/11.25 of the text's size
    for box in (cypher, arrow):
        assert box[1] == pytest.approx(lines["Pay"], abs=close)
        assert box[3] - box[1] == pytest.approx(inline_h, abs=close)
    # the large mark on the second line's baseline, 35/11.25 of it, beside both lines
    assert mark[1] == pytest.approx(lines["Draw"], abs=close)
    assert mark[3] - mark[1] == pytest.approx(large_h, abs=close)
    assert mark[3] < lines["Pay"] - 0.5 * em
    # the column mark on the first line's baseline; its stem from inside it, down
    assert column[1] == pytest.approx(lines["One"], abs=close)
    assert column[3] - column[1] == pytest.approx(inline_h, abs=close)
    assert column[1] < stem[3] < column[3] and stem[1] < lines["Two"]
    assert stem[0] == pytest.approx(column[0], abs=close)


def test_the_render_shows_the_ink_where_the_glyph_is(printed: tuple[bytes, Path]) -> None:
    dpi = 600
    document = pypdfium2.PdfDocument(printed[0])
    try:
        page = document[0]
        height = page.get_height() * PT_MM
        cypher = magenta_paths(page)[0]
        image = page.render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()

    def pixels(box: tuple[float, float, float, float]) -> Image.Image:
        left, bottom, right, top = (v / 25.4 * dpi for v in box)
        return image.crop(
            (
                round(left),
                round(height / 25.4 * dpi - top),
                round(right),
                round(height / 25.4 * dpi - bottom),
            )
        )

    def magenta(part: Image.Image) -> float:
        data = part.tobytes()
        rgb = list(zip(data[0::3], data[1::3], data[2::3], strict=True))
        return sum(1 for r, g, b in rgb if r > 180 and g < 110 and 80 < b < 200) / len(rgb)

    inside = magenta(pixels(cypher))
    assert 0.3 < inside < 0.9, inside  # a disc with a 3 knocked out of it
    size = cypher[2] - cypher[0]
    beside = (cypher[0] - 1.2 * size, cypher[1], cypher[0] - 0.2 * size, cypher[3])
    assert magenta(pixels(beside)) == 0  # "Pay ": text, no symbol ink


def test_the_contact_sheet_shows_both_sets(theme_dir: Path, tmp_path: Path) -> None:
    out = contact_sheet(theme_dir, tmp_path / "sheet.png", codes=["g3", "m", "mc"], dpi=72)
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width > 300
        assert image.convert("L").getextrema()[0] < 60  # ink
