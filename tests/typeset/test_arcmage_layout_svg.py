"""translator.themes.arcmage.layout: where the official cards print what.

The tests on the official templates read them from /work/shared/arcmage-official (never
copied into the repository) and are skipped without it; the others use small SVGs
written here.
"""

from __future__ import annotations

import importlib.util
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from tests.conftest import NO_OFFICIAL_SET, official_template_set
from translator.themes.arcmage import layout as L

#: The official template set (a folder that does not exist where it is absent).
SHARED = official_template_set() or Path("/nonexistent/arcmage-official")
TEMPLATES = SHARED / "CardTemplates"
SVG = "{http://www.w3.org/2000/svg}"
U = L.UNIT_MM  # one template unit in mm
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

needs_shared = pytest.mark.skipif(not (TEMPLATES / "gaian").is_dir(), reason=NO_OFFICIAL_SET)


def mm(units: float) -> float:
    """Template units in mm, rounded as layouts are."""
    return round(units * U, 2)


def overlay_svg(body: str, defs: str = "", root: str = "") -> str:
    """A minimal Aminduna template: ``body`` inside the overlay layer."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        'xmlns:xlink="http://www.w3.org/1999/xlink" width="230.31496" '
        f'height="325.98425"{root}><defs>{defs}</defs>'
        f'<g id="overlaylayer">{body}</g></svg>'
    )


# --- the official templates -----------------------------------------------------------


@needs_shared
def test_gaian_creature_known_values() -> None:
    layout = L.read_layout(TEMPLATES / "gaian" / "creature_overlay_plain.svg")
    name = layout.lines["name"]
    assert (name.x, name.baseline, name.anchor) == (mm(215.05379), mm(164.81366), "end")
    assert (name.size, name.weight, name.style) == (round(16.60347176 * 0.8, 2), "bold", "normal")
    assert name.family == "Liberation Serif" and name.colour == "#e6daa6"
    assert layout.lines["name1"].baseline == mm(158.6651)
    assert layout.lines["name2"].baseline == mm(172.96222)
    cost = layout.lines["cost"]
    assert (cost.anchor, cost.x, cost.size, cost.family) == (
        "middle",
        mm(203.71957),
        20.0,
        "NimbusRomNo9L",
    )
    # The type line names no family: it is the template's other text's.
    kind = layout.lines["type"]
    assert (kind.family, kind.style, kind.anchor) == ("Liberation Serif", "italic", "end")
    assert layout.text == L.TextBox(mm(20), mm(211.25), mm(190), mm(105), 9.0, "#e6daa6")
    assert layout.art == L.Box(0.0, 0.0, mm(230), mm(190))
    assert layout.lines["info"].family == "Liberation Sans"
    assert {"attack", "defense"} <= set(layout.lines)


@needs_shared
def test_gaian_magic_art_window_and_top_name() -> None:
    layout = L.read_layout(TEMPLATES / "gaian" / "magic_overlay_plain.svg")
    assert layout.art == L.Box(0.0, mm(129), mm(230), mm(182))
    assert layout.lines["name"].anchor == "start"
    assert layout.lines["name"].size == round(14.0625 * 0.8, 2)
    assert layout.text is not None and layout.text.y == mm(60)
    assert not {"name1", "name2", "attack", "defense"} & set(layout.lines)


@needs_shared
def test_red_banner_differs_where_it_does() -> None:
    gaian = L.read_layout(TEMPLATES / "gaian" / "creature_overlay_plain.svg")
    red = L.read_layout(TEMPLATES / "red_banner" / "creature_overlay_plain.svg")
    assert red.lines["name"] == gaian.lines["name"]
    assert red.text == gaian.text and red.art == gaian.art
    assert red.lines["cost"].x != gaian.lines["cost"].x
    assert red.lines["type"].colour != gaian.lines["type"].colour
    assert red.loyalty is not None and gaian.loyalty is not None
    assert (red.loyalty.y, red.loyalty.fill) != (gaian.loyalty.y, gaian.loyalty.fill)


@needs_shared
def test_loyalty_box_and_step() -> None:
    """L1 is three paths ending on the page's right edge; L2 and L3 lie one step lower
    each (Gaian moves them by translate(0, 20) and by their own coordinates)."""
    loyalty = L.read_layout(TEMPLATES / "gaian" / "creature_overlay_plain.svg").loyalty
    assert loyalty is not None
    assert loyalty.x + loyalty.width == pytest.approx(65.0, abs=0.011)
    assert 5 < loyalty.width < 7 and 7 < loyalty.height < 9
    assert 7 < loyalty.step < 9
    assert loyalty.fill == "#1d1908"


@needs_shared
def test_defaults_equal_what_the_svgs_say() -> None:
    """The shipped defaults were made from the same templates: where the test set has
    an SVG, layouts() reads the very numbers of the defaults file."""
    found = L.layouts(SHARED)
    compared = 0
    for faction in ("gaian", "red-banner"):
        for card_type, layout in found[faction].items():
            if layout.source.endswith(".svg"):
                compared += 1
                assert layout.to_dict() == L.default_layout(faction, card_type).to_dict(), (
                    faction,
                    card_type,
                )
    assert compared == 6  # creature, city, magic of each


@needs_shared
def test_missing_svg_comes_from_the_defaults() -> None:
    found = L.layouts(SHARED)
    assert set(found) == set(L.faction_slugs()) and all(
        set(types) == set(L.type_slugs()) for types in found.values()
    )
    assert found["gaian"]["enchantment"].source == str(L.defaults_path())
    assert found["dark-legion"]["creature"].source == str(L.defaults_path())
    assert found["gaian"]["creature"].source.endswith("gaian/creature_overlay_plain.svg")


@needs_shared
def test_plain_svg_when_no_overlay_plain(tmp_path: Path) -> None:
    """Without <type>_overlay_plain.svg, <type>.svg (what Aminduna prints) is read: the
    same positions."""
    folder = tmp_path / "CardTemplates" / "gaian"
    folder.mkdir(parents=True)
    (folder / "creature.svg").symlink_to(TEMPLATES / "gaian" / "creature.svg")
    found = L.layouts(tmp_path)
    assert found["gaian"]["creature"].source == str(folder / "creature.svg")
    plain = L.read_layout(TEMPLATES / "gaian" / "creature_overlay_plain.svg")
    assert found["gaian"]["creature"] == plain
    assert found["gaian"]["magic"].source == str(L.defaults_path())


@needs_shared
def test_loyalty_svg_is_a_standalone_drawing() -> None:
    svg = TEMPLATES / "gaian" / "creature_overlay_plain.svg"
    text = L.loyalty_svg(svg)
    assert text is not None
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    x, y, width, height = (float(v) for v in root.get("viewBox", "").split())
    loyalty = L.read_layout(svg).loyalty
    assert loyalty is not None
    assert (round(x * U, 2), round(y * U, 2)) == (loyalty.x, loyalty.y)
    assert (round(width * U, 2), round(height * U, 2)) == (loyalty.width, loyalty.height)
    # Every reference is to an id of the drawing itself, every id prefixed.
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    assert ids and all(i.startswith("gaian-creature_overlay_plain-") for i in ids)
    assert root.find(f"{SVG}defs/{SVG}linearGradient") is not None
    for element in root.iter():
        for value in element.attrib.values():
            for ident in L._ID_REF.findall(value):
                assert ident in ids
    assert "display:none" not in text.split("<g", 2)[1]


@needs_shared
def test_official_malformed_copy_is_one_line_error(tmp_path: Path) -> None:
    broken = tmp_path / "creature.svg"
    broken.write_bytes((TEMPLATES / "gaian" / "creature.svg").read_bytes()[:50_000])
    with pytest.raises(L.LayoutError) as caught:
        L.read_layout(broken)
    assert str(broken) in str(caught.value) and "\n" not in str(caught.value)


# --- small templates ------------------------------------------------------------------


def test_transforms_of_ancestors_apply(tmp_path: Path) -> None:
    body = (
        '<g transform="translate(10,20)"><g transform="scale(2)">'
        '<text id="ignored" x="1" y="1"/></g></g>'
        '<text id="nametext" transform="matrix(2,0,0,2,5,5)" x="10" y="20" '
        "style=\"font-size:10px;font-family:'Liberation Serif';text-anchor:middle;"
        'fill:#ABC"/>'
        '<text id="cardtext" transform="translate(20,211.25)" style="fill:#1f170d"/>'
        '<image id="artwork" transform="translate(0,10)" x="0" y="0" width="230" '
        'height="190"/>'
    )
    svg = tmp_path / "t.svg"
    svg.write_text(overlay_svg(body))
    layout = L.read_layout(svg)
    name = layout.lines["name"]
    assert (name.x, name.baseline) == (mm(25), mm(45))
    assert name.size == 16.0  # 10 units x 2 = 20 units = 16 pt
    assert (name.family, name.colour, name.anchor) == ("Liberation Serif", "#aabbcc", "middle")
    assert (name.weight, name.style) == ("normal", "normal")
    assert layout.art == L.Box(0.0, mm(10), mm(230), mm(190))
    assert layout.text == L.TextBox(mm(20), mm(211.25), mm(190), mm(105), 9.0, "#1f170d")
    assert layout.loyalty is None and set(layout.lines) == {"name"}


def test_the_root_viewbox_is_not_the_page(tmp_path: Path) -> None:
    """Aminduna prints the user space at the page size, whatever the root says."""
    svg = tmp_path / "t.svg"
    svg.write_text(
        overlay_svg(
            '<text id="nametext" x="100" y="100" style="font-size:10px"/>',
            root=' viewBox="0 0 230 326"',
        )
    )
    assert L.read_layout(svg).lines["name"].x == mm(100)


def test_styles_are_inherited(tmp_path: Path) -> None:
    svg = tmp_path / "t.svg"
    svg.write_text(
        overlay_svg('<text id="infotext" x="1" y="2"/>').replace(
            '<g id="overlaylayer">',
            '<g id="overlaylayer" style="font-size:8px;fill:white" font-weight="bold">',
        )
    )
    info = L.read_layout(svg).lines["info"]
    assert (info.size, info.colour, info.weight) == (6.4, "#ffffff", "bold")


def test_loyalty_of_arcs_clips_and_gradients(tmp_path: Path) -> None:
    """A mark drawn with an arc, cut by a clip path, filled with a gradient: its box is
    the visible part's, and its drawing carries the gradient and clip path along."""
    defs = (
        '<linearGradient id="stops"><stop offset="0" style="stop-color:#000000"/>'
        '<stop offset="1" style="stop-color:#ffffff"/></linearGradient>'
        '<linearGradient id="grad" xlink:href="#stops"/>'
        '<clipPath id="cut" clipPathUnits="userSpaceOnUse">'
        '<rect x="0" y="0" width="215" height="400"/></clipPath>'
    )
    mark = (
        '<path d="M 200,50 A 10,10 0 0 1 220,50 A 10,10 0 0 1 200,50 Z" '
        'style="fill:url(#grad);stroke:#102030;stroke-width:2" clip-path="url(#cut)"/>'
    )
    body = (
        f'<g id="L1" style="display:none">{mark}</g>'
        f'<g id="L2" transform="translate(0,30)" style="display:none">{mark}</g>'
    )
    svg = tmp_path / "t.svg"
    svg.write_text(overlay_svg(body, defs))
    loyalty = L.read_layout(svg).loyalty
    assert loyalty is not None
    # The circle (centre 210,50, radius 10, stroke 2) cut at x = 215.
    assert (loyalty.x, loyalty.y) == (mm(199), mm(39))
    assert (loyalty.width, loyalty.height) == (mm(16), mm(22))
    assert (loyalty.step, loyalty.fill, loyalty.stroke) == (mm(30), "#808080", "#102030")
    drawing = ET.fromstring(L.loyalty_svg(svg, prefix="p-") or "")
    assert drawing.get("viewBox") == "199.0000 39.0000 16.0000 22.0000"
    ids = {e.get("id") for e in drawing.iter() if e.get("id")}
    assert ids == {"p-stops", "p-grad", "p-cut"}


def test_loyalty_svg_recoloured_and_solid(tmp_path: Path) -> None:
    """For a CMYK page: every colour through ``recolour``; ``solid``, gradients as
    their colour half-way (WeasyPrint writes SVG gradients in RGB)."""
    defs = (
        '<linearGradient id="g"><stop offset="0" stop-color="#000000"/>'
        '<stop offset="100%" style="stop-color:#fff"/></linearGradient>'
    )
    mark = '<rect x="200" y="50" width="20" height="20" fill="#FF0000" style="stroke:url(#g)"/>'
    svg = tmp_path / "t.svg"
    svg.write_text(overlay_svg(f'<g id="L1">{mark}</g>', defs))
    marked = L.loyalty_svg(svg, recolour=lambda c: f"device-cmyk({c})") or ""
    assert 'fill="device-cmyk(#ff0000)"' in marked and "stroke:url(#" in marked
    assert "stop-color:device-cmyk(#ffffff)" in marked
    flat = L.loyalty_svg(svg, recolour=lambda c: f"device-cmyk({c})", solid=True) or ""
    assert "stroke:device-cmyk(#808080)" in flat and "url(" not in flat.split("</defs>")[1]


def test_miter_joins_reach_beyond_half_the_stroke(tmp_path: Path) -> None:
    """A sharp corner's miter sticks out further than half the stroke width."""
    defs = ""
    wedge = (
        '<path d="M 100,100 L 140,110 L 100,120 Z" '
        'style="fill:#000;stroke:#fff;stroke-width:2;stroke-miterlimit:10"/>'
    )
    svg = tmp_path / "t.svg"
    svg.write_text(overlay_svg(f'<g id="L1">{wedge}</g>', defs))
    loyalty = L.read_layout(svg).loyalty
    assert loyalty is not None
    half_angle = math.atan2(10, 40)
    tip = 140 + 1 / math.sin(half_angle)
    assert loyalty.x + loyalty.width == pytest.approx(tip * U, abs=0.011)
    round_join = svg.read_text().replace("stroke-miterlimit:10", "stroke-linejoin:round")
    svg.write_text(round_join)
    loyalty = L.read_layout(svg).loyalty
    assert loyalty is not None and loyalty.x + loyalty.width == mm(141)


def test_path_data_grammar() -> None:
    points = L.path_points("m10 10h5v5l-5-5zM0,0c0-10 10-10 10 0s10 10 10 0q5-5 10 0t10 0")
    xs, ys = zip(*points, strict=True)
    assert (min(xs), max(xs)) == (0, 40)
    assert min(ys) == pytest.approx(-7.5)  # the first curve's top: 3/4 of its controls'
    compact = L.path_points("M0 0a5 5 0 015 5")  # arc flags written together
    assert compact[-1] == (5, 5)
    with pytest.raises(ValueError, match="number expected"):
        L.path_points("M 0 0 L 5")


def test_transform_lists() -> None:
    matrix = L.parse_transform("translate(10, 5) scale(2) rotate(90)")
    assert L.apply(matrix, 1, 0) == pytest.approx((10, 7))
    assert L.parse_transform("") == L.IDENTITY
    with pytest.raises(ValueError, match="not understood"):
        L.parse_transform("translate(1,2) frobnicate(3)")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("<svg", "not well-formed XML"),
        ('<svg xmlns="http://www.w3.org/2000/svg"><g id="layer1"/></svg>', "overlaylayer"),
        (
            '<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg"/>',
            "declares an XML entity",
        ),
        ("<html/>", "not an SVG image"),
        (
            '<svg xmlns="http://www.w3.org/2000/svg">' + "<g>" * 100 + "</g>" * 100 + "</svg>",
            "nests elements more than 64 deep",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg"><path d="' + "M0 0 " * (1 << 20) + '"/></svg>',
            "has a d= of 5,242,880 characters",
        ),
    ],
)
def test_bad_templates_are_one_line_errors(tmp_path: Path, content: str, message: str) -> None:
    svg = tmp_path / "bad.svg"
    svg.write_text(content)
    with pytest.raises(L.LayoutError, match=message) as caught:
        L.read_layout(svg)
    assert str(svg) in str(caught.value) and "\n" not in str(caught.value)


def test_bad_values_name_the_element(tmp_path: Path) -> None:
    svg = tmp_path / "bad.svg"
    svg.write_text(overlay_svg('<text id="nametext" x="1" y="2" style="font-size:1em"/>'))
    with pytest.raises(L.LayoutError, match=r"nametext.*font-size"):
        L.read_layout(svg)
    svg.write_text(
        overlay_svg('<text id="nametext" x="1" y="2" style="font-size:9px"/><text id="nametext"/>')
    )
    with pytest.raises(L.LayoutError, match="two elements"):
        L.read_layout(svg)


def test_missing_file_is_a_layout_error(tmp_path: Path) -> None:
    with pytest.raises(L.LayoutError, match=r"no such file|cannot read"):
        L.read_layout(tmp_path / "none.svg")


# --- the shipped defaults -------------------------------------------------------------


def test_defaults_cover_every_faction_and_type() -> None:
    for faction in L.faction_slugs():
        for card_type in L.type_slugs():
            layout = L.default_layout(faction, card_type)
            assert layout.art is not None and layout.text is not None
            assert layout.loyalty is not None and "name" in layout.lines
            assert layout.to_dict() == L.Layout.from_dict(layout.to_dict(), "here").to_dict()
    constants = L.generator()
    assert (constants.text_width, constants.text_height, constants.body_size) == (190, 105, 11.25)


def test_defaults_file_is_checked(tmp_path: Path) -> None:
    data = yaml.load(L.defaults_path().read_text(), Loader=LOADER)
    data["layouts"]["gaian"]["creature"]["name"]["anchor"] = "left"
    bad = tmp_path / "defaults.yaml"
    bad.write_text(yaml.dump(data, Dumper=DUMPER))
    with pytest.raises(L.LayoutError, match=r"defaults.yaml:\d+: name.anchor"):
        L.default_layout("gaian", "creature", bad)
    data["layouts"]["gaian"]["creature"]["name"] = {"x": 1}
    bad.write_text(yaml.dump(data, Dumper=DUMPER) + "\n")  # another size
    with pytest.raises(L.LayoutError, match="give exactly"):
        L.default_layout("gaian", "creature", bad)


def test_generator_script_header_matches_the_file() -> None:
    """The tool's generator constants are those of the shipped file (it wrote it)."""
    path = Path(__file__).resolve().parents[2] / "tools" / "arcmage_layout_defaults.py"
    spec = importlib.util.spec_from_file_location("arcmage_layout_defaults", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert L.defaults_path().read_text().startswith(tool.HEADER)


@pytest.mark.parametrize("kept", [(), ("artwork",)])
def test_a_template_without_a_part_every_template_has_is_refused(
    tmp_path: Path, kept: tuple[str, ...]
) -> None:
    """An overlay group emptied (or without its name, its type line...): the import
    made a theme whose Red Banner creatures printed without a name, a cost or their
    artwork, and the build said "0 warnings" (issue 35, found by an independent
    attack).  What every template of a type has, a template of that type must have."""
    folder = tmp_path / "CardTemplates" / "red_banner"
    folder.mkdir(parents=True)
    element = '<image id="{}" x="1" y="1" width="10" height="10"/>'
    elements = "".join(element.format(ident) for ident in kept)
    (folder / "creature_overlay_plain.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg"><g id="overlaylayer">{elements}</g></svg>',
        encoding="utf-8",
    )
    with pytest.raises(L.LayoutError) as refused:
        L.layouts(tmp_path)
    message = str(refused.value)
    assert message.startswith(str(folder / "creature_overlay_plain.svg"))
    assert 'id="nametext"' in message and "every creature template has" in message
    assert all(f'id="{ident}"' not in message for ident in kept)
