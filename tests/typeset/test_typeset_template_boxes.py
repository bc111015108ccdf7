"""The default theme's cards have no box that prints nothing (issue 22: WeasyPrint's
time grows with the number of boxes): a text at full size is its element's own, a
`fit` span only holds a shrunk one, and the faction's tint is the card's background,
with a `ground` box only for a theme's background image (templates/default/parts.html.j2).
The layout these make is the one before (bench/renders.py compares every page)."""

from __future__ import annotations

import re

from tests.lintkit import SAMPLE
from translator import cards
from translator.pdf.sizes import PRESETS
from translator.typeset.render import CardPage, Renderer, card_page
from translator.typeset.theme import load_theme


def _pages() -> tuple[Renderer, list[CardPage]]:
    theme = load_theme()
    library, _ = cards.load_library([str(SAMPLE)])
    renderer = Renderer(theme, PRESETS["arcmage"], [SAMPLE.resolve()])
    return renderer, [
        card_page(card, "en", theme, None) for _, card in sorted(library.cards.items())
    ]


def test_full_size_texts_have_no_span_and_the_ground_no_box() -> None:
    renderer, pages = _pages()
    html = renderer.html(pages)
    assert html.count('<section class="card') == len(pages)
    assert 'class="fit"' not in html
    assert 'class="ground"' not in html
    assert html.count('<div class="name1">') == len(pages)
    assert html.count('class="text-content" style="font-size: 9.000pt"') == len(pages)


def test_a_shrunk_element_gets_its_size_and_a_background_its_box() -> None:
    renderer, pages = _pages()
    page = next(p for p in pages if p.values["attack"] is not None)
    page.fit = {"name": 0.86, "type": 0.8, "attack": 0.9}
    page.values = {**page.values, "background": "file:///theme/ground.jpg"}
    html = renderer.html([page])
    assert re.search(r'<div class="name1"><span class="fit" style="font-size: 0.860em">', html)
    assert '<span class="type"><span class="fit" style="font-size: 0.800em">' in html
    assert '<div class="stat attack"><span class="fit" style="font-size: 0.900em">' in html
    assert html.count('class="fit"') == 3  # the cost and defense at full size
    assert '<div class="ground"><img class="background" src="file:///theme/ground.jpg"' in html


def test_measuring_lays_out_the_text_box_alone() -> None:
    renderer, pages = _pages()
    html = renderer.html(pages, measure=True)
    assert html.count('<div class="text-frame">') == len(pages)
    assert not re.search(r'class="(name|cost|art|typeline|stat|info|frame|ground)\b', html)
