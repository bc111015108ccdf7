"""The official look looks official: issue 17's proof, on the sample deck.

``cards/sample`` is built once, in English and French with its deck files, in the theme
``translator theme import-arcmage`` makes from the official template set
(``../shared/arcmage-official``: every test is skipped where it is absent).  Then each
card is held to the official template of its faction and type:

1. **Colour.**  The page as the press prints it (a soft proof through the output
   profile, tests/typeset/official_look.py) against the official template placed where the
   theme prints it, over its faction's print border: outside the artwork window, the
   text and symbols (every element box of the build's report, grown by
   :data:`GROW_MM`), the loyalty marks and the text frame, the mean CIE76 difference
   is at most :data:`MAX_DELTA_E`.
2. **Positions.**  The name, type line, cost, attack, defense, footer and the rule text
   printed on the template's anchors (``layout.layouts``: the SVG templates' text
   elements, else the shipped defaults), within :data:`ANCHOR_MM`.  The glyphs are read
   from the PDF with pypdfium2, another library than the renderer; an advance comes
   from the font file the glyph is printed in.
3. **The back.**  The deck's back page against the official ``back.png`` placed at the
   trim.

Nothing here reads WeasyPrint's layout or the theme's CSS: only the template set, the
build's report and the PDFs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pypdfium2
import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops, ImageCms, ImageStat

from tests.conftest import ROOT
from tests.printkit import cmyk_profile, printed_chars
from translator.cards.library import load_library
from translator.pdf.profiles import Profile
from translator.themes.arcmage import raster
from translator.themes.arcmage.layout import Layout, Line, faction_slugs, generator, layouts
from translator.typeset import preview
from translator.typeset.theme import load_theme

from .official_look import (
    delta_e76,
    mask_outside,
    render_page_srgb,
    render_pages_srgb,
    template_on_page,
)

PROFILE: Profile = cmyk_profile()
if not preview.proof_available():
    pytest.skip(
        "Ghostscript (gs) is needed for the soft proofs (apt-get install ghostscript)",
        allow_module_level=True,
    )

pytestmark = pytest.mark.slow  # the sample and the stress cards built in the official look
SAMPLE = ROOT / "cards" / "sample"
_SCRIPT = Path(sys.executable).with_name("translator")
TRANSLATOR = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "translator"]
LANGS = ("en", "fr")
SLUGS = sorted(path.name.split(".")[0] for path in SAMPLE.glob("*.en.md"))
CASES = [(slug, lang) for slug in SLUGS for lang in LANGS]
IDS = [f"{slug}.{lang}" for slug, lang in CASES]
#: Cards of the stress library (tests/data/stress-library) printed with an element
#: shrunk in this theme: the type line, the second name line, the name.  No element
#: of the sample is (only its rule texts are).
STRESS = ROOT / "tests" / "data" / "stress-library"
SHRUNK = {"grave-marshal": "type", "harbor-captain": "name2", "hollow-choir-herald": "name"}
#: Every card the anchors are checked on: the sample's, then the shrunk ones.
ANCHOR_CASES = [("sample", slug, lang) for slug, lang in CASES] + [
    ("stress", slug, "en") for slug in SHRUNK
]
ANCHOR_IDS = [*IDS, *(f"stress-{slug}.en" for slug in SHRUNK)]

DPI = 120  # the proofs' resolution: 0.21 mm a pixel, under GROW_MM
MAX_DELTA_E = 5.0  # the bound on the mean CIE76 difference
GROW_MM = 1.0  # what is masked around every element box (anti-aliasing, ink)
ANCHOR_MM = 0.5  # the bound on a text's distance from its anchor
SAFE_MM = 2.0  # the safe area: the TrimBox less this on every side
MM = 72 / 25.4  # points in a millimetre
PT_MM = 25.4 / 72  # millimetres in a point
LINE_MM = 0.3  # glyphs whose baselines are closer are on one line
INSIDE_MM = 0.3  # how far a glyph's centre may be outside its element's box
DROP_CAP_RATIO = 1.8  # a glyph this many times the text's size is a drop cap
DARK_L = 25  # L* under which a template's tone counts as a shadow
#: Where the template page's top-left corner lies on the print page (mm): centred.
TEMPLATE_AT = (
    (raster.PAGE_MM[0] - raster.TEMPLATE_MM[0]) / 2,
    (raster.PAGE_MM[1] - raster.TEMPLATE_MM[1]) / 2,
)
#: The font families of templates/arcmage/page.css.j2 as the PDF names them -> the
#: theme's font role (None: the text font, whose face is its weight and style).
FAMILIES = {
    "Card-Text": None,
    "Card-Caps": "caps",
    "Card-Footer": "footer",
    "Card-Footer-Narrow": "narrow",
}

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm from the page's top left


# ---- the build ----------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Built:
    """A library built in the official look, and what the checks compare it with."""

    report: dict
    out: Path
    theme: Path
    templates: Path  # the template set's CardTemplates folder
    kinds: dict[str, tuple[str, str]]  # slug -> faction slug, type slug
    layouts: dict[str, dict[str, Layout]]
    fonts: dict[str, Path]  # face -> font file

    def entry(self, slug: str, lang: str) -> dict:
        """The report's entry for one card version (fails if there is none or several)."""
        found = [c for c in self.report["cards"] if c["card"] == slug and c["lang"] == lang]
        assert len(found) == 1, f"{slug}.{lang}: {len(found)} entries in the build report"
        return found[0]

    def layout(self, slug: str) -> Layout:
        faction, card_type = self.kinds[slug]
        return self.layouts[faction][card_type]

    def __repr__(self) -> str:  # a failure shows the fixture: not its whole report
        return f"Built({self.out}, {len(self.report['cards'])} cards)"


def build(library: Path, out: Path, official: Path, theme: Path, *options: str) -> Built:
    """``translator build`` of ``library`` into ``out`` in the ``theme`` imported from
    the template set ``official`` (the preflight is other tests' subject), as a user
    runs it, and its report."""
    command = [
        *TRANSLATOR,
        "build",
        str(library),
        *options,
        "--theme",
        str(theme),
        "--out",
        str(out),
        "--format",
        "json",
        "--jobs",
        "1",
        "--no-preflight",
    ]
    done = subprocess.run(
        command, check=False, capture_output=True, text=True, timeout=900, cwd=ROOT
    )
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        pytest.fail(
            f"`{' '.join(command)}` exited {done.returncode} without a JSON "
            f"report:\n{done.stderr[-3000:]}"
        )
    assert done.returncode == 0, f"`{' '.join(command)}` failed:\n{done.stderr[-3000:]}"
    cards, _ = load_library([str(library)])
    kinds = {
        card.slug: (
            str(card.get("faction") or "None").lower().replace(" ", "-"),
            str(card.get("type")).lower(),
        )
        for card in cards.cards.values()
    }
    loaded = load_theme(theme)
    return Built(
        report,
        out,
        theme,
        official / "CardTemplates",
        kinds,
        layouts(official),
        {**loaded.fonts, **loaded.extra_fonts},
    )


@pytest.fixture(scope="module")
def sample(
    tmp_path_factory: pytest.TempPathFactory, official_templates: Path, arcmage_theme: Path
) -> Built:
    """The sample deck in English and French, with its deck files (and their backs),
    built once (about 25 s on two shared cores)."""
    return build(
        SAMPLE,
        tmp_path_factory.mktemp("official-look"),
        official_templates,
        arcmage_theme,
        *(f"--lang={lang}" for lang in LANGS),
        "--deck",
    )


@pytest.fixture(scope="module")
def stress(
    tmp_path_factory: pytest.TempPathFactory, official_templates: Path, arcmage_theme: Path
) -> Built:
    """The :data:`SHRUNK` cards of the stress library, in English (about 5 s)."""
    return build(
        STRESS,
        tmp_path_factory.mktemp("official-look-shrunk"),
        official_templates,
        arcmage_theme,
        *(f"--card={slug}" for slug in SHRUNK),
    )


# ---- 1. colour ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def proofs(sample: Built) -> dict[tuple[str, str], Image.Image]:
    """Every card page of the sample proofed through the output profile, by card and
    language (in one Ghostscript run: about 6 s for the 48)."""
    keys = [(entry["card"], entry["lang"]) for entry in sample.report["cards"]]
    pdfs = [Path(entry["pdf"]) for entry in sample.report["cards"]]
    return dict(zip(keys, render_pages_srgb(pdfs, DPI, PROFILE.path), strict=True))


def test_the_proofs_are_those_of_a_page_alone(
    sample: Built, proofs: dict[tuple[str, str], Image.Image]
) -> None:
    """The proofs made together are the very pixels of a page proofed alone."""
    slug, lang = CASES[0]
    alone = render_page_srgb(Path(sample.entry(slug, lang)["pdf"]), 1, DPI, PROFILE.path)
    assert alone.size == proofs[slug, lang].size
    assert ImageChops.difference(alone, proofs[slug, lang]).getbbox() is None


@cache
def reference(templates: Path, folder: str, card_type: str, size: tuple[int, int]) -> Image.Image:
    """The official template of a faction folder and type over its print border, placed
    where the theme prints it, at the proofs' pixels (several cards share one)."""
    return template_on_page(
        templates / folder / f"{card_type}.png",
        size,
        DPI,
        border_png=templates / folder / "border.png",
    )


def masked_boxes(entry: dict, layout: Layout) -> list[tuple[float, float, float, float]]:
    """What differs from the template by design, as (x, y, width, height) in page mm:
    the template's artwork window and loyalty marks (all three places), and every
    element the build reports (name, type line, stats, footer, the text frame with its
    symbols, the artwork, the loyalty marks drawn)."""
    boxes = [
        (x0, y0, x1 - x0, y1 - y0)
        for x0, y0, x1, y1 in (element["box"] for element in entry["elements"].values())
    ]
    ox, oy = TEMPLATE_AT
    if layout.art is not None:
        boxes.append((layout.art.x + ox, layout.art.y + oy, layout.art.width, layout.art.height))
    if layout.loyalty is not None:
        mark = layout.loyalty
        boxes.append((mark.x + ox, mark.y + oy, mark.width, 2 * mark.step + mark.height))
    return boxes


@dataclass(frozen=True)
class Shift:
    """How a proof differs from its reference on average, signed (L*, a*, b*), over
    the pixels compared and over those of them where the template is dark."""

    lab: tuple[float, float, float]
    dark_l: float | None
    dark_share: float

    def describe(self) -> str:
        what = "L* {:+.1f}, a* {:+.1f}, b* {:+.1f}".format(*self.lab)
        if self.dark_l is None:
            return f"mean shift {what}"
        return (
            f"mean shift {what}; where the template is dark (L* < {DARK_L}, "
            f"{self.dark_share:.0%} of the pixels compared) L* {self.dark_l:+.1f}"
        )


def lab_shift(proof: Image.Image, ref: Image.Image, mask: Image.Image) -> Shift:
    """The signed mean difference of ``proof`` and ``ref`` in CIELAB over ``mask``: a
    difference of means (the mean is linear), so no signed image is needed.  Says
    which way a failing card is off: a shift of L* in the shadows only is a tone
    curve (black point) matter, an even one a brightness one, a* or b* a cast."""
    to_lab = ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"),
        ImageCms.createProfile("LAB"),
        "RGB",
        "LAB",
        ImageCms.Intent.RELATIVE_COLORIMETRIC,
    )
    a = ImageCms.applyTransform(proof.convert("RGB"), to_lab)
    b = ImageCms.applyTransform(ref.convert("RGB"), to_lab)
    assert a is not None and b is not None  # not in place
    on = mask.point(lambda value: 255 if value == 255 else 0)
    means = [ImageStat.Stat(x, on).mean for x in (a, b)]
    lab = (
        (means[0][0] - means[1][0]) * 100 / 255,
        means[0][1] - means[1][1],
        means[0][2] - means[1][2],
    )
    dark = ImageChops.darker(
        on, b.getchannel("L").point(lambda value: 255 if value * 100 / 255 < DARK_L else 0)
    )
    pixels = ImageStat.Stat(on).sum[0] / 255
    dark_pixels = ImageStat.Stat(dark).sum[0] / 255
    if not dark_pixels:
        return Shift(lab, None, 0.0)
    dark_l = (
        (
            ImageStat.Stat(a.getchannel("L"), dark).mean[0]
            - ImageStat.Stat(b.getchannel("L"), dark).mean[0]
        )
        * 100
        / 255
    )
    return Shift(lab, dark_l, dark_pixels / pixels)


@pytest.mark.parametrize(("slug", "lang"), CASES, ids=IDS)
def test_the_page_looks_like_the_official_template(
    sample: Built, proofs: dict[tuple[str, str], Image.Image], slug: str, lang: str
) -> None:
    """The proofed page and the official template over its border differ by at most
    ΔE76 5 on average outside what the card adds (artwork, text, symbols, marks)."""
    built = sample
    entry = built.entry(slug, lang)
    faction, card_type = built.kinds[slug]
    folder = faction_slugs()[faction]
    proof = proofs[slug, lang]
    ref = reference(built.templates, folder, card_type, proof.size)
    mask = mask_outside(masked_boxes(entry, built.layout(slug)), proof.size, DPI, GROW_MM)
    value = delta_e76(proof, ref, mask)
    print(f"ΔE76 {slug}.{lang} ({faction} {card_type}): {value:.2f}")
    assert value <= MAX_DELTA_E, (
        f"{slug}.{lang} ({faction} {card_type}): mean ΔE76 {value:.2f} from the official "
        f"template {folder}/{card_type}.png over its border (at most {MAX_DELTA_E}); "
        f"{lab_shift(proof, ref, mask).describe()}"
    )


# ---- 2. positions -------------------------------------------------------------------


@dataclass(frozen=True)
class Glyph:
    """A character printed on the page, in mm from the page's top left: its origin
    (x, baseline), its tight ink box, its size and the theme face it is printed in."""

    char: str
    x: float
    baseline: float
    box: Box
    size_pt: float
    face: str

    @property
    def centre(self) -> tuple[float, float]:
        return (self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2


@dataclass(frozen=True)
class Page:
    glyphs: tuple[Glyph, ...]
    trim: Box


@cache
def read_page(path: str) -> Page:
    """The glyphs (not the spaces) and TrimBox of a one-page card PDF, as PDFium reads
    them (:func:`tests.printkit.printed_chars`), each with its theme face."""
    chars, trim = printed_chars(path)
    return Page(
        tuple(
            Glyph(c.char, *c.origin, c.box, c.size_pt, _face(c.font))
            for c in chars
            if not c.char.isspace()
        ),
        trim,
    )


def _face(font: str) -> str:
    """The theme face a glyph is printed in (``bold``, ``caps``...), from its PDF
    font's name, which WeasyPrint makes of the ``@font-face`` family and the face's
    weight, style and stretch (``ABCDEF+Card-Text-Bold-Italic``,
    ``Card-Footer-Narrow-Bold-Condensed``); the name itself for an unknown family."""
    name = font.split("+", 1)[-1]
    parts = name.split("-")
    styles = {"Bold", "Italic", "Condensed"}
    while parts and parts[-1] in styles:
        styles.discard(parts.pop())
    family = "-".join(parts)
    if family not in FAMILIES:
        return name
    if FAMILIES[family] is not None:
        return FAMILIES[family]
    bold, italic = "Bold" not in styles, "Italic" not in styles
    return {
        (True, True): "bold-italic",
        (True, False): "bold",
        (False, True): "italic",
        (False, False): "regular",
    }[(bold, italic)]


@cache
def _font(path: Path) -> tuple[dict[int, str], dict[str, tuple[int, int]], int]:
    font = TTFont(str(path), lazy=True)
    return font.getBestCmap(), dict(font["hmtx"].metrics), font["head"].unitsPerEm


def advance_mm(built: Built, glyph: Glyph) -> float:
    """How far the pen moves after ``glyph``: its advance in the font file of its face,
    at its size (a text's end is its last glyph's origin plus this)."""
    assert glyph.face in built.fonts, (
        f"{glyph.char!r} at x {glyph.x:.2f} mm is printed in {glyph.face!r}, a font the "
        f"theme does not have (faces: {', '.join(built.fonts)})"
    )
    cmap, metrics, units = _font(built.fonts[glyph.face])
    name = cmap.get(ord(glyph.char))
    assert name is not None, f"{glyph.char!r} is not in {built.fonts[glyph.face]}"
    return metrics[name][0] / units * glyph.size_pt * PT_MM


def owned(page: Page, entry: dict) -> dict[str, list[Glyph]]:
    """Each reported element's glyphs: those whose ink centre is in its box (within
    :data:`INSIDE_MM`), the smallest box when several hold it (the artwork's box
    holds a creature's name; the name's box is also ``name2``'s)."""
    boxes = {
        name: element["box"]
        for name, element in entry["elements"].items()
        if name not in ("art", "loyalty", "name2")
    }
    found: dict[str, list[Glyph]] = {name: [] for name in boxes}
    for glyph in page.glyphs:
        x, y = glyph.centre
        holding = [
            name
            for name, (x0, y0, x1, y1) in boxes.items()
            if x0 - INSIDE_MM <= x <= x1 + INSIDE_MM and y0 - INSIDE_MM <= y <= y1 + INSIDE_MM
        ]
        if holding:
            found[min(holding, key=lambda n: _area(boxes[n]))].append(glyph)
    return found


def _area(box: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def lines_of(glyphs: Iterable[Glyph]) -> list[list[Glyph]]:
    """Glyphs in lines (by baseline, top first), each from left to right."""
    lines: list[list[Glyph]] = []
    for glyph in sorted(glyphs, key=lambda g: (g.baseline, g.x)):
        if lines and abs(glyph.baseline - lines[-1][0].baseline) <= LINE_MM:
            lines[-1].append(glyph)
        else:
            lines.append([glyph])
    return [sorted(line, key=lambda g: g.x) for line in lines]


@dataclass(frozen=True)
class Placed:
    """Where one line of an element is printed and where it should be (page mm)."""

    what: str
    anchor: str
    x: float
    baseline: float
    want_x: float
    want_baseline: float
    why: str = ""

    def problems(self) -> list[str]:
        found = []
        if abs(self.x - self.want_x) > ANCHOR_MM:
            found.append(
                f"{self.what}: its {self.anchor} at x {self.x:.2f} mm, "
                f"{self.x - self.want_x:+.2f} mm from {self.want_x:.2f}"
            )
        if abs(self.baseline - self.want_baseline) > ANCHOR_MM:
            found.append(
                f"{self.what}: baseline at {self.baseline:.2f} mm, "
                f"{self.baseline - self.want_baseline:+.2f} mm from "
                f"{self.want_baseline:.2f}"
            )
        return [f"{problem}{self.why}" for problem in found]


def placed(built: Built, what: str, line: list[Glyph], official: Line, trim: Box) -> Placed:
    """One printed line against the template's anchor for it, converted to page mm.

    The anchor point is the first glyph's origin (``start``), the last glyph's origin
    plus its advance (``end``), the middle of the two (``middle``); the baseline is
    the glyphs' origin.  Where the template's position would put the line's ink
    inside the safe area, the theme moves the line in to the area's edge
    (docs/printing.md, templates/arcmage/card.css.j2), and that is the position
    wanted (:func:`kept_in`): so the spells' names and type lines start at 2 mm from
    the cut, the footer's descenders end at the edge, and a two-digit Dark Legion cost
    is moved left of its coin's centre, but digits (no descender) stay on their discs
    and a one-digit cost on its coin's centre."""
    start = line[0].x
    end = line[-1].x + advance_mm(built, line[-1])
    x = {"start": start, "end": end, "middle": (start + end) / 2}[official.anchor]
    baseline = sum(g.baseline for g in line) / len(line)
    ink = (
        min(g.box[0] for g in line) - x,
        min(g.box[1] for g in line) - baseline,
        max(g.box[2] for g in line) - x,
        max(g.box[3] for g in line) - baseline,
    )
    wanted = (official.x + TEMPLATE_AT[0], official.baseline + TEMPLATE_AT[1])
    want_x, want_baseline = kept_in(wanted, ink, official.anchor, trim)
    why = " (moved to the safe area's edge)" if (want_x, want_baseline) != wanted else ""
    return Placed(what, official.anchor, x, baseline, want_x, want_baseline, why)


def kept_in(anchor: tuple[float, float], ink: Box, kind: str, trim: Box) -> tuple[float, float]:
    """Where a line anchored at ``anchor`` (x, baseline) is printed once kept in the
    safe area: moved the least that puts its ink (``ink``: its extent around the
    anchor and baseline) inside the trim less :data:`SAFE_MM`.  A start is held by its
    origin (the documented correction: the spells' names start 2 mm from the cut),
    an end by its advance, as the theme places them; a middle and the baselines by
    their ink."""
    left, top, right, bottom = (
        trim[0] + SAFE_MM,
        trim[1] + SAFE_MM,
        trim[2] - SAFE_MM,
        trim[3] - SAFE_MM,
    )
    x, baseline = anchor
    if kind == "start":
        x = max(x, left)
    elif kind == "end":
        x = min(x, right)
    else:
        x = min(max(x, left - ink[0]), right - ink[2])
    baseline = min(max(baseline, top - ink[1]), bottom - ink[3])
    return x, baseline


def card_page(built: Built, slug: str, lang: str) -> tuple[dict, Page, dict[str, list[Glyph]]]:
    entry = built.entry(slug, lang)
    page = read_page(entry["pdf"])
    return entry, page, owned(page, entry)


def shrunk(entry: dict, name: str, official: Line) -> str:
    """`` (shrunk to 8.1 pt)`` when the build printed the element smaller than the
    template's size: its anchors must hold all the same."""
    size = (entry["elements"].get(name) or {}).get("size_pt")
    if size is not None and size < official.size - 0.01:
        return f" (shrunk to {size:.2f} pt from {official.size:.2f})"
    return ""


def report(slug: str, lang: str, problems: list[str]) -> None:
    assert not problems, f"{slug}.{lang}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize(("library", "slug", "lang"), ANCHOR_CASES, ids=ANCHOR_IDS)
def test_name_and_type_line_on_the_anchors(
    request: pytest.FixtureRequest, library: str, slug: str, lang: str
) -> None:
    """The name (one line, or two: the template's first and last name lines), and the
    type line on the template's anchors.  Creatures and cities end them at the
    anchor; spells start them 1.5 mm from the cut in the SVG, which the theme moves
    to the safe area's edge (2 mm), where this wants them.  (The theme also sets a
    spell's name 0.18 mm lower than the template, room above it for any accent: within
    the bound, so not modelled.)  A second name line of a spell (no template has one)
    is held to the first line's start only."""
    built: Built = request.getfixturevalue(library)
    entry, page, glyphs = card_page(built, slug, lang)
    layout = built.layout(slug)
    problems: list[str] = []
    names = lines_of(glyphs.get("name", []))
    two = "name2" in entry["elements"]
    assert len(names) == (2 if two else 1), (
        f"{slug}.{lang}: the name is printed on {len(names)} lines, not {1 + two}"
    )
    first = layout.lines["name1"] if two and "name1" in layout.lines else layout.lines["name"]
    note = shrunk(entry, "name", first)
    problems += placed(built, "name" + note, names[0], first, page.trim).problems()
    if two:
        note = shrunk(entry, "name2", first)
        if "name2" in layout.lines:
            official = layout.lines["name2"]
            problems += placed(
                built, "second name line" + note, names[1], official, page.trim
            ).problems()
        else:
            second = placed(built, "second name line" + note, names[1], first, page.trim)
            problems += [p for p in second.problems() if "baseline" not in p]
    types = lines_of(glyphs.get("type", []))
    assert len(types) == 1, f"{slug}.{lang}: the type line is printed on {len(types)} lines"
    official = layout.lines["type"]
    problems += placed(
        built, "type line" + shrunk(entry, "type", official), types[0], official, page.trim
    ).problems()
    report(slug, lang, problems)


@pytest.mark.parametrize(("library", "slug", "lang"), ANCHOR_CASES, ids=ANCHOR_IDS)
def test_cost_and_stats_on_the_anchors(
    request: pytest.FixtureRequest, library: str, slug: str, lang: str
) -> None:
    """Cost, attack and defense centred on the template's anchors, on its baselines.
    Their digits have no descender: the official baselines, 0.2 to 0.3 mm above the
    safe area's edge, keep them inside it, and the only correction wanted is a
    wide cost's (Dark Legion's coin is 4.75 mm from the cut: a two-digit cost moves
    left until its ink is inside, :func:`kept_in`)."""
    built: Built = request.getfixturevalue(library)
    entry, page, glyphs = card_page(built, slug, lang)
    layout = built.layout(slug)
    problems: list[str] = []
    printed = [name for name in ("cost", "attack", "defense") if name in entry["elements"]]
    assert printed, f"{slug}.{lang}: no cost or stats printed"
    for name in printed:
        assert name in layout.lines, f"{slug}.{lang}: {name} printed, not in the template"
        lines = lines_of(glyphs[name])
        assert len(lines) == 1, f"{slug}.{lang}: {name} is printed on {len(lines)} lines"
        official = layout.lines[name]
        problems += placed(
            built, name + shrunk(entry, name, official), lines[0], official, page.trim
        ).problems()
    report(slug, lang, problems)


@pytest.mark.parametrize(("library", "slug", "lang"), ANCHOR_CASES, ids=ANCHOR_IDS)
def test_footer_at_the_safe_area_edge(
    request: pytest.FixtureRequest, library: str, slug: str, lang: str
) -> None:
    """The footer starts at the template's anchor; its baseline, 0.7 mm above the cut
    in the template, is where its descenders reach the safe area's edge (the theme's
    documented correction)."""
    built: Built = request.getfixturevalue(library)
    _, page, glyphs = card_page(built, slug, lang)
    lines = lines_of(glyphs.get("info", []))
    assert len(lines) == 1, f"{slug}.{lang}: the footer is printed on {len(lines)} lines"
    official = built.layout(slug).lines["info"]
    found = placed(built, "footer", lines[0], official, page.trim)
    assert found.want_baseline < official.baseline + TEMPLATE_AT[1], (
        "the template's footer is no longer in the safe area: drop this test's premise"
    )
    report(slug, lang, found.problems())


@pytest.mark.parametrize(("library", "slug", "lang"), ANCHOR_CASES, ids=ANCHOR_IDS)
def test_rule_text_starts_at_the_template_first_baseline(
    request: pytest.FixtureRequest, library: str, slug: str, lang: str
) -> None:
    """The rule text's first line starts at the template's ``cardtext`` translate, its
    baseline 1.25 lines (Aminduna's line spacing) of the card's text size below it: the
    body size times the text scale of the report.  Drop caps (on the second line's
    baseline) are left out of the first line; the text's left edge is its leftmost
    glyph's origin (a line may start with a symbol, a drawing, not a glyph)."""
    built: Built = request.getfixturevalue(library)
    entry, _, glyphs = card_page(built, slug, lang)
    official = built.layout(slug).text
    assert official is not None
    text = glyphs.get("text", [])
    size = entry["elements"]["text"]["size_pt"]
    assert size == pytest.approx(official.size * entry["scale"], abs=0.01), (
        f"{slug}.{lang}: the text printed at {size} pt, not {official.size} x "
        f"{entry['scale']} (its scale)"
    )
    body = [g for g in text if g.size_pt < DROP_CAP_RATIO * size]
    lines = lines_of(body)
    assert lines, f"{slug}.{lang}: no rule text printed"
    first_baseline = (
        official.y
        + TEMPLATE_AT[1]
        + generator().line_spacing * official.size * entry["scale"] * PT_MM
    )
    left = min(g.x for g in body)
    found = Placed(
        "rule text",
        "start",
        left,
        sum(g.baseline for g in lines[0]) / len(lines[0]),
        official.x + TEMPLATE_AT[0],
        first_baseline,
    )
    report(slug, lang, found.problems())


def test_the_shrunk_cards_are_shrunk(stress: Built) -> None:
    """The premise of the :data:`SHRUNK` cases: each prints its element smaller than
    the template's size, so that the anchor tests hold a shrunk element."""
    for slug, name in SHRUNK.items():
        entry = stress.entry(slug, "en")
        size = entry["elements"][name]["size_pt"]
        official = stress.layout(slug).lines[name]
        assert size < official.size - 0.01, (
            f"{STRESS}/{slug}.en.md: {name} printed at {size} pt, the template's size "
            f"({official.size} pt): pick another card of the stress library for SHRUNK"
        )


def test_the_sample_shrinks_rule_texts(sample: Built) -> None:
    """The sample's rule texts are set at several scales (the first baseline test
    holds the scale), not all at full size."""
    scales = {entry["scale"] for entry in sample.report["cards"]}
    assert len(scales) > 3 and min(scales) < 1, f"the sample's text scales: {scales}"


# ---- 3. the back --------------------------------------------------------------------


def test_the_back_is_the_official_back(sample: Built) -> None:
    """The deck's back page (duplex: the second page) against the official back.png at
    the trim: over the back itself (its opaque pixels) and over the whole page, with
    the generic print border in the bleed."""
    built = sample
    deck = built.out / "sample.en.deck.pdf"
    document = pypdfium2.PdfDocument(deck)
    try:
        label = document.get_page_label(1)
    finally:
        document.close()
    assert label.endswith(" back"), f"{deck}: page 2 is {label!r}, not a back"
    proof = render_page_srgb(deck, 2, DPI, PROFILE.path)
    back = built.templates / "back.png"
    alone = template_on_page(back, proof.size, DPI, template_mm=raster.BACK_MM)
    bordered = template_on_page(
        back, proof.size, DPI, template_mm=raster.BACK_MM, border_png=built.templates / "border.png"
    )
    values = {"the back": delta_e76(proof, alone), "the page": delta_e76(proof, bordered)}
    print("ΔE76 of the back: " + ", ".join(f"{k} {v:.2f}" for k, v in values.items()))
    everywhere = Image.new("L", proof.size, 255)
    assert max(values.values()) <= MAX_DELTA_E, (
        f"{deck} page 2: mean ΔE76 {values} from the official back (at most "
        f"{MAX_DELTA_E}); over the page {lab_shift(proof, bordered, everywhere).describe()}"
    )
