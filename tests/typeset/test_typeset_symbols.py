"""The card-text symbols: one CMYK drawing per code, printed by WeasyPrint in CMYK only."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
import weasyprint
from PIL import Image, ImageDraw, ImageOps

from translator.markup.tree import (
    COLUMN_MARK_CODES,
    CYPHER_CODES,
    LARGE_MARK_CODES,
    SYMBOL_CODES,
)
from translator.typeset import symbols
from translator.typeset.symbols import (
    SymbolError,
    default_symbols_dir,
    symbol_path,
    symbol_size,
    symbol_svg,
)

SVG = "{http://www.w3.org/2000/svg}"
CODES = sorted(SYMBOL_CODES)
#: Codes whose drawing knocks a white figure, letter or arrow out of a black body.
KNOCKED_OUT = [*CYPHER_CODES, *(c for c in LARGE_MARK_CODES if c != "mi"), "mc"]
CMYK = re.compile(r"^device-cmyk\(\s*(?:[01](?:\.\d+)?[\s,]+){3}[01](?:\.\d+)?\s*\)$")
COLOUR_PROPERTIES = ("fill", "stroke", "color", "stop-color", "flood-color", "lighting-color")
FORBIDDEN_ELEMENTS = (
    "linearGradient",
    "radialGradient",
    "pattern",
    "filter",
    "mask",
    "image",
    "foreignObject",
    "style",
    "script",
    "text",
)
FORBIDDEN_PROPERTIES = (
    "opacity",
    "fill-opacity",
    "stroke-opacity",
    "filter",
    "mask",
    "clip-path",
    "style",
    "id",
)
SHAPES = ("path", "circle", "ellipse", "rect", "polygon", "polyline", "line")


def parse(code: str) -> ET.Element:
    return ET.parse(default_symbols_dir() / f"{code}.svg").getroot()


# --- the files ----------------------------------------------------------------------


def test_every_code_has_a_drawing_and_nothing_else_is_there() -> None:
    shipped = {p.stem for p in default_symbols_dir().glob("*.svg")}
    assert shipped == set(SYMBOL_CODES)


@pytest.mark.parametrize("code", CODES)
def test_drawing_is_a_viewbox_svg(code: str) -> None:
    root = parse(code)
    assert root.tag == f"{SVG}svg"
    numbers = [float(v) for v in root.get("viewBox", "").replace(",", " ").split()]
    assert len(numbers) == 4 and numbers[2] > 0 and numbers[3] > 0
    assert root.get("width") is None and root.get("height") is None, "no fixed size"


@pytest.mark.parametrize("code", CODES)
def test_drawing_uses_only_device_cmyk(code: str) -> None:
    text = (default_symbols_dir() / f"{code}.svg").read_text("utf-8")
    body = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    assert not re.search(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(|currentColor|url\(", body)
    for element in parse(code).iter():
        name = element.tag.removeprefix(SVG)
        assert name not in FORBIDDEN_ELEMENTS, f"<{name}>"
        for key, value in element.attrib.items():
            assert key not in FORBIDDEN_PROPERTIES, f"{key}= on <{name}>"
            if key in COLOUR_PROPERTIES and value != "none":
                assert CMYK.match(value), f'{key}="{value}" on <{name}> (use device-cmyk)'


@pytest.mark.parametrize("code", CODES)
def test_every_shape_has_an_explicit_cmyk_fill(code: str) -> None:
    """An unset fill is black, but WeasyPrint writes it in RGB (as it does currentColor)."""

    def walk(element: ET.Element, inherited: str | None) -> None:
        fill = element.get("fill", inherited)
        if element.tag.removeprefix(SVG) in SHAPES:
            assert fill is not None, f"{code}: a shape without fill"
        for child in element:
            walk(child, fill)

    walk(parse(code), None)


# --- the API --------------------------------------------------------------------------


@pytest.mark.parametrize("code", CODES)
def test_symbol_svg_is_inline_svg_with_the_drawing_and_a_size(code: str) -> None:
    markup = symbol_svg(code, "sym-art")
    root = ET.fromstring(markup)
    assert root.tag == f"{SVG}svg"
    assert root.get("class") == "sym-art"
    assert root.get("viewBox") == parse(code).get("viewBox")
    width, height = symbol_size(code)
    assert root.get("width") == f"{width:g}em" and root.get("height") == f"{height:g}em"
    assert "<!--" not in markup and "\n" not in markup
    assert len(root) == len(parse(code))


def test_sizes_follow_the_templates() -> None:
    assert symbol_size("g0") == (1.0, 1.0)
    assert symbol_size("m") == (2.1, 2.25)
    assert symbol_size("mis") == (1.1, 1.0)
    for code in COLUMN_MARK_CODES:
        assert ET.fromstring(symbol_svg(code)).get("preserveAspectRatio") == "xMidYMin meet"


def test_no_class_attribute_without_a_class() -> None:
    assert " class=" not in symbol_svg("g1")
    assert 'class="a &quot;b&quot;"' in symbol_svg("g1", 'a "b"')


@pytest.mark.parametrize("code", ["", "G1", "g10", "mm", "br", "pa", "m ", ":m:"])
def test_unknown_code_is_a_value_error(code: str) -> None:
    with pytest.raises(ValueError, match="unknown symbol code"):
        symbol_svg(code)


def test_drawings_are_read_once() -> None:
    symbols._load.cache_clear()
    for _ in range(3):
        symbol_svg("g4")
        symbol_svg("g4", "x")
    assert symbols._load.cache_info().misses == 1


def test_a_theme_overrides_single_symbols(tmp_path: Path) -> None:
    (tmp_path / "symbols").mkdir()
    (tmp_path / "symbols" / "g1.svg").write_text(
        '<?xml version="1.0"?>\n<!-- mine -->\n'
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="10mm" '
        'viewBox="0 0 50 100" inkscape:version="1.2">\n'
        '  <defs><circle id="dot" r="5" fill="device-cmyk(0 0 0 1)"/></defs>\n'
        '  <use xlink:href="#dot" x="25" y="50" inkscape:label="x"/>\n'
        '  <rect x="0" y="0" width="50" height="100" fill="url(#dot)"/>\n</svg>\n',
        encoding="utf-8",
    )
    assert symbol_path("g1", tmp_path) == tmp_path / "symbols" / "g1.svg"
    assert symbol_path("g2", tmp_path) == default_symbols_dir() / "g2.svg"
    markup = symbol_svg("g1", theme_dir=tmp_path)
    root = ET.fromstring(markup)
    assert root.get("viewBox") == "0 0 50 100"
    assert (root.get("width"), root.get("height")) == ("0.5em", "1em")
    assert "inkscape" not in markup and "mine" not in markup
    assert 'id="sym-g1-dot"' in markup and 'xlink:href="#sym-g1-dot"' in markup
    assert 'fill="url(#sym-g1-dot)"' in markup
    assert symbol_svg("g2", theme_dir=tmp_path) == symbol_svg("g2")
    assert symbol_size("g1", tmp_path) == (0.5, 1.0)


def test_an_unusable_theme_symbol_is_reported(tmp_path: Path) -> None:
    (tmp_path / "symbols").mkdir()
    (tmp_path / "symbols" / "g5.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>', encoding="utf-8"
    )
    (tmp_path / "symbols" / "g6.svg").write_text("<svg", encoding="utf-8")
    with pytest.raises(SymbolError, match="viewBox"):
        symbol_svg("g5", theme_dir=tmp_path)
    with pytest.raises(SymbolError, match="cannot read"):
        symbol_svg("g6", theme_dir=tmp_path)


# --- printed by WeasyPrint -------------------------------------------------------------

PAINT_FILL = {"f", "F", "f*", "B", "B*", "b", "b*"}
PAINT_STROKE = {"S", "s", "B", "B*", "b", "b*"}
TEXT_SHOW = {"Tj", "TJ", "'", '"'}


def _colour_space(name: pikepdf.Object, resources: pikepdf.Dictionary) -> str:
    """A colour space operand as a readable name: /DeviceCMYK, /ICCBased N=3, ..."""
    if str(name) in ("/DeviceCMYK", "/DeviceRGB", "/DeviceGray", "/Pattern"):
        return str(name)
    space = resources.get("/ColorSpace", {}).get(str(name))
    if isinstance(space, pikepdf.Array):
        family = str(space[0])
        if family == "/ICCBased":
            return f"/ICCBased N={int(space[1].N)}"
        return family
    return str(space) if space is not None else f"unknown {name}"


def colour_problems(
    stream: pikepdf.Object, resources: pikepdf.Dictionary, state: dict[str, str], where: str
) -> list[str]:
    """Everything in a content stream (and the forms it draws) that is not CMYK."""
    problems: list[str] = []
    stack: list[dict[str, str]] = []
    state = dict(state)
    for operands, operator in pikepdf.parse_content_stream(stream):
        op = str(operator)
        if op == "q":
            stack.append(dict(state))
        elif op == "Q":
            if stack:
                state = stack.pop()
        else:
            problems += _operator_problems(op, operands, resources, state, where)
        if op in PAINT_FILL | TEXT_SHOW and state["fill"] != "/DeviceCMYK":
            problems.append(f"{where}: {op} paints in {state['fill']}")
        if op in PAINT_STROKE and state["stroke"] != "/DeviceCMYK":
            problems.append(f"{where}: {op} strokes in {state['stroke']}")
    return problems


def _operator_problems(
    op: str, operands: list, resources: pikepdf.Dictionary, state: dict[str, str], where: str
) -> list[str]:
    """What one operator does that is not CMYK (an RGB or grey colour, a shading or
    inline image, a colour space, a soft mask or opacity, an image or form drawn);
    the colour spaces it sets go into ``state``."""
    problems: list[str] = []
    if op in ("rg", "RG", "g", "G", "sh", "BI", "INLINE IMAGE"):
        problems.append(f"{where}: {op} {[str(o) for o in operands]}")
    elif op in ("k", "K"):
        state["stroke" if op == "K" else "fill"] = "/DeviceCMYK"
    elif op in ("cs", "CS"):
        space = _colour_space(operands[0], resources)
        state["stroke" if op == "CS" else "fill"] = space
        if space != "/DeviceCMYK":
            problems.append(f"{where}: {op} {space}")
    elif op in ("sc", "scn", "SC", "SCN"):
        space = state["stroke" if op.isupper() else "fill"]
        if space != "/DeviceCMYK":
            problems.append(f"{where}: {op} in {space}")
    elif op == "gs":
        ext = resources.ExtGState[str(operands[0])]
        if "/SMask" in ext and str(ext.SMask) != "/None":
            problems.append(f"{where}: soft mask")
        if float(ext.get("/ca", 1)) != 1 or float(ext.get("/CA", 1)) != 1:
            problems.append(f"{where}: opacity")
    elif op == "Do":
        xobject = resources.XObject[str(operands[0])]
        if xobject.Subtype == "/Form":
            problems += colour_problems(
                xobject, xobject.get("/Resources", resources), state, f"{where} > {operands[0]}"
            )
        elif str(xobject.get("/ColorSpace")) != "/DeviceCMYK":
            problems.append(f"{where}: image in {xobject.get('/ColorSpace')}")
    return problems


def page_problems(pdf: bytes) -> list[list[str]]:
    with pikepdf.open(io.BytesIO(pdf)) as document:
        found = []
        for number, page in enumerate(document.pages, 1):
            group = page.obj.get("/Group")
            problems = [] if group is None else [f"page {number}: transparency group {group}"]
            # A content stream starts in DeviceGray black.
            start = {"fill": "/DeviceGray (default)", "stroke": "/DeviceGray (default)"}
            problems += colour_problems(page.obj, page.Resources, start, f"page {number}")
            found.append(problems)
        return found


def render(codes: list[str], em: str = "36pt") -> bytes:
    """Each symbol inline on a page of its own, at ``em`` text size."""
    sections = "".join(f"<section>{symbol_svg(code)}</section>" for code in codes)
    return weasyprint.HTML(
        string=(
            "<html><head><style>@page { size: 40mm 40mm; margin: 5mm }"
            f" html {{ color: device-cmyk(0 0 0 1); font-size: {em} }}"
            " section { break-after: page }</style></head>"
            f"<body>{sections}</body></html>"
        )
    ).write_pdf()


@pytest.fixture(scope="module")
def printed() -> bytes:
    return render(CODES)


def test_weasyprint_prints_every_symbol_in_device_cmyk(printed: bytes) -> None:
    problems = page_problems(printed)
    assert len(problems) == len(CODES)
    assert {code: found for code, found in zip(CODES, problems, strict=True) if found} == {}


def test_the_colour_check_catches_rgb() -> None:
    """The checker itself: unset fills, currentColor and hex colours come out in RGB."""
    for fill in ("", 'fill="currentColor"', 'fill="#000"', 'fill="black"'):
        pdf = weasyprint.HTML(
            string=(
                '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="1em" '
                f'height="1em"><circle cx="5" cy="5" r="5" {fill}/></svg>'
            )
        ).write_pdf()
        assert page_problems(pdf)[0], fill


def enclosed_white(ink: Image.Image) -> int:
    """How many pixels of paper the ink surrounds (knock-outs), in a 0/255 ink mask."""
    padded = ImageOps.expand(ink, border=2, fill=0)
    ImageDraw.floodfill(padded, (0, 0), 128)
    return padded.histogram()[0]


def test_printed_symbols_are_drawn(printed: bytes) -> None:
    document = pypdfium2.PdfDocument(printed)
    try:
        for code, page in zip(CODES, document, strict=True):
            image = page.render(scale=4).to_pil().convert("L")
            dark = image.point(lambda v: 255 if v < 128 else 0)
            box = dark.getbbox()
            assert box is not None, f"{code}: blank"
            ink = dark.crop(box).histogram()[255]
            area = (box[2] - box[0]) * (box[3] - box[1])
            assert ink > 0.1 * area and box[3] - box[1] > 40, f"{code}: hardly any ink"
            if code in KNOCKED_OUT:
                white = enclosed_white(dark.crop(box))
                assert white > 0.04 * ink, f"{code}: the white figure is missing"
    finally:
        document.close()


def test_symbols_print_at_card_text_size() -> None:
    """At 9 pt, as on a card: still CMYK only, and the cyphers are about 1 em."""
    pdf = render(["g7", "m7", "mc", "mis"], em="9pt")
    assert page_problems(pdf) == [[], [], [], []]
    document = pypdfium2.PdfDocument(pdf)
    try:
        image = document[0].render(scale=300 / 72).to_pil().convert("L")
        box = image.point(lambda v: 255 if v < 128 else 0).getbbox()
        assert box is not None
        height_pt = (box[3] - box[1]) * 72 / 300
        assert 8 <= height_pt <= 10
    finally:
        document.close()
