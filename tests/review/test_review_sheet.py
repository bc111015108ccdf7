"""Review sheets: the page a proofreader reads, built from real renders and lint.

One sheet is made for the session (tests/review/reviewkit.py), from a copy of the sample
with defects a reviewer must see: a lost sign (TR101), a changed number, a card whose
text no longer fits, a draft, a stale card, a reviewed one, a name holding markup.
The page is read as HTML here; ``test_review_browser.py`` drives it in Chromium.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from lxml import html as lxml_html

from tests.lintkit import copy_sample, edit, run
from translator.cards import load_library
from translator.review import highlight
from translator.workflow.fields import split_body

from .reviewkit import SCRIPT_NAME


def page(out: Path) -> lxml_html.HtmlElement:
    return lxml_html.fromstring((out / "sample.fr.html").read_bytes())


def row(document: lxml_html.HtmlElement, slug: str) -> lxml_html.HtmlElement:
    [found] = document.xpath(f'//section[@id="card-{slug}"]')
    return found


def test_one_row_per_card_in_deck_order(review_sheet: tuple[Path, Path, str]) -> None:
    deck, out, _ = review_sheet
    document = page(out)
    slugs = [s.get("data-slug") for s in document.xpath("//section[@data-slug]")]
    order = list(load_library([str(deck)])[0].decks["sample"].quantities)
    assert slugs == order
    assert (out / "index.html").is_file()
    assert 'href="sample.fr.html"' in (out / "index.html").read_text("utf-8")


def test_the_renders_are_the_print_renders_at_screen_size(
    review_sheet: tuple[Path, Path, str],
) -> None:
    _, out, _ = review_sheet
    courier = row(page(out), "courier")
    images = courier.xpath(".//div[@class='renders']//img/@src")
    assert images == ["build/png/courier.en.png", "build/png/courier.fr.png"]
    from PIL import Image

    for source in images:
        with Image.open(out / source) as image:
            assert image.format == "PNG"
            # 63 x 88 mm at 96 dpi (the trim): about 238 x 333 pixels.
            assert 220 < image.width < 260 and 310 < image.height < 350
    # The French render links to the card's PDF.
    assert courier.xpath(".//figure/a/@href") == ["build/courier.fr.pdf"]


def test_the_summary(review_sheet: tuple[Path, Path, str]) -> None:
    _, out, output = review_sheet
    [data] = json.loads(output)["sheets"]
    assert data["states"] == {"missing": 0, "draft": 1, "translated": 21, "reviewed": 1, "stale": 1}
    assert data["overflowing"] == ["harbor-lord"]
    assert data["rules"]["TR101"] == 1 and data["rules"]["TR103"] == 1
    # The deck PDF is not written (it would lack the card that overflows), and the
    # sheet says why.
    assert data["preflight"] is None and data["deck_pdf"] is None
    assert data["deck_missing"] == "2 cards failed (harbor-lord, mossgate)"
    # The French name with its <script> is too wide for the name band: not printed, and
    # the sheet says why.
    assert [error.split(" mm ")[1] for error in data["unprintable"]["mossgate"]] == [
        "too wide for its box at 80 %: shorten it or use two name lines"
    ]
    top = " ".join(page(out).xpath("//section[@class='summary']")[0].text_content().split())
    assert "1 card overflowing" in top and "1 card not printed: mossgate (name is" in top
    assert "Deck PDF not written: 2 cards failed (harbor-lord, mossgate)" in top
    buttons = page(out).xpath("//button[@class='rule-filter sev-error']/@data-code")
    assert "TR101" in buttons


def test_texts_side_by_side_with_numbers_marked(review_sheet: tuple[Path, Path, str]) -> None:
    _, out, _ = review_sheet
    veil = row(page(out), "veil-stalker")
    [english, french] = veil.xpath(".//tr[@class='field-text']/td")
    assert english.xpath(".//span[@class='num diff']/text()") == ["-1/-1"]
    assert french.xpath(".//span[@class='num diff']/text()") == ["1/-1"]
    courier = row(page(out), "courier")
    [_, french] = courier.xpath(".//tr[@class='field-text']/td")
    assert french.xpath(".//span[@class='num diff']/text()") == ["3"]
    # A number both texts have is marked, not as a difference.
    bones = row(page(out), "restless-bones")
    assert "4" in bones.xpath(".//tr[@class='field-text']/td[2]//span[@class='num']/text()")


def test_glossary_terms_are_linked_across_languages(review_sheet: tuple[Path, Path, str]) -> None:
    _, out, _ = review_sheet
    veil = row(page(out), "veil-stalker")
    [english, french] = veil.xpath(".//tr[@class='field-text']/td")
    english_terms = {
        t.get("data-term"): t.text_content()
        for t in english.xpath(".//span[contains(@class, 'term')]")
    }
    french_terms = {
        t.get("data-term"): t.text_content()
        for t in french.xpath(".//span[contains(@class, 'term')]")
    }
    # Lexique: city -> cité, opponent -> adversaire.
    assert english_terms["term:city"] == "cities" and french_terms["term:city"] == "cités"
    assert french_terms["term:opponent"] == "adversaires"


def test_symbols_are_drawn(review_sheet: tuple[Path, Path, str]) -> None:
    _, out, _ = review_sheet
    courier = row(page(out), "courier")
    [english, french] = courier.xpath(".//tr[@class='field-text']/td")
    assert len(english.xpath(".//*[local-name()='svg']")) == 1
    assert len(french.xpath(".//*[local-name()='svg']")) == 1
    # In screen colours: a browser paints device-cmyk() black, the white parts too.
    text = (out / "sample.fr.html").read_text("utf-8")
    assert "device-cmyk" not in text and 'fill="rgb(255,255,255)"' in text


def test_findings_with_codes_messages_and_fixes(review_sheet: tuple[Path, Path, str]) -> None:
    _, out, _ = review_sheet
    veil = row(page(out), "veil-stalker")
    assert veil.get("data-codes") == "TR101" and veil.get("data-findings") == "1"
    [finding] = veil.xpath(".//ul[@class='findings']/li")
    assert finding.get("class") == "sev-error"
    assert "the English has -1/-1 where the translation has 1/-1" in finding.text_content()
    assert "veil-stalker.fr.md:14:" in finding.text_content()
    clean = row(page(out), "tide-warden")
    assert clean.get("data-findings") == "0" and not clean.xpath(".//ul[@class='findings']")


def test_fixes_are_shown(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    edit(deck / "grave-lantern.fr.md", "«", '"')  # FR202: French quotes, fixable
    edit(deck / "grave-lantern.fr.md", "»", '"')
    out = tmp_path / "review"
    code, _ = run("review-sheet", str(deck), "--lang", "fr", "--out", str(out), "--no-renders")
    assert code == 0
    lantern = row(page(out), "grave-lantern")
    fixes = lantern.xpath(".//span[@class='fix']")
    assert fixes and "translator lint --fix" in fixes[0].text_content()
    assert not page(out).xpath("//div[@class='renders']")  # --no-renders


def test_states_review_and_sign_off(review_sheet: tuple[Path, Path, str]) -> None:
    _, out, _ = review_sheet
    document = page(out)
    assert row(document, "saltmere").get("data-state") == "draft"
    stale = row(document, "sudden-bloom")
    assert stale.get("data-state") == "stale"
    assert "stale: text changed" in stale.xpath(".//span[contains(@class, 'badge')]")[0].text
    hydra = row(document, "thornback-hydra")
    assert hydra.get("data-state") == "reviewed"
    assert "by Ana" in hydra.xpath(".//span[@class='reviewed']")[0].text_content()
    assert hydra.xpath(".//div[@class='signoff']//input/@value") == [
        "translator review thornback-hydra --lang fr"
    ]
    harbor = row(document, "harbor-lord")
    assert "overflows by" in harbor.text_content()


def test_card_text_is_escaped(review_sheet: tuple[Path, Path, str]) -> None:
    _, out, _ = review_sheet
    text = (out / "sample.fr.html").read_text("utf-8")
    assert "<script>alert(1)" not in text
    assert text.count("<script>") == 1  # the page's own
    mossgate = row(page(out), "mossgate")
    assert SCRIPT_NAME in mossgate.xpath(".//h2/a")[0].text_content()


@pytest.mark.slow
def test_a_second_sheet_reuses_the_renders(
    review_sheet: tuple[Path, Path, str], tmp_path: Path
) -> None:
    deck, out, _ = review_sheet
    copy = tmp_path / "review"
    shutil.copytree(out, copy)
    images = {p: p.stat().st_mtime_ns for p in (copy / "build" / "png").glob("*.png")}
    code, output = run(
        "review-sheet",
        str(deck),
        "--lang",
        "fr",
        "--out",
        str(copy),
        "--build-dir",
        str(copy / "build"),
    )
    assert code == 0 and "sample.fr.html: 24 cards" in output
    assert {p: p.stat().st_mtime_ns for p in images} == images


def test_usage_errors(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    assert run("review-sheet", str(deck), "--lang", "en", "--out", str(tmp_path))[0] == 2
    assert run("review-sheet", str(deck), "--dpi", "5", "--out", str(tmp_path))[0] == 2
    assert run("review-sheet", str(tmp_path / "none"), "--out", str(tmp_path))[0] == 2


def test_number_words_the_other_side_lacks_are_not_differences() -> None:
    """*un*, *une* are numbers and articles: as in the linter, not numbers to mark
    where the English has none (and never a difference: TR104 reports digits only)."""
    from translator.lint.model import plain_text
    from translator.lint.numbers import read_numbers
    from translator.markup.parser import parse

    english = plain_text(parse("Draw two cards.").document, "en").paragraphs[0]
    french = plain_text(parse("Pioche une carte et deux cartes.").document, "fr").paragraphs[0]
    values = Counter(n.value for n in read_numbers(english.text, {"two": "2"}))
    numbers = highlight.marked_numbers(french, {"un": "1", "une": "1", "deux": "2"}, values)
    assert [french.text[n.start : n.end] for n in numbers] == ["deux"]


def test_split_body_keeps_the_flavour_apart() -> None:
    rules, flavour = split_body('Draw a card.\n\n*"So it goes."*\n', "en")
    assert rules == "Draw a card." and flavour == '*"So it goes."*'
