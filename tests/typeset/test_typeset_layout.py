"""The card text's layout: where words break (translator.typeset.hyphenation), drop
caps and large marks over exactly two lines, and the loyalty marks in sight.

The layout is measured in PDFs WeasyPrint renders with the default theme: glyph
origins and sizes from pypdfium2's text page, the marks' outlines from its page
objects, the loyalty diamonds' pixels from a render of the page; the font's own
metrics from fontTools.
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any

import pypdfium2
import pypdfium2.raw as pdfium
import pytest
from fontTools.ttLib import TTFont
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT
from translator import cards, languages
from translator.glossary.loader import load_glossary
from translator.markup import parse
from translator.markup.html import to_html
from translator.markup.tree import Text
from translator.pdf.sizes import PRESETS
from translator.typeset import hyphenation
from translator.typeset.hyphenation import (
    MIN_LEFT,
    MIN_RIGHT,
    NO_BREAK_SPACE,
    SOFT_HYPHEN,
    hyphenate,
    hyphenate_word,
    word_breaks,
)
from translator.typeset.render import (
    CSS_PX_MM,
    Renderer,
    card_page,
    printed_characters,
    text_html,
    weasyprint_markup,
)
from translator.typeset.theme import load_theme

SAMPLE = ROOT / "cards" / "sample"
PT_MM = 25.4 / 72
#: The card text's line height, in em (card.css.j2).
LINE = 1.25
#: How close a measured position must be to its target, in mm.
CLOSE_MM = 0.1


def shown(text: str, hyphen: str = "-") -> str:
    """Soft hyphens as ``-`` and no-break spaces as ``_``: readable expectations."""
    return text.replace(SOFT_HYPHEN, hyphen).replace(NO_BREAK_SPACE, "_")


def syllables(word: str) -> str:
    """``word`` cut at every Esperanto syllable boundary, without the limits."""
    points = (0, *languages.get("eo").word_breaks(word), len(word))
    return "-".join(word[a:b] for a, b in pairwise(points))


def hyphenated_html(text: str, lang: str) -> str:
    """The HTML of ``text``'s hyphenated tree, soft hyphens as ``~``."""
    return shown(to_html(hyphenate(parse(text).document, lang)), "~")


def hyphenated_html_of(text: str, lang: str) -> str:
    """The print HTML of ``text`` (as the renderer writes it), soft hyphens as ``~``."""
    return shown(hyphenation.hyphenated_html(parse(text).document, lang), "~")


# ------------------------------------------------------------------- where words break


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("nombro", "nom-bro"),
        ("estaĵo", "es-ta-ĵo"),
        ("kreaĵo", "kre-a-ĵo"),
        ("ekipaĵo", "e-ki-pa-ĵo"),
        ("sorĉo", "sor-ĉo"),
        ("malamiko", "ma-la-mi-ko"),
        ("difektas", "di-fek-tas"),
        ("kontraŭulo", "kon-traŭ-u-lo"),
        ("ĉiujn", "ĉi-ujn"),
        ("tajgo", "taj-go"),
        ("kajo", "ka-jo"),
        ("atleto", "at-le-to"),
        ("instrui", "ins-tru-i"),
        ("malŝlosi", "mal-ŝlo-si"),
        ("Eŭropo", "Eŭ-ro-po"),
    ],
)
def test_esperanto_breaks_between_syllables(word: str, expected: str) -> None:
    assert syllables(word) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("nombro", "nom-bro"),
        ("estaĵo", "estaĵo"),
        ("estaĵojn", "esta-ĵojn"),
        ("kreaĵo", "kre-aĵo"),
        ("ekipaĵo", "eki-paĵo"),
        ("sorĉo", "sorĉo"),
        ("malamiko", "mala-miko"),
        ("difektas", "difek-tas"),
        ("kontraŭuloj", "kon-traŭ-u-loj"),
        ("elektu", "elektu"),
    ],
)
def test_esperanto_words_keep_three_letters_each_side(word: str, expected: str) -> None:
    assert shown(hyphenate_word(word, "eo")) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("créature", "créa-ture"),
        ("adversaire", "adver-saire"),
        ("immédiatement", "immé-dia-te-ment"),
        ("blessures", "bles-sures"),
        ("dégâts", "dégâts"),
        ("pioche", "pioche"),
    ],
)
def test_french_words_break_by_pyphen_with_the_limits(word: str, expected: str) -> None:
    assert shown(hyphenate_word(word, "fr")) == expected


def test_english_words_break_too_and_unknown_languages_not() -> None:
    assert shown(hyphenate_word("battlefield", "en")) == "bat-tle-field"
    assert hyphenate_word("battlefield", "zz") == "battlefield"


def sample_words() -> Iterator[tuple[str, str]]:
    """Every word of the sample's card texts, with its language."""
    for path in sorted(SAMPLE.glob("*.md")):
        lang = path.name.split(".")[1]
        body = path.read_text("utf-8").split("---", 2)[-1]
        for word in re.findall(r"[^\W\d_]+", body):
            yield word, lang


def test_every_break_of_the_sample_leaves_three_letters_each_side() -> None:
    checked = 0
    for word, lang in sample_words():
        for point in word_breaks(word, lang):
            assert MIN_LEFT <= point <= len(word) - MIN_RIGHT, (word, lang, point)
            checked += 1
    assert checked > 100


def test_bold_and_italic_runs_are_never_broken() -> None:
    text = (
        "**adversaire adversaire** *adversaire adversaire* ***adversaire*** "
        "adversaire et la fin du paragraphe."
    )
    original = parse(text).document
    printed = hyphenate(original, "fr")
    for before, after in zip(
        original.paragraphs[0].children, printed.paragraphs[0].children, strict=True
    ):
        assert isinstance(before, Text) and isinstance(after, Text)
        if before.bold or before.italic:
            assert after == before
    assert hyphenated_html(text, "fr").endswith(" adver~saire et la fin du paragraphe.</p>")


def test_names_and_words_split_between_runs_are_never_broken() -> None:
    # A capital (a card, ability or faction name), the word a drop cap starts, a word
    # glued to a bold run or a symbol.
    html = hyphenated_html(
        ":A:dversaire Adversaire **Ad**versaire :g1:adversaire créature et la fin du paragraphe.",
        "fr",
    )
    assert "~" not in html.split("créa")[0]
    assert "créa~ture" in html


def test_the_last_word_is_never_broken_and_a_short_one_is_bound() -> None:
    assert (
        hyphenated_html("Inflige deux blessures à la créature adversaire.", "fr")
        == "<p>Inflige deux bles~sures à la créa~ture adversaire.</p>"
    )
    assert (
        hyphenated_html("Difektu ĉiun malamikan estaĵon kaj detruu ĝin.", "eo")
        == "<p>Difektu ĉiun mala~mi~kan esta~ĵon kaj detruu_ĝin.</p>"
    )
    # The bound word is not broken either, and each line a line break ends counts.
    assert hyphenated_html(
        "Inflige des blessures à l’adversaire.\\\nPuis pioche immédiatement une carte.", "fr"
    ) == (
        "<p>Inflige des bles~sures à l’adversaire.<br>Puis pioche immé~dia~te~ment une_carte.</p>"
    )
    assert (
        hyphenated_html("Elektu la malamikan estaĵon.", "eo")
        == "<p>Elektu la mala~mi~kan estaĵon.</p>"
    )
    # Spaces are bound in italic runs too (no break point is added there).
    assert (
        hyphenated_html("*Les créatures ne peuvent pas me bloquer.*", "fr")
        == "<p><i>Les créatures ne peuvent pas me bloquer.</i></p>"
    )
    assert (
        hyphenated_html("*Seules les créatures peuvent me voir.*", "fr")
        == "<p><i>Seules les créatures peuvent me_voir.</i></p>"
    )


def test_the_print_html_puts_each_hyphenated_word_in_a_span() -> None:
    """WeasyPrint pushes the lines beside a float below it when their text holds a
    soft hyphen further on; a word in its own span does not."""
    html = hyphenated_html_of(
        ":E:ach time a creature enters play, draw a card and then discard a card.", "en"
    )
    assert html == (
        '<p class="has-dropcap"><span class="dropcap">E</span>ach time a '
        "creature enters play, draw a card and then <span>dis~card</span> "
        "a_card.</p>"
    )


def test_a_long_pair_is_not_bound() -> None:
    assert hyphenated_html("Elektu unu kontraŭulon en la batalkampo ĝin.", "eo").endswith(
        "batalkampo_ĝin.</p>"
    )
    assert "_" not in hyphenated_html("Detruu kontraŭbatalantojn nun.", "eo")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "adversaire",
                "créatures",
                "nombro",
                "kontraŭuloj",
                "Estaĵo",
                "e\u0301tait",
                "l’adversaire",
                " ",
                "  ",
                ", ",
                "**",
                "*",
                ":g1:",
                ":m:",
                ":K:",
                "\\\n",
                "\n\n",
                "une",
                "ĝin.",
                "\u00a0",
                "+1/+1",
            ]
        ),
        max_size=30,
    ),
    st.sampled_from(["fr", "eo", "en"]),
)
def test_hyphenation_only_adds_breaks(pieces: list[str], lang: str) -> None:
    """Whatever the text: the same nodes, the same words; soft hyphens only in plain
    runs, between letters, three from each end; spaces only made no-break ones."""
    original = parse("".join(pieces)).document
    printed = hyphenate(original, lang)
    for before, after in zip(original.paragraphs, printed.paragraphs, strict=True):
        assert len(before.children) == len(after.children)
        for old, new in zip(before.children, after.children, strict=True):
            assert type(old) is type(new)
            if not isinstance(old, Text) or not isinstance(new, Text):
                assert old == new
                continue
            assert (old.bold, old.italic) == (new.bold, new.italic)
            if old.bold or old.italic:
                assert SOFT_HYPHEN not in new.text
            unbroken = new.text.replace(SOFT_HYPHEN, "")
            assert re.sub(r"\s+", " ", unbroken.replace(NO_BREAK_SPACE, " ")) == re.sub(
                r"\s+", " ", old.text.replace(NO_BREAK_SPACE, " ")
            )
            for word in re.findall(r"[^\W\d_]+(?:\xad[^\W\d_]+)+", new.text):
                parts = word.split(SOFT_HYPHEN)
                assert len(parts[0]) >= MIN_LEFT and len(parts[-1]) >= MIN_RIGHT, word
    # The print HTML is the hyphenated tree's, each broken word in a span.
    html = hyphenation.hyphenated_html(original, lang)
    assert html.replace("<span>", "").replace("</span>", "") == to_html(printed).replace(
        "<span>", ""
    ).replace("</span>", "")


def test_the_card_tree_and_its_markup_html_are_untouched() -> None:
    """``translator markup html`` and the font check read the card's own tree."""
    text = ":W:hen an adversary attacks, the creature blocks it and draws a card."
    document = parse(text).document
    before = to_html(document)
    printed = hyphenate(document, "en")
    assert to_html(document) == before and SOFT_HYPHEN not in before
    assert to_html(printed) != before
    assert SOFT_HYPHEN not in printed_characters(document)


def test_the_default_fonts_print_what_hyphenation_adds() -> None:
    """The hyphen WeasyPrint prints at a break and the no-break space are not in the
    font check (it reads the card's own text): the default fonts must have them."""
    for path in load_theme(None).fonts.values():
        assert {0x2010, 0x00A0} <= set(TTFont(path).getBestCmap()), path


@pytest.fixture(scope="module")
def library() -> cards.Library:
    found, problems = cards.load_library([str(SAMPLE)])
    assert not problems
    return found


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer(load_theme(None), PRESETS["arcmage"], [SAMPLE.resolve()])


def test_the_print_html_has_the_breaks_and_the_font_check_does_not(
    library: cards.Library, renderer: Renderer
) -> None:
    pages = []
    for lang in ("fr", "eo"):
        glossary = load_glossary(lang, [str(SAMPLE)])[0]
        pages += [
            card_page(card, lang, renderer.theme, glossary) for card in library.cards.values()
        ]
    assert sum(SOFT_HYPHEN in str(page.values["text"]) for page in pages) >= 10
    for page in pages:
        text = str(page.card.get("text", page.lang) or "")
        assert SOFT_HYPHEN not in page.printed, page.label
        assert page.printed.endswith(printed_characters(parse(text).document)), page.label


# ------------------------------------------------------------------ measured in the PDF


@dataclass
class Glyph:
    char: str
    #: The glyph's origin (on its baseline), in mm from the page's bottom left.
    x: float
    y: float
    #: Its size as the PDF sets it (Tf), and its box (pdfium's), in mm.
    size: float
    box: tuple[float, float, float, float]


@dataclass
class Line:
    baseline: float
    glyphs: list[Glyph]

    @property
    def left(self) -> float:
        return self.glyphs[0].x

    @property
    def text(self) -> str:
        return "".join(g.char for g in self.glyphs)


def glyphs(page: Any) -> list[Glyph]:
    """Every printed character of a pypdfium2 page."""
    text = page.get_textpage()
    found = []
    for index in range(text.count_chars()):
        char = chr(pdfium.FPDFText_GetUnicode(text.raw, index))
        if char.isspace() or char in "\ufffe\uffff":
            continue
        x, y = ctypes.c_double(), ctypes.c_double()
        pdfium.FPDFText_GetCharOrigin(text.raw, index, x, y)
        box = tuple(v * PT_MM for v in text.get_charbox(index))
        found.append(
            Glyph(
                char,
                x.value * PT_MM,
                y.value * PT_MM,
                pdfium.FPDFText_GetFontSize(text.raw, index),
                box,
            )
        )
    return found


def text_lines(found: list[Glyph], body: float) -> list[Line]:
    """The card text's lines (glyphs of the body size), top to bottom; a drop cap is
    left out (it is larger)."""
    rows: dict[float, list[Glyph]] = {}
    for glyph in found:
        if abs(glyph.size - body) < 0.01:
            rows.setdefault(round(glyph.y, 1), []).append(glyph)
    return [
        Line(row[0].y, sorted(row, key=lambda g: g.x))
        for _, row in sorted(rows.items(), reverse=True)
    ]


@cache
def metrics() -> tuple[float, float, float]:
    """The text font's ascent, descent and cap height, in em (Gentium Book Plus:
    1.099, 0.366, 0.615)."""
    font = TTFont(load_theme(None).fonts["regular"])
    units = font["head"].unitsPerEm
    return (
        font["hhea"].ascent / units,
        -font["hhea"].descent / units,
        font["OS/2"].sCapHeight / units,
    )


def cap_height() -> float:
    return metrics()[2]


def above_baseline() -> float:
    """How far a line's top is above its baseline, in em: the half-leading (negative
    at a line height of 1.25) and the ascent."""
    ascent, descent, _ = metrics()
    return (LINE - ascent - descent) / 2 + ascent


#: Paragraphs of a known number of lines at any scale (line breaks end each but the
#: last), and wrapped ones.
TEXTS = {
    "two": ":E:ach time a creature enters play,\\\ndraw a card.",
    "three": ":E:ach time a creature enters play,\\\ndraw a card,\\\nthen discard a card.",
    "six": ":T:hen draw a card.\\\n" + "\\\n".join(["Each opponent loses one life."] * 5),
    "wrapped": ":T:hen draw a card. " + "Each opponent loses one life and you gain one "
    "life for every creature in play, and then discards a card. " * 3,
    "one+next": ":E:ach turn, draw.\n\nEach opponent loses one life.",
    "two+next": ":E:ach time a creature enters play,\\\ndraw a card.\n\nEach opponent "
    "loses one life.",
    "mark": ":m: Deal 2 damage to target creature.\\\nEach opponent loses one life."
    "\\\nYou gain one life.",
    "mark-wrapped": ":m: " + "Deal 2 damage to target creature. Each opponent loses one "
    "life and you gain one life for every creature an opponent discards. " * 2,
    "plain": "Each opponent loses one life.",
}
SCALES = (1.0, 0.6)


def text_frame(page: Any) -> tuple[float, float]:
    """The top and bottom of a laid-out page's text frame, in mm from the page's
    bottom (as PDF coordinates go)."""
    frame = next(b for b in boxes(page._page_box) if "text-frame" in classes(b))
    height = page.height * CSS_PX_MM
    return (
        height - frame.position_y * CSS_PX_MM,
        height - (frame.position_y + frame.height) * CSS_PX_MM,
    )


@pytest.fixture(scope="module")
def measured(
    library: cards.Library, renderer: Renderer
) -> dict[tuple[str, float], tuple[list[Glyph], Any]]:
    """Each text of TEXTS on a creature card, at each scale: the glyphs in its text
    frame, and its page (rendered once, in one document)."""
    keys, pages = [], []
    card = library.cards[("sample", "courier")]
    for scale in SCALES:
        for name, text in TEXTS.items():
            page = card_page(card, "en", renderer.theme, None)
            page.values["text"] = weasyprint_markup(
                text_html(parse(text).document, renderer.theme, "en")
            )
            page.scale = scale
            keys.append((name, scale))
            pages.append(page)
    laid_out = renderer.render(pages)
    document = pypdfium2.PdfDocument(laid_out.write_pdf())
    found = {}
    for i, key in enumerate(keys):
        top, bottom = text_frame(laid_out.pages[i])
        found[key] = ([g for g in glyphs(document[i]) if bottom < g.y < top], document[i])
    return found


def layout(measured: dict, name: str, scale: float) -> tuple[list[Line], float, float]:
    """The text lines of a text, its body size in mm (one em) and the paragraph's left
    edge (where a plain paragraph's lines start)."""
    found, _ = measured[(name, scale)]
    plain, _ = measured[("plain", scale)]
    body = plain[0].size  # the text's size as the PDF sets it
    em = 9 * scale * PT_MM
    left = text_lines(plain, body)[0].left
    return text_lines(found, body), em, left


def drop_cap(measured: dict, name: str, scale: float) -> Glyph:
    found, _ = measured[(name, scale)]
    return max(found, key=lambda g: g.size)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize(("name", "count"), [("two", 2), ("three", 3), ("six", 6), ("wrapped", 0)])
def test_a_drop_cap_indents_exactly_two_lines(
    measured: dict, name: str, count: int, scale: float
) -> None:
    lines, em, left = layout(measured, name, scale)
    assert len(lines) == count if count else len(lines) >= 4, [x.text for x in lines]
    cap = drop_cap(measured, name, scale)
    for line in lines[:2]:
        assert line.left > cap.box[2], line.text  # beside the cap
    for line in lines[2:]:
        assert line.left == pytest.approx(left, abs=0.01), line.text
    assert cap.x == pytest.approx(left, abs=0.01)
    for above, below in pairwise(lines):
        assert above.baseline - below.baseline == pytest.approx(LINE * em, abs=0.01)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("name", ["two", "three", "six", "wrapped"])
def test_a_drop_cap_aligns_with_the_cap_height_and_the_second_baseline(
    measured: dict, name: str, scale: float
) -> None:
    lines, em, _ = layout(measured, name, scale)
    cap = drop_cap(measured, name, scale)
    first, second = lines[0], lines[1]
    text_size = first.glyphs[0].size
    cap_em = cap.size / text_size * em  # the drop cap's size, in mm
    target_top = first.baseline + cap_height() * em
    # Its baseline on the second line's, its top at the first line's cap height: from
    # the glyphs' origins and sizes in the PDF...
    assert cap.y == pytest.approx(second.baseline, abs=0.02)
    assert cap.y + cap_height() * cap_em == pytest.approx(target_top, abs=0.02)
    # ... and from the drawn glyph's box (pdfium's, a little larger than the outline).
    assert cap.box[1] == pytest.approx(second.baseline, abs=CLOSE_MM)
    assert cap.box[3] == pytest.approx(target_top, abs=CLOSE_MM)


@pytest.mark.parametrize("scale", SCALES)
def test_the_paragraph_after_a_drop_cap_is_not_indented(measured: dict, scale: float) -> None:
    """However short the drop cap's paragraph, the next starts at the left edge, as
    far below as after a paragraph of two lines: two lines and half a line."""
    for name in ("one+next", "two+next"):
        lines, em, left = layout(measured, name, scale)
        following = lines[-1]
        assert following.text.startswith("Eachopponent")
        assert following.left == pytest.approx(left, abs=0.01)
        assert lines[0].baseline - following.baseline == pytest.approx(
            (2 * LINE + 0.5) * em, abs=0.02
        )


def mark_box(page: Any, lines: list[Line], em: float) -> tuple[float, float, float, float]:
    """The large mark's outline (left, bottom, right, top) in mm: the path objects of
    the page left of the text's first line, from a line above it to a line below the
    second."""
    top = lines[0].baseline + LINE * em
    bottom = lines[1].baseline - LINE * em
    boxes = []
    for item in page.get_objects(max_depth=8):
        if item.type != pdfium.FPDF_PAGEOBJ_PATH:
            continue
        left, low, right, high = (v * PT_MM for v in item.get_bounds())
        if right <= lines[0].left and low > bottom and high < top:
            boxes.append((left, low, right, high))
    assert boxes
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("name", ["mark", "mark-wrapped"])
def test_a_large_mark_spans_exactly_two_lines(measured: dict, name: str, scale: float) -> None:
    lines, em, left = layout(measured, name, scale)
    assert len(lines) == 3 if name == "mark" else len(lines) >= 4, [line.text for line in lines]
    for line in lines[2:]:
        assert line.left == pytest.approx(left, abs=0.01), line.text
    assert lines[0].left == pytest.approx(lines[1].left, abs=0.01)
    assert lines[0].left > left
    mark_left, mark_bottom, mark_right, mark_top = mark_box(measured[(name, scale)][1], lines, em)
    # Inside the two lines' boxes (line 1's top, line 2's bottom), beside the text,
    # and centred on the band a drop cap fills (line 1's cap height to line 2's
    # baseline).
    line_top = lines[0].baseline + above_baseline() * em
    line_bottom = lines[1].baseline - (LINE - above_baseline()) * em
    assert mark_left == pytest.approx(left, abs=0.01)
    assert mark_right < lines[0].left
    assert mark_top <= line_top and mark_bottom >= line_bottom
    band_middle = (lines[0].baseline + cap_height() * em + lines[1].baseline) / 2
    assert (mark_top + mark_bottom) / 2 == pytest.approx(band_middle, abs=CLOSE_MM)


# -------------------------------------------------------------------- loyalty marks


def boxes(box: Any) -> Iterator[Any]:
    """Every box of WeasyPrint's layout under ``box`` (into positioned ones)."""
    box = getattr(box, "_box", box)
    yield box
    for child in getattr(box, "children", ()):
        yield from boxes(child)


def classes(box: Any) -> list[str]:
    element = getattr(box, "element", None)
    return (element.get("class") or "").split() if element is not None else []


@pytest.fixture(scope="module")
def loyal_cards(library: cards.Library, renderer: Renderer) -> list[tuple[str, Any, Any]]:
    """Every sample card with loyalty marks, with its artwork: its label, its page's
    layout and its page rendered at 600 dpi."""
    pages = []
    for (_, slug), card in sorted(library.cards.items()):
        if not card.get("loyalty"):
            continue
        page = card_page(card, "en", renderer.theme, None)
        artwork = SAMPLE / "art" / f"{slug}.jpg"
        if artwork.is_file():
            page.values["artwork"] = artwork.resolve().as_uri()
        pages.append(page)
    document = renderer.render(pages)
    pdf = pypdfium2.PdfDocument(document.write_pdf())
    return [
        (page.label, document.pages[i], pdf[i].render(scale=600 / 72).to_pil().convert("RGB"))
        for i, page in enumerate(pages)
    ]


@pytest.mark.slow
def test_the_sample_has_loyalty_marks_on_both_layouts(loyal_cards: list) -> None:
    families = {
        "creature" if any("creature" in classes(b) for b in boxes(p._page_box)) else "spell"
        for _, p, _ in loyal_cards
    }
    assert families == {"creature", "spell"}
    assert len(loyal_cards) >= 13


def test_loyalty_marks_are_fully_visible(loyal_cards: list) -> None:
    """Each diamond is its faction's ink all over (nothing painted on it: not the
    artwork), in a paper-white outline, under the cost disc."""
    per_mm = 600 / 25.4

    def pixel(image: Any, x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return image.getpixel((round(x_mm * per_mm), round(y_mm * per_mm)))

    for label, page, image in loyal_cards:
        found = list(boxes(page._page_box))
        cost = next(b for b in found if "cost" in classes(b))
        marks = [b for b in found if "mark" in classes(b)]
        assert marks, label
        # The disc's ink, away from its figure.
        ink = pixel(
            image,
            (cost.position_x + cost.border_width() * 0.12) * CSS_PX_MM,
            (cost.position_y + cost.border_height() / 2) * CSS_PX_MM,
        )
        cost_left = cost.position_x * CSS_PX_MM
        cost_right = cost_left + cost.border_width() * CSS_PX_MM
        cost_bottom = (cost.position_y + cost.border_height()) * CSS_PX_MM
        for mark in marks:
            x = (mark.position_x + mark.margin_left + mark.border_width() / 2) * CSS_PX_MM
            y = (mark.position_y + mark.border_height() / 2) * CSS_PX_MM
            # The ink is a 1.6 mm square turned by 45 degrees: 1.13 mm to each tip.
            inner = 0.75
            for dx, dy in ((0, 0), (inner, 0), (-inner, 0), (0, inner), (0, -inner)):
                colour = pixel(image, x + dx, y + dy)
                assert max(abs(a - b) for a, b in zip(colour, ink, strict=True)) < 24, (
                    label,
                    dx,
                    dy,
                    colour,
                    ink,
                )
            outline = 1.131 + 0.14  # in the 0.2 mm white border, past the ink's tip
            for dx, dy in ((0, outline), (0, -outline)):
                assert min(pixel(image, x + dx, y + dy)) > 225, (label, dx, dy)
            assert cost_left < x < cost_right and y > cost_bottom, label


def test_loyalty_marks_are_cmyk_without_transparency() -> None:
    css = (ROOT / "templates" / "default" / "card.css.j2").read_text("utf-8")
    rules = re.findall(r"\.loyalty[^{]*\{[^}]*\}", css)
    assert len(rules) >= 3
    for rule in rules:
        assert not re.search(r"opacity|shadow|rgb|#[0-9a-f]{3}|filter|transparent", rule), rule
    assert "solid device-cmyk(0 0 0 0)" in "".join(rules)
