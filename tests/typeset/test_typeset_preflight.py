"""translator.pdf.preflight on real PDFs: the sample's card PDFs pass clean, and
each fault, written into a copy of a real card with pikepdf, is found with its page,
card, code and object.  The ink checks render with Ghostscript."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pikepdf
import pytest

from tests.printkit import cmyk_profile
from translator.cli.build import run_preflight
from translator.pdf import preflight as pf
from translator.pdf.sizes import PRESETS, CardSize

MM_PT = 72 / 25.4
ARCMAGE = PRESETS["arcmage"]
CARD = "harbor-lord.fr.pdf"
LABEL = "harbor-lord.fr"  # the build labels each page <slug>.<lang>

cmyk_profile()

needs_gs = pytest.mark.skipif(not pf.ink_available(), reason="apt-get install ghostscript")


@pytest.fixture(scope="module")
def built(french_sample: tuple[Path, list]) -> Path:
    """The sample deck in French, built once for the run (tests/conftest.py): 24 card
    PDFs."""
    out, results = french_sample
    assert len(results) == 24 and all(r.path for r in results)
    return out


Edit = Callable[[pikepdf.Pdf, pikepdf.Page], None]


def broken(built: Path, tmp_path: Path, edit: Edit, name: str = CARD) -> Path:
    """A copy of a real card PDF with ``edit`` applied to it and its page."""
    path = tmp_path / name
    with pikepdf.open(built / name) as pdf:
        edit(pdf, pdf.pages[0])
        pdf.save(path)
    return path


def draw(ops: bytes) -> Edit:
    """An edit drawing ``ops`` over the page, in its default space (the page's own
    content is wrapped in q/Q: WeasyPrint leaves its CTM flipped)."""

    def edit(pdf: pikepdf.Pdf, page: pikepdf.Page) -> None:
        page.contents_add(pdf.make_stream(b"q\n"), prepend=True)
        page.contents_add(pdf.make_stream(b"\nQ\n" + ops), prepend=False)

    return edit


def image(pdf: pikepdf.Pdf, space: object, components: int, size: int = 64) -> pikepdf.Stream:
    return pdf.make_stream(
        zlib.compress(bytes(size * size * components)),
        Type=pikepdf.Name.XObject,
        Subtype=pikepdf.Name.Image,
        Width=size,
        Height=size,
        BitsPerComponent=8,
        ColorSpace=space,
        Filter=pikepdf.Name.FlateDecode,
    )


def add_resource(page: pikepdf.Page, category: str, name: str, value: object) -> None:
    resources = page.obj.Resources
    if category not in resources:
        resources[category] = pikepdf.Dictionary()
    resources[category][name] = value


def found(path: Path, **options: object) -> list[tuple[int, str, str, str]]:
    """(page, card, code, message) of every problem; no render unless asked."""
    options.setdefault("ink", False)
    return [
        (p.page, p.card, p.code, p.message) for p in pf.preflight(path, size=ARCMAGE, **options)
    ]  # type: ignore[arg-type]


# -- the sample passes ------------------------------------------------------------------


@needs_gs
def test_sample_cards_pass_clean(built: Path) -> None:
    paths = sorted(built.glob("*.pdf"))
    out = StringIO()
    assert run_preflight(paths, size=ARCMAGE, out=out) == 0, out.getvalue()
    assert out.getvalue() == "preflight: 24 files, all print-ready, 0 problems\n"
    assert pf.preflight(built / CARD, size=ARCMAGE) == []
    assert pf.preflight(built / CARD, size=None) == []  # nested boxes are enough


# -- colour -----------------------------------------------------------------------------


def test_rgb_operator(built: Path, tmp_path: Path) -> None:
    path = broken(built, tmp_path, draw(b"1 0 0 rg 0 0 10 10 re f 0 1 0 rg 5 5 1 1 re f"))
    assert found(path) == [(1, LABEL, "colour", "rg (DeviceRGB fill) in page content (2 times)")]


def test_gray_operator(built: Path, tmp_path: Path) -> None:
    path = broken(built, tmp_path, draw(b"0.5 G 0 0 m 10 10 l S"))
    assert found(path) == [(1, LABEL, "colour", "G (DeviceGray stroke) in page content")]


def test_rgb_image_and_colour_spaces(built: Path, tmp_path: Path) -> None:
    def edit(pdf: pikepdf.Pdf, page: pikepdf.Page) -> None:
        icc_rgb = pdf.make_stream(b"not read", N=3)
        add_resource(page, "/XObject", "/ImRGB", image(pdf, pikepdf.Name.DeviceRGB, 3))
        add_resource(
            page,
            "/XObject",
            "/Mask",
            pdf.make_stream(
                bytes(8 * 8 // 8),
                Type=pikepdf.Name.XObject,
                Subtype=pikepdf.Name.Image,
                Width=8,
                Height=8,
                BitsPerComponent=1,
                ImageMask=True,
            ),
        )
        add_resource(page, "/ColorSpace", "/CS0", pikepdf.Array([pikepdf.Name.ICCBased, icc_rgb]))
        add_resource(
            page,
            "/ColorSpace",
            "/Reg",
            pikepdf.Array(
                [
                    pikepdf.Name.Separation,
                    pikepdf.Name.All,
                    pikepdf.Name.DeviceCMYK,
                    pdf.make_indirect(
                        pikepdf.Dictionary(
                            FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[1, 1, 1, 1], N=1
                        )
                    ),
                ]
            ),
        )
        draw(
            b"q 10 0 0 10 0 0 cm /ImRGB Do Q q 1 0 0 1 0 0 cm /Mask Do Q "
            b"/CS0 cs 1 0 0 sc /Reg CS 1 SC /DeviceGray cs 0 sc"
        )(pdf, page)

    path = broken(built, tmp_path, edit)
    assert found(path) == [
        (1, LABEL, "colour", "image /ImRGB (DeviceRGB) in page content"),
        (1, LABEL, "colour", "cs /CS0 (ICCBased with N = 3) in page content"),
        (1, LABEL, "colour", "cs /DeviceGray in page content"),
    ]


def test_inline_image_shading_and_group(built: Path, tmp_path: Path) -> None:
    def edit(pdf: pikepdf.Pdf, page: pikepdf.Page) -> None:
        add_resource(
            page,
            "/Shading",
            "/Sh1",
            pikepdf.Dictionary(
                ShadingType=2,
                ColorSpace=pikepdf.Name.DeviceRGB,
                Coords=[0, 0, 10, 0],
                Function=pikepdf.Dictionary(
                    FunctionType=2, Domain=[0, 1], C0=[1, 0, 0], C1=[0, 0, 1], N=1
                ),
            ),
        )
        page.obj.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name.DeviceRGB)
        draw(
            b"q 0.4 0 0 0.4 0 0 cm BI /W 2 /H 2 /CS /RGB /BPC 8 ID\n"
            + bytes(12)
            + b"\nEI Q /Sh1 sh"
        )(pdf, page)

    problems = found(broken(built, tmp_path, edit))
    assert [message for *_, message in problems] == [
        "transparency group of the page is DeviceRGB",
        "inline image (DeviceRGB) in page content",
        "shading /Sh1 (DeviceRGB) in page content",
    ]


def test_form_is_walked_with_its_matrix(built: Path, tmp_path: Path) -> None:
    """RGB inside a nested form, and an image whose resolution the form's /Matrix
    halves: 64 px over 0.2 in is 320 ppi, scaled by 2 it is 160."""

    def edit(pdf: pikepdf.Pdf, page: pikepdf.Page) -> None:
        inner = pdf.make_stream(
            b"1 0 0 RG 0 0 m 1 1 l S 14.4 0 0 14.4 0 0 cm /Im Do",
            Type=pikepdf.Name.XObject,
            Subtype=pikepdf.Name.Form,
            BBox=[0, 0, 100, 100],
            Matrix=[2, 0, 0, 2, 0, 0],
        )
        inner.Resources = pikepdf.Dictionary(
            XObject=pikepdf.Dictionary(Im=image(pdf, pikepdf.Name.DeviceCMYK, 4))
        )
        outer = pdf.make_stream(
            b"/Fm2 Do", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 100, 100]
        )
        outer.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Fm2=inner))
        add_resource(page, "/XObject", "/Fm1", outer)
        draw(b"/Fm1 Do")(pdf, page)

    path = broken(built, tmp_path, edit)
    assert found(path) == [
        (1, LABEL, "colour", "RG (DeviceRGB stroke) in form /Fm2 in form /Fm1"),
        (
            1,
            LABEL,
            "resolution",
            "image /Im (64 x 64 px over 10.2 x 10.2 mm) is 160 x 160 "
            "ppi, below 300 in form /Fm2 in form /Fm1",
        ),
    ]


def test_patterns_soft_masks_spots_and_type3(built: Path, tmp_path: Path) -> None:
    """A tiling pattern's cell and a soft mask's group are content; a shading pattern
    has a colour space; a spot colour is a warning; a Type3 font is self-contained."""

    def edit(pdf: pikepdf.Pdf, page: pikepdf.Page) -> None:
        cell = pdf.make_stream(
            b"0 0 1 rg 0 0 5 5 re f",
            PatternType=1,
            PaintType=1,
            TilingType=1,
            BBox=[0, 0, 10, 10],
            XStep=10,
            YStep=10,
            Resources=pikepdf.Dictionary(),
        )
        add_resource(page, "/Pattern", "/P1", cell)
        add_resource(
            page,
            "/Pattern",
            "/P2",
            pikepdf.Dictionary(
                PatternType=2,
                Shading=pikepdf.Dictionary(
                    ShadingType=2,
                    ColorSpace=pikepdf.Name.DeviceGray,
                    Coords=[0, 0, 10, 0],
                    Function=pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0], C1=[1], N=1),
                ),
            ),
        )
        mask = pdf.make_stream(
            b"0.5 g 0 0 10 10 re f",
            Type=pikepdf.Name.XObject,
            Subtype=pikepdf.Name.Form,
            BBox=[0, 0, 10, 10],
            Group=pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name.DeviceRGB),
        )
        add_resource(
            page,
            "/ExtGState",
            "/GS9",
            pikepdf.Dictionary(SMask=pikepdf.Dictionary(S=pikepdf.Name.Luminosity, G=mask)),
        )
        tint = pdf.make_indirect(
            pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[0, 1, 1, 0], N=1)
        )
        add_resource(
            page,
            "/ColorSpace",
            "/Spot",
            pikepdf.Array(
                [
                    pikepdf.Name.Separation,
                    pikepdf.Name("/PANTONE 485 C"),
                    pikepdf.Name.DeviceCMYK,
                    tint,
                ]
            ),
        )
        glyph = pdf.make_stream(b"0 0 0 1 k 1000 0 0 0 700 700 d1 0 0 700 700 re f")
        add_resource(
            page,
            "/Font",
            "/T3",
            pdf.make_indirect(
                pikepdf.Dictionary(
                    Type=pikepdf.Name.Font,
                    Subtype=pikepdf.Name.Type3,
                    FontBBox=[0, 0, 700, 700],
                    FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
                    CharProcs=pikepdf.Dictionary(a=glyph),
                    Encoding=pikepdf.Dictionary(Differences=[97, pikepdf.Name.a]),
                    FirstChar=97,
                    LastChar=97,
                    Widths=[1000],
                )
            ),
        )
        draw(
            b"/Pattern cs /P1 scn 0 0 20 20 re f /P1 scn 0 0 5 5 re f /P2 scn "
            b"0 0 9 9 re f /GS9 gs /Spot cs 1 scn BT /T3 12 Tf (a) Tj ET"
        )(pdf, page)

    problems = pf.preflight(broken(built, tmp_path, edit), size=ARCMAGE, ink=False)
    assert [(p.severity, p.message) for p in problems] == [
        ("error", "rg (DeviceRGB fill) in pattern /P1"),
        ("error", "pattern /P2 (shading, DeviceGray)"),
        ("error", "soft mask of /GS9 group is DeviceRGB"),
        ("error", "g (DeviceGray fill) in soft mask of /GS9"),
        (
            "warning",
            "cs /Spot (spot colour /PANTONE 485 C, printed as its CMYK "
            "alternate unless the printer has the ink) in page content",
        ),
    ]
    with pikepdf.open(tmp_path / CARD, allow_overwriting_input=True) as pdf:
        del pdf.pages[0].obj["/Contents"]  # nothing drawn: only the spot's warning is left
        pdf.pages[0].contents_add(pdf.make_stream(b"/Spot cs 1 scn 0 0 1 1 re f"))
        pdf.save(tmp_path / CARD)
    out = StringIO()
    assert run_preflight([tmp_path / CARD], size=ARCMAGE, out=out) == 0  # warnings pass
    assert out.getvalue().endswith(
        "the ink) in page content (warning)\npreflight: 1 file, all print-ready, 1 problem\n"
    )


# -- fonts ------------------------------------------------------------------------------


def first_font(page: pikepdf.Page) -> tuple[str, pikepdf.Dictionary]:
    key, font = next(iter(page.Resources.Font.items()))
    return key, font


def test_font_not_embedded(built: Path, tmp_path: Path) -> None:
    names = []

    def edit(_: pikepdf.Pdf, page: pikepdf.Page) -> None:
        key, font = first_font(page)
        del font.DescendantFonts[0].FontDescriptor["/FontFile2"]
        names.append((key, str(font.BaseFont)[1:]))

    path = broken(built, tmp_path, edit)
    [(key, base)] = names
    assert found(path) == [(1, LABEL, "font", f"font {key} {base} is not embedded")]


def test_font_not_subset(built: Path, tmp_path: Path) -> None:
    names = []

    def edit(_: pikepdf.Pdf, page: pikepdf.Page) -> None:
        key, font = first_font(page)
        font.BaseFont = pikepdf.Name("/" + str(font.BaseFont).split("+")[1])
        names.append((key, str(font.BaseFont)[1:]))

    path = broken(built, tmp_path, edit)
    [(key, base)] = names
    assert found(path) == [
        (1, LABEL, "font", f"font {key} {base} is not subset (no ABCDEF+ prefix)")
    ]


# -- boxes and intent -------------------------------------------------------------------


def test_trim_box_moved(built: Path, tmp_path: Path) -> None:
    def edit(_: pikepdf.Pdf, page: pikepdf.Page) -> None:
        x0, y0, x1, y1 = (float(v) for v in page.obj.TrimBox)
        page.obj.TrimBox = [x0 + MM_PT, y0, x1 + MM_PT, y1]

    path = broken(built, tmp_path, edit)
    assert found(path) == [
        (
            1,
            LABEL,
            "boxes",
            "TrimBox is 64.00 x 90.00 mm at 3.00, 2.00 "
            "mm in the BleedBox; arcmage wants 64 x 90 "
            "mm at 2, 2 mm",
        )
    ]
    poker = pf.preflight(built / CARD, size=PRESETS["poker"], ink=False)
    assert [p.code for p in poker] == ["boxes", "boxes"]  # bleed and trim both wrong
    within = CardSize("64.04x90+2", 64.04, 90.0, 2.0)  # 0.04 mm: within 0.05
    assert pf.preflight(built / CARD, size=within, ink=False) == []
    beyond = CardSize("64.1x90+2", 64.1, 90.0, 2.0)
    assert [p.message for p in pf.preflight(built / CARD, size=beyond, ink=False)] == [
        "BleedBox is 68.00 x 94.00 mm; 64.1x90+2 wants 68.1 x 94 mm (the trim and 2 mm bleed)",
        "TrimBox is 64.00 x 90.00 mm at 2.00, 2.00 mm in the BleedBox; 64.1x90+2 wants "
        "64.1 x 90 mm at 2, 2 mm",
    ]


def test_sheet_boxes_are_only_nested(built: Path, tmp_path: Path) -> None:
    def bleed_too_large(_: pikepdf.Pdf, page: pikepdf.Page) -> None:
        page.obj.BleedBox = [0, 0, 1000, 1000]

    def no_trim(_: pikepdf.Pdf, page: pikepdf.Page) -> None:
        del page.obj["/TrimBox"]

    path = broken(built, tmp_path, bleed_too_large)
    assert [p.message for p in pf.preflight(path, size=None, ink=False)] == [
        "BleedBox [0.00 0.00 352.78 352.78] mm is not inside the MediaBox "
        "[0.00 0.00 68.00 94.00] mm"
    ]
    path = broken(built, tmp_path, no_trim)
    assert [p.message for p in pf.preflight(path, size=None, ink=False)] == ["no TrimBox"]


def test_output_intent_missing(built: Path, tmp_path: Path) -> None:
    def edit(pdf: pikepdf.Pdf, _: pikepdf.Page) -> None:
        del pdf.Root["/OutputIntents"]

    path = broken(built, tmp_path, edit)
    [problem] = pf.preflight(path, size=ARCMAGE, ink=False)
    assert (problem.page, problem.card, problem.code, problem.severity) == (
        0,
        "",
        "intent",
        "error",
    )
    assert problem.message == "no output intent (Root /OutputIntents)"


# -- resolution -------------------------------------------------------------------------


def test_artwork_drawn_too_large(built: Path, tmp_path: Path) -> None:
    names = []

    def edit(pdf: pikepdf.Pdf, page: pikepdf.Page) -> None:
        names.extend(page.Resources.XObject.keys())
        page.contents_add(pdf.make_stream(b"4 0 0 4 0 0 cm\n"), prepend=True)

    path = broken(built, tmp_path, edit)
    [name] = names
    [problem] = found(path)
    assert problem[:3] == (1, LABEL, "resolution")
    assert problem[3] == (
        f"image {name} (1200 x 992 px over 227.2 x 187.8 mm) is 134 x 134 ppi, below 300"
    )
    assert found(built / CARD, min_ppi=600)[0][3].endswith("is 537 x 537 ppi, below 600")


# -- ink --------------------------------------------------------------------------------


@needs_gs
def test_over_inked_rectangle(built: Path, tmp_path: Path) -> None:
    """0.9 x 4 is 229 x 4 levels once rendered: 359 %; 0.7 x 4 (280 %) passes."""
    path = broken(
        built,
        tmp_path,
        draw(b"0.9 0.9 0.9 0.9 k 0 0 50 50 re f 0.7 0.7 0.7 0.7 k 100 100 50 50 re f"),
    )
    [problem] = pf.preflight(path, size=ARCMAGE)
    assert (problem.page, problem.card, problem.code) == (1, LABEL, "ink")
    # 50 pt (17.6 mm) square at the bottom left of a 94 mm page: its top left pixel
    # is 76.4 mm from the top, it covers 4.9 % of the page
    assert problem.message == (
        "total ink 359 % at 0.1, 76.5 mm from the top left, over 300 % on 4.9 % of the page"
    )
    assert pf.preflight(path, size=ARCMAGE, ink_limit=360) == []


@needs_gs
def test_ink_is_found_on_its_page_in_a_deck(built: Path, tmp_path: Path) -> None:
    """A deck is rendered by two processes: the page numbers and labels must hold."""
    deck = pikepdf.new()
    slugs = []
    for path in sorted(built.glob("*.pdf")):
        with pikepdf.open(path) as card:
            deck.pages.append(card.pages[0])
            if len(deck.pages) == 1:
                intents = card.make_indirect(card.Root.OutputIntents)
                deck.Root.OutputIntents = deck.copy_foreign(intents)
        slugs.append(path.name.removesuffix(".pdf"))
    deck.Root.PageLabels = pikepdf.Dictionary(
        Nums=pikepdf.Array(
            [
                v
                for i, slug in enumerate(slugs)
                for v in (i, pikepdf.Dictionary(P=pikepdf.String(slug)))
            ]
        )
    )
    page = deck.pages[16]
    page.contents_add(deck.make_stream(b"q\n"), prepend=True)
    page.contents_add(deck.make_stream(b"\nQ 1 1 1 1 k 0 0 20 20 re f"), prepend=False)
    deck.save(tmp_path / "deck.pdf")
    problems = pf.preflight(tmp_path / "deck.pdf", size=ARCMAGE)
    assert [(p.page, p.card, p.code) for p in problems] == [(17, slugs[16], "ink")]
    assert problems[0].message.startswith("total ink 400 % ")


@needs_gs
def test_without_ghostscript_ink_is_a_warning(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page the ink bound cannot decide is left unchecked, with a warning; a card the
    bound proves within the limit needs no Ghostscript at all."""
    monkeypatch.setenv("PATH", "/nonexistent")
    assert not pf.ink_available()
    assert pf.preflight(built / CARD, size=ARCMAGE) == []
    over = tmp_path / "over.pdf"
    with pikepdf.new() as pdf:
        pdf.add_blank_page(page_size=(100, 100))
        pdf.pages[0].obj.Contents = pdf.make_stream(b"0.9 0.9 0.9 0.9 k 0 0 100 100 re f")
        pdf.save(over)
    [problem] = [p for p in pf.preflight(over, min_ppi=1) if p.code == "ink"]
    assert (problem.page, problem.code, problem.severity) == (0, "ink", "warning")
    assert "apt-get install ghostscript" in problem.message
    assert run_preflight([built / CARD], size=ARCMAGE, out=StringIO()) == 0


# -- files and the report ---------------------------------------------------------------


def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "garbage.pdf"
    path.write_bytes(b"%PDF-1.7\n\x00\x01 garbage, not a PDF \xff" * 20)
    [problem] = pf.preflight(path)
    assert (problem.path, problem.page, problem.code, problem.severity) == (
        str(path),
        0,
        "unreadable",
        "error",
    )
    assert problem.message.startswith("not a readable PDF: ")
    [missing] = pf.preflight(tmp_path / "missing.pdf")
    assert missing.code == "unreadable"


def test_unreadable_page(built: Path, tmp_path: Path) -> None:
    def edit(_: pikepdf.Pdf, page: pikepdf.Page) -> None:
        page.obj.Contents.write(b"x\x9c not deflated", filter=pikepdf.Name.FlateDecode)

    [problem] = pf.preflight(broken(built, tmp_path, edit), size=ARCMAGE, ink=False)
    assert (problem.page, problem.card, problem.code) == (1, LABEL, "unreadable")
    assert problem.message.startswith("the page cannot be read: ")


@needs_gs
def test_run_reports_and_exit_codes(built: Path, tmp_path: Path) -> None:
    bad = broken(built, tmp_path, draw(b"1 0 0 rg 0 0 10 10 re f"))
    garbage = tmp_path / "garbage.pdf"
    garbage.write_bytes(b"garbage")
    out = StringIO()
    assert run_preflight([built / CARD, bad, garbage], size=ARCMAGE, out=out) == 1
    assert out.getvalue().splitlines() == [
        f"{bad}:1 ({LABEL}): colour: rg (DeviceRGB fill) in page content",
        f"{garbage}: unreadable: not a readable PDF: "
        + pf.preflight(garbage)[0].message.removeprefix("not a readable PDF: "),
        "preflight: 3 files, 2 not print-ready, 2 problems",
    ]
    out = StringIO()
    assert run_preflight([built / CARD, bad], size=ARCMAGE, fmt="json", out=out) == 1
    document = json.loads(out.getvalue())
    assert document["version"] == 1
    assert document["summary"] == {"files": 2, "failed": 1, "problems": 1}
    good, failed = document["files"]
    assert good == {"path": str(built / CARD), "pages": 1, "ok": True, "problems": []}
    assert failed["ok"] is False and failed["pages"] == 1
    assert failed["problems"] == [
        {
            "path": str(bad),
            "page": 1,
            "card": LABEL,
            "code": "colour",
            "severity": "error",
            "message": "rg (DeviceRGB fill) in page content",
        }
    ]
    assert run_preflight([built / CARD], size=ARCMAGE, fmt="json", out=StringIO()) == 0
    with pytest.raises(ValueError, match="unknown format"):
        run_preflight([built / CARD], size=ARCMAGE, fmt="xml")


def test_card_is_the_title_or_the_stem_without_a_label(built: Path, tmp_path: Path) -> None:
    def no_label(pdf: pikepdf.Pdf, page: pikepdf.Page) -> None:
        del pdf.Root["/PageLabels"]
        draw(b"1 0 0 rg")(pdf, page)

    def no_title(pdf: pikepdf.Pdf, page: pikepdf.Page) -> None:
        del pdf.trailer["/Info"]
        no_label(pdf, page)

    assert found(broken(built, tmp_path, no_label))[0][1] == "Seigneur du port (fr)"
    path = broken(built, tmp_path, no_title, name="courier.fr.pdf")
    assert found(path) == [(1, "courier.fr", "colour", "rg (DeviceRGB fill) in page content")]


def test_repeated_pages_each_get_the_verdict(built: Path, tmp_path: Path) -> None:
    """A page repeated in a deck (the same content and resources) is walked once, and
    every copy is reported under its own page number."""
    card = broken(built, tmp_path, draw(b"1 0 0 rg 0 0 10 10 re f"))
    deck = tmp_path / "deck.pdf"
    with pikepdf.open(card) as source, pikepdf.new() as pdf:
        pdf.pages.append(source.pages[0])
        pdf.pages.append(pdf.pages[0])  # a copy sharing contents and resources
        # Numbered labels ("copy-1", "copy-2") are read as a viewer shows them.
        pdf.Root.PageLabels = pikepdf.Dictionary(
            Nums=pikepdf.Array([0, pikepdf.Dictionary(S=pikepdf.Name.D, P=pikepdf.String("copy-"))])
        )
        pdf.save(deck)
    assert [(page, card, code) for page, card, code, _ in found(deck)] == [
        (0, "", "intent"),
        (1, "copy-1", "colour"),
        (2, "copy-2", "colour"),
    ]


def test_content_false_checks_only_boxes_and_intent(built: Path, tmp_path: Path) -> None:
    def edit(pdf: pikepdf.Pdf, page: pikepdf.Page) -> None:
        draw(b"1 0 0 rg 0 0 10 10 re f")(pdf, page)
        del pdf.Root.OutputIntents

    path = broken(built, tmp_path, edit)
    [problems] = pf.preflight_files([path], size=ARCMAGE, ink=False, content=False)
    assert [p.code for p in problems] == ["intent"]
    [problems] = pf.preflight_files([path], size=ARCMAGE, ink=False)
    assert [p.code for p in problems] == ["intent", "colour"]
    with pytest.raises(ValueError, match="content=False needs ink=False"):
        pf.preflight_files([path], content=False)


def test_paint_before_any_colour_is_grey(built: Path, tmp_path: Path) -> None:
    """The initial colour space is DeviceGray: a path filled, or text shown, before
    any colour is chosen prints in grey black, though no operator says so."""

    def edit(pdf: pikepdf.Pdf, page: pikepdf.Page) -> None:
        page.contents_add(pdf.make_stream(b"q 0 0 10 10 re f Q\n"), prepend=True)

    path = broken(built, tmp_path, edit)
    assert found(path) == [
        (
            1,
            LABEL,
            "colour",
            "f paints in the initial DeviceGray (no colour chosen before it) in page content",
        )
    ]
    # Chosen in CMYK first, inside q ... Q: fine there, grey again after Q.
    (tmp_path / "ok").mkdir()
    ok = broken(built, tmp_path / "ok", draw(b"q 0 0 0 1 k 0 0 10 10 re f Q"))
    assert found(ok) == []
    (tmp_path / "again").mkdir()
    again = broken(built, tmp_path / "again", draw(b"q 0 0 0 1 k Q 0 0 10 10 re f"))
    assert [code for _, _, code, _ in found(again)] == ["colour"]
