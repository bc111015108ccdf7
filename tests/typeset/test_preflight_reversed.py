"""The preflight's ``reversed`` warning (translator/pdf/pdfx.py TextCheck): small
light text on a darker ground, on real PDFs made here with WeasyPrint (device-cmyk
colours, a CMYK JPEG under the text) and labelled PDF/X-4 with the build's profile, on
one made with pikepdf (a Flate CMYK image, a simple font), through ``translator
preflight --format json`` and through a build, which warns and goes on."""

from __future__ import annotations

import json
import zlib
from io import StringIO
from pathlib import Path

import pikepdf
import pytest
import weasyprint
from PIL import Image

from tests.lintkit import copy_sample, run
from tests.printkit import (
    DARK_BROWN,
    DEFAULT_FONTS,
    PALE_GOLD,
    cmyk_profile,
    skip_without_default_fonts,
)
from translator.cli.build import run_preflight
from translator.pdf import pdfx
from translator.pdf.sizes import MM_PT, PRESETS
from translator.pdf.textcheck import Lightness, TextCheck, _Reversed, intent_profile, knockouts
from translator.shipped import templates_root

PROFILE = cmyk_profile()
ARCMAGE = PRESETS["arcmage"]
FONTS = DEFAULT_FONTS
skip_without_default_fonts()
WORDS = "Gain two gold, then draw a card"


def pdf_of(
    tmp_path: Path,
    body: str,
    *,
    images: dict[str, tuple[float, ...]] | None = None,
    name: str = "card.pdf",
) -> Path:
    """A card-sized (68 x 94 mm) PDF of ``body`` made by WeasyPrint, its TrimBox and
    BleedBox as the build sets them and an output intent for the build's profile;
    ``images`` are CMYK JPEGs (name: CMYK 0-1) made first in the same folder."""
    for image, colour in (images or {}).items():
        Image.new("CMYK", (160, 120), tuple(round(v * 255) for v in colour)).save(
            tmp_path / image, "JPEG", quality=92
        )
    faces = "".join(
        f"@font-face {{ font-family: Card; src: url({FONTS / file}); font-weight: {weight}; }}"
        for file, weight in (
            ("GentiumBookPlus-Regular.ttf", 400),
            ("GentiumBookPlus-Bold.ttf", 700),
        )
    )
    html = (
        f"<html><head><style>{faces} @page {{ size: 68mm 94mm; margin: 0 }} "
        "body { margin: 0; font-family: Card; line-height: 1.25 } "
        ".ground, img { position: absolute; left: 0; top: 0; width: 68mm; height: 94mm } "
        "p { position: absolute; left: 6mm; margin: 0 }"
        f"</style></head><body>{body}</body></html>"
    )
    target = tmp_path / name
    weasyprint.HTML(string=html, base_url=str(tmp_path) + "/").write_pdf(target)
    with pikepdf.open(target, allow_overwriting_input=True) as pdf:
        bleed = ARCMAGE.bleed * MM_PT
        width, height = ARCMAGE.page_width * MM_PT, ARCMAGE.page_height * MM_PT
        for page in pdf.pages:
            page.obj.MediaBox = page.obj.BleedBox = pikepdf.Array([0, 0, width, height])
            page.obj.TrimBox = pikepdf.Array([bleed, bleed, width - bleed, height - bleed])
        pdfx.finish(pdf, PROFILE, "reversed text")
        pdf.save(target)
    return target


def text(colour: str, size: float, words: str = WORDS, top: float = 20, bold: bool = False) -> str:
    weight = "bold" if bold else "normal"
    return (
        f'<p style="top: {top}mm; color: device-cmyk({colour}); font-size: {size}pt; '
        f'font-weight: {weight}">{words}</p>'
    )


def ground(colour: str) -> str:
    return f'<div class="ground" style="background: device-cmyk({colour})"></div>'


def found(path: Path) -> list[tuple[str, str]]:
    """(code, message) of the text warnings of the file's first page."""
    with pikepdf.open(path) as pdf:
        return TextCheck(intent_profile(pdf)).page(pdf.pages[0])


def reversed_of(path: Path) -> list[str]:
    return [message for code, message in found(path) if code == "reversed"]


def test_pale_gold_6pt_text_on_dark_brown_is_reversed(tmp_path: Path) -> None:
    path = pdf_of(tmp_path, ground(DARK_BROWN) + text(PALE_GOLD, 6))
    [message] = reversed_of(path)
    lightness = Lightness(PROFILE.path.read_bytes())
    light = round(lightness.colour([float(v) for v in PALE_GOLD.split()]))
    dark = round(lightness.colour([float(v) for v in DARK_BROWN.split()]))
    assert 80 <= light <= 95 and 20 <= dark <= 40, (light, dark)
    assert message == (
        f"reversed text under 7 pt: 'Gain two gold, then draw a…' at 6.0 pt, "
        f"light (L* {light}) on dark (L* {dark}): the ink spreads into its thin strokes; "
        "print it at 7 pt or more, or bold at 6 pt or more"
    )


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (ground(DARK_BROWN) + text(PALE_GOLD, 9), "9 pt: large enough"),
        (ground(DARK_BROWN) + text(PALE_GOLD, 7), "7 pt: the floor itself"),
        (ground(PALE_GOLD) + text("0.3 0.6 0.8 0.6", 6), "dark text on a light ground"),
        (text("0 0 0 0.25", 6), "light grey on paper: darker than its ground"),
        (ground("0 0 0 0.15") + text("0 0 0 0", 6), "white on a 15 % grey: too little contrast"),
        (ground(DARK_BROWN) + text(PALE_GOLD, 6.5, bold=True), "bold: 6 pt is its floor"),
    ],
)
def test_what_is_not_reversed(tmp_path: Path, body: str, why: str) -> None:
    assert reversed_of(pdf_of(tmp_path, body)) == [], why


def test_bold_text_has_a_lower_floor(tmp_path: Path) -> None:
    """6.5 pt: warned in the regular weight, not in bold; 5.5 pt bold is."""
    body = (
        ground(DARK_BROWN)
        + text(PALE_GOLD, 6.5, "Regular words", top=20)
        + text(PALE_GOLD, 6.5, "Bold words", top=30, bold=True)
        + text(PALE_GOLD, 5.5, "Tiny bold", top=40, bold=True)
    )
    messages = reversed_of(pdf_of(tmp_path, body))
    assert len(messages) == 2, messages
    assert messages[0].startswith("reversed text under 7 pt: 'Regular words' at 6.5 pt")
    assert messages[1].startswith("reversed bold text under 6 pt: 'Tiny bold' at 5.5 pt")
    assert messages[1].endswith("; print it at 6 pt or more")


def test_pale_text_over_a_dark_cmyk_jpeg_is_reversed(tmp_path: Path) -> None:
    """The ground is the image's pixels under the text (the frame of the official look
    is an image), read through the profile like flat colours."""
    frame = (0.55, 0.65, 0.75, 0.55)
    body = '<img src="frame.jpg">' + text(PALE_GOLD, 6, "Over the frame")
    [message] = reversed_of(pdf_of(tmp_path, body, images={"frame.jpg": frame}))
    dark = Lightness(PROFILE.path.read_bytes()).colour(frame)
    assert message.startswith("reversed text under 7 pt: 'Over the frame' at 6.0 pt")
    [shown] = [part for part in message.split(", ") if "on dark" in part]
    measured = float(shown.split("on dark (L* ")[1].split(")")[0])
    assert abs(measured - dark) <= 2, (measured, dark)
    # The same text over a light image is not.
    light = '<img src="light.jpg">' + text(PALE_GOLD, 6, "Over the frame")
    assert (
        reversed_of(
            pdf_of(tmp_path, light, images={"light.jpg": (0.02, 0.02, 0.05, 0)}, name="light.pdf")
        )
        == []
    )


def test_one_line_per_page_and_size(tmp_path: Path) -> None:
    """Three runs at 6 pt make one line, quoting them in order; the 5 pt one its own."""
    body = (
        ground(DARK_BROWN)
        + text(PALE_GOLD, 6, "Défausse une carte.", top=20)
        + text(PALE_GOLD, 6, "Then more", top=30)
        + text(PALE_GOLD, 6, "and more", top=40)
        + text(PALE_GOLD, 5, "Small", top=50)
    )
    messages = reversed_of(pdf_of(tmp_path, body))
    assert len(messages) == 2, messages
    assert messages[0].startswith(
        "reversed text under 7 pt: 'Défausse une carte. Then more…' at 6.0 pt (3 runs of text)"
    )
    assert "'Small' at 5.0 pt" in messages[1]


def test_small_white_text_on_several_inks_is_a_knockout_and_reversed(tmp_path: Path) -> None:
    """Two faults, two cures: both are reported, the knockout first."""
    body = ground("0.95 0.55 0.05 0.2") + text("0 0 0 0", 6, "White")
    codes = [code for code, _ in found(pdf_of(tmp_path, body))]
    assert codes == ["knockout", "reversed"]


def test_the_knockout_check_alone_is_unchanged(tmp_path: Path) -> None:
    """knockouts reads only the knockouts: pale gold is no knockout."""
    path = pdf_of(tmp_path, ground(DARK_BROWN) + text(PALE_GOLD, 6))
    with pikepdf.open(path) as pdf:
        assert knockouts(pdf.pages[0]) == []


def test_without_an_output_intent_the_naive_conversion_judges() -> None:
    """Through the profile paper is 100 and K 100 % about 22 (SWOP); the naive
    conversion makes K 100 % L* 0, and both order colours alike."""
    profiled = Lightness(PROFILE.path.read_bytes())
    naive = Lightness(None)
    for lightness in (profiled, naive):
        assert lightness.colour((0, 0, 0, 0)) == pytest.approx(100, abs=0.5)
        values = [lightness.colour((0, 0, 0, k / 10)) for k in range(11)]
        assert values == sorted(values, reverse=True)
    assert naive.colour((0, 0, 0, 1)) == pytest.approx(0, abs=0.5)
    assert 10 <= profiled.colour((0, 0, 0, 1)) <= 30


def test_a_flate_cmyk_image_under_a_simple_font() -> None:
    """A PDF not made by WeasyPrint: a Flate CMYK image (with an inverted /Decode) and a
    Type1 font without /ToUnicode, its codes read as Latin-1; no output intent."""
    pdf = pikepdf.Pdf.new()
    pdf.add_blank_page(page_size=(100, 40))
    page = pdf.pages[0]
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type1,
            BaseFont=pikepdf.Name("/Helvetica-Bold"),
            FirstChar=32,
            LastChar=126,
            Widths=pikepdf.Array([500] * 95),
        )
    )
    dark = bytes(255 - v for v in (150, 170, 190, 140))  # stored inverted
    picture = pikepdf.Stream(pdf, zlib.compress(dark * 16))
    picture.Type, picture.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    picture.Width = picture.Height = 4
    picture.ColorSpace, picture.BitsPerComponent = pikepdf.Name.DeviceCMYK, 8
    picture.Filter = pikepdf.Name.FlateDecode
    picture.Decode = pikepdf.Array([1, 0, 1, 0, 1, 0, 1, 0])
    page.obj.Resources = pikepdf.Dictionary(
        Font=pikepdf.Dictionary(F1=font), XObject=pikepdf.Dictionary(Im1=picture)
    )
    page.obj.Contents = pdf.make_stream(
        b"q 100 0 0 40 0 0 cm /Im1 Do Q\nq 0 0 0 0 k BT /F1 5 Tf 10 15 Td (Bold caps) Tj ET Q\n"
    )
    # White on an image: a knockout too (the image's inks are not known to it).
    [(_, knocked), (code, message)] = TextCheck(None).page(page)
    expected = round(Lightness(None).of([bytes((150, 170, 190, 140))])[0])
    assert "an image (inks not known)" in knocked and code == "reversed"
    assert message.startswith(
        "reversed bold text under 6 pt: 'Bold caps' at 5.0 pt, "
        f"light (L* 100) on dark (L* {expected})"
    )


def test_preflight_reports_it_as_a_warning_in_json(tmp_path: Path) -> None:
    """``translator preflight --format json``: the code, the card, severity warning; the
    file passes (exit 0)."""
    path = pdf_of(tmp_path, ground(DARK_BROWN) + text(PALE_GOLD, 6))
    out = StringIO()
    assert run_preflight([path], size=ARCMAGE, fmt="json", out=out) == 0
    document = json.loads(out.getvalue())
    [checked] = document["files"]
    assert checked["ok"] is True
    [problem] = [p for p in checked["problems"] if p["code"] == "reversed"]
    assert problem["severity"] == "warning" and problem["page"] == 1
    assert problem["message"].startswith("reversed text under 7 pt: 'Gain two")
    assert [p for p in checked["problems"] if p["severity"] == "error"] == []


def test_a_build_warns_of_reversed_text_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A theme printing its 6 pt footer in pale gold on a dark brown strip: the build
    warns once per card, naming it, makes every file, and its summary counts the
    warnings (never "every file passes" under them; exit 1 unless --fail-on error);
    nothing else of the default theme is reversed."""
    theme = tmp_path / "theme"
    theme.mkdir()
    (theme / "theme.yaml").write_text("name: reversed\n", encoding="utf-8")
    default = templates_root() / "default" / "card.css.j2"
    (theme / "card.css.j2").write_text(
        default.read_text(encoding="utf-8") + f"\n.info {{ color: device-cmyk({PALE_GOLD}); "
        f"background: device-cmyk({DARK_BROWN}); }}\n",
        encoding="utf-8",
    )
    library, out = copy_sample(tmp_path), tmp_path / "out"
    code, said = run(
        "build",
        str(library),
        "--out",
        str(out),
        "--jobs",
        "1",
        "--theme",
        str(theme),
        "--card",
        "harbor-lord",
        "--card",
        "mossgate",
        "--fail-on",
        "error",
    )
    assert code == 0, said
    assert "2 warnings; preflight: 2 warnings in 2 files." in said, said
    assert "every file passes" not in said
    errors = capsys.readouterr().err
    lines = [line for line in errors.splitlines() if ": reversed: " in line]
    assert len(lines) == 2, errors
    assert any(
        "(harbor-lord.en): reversed: reversed text under 7 pt: '" in line for line in lines
    ), lines
    assert all(" at 6.0 pt, light (L* " in line and line.endswith("(warning)") for line in lines), (
        lines
    )


def test_the_quoted_text_joins_its_runs_as_printed() -> None:
    """Runs of text (a font change, a line's end) are quoted as the page reads: no
    space before punctuation that follows a run, one between lines."""
    found = _Reversed(
        6.1,
        False,
        texts=["Quand tu fondes cette ", "cité", ", pioche", "deux cartes."],
        light=[87],
        dark=[21],
    )
    assert "'Quand tu fondes cette cité,…' at 6.1 pt (4 runs of text)" in found.message()
    lines = _Reversed(6.1, False, texts=["une carte.", "Puis pioche."], light=[87], dark=[21])
    assert "'une carte. Puis pioche.'" in lines.message()
