"""Decks and print-and-play sheets that are never incomplete in silence: a card that
cannot be printed keeps its deck and sheet files from being made (and removes the old
ones, its old PDF and previews), said in the summary; sheets keep the printer's
unprintable margin, with crop marks on every side of every card, checked on the
written PDF for A4 and Letter with Arcmage and poker cards; the preflight knows a sheet
from a card and refuses a missing input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pikepdf
import pytest

from tests.lintkit import copy_sample, edit, run
from tests.printkit import cmyk_profile
from translator.pdf.sizes import MM_PT, PRESETS
from translator.typeset import assemble, manifest

cmyk_profile()
pytestmark = pytest.mark.slow  # builds with decks, sheets and previews

#: Nine copies in the sample deck (2 + 2 + 2 + 1 + 1 + 1): one full sheet.
CARDS = ["courier", "harbor-lord", "flame-lash", "mossgate", "saltmere", "grave-lantern"]
SELECT = [arg for slug in CARDS for arg in ("--card", slug)]
OUTPUTS = ("--deck", "--sheets", "a4", "--png", "--webp", "--dpi", "24", "--jobs", "1")
#: Far too long for the text box, even at the floor.
TOO_LONG = "Une ressource de moins pour chaque carte que tu contrôles. " * 40


def build(library: Path, out: Path, *extra: str) -> tuple[int, str]:
    return run("build", str(library), "--out", str(out), *SELECT, *extra)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_sample(tmp_path_factory.mktemp("sheets"))


@pytest.fixture(scope="module")
def built(library: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six cards in French and English with decks, A4 sheets and previews."""
    out = tmp_path_factory.mktemp("built") / "out"
    code, text = build(library, out, "--lang", "fr", "--lang", "en", *OUTPUTS)
    assert code == 0, text
    return out


def copied(out: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    return copy


# ------------------------------------------------------------------ a card that fails


def test_a_failed_card_leaves_no_deck_sheet_pdf_or_preview_behind(
    library: Path, built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = copied(built, tmp_path)
    english_deck = (out / "sample.en.deck.pdf").stat().st_mtime_ns
    try:
        edit(library / "courier.fr.md", "pioche une carte", "pioche une carte \u2603")
        edit(library / "harbor-lord.fr.md", "ses dettes.", f"ses dettes. {TOO_LONG}")
        code, text = build(library, out, "--lang", "fr", "--lang", "en", *OUTPUTS)
        errors = capsys.readouterr().err
        assert code == 1, text
        assert "U+2603 SNOWMAN" in errors and "harbor-lord" in errors and "too tall" in errors
        lines = text.splitlines()
        assert "sample.fr.deck.pdf not written: 2 cards failed (harbor-lord, courier)" in lines
        assert "sample.fr.sheets-a4.pdf not written: 2 cards failed (harbor-lord, courier)" in lines
        gone = [
            "sample.fr.deck.pdf",
            "sample.fr.sheets-a4.pdf",
            "courier.fr.pdf",
            "harbor-lord.fr.pdf",
            "png/courier.fr.png",
            "webp/courier.fr.webp",
            "png/harbor-lord.fr.png",
            "webp/harbor-lord.fr.webp",
        ]
        for name in gone:
            assert not (out / name).exists(), name
        recorded = manifest.read(out)
        assert not set(gone) & set(recorded)
        # The other cards and the English files are untouched.
        for name in (
            "flame-lash.fr.pdf",
            "png/flame-lash.fr.png",
            "courier.en.pdf",
            "sample.en.sheets-a4.pdf",
        ):
            assert (out / name).is_file() and name in recorded, name
        assert (out / "sample.en.deck.pdf").stat().st_mtime_ns == english_deck
        assert not list(out.rglob("*.tmp"))

        code, text = build(library, out, "--lang", "fr", *OUTPUTS, "--format", "json")
        capsys.readouterr()
        data = json.loads(text)
        assert code == 1
        assert data["missing"] == [
            {
                "file": str(out.resolve() / f"sample.fr.{kind}.pdf"),
                "reason": "2 cards failed (harbor-lord, courier)",
                "cards": ["harbor-lord", "courier"],
                "withheld": [],
            }
            for kind in ("deck", "sheets-a4")
        ]
        assert data["summary"]["missing"] == 2
        assert not [f for f in data["files"] if "sample.fr." in f]
    finally:
        edit(library / "courier.fr.md", "pioche une carte \u2603", "pioche une carte")
        edit(library / "harbor-lord.fr.md", f"ses dettes. {TOO_LONG}", "ses dettes.")
    # Fixed, the next build makes everything again.
    code, text = build(library, out, "--lang", "fr", *OUTPUTS)
    capsys.readouterr()
    assert code == 0, text
    assert "not written" not in text
    for name in gone:
        assert (out / name).is_file(), name
    with pikepdf.open(out / "sample.fr.deck.pdf") as deck:
        assert "courier.fr" in [page.label for page in deck.pages]


def test_a_card_printed_with_allow_overflow_goes_into_the_deck(
    library: Path, built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = copied(built, tmp_path)
    try:
        edit(library / "harbor-lord.fr.md", "ses dettes.", f"ses dettes. {TOO_LONG}")
        _, text = build(
            library, out, "--lang", "fr", *OUTPUTS, "--allow-overflow", "--format", "json"
        )
    finally:
        edit(library / "harbor-lord.fr.md", f"ses dettes. {TOO_LONG}", "ses dettes.")
    capsys.readouterr()
    data = json.loads(text)
    assert data["missing"] == []
    with pikepdf.open(out / "sample.fr.deck.pdf") as deck:
        assert "harbor-lord.fr" in [page.label for page in deck.pages]
    assert (out / "sample.fr.sheets-a4.pdf").is_file()


# ------------------------------------------------------------------- margin and gutter


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--sheets", "a4", "--gutter", "3"],
            "--gutter 3 leaves 4.5 mm at the sheet's left and right edges, under the 5 mm margin",
        ),
        (["--sheets", "a4", "--gutter", "9"], "at most --gutter 2.5"),
        (["--sheets", "a4", "--gutter", "4.5", "--size", "poker"], "at most --gutter 4"),
        (["--sheets", "a4", "--gutter", "4", "--margin", "3"], None),
        (
            ["--sheets", "letter"],
            "leave 3.2 mm at the sheet's top and bottom edges, under the "
            "5 mm margin (the cards and 1.5 mm of crop marks",
        ),
        (["--sheets", "letter"], "at most --margin 3.2"),
        (["--sheets", "letter", "--gutter", "2", "--size", "poker"], "only --gutter 0 fits"),
        (
            ["--sheets", "letter", "--gutter", "4", "--size", "poker", "--margin", "3"],
            "at most --gutter 3.2",
        ),
        (["--sheets", "a4", "--gutter", "1"], "at least 2 mm"),
        (["--sheets", "a4", "--margin", "-1"], "--margin is between 0 and 30 mm"),
    ],
)
def test_a_layout_outside_the_margin_is_refused(
    args: list[str], message: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if message is None:  # fits: checked by the geometry tests; here only the refusal
        assert assemble.layout_fault(PRESETS["arcmage"], "a4", 4, 3) is None
        return
    code, _ = run(
        "build", "cards/sample", "--card", "courier", "--out", str(tmp_path / "out"), *args
    )
    error = capsys.readouterr().err
    assert code == 2
    assert message in error and "Traceback" not in error
    assert not (tmp_path / "out").exists()  # refused before anything is built


def placed(
    pdf: pikepdf.Pdf, page: pikepdf.Page, bleed: float
) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
    """(clip, trim) of each card a sheet draws: the card's page is a Form XObject whose
    BBox is its MediaBox, shifted by ``cm``, its trim ``bleed`` points inside."""
    found, clip, shift = [], (), (0.0, 0.0)
    for operands, operator in pikepdf.parse_content_stream(page):
        name = str(operator)
        if name == "re":
            x, y, w, h = (float(v) for v in operands)
            clip = (x, y, x + w, y + h)
        elif name == "cm":
            shift = (float(operands[4]), float(operands[5]))
        elif name == "Do":
            box = [float(v) for v in page.Resources.XObject[str(operands[0])].BBox]
            found.append(
                (
                    clip,
                    (
                        box[0] + shift[0] + bleed,
                        box[1] + shift[1] + bleed,
                        box[2] + shift[0] - bleed,
                        box[3] + shift[1] - bleed,
                    ),
                )
            )
    return found


def strokes(page: pikepdf.Page) -> tuple[list[tuple[float, float, float, float]], set[str]]:
    """The segments the sheet strokes (its marks) and the colours it sets."""
    segments, colours, start = [], set(), (0.0, 0.0)
    for operands, operator in pikepdf.parse_content_stream(page):
        name = str(operator)
        if name in {"K", "k", "CS", "cs", "SC", "sc", "SCN", "scn", "rg", "RG", "g", "G"}:
            colours.add(f"{' '.join(str(v) for v in operands)} {name}")
        elif name == "m":
            start = (float(operands[0]), float(operands[1]))
        elif name == "l":
            segments.append((*start, float(operands[0]), float(operands[1])))
    return segments, colours


def near_end(
    segment: tuple[float, float, float, float], axis: int, corner: float, sign: int
) -> float | None:
    """How far beyond ``corner`` (along ``axis``, in direction ``sign``) ``segment``
    starts, or None when it is not wholly beyond it."""
    low, high = sorted((segment[axis], segment[axis + 2]))
    if sign > 0 and low >= corner:
        return low - corner
    if sign < 0 and high <= corner:
        return corner - high
    return None


def assert_marked_on_every_side(
    trims: list[tuple[float, ...]], segments: list[tuple[float, float, float, float]], gutter: float
) -> None:
    """Each card's four trim lines are marked beyond both of their corners: right at the
    corner (0.5 mm off) with a gutter; with none, where the shared line leaves the
    cards (outside the grid)."""
    offset = assemble.MARK_OFFSET * MM_PT
    for trim in trims:
        for across in (0, 1):  # 0: the vertical lines x = trim[0], trim[2]
            along = 1 - across
            for position in (trim[across], trim[across + 2]):
                on_line = [
                    s
                    for s in segments
                    if abs(s[across] - position) < 0.01 and abs(s[across + 2] - position) < 0.01
                ]
                for corner, sign in ((trim[along], -1), (trim[along + 2], 1)):
                    gaps = [
                        g for s in on_line if (g := near_end(s, along, corner, sign)) is not None
                    ]
                    assert gaps, (trim, across, position, corner)
                    if gutter:
                        assert min(gaps) == pytest.approx(offset, abs=0.01)


@pytest.fixture(scope="module")
def poker(library: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The six cards in English at the poker size."""
    out = tmp_path_factory.mktemp("poker") / "out"
    code, text = build(
        library, out, "--lang", "en", "--size", "poker", "--jobs", "1", "--no-preflight"
    )
    assert code == 0, text
    return out


@pytest.mark.parametrize(
    ("paper", "size", "gutter", "margin"),
    [
        ("a4", "arcmage", 0.0, 5.0),
        ("a4", "arcmage", 2.5, 5.0),
        ("a4", "poker", 0.0, 5.0),
        ("a4", "poker", 4.0, 5.0),
        ("letter", "arcmage", 0.0, 3.2),
        ("letter", "arcmage", 3.0, 0.0),
        ("letter", "poker", 0.0, 5.0),
        ("letter", "poker", 2.0, 3.0),
    ],
)
def test_sheets_keep_the_margin_and_mark_every_side(
    library: Path,
    built: Path,
    poker: Path,
    paper: str,
    size: str,
    gutter: float,
    margin: float,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = built if size == "arcmage" else poker
    code, text = build(
        library,
        out,
        "--lang",
        "en",
        "--size",
        size,
        "--sheets",
        paper,
        "--gutter",
        f"{gutter:g}",
        "--margin",
        f"{margin:g}",
        "--sheet-backs",
        "--jobs",
        "1",
    )
    capsys.readouterr()
    assert code == 0, text
    card = PRESETS[size]
    width, height = (v * MM_PT for v in assemble.PAPERS[paper])
    low = margin * MM_PT
    with pikepdf.open(out / f"sample.en.sheets-{paper}.pdf") as pdf:
        assert [page.label for page in pdf.pages] == ["sheet 1", "sheet 1 back"]
        for page in pdf.pages:
            assert [float(v) for v in page.MediaBox] == pytest.approx(
                [0, 0, width, height], abs=0.01
            )
            cards = placed(pdf, page, card.bleed * MM_PT)
            assert len(cards) == 9
            trims = [trim for _, trim in cards]
            for clip, trim in cards:
                assert trim[2] - trim[0] == pytest.approx(card.width * MM_PT, abs=0.01)
                assert trim[3] - trim[1] == pytest.approx(card.height * MM_PT, abs=0.01)
                # The card, its marks' room and the bleed shown inside the margin.
                room = low + (assemble.MARK_OFFSET + assemble.MARK_MIN) * MM_PT - 0.01
                assert min(trim[0], trim[1], width - trim[2], height - trim[3]) >= room
                assert min(clip[0], clip[1], width - clip[2], height - clip[3]) >= low - 0.01
            first, second = sorted(trims, key=lambda t: (-t[3], t[0]))[:2]
            assert second[0] - first[2] == pytest.approx(gutter * MM_PT, abs=0.01)
            segments, colours = strokes(page)
            assert "0 0 0 1 K" in colours <= {"0 0 0 1 K", "0 0 0 0 K"}  # K only
            for segment in segments:
                x0, y0, x1, y1 = segment
                assert min(x0, x1) >= low - 0.01 and max(x0, x1) <= width - low + 0.01
                assert min(y0, y1) >= low - 0.01 and max(y0, y1) <= height - low + 0.01
                assert abs(x1 - x0) + abs(y1 - y0) >= assemble.MARK_MIN * MM_PT - 0.01
                for trim in trims:  # never over a trim, nor within 0.5 mm of one
                    grown = 0.49 * MM_PT
                    assert not (
                        min(x0, x1) <= trim[2] + grown
                        and max(x0, x1) >= trim[0] - grown
                        and min(y0, y1) <= trim[3] + grown
                        and max(y0, y1) >= trim[1] - grown
                    ), (segment, trim)
            assert_marked_on_every_side(trims, segments, gutter)
    # The preflight checks the sheet against the card size.
    sheet = str(out / f"sample.en.sheets-{paper}.pdf")
    assert run("preflight", sheet, "--size", size)[0] == 0
    code, text = run("preflight", sheet, "--size", "arcmage" if size == "poker" else "poker")
    assert code == 1 and "(sheet 1): boxes: the card /Card1" in text


# ------------------------------------------------------------------------ preflight


def test_preflight_checks_a_sheet_as_a_sheet(built: Path) -> None:
    sheet = str(built / "sample.fr.sheets-a4.pdf")
    deck = str(built / "sample.fr.deck.pdf")
    code, text = run("preflight", sheet, deck, "--size", "arcmage")
    assert code == 0, text
    assert text.endswith("preflight: 2 files, all print-ready, 0 problems\n")
    code, text = run("preflight", sheet, "--size", "poker", "--format", "json")
    data = json.loads(text)
    assert code == 1
    messages = [p["message"] for p in data["files"][0]["problems"]]
    assert messages and all(
        m.startswith("the card /Card") and "poker wants 69 x 94 mm" in m for m in messages
    )
    assert any("(placed 2 times)" in m for m in messages)


def test_preflight_refuses_what_is_no_file_to_check(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = str(built / "sample.fr.deck.pdf")
    missing = tmp_path / "sample.fr.deck.pdf"
    for path, said in ((missing, "no such file"), (tmp_path, "a directory, not a PDF")):
        code, text = run("preflight", deck, str(path))
        error = capsys.readouterr().err
        assert code == 2 and text == ""
        assert f"translator: {path}: {said}" in error and "Traceback" not in error
    # A file that is there but is no PDF is one that fails (a print shop refuses it).
    garbage = tmp_path / "notes.pdf"
    garbage.write_text("not a PDF\n", encoding="utf-8")
    code, text = run("preflight", str(garbage))
    assert code == 1 and f"{garbage}: unreadable: not a readable PDF" in text
