"""The UA stylesheet of a document of cards (translator.typeset.render): WeasyPrint's
without the rules of pseudo-elements that make no box in it, every element's computed
style the same; and without its rules of a page's margin boxes, footnote and note areas
when the theme styles none, every page laid out the same."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
import weasyprint
from weasyprint.css import get_all_computed_styles
from weasyprint.css.counters import CounterStyle
from weasyprint.css.properties import INITIAL_VALUES
from weasyprint.css.targets import TargetCollector
from weasyprint.html import UA_STYLESHEET
from weasyprint.text.fonts import FontConfiguration

from tests.conftest import ROOT
from translator import cards
from translator.pdf.sizes import PRESETS
from translator.typeset import render
from translator.typeset.render import BOXLESS_PSEUDO, PAGE_AREAS, Renderer, card_page
from translator.typeset.theme import load_theme

SAMPLE = ROOT / "cards" / "sample"
#: Elements a theme's templates may write (but ``li``, which makes a list item).
THEME_HTML = """<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>t</title>
</head><body><h1>Titre</h1><h2 dir="rtl">x</h2><p>Un <b>mot</b> <i>en</i> <em>plus</em>
<strong>fort</strong> <small>petit</small> <sup>1</sup><sub>2</sub> <code>c</code>
<a href="#x">lien</a> <q>cité</q><br><wbr>fin</p><ul><p>x</p></ul><ol></ol>
<table><caption>c</caption><tr><th>a</th><td>b</td></tr></table><blockquote>b</blockquote>
<pre>p</pre><hr><header><nav>n</nav></header><article><section><aside>a</aside></section>
</article><figure><img src="data:," alt=""><figcaption>f</figcaption></figure>
<details><summary>s</summary>d</details><dl><dt>t</dt><dd>d</dd></dl><mark>m</mark>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0H10"/></svg>
<footer class="info" style="font-size: 0.9em">f</footer></body></html>"""


def computed(html: str, ua: list[weasyprint.CSS], sheets: list[weasyprint.CSS]) -> list[Any]:
    """Every element's computed style (each property), and its ``::before``,
    ``::after``, ``::first-letter`` and ``::first-line``'s, with ``ua`` for the UA
    stylesheets (WeasyPrint's StyleFor, pinned: internal API)."""
    document = weasyprint.HTML(string=html)
    document._ua_stylesheets = lambda forms=False: ua
    style_for = get_all_computed_styles(
        document, sheets, False, FontConfiguration(), CounterStyle(), {}, [], [],
        TargetCollector(), False,
    )  # fmt: skip
    found = []
    for element in document.etree_element.iter():
        for pseudo in (None, "before", "after", "first-letter", "first-line"):
            style = style_for(element, pseudo)
            found.append(
                (element.tag, pseudo, None if style is None else [style[k] for k in INITIAL_VALUES])
            )
    return found


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer(load_theme(None), PRESETS["arcmage"], [SAMPLE.resolve()])


@pytest.fixture(scope="module")
def documents(renderer: Renderer) -> list[str]:
    """The sample cards as the build renders them: whole, and their text boxes."""
    library, problems = cards.load_library([str(SAMPLE)])
    assert not problems
    pages = [
        card_page(card, lang, renderer.theme, None)
        for card in library.cards.values()
        for lang in ("en", "fr")
    ]
    return [renderer.html(pages), renderer.html(pages, measure=True)]


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_the_cards_are_styled_as_with_weasyprints_ua_stylesheet(
    renderer: Renderer, documents: list[str]
) -> None:
    assert renderer.boxless_pseudo_unused
    for html in documents:
        assert not render._may_use_boxless_pseudo(weasyprint.HTML(string=html))
        ours = computed(html, render._card_ua_stylesheets(), [renderer.stylesheet])
        assert ours == computed(html, [UA_STYLESHEET], [renderer.stylesheet])


def test_any_element_a_theme_writes_is_styled_as_with_weasyprints(renderer: Renderer) -> None:
    assert not render._may_use_boxless_pseudo(weasyprint.HTML(string=THEME_HTML))
    for sheets in ([], [renderer.stylesheet]):
        ours = computed(THEME_HTML, render._card_ua_stylesheets(), sheets)
        assert ours == computed(THEME_HTML, [UA_STYLESHEET], sheets)


def test_only_the_boxless_pseudo_elements_lose_their_rules() -> None:
    def rules(sheet: weasyprint.CSS) -> int:
        matcher = sheet.matcher
        return len(matcher.other_selectors) + sum(
            len(v) for v in matcher.lower_local_name_selectors.values()
        )

    assert rules(UA_STYLESHEET) - rules(render._card_ua_sheet()) == len(BOXLESS_PSEUDO)
    assert render._card_ua_stylesheets(forms=True)[0] is UA_STYLESHEET


@pytest.mark.parametrize(
    "css",
    [
        ".x { display: list-item }",
        ".x { display: inline list-item }",
        ".x { float: footnote }",
        ".x { position: note(notes) }",
        ".x { display: var(--shown) }",
        "@page { @top-left { display: list-item } }",
    ],
)
def test_a_theme_that_may_make_a_list_item_a_footnote_or_a_note_keeps_them(css: str) -> None:
    assert render._styles_boxless_pseudo(weasyprint.CSS(string=css))


def test_a_theme_of_blocks_floats_and_positions_does_not() -> None:
    css = ".x { display: block; float: left; position: absolute } .y { display: none }"
    assert not render._styles_boxless_pseudo(weasyprint.CSS(string=css))


@pytest.mark.parametrize(
    "body",
    [
        "<ul><li>item</li></ul>",
        "<style>p { display: list-item }</style><p>x</p>",
        '<link rel="stylesheet" href="x.css"><p>x</p>',
        '<p style="display: list-item">x</p>',
        '<p style="float: footnote">x</p>',
        '<p style="display: list\\-item">x</p>',
    ],
)
def test_a_document_that_may_make_one_keeps_weasyprints(body: str) -> None:
    assert render._may_use_boxless_pseudo(weasyprint.HTML(string=f"<body>{body}</body>"))


def laid_out(html: str, ua: Any, sheets: list[weasyprint.CSS]) -> list[Any]:
    """Every box of every page as laid out (WeasyPrint's box tree, pinned: internal
    API): its kind, element, place, size and each property of its computed style."""
    document = weasyprint.HTML(string=html)
    document._ua_stylesheets = ua
    found: list[Any] = []

    def walk(box: Any, depth: int) -> None:
        geometry = [
            getattr(box, name, None)
            for name in ("position_x", "position_y", "width", "height", "margin_top")
        ]
        style = [_value(box.style, k) for k in INITIAL_VALUES]
        found.append((depth, type(box).__name__, box.element_tag, geometry, style))
        for child in getattr(box, "children", ()):
            walk(child, depth + 1)

    for page in document.render(stylesheets=sheets).pages:
        walk(page._page_box, 0)
    return found


def _value(style: Any, key: str) -> Any:
    """A property's computed value (an anonymous box's style computes no logical
    property: "none" there, as on the other side)."""
    try:
        return style[key]
    except KeyError:
        return "none"


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_without_the_page_areas_rules_the_cards_lay_out_the_same(
    renderer: Renderer, documents: list[str]
) -> None:
    assert renderer.page_areas_unused
    sheets = [renderer.stylesheet]
    for html, extra in zip(documents, ([], [renderer.measuring]), strict=True):
        smaller = partial(render._card_ua_stylesheets, page_areas=False)
        ours = laid_out(html, smaller, sheets + extra)
        assert ours == laid_out(html, render._card_ua_stylesheets, sheets + extra)
        # No margin box, footnote or note area is left on a page: nothing was dropped.
        assert {kind for _, kind, *_ in ours}.isdisjoint({"MarginBox", "FootnoteAreaBox"})


def test_the_renderer_lays_out_with_the_smaller_sheet(
    renderer: Renderer, documents: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    used: list[tuple[Any, bool]] = []
    sheets = render._card_ua_stylesheets
    monkeypatch.setattr(
        render,
        "_card_ua_stylesheets",
        lambda forms=False, page_areas=True: (
            used.append((forms, page_areas)) or sheets(forms, page_areas)
        ),
    )
    library, _ = cards.load_library([str(SAMPLE)])
    card = next(iter(library.cards.values()))
    renderer.render([card_page(card, "fr", renderer.theme, None)])
    assert len(used) == 1 and used[0][1] is False and not used[0][0]  # once, no forms


def test_only_the_page_areas_lose_their_rules() -> None:
    def areas(sheet: weasyprint.CSS) -> list[str]:
        return sorted(p for _, selectors, _ in sheet.page_rules for _, p, _ in selectors if p)

    assert areas(render._card_ua_sheet()) == sorted(f"@{area}" for area in PAGE_AREAS)
    assert areas(render._card_ua_sheet(page_areas=False)) == []
    # The page's own rule (its margin) stays.
    assert len(render._card_ua_sheet(page_areas=False).page_rules) == 1
    assert render._card_ua_stylesheets(forms=True, page_areas=False)[0] is UA_STYLESHEET


@pytest.mark.parametrize(
    ("css", "styled"),
    [
        ("@page { size: 63mm 88mm; margin: 0 }", False),
        ("@page :first { margin: 1mm } .x { color: red }", False),
        ("@page { @bottom-center { content: counter(page) } }", True),
        ("@page :left { @top-left-corner { background: red } }", True),
        ("@page { @footnote { margin-top: 0 } }", True),
    ],
)
def test_a_theme_that_styles_a_page_area_keeps_the_uas_rules(css: str, styled: bool) -> None:
    # A margin box with a content of the theme's prints aligned as the UA says.
    assert render._styles_page_areas(weasyprint.CSS(string=css)) is styled
