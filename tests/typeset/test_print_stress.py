"""The print build under stress, checked on the PDFs themselves.

``tests/data/stress-library`` holds cards a tough user would print (names, type lines
and texts far too long, every symbol, drop caps, two-digit stats; README.md there).
It is built once per theme (translator's own and the official Arcmage look made by
``translator theme import-arcmage``, skipped where ``../shared/arcmage-official`` is
absent; test ids ``[theme-slug.lang]``), every language, with ``translator build
--format json``; then each card PDF is read with pypdfium2, another PDF library than
the renderer's, and held to what the build claims: every glyph inside the card's safe
area and inside the box of its element (the report's ``elements``), each element's
glyphs at the size the report gives, no glyph of one line touching another line's,
nothing under the smallest size, drop caps over two lines, loyalty marks painted over
by nothing, column marks seen beside their lines (on PDFium's rendering), no English
type word on a translated type line; and every card not printed named with a reason.
Nothing here reads WeasyPrint's layout: only the report and the PDF.

A refused card's PDF checks are skipped (the skip says why).  Failures name the card
and language, the glyph (character, code point, size, place in mm from the page's top
left, the text around it) and the element.
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import pairwise
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image

from tests.conftest import ROOT
from tests.printkit import cmyk_profile, printed_chars

cmyk_profile()
pytestmark = pytest.mark.slow  # the stress library built in both themes

LIBRARY = ROOT / "tests" / "data" / "stress-library"
# The command a user runs (the venv's script), else the same through this Python.
_SCRIPT = Path(sys.executable).with_name("translator")
TRANSLATOR = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "translator"]
LANGS = ("en", "fr", "eo")
SLUGS = sorted(path.name.split(".")[0] for path in LIBRARY.glob("*.en.md"))
CASES = [(slug, lang) for slug in SLUGS for lang in LANGS]
IDS = [f"{slug}.{lang}" for slug, lang in CASES]
# translator's own theme, and the official look (`translator theme import-arcmage`).
THEMES = ("default", "arcmage")

MM = 72 / 25.4  # points in a millimetre
SAFE_MM = 2.0  # the safe area: the TrimBox less this on every side
INSIDE_MM = 0.15  # how far a glyph may reach past its element's box
TOUCH_MM = 0.05  # how far two glyphs of different lines may overlap
SIZE_EPS_PT = 0.05  # rounding of font sizes
DEFAULT_MIN_PT = 6.0  # the smallest text size the build may print (its default)
DROP_CAP_RATIO = 1.8  # a glyph this many times its element's size is a drop cap
TYPE_WORDS = re.compile(r"\b(Creature|City|Event|Magic|Enchantment|Equipment)\b")

# Cards no font size can print (tests/data/stress-library/README.md): refused in every
# language, with a reason naming what does not fit.
REFUSED = {
    "conclave-archimandrite": r"\bname\b",  # 73 characters on the name line
    "duke-of-the-marches": r"second name|name2",  # 82 on the second name line
    "endless-lineage": r"type",  # seventeen subtypes
    "keeper-of-all-rules": r"text|tall",  # seven abilities, 1,300 characters
}
# Ordinary cards: printed in every language, so that no check passes by refusing all.
ORDINARY = (
    "imp",
    "moss-troll",
    "fort",
    "thornwall",
    "crossroads",
    "ambush",
    "spark",
    "arcane-bolt",
    "war-banner",
    "war-axe",
    "traveling-cloak",
    "quiet-library",
    "colossus",
    "cypher-study",
    "grave-call",
    "last-rites",
    "market-day",
)
# Ordinary cards a theme's smaller boxes cannot hold, and the reason they are refused
# with there (printed by the other themes).  The official look's spells have a rule
# text of 56 x 19.4 mm (the template's box, ended above the artwork window), the
# default theme's 58.4 x 33.3 mm: the five cypher paragraphs of cypher-study need 2.2
# mm more at the smallest size.
TIGHTER = {"arcmage": {"cypher-study": r"\btext is [\d.]+ mm too tall"}}
# The share of the library's card versions a theme prints at least (refusing is for
# what cannot fit): the official look's boxes are smaller (its creatures' rule text
# 56 x 22.3 mm, the default's 58.4 x 28.8 mm; spells above), so more of the library's
# long texts, names and footers are refused.
PRINTED_SHARE = {"default": 0.7, "arcmage": 0.6}


@dataclass(frozen=True)
class Build:
    """One run of ``translator build`` over the stress library, in one theme."""

    theme: str
    returncode: int
    report: dict
    stderr: str
    out: Path

    def entry(self, slug: str, lang: str) -> dict:
        """The report's entry for one card version (fails if there is none or several)."""
        found = [c for c in self.report["cards"] if c["card"] == slug and c["lang"] == lang]
        assert len(found) == 1, f"{slug}.{lang}: {len(found)} entries in the build report"
        return found[0]


def theme_options(theme: str, request: pytest.FixtureRequest) -> list[str]:
    """The build's options for a theme: none for translator's own, ``--theme DIR`` for
    the official look (the ``arcmage_theme`` fixture: imported once per run, skipped
    without the template set).

    The official look is built without the preflight: nothing here reads it (its
    findings go to the report's ``preflight``, not to the cards), and on the official
    frames (a 600 dpi image a card) it is a third of the build, 22 of 73 s on two
    cores; the default theme's build stays the command as a user runs it."""
    if theme == "default":
        return []
    return ["--theme", str(request.getfixturevalue("arcmage_theme")), "--no-preflight"]


@pytest.fixture(scope="module", params=THEMES)
def build(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The stress library built once per theme, in every language, two processes.

    Every check below runs on both themes' files (test ids ``[theme-slug.lang]``):
    what a check needs of the design (boxes, sizes) it reads from the build's report.
    """
    theme = request.param
    out = tmp_path_factory.mktemp(f"stress-build-{theme}")
    command = [
        *TRANSLATOR,
        "build",
        str(LIBRARY),
        "--lang",
        "all",
        "--format",
        "json",
        "--out",
        str(out),
        "--jobs",
        "2",
        *theme_options(theme, request),
    ]
    done = subprocess.run(
        command, check=False, capture_output=True, text=True, timeout=1800, cwd=ROOT
    )
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        pytest.fail(
            f"`{' '.join(command)}` exited {done.returncode} without a JSON report:\n"
            f"{done.stderr[-3000:]}"
        )
    return Build(theme, done.returncode, report, done.stderr, out)


# ---- the PDF, read with pypdfium2 ---------------------------------------------------


@dataclass(frozen=True)
class Glyph:
    """A character printed on the page: its tight box in mm from the page's top left."""

    index: int
    char: str
    x0: float
    y0: float
    x1: float
    y1: float
    size_pt: float
    baseline: float  # the origin's y, mm from the top

    @property
    def ink(self) -> bool:
        """Spaces have a box but no ink: they are part of the text, not of the layout."""
        return not self.char.isspace()

    @property
    def centre(self) -> tuple[float, float]:
        """Where the glyph is, for telling which element it belongs to."""
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def describe(self) -> str:
        """The glyph as a failure names it: character, code point, index, size, place."""
        return (
            f"glyph {self.char!r} (U+{ord(self.char):04X}, #{self.index}, "
            f"{self.size_pt:.2f} pt) at x {self.x0:.2f}-{self.x1:.2f}, "
            f"y {self.y0:.2f}-{self.y1:.2f} mm"
        )


@dataclass(frozen=True)
class Page:
    """What the checks need of a card PDF's page."""

    glyphs: tuple[Glyph, ...]
    trim: tuple[float, float, float, float]  # mm from the top left: x0, y0, x1, y1


@cache
def read_page(path: str) -> Page:
    """The glyphs and TrimBox of a one-page card PDF, in mm from the top left, as PDFium
    reads them (:func:`tests.printkit.printed_chars`)."""
    chars, trim = printed_chars(path)
    return Page(tuple(Glyph(c.index, c.char, *c.box, c.size_pt, c.origin[1]) for c in chars), trim)


# ---- glyphs and the report's elements -----------------------------------------------


Box = tuple[float, float, float, float]


def holds(box: Box, x: float, y: float) -> bool:
    """Whether the point (mm) is inside the box, edges included."""
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def area(box: Box) -> float:
    """The box's area: the smaller of two boxes holding a glyph is the more precise."""
    return (box[2] - box[0]) * (box[3] - box[1])


def element_of(glyph: Glyph, elements: dict[str, dict]) -> str | None:
    """The element a glyph belongs to: the one whose box holds its centre.

    Boxes may be shared (the name band holds both name lines, the type line both the
    type and the faction): then the smallest box wins, and among equal boxes the
    element whose size is the glyph's.  A drop cap is the text's.
    """
    x, y = glyph.centre
    candidates = [
        (area(tuple(e["box"])), abs((e.get("size_pt") or 0) - glyph.size_pt), name)
        for name, e in elements.items()
        if e.get("box") and holds(tuple(e["box"]), x, y)
    ]
    return min(candidates)[2] if candidates else None


def outside_by(glyph: Glyph, box: Box) -> dict[str, float]:
    """How far (mm) the glyph's box reaches past each side of ``box``; empty if inside."""
    over = {
        "left": box[0] - glyph.x0,
        "top": box[1] - glyph.y0,
        "right": glyph.x1 - box[2],
        "bottom": glyph.y1 - box[3],
    }
    return {side: round(mm, 2) for side, mm in over.items() if mm > INSIDE_MM}


def elements(build: Build, slug: str, lang: str) -> dict[str, dict]:
    """The report's element boxes of a card (the contract of docs/printing.md)."""
    entry = build.entry(slug, lang)
    found = entry.get("elements")
    assert isinstance(found, dict) and found, (
        f"{slug}.{lang}: the build report gives no `elements` for this card (keys: {sorted(entry)})"
    )
    return found


def written(build: Build, slug: str, lang: str) -> tuple[dict, Page]:
    """The report entry and page of a card the build printed (skip a refused card)."""
    entry = build.entry(slug, lang)
    if not entry.get("pdf"):
        pytest.skip(f"{slug}.{lang} is not printed: {reason(entry)}")
    return entry, read_page(entry["pdf"])


def reason(entry: dict) -> str:
    """Why the build did not print a card, as its report says (empty: no reason)."""
    parts = list(entry.get("errors") or [])
    if entry.get("overflow_mm"):
        parts.append(f"text {entry['overflow_mm']} mm too tall")
    if entry.get("missing_glyphs"):
        parts.append(f"missing glyphs {entry['missing_glyphs']}")
    return "; ".join(parts)


def context(glyphs: list[Glyph], glyph: Glyph, width: int = 12) -> str:
    """The printed text around a glyph, so that a failure says where it is."""
    position = glyphs.index(glyph)
    text = "".join(g.char for g in glyphs[max(0, position - width) : position + width + 1])
    return " ".join(text.split())


def report(slug: str, lang: str, what: str, problems: list[str]) -> None:
    """Fail with every problem of one card (the first 12), named by card and language."""
    if problems:
        shown = "\n  ".join(problems[:12])
        more = f"\n  ... and {len(problems) - 12} more" if len(problems) > 12 else ""
        pytest.fail(f"{slug}.{lang}: {len(problems)} {what}:\n  {shown}{more}", pytrace=False)


# ---- lines --------------------------------------------------------------------------


@dataclass
class Line:
    """Glyphs of one element on one baseline (a drop cap is a line of its own)."""

    element: str | None
    glyphs: list[Glyph]

    @property
    def baseline(self) -> float:
        """The line's baseline, mm from the top."""
        return self.glyphs[0].baseline

    @property
    def size(self) -> float:
        """The line's font size: its line height is 1.25 times that in the text box."""
        return max(g.size_pt for g in self.glyphs)

    @property
    def x0(self) -> float:
        """Where the line starts: right of a drop cap or mark when it is indented."""
        return min(g.x0 for g in self.glyphs)

    @property
    def text(self) -> str:
        """The line's characters left to right, a space where a word space was."""
        glyphs = sorted(self.glyphs, key=lambda g: g.x0)
        text = glyphs[0].char
        for before, glyph in pairwise(glyphs):
            gap = glyph.x0 - before.x1
            text += (" " if gap > 0.2 * glyph.size_pt / MM else "") + glyph.char
        return text


def drop_caps(
    glyphs: Iterable[Glyph], owner: dict[int, str | None], sizes: dict[str, float]
) -> list[Glyph]:
    """Glyphs far larger than their element's size: drop caps."""
    return [
        g
        for g in glyphs
        if g.ink
        and owner[g.index] == "text"
        and g.size_pt > DROP_CAP_RATIO * sizes.get("text", 9.0)
    ]


def lines_of(glyphs: list[Glyph], owner: dict[int, str | None], caps: list[Glyph]) -> list[Line]:
    """Group glyphs into lines: same element, baselines within a fifth of their size."""
    lines: list[Line] = [Line(owner[g.index], [g]) for g in caps]
    rest = sorted(
        (g for g in glyphs if g.ink and g not in caps),
        key=lambda g: (str(owner[g.index]), g.baseline, g.x0),
    )
    for glyph in rest:
        last = lines[-1] if lines and lines[-1].glyphs[0] not in caps else None
        if (
            last is not None
            and last.element == owner[glyph.index]
            and abs(last.baseline - glyph.baseline) < 0.2 * glyph.size_pt / MM
        ):
            last.glyphs.append(glyph)
        else:
            lines.append(Line(owner[glyph.index], [glyph]))
    return lines


def overlap(a: Glyph, b: Glyph) -> float:
    """How far two glyph boxes overlap (mm, the smaller of the two directions)."""
    return min(min(a.x1, b.x1) - max(a.x0, b.x0), min(a.y1, b.y1) - max(a.y0, b.y0))


def line_box(line: Line) -> Box:
    """The box around a line's glyphs: lines whose boxes do not meet are not compared."""
    return (
        min(g.x0 for g in line.glyphs),
        min(g.y0 for g in line.glyphs),
        max(g.x1 for g in line.glyphs),
        max(g.y1 for g in line.glyphs),
    )


def touching_lines(lines: list[Line]) -> list[tuple[Line, Glyph, Line, Glyph, float]]:
    """Pairs of glyphs of different lines whose boxes overlap more than TOUCH_MM."""
    found = []
    boxes = [line_box(line) for line in lines]
    for i, a in enumerate(lines):
        for j in range(i + 1, len(lines)):
            box_a, box_b = boxes[i], boxes[j]
            if (
                min(box_a[2], box_b[2]) - max(box_a[0], box_b[0]) <= TOUCH_MM
                or min(box_a[3], box_b[3]) - max(box_a[1], box_b[1]) <= TOUCH_MM
            ):
                continue
            b = lines[j]
            for ga in a.glyphs:
                for gb in b.glyphs:
                    depth = overlap(ga, gb)
                    if depth > TOUCH_MM:
                        found.append((a, ga, b, gb, depth))
    return found


def owners(page: Page, found: dict[str, dict]) -> dict[int, str | None]:
    """Every glyph's element, by glyph index (None: in no element's box)."""
    return {g.index: element_of(g, found) for g in page.glyphs}


def sizes_of(found: dict[str, dict]) -> dict[str, float]:
    """The report's size of each element that prints text."""
    return {name: e["size_pt"] for name, e in found.items() if e.get("size_pt")}


# ---- the build and its report -------------------------------------------------------


def test_the_library_is_valid() -> None:
    """The stress library passes `translator cards check` and is what its script writes."""
    done = subprocess.run(
        [*TRANSLATOR, "cards", "check", str(LIBRARY)],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    generate = subprocess.run(
        [sys.executable, str(LIBRARY / "generate.py"), "--check"],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert generate.returncode == 0, generate.stderr
    assert len(SLUGS) >= 50


def test_every_card_version_is_in_the_report(build: Build) -> None:
    """Each card of the library, in each of its three languages, once."""
    listed = sorted((c["card"], c["lang"]) for c in build.report["cards"])
    assert listed == sorted(CASES), "the report does not list each card version once"


def test_refusing_a_card_exits_1(build: Build) -> None:
    """A refused card fails the build (exit code 1), as docs/printing.md says."""
    refused = [f"{c['card']}.{c['lang']}" for c in build.report["cards"] if not c.get("pdf")]
    assert refused, "the stress library has cards no size can print: none was refused"
    assert build.returncode == 1, (
        f"exit code {build.returncode} with {len(refused)} cards refused "
        f"({', '.join(refused[:5])}...):\n{build.stderr[-2000:]}"
    )


@pytest.mark.parametrize(("slug", "lang"), CASES, ids=IDS)
def test_printed_or_refused_with_a_reason(build: Build, slug: str, lang: str) -> None:
    """A card listed with a PDF has it; a card without one says why, naming itself."""
    entry = build.entry(slug, lang)
    if entry.get("pdf"):
        assert Path(entry["pdf"]).is_file(), f"{slug}.{lang}: {entry['pdf']} is not there"
        assert not entry.get("errors"), f"{slug}.{lang}: printed with errors {entry['errors']}"
        return
    why = reason(entry)
    assert why, f"{slug}.{lang}: no PDF, and no errors, overflow_mm or missing_glyphs"
    if entry.get("errors"):
        assert any(slug in error for error in entry["errors"]), (
            f"{slug}.{lang}: the errors do not name the card: {entry['errors']}"
        )
    assert slug in build.stderr, f"{slug}.{lang}: refused, but not named on standard error"


def test_most_cards_are_printed(build: Build) -> None:
    """Refusing is for what cannot fit: most of the library is printed."""
    entries = build.report["cards"]
    printed = [c for c in entries if c.get("pdf")]
    refused = sorted(f"{c['card']}.{c['lang']}" for c in entries if not c.get("pdf"))
    assert len(printed) >= PRINTED_SHARE[build.theme] * len(entries), (
        f"only {len(printed)} of {len(entries)} printed; refused: {', '.join(refused)}"
    )


@pytest.mark.parametrize("slug", sorted(REFUSED))
def test_what_no_size_can_hold_is_refused(build: Build, slug: str) -> None:
    """The clear cases (README.md) are refused in every language, saying what is wrong."""
    for lang in LANGS:
        entry = build.entry(slug, lang)
        assert not entry.get("pdf"), f"{slug}.{lang} was printed: {entry['pdf']}"
        assert re.search(REFUSED[slug], reason(entry)), (
            f"{slug}.{lang}: refused, but the reason does not say what: {reason(entry)!r}"
        )


@pytest.mark.parametrize("slug", ORDINARY)
def test_ordinary_cards_are_printed(build: Build, slug: str) -> None:
    """Short, plain cards are printed in every language (no check passes by refusing);
    one a theme's boxes are known to be too small for is refused for that reason only."""
    allowed = TIGHTER.get(build.theme, {}).get(slug)
    for lang in LANGS:
        entry = build.entry(slug, lang)
        assert entry.get("pdf") or (allowed and re.search(allowed, reason(entry))), (
            f"{slug}.{lang} was refused: {reason(entry)}"
        )


# ---- the checks of one card PDF (each returns its problems, named) -----------------


def safe_area_problems(page: Page) -> list[str]:
    """Glyphs reaching past the TrimBox less the 2 mm safe area."""
    x0, y0, x1, y1 = page.trim
    safe = (x0 + SAFE_MM, y0 + SAFE_MM, x1 - SAFE_MM, y1 - SAFE_MM)
    glyphs = list(page.glyphs)
    return [
        f"{g.describe()} in {context(glyphs, g)!r}: outside the safe area "
        f"{[round(v, 2) for v in safe]} by {outside_by(g, safe)} mm"
        for g in glyphs
        if g.ink and outside_by(g, safe)
    ]


def element_problems(page: Page, found: dict[str, dict]) -> list[str]:
    """Glyphs in no element's box, or reaching past their element's box."""
    glyphs = list(page.glyphs)
    problems = []
    for glyph in glyphs:
        if not glyph.ink:
            continue
        name = element_of(glyph, found)
        if name is None:
            problems.append(
                f"{glyph.describe()} in {context(glyphs, glyph)!r}: in no element's box"
            )
            continue
        over = outside_by(glyph, tuple(found[name]["box"]))
        if over:
            problems.append(
                f"{glyph.describe()} in {context(glyphs, glyph)!r}: outside "
                f"its element {name!r} {found[name]['box']} by {over} mm"
            )
    return problems


def small_glyph_problems(page: Page, floor: float) -> list[str]:
    """Glyphs printed under ``floor`` points."""
    glyphs = list(page.glyphs)
    return [
        f"{g.describe()} in {context(glyphs, g)!r}: under {floor} pt"
        for g in glyphs
        if g.ink and g.size_pt < floor - SIZE_EPS_PT
    ]


def element_size_problems(page: Page, found: dict[str, dict]) -> list[str]:
    """Glyphs whose size is not their element's ``size_pt`` (drop caps apart)."""
    owner, sizes = owners(page, found), sizes_of(found)
    caps = drop_caps(page.glyphs, owner, sizes)
    glyphs = list(page.glyphs)
    return [
        f"{g.describe()} in {context(glyphs, g)!r}: its element {owner[g.index]!r} "
        f"says {sizes[owner[g.index]]} pt"
        for g in glyphs
        if g.ink
        and g not in caps
        and owner[g.index] in sizes
        and abs(g.size_pt - sizes[owner[g.index]]) > SIZE_EPS_PT
    ]


def overlap_problems(page: Page, found: dict[str, dict]) -> list[str]:
    """Glyphs of different lines (or elements) whose boxes overlap."""
    owner = owners(page, found)
    caps = drop_caps(page.glyphs, owner, sizes_of(found))
    lines = lines_of(list(page.glyphs), owner, caps)
    return [
        f"{ga.describe()} of {a.element!r} line {a.text[:30]!r} overlaps "
        f"{gb.describe()} of {b.element!r} line {b.text[:30]!r} by {depth:.2f} mm"
        for a, ga, b, gb, depth in touching_lines(lines)
    ]


def text_lines(page: Page, found: dict[str, dict]) -> tuple[list[Line], list[Glyph]]:
    """The lines of the text box, top to bottom, and its drop caps."""
    owner = owners(page, found)
    caps = drop_caps(page.glyphs, owner, sizes_of(found))
    lines = sorted(
        (
            line
            for line in lines_of(list(page.glyphs), owner, caps)
            if line.element == "text" and line.glyphs[0] not in caps
        ),
        key=lambda line: line.baseline,
    )
    return lines, caps


def paragraph_below(top: float, lines: list[Line]) -> list[Line]:
    """The lines of the paragraph starting under ``top`` (mm): the first line below it
    and those following it one line height apart (1.25 times their size; a paragraph
    break adds half a line, and a drop cap's or mark's paragraph ends at its foot)."""
    paragraph: list[Line] = []
    for line in (line for line in lines if line.baseline > top):
        pitch = 1.25 * line.size / MM
        if paragraph and abs(line.baseline - paragraph[-1].baseline - pitch) > 0.15 * pitch:
            break
        paragraph.append(line)
    return paragraph


def drop_cap_problems(page: Page, found: dict[str, dict]) -> list[str]:
    """Drop caps indenting more than the first two lines of their paragraph."""
    lines, caps = text_lines(page, found)
    problems = []
    for cap in caps:
        beside = [line for line in paragraph_below(cap.y0, lines) if line.x0 >= cap.x1 - 0.1]
        if len(beside) > 2:
            problems.append(
                f"drop cap {cap.describe()} indents {len(beside)} lines: "
                + " / ".join(repr(line.text[:25]) for line in beside)
            )
    return problems


@dataclass(frozen=True)
class Drawn:
    """A path or an image on the page, in painting order, its bounds in mm."""

    order: int
    kind: str
    box: Box


@cache
def drawings(path: str) -> tuple[Drawn, ...]:
    """Paths and images of a card PDF in the order they are painted (forms followed)."""
    kinds = {pdfium_c.FPDF_PAGEOBJ_PATH: "path", pdfium_c.FPDF_PAGEOBJ_IMAGE: "image"}
    pdf = pypdfium2.PdfDocument(path)
    try:
        page = pdf[0]
        left, _, _, top = page.get_mediabox()
        found = []
        for order, obj in enumerate(page.get_objects(max_depth=15)):
            if obj.type in kinds:
                x0, y0, x1, y1 = obj.get_bounds()
                found.append(
                    Drawn(
                        order,
                        kinds[obj.type],
                        ((x0 - left) / MM, (top - y1) / MM, (x1 - left) / MM, (top - y0) / MM),
                    )
                )
        return tuple(found)
    finally:
        pdf.close()


def box_overlap(a: Box, b: Box) -> float:
    """How far two boxes overlap (mm; negative when apart)."""
    return min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1]))


def centre_in(box: Box, inside: Box) -> bool:
    """Whether a drawing belongs to an element: its centre is in the element's box."""
    return holds(inside, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def mark_count(paths: list[Drawn]) -> int:
    """How many marks the paths draw, whichever way a theme lays them out (side by side,
    one under the other) and however many paths a mark is (a fill and its outline, an
    official drawing's shading): two paths are one mark when the centre of either lies
    in the other's box.  Marks are spaced by more than half their size (else they
    would hide each other), so the centre of one is never in the box of the next."""
    group = list(range(len(paths)))

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for i, a in enumerate(paths):
        for j in range(i):
            b = paths[j]
            if centre_in(a.box, b.box) or centre_in(b.box, a.box):
                group[root(i)] = root(j)
    return len({root(i) for i in range(len(paths))})


def loyalty_problems(pdf: str, page: Page, found: dict[str, dict], loyalty: int) -> list[str]:
    """Loyalty marks: as many as the card has, and nothing painted or printed over them."""
    if not loyalty:
        return []
    if "loyalty" not in found:
        return [f"loyalty {loyalty}, but the report gives no `loyalty` element"]
    box = tuple(found["loyalty"]["box"])
    drawn = drawings(pdf)
    marks = [d for d in drawn if d.kind == "path" and centre_in(d.box, box)]
    problems = []
    if mark_count(marks) < loyalty:
        problems.append(
            f"{mark_count(marks)} loyalty marks drawn in {list(box)}, the card has {loyalty}"
        )
    for mark in marks:
        for later in drawn:
            if (
                later.order > mark.order
                and later not in marks
                and box_overlap(later.box, mark.box) > TOUCH_MM
            ):
                problems.append(
                    f"the loyalty mark at {[round(v, 2) for v in mark.box]} is "
                    f"painted over by a later {later.kind} "
                    f"{[round(v, 2) for v in later.box]}"
                )
        for glyph in page.glyphs:
            if glyph.ink and overlap(glyph, Glyph(0, "", *mark.box, 0, 0)) > TOUCH_MM:
                problems.append(
                    f"the loyalty mark at {[round(v, 2) for v in mark.box]} is "
                    f"under {glyph.describe()}"
                )
    return list(dict.fromkeys(problems))  # a mark of several paths: each problem once


RENDER_PX_MM = 12  # pixels per mm when a check looks at the rendered page (about 300 dpi)
# How far (grey levels) a mark's ink must stand out from its ground to be seen: on the
# default theme's ground (238), what is darker than a light grey (110).
SEEN_CONTRAST = 128


@lru_cache(maxsize=4)
def rendered(path: str) -> Image.Image:
    """The card rendered in grey levels by PDFium, as printed (clips applied)."""
    pdf = pypdfium2.PdfDocument(path)
    try:
        return pdf[0].render(scale=RENDER_PX_MM / MM, grayscale=True).to_pil().convert("L")
    finally:
        pdf.close()


def column_mark_problems(pdf: str, page: Page, found: dict[str, dict]) -> list[str]:
    """Column marks (:mc:, :mic:) are seen beside every line of their paragraph.

    A column mark's drawing is a head and a stem that runs the paragraph's height (its
    bounds in the PDF are tall and narrow); what is *seen* is told by rendering the page:
    beside each line of the paragraph, the mark's column must have ink that stands out
    from the ground (dark on a light ground, light on a dark one: the official look's
    creatures and cities print light text and marks on dark frames).  The ground is the
    text box's, just left of the mark, on the same band.
    """
    if "text" not in found:
        return []
    text_box = tuple(found["text"]["box"])
    columns = [
        mark
        for mark in drawings(pdf)
        if mark.kind == "path"
        and text_box[0] - 0.5 <= mark.box[0] <= text_box[0] + 1.5
        and text_box[1] <= mark.box[1] <= text_box[3]
        and mark.box[3] - mark.box[1] > 3 * (mark.box[2] - mark.box[0])
    ]
    if not columns:
        return []
    lines, _ = text_lines(page, found)
    image = rendered(pdf)
    problems = []
    for mark in columns:
        x0, y0, x1, _ = mark.box
        for line in paragraph_below(y0, lines):
            top, bottom = line.baseline - 0.6 * line.size / MM, line.baseline
            strip = pixels(image, (x0, top, x1, bottom))
            ground = pixels(image, (max(text_box[0], x0 - 1.0), top, x0 - 0.3, bottom))
            assert ground, (
                f"no ground left of the column mark at x {x0:.2f} mm to tell "
                f"whether it is seen (the text box starts at {text_box[0]})"
            )
            level = statistics.median(ground)
            if max((abs(value - level) for value in strip), default=0) < SEEN_CONTRAST:
                problems.append(
                    f"the column mark at x {x0:.2f}-{x1:.2f} mm is not seen "
                    f"beside the line {line.text[:30]!r} (y {top:.2f}-"
                    f"{bottom:.2f} mm): grey levels {strip_range(strip)} on a "
                    f"ground of {level:.0f}"
                )
    return problems


def pixels(image: Image.Image, box: Box) -> list[int]:
    """The grey levels of the rendered page in a box (mm); empty when it has no pixel."""
    x0, y0, x1, y1 = (round(v * RENDER_PX_MM) for v in box)
    if x1 <= x0 or y1 <= y0:
        return []
    crop = image.crop((x0, y0, x1, y1))
    return [crop.getpixel((x, y)) for y in range(crop.height) for x in range(crop.width)]


def strip_range(levels: list[int]) -> str:
    """The darkest and lightest level of a strip, as a failure shows them."""
    return f"{min(levels)}-{max(levels)}" if levels else "none (no pixel)"


def type_line(page: Page, found: dict[str, dict]) -> str:
    """The printed type line: the glyphs in the ``type`` element's box, left to right.

    The box is shared with the faction's name, which no English type word is part of:
    reading the whole box does not depend on telling the two apart.
    """
    box = tuple(found["type"]["box"])
    return "".join(
        g.char
        for g in sorted((g for g in page.glyphs if holds(box, *g.centre)), key=lambda g: g.x0)
    )


# ---- every printed card, read back --------------------------------------------------


@pytest.mark.parametrize(("slug", "lang"), CASES, ids=IDS)
def test_glyphs_inside_the_safe_area(build: Build, slug: str, lang: str) -> None:
    """No glyph within 2 mm of the cut (nor past it: a clipped name runs off the card)."""
    _, page = written(build, slug, lang)
    report(slug, lang, "glyphs outside the TrimBox less 2 mm", safe_area_problems(page))


@pytest.mark.parametrize(("slug", "lang"), CASES, ids=IDS)
def test_glyphs_inside_their_element(build: Build, slug: str, lang: str) -> None:
    """Each glyph lies in the box of the element that holds its centre (0.15 mm)."""
    _, page = written(build, slug, lang)
    report(
        slug,
        lang,
        "glyphs outside their element",
        element_problems(page, elements(build, slug, lang)),
    )


@pytest.mark.parametrize(("slug", "lang"), CASES, ids=IDS)
def test_no_glyph_under_the_smallest_size(build: Build, slug: str, lang: str) -> None:
    """Nothing printed under the build's smallest size (6 pt by default)."""
    entry, page = written(build, slug, lang)
    floor = max(DEFAULT_MIN_PT, float(entry.get("min_size_pt") or DEFAULT_MIN_PT))
    report(slug, lang, f"glyphs under {floor} pt", small_glyph_problems(page, floor))


@pytest.mark.parametrize(("slug", "lang"), CASES, ids=IDS)
def test_element_sizes_are_what_is_printed(build: Build, slug: str, lang: str) -> None:
    """The report's ``size_pt`` of an element is the size of its glyphs."""
    _, page = written(build, slug, lang)
    report(
        slug,
        lang,
        "glyphs of another size than their element's",
        element_size_problems(page, elements(build, slug, lang)),
    )


@pytest.mark.parametrize(("slug", "lang"), CASES, ids=IDS)
def test_lines_do_not_overlap(build: Build, slug: str, lang: str) -> None:
    """No glyph of one line touches a glyph of another (a drop cap is a line of its own)."""
    _, page = written(build, slug, lang)
    report(
        slug, lang, "overlaps between lines", overlap_problems(page, elements(build, slug, lang))
    )


@pytest.mark.parametrize(("slug", "lang"), CASES, ids=IDS)
def test_drop_caps_span_two_lines(build: Build, slug: str, lang: str) -> None:
    """A drop cap indents the first two lines of its paragraph, never a third."""
    _, page = written(build, slug, lang)
    report(
        slug,
        lang,
        "drop caps over more than two lines",
        drop_cap_problems(page, elements(build, slug, lang)),
    )


@pytest.mark.parametrize(
    ("slug", "lang"),
    [c for c in CASES if c[1] != "en"],
    ids=[i for i in IDS if not i.endswith(".en")],
)
def test_no_english_type_on_a_translated_type_line(build: Build, slug: str, lang: str) -> None:
    """A translated card's type line is in its language (*Créature*, *Estaĵo*)."""
    _, page = written(build, slug, lang)
    found = elements(build, slug, lang)
    assert "type" in found, f"{slug}.{lang}: the report gives no `type` element"
    line = type_line(page, found)
    english = TYPE_WORDS.findall(line)
    assert not english, (
        f"{slug}.{lang}: the type line {line!r} prints the English "
        f"{', '.join(english)} (element 'type')"
    )


def card_loyalty(slug: str) -> int:
    """The loyalty of a card, from its English file (translations inherit it)."""
    import yaml

    front = (LIBRARY / f"{slug}.en.md").read_text("utf-8").split("---")[1]
    return int(yaml.safe_load(front).get("loyalty") or 0)


@pytest.mark.parametrize(("slug", "lang"), CASES, ids=IDS)
def test_loyalty_marks_are_seen(build: Build, slug: str, lang: str) -> None:
    """As many loyalty marks as the card has, none painted over (the artwork, a name)."""
    entry, page = written(build, slug, lang)
    report(
        slug,
        lang,
        "loyalty mark problems",
        loyalty_problems(entry["pdf"], page, elements(build, slug, lang), card_loyalty(slug)),
    )


@pytest.mark.parametrize(("slug", "lang"), CASES, ids=IDS)
def test_column_marks_run_beside_their_lines(build: Build, slug: str, lang: str) -> None:
    """A column mark's stem is seen beside every line of its paragraph (rendered)."""
    entry, page = written(build, slug, lang)
    report(
        slug,
        lang,
        "column mark problems",
        column_mark_problems(entry["pdf"], page, elements(build, slug, lang)),
    )
