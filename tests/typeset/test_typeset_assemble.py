"""Decks and print-and-play sheets (translator.typeset.assemble), made from real card
PDFs of the sample: the card back's boxes and colours, a deck's page order, labels
and size, and the sheets' placement, crop marks (CMYK, never on a card) and mirrored
back sheets, checked on the PDF's objects and on a pypdfium2 render."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pypdfium2
import pytest
from PIL import Image

from tests.lintkit import SAMPLE
from tests.printkit import cmyk_profile
from translator import cards
from translator.pdf.sizes import PRESETS, card_size
from translator.typeset import assemble
from translator.typeset import build as typeset
from translator.typeset.options import BuildOptions
from translator.typeset.render import Renderer
from translator.typeset.theme import ThemeError, load_theme

MM_PT = 72 / 25.4
SIZE = PRESETS["arcmage"]
SLUGS = ["courier", "flame-lash", "harbor-lord", "mossgate", "grave-lantern"]
RGB_OPERATORS = {"rg", "RG", "g", "G", "sc", "SC"}

PROFILE = cmyk_profile()
pytestmark = pytest.mark.slow  # card PDFs rendered, decks and sheets assembled


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Five cards of the sample in English and the default card back, made once."""
    out = tmp_path_factory.mktemp("cards")
    library, problems = cards.load_library([str(SAMPLE)])
    assert not problems
    options = BuildOptions(SIZE, jobs=1, cache_dir=out / "cache")
    results = typeset.build_cards(library, "en", out, options, slugs=SLUGS)
    assert all(r.path for r in results), results
    paths = {r.slug: Path(r.path) for r in results if r.path}
    renderer = Renderer(load_theme(), SIZE, [out])
    paths["back"] = assemble.render_back(renderer, out / "back.pdf", PROFILE)
    return paths


def operators(stream: object) -> list[tuple[list, str]]:
    return [(list(operands), str(op)) for operands, op in pikepdf.parse_content_stream(stream)]


def colour_use(pdf: pikepdf.Pdf) -> tuple[set[str], set[str]]:
    """Operators used and colour spaces set in every page and Form XObject (nested)."""
    used: set[str] = set()
    spaces: set[str] = set()
    seen: set[tuple[int, int]] = set()

    def walk(stream: pikepdf.Object, resources: pikepdf.Object) -> None:
        for operands, operator in operators(stream):
            used.add(operator)
            if operator in ("cs", "CS"):
                spaces.add(str(operands[0]))
        for xobject in resources.get("/XObject", {}).values():
            if xobject.objgen in seen:
                continue
            seen.add(xobject.objgen)
            if xobject.Subtype == "/Form":
                walk(xobject, xobject.get("/Resources", pikepdf.Dictionary()))
            else:
                spaces.add(str(xobject.get("/ColorSpace")))

    for page in pdf.pages:
        walk(page, page.Resources)
    return used, spaces


def labels(path: Path) -> list[str]:
    document = pypdfium2.PdfDocument(str(path))
    try:
        return [document.get_page_label(i) for i in range(len(document))]
    finally:
        document.close()


def placements(
    pdf: pikepdf.Pdf, page: pikepdf.Page
) -> list[tuple[tuple[float, ...], tuple[float, ...], tuple[int, int]]]:
    """For each card drawn on a sheet: its clip rectangle (x0, y0, x1, y1), where its
    TrimBox lands (x0, y0, x1, y1), and which Form XObject it is."""
    found = []
    clip: tuple[float, ...] = ()
    shift = (0.0, 0.0)
    for operands, operator in operators(page):
        if operator == "re":
            x, y, w, h = (float(v) for v in operands)
            clip = (x, y, x + w, y + h)
        elif operator == "cm":
            shift = (float(operands[4]), float(operands[5]))
        elif operator == "Do":
            form = page.Resources.XObject[str(operands[0])]
            source = [float(v) for v in form.BBox]
            trim_w, trim_h = SIZE.width * MM_PT, SIZE.height * MM_PT
            bleed = SIZE.bleed * MM_PT
            x0, y0 = source[0] + bleed + shift[0], source[1] + bleed + shift[1]
            found.append((clip, (x0, y0, x0 + trim_w, y0 + trim_h), form.objgen))
    return found


def marks(page: pikepdf.Page) -> tuple[list[tuple[float, float, float, float]], set[str]]:
    """The line segments the sheet's own content stream strokes, and its colour
    operators (the cards are Form XObjects, outside this stream)."""
    segments, colours, start = [], set(), (0.0, 0.0)
    for operands, operator in operators(page):
        if operator in {"K", "k", "CS", "cs", "SC", "sc", "SCN", "scn"} | RGB_OPERATORS:
            colours.add(f"{' '.join(str(v) for v in operands)} {operator}")
        if operator == "m":
            start = (float(operands[0]), float(operands[1]))
        elif operator == "l":
            segments.append((*start, float(operands[0]), float(operands[1])))
    return segments, colours


def crosses(
    segment: tuple[float, float, float, float], box: tuple[float, ...], margin: float = 0.0
) -> bool:
    """Whether an axis-aligned segment touches ``box`` grown by ``margin``."""
    x0, y0, x1, y1 = segment
    bx0, by0, bx1, by1 = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    return min(x0, x1) <= bx1 and max(x0, x1) >= bx0 and min(y0, y1) <= by1 and max(y0, y1) >= by0


# --------------------------------------------------------------------------- the back


def test_the_back_is_a_card_sized_cmyk_page(made: dict[str, Path]) -> None:
    with pikepdf.open(made["back"]) as back, pikepdf.open(made["courier"]) as card:
        assert len(back.pages) == 1
        for box in ("/MediaBox", "/BleedBox", "/TrimBox"):
            assert [float(v) for v in back.pages[0].obj[box]] == pytest.approx(
                [float(v) for v in card.pages[0].obj[box]], abs=0.01
            ), box
        trim = [float(v) for v in back.pages[0].TrimBox]
        assert trim[2] - trim[0] == pytest.approx(64 * MM_PT, abs=0.01)
        assert trim[0] == pytest.approx(2 * MM_PT, abs=0.01)
        used, spaces = colour_use(back)
        assert not used & RGB_OPERATORS and "sh" not in used
        assert spaces == {"/DeviceCMYK"}
        resources = back.pages[0].Resources
        assert not resources.get("/Shading") and not resources.get("/Pattern")
        assert all(
            float(state.get("/ca", 1)) == 1 and float(state.get("/CA", 1)) == 1
            for state in resources.get("/ExtGState", {}).values()
        )
        for font in resources.Font.values():  # the game's name in the card font
            descriptor = font.get("/FontDescriptor") or font.DescendantFonts[0].FontDescriptor
            assert "+Card-Text" in str(descriptor.FontName)
        assert back.Root.OutputIntents[0].DestOutputProfile.N == 4


def test_the_back_design_is_drawn_edge_to_edge(made: dict[str, Path]) -> None:
    document = pypdfium2.PdfDocument(str(made["back"]))
    image = document[0].render(scale=100 / 72).to_pil().convert("RGB")
    document.close()
    corner, middle = (
        image.getpixel((2, 2)),
        image.getpixel((image.width // 2, image.height // 2 - 20)),
    )
    assert max(corner) < 90, corner  # the dark ground covers the bleed
    assert middle[0] > 150 and middle[2] < 120, middle  # the gold star
    assert len(image.getcolors(1 << 20) or ()) > 50


def test_a_theme_may_print_its_own_image_as_the_back(made: dict[str, Path], tmp_path: Path) -> None:
    theme = tmp_path / "theme"
    theme.mkdir()
    Image.new("RGB", (800, 1100), (200, 30, 30)).save(theme / "back.png")
    (theme / "theme.yaml").write_text("name: red\nback: back.png\n", "utf-8")
    renderer = Renderer(load_theme(theme), SIZE, [tmp_path])
    warnings: list[str] = []
    out = assemble.render_back(renderer, tmp_path / "back.pdf", PROFILE, warnings)
    assert warnings and "ppi" in warnings[0]  # 800 px over 68 mm: about 300 ppi is wanted
    with pikepdf.open(out) as pdf:
        images = [x for x in pdf.pages[0].Resources.XObject.values() if x.Subtype == "/Image"]
        assert len(images) == 1 and images[0].ColorSpace == "/DeviceCMYK"
        used, _ = colour_use(pdf)
        assert not used & RGB_OPERATORS and "Tj" not in used and "TJ" not in used
    document = pypdfium2.PdfDocument(str(out))
    image = document[0].render(scale=50 / 72).to_pil().convert("RGB")
    document.close()
    for point in ((0, 0), (image.width - 1, image.height - 1)):  # full bleed
        red, green, blue = image.getpixel(point)
        assert red > 150 and green < 100 and blue < 100, point

    (theme / "theme.yaml").write_text("back: ../elsewhere.jpg\n", "utf-8")
    with pytest.raises(ThemeError, match="outside the theme"):
        assemble.render_back(Renderer(load_theme(theme), SIZE, []), tmp_path / "x.pdf", PROFILE)
    (theme / "theme.yaml").write_text("back: missing.jpg\n", "utf-8")
    with pytest.raises(ThemeError, match="does not exist"):
        assemble.render_back(Renderer(load_theme(theme), SIZE, []), tmp_path / "x.pdf", PROFILE)


# ------------------------------------------------------------------------------ decks


def deck_items(made: dict[str, Path], quantities: dict[str, int]) -> list:
    return [(f"{slug}.en", count, made[slug]) for slug, count in quantities.items()]


def test_a_duplex_deck_repeats_each_card_and_follows_it_with_the_back(
    made: dict[str, Path], tmp_path: Path
) -> None:
    items = deck_items(made, {"mossgate": 2, "courier": 1, "flame-lash": 3})
    out = assemble.deck_pdf(items, made["back"], tmp_path / "deck.pdf", PROFILE)
    assert (
        labels(out)
        == [
            "mossgate.en",
            "mossgate.en back",
            "mossgate.en",
            "mossgate.en back",
            "courier.en",
            "courier.en back",
            "flame-lash.en",
            "flame-lash.en back",
        ]
        + ["flame-lash.en", "flame-lash.en back"] * 2
    )
    with pikepdf.open(out) as deck, pikepdf.open(made["courier"]) as courier:
        pages = deck.pages
        assert len(pages) == 12
        # A repeated page is the same content and resources, not a copy.
        assert pages[0].obj.Contents.objgen == pages[2].obj.Contents.objgen
        assert pages[0].obj.Resources.objgen == pages[2].obj.Resources.objgen
        assert len({pages[i].obj.Contents.objgen for i in range(1, 12, 2)}) == 1
        assert len({pages[i].obj.Contents.objgen for i in range(0, 12, 2)}) == 3
        assert [float(v) for v in pages[4].TrimBox] == [float(v) for v in courier.pages[0].TrimBox]
        assert deck.Root.OutputIntents[0].S == "/GTS_PDFX"
        images = {x.objgen for p in pages for x in p.Resources.XObject.values()}
        assert len(images) == 3  # one artwork per card, however many copies
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # atomic


def test_backs_at_the_end_or_none(made: dict[str, Path], tmp_path: Path) -> None:
    items = deck_items(made, {"mossgate": 2, "courier": 1, "harbor-lord": 0})
    out = assemble.deck_pdf(items, made["back"], tmp_path / "deck.pdf", PROFILE, backs="end")
    assert labels(out) == [
        "mossgate.en",
        "mossgate.en",
        "courier.en",
        "mossgate.en back",
        "mossgate.en back",
        "courier.en back",
    ]
    out = assemble.deck_pdf(items, made["back"], tmp_path / "fronts.pdf", PROFILE, backs="none")
    assert labels(out) == ["mossgate.en", "mossgate.en", "courier.en"]


def test_a_deck_grows_little_with_quantities(made: dict[str, Path], tmp_path: Path) -> None:
    one = (
        assemble.deck_pdf(
            deck_items(made, {"courier": 1}), made["back"], tmp_path / "one.pdf", PROFILE
        )
        .stat()
        .st_size
    )
    many = (
        assemble.deck_pdf(
            deck_items(made, {"courier": 30}), made["back"], tmp_path / "many.pdf", PROFILE
        )
        .stat()
        .st_size
    )
    assert one > 100_000  # the artwork
    assert many - one < 29 * 1000, (one, many)  # under 1 KB a front and back pair


def test_a_deck_refuses_what_cannot_print(made: dict[str, Path], tmp_path: Path) -> None:
    items = deck_items(made, {"courier": 1})
    with pytest.raises(ValueError, match="order of backs"):
        assemble.deck_pdf(items, made["back"], tmp_path / "d.pdf", PROFILE, backs="odd")
    with pytest.raises(ValueError, match="no card"):
        assemble.deck_pdf(
            deck_items(made, {"courier": 0}), made["back"], tmp_path / "d.pdf", PROFILE
        )
    poker = Renderer(load_theme(), card_size("poker"), [])
    other = assemble.render_back(poker, tmp_path / "poker-back.pdf", PROFILE)
    with pytest.raises(ValueError, match=r"courier\.en: .*not the size of the card back"):
        assemble.deck_pdf(items, other, tmp_path / "d.pdf", PROFILE)
    assert not (tmp_path / "d.pdf").exists()


# ----------------------------------------------------------------------------- sheets


def sheet_cards(made: dict[str, Path], count: int) -> list[tuple[str, Path]]:
    return [(f"{SLUGS[i % len(SLUGS)]}.en", made[SLUGS[i % len(SLUGS)]]) for i in range(count)]


@pytest.mark.parametrize(
    ("paper", "width_mm", "height_mm"), [("a4", 210, 297), ("letter", 215.9, 279.4)]
)
def test_sheets_place_nine_cards_at_exact_size(
    made: dict[str, Path], tmp_path: Path, paper: str, width_mm: float, height_mm: float
) -> None:
    out = assemble.sheets_pdf(sheet_cards(made, 11), tmp_path / "s.pdf", PROFILE, SIZE, paper)
    assert labels(out) == ["sheet 1", "sheet 2"]
    with pikepdf.open(out) as pdf:
        assert len(pdf.pages) == 2
        width, height = width_mm * MM_PT, height_mm * MM_PT
        for page in pdf.pages:
            assert [float(v) for v in page.MediaBox] == pytest.approx(
                [0, 0, width, height], abs=0.01
            )
        placed = placements(pdf, pdf.pages[0])
        assert len(placed) == 9 and len(placements(pdf, pdf.pages[1])) == 2
        left = (width - 3 * 64 * MM_PT) / 2
        top = height - (height - 3 * 90 * MM_PT) / 2
        for index, (clip, trim, _) in enumerate(placed):
            row, column = divmod(index, 3)
            x0 = left + column * 64 * MM_PT
            y1 = top - row * 90 * MM_PT
            assert trim == pytest.approx((x0, y1 - 90 * MM_PT, x0 + 64 * MM_PT, y1), abs=0.01)
            assert clip == pytest.approx(trim, abs=0.01)  # no gutter: cut at the trim
        # A card printed twice is one Form XObject.
        forms = [objgen for _, _, objgen in placed]
        assert forms[0] == forms[5] and len(set(forms)) == 5
        used, spaces = colour_use(pdf)
        assert not used & RGB_OPERATORS
        assert spaces == {"/DeviceCMYK"}
        assert pdf.Root.OutputIntents[0].DestOutputProfile.N == 4


@pytest.mark.parametrize("gutter", [0.0, 2.0, 3.0, 5.0])
def test_crop_marks_are_black_ink_outside_every_card(
    made: dict[str, Path], tmp_path: Path, gutter: float
) -> None:
    out = assemble.sheets_pdf(
        sheet_cards(made, 7), tmp_path / "s.pdf", PROFILE, SIZE, "a4", gutter, backs=made["back"]
    )
    with pikepdf.open(out) as pdf:
        for page in pdf.pages:
            segments, colours = marks(page)
            # Black, and paper white (no ink) under the marks drawn over a bleed.
            assert "0 0 0 1 K" in colours <= {"0 0 0 1 K", "0 0 0 0 K"}
            found = operators(page)
            assert ["0.25"] in [[str(v) for v in operands] for operands, op in found if op == "w"]
            # The marks come last: nothing is drawn over them.
            last_do = max(i for i, (_, op) in enumerate(found) if op == "Do")
            assert all(i > last_do for i, (_, op) in enumerate(found) if op == "S")
            trims = [trim for _, trim, _ in placements(pdf, page)]
            assert segments
            for segment in segments:  # never over a trim (over the bleed in gutters)
                assert not any(crosses(segment, trim, 0.49 * MM_PT) for trim in trims), segment
                length = abs(segment[2] - segment[0]) + abs(segment[3] - segment[1])
                assert length >= 0.99 * MM_PT
            # Every trim line of every card is marked somewhere.
            for _, trim, _ in placements(pdf, page):
                for x in (trim[0], trim[2]):
                    assert any(s[0] == pytest.approx(x, abs=0.01) == s[2] for s in segments)
                for y in (trim[1], trim[3]):
                    assert any(s[1] == pytest.approx(y, abs=0.01) == s[3] for s in segments)


def test_gutters_space_the_cards_and_show_some_bleed(made: dict[str, Path], tmp_path: Path) -> None:
    for gutter, shown in ((3.0, 1.5), (5.0, 2.0)):
        out = assemble.sheets_pdf(
            sheet_cards(made, 9), tmp_path / "s.pdf", PROFILE, SIZE, "a4", gutter
        )
        with pikepdf.open(out) as pdf:
            placed = placements(pdf, pdf.pages[0])
        first, second, below = placed[0][1], placed[1][1], placed[3][1]
        assert second[0] - first[2] == pytest.approx(gutter * MM_PT, abs=0.01)
        assert first[1] - below[3] == pytest.approx(gutter * MM_PT, abs=0.01)
        for clip, trim, _ in placed:
            assert clip == pytest.approx(
                (
                    trim[0] - shown * MM_PT,
                    trim[1] - shown * MM_PT,
                    trim[2] + shown * MM_PT,
                    trim[3] + shown * MM_PT,
                ),
                abs=0.01,
            )
        # Centred on the sheet.
        assert placed[0][1][0] == pytest.approx(210 * MM_PT - placed[2][1][2], abs=0.01)


def test_back_sheets_mirror_the_fronts(made: dict[str, Path], tmp_path: Path) -> None:
    out = assemble.sheets_pdf(
        sheet_cards(made, 10), tmp_path / "s.pdf", PROFILE, SIZE, "letter", 2.0, backs=made["back"]
    )
    assert labels(out) == ["sheet 1", "sheet 1 back", "sheet 2", "sheet 2 back"]
    with pikepdf.open(out) as pdf:
        width = float(pdf.pages[0].MediaBox[2])
        for front, back in ((0, 1), (2, 3)):
            fronts = placements(pdf, pdf.pages[front])
            backs = placements(pdf, pdf.pages[back])
            assert len(backs) == len(fronts)
            assert len({objgen for _, _, objgen in backs}) == 1
            for (_, trim, _), (_, behind, _) in zip(fronts, backs, strict=True):
                # The sheet turned over its long (vertical) edge: x mirrored, y kept.
                assert behind == pytest.approx(
                    (width - trim[2], trim[1], width - trim[0], trim[3]), abs=0.01
                )
        # The second sheet has one card, top left: its back is top right.
        ((_, only, _),) = placements(pdf, pdf.pages[3])
        assert only[0] > width / 2


def test_a_rendered_sheet_shows_cards_and_marks_where_expected(
    made: dict[str, Path], tmp_path: Path
) -> None:
    out = assemble.sheets_pdf(sheet_cards(made, 9), tmp_path / "s.pdf", PROFILE, SIZE, "a4")
    document = pypdfium2.PdfDocument(str(out))
    dpi = 100
    image = document[0].render(scale=dpi / 72).to_pil().convert("L")
    document.close()
    assert abs(image.width - 210 / 25.4 * dpi) <= 1 and abs(image.height - 297 / 25.4 * dpi) <= 1

    def pixel(x_mm: float, y_mm: float) -> int:  # from the top left corner
        return image.getpixel((round(x_mm / 25.4 * dpi), round(y_mm / 25.4 * dpi)))

    left, top = (210 - 192) / 2, (297 - 270) / 2
    assert pixel(left + 1, top + 1) < 245  # the first card's corner (its ground)
    assert pixel(left + 191, top + 269) < 245  # the last card's corner
    assert pixel(left - 1.5, top + 45) == 255  # the margin, away from marks
    # A mark in the top margin along the first card's right trim line: darker than the
    # paper (a 0.25 pt line, anti-aliased at 100 dpi).
    column = round((left + 64) / 25.4 * dpi)
    rows = range(round((top - 5) / 25.4 * dpi), round((top - 1) / 25.4 * dpi))
    assert (
        min(min(image.getpixel((x, y)) for x in (column - 1, column, column + 1)) for y in rows)
        < 200
    )


def test_sheets_refuse_what_cannot_print(made: dict[str, Path], tmp_path: Path) -> None:
    cards_ = sheet_cards(made, 2)
    with pytest.raises(ValueError, match="do not fit on letter"):
        assemble.sheets_pdf(cards_, tmp_path / "s.pdf", PROFILE, SIZE, "letter", 5.0)
    with pytest.raises(ValueError, match="unknown paper"):
        assemble.sheets_pdf(cards_, tmp_path / "s.pdf", PROFILE, SIZE, "a3")
    with pytest.raises(ValueError, match="0 or more"):
        assemble.sheets_pdf(cards_, tmp_path / "s.pdf", PROFILE, SIZE, "a4", -1)
    with pytest.raises(ValueError, match=r"courier\.en: its trim is 64\.00 x 90\.00 mm"):
        assemble.sheets_pdf(cards_, tmp_path / "s.pdf", PROFILE, card_size("poker"))
    with pytest.raises(ValueError, match="no card"):
        assemble.sheets_pdf([], tmp_path / "s.pdf", PROFILE, SIZE)
    assert not list(tmp_path.iterdir())


def test_crop_marks_beside_an_empty_place_and_in_gutters() -> None:
    page = (210 * MM_PT, 297 * MM_PT)
    slots = assemble.sheet_slots(SIZE, "a4")
    one = assemble.crop_marks(slots[:1], page)
    trim = slots[0].trim
    # Four trim lines, each marked on both sides of the card: into the margin and into
    # the empty places, MARK_LENGTH mm long, from MARK_OFFSET mm off the card.
    assert len(one) == 8
    for x0, y0, x1, y1 in one:
        assert abs(x1 - x0) + abs(y1 - y0) == pytest.approx(assemble.MARK_LENGTH * MM_PT)
        assert not crosses((x0, y0, x1, y1), slots[0].visible, 0.49 * MM_PT)
    assert {round(x0, 2) for x0, _, x1, _ in one if x0 == x1} == {
        round(trim[0], 2),
        round(trim[2], 2),
    }
    # A full sheet without gutter: marks in the margins only, one per line and side.
    assert len(assemble.crop_marks(slots, page)) == 4 * 2 * 2

    slots = assemble.sheet_slots(SIZE, "a4", 5.0)  # bleed 2 mm shown, 1 mm between
    full = assemble.crop_marks(slots, page)
    # In a gutter a mark runs between two cards' corners, less the offsets: 5 - 2 x 0.5
    # mm, over the bleed shown (cut away), never over a trim.
    inner = [s for s in full if s[0] == s[2] and slots[3].trim[3] < s[1] < slots[0].trim[1]]
    assert len(inner) == 6
    assert all(abs(s[3] - s[1]) == pytest.approx(4 * MM_PT, abs=0.01) for s in inner)
    # The sheet's side margins (4 mm) hold marks of 3.5 mm, from 0.5 mm off the cards.
    side = [s for s in full if min(s[0], s[2]) < slots[0].trim[0]]
    assert len(side) == 6 and all(
        abs(s[2] - s[0]) == pytest.approx(3.5 * MM_PT, abs=0.01) for s in side
    )
    for segment in full:
        assert not any(crosses(segment, s.trim, 0.49 * MM_PT) for s in slots)
    assert assemble.mirrored(slots[0], slots) is slots[2]
    assert assemble.mirrored(slots[4], slots) is slots[4]


def test_images_of_the_same_bytes_and_dictionary_are_stored_once() -> None:
    """A deck holds each image once (share_images): the same bytes and dictionary are
    one object, a form's image included; the same dictionary with other bytes, or the
    same bytes with another dictionary, stay apart."""
    pdf = pikepdf.new()

    def image(data: bytes, width: int = 2) -> pikepdf.Stream:
        return pdf.make_stream(
            data,
            Type=pikepdf.Name.XObject,
            Subtype=pikepdf.Name.Image,
            Width=width,
            Height=1,
            ColorSpace=pikepdf.Name.DeviceGray,
            BitsPerComponent=8,
        )

    def page(resources: pikepdf.Dictionary) -> pikepdf.Object:
        pdf.add_blank_page()
        pdf.pages[-1].obj.Resources = resources
        return pdf.pages[-1].obj

    a, a_again, other_bytes, other_size = image(b"ab"), image(b"ab"), image(b"ac"), image(b"ab", 1)
    form = pdf.make_stream(
        b"/X Do",
        Type=pikepdf.Name.XObject,
        Subtype=pikepdf.Name.Form,
        BBox=[0, 0, 1, 1],
        Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(X=image(b"ab"))),
    )
    pages = [
        page(pikepdf.Dictionary(XObject=pikepdf.Dictionary(I=a))),
        page(pikepdf.Dictionary(XObject=pikepdf.Dictionary(I=a_again, J=other_bytes))),
        page(pikepdf.Dictionary(XObject=pikepdf.Dictionary(I=other_size, F=form))),
    ]
    assert assemble.share_images(pdf) == 2
    first = pages[0].Resources.XObject.I.objgen
    assert pages[1].Resources.XObject.I.objgen == first
    assert pages[1].Resources.XObject.J.objgen != first
    assert pages[2].Resources.XObject.I.objgen != first
    assert pages[2].Resources.XObject.F.Resources.XObject.X.objgen == first
