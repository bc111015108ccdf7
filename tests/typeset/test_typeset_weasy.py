"""The WeasyPrint adapter (translator.typeset.weasy): a canary per internal it reads, so
that a WeasyPrint release that moved one fails here, by name, before any card is
printed wrong; the version check; and the public fallbacks giving the same cards."""

from __future__ import annotations

import ast
import ctypes.util
import os
import re
import subprocess
import sys
import textwrap
import tomllib
from typing import Any

import pypdfium2
import pytest
import weasyprint

from tests.conftest import ROOT
from translator.errors import UserError
from translator.typeset import render, weasy

MM_PX = 96 / 25.4


def laid_out(html: str, css: str = "") -> weasyprint.Page:
    sheets = [weasyprint.CSS(string="@page { size: 60mm 60mm; margin: 0 } " + css)]
    return weasyprint.HTML(string=html).render(stylesheets=sheets).pages[0]


def walk(box: Any) -> list[Any]:
    box = weasy.laid_out(box)
    return [box, *(found for child in weasy.children(box) for found in walk(child))]


def by_class(page: weasyprint.Page, name: str) -> Any:
    return next(box for box in walk(weasy.page_box(page)) if name in weasy.classes(box))


def text_of(pdf: bytes) -> str:
    document = pypdfium2.PdfDocument(pdf)
    return str(document[0].get_textpage().get_text_range())


# -- the import: WeasyPrint from the adapter alone, its libraries found quickly ---------


def test_weasyprint_is_imported_by_the_adapter_alone() -> None:
    """Every module has WeasyPrint from translator.typeset.weasy, so that its libraries
    are always found the quick way and its version always checked first."""
    found = []
    for path in sorted((ROOT / "translator").rglob("*.py")):
        if path == ROOT / "translator" / "typeset" / "weasy.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno}"
                for name in names
                if name == "weasyprint" or name.startswith("weasyprint.")
            ]
    assert found == []


#: Run in a fresh interpreter: the programs WeasyPrint's import starts, one per line.
PROGRAMS_RUN = textwrap.dedent(
    """
    import subprocess
    started = []
    class Recorded(subprocess.Popen):
        def __init__(self, args, *rest, **options):
            started.append(args if isinstance(args, str) else args[0])
            super().__init__(args, *rest, **options)
    subprocess.Popen = Recorded
    import translator.typeset.render
    from weasyprint.text import ffi
    assert ffi.pango is not None and ffi.harfbuzz is not None and ffi.fontconfig is not None
    print("\\n".join(map(str, started)))
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ldconfig: Linux only")
def test_weasyprints_libraries_are_found_with_one_program() -> None:
    """cffi asks ctypes.util.find_library for each name WeasyPrint tries, which runs
    ldconfig, gcc and ld for each: the adapter answers from one run of ldconfig."""
    env = {key: value for key, value in os.environ.items() if "LIBRARY_PATH" not in key}
    done = subprocess.run(
        [sys.executable, "-c", PROGRAMS_RUN], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert [os.path.basename(line) for line in done.stdout.split()] == ["ldconfig"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ldconfig: Linux only")
def test_with_library_paths_of_the_users_the_standard_lookup_is_asked() -> None:
    """LD_LIBRARY_PATH may name folders ldconfig's cache does not cover: a name the
    cache lacks is then asked of ctypes.util.find_library as before."""
    done = subprocess.run(
        [sys.executable, "-c", PROGRAMS_RUN],
        capture_output=True,
        text=True,
        env={**os.environ, "LD_LIBRARY_PATH": "/nonexistent"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.split()) > 1


@pytest.mark.parametrize("listing", [None, "0 libs found in cache `/etc/ld.so.cache'\n"])
def test_without_a_linker_cache_the_standard_lookup_is_asked(
    listing: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No ldconfig, or an empty cache (a bare container): find_library is left alone."""
    monkeypatch.setattr(weasy, "_ldconfig_listing", lambda: listing)
    standard = ctypes.util.find_library
    with weasy._libraries_found_quickly():
        assert ctypes.util.find_library is standard


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ldconfig: Linux only")
@pytest.mark.parametrize(
    "name",
    ["gobject-2.0", "pango-1.0", "harfbuzz", "fontconfig", "pangoft2-1.0", "gobject-2.0-0", "c"],
)
def test_a_library_is_found_as_ctypes_finds_it(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LD_LIBRARY_PATH", raising=False)
    monkeypatch.delenv("LIBRARY_PATH", raising=False)
    standard = ctypes.util.find_library(name)
    with weasy._libraries_found_quickly():
        quick = ctypes.util.find_library(name)
    assert ctypes.util.find_library is not None
    assert quick == standard


# -- the version --------------------------------------------------------------------


def test_the_installed_weasyprint_is_supported() -> None:
    weasy.check_version()


def test_another_version_is_refused_saying_which_is_needed() -> None:
    with pytest.raises(UserError, match=r"needs WeasyPrint >=70,<71 \(installed: 66\.0\)"):
        weasy.check_version((66, 0))
    with pytest.raises(weasy.WeasyPrintVersionError, match=r"installed: 71\.1"):
        weasy.check_version((71, 1))


def test_the_supported_versions_are_the_pinned_ones() -> None:
    """pyproject.toml's requirement and the constraints file agree with SUPPORTED."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = next(d for d in project["dependencies"] if d.startswith("weasyprint"))
    low, high = weasy.SUPPORTED
    assert wanted.split("#")[0].strip() == f"weasyprint>={low},<{high}"
    pinned = re.search(r"(?m)^weasyprint==(\d+)\.", (ROOT / "constraints.txt").read_text())
    assert pinned is not None and low <= int(pinned.group(1)) < high


# -- the UA stylesheet: weasyprint.html.UA, CounterStyle, HTML._ua_stylesheets -------


def test_canary_ua_text_has_the_rules_we_take_out() -> None:
    text = weasy.ua_stylesheet_text()
    assert isinstance(text, str) and "html {" in text.replace("html{", "html {")
    assert render._card_ua_sheet(True) is not None  # every BOXLESS_PSEUDO rule found
    assert render._card_ua_sheet(False) is not None  # every PAGE_AREAS rule found


def test_canary_counter_style_parses_a_ua_stylesheet() -> None:
    sheet = weasy.ua_stylesheet("ol { list-style-type: decimal }")
    assert isinstance(sheet, weasyprint.CSS)


def test_canary_ua_stylesheets_hook_is_used_by_the_render() -> None:
    html = weasyprint.HTML(string='<p class="x">seen</p>')
    hidden = weasy.ua_stylesheet("p { display: none }")
    assert weasy.use_ua_stylesheets(html, lambda forms=False: [hidden])
    page = html.render().pages[0]
    assert not [box for box in walk(weasy.page_box(page)) if weasy.is_text(box)]


def test_canary_default_ua_stylesheets() -> None:
    assert len(weasy.default_ua_stylesheets()) == 1
    assert len(weasy.default_ua_stylesheets(forms=True)) == 2


def test_canary_html_elements() -> None:
    html = weasyprint.HTML(string="<p>a<b>b</b></p>")
    assert [e.tag.rpartition("}")[2] for e in weasy.html_elements(html)][-2:] == ["p", "b"]


# -- a parsed stylesheet's rules: cssselect2's matcher buckets, CSS.page_rules -------


@pytest.mark.parametrize(
    "selector",
    ["#id", ".class", "li", "*|p", "p:lang(fr)", "*", "[data-x]"],
)
def test_canary_declarations_of_every_matcher_bucket(selector: str) -> None:
    sheet = weasyprint.CSS(string=f"{selector} {{ display: list-item }}")
    found = weasy.declarations(sheet)
    assert found is not None and [name for name, _ in found] == ["display"]


def test_canary_declarations_of_page_rules() -> None:
    found = weasy.declarations(weasyprint.CSS(string="@page { float: footnote }"))
    assert found == [("float", "footnote")]


def test_canary_page_area_rules() -> None:
    sheet = weasyprint.CSS(string="@page { margin: 1mm; @top-left { content: 'x' } }")
    assert weasy.page_area_rules(sheet) == ["@top-left"]
    assert weasy.page_area_rules(weasyprint.CSS(string="@page { margin: 1mm }")) == []


# -- the box tree: Page._page_box, box classes, geometry, computed style -------------

BOXES = """<div class="frame" style="position: absolute; left: 5mm; top: 4mm; width: 30mm;
height: 20mm; padding: 1mm; border: 2mm solid"><p class="content" style="margin: 0;
font-size: 10pt">word</p></div>"""


def test_canary_box_tree() -> None:
    page = laid_out(BOXES)
    frame = by_class(page, "frame")  # behind an absolute placeholder: laid_out()
    assert weasy.has_geometry(frame)
    assert weasy.element(frame).get("class") == "frame"
    left, top, right, bottom = weasy.border_rect(frame)
    assert (left, top) == pytest.approx((5 * MM_PX, 4 * MM_PX))
    assert (right - left, bottom - top) == pytest.approx((36 * MM_PX, 26 * MM_PX))
    inner = weasy.content_rect(frame)
    assert inner[0] - left == pytest.approx(3 * MM_PX)
    assert weasy.size(frame) == pytest.approx((30 * MM_PX, 20 * MM_PX))
    assert weasy.position(frame) == pytest.approx((5 * MM_PX, 4 * MM_PX))
    content = by_class(page, "content")
    assert weasy.margin_height(content) > 0
    texts = [box for box in walk(content) if weasy.is_text(box)]
    assert [weasy.text(box) for box in texts] == ["word"]
    assert weasy.style(texts[0], "font_size") == pytest.approx(10 / 0.75)


def test_canary_geometry_and_style_compared() -> None:
    one, two = by_class(laid_out(BOXES), "frame"), by_class(laid_out(BOXES), "frame")
    assert weasy.geometry(one) == weasy.geometry(two)
    assert weasy.same_style(one, two) is True
    red = by_class(laid_out(BOXES.replace("solid", "solid red")), "frame")
    assert weasy.same_style(one, red) is False
    moved = by_class(laid_out(BOXES.replace("left: 5mm", "left: 6mm")), "frame")
    assert weasy.geometry(one) != weasy.geometry(moved)


def test_canary_swap_a_laid_out_box_into_a_page() -> None:
    """Page(page_box) with a placeholder's box swapped (set_laid_out_box) prints the new
    box: what the fitting does with a text frame laid out alone."""
    page = laid_out(BOXES)
    other = laid_out(BOXES.replace("word", "other"))
    root = weasy.page_box(page)
    parent, index = next(
        (box, i)
        for box in walk(root)
        for i, child in enumerate(weasy.children(box))
        if "frame" in weasy.classes(weasy.laid_out(child))
    )
    swapped = weasy.swap_child(page, parent, index, by_class(other, "frame"))
    assert swapped is not None
    document = weasyprint.HTML(string=BOXES).render()
    assert "other" in text_of(document.copy([swapped]).write_pdf())


# -- the public fallbacks give the same cards ----------------------------------------


def test_without_the_ua_text_the_render_uses_weasyprints_own(monkeypatch: Any) -> None:
    render._card_ua_sheet.cache_clear()
    monkeypatch.setattr(weasy, "_UA_TEXT", None)
    try:
        assert render._card_ua_stylesheets() == weasy.default_ua_stylesheets()
    finally:
        render._card_ua_sheet.cache_clear()


def test_unreadable_rules_say_the_theme_may_style_anything(monkeypatch: Any) -> None:
    monkeypatch.setattr(weasy, "declarations", lambda sheet: None)
    monkeypatch.setattr(weasy, "page_area_rules", lambda sheet: None)
    sheet = weasyprint.CSS(string="p { color: red }")
    assert render._styles_boxless_pseudo(sheet)
    assert render._styles_page_areas(sheet)


def test_a_card_measures_the_same_through_the_fallbacks(monkeypatch: Any) -> None:
    """A sample card laid out with WeasyPrint's own UA stylesheet (the fallback) has the
    same elements and text heights as with the card UA stylesheet."""
    from translator import cards
    from translator.pdf.sizes import PRESETS
    from translator.typeset.elements import measure_page
    from translator.typeset.render import Renderer, card_page
    from translator.typeset.theme import load_theme

    sample = ROOT / "cards" / "sample"
    library, _ = cards.load_library([str(sample)])
    renderer = Renderer(load_theme(None), PRESETS["arcmage"], [sample.resolve()])
    pages = [card_page(card, "fr", renderer.theme, None) for card in library.cards.values()]
    normal = [measure_page(page) for page in renderer.render(pages).pages]
    monkeypatch.setattr(weasy, "use_ua_stylesheets", lambda html, sheets: False)
    fallback = [measure_page(page) for page in renderer.render(pages).pages]
    assert [h for m in normal for h in m.text] == pytest.approx(
        [h for m in fallback for h in m.text]
    )
    assert [m.elements.keys() for m in normal] == [m.elements.keys() for m in fallback]
