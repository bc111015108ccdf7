"""PDF/X-4 labelling, output intents, black overprint, the knockout warning and the soft
proof previews (translator/pdf/pdfx.py, preview.py), on real builds of a few
sample cards and on small PDFs made here; and Ghostscript reading every output
without a warning."""

from __future__ import annotations

import datetime as dt
import io
import json
import shutil
import struct
import subprocess
import zlib
from collections.abc import Iterator
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageCms

from tests.lintkit import copy_sample, run
from tests.printkit import cmyk_profile
from translator.pdf import pdfx, textcheck
from translator.pdf.overprint import overprint_black
from translator.pdf.preflight.ink import pam_pages
from translator.pdf.profiles import ProfileError, find_profile
from translator.pdf.textcheck import intent_profile, knockouts
from translator.shipped import templates_root
from translator.typeset import preview

PROFILE = cmyk_profile()
if shutil.which("gs") is None:
    pytest.skip("Ghostscript (gs) is not installed", allow_module_level=True)
pytestmark = pytest.mark.slow  # builds, and Ghostscript reading every output

#: Ghostscript's other CMYK profile (libgs-common, like the default): no registered
#: condition describes it.
OTHER = PROFILE.path.parent / "ps_cmyk.icc"
EPOCH = 1700000000  # 2023-11-14 22:13:20 UTC
CARDS = ["harbor-lord", "courier", "flame-lash"]  # two with a second name line


def build(library: Path, out: Path, *extra: str, cards: list[str] = CARDS) -> tuple[int, str]:
    selected = [arg for slug in cards for arg in ("--card", slug)]
    return run("build", str(library), "--out", str(out), "--jobs", "1", *selected, *extra)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """Three cards in English with a deck, sheets with backs and PNG previews, built
    with SOURCE_DATE_EPOCH set: (library, output directory, the build's report)."""
    base = tmp_path_factory.mktemp("pdfx")
    library = copy_sample(base)
    out = base / "out"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
        code, text = build(
            library, out, "--deck", "--sheets", "a4", "--sheet-backs", "--png", "--dpi", "72"
        )
    assert code == 0, text
    return library, out, text


def outputs(out: Path) -> list[Path]:
    """Every print file of a build: cards, deck, sheets, and the back."""
    return sorted({*out.glob("*.pdf"), *out.glob(".back.*.pdf")})  # glob may see dot files


# ------------------------------------------------------------------------ PDF/X keys


def test_every_output_is_labelled_pdfx4(built: tuple[Path, Path, str]) -> None:
    _, out, _ = built
    files = outputs(out)
    names = {p.name for p in files}
    assert {
        "harbor-lord.en.pdf",
        "sample.en.deck.pdf",
        "sample.en.sheets-a4.pdf",
        ".back.arcmage.pdf",
    } <= names, names
    stamp_pdf, stamp_xmp = "D:20231114221320+00'00'", "2023-11-14T22:13:20+00:00"
    for path in files:
        with pikepdf.open(path) as pdf:
            assert "1.4" <= pdf.pdf_version <= "1.6", (path.name, pdf.pdf_version)
            info = pdf.docinfo
            assert str(info.GTS_PDFXVersion) == "PDF/X-4", path.name
            assert info.Trapped == pikepdf.Name("/False"), path.name
            assert str(info.CreationDate) == str(info.ModDate) == stamp_pdf, path.name
            assert str(info.Title) and str(info.Producer).startswith("translator ")
            meta = pdf.open_metadata()
            assert meta["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
            assert meta["pdf:Trapped"] == "False"
            assert meta["xmp:CreateDate"] == meta["xmp:ModifyDate"] == stamp_xmp
            assert meta["dc:title"] == str(info.Title)
            assert meta["pdf:Producer"] == str(info.Producer)
            assert meta["xmpMM:DocumentID"].startswith("uuid:")
            assert meta["xmpMM:InstanceID"].startswith("uuid:")
            assert meta["xmpMM:DocumentID"] != meta["xmpMM:InstanceID"]
            assert "/Metadata" in pdf.Root and pdf.Root.Metadata.Subtype == "/XML"
            [intent] = list(pdf.Root.OutputIntents)
            assert intent.S == "/GTS_PDFX"
            assert str(intent.OutputConditionIdentifier) == "CGATS TR 001", path.name
            assert str(intent.RegistryName) == "http://www.color.org"
            assert "SWOP" in str(intent.OutputCondition)
            assert str(intent.Info) == PROFILE.description
            assert intent.DestOutputProfile.N == 4
            assert intent.DestOutputProfile.read_bytes() == PROFILE.icc_bytes()


def test_titles_name_what_each_file_is(built: tuple[Path, Path, str]) -> None:
    _, out, _ = built
    titles = {}
    for path in outputs(out):
        with pikepdf.open(path) as pdf:
            titles[path.name] = str(pdf.docinfo.Title)
    assert titles["harbor-lord.en.pdf"] == "Harbor Lord (en)"
    assert titles[".back.arcmage.pdf"] == "Card back"
    assert titles["sample.en.deck.pdf"] == "sample.en.deck"


def test_dates_are_now_in_utc_without_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    before = dt.datetime.now(dt.UTC).replace(microsecond=0)
    pdf = pikepdf.Pdf.new()
    pdf.add_blank_page()
    pdfx.finish(pdf, PROFILE, "blank")
    after = dt.datetime.now(dt.UTC)
    made = dt.datetime.strptime(str(pdf.docinfo.CreationDate), "D:%Y%m%d%H%M%S+00'00'")
    assert before <= made.replace(tzinfo=dt.UTC) <= after
    assert pdf.open_metadata()["xmp:CreateDate"] == pdfx.xmp_date(made.replace(tzinfo=dt.UTC))
    assert not pdfx.reproducible()


@pytest.mark.parametrize("value", ["yesterday", "-5", "1e9", "9" * 30])
def test_malformed_source_date_epoch_says_what_to_give(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    with pytest.raises(ValueError, match=r"SOURCE_DATE_EPOCH.*seconds since 1970"):
        pdfx.build_time()


def test_source_date_epoch_makes_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built twice into one directory with SOURCE_DATE_EPOCH: the same files, byte for
    byte (dates, ids and the trailer's /ID made from the content)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    library, out = copy_sample(tmp_path), tmp_path / "out"
    first: dict[str, bytes] = {}
    for attempt in range(2):
        code, text = build(library, out, "--force", "--deck", "--no-preflight", cards=["courier"])
        assert code == 0, text
        found = {p.name: p.read_bytes() for p in outputs(out)}
        if attempt == 0:
            first = found
    assert found == first and len(found) == 3


# --------------------------------------------------------------- the output condition


def icc_with_description(source: bytes, description: str) -> bytes:
    """``source`` (an ICC v2 profile) with its 'desc' tag replaced by ``description``
    (a textDescriptionType appended at the end, the tag table pointed at it)."""
    data = bytearray(source)
    while len(data) % 4:
        data.append(0)
    text = description.encode("ascii") + b"\0"
    tag = b"desc" + bytes(4) + struct.pack(">I", len(text)) + text + bytes(8) + bytes(3) + bytes(67)
    (count,) = struct.unpack(">I", data[128:132])
    for entry in range(count):
        at = 132 + 12 * entry
        if data[at : at + 4] == b"desc":
            data[at + 4 : at + 12] = struct.pack(">II", len(data), len(tag))
            break
    else:
        raise AssertionError("no desc tag")
    data += tag
    data[0:4] = struct.pack(">I", len(data))
    return bytes(data)


@pytest.fixture
def fresh_registry() -> Iterator[None]:
    """Forget the conditions found so far (a test changes the registry or profiles)."""
    pdfx.output_condition.cache_clear()
    pdfx._registry.cache_clear()
    yield
    pdfx.output_condition.cache_clear()
    pdfx._registry.cache_clear()


def test_default_profile_is_cgats_tr_001(fresh_registry: object) -> None:
    condition = pdfx.output_condition(PROFILE)
    assert (condition.identifier, condition.registry) == ("CGATS TR 001", "http://www.color.org")
    assert condition.info == PROFILE.description == "Artifex CMYK SWOP Profile"


@pytest.mark.parametrize(
    "description",
    [
        "Coated FOGRA39 (ISO 12647-2:2004)",
        "ISO Coated v2 (ECI)",
        "ISO Coated v2 300% (ECI)",
        "iso  coated V2 (eci)",
    ],
)
def test_fogra39_profiles_by_their_description(
    tmp_path: Path, description: str, fresh_registry: object
) -> None:
    path = tmp_path / "fogra39.icc"
    path.write_bytes(icc_with_description(PROFILE.icc_bytes(), description))
    profile = find_profile(path)
    assert profile.description == description  # LittleCMS reads the tag written
    condition = pdfx.output_condition(profile)
    assert condition.identifier == "FOGRA39" and condition.registry == "http://www.color.org"
    assert "12647-2" in condition.condition and condition.info == description
    pdf = pikepdf.Pdf.new()
    pdf.add_blank_page()
    pdfx.finish(pdf, profile, "FOGRA39 test")
    intent = pdf.Root.OutputIntents[0]
    assert str(intent.OutputConditionIdentifier) == "FOGRA39"
    assert str(intent.Info) == description
    assert intent.DestOutputProfile.read_bytes() == path.read_bytes()


def test_an_unknown_profile_is_custom_with_its_profile_embedded(
    tmp_path: Path, fresh_registry: object
) -> None:
    """Built with --icc and a profile no registered condition describes."""
    library, out = copy_sample(tmp_path), tmp_path / "out"
    code, text = build(library, out, "--icc", str(OTHER), "--deck", cards=["courier"])
    assert code == 0, text
    for name in ("courier.en.pdf", "sample.en.deck.pdf", ".back.arcmage.pdf"):
        with pikepdf.open(out / name) as pdf:
            [intent] = list(pdf.Root.OutputIntents)
            assert str(intent.OutputConditionIdentifier) == "Custom", name
            assert "/RegistryName" not in intent
            assert str(intent.Info) == str(intent.OutputCondition) == "Artifex PS CMYK Profile"
            assert intent.DestOutputProfile.read_bytes() == OTHER.read_bytes()
            assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-4"


def test_a_profile_is_known_by_its_id_whatever_its_header_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: object
) -> None:
    """The registry's md5: the ICC profile ID, computed with the flags, intent and ID
    fields zeroed, so a copy whose header flags differ is the same profile."""
    registry = tmp_path / "conditions.yaml"
    known = pdfx.profile_id(PROFILE.icc_bytes())
    registry.write_text(
        "registry: http://www.color.org\nconditions:\n  TEST 1:\n"
        f"    condition: a test press\n    md5: [{known}]\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(pdfx, "registry_path", lambda: registry)
    flagged = bytearray(PROFILE.icc_bytes())
    flagged[44:48] = b"\0\0\0\1"  # "embedded in a file" flag
    path = tmp_path / "flagged.icc"
    path.write_bytes(bytes(flagged))
    assert pdfx.output_condition(find_profile(path)).identifier == "TEST 1"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("registry: [x]\n", "wants a 'registry' name"),
        ("registry: r\nconditions:\n  A: {condition: a, md5: [xyz]}\n", "32 hex digits"),
        ("registry: r\nconditions:\n  A: {md5: []}\n", "wants a 'condition' text"),
        ("registry: r\nconditions: {A: {condition: a\n", "malformed YAML"),
    ],
)
def test_a_broken_registry_names_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: object, text: str, words: str
) -> None:
    registry = tmp_path / "conditions.yaml"
    registry.write_text(text, encoding="utf-8")
    monkeypatch.setattr(pdfx, "registry_path", lambda: registry)
    with pytest.raises(ProfileError, match=words) as raised:
        pdfx.output_condition(PROFILE)
    assert str(raised.value).startswith(str(registry))


def test_the_shipped_registry_is_found_and_well_formed(fresh_registry: object) -> None:
    name, entries = pdfx._registry(pdfx.registry_path())
    assert name == "http://www.color.org"
    assert {"CGATS TR 001", "FOGRA39", "FOGRA51"} <= {e.identifier for e in entries}


# ------------------------------------------------------------------------- overprint


def shows(pdf: pikepdf.Pdf) -> list[tuple[tuple[float, ...] | None, tuple[bool, bool, int]]]:
    """For every text-showing operator of the first page: its DeviceCMYK fill colour and
    the overprint (OP, op, OPM) in force, read from the content stream."""
    page = pdf.pages[0]
    states = page.Resources.get("/ExtGState", {})
    fill: tuple[float, ...] | None = None
    overprint = (False, False, 0)
    saved = []
    found = []
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "q":
            saved.append((fill, overprint))
        elif op == "Q":
            fill, overprint = saved.pop()
        elif op in ("k", "scn"):
            fill = tuple(float(v) for v in operands)
        elif op == "gs":
            state = states[str(operands[0])]
            stroke = bool(state.get("/OP", overprint[0]))
            overprint = (
                stroke,
                bool(state.get("/op", stroke if "/OP" in state else overprint[1])),
                int(state.get("/OPM", overprint[2])),
            )
        elif op in ("Tj", "TJ", "'", '"'):
            found.append((fill, overprint))
    return found


def test_black_text_overprints_and_white_text_knocks_out(built: tuple[Path, Path, str]) -> None:
    _, out, _ = built
    for name in ("harbor-lord.en.pdf", "flame-lash.en.pdf"):
        with pikepdf.open(out / name) as pdf:
            found = shows(pdf)
        black = [state for fill, state in found if fill == (0.0, 0.0, 0.0, 1.0)]
        white = [state for fill, state in found if fill == (0.0, 0.0, 0.0, 0.0)]
        assert len(black) >= 4 and len(white) >= 2, (name, found)
        assert all(state == (True, True, 1) for state in black), (name, black)
        assert all(not state[1] for state in white), (name, white)


def small_page(
    ground: str, text_colour: str = "0 0 0 1", size: float = 9, image: bool = False
) -> pikepdf.Pdf:
    """A 100 x 40 pt page: a ground (a DeviceCMYK colour, or an image), then a line of
    text in a simple font."""
    pdf = pikepdf.Pdf.new()
    pdf.add_blank_page(page_size=(100, 40))
    page = pdf.pages[0]
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type1,
            BaseFont=pikepdf.Name.Helvetica,
            FirstChar=32,
            LastChar=126,
            Widths=pikepdf.Array([500] * 95),
        )
    )
    resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    if image:
        picture = pikepdf.Stream(pdf, bytes([200, 150, 100, 0]) * 4)
        picture.Type, picture.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
        picture.Width = picture.Height = 2
        picture.ColorSpace, picture.BitsPerComponent = pikepdf.Name.DeviceCMYK, 8
        resources.XObject = pikepdf.Dictionary(Im1=picture)
        painted = "q 100 0 0 40 0 0 cm /Im1 Do Q"
    else:
        painted = f"{ground} k 0 0 100 40 re f"
    content = (
        f"{painted}\nq {text_colour} k BT /F1 {size} Tf 10 15 Td (Some text) Tj ET Q\n"
        "0 0 0 1 k 5 5 90 0.5 re f\n"
    )
    page.obj.Resources = resources
    page.obj.Contents = pdf.make_stream(content.encode("ascii"))
    return pdf


@pytest.mark.parametrize(
    ("ground", "image", "overprints"),
    [
        ("0.08 0.03 0 0", False, True),  # a light tint: 111 %
        ("0.55 0.7 0.2 0.45", False, True),  # a faction's ink: C+M+Y 145 + 100 = 245 %
        ("0.8 0.7 0.6 0.3", False, False),  # 210 % + 100 = 310 %: over the 300 % limit
        ("", True, False),  # artwork: its inks are not known
    ],
)
def test_black_overprints_only_where_the_ink_limit_allows(
    ground: str, image: bool, overprints: bool
) -> None:
    pdf = small_page(ground, image=image)
    done = overprint_black(pdf.pages[0], ink_limit=300)
    text = [state for fill, state in shows(pdf) if fill == (0.0, 0.0, 0.0, 1.0)]
    assert len(text) == 1
    assert (text[0] == (True, True, 1)) is overprints
    assert done == 2 * overprints  # the text and the 0.5 pt rule under it


def test_a_lower_ink_limit_keeps_black_knocking_out() -> None:
    pdf = small_page("0.55 0.7 0.2 0.45")
    assert overprint_black(pdf.pages[0], ink_limit=240) == 0


def test_overprint_is_rendered_by_ghostscript_and_stays_under_the_limit(
    built: tuple[Path, Path, str],
) -> None:
    """The build's own preflight (Ghostscript's separations, overprint included)
    passes, and under black text Ghostscript keeps the ground's inks."""
    _, out, text = built
    assert "preflight: every file passes" in text and "ink" not in text.split("preflight")[-1]
    pdf = small_page("0.2 0.1 0 0", size=30)
    overprint_black(pdf.pages[0])
    path = out.parent / "overprint.pdf"
    pdf.save(path)
    rendered = subprocess.run(
        [
            "gs",
            "-q",
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            "-sDEVICE=pamcmyk32",
            "-r72",
            "-sOutputFile=-",
            str(path),
        ],
        capture_output=True,
        check=True,
    ).stdout
    data = next(pam_pages(io.BytesIO(rendered))).tobytes()
    inked = {data[i : i + 4] for i in range(0, len(data), 4) if data[i + 3] == 255}
    # 20 % C and 10 % M under the black: overprinted, not knocked out.
    assert inked and all(p[0] == 51 and p[1] in (25, 26) and p[2] == 0 for p in inked)


# ------------------------------------------------------------------------ knockouts


@pytest.mark.parametrize(
    ("ground", "colour", "size", "image", "warned"),
    [
        ("0.95 0.55 0.05 0.2", "0 0 0 0", 7.5, False, "3 inks (C 95 M 55 Y 5 K 20 %)"),
        ("0 0 0 0.8", "0 0 0 0", 7.5, False, None),  # one ink: the default's name2
        ("0.95 0.55 0.05 0.2", "0 0 0 0", 9, False, None),  # large enough
        ("0.95 0.55 0.05 0.2", "0 0 0 1", 7.5, False, None),  # black, not knocked out
        ("0.05 0.08 0 0", "0 0 0 0", 6, False, None),  # inks under 10 %
        ("", "0 0 0 0", 6, True, "an image (inks not known)"),
    ],
)
def test_small_white_text_on_several_inks_is_found(
    ground: str, colour: str, size: float, image: bool, warned: str | None
) -> None:
    pdf = small_page(ground, text_colour=colour, size=size, image=image)
    found = knockouts(pdf.pages[0])
    if warned is None:
        assert found == []
    else:
        [message] = found
        assert f"white text of {size:.1f} pt knocked out of {warned}" in message
        assert "in page content" in message


def test_the_default_theme_prints_no_small_knocked_out_text(built: tuple[Path, Path, str]) -> None:
    _, out, _ = built
    record = json.loads((out / ".translator-build.json").read_text(encoding="utf-8"))
    checked = [entry["checked"] for entry in record["outputs"].values() if "checked" in entry]
    assert len(checked) >= 5
    assert not [p for c in checked for p in c["problems"] if p["code"] == "knockout"]
    for name in ("harbor-lord.en.pdf", "courier.en.pdf"):
        with pikepdf.open(out / name) as pdf:
            assert knockouts(pdf.pages[0]) == []


def test_a_theme_knocking_small_white_text_out_of_four_inks_is_warned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A theme whose second name line is white on the faction's band: the build warns,
    naming the card, and still succeeds."""
    theme = tmp_path / "theme"
    theme.mkdir()
    (theme / "theme.yaml").write_text("name: knockout\n", encoding="utf-8")
    default = templates_root() / "default" / "card.css.j2"
    (theme / "card.css.j2").write_text(
        default.read_text(encoding="utf-8")
        + "\n.name2 { background: none; margin: 0; padding: 0; }\n",
        encoding="utf-8",
    )
    library, out = copy_sample(tmp_path), tmp_path / "out"
    code, text = build(library, out, "--theme", str(theme), cards=["harbor-lord", "mossgate"])
    # A warning: the build goes on, counts it (never "every file passes" under it) and
    # exits 1 for it.
    assert code == 1, text
    assert "1 warning; preflight: 1 warning in 1 file." in text, text
    said = capsys.readouterr().err
    lines = [line for line in said.splitlines() if "knockout" in line]
    assert len(lines) == 1, said
    assert "(harbor-lord.en): knockout: white text of 7.5 pt knocked out of 3 inks" in lines[0]
    assert lines[0].endswith("(warning)")


# ---------------------------------------------------------------------- soft proofs


def patches(tmp_path: Path, profile_path: Path | None = None) -> Path:
    """A PDF of 20 pt patches: K 80 %, K 100 %, Dark Legion's ink, a light tint."""
    pdf = pikepdf.Pdf.new()
    colours = ["0 0 0 0.8", "0 0 0 1", "0.55 0.7 0.2 0.45", "0.08 0.03 0 0"]
    pdf.add_blank_page(page_size=(20 * len(colours), 20))
    content = "".join(f"{c} k {i * 20} 0 20 20 re f\n" for i, c in enumerate(colours))
    pdf.pages[0].obj.Contents = pdf.make_stream(content.encode("ascii"))
    profile = find_profile(profile_path) if profile_path else PROFILE
    pdfx.finish(pdf, profile, "patches")
    path = tmp_path / f"patches-{profile_path.stem if profile_path else 'default'}.pdf"
    pdf.save(path)
    return path


def littlecms(profile_path: Path, cmyk: tuple[int, int, int, int]) -> tuple[int, ...]:
    transform = ImageCms.buildTransform(
        ImageCms.ImageCmsProfile(str(profile_path)),
        ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")),
        "CMYK",
        "RGB",
        ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )
    return ImageCms.applyTransform(Image.new("CMYK", (1, 1), cmyk), transform).getpixel((0, 0))


def test_a_soft_proof_shows_a_dark_patch_as_the_press_prints_it(tmp_path: Path) -> None:
    """K 80 %: 51 by the naive formula, about 88 through the SWOP profile; PDFium's own
    table is close to SWOP, so its render agrees within a few levels."""
    path = patches(tmp_path)
    proof = preview.render_png(path, 72)
    pdfium = preview.render_png(path, 72, proof=False)
    assert proof.size == pdfium.size == (80, 20)
    grey = proof.getpixel((10, 10))
    assert grey == pytest.approx(littlecms(PROFILE.path, (0, 0, 0, 204)), abs=2)
    naive = round(255 * (1 - 0.8))
    assert min(grey) > naive + 25  # far lighter than the naive conversion
    assert all(abs(a - b) <= 4 for a, b in zip(grey, pdfium.getpixel((10, 10)), strict=True))


def test_a_soft_proof_follows_the_profile_of_the_file(tmp_path: Path) -> None:
    """PDFium renders DeviceCMYK the same whatever the output intent; the proof goes
    through the file's own profile (here one whose K 80 % is far lighter than SWOP's,
    and whose Dark Legion ink is bluer)."""
    path = patches(tmp_path, OTHER)
    proof = preview.render_png(path, 72)
    pdfium = preview.render_png(path, 72, proof=False)
    for x, cmyk in ((10, (0, 0, 0, 204)), (50, (140, 179, 51, 115))):
        assert proof.getpixel((x, 10)) == pytest.approx(littlecms(OTHER, cmyk), abs=2)
        assert (
            max(
                abs(a - b)
                for a, b in zip(proof.getpixel((x, 10)), pdfium.getpixel((x, 10)), strict=True)
            )
            > 30
        )
    assert min(proof.getpixel((10, 10))) > max(pdfium.getpixel((10, 10))) + 25


@pytest.mark.parametrize("dpi", [72, 96, 110, 300])
def test_a_soft_proof_has_the_size_and_crop_of_before(
    built: tuple[Path, Path, str], dpi: int
) -> None:
    _, out, _ = built
    card = out / "harbor-lord.en.pdf"
    proof = preview.render_png(card, dpi, trim=2)
    pdfium = preview.render_png(card, dpi, trim=2, proof=False)
    assert proof.size == pdfium.size
    assert proof.mode == "RGB" and "icc_profile" not in proof.info
    # The same picture, cut at the same place: the ground's tint at the corners, the
    # band where PDFium has it (colours within a few levels: the SWOP profile).
    for x, y in ((2, 2), (proof.width - 3, proof.height - 3), (proof.width // 4, dpi // 5)):
        assert all(
            abs(a - b) <= 12
            for a, b in zip(proof.getpixel((x, y)), pdfium.getpixel((x, y)), strict=True)
        ), (x, y)


def test_the_build_previews_are_soft_proofs(built: tuple[Path, Path, str]) -> None:
    _, out, _ = built
    png = out / "png" / "harbor-lord.en.png"
    with Image.open(png) as image:
        assert image.size == (round(64 / 25.4 * 72), round(90 / 25.4 * 72))
        expected = preview.render_png(out / "harbor-lord.en.pdf", 72, trim=2)
        assert image.convert("RGB").tobytes() == expected.tobytes()
    assert preview.rendering().startswith("soft proof")


def test_the_contact_sheet_proofs_every_card_in_one_run(built: tuple[Path, Path, str]) -> None:
    _, out, _ = built
    cards = [out / f"{slug}.en.pdf" for slug in CARDS]
    sheet = preview.contact_sheet(cards, columns=3, dpi=48, trim=2)
    one = preview.render_png(cards[0], 48, trim=2)
    assert sheet.size == (3 * (one.width + 12) + 12, one.height + 24)
    assert sheet.crop((12, 12, 12 + one.width, 12 + one.height)).tobytes() == one.tobytes()


def test_a_build_proofs_its_previews_in_few_ghostscript_runs(
    built: tuple[Path, Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from translator.pdf.sizes import PRESETS
    from translator.typeset import batch
    from translator.typeset.options import BuildOptions

    _, out, _ = built
    cards = [out / f"{slug}.en.pdf" for slug in CARDS]
    runs: list[int] = []
    real = preview._proofs

    def counted(paths: list[Path], profiles: list[bytes | None], dpi: float) -> list:
        runs.append(len(paths))
        return real(paths, profiles, dpi)

    monkeypatch.setattr(preview, "_proofs", counted)
    proofs = batch._Proofs(batch.Request(["en"], out, BuildOptions(PRESETS["arcmage"]), dpi=48))
    proofs.pending = cards
    images = [proofs.image(card) for card in cards]
    # One Ghostscript run for the lot (its start costs more than a card), the same
    # pictures as one by one.
    assert runs == [len(cards)]
    assert images[-1].tobytes() == preview.render_png(cards[-1], 48, trim=2).tobytes()


def test_without_an_output_intent_the_preview_is_pdfiums(tmp_path: Path) -> None:
    pdf = pikepdf.Pdf.new()
    pdf.add_blank_page(page_size=(20, 20))
    pdf.pages[0].obj.Contents = pdf.make_stream(b"0 0 0 0.8 k 0 0 20 20 re f")
    path = tmp_path / "plain.pdf"
    pdf.save(path)
    assert (
        preview.render_png(path, 72).tobytes()
        == preview.render_png(path, 72, proof=False).tobytes()
    )
    # A measurement asks for a proof or nothing: PDFium's colours would falsify it.
    with pytest.raises(RuntimeError, match=r"plain.pdf: no soft proof"):
        preview.soft_proofs([path], 72, strict=True)


# ---------------------------------------------------- Ghostscript reads every output


def test_ghostscript_reads_every_output_without_a_warning(built: tuple[Path, Path, str]) -> None:
    _, out, _ = built
    files = outputs(out)
    assert len(files) == 6  # 3 cards, the deck, the sheets, the back
    for path in files:
        done = subprocess.run(
            ["gs", "-dSAFER", "-dNOPAUSE", "-dBATCH", "-sDEVICE=nullpage", str(path)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        said = (done.stdout + done.stderr).lower()
        assert done.returncode == 0, (path.name, said)
        assert "warning" not in said and "error" not in said, (path.name, said)


def test_an_output_profile_stored_alike_is_decoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every card PDF of a build embeds the same profile: inflated for the first file
    only; another profile, or the same stored otherwise, is read on its own."""
    monkeypatch.setattr(textcheck, "_PROFILES", [])
    icc = PROFILE.icc_bytes()

    def with_intent(profile: bytes, flate: bool = True) -> pikepdf.Pdf:
        pdf = pikepdf.new()
        stream = pikepdf.Stream(pdf, profile)  # stored as it is
        if flate:
            stream.write(zlib.compress(profile), filter=pikepdf.Name.FlateDecode)
        stream.N = 4
        intent = pikepdf.Dictionary(Type=pikepdf.Name.OutputIntent, DestOutputProfile=stream)
        pdf.Root.OutputIntents = pikepdf.Array([intent])
        return pdf

    decoded = intent_profile(with_intent(icc))
    assert decoded == icc
    assert intent_profile(with_intent(icc)) is decoded  # not inflated again
    stored_as_is = intent_profile(with_intent(icc, flate=False))
    assert stored_as_is == icc and stored_as_is is not decoded
    other = icc[:-1] + bytes([icc[-1] ^ 1])
    assert intent_profile(with_intent(other)) == other
