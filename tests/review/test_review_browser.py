"""The review sheet in a real browser: Debian's Chromium, headless, driven by Playwright.

``./dev test`` installs Chromium (Debian's package) and Playwright (PyPI; it drives
the system browser, nothing is downloaded).  These tests skip, saying why, only when
no browser can be started.  The page is opened from disk (``file://``), as a reviewer
opens it.

``.venv/bin/python -m tests.review.test_review_browser docs`` makes the screenshots of the
sample deck's sheet shown in the README.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browserkit import CHROMIUM_ARGS, chromium_path

pytestmark = pytest.mark.slow  # a browser, and the review sheet with its renders


@pytest.fixture
def sheet_page(browser: Any, review_sheet: tuple[Path, Path, str]) -> Iterator[Any]:
    """The French sheet of the broken sample, loaded; console errors collected."""
    _, out, _ = review_sheet
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto((out / "sample.fr.html").as_uri())
    page.wait_for_load_state("load")
    page.errors = errors
    yield page
    page.close()


def visible(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "section.card", "cards => cards.filter(c => !c.hidden).map(c => c.dataset.slug)"
    )


def test_loads_without_console_errors(sheet_page: Any) -> None:
    assert sheet_page.errors == []
    assert len(visible(sheet_page)) == 24
    assert sheet_page.inner_text("#shown") == "24 of 24 cards shown"
    # Every render loads (from disk, relative paths); they load lazily, when scrolled to.
    sheet_page.eval_on_selector_all(
        ".renders img", "images => images.forEach(i => { i.loading = 'eager'; })"
    )
    sheet_page.wait_for_function(
        "[...document.querySelectorAll('.renders img')].every(i => i.complete)"
    )
    broken = sheet_page.eval_on_selector_all(
        ".renders img", "images => images.filter(i => !i.naturalWidth).length"
    )
    assert broken == 0
    # 24 English renders and 22 French: the cards that do not fit (harbor-lord's text,
    # mossgate's name) are not printed.
    assert sheet_page.eval_on_selector_all(".renders img", "images => images.length") == 46


def test_only_cards_with_findings(sheet_page: Any) -> None:
    with_findings = sheet_page.eval_on_selector_all(
        "section.card",
        "cards => cards.filter(c => c.dataset.findings !== '0').map(c => c.dataset.slug)",
    )
    assert "veil-stalker" in with_findings and "tide-warden" not in with_findings
    sheet_page.check("#only-findings")
    assert visible(sheet_page) == with_findings
    sheet_page.uncheck("#only-findings")
    assert len(visible(sheet_page)) == 24


def test_filter_by_rule_and_by_state(sheet_page: Any) -> None:
    sheet_page.select_option("#rule", "TR101")
    assert visible(sheet_page) == ["veil-stalker"]
    sheet_page.select_option("#rule", "")
    sheet_page.select_option("#state", "draft")
    assert visible(sheet_page) == ["saltmere"]
    # The summary's buttons set the same filters, and toggle them.
    sheet_page.click("button.state-filter[data-state='stale']")
    assert visible(sheet_page) == ["sudden-bloom"]
    sheet_page.click("button.state-filter[data-state='stale']")
    assert len(visible(sheet_page)) == 24
    sheet_page.click("button.rule-filter[data-code='TR101']")
    assert visible(sheet_page) == ["veil-stalker"]


def test_search_finds_a_card_by_its_french_name(sheet_page: Any) -> None:
    sheet_page.fill("#search", "rôdeur du voile")
    assert visible(sheet_page) == ["veil-stalker"]
    sheet_page.fill("#search", "hydre")
    assert visible(sheet_page) == ["thornback-hydra"]
    sheet_page.fill("#search", "no card says this")
    assert visible(sheet_page) == []
    assert sheet_page.is_visible("#nothing")


def test_keyboard_moves_between_cards_with_findings(sheet_page: Any) -> None:
    with_findings = sheet_page.eval_on_selector_all(
        "section.card",
        "cards => cards.filter(c => c.dataset.findings !== '0').map(c => c.dataset.slug)",
    )
    assert len(with_findings) >= 3
    current = "section.card.current"
    sheet_page.keyboard.press("n")
    assert sheet_page.get_attribute(current, "data-slug") == with_findings[0]
    sheet_page.keyboard.press("n")
    assert sheet_page.get_attribute(current, "data-slug") == with_findings[1]
    assert sheet_page.evaluate("location.hash") == f"#card-{with_findings[1]}"
    sheet_page.keyboard.press("p")
    assert sheet_page.get_attribute(current, "data-slug") == with_findings[0]
    # Typing in the search box does not move.
    sheet_page.keyboard.press("/")
    sheet_page.keyboard.type("n")
    assert sheet_page.input_value("#search") == "n"
    assert sheet_page.get_attribute(current, "data-slug") == with_findings[0]


def test_a_term_points_at_its_counterpart(sheet_page: Any) -> None:
    card = "#card-veil-stalker"
    sheet_page.hover(f"{card} td[lang='en'] .term[data-term='term:city']")
    linked = sheet_page.eval_on_selector_all(
        f"{card} .term.linked", "terms => terms.map(t => t.textContent)"
    )
    assert sorted(linked) == ["cities", "cités"]


def test_print_stylesheet(sheet_page: Any) -> None:
    sheet_page.select_option("#rule", "TR101")
    sheet_page.emulate_media(media="print")
    assert not sheet_page.is_visible("nav.controls")
    # On paper every card is there, whatever the filters on screen.
    shown = sheet_page.eval_on_selector_all(
        "section.card", "cards => cards.filter(c => getComputedStyle(c).display !== 'none').length"
    )
    assert shown == 24
    pdf = sheet_page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 50_000


def test_screenshot(sheet_page: Any, tmp_path: Path) -> None:
    path = tmp_path / "sheet.png"
    sheet_page.screenshot(path=str(path))
    from PIL import Image

    with Image.open(path) as image:
        assert image.size == (1280, 1000)
        low, high = image.convert("L").getextrema()
        assert high - low > 100  # not a blank page


def screenshots(directory: Path) -> None:
    """The README's screenshots: the sample deck's French sheet as it is
    (``review-sheet.fr.png``), and a copy with defects, at a card with findings
    (``review-sheet-findings.fr.png``)."""
    import io
    import tempfile

    from playwright.sync_api import sync_playwright

    from tests.conftest import ROOT
    from translator.cli import main

    from .reviewkit import broken_sample

    with tempfile.TemporaryDirectory() as scratch:
        pages = []
        for name, deck in (
            ("review-sheet.fr.png", ROOT / "cards" / "sample"),
            ("review-sheet-findings.fr.png", broken_sample(Path(scratch))),
        ):
            out = Path(scratch) / name
            code = main(
                ["review-sheet", str(deck), "--lang", "fr", "--out", str(out)], io.StringIO()
            )
            assert code == 0
            anchor = "" if "findings" not in name else "#card-veil-stalker"
            pages.append((name, (out / "sample.fr.html").as_uri() + anchor))
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(
                executable_path=chromium_path(), args=CHROMIUM_ARGS
            )
            for name, url in pages:
                page = launched.new_page(viewport={"width": 1280, "height": 900})
                page.goto(url)
                page.wait_for_load_state("load")
                page.screenshot(path=str(directory / name))
            launched.close()


if __name__ == "__main__":
    screenshots(Path(sys.argv[1]))
