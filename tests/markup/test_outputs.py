"""HTML, rule text, positions and the reverse converter's quirks."""

from __future__ import annotations

import pytest

from translator import markup
from translator.markup.tree import DropCap, LineBreak, Symbol, Text


def test_tree_nodes_and_positions() -> None:
    text = "Intro line\r\nsecond.\r\n\r\n:W:hen **you** pay :g2:\\\n*draw*."
    result = markup.parse(text, start_line=5)
    first, second = result.document.paragraphs
    assert first.children == (Text("Intro line second."),)
    assert (first.children[0].pos.line, first.children[0].pos.column) == (5, 1)
    kinds = [type(n).__name__ for n in second.children]
    assert kinds == ["DropCap", "Text", "Text", "Text", "Symbol", "LineBreak", "Text", "Text"]
    drop, _, bold, _, symbol, brk, italic, _ = second.children
    assert isinstance(drop, DropCap) and drop.letter == "W"
    assert (drop.pos.line, drop.pos.column) == (8, 1)
    assert isinstance(bold, Text) and bold.bold and (bold.pos.line, bold.pos.column) == (8, 10)
    assert isinstance(symbol, Symbol) and symbol.kind == "cypher"
    assert (symbol.pos.line, symbol.pos.column, symbol.pos.end - symbol.pos.offset) == (8, 20, 4)
    assert isinstance(brk, LineBreak) and (brk.pos.line, brk.pos.column) == (8, 24)
    assert isinstance(italic, Text) and italic.italic
    assert (italic.pos.line, italic.pos.column) == (9, 2)


def test_symbol_kinds() -> None:
    document = markup.parse(":m: :m3: :ma: :mi: :mc: :mic: :mis: :g0: :gt:").document
    kinds = {
        n.code: n.kind for p in document.paragraphs for n in p.children if isinstance(n, Symbol)
    }
    assert kinds == {
        "m": "mark",
        "m3": "mark",
        "ma": "mark",
        "mi": "mark",
        "mc": "column",
        "mic": "column",
        "mis": "inline-mark",
        "g0": "cypher",
        "gt": "cypher",
    }


def test_empty_paragraphs() -> None:
    document = markup.parse("\\\n\nText\n\n\\").document
    assert [p.is_empty for p in document.paragraphs] == [True, False, True]
    assert markup.to_xml(document) == "<layout><p></p><p><n>Text</n></p><p></p></layout>"


def test_html_fragment() -> None:
    text = ":W:hen ***je*** paye :g2: <b>\\\nx\n\n:m: y\n\n\\"
    html = markup.to_html(markup.parse(text).document)
    assert html.splitlines() == [
        '<p class="has-dropcap"><span class="dropcap">W</span>hen <b><i>je</i></b> paye '
        '<span class="sym sym-cypher sym-g2" data-code="g2" role="img" aria-label="2"></span>'
        " &lt;b&gt;<br>x</p>",
        '<p class="has-mark"><span class="sym sym-mark sym-m" data-code="m" role="img" '
        'aria-label="M"></span> y</p>',
        '<p class="empty"></p>',
    ]


def test_html_escapes_drop_caps_and_quotes() -> None:
    html = markup.to_html(markup.parse(":<i>: \"x\" &amp; 'y'").document)
    assert '<span class="dropcap">&lt;i&gt;</span>' in html
    assert "&amp; 'y'" in html


def test_html_renders_with_weasyprint(tmp_path) -> None:
    """The fragment is real HTML for the print templates: WeasyPrint lays it out."""
    weasyprint = pytest.importorskip("weasyprint")
    fragment = markup.to_html(
        markup.parse(
            ":Ĉ:iu ludanto ***tiras*** du kartojn :g2:.\\\nPoste «\u202fforĵetas\u202f» unu."
        ).document
    )
    html = (
        "<html><head><style>@page{size:64mm 90mm;margin:3mm} .sym{display:inline-block;"
        "width:1em;height:1em;background:device-cmyk(0 0 0 1)}</style></head><body>"
        f"{fragment}</body></html>"
    )
    document = weasyprint.HTML(string=html).render()
    assert len(document.pages) == 1
    pdf = document.write_pdf()
    assert pdf.startswith(b"%PDF")
    text = "".join(box.text for box in _text_boxes(document.pages[0]._page_box))
    assert "iu ludanto" in text and "tiras" in text and "forĵetas" in text


def _text_boxes(box):
    if hasattr(box, "text"):
        yield box
    for child in getattr(box, "children", []):
        yield from _text_boxes(child)


@pytest.mark.parametrize(
    ("lang", "text", "rules", "flavor"),
    [
        ("en", ':W:hen I die, draw.\n\n*"The end."*', "When I die, draw.", "The end."),
        (
            "fr",
            ":m: Paye :g2: et :gx:.\\\nPioche.\n\n*« Fin. »*\n\nEncore.",
            "M, Paye 2 et X.Pioche.",
            "Fin. »\nEncore.",
        ),
        ("eo", "Tiru   kartojn :m3: :ma:.", "Tiru kartojn M3,A,.", ""),
        ("en", '*"Only flavour."*', "", "Only flavour."),
        ("en", "*Not flavour, no quote.*", "Not flavour, no quote.", ""),
    ],
)
def test_rule_and_flavor(lang: str, text: str, rules: str, flavor: str) -> None:
    result = markup.rule_and_flavor(markup.parse(text).document, lang)
    assert result == {"ruleText": rules, "flavorText": flavor}


def test_reverse_converter_quirks() -> None:
    # Drop caps keep one letter, upper-cased (.NET maps ß to itself, not SS).
    assert markup.to_markdown("<layout><p><c>ßa</c></p></layout>") == ":ß:"
    assert markup.to_markdown("<layout><p><c>éa</c><n>x</n></p></layout>") == ":É:x"
    # Text is written XML-escaped, and ":br:" typed as text becomes a break too.
    assert (
        markup.to_markdown("<layout><p><n>a &lt; b :br: c</n></p></layout>") == "a &lt; b \\\r\n c"
    )
    # Unknown elements are skipped; text outside elements is ignored.
    assert markup.to_markdown("<layout><p>x<u>y</u><n>z</n></p></layout>") == "z"
    with pytest.raises(markup.LayoutXmlError):
        markup.to_markdown("<layout><p><c></c></p></layout>")


def test_from_xml_reports_unknown_elements() -> None:
    document, unknown = markup.from_xml("<layout><p><n>a</n><u>b</u></p><x/></layout>")
    assert document.layout() == ((("n", "a"),),)
    assert [(u.tag, u.paragraph) for u in unknown] == [("u", 0), ("x", 1)]
    with pytest.raises(markup.LayoutXmlError):
        markup.from_xml("<root/>")


# Inputs on which a naive port (or the reference itself) is quadratic or recurses
# without bound; each must come back promptly with the reference's answer.
LIMIT = 60_000


def test_unclosed_brackets_at_scale() -> None:
    result = markup.parse("[" * LIMIT)
    assert result.document.layout() == ((("n", "[" * LIMIT),),)
    closed = markup.parse("[" * (LIMIT // 2) + "a" + "]" * (LIMIT // 2) + "(http://x.org)")
    assert closed.document.paragraphs[0].children == ()


def test_caret_runs_hit_the_nesting_limit() -> None:
    result = markup.parse("^" * LIMIT)
    assert [c.reason for c in result.crashes] == ["elements nested more than 100 deep"]


def test_deep_quotes_hit_the_nesting_limit() -> None:
    result = markup.parse(">" * LIMIT + " x")
    assert [c.reason for c in result.crashes] == ["quotes nested more than 100 deep"]


def test_many_at_signs_are_checked_up_to_a_bound() -> None:
    found = [d for d in markup.check_text("a@@" * 20_000) if d.code == "MK401"]
    assert len(found) == 50
