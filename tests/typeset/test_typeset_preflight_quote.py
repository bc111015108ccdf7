"""The ``reversed`` warning quotes the text as the card prints it (translator/typeset/
pdfx.py: TextCheck._quote, _reading): the words of every run of the text block in
reading order, the drop cap joined to its word, the bold and italic words (other fonts,
often not themselves reversed), with a space wherever a glyph or the positions put one.
It used to quote only the runs the warning was about, joined by guesswork: ``'hen you
found this , draw two…'`` for "When you found this **city**, draw two cards."

On real card PDFs built here (the default theme with its rule text made pale gold on
dark brown at 6.5 pt: regular text under 7 pt is reversed, bold at 6.5 pt is not), on
the official look when ../shared/arcmage-official is there, on pages made with
WeasyPrint for the cases a card may not show, and on odd PDFs (a Type 3 font, a
composite font without /ToUnicode, a degenerate text matrix, a font without widths),
quoted as far as they can be read, never failing the check."""

from __future__ import annotations

import dataclasses
import json
from io import StringIO
from pathlib import Path

import pikepdf
import pytest
import weasyprint

from tests.conftest import ROOT
from tests.printkit import (
    DARK_BROWN,
    DEFAULT_FONTS,
    PALE_GOLD,
    cmyk_profile,
    skip_without_default_fonts,
)
from translator import cards
from translator.cli.build import run_preflight
from translator.pdf import pdfx, textcheck
from translator.pdf.painter import _OTHER, Painter, Show
from translator.pdf.sizes import PRESETS
from translator.pdf.textcheck import (
    _BREAK,
    TextCheck,
    _placed,
    _Reversed,
    intent_profile,
    reading_order,
)
from translator.typeset import build
from translator.typeset.options import BuildOptions

PROFILE = cmyk_profile()
ARCMAGE = PRESETS["arcmage"]
FONTS = DEFAULT_FONTS
skip_without_default_fonts()

#: The default theme with the official look's trouble: its rule text pale on dark, and
#: small (the inline size the build sets loses to !important).
REVERSED_THEME_CSS = f"""
.text-frame {{ background: device-cmyk({DARK_BROWN}); }}
.text-content, .text-content b, .text-content i {{ color: device-cmyk({PALE_GOLD}); }}
.text-content {{ font-size: 6.5pt !important; }}
"""

#: saltmere's rule text as printed: the drop caps W and Q, the bold-italic "city", the
#: italic "cité", the bold names; symbols are pictures, no text.
SALTMERE = {
    "en": "When you found this city, draw two cards. Draw one card, then discard one card. "
    "Your House of Nobles residents get +1/+1. If Harbor Lord of Saltmere resides here, "
    "they get +2/+2 instead.",
    "fr": "Quand tu fondes cette cité, pioche deux cartes. Pioche une carte, puis défausse "
    "une carte. Tes résidents aristocrates gagnent +1/+1. Si Seigneur du port de Salmère "
    "réside ici, ils gagnent +2/+2 à la place.",
}


def built_cards(out: Path, theme: Path, slugs: list[str]) -> dict[str, Path]:
    """The sample's cards ``slugs`` built in English and French with ``theme``, by
    ``<slug>.<lang>``."""
    library, problems = cards.load_library([str(ROOT / "cards" / "sample")])
    assert not problems, problems
    options = BuildOptions(ARCMAGE, theme_dir=str(theme), jobs=1, cache_dir=out / ".cache")
    made: dict[str, Path] = {}
    for lang in ("en", "fr"):
        for result in build.build_cards(library, lang, out, options, slugs=slugs):
            assert result.path, result
            made[f"{result.slug}.{lang}"] = Path(result.path)
    return made


@pytest.fixture(scope="module")
def reversed_cards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("quote")
    theme = work / "theme"
    theme.mkdir()
    (theme / "theme.yaml").write_text("name: reversed text\n", encoding="utf-8")
    default = ROOT / "templates" / "default" / "card.css.j2"
    (theme / "card.css.j2").write_text(
        default.read_text(encoding="utf-8") + REVERSED_THEME_CSS, encoding="utf-8"
    )
    return built_cards(work / "out", theme, ["saltmere", "courier"])


def reversed_messages(path: Path) -> list[str]:
    """The ``reversed`` messages of ``translator preflight --format json`` on ``path``."""
    out = StringIO()
    run_preflight([path], size=ARCMAGE, fmt="json", out=out)
    [checked] = json.loads(out.getvalue())["files"]
    return [p["message"] for p in checked["problems"] if p["code"] == "reversed"]


def whole_quotes(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the ``reversed`` warnings of ``path``'s first page quote, uncut."""
    monkeypatch.setattr(textcheck, "EXCERPT_CHARS", 100_000)
    with pikepdf.open(path) as pdf:
        found = TextCheck(intent_profile(pdf)).page(pdf.pages[0])
    return [message.split("'")[1] for code, message in found if code == "reversed"]


def test_the_quote_starts_with_the_drop_caps_word_and_keeps_bold_words(
    reversed_cards: dict[str, Path],
) -> None:
    """The issue's cards, through the preflight a user runs: the drop cap (20 pt) and
    the bold words (6.5 pt bold is not reversed) are quoted with the rest."""
    [english] = reversed_messages(reversed_cards["saltmere.en"])
    assert english.startswith(
        "reversed text under 7 pt: 'When you found this city, draw…' at 6.5 pt"
    )
    [french] = reversed_messages(reversed_cards["saltmere.fr"])
    assert french.startswith("reversed text under 7 pt: 'Quand tu fondes cette cité,…' at 6.5 pt")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_whole_quote_is_the_text_block_as_printed(
    reversed_cards: dict[str, Path], lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every run of the block, in order, a space between words whether a glyph or a
    gap puts it (``House of Nobles`` ends a bold run, ``residents`` starts the next:
    neither holds the space), none inside a word (the drop cap, a hyphenated line)."""
    assert whole_quotes(reversed_cards[f"saltmere.{lang}"], monkeypatch) == [SALTMERE[lang]]


def test_the_quote_starts_at_the_line_of_the_first_reversed_text(
    reversed_cards: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """courier: its paragraphs open with an ability's name on a line of its own, in
    bold (not reversed at 6.5 pt): the quote starts where the reversed text does, and
    quotes the later bold names in their place."""
    [quote] = whole_quotes(reversed_cards["courier.en"], monkeypatch)
    assert quote == (
        "Only creatures with flying and ranged can defend against me. "
        "Peaceful I cannot attack. Target player draws one card."
    )


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_the_official_look_quotes_the_drop_cap(tmp_path: Path, arcmage_theme: Path) -> None:
    """The issue's own build (--theme out/themes/arcmage): 6.1 pt pale gold on the
    frames."""
    theme = arcmage_theme  # skipped without ../shared/arcmage-official
    made = built_cards(tmp_path / "out", theme, ["saltmere"])
    [english] = reversed_messages(made["saltmere.en"])
    assert "'When you found this city, draw…' at 6.1 pt" in english, english
    [french] = reversed_messages(made["saltmere.fr"])
    assert "'Quand tu fondes cette cité,…' at 6.1 pt" in french, french


# ------------------------------------------------------------ pages made with WeasyPrint


def page_of(tmp_path: Path, body: str) -> Path:
    """A card-sized PDF of ``body`` on dark brown, its text pale gold at 6 pt (bold:
    Gentium's bold, not reversed at 6 pt), made by WeasyPrint."""
    faces = "".join(
        f"@font-face {{ font-family: Card; src: url({FONTS / file}); "
        f"font-weight: {weight}; font-style: {style}; }}"
        for file, weight, style in (
            ("GentiumBookPlus-Regular.ttf", 400, "normal"),
            ("GentiumBookPlus-Bold.ttf", 700, "normal"),
            ("GentiumBookPlus-Italic.ttf", 400, "italic"),
        )
    )
    html = (
        f"<html><head><style>{faces} @page {{ size: 68mm 94mm; margin: 0; "
        f"background: device-cmyk({DARK_BROWN}) }} "
        f"body {{ margin: 6mm; font-family: Card; font-size: 6pt; line-height: 1.25; "
        f"color: device-cmyk({PALE_GOLD}) }} p {{ margin: 0 0 0.5em 0 }} "
        ".cap { float: left; font-size: 3em; line-height: 1; margin-right: 0.07em } "
        '.narrow { width: 19mm; hyphens: manual; hyphenate-character: "\\2010" }'
        f"</style></head><body>{body}</body></html>"
    )
    target = tmp_path / "page.pdf"
    weasyprint.HTML(string=html).write_pdf(target)
    with pikepdf.open(target, allow_overwriting_input=True) as pdf:
        pdfx.finish(pdf, PROFILE, "quote")
        pdf.save(target)
    return target


@pytest.mark.parametrize(
    ("body", "quote"),
    [
        (
            '<p><span class="cap">A</span>ll your <b>Soldiers</b> <i>in play</i> get '
            "<b>+1/+1</b>, then <b>draw</b>.</p>",
            "All your Soldiers in play get +1/+1, then draw.",
        ),
        ("<p>An un<b>break</b>able word.</p>", "An unbreakable word."),
        (
            '<p style="color: device-cmyk(0 0 0 1)">A black paragraph above.</p>'
            "<p>The pale one <b>quoted</b>.</p>",
            "The pale one quoted.",
        ),
        (
            "<p>First paragraph.</p><p><b>Bold line</b><br>Second paragraph.</p>",
            "First paragraph. Bold line Second paragraph.",
        ),
    ],
    ids=["drop-cap-bold-italic", "glued-runs", "line-start", "paragraphs"],
)
def test_a_weasyprint_page(
    tmp_path: Path, body: str, quote: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert whole_quotes(page_of(tmp_path, body), monkeypatch) == [quote]


def test_a_word_hyphenated_at_a_lines_end_is_quoted_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hyphen a break adds (the theme's hyphenate-character, U+2010) is left out
    and the word joined; a hyphen of the word's own (U+002D) stays, without a space."""
    body = (
        '<p class="narrow">Deal two damage to an extra&shy;ordinary crea&shy;ture, '
        "then a mort-vivant mort-vivant mort-vivant.</p>"
    )
    path = page_of(tmp_path, body)
    with pikepdf.open(path) as pdf:
        painter = Painter().walked(pdf.pages[0])
        check = TextCheck(None)
        lines = [check._text(show) for show in painter.shows]
    assert any(line.endswith("\u2010") for line in lines), lines  # a break was hyphenated
    assert any(line.endswith("mort-") for line in lines), lines  # and one at a hyphen
    assert whole_quotes(path, monkeypatch) == [
        "Deal two damage to an extraordinary creature, then a mort-vivant mort-vivant mort-vivant."
    ]


# ------------------------------------------------------------------------ odd PDFs


def odd_page(pdf: pikepdf.Pdf, fonts: dict[str, pikepdf.Object], content: bytes) -> pikepdf.Page:
    """A page of ``pdf`` with ``fonts`` painting ``content`` in pale gold over dark
    brown."""
    pdf.add_blank_page(page_size=(200, 100))
    page = pdf.pages[-1]
    page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(fonts))
    ground = f"{DARK_BROWN} k 0 0 200 100 re f\n{PALE_GOLD} k\n".encode()
    page.obj.Contents = pdf.make_stream(ground + content)
    return page


def type3_font(pdf: pikepdf.Pdf) -> pikepdf.Object:
    """A Type 3 font: every code a 600-unit box, no /ToUnicode."""
    glyph = pdf.make_stream(b"600 0 0 0 500 700 d1 0 0 500 700 re f")
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type3,
            FontBBox=pikepdf.Array([0, 0, 500, 700]),
            FontMatrix=pikepdf.Array([0.001, 0, 0, 0.001, 0, 0]),
            CharProcs=pikepdf.Dictionary(g=glyph),
            Encoding=pikepdf.Dictionary(
                Type=pikepdf.Name.Encoding,
                Differences=pikepdf.Array([32, *[pikepdf.Name.g] * 95]),
            ),
            FirstChar=32,
            LastChar=126,
            Widths=pikepdf.Array([600] * 95),
            Resources=pikepdf.Dictionary(),
        )
    )


def test_a_type3_font_is_read_by_its_codes() -> None:
    """No /ToUnicode: its codes as Latin-1, as before; its runs placed by its widths
    (a gap of a space's width between two runs: a space; none between touching runs)."""
    pdf = pikepdf.Pdf.new()
    page = odd_page(
        pdf,
        {"/T3": type3_font(pdf)},
        b"BT /T3 5 Tf 10 50 Td (Tiny) Tj 2 0 Td (type) Tj ( three) Tj (s) Tj ET\n",
    )
    [(code, message)] = TextCheck(None).page(page)
    assert code == "reversed"
    assert message.startswith("reversed text under 7 pt: 'Tiny type threes' at 5.0 pt"), message


def test_a_composite_font_without_to_unicode_gives_no_quote() -> None:
    """Codes no map names: nothing to quote, as before, and the warning is given all
    the same."""
    pdf = pikepdf.Pdf.new()
    cid = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.CIDFontType2,
        BaseFont=pikepdf.Name("/ABCDEF+Card"),
        W=pikepdf.Array([1, pikepdf.Array([500, 500, 500])]),
    )
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type0,
            BaseFont=pikepdf.Name("/ABCDEF+Card"),
            Encoding=pikepdf.Name("/Identity-H"),
            DescendantFonts=pikepdf.Array([cid]),
        )
    )
    page = odd_page(pdf, {"/F0": font}, b"BT /F0 5 Tf 10 50 Td <000100020003> Tj ET\n")
    [(code, message)] = TextCheck(None).page(page)
    assert code == "reversed"
    assert message.startswith("reversed text under 7 pt: at 5.0 pt, light"), message


def test_odd_placements_never_fail_the_check() -> None:
    """A degenerate text matrix, a font without widths, a font the resources lack, a
    TJ gap: read as they come, never raising; the quote is what can be read."""
    pdf = pikepdf.Pdf.new()
    helvetica = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
        )
    )
    page = odd_page(
        pdf,
        {"/F1": helvetica},
        b"BT /F1 5 Tf 0 0 0 0 10 90 Tm (Nowhere) Tj ET\n"
        b"BT /F1 5 Tf 10 50 Td (No widths) Tj (, none) Tj ET\n"
        b"BT /Missing 5 Tf 10 30 Td (No font) Tj ET\n"
        b"BT /F1 5 Tf 1 0 0 1 10 10 Tm [(A) -3000 (far)] TJ ET\n",
    )
    found = TextCheck(None).page(page)
    messages = [message for code, message in found if code == "reversed"]
    # Widths missing: each text ends where it starts (its own space kept); the text in
    # no font is nothing to quote; a TJ gap of 3 em is a space.
    assert any("'No widths, none A far' at 5.0 pt" in message for message in messages), messages


def test_without_a_reading_the_texts_alone_are_joined() -> None:
    """A group whose page could not be read in order (no quote): the old joining of
    its own texts, unchanged; with one, its quote."""
    alone = _Reversed(6.1, False, texts=["une carte.", "Puis pioche."], light=[87], dark=[21])
    assert "'une carte. Puis pioche.'" in alone.message()
    quoted = _Reversed(
        6.1, False, texts=["hen you found this "], light=[87], dark=[21], quote="When you"
    )
    assert "'When you' at 6.1 pt, light" in quoted.message()


def test_a_text_without_its_placement_is_a_block_of_its_own() -> None:
    """The first, cheap reading of a page places no text (nor does a degenerate
    matrix): such a text follows nothing and nothing follows it."""
    show = Show(0, [], 6.0, _OTHER, _OTHER, 0, True, (False, False, 0), "page", None, None)
    assert _placed(show) is None
    assert reading_order([show, show]) == [(0, _BREAK), (1, _BREAK)]
    assert _placed(dataclasses.replace(show, line=(0, 0, 0, 0, 10, 10))) is None
