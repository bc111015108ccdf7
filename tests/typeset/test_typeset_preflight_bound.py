"""The preflight made cheaper, never weaker: the ink bound against Ghostscript's own
measure, the proxies, the record of files already proved, and card PDFs that are the
same bytes when built again.

Every page here is decided twice: by the preflight as it runs (the bound, a proxy's
render, or the page's render: :class:`translator.pdf.preflight.InkTally` says
which) and by Ghostscript's render of the page itself, read whole.  A page decided
without its own render must be within the limit on that render; a page over the limit
there must have been rendered, and found."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from tests.conftest import ROOT
from tests.lintkit import SAMPLE, copy_sample, run
from tests.printkit import cmyk_profile
from translator.pdf import preflight as pf
from translator.pdf.preflight import bound, report
from translator.pdf.preflight.ink import InkScan, Render, threshold

cmyk_profile()
pytestmark = pytest.mark.skipif(not pf.ink_available(), reason="apt-get install ghostscript")

LIMIT = 300.0
DPI = pf.DEFAULT_DPI
THRESHOLD = threshold(LIMIT)
EPOCH = "1700000000"


# ------------------------------------------------------------------ synthetic pages


def page_pdf(
    path: Path,
    content: bytes,
    *,
    resources: dict | None = None,
    build: object = None,
) -> Path:
    """A one-page PDF (100 x 100 pt) drawing ``content`` with ``resources``; ``build``
    (pdf -> resources) makes resources that need the document (streams)."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(100, 100))
    page = pdf.pages[0]
    made = dict(resources or {})
    if callable(build):
        made.update(build(pdf))
    page.obj.Resources = pikepdf.Dictionary(made)
    page.obj.Contents = pdf.make_stream(content)
    pdf.save(path)
    return path


def cmyk_image(
    pdf: pikepdf.Pdf, pixel: tuple[int, int, int, int], jpeg: bool = False
) -> pikepdf.Stream:
    """A 16 x 16 DeviceCMYK image of one colour: Flate, or a JPEG as the build embeds
    them (Adobe's inverted CMYK, /Decode [1 0 ...])."""
    picture = Image.new("CMYK", (16, 16), pixel)
    if jpeg:
        data = io.BytesIO()
        picture.save(data, "JPEG", quality=95)
        image = pdf.make_stream(data.getvalue())
        image.Filter = pikepdf.Name.DCTDecode
        image.Decode = pikepdf.Array([1, 0] * 4)
    else:
        image = pdf.make_stream(zlib.compress(picture.tobytes()))
        image.Filter = pikepdf.Name.FlateDecode
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.Width = image.Height = 16
    image.ColorSpace, image.BitsPerComponent = pikepdf.Name.DeviceCMYK, 8
    return image


OVERPRINT = {"/ExtGState": pikepdf.Dictionary(OP=pikepdf.Dictionary(OP=True, op=True, OPM=1))}


def decided(path: Path) -> tuple[pf.InkTally, list[pf.Problem]]:
    """How the preflight decides the file's ink, and its ink problems."""
    tally = pf.InkTally()
    [found] = pf.check_files(
        [path], size=None, ink_limit=LIMIT, min_ppi=1, ink=True, dpi=DPI, tally=tally
    )
    return tally, [p for p in found.problems if p.code == "ink"]


def measured(path: Path) -> tuple[list[int], bool]:
    """Ghostscript's render of every page of ``path``, read whole: each page's fullest
    pixel, and whether the ink check as it was (every page rendered) fails it."""
    with pikepdf.open(path) as pdf:
        count = len(pdf.pages)
    every = tuple(range(1, count + 1))
    peaks = InkScan([Render(0, path, count, every, proxy=True)], DPI, LIMIT)
    areas = InkScan([Render(0, path, count, every)], DPI, LIMIT)
    peaks.wait()
    areas.wait()
    assert not peaks.proxy_failures and not areas.failures
    return [peaks.peaks[(0, page)] for page in every], bool(areas.findings(0))


def agrees(path: Path) -> pf.InkTally:
    """The bound's decision agrees with Ghostscript's measure: a page decided without
    its render is within the limit there, a file failed there is failed here."""
    tally, problems = decided(path)
    peaks, fails = measured(path)
    if tally.rendered == 0:
        assert max(peaks) <= THRESHOLD, (path.name, peaks, tally)
        assert not problems
    if fails:
        assert tally.rendered > 0 and problems, (path.name, peaks, tally)
    assert bool(problems) == fails, (path.name, problems)
    return tally


def test_a_vector_fill_within_the_limit_needs_no_render(tmp_path: Path) -> None:
    path = page_pdf(tmp_path / "fill.pdf", b"0.8 0.7 0.7 0.6 k 10 10 80 80 re f")
    tally = agrees(path)
    assert (tally.bound, tally.runs) == (1, 0)


def test_a_vector_fill_at_310_percent_is_rendered_and_found(tmp_path: Path) -> None:
    path = page_pdf(tmp_path / "fill.pdf", b"0.9 0.8 0.8 0.6 k 10 10 80 80 re f")
    tally = agrees(path)
    assert (tally.bound, tally.proxy, tally.rendered) == (0, 0, 1)


def test_a_fill_exactly_at_the_limit_is_left_to_the_render(tmp_path: Path) -> None:
    """Ghostscript rounds each channel: a colour at the limit is the render's to judge
    (it passes it: the measure allows the rounding)."""
    path = page_pdf(tmp_path / "fill.pdf", b"0.75 0.75 0.75 0.75 k 10 10 80 80 re f")
    tally = agrees(path)
    assert tally.rendered == 1


@pytest.mark.parametrize(
    ("ground", "black", "route"),
    [
        (b"0.6 0.6 0.6 0", b"20 20 60 60", "bound"),  # 180 % + the black: 280 %
        (b"0.9 0.8 0.8 0", b"20 20 60 60", "rendered"),  # 250 % + 100 %: found
        (b"0.9 0.8 0.8 0", b"60 60 30 30", "bound"),  # beside it: never on it
    ],
)
def test_black_overprinted_on_a_flat_ground(
    tmp_path: Path, ground: bytes, black: bytes, route: str
) -> None:
    content = ground + b" k 10 10 40 40 re f /OP gs 0 0 0 1 k " + black + b" re f"
    tally = agrees(page_pdf(tmp_path / "op.pdf", content, resources=OVERPRINT))
    assert getattr(tally, route) == 1, tally


def test_overprint_of_another_ink_than_black_is_rendered(tmp_path: Path) -> None:
    content = b"0 0.9 0.9 0.9 k 10 10 80 80 re f /OP gs 1 0 0 0 k 20 20 60 60 re f"
    tally = agrees(page_pdf(tmp_path / "op.pdf", content, resources=OVERPRINT))
    assert tally.rendered == 1


@pytest.mark.parametrize("jpeg", [False, True])
@pytest.mark.parametrize(
    ("pixel", "decided"), [((255, 255, 206, 100), False), ((215, 215, 200, 60), True)]
)
def test_an_image_is_bounded_by_its_fullest_pixel(
    tmp_path: Path, jpeg: bool, pixel: tuple[int, ...], decided: bool
) -> None:
    """An image at 320 % is rendered (and found, as the render says: :func:`agrees`);
    one within the limit needs no render."""
    path = page_pdf(
        tmp_path / "image.pdf",
        b"q 80 0 0 80 10 10 cm /Im Do Q",
        build=lambda pdf: {"/XObject": pikepdf.Dictionary(Im=cmyk_image(pdf, pixel, jpeg))},
    )
    tally = agrees(path)
    if decided:
        assert (tally.bound, tally.runs) == (1, 0)
    else:
        assert tally.rendered == 1


@pytest.mark.parametrize(
    ("black", "route"),
    [
        (b"60 10 30 80 re f", "bound"),  # beside it: its box never meets the art's
        (b"30 95 m 95 95 l 95 30 l f", "proxy"),  # its box meets the art's, it does not
        (b"20 20 30 30 re f", "rendered"),  # on it: 250 % + 100 %
    ],
)
def test_black_overprinted_beside_or_on_artwork(tmp_path: Path, black: bytes, route: str) -> None:
    """Artwork of 250 % C+M+Y and 270 % in all (x 5-50, y 5-50): black overprinted
    beside it is decided by the bound, a triangle whose box meets the art's (but not
    the art) by a proxy (the image one flat pixel), on it is rendered and found."""
    content = b"q 45 0 0 45 5 5 cm /Im Do Q /OP gs 0 0 0 1 k " + black

    def resources(pdf: pikepdf.Pdf) -> dict:
        return {
            "/XObject": pikepdf.Dictionary(Im=cmyk_image(pdf, (215, 215, 208, 50), jpeg=True)),
            **OVERPRINT,
        }

    tally = agrees(page_pdf(tmp_path / "art.pdf", content, build=resources))
    assert getattr(tally, route) == 1, tally


@pytest.mark.parametrize(
    ("entry", "route"),
    [(b"\xc8\xc8\x64\x00", "bound"), (b"\xff\xff\xff\x33", "rendered")],  # 196 %, 320 %
)
def test_an_indexed_image_is_bounded_by_its_palette(
    tmp_path: Path, entry: bytes, route: str
) -> None:
    def resources(pdf: pikepdf.Pdf) -> dict:
        image = pdf.make_stream(bytes([0, 1] * 128))
        image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
        image.Width = image.Height = 16
        image.BitsPerComponent = 8
        image.ColorSpace = pikepdf.Array(
            [pikepdf.Name.Indexed, pikepdf.Name.DeviceCMYK, 1, pikepdf.String(bytes(4) + entry)]
        )
        return {"/XObject": pikepdf.Dictionary(Im=image)}

    path = page_pdf(tmp_path / "indexed.pdf", b"q 80 0 0 80 10 10 cm /Im Do Q", build=resources)
    tally = agrees(path)
    assert getattr(tally, route) == 1, tally


@pytest.mark.parametrize(
    ("start", "route"), [([0.9, 0.9, 0.9, 0], "bound"), ([1, 1, 1, 0.2], "rendered")]
)
def test_a_shading_is_bounded_by_its_function(tmp_path: Path, start: list, route: str) -> None:
    shading = pikepdf.Dictionary(
        ShadingType=2,
        ColorSpace=pikepdf.Name.DeviceCMYK,
        Coords=[0, 0, 100, 0],
        Function=pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=start, C1=[0, 0, 0, 0], N=1),
        Extend=[True, True],
    )
    path = page_pdf(
        tmp_path / "shading.pdf",
        b"q 0 0 100 100 re W n /Sh sh Q",
        resources={"/Shading": pikepdf.Dictionary(Sh=shading)},
    )
    tally = agrees(path)
    assert getattr(tally, route) == 1, tally


@pytest.mark.parametrize(
    ("colour", "route"), [(b"0.7 0.6 0.6 0.3", "bound"), (b"0.9 0.8 0.8 0.6", "rendered")]
)
def test_nested_forms_are_read_through(tmp_path: Path, colour: bytes, route: str) -> None:
    def resources(pdf: pikepdf.Pdf) -> dict:
        inner = pdf.make_stream(colour + b" k 0 0 50 50 re f")
        inner.Type, inner.Subtype, inner.BBox = (
            pikepdf.Name.XObject,
            pikepdf.Name.Form,
            [0, 0, 50, 50],
        )
        outer = pdf.make_stream(b"q 1 0 0 1 10 10 cm /Inner Do Q")
        outer.Type, outer.Subtype, outer.BBox = (
            pikepdf.Name.XObject,
            pikepdf.Name.Form,
            [0, 0, 80, 80],
        )
        outer.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Inner=inner))
        return {"/XObject": pikepdf.Dictionary(Outer=outer)}

    tally = agrees(page_pdf(tmp_path / "forms.pdf", b"/Outer Do", build=resources))
    assert getattr(tally, route) == 1, tally


def test_what_the_bound_does_not_read_is_rendered(tmp_path: Path) -> None:
    """An ICC-based CMYK space (Ghostscript converts it from its profile to its own),
    a separation, another blend mode, a transfer function: rendered, with why."""
    profile = Path("/usr/share/color/icc/ghostscript/ps_cmyk.icc")

    def icc(pdf: pikepdf.Pdf) -> dict:
        stream = pdf.make_stream(profile.read_bytes() if profile.is_file() else b"")
        stream.N = 4
        return {"/ColorSpace": pikepdf.Dictionary(C=pikepdf.Array([pikepdf.Name.ICCBased, stream]))}

    separation = pikepdf.Array(
        [
            pikepdf.Name.Separation,
            pikepdf.Name("/Gold"),
            pikepdf.Name.DeviceCMYK,
            pikepdf.Dictionary(
                FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[0, 0.3, 1, 0], N=1
            ),
        ]
    )
    cases = {
        "icc": page_pdf(
            tmp_path / "icc.pdf", b"/C cs 0.5 0.4 0.4 0.5 scn 0 0 50 50 re f", build=icc
        ),
        "separation": page_pdf(
            tmp_path / "sep.pdf",
            b"/S cs 1 scn 0 0 50 50 re f",
            resources={"/ColorSpace": pikepdf.Dictionary(S=separation)},
        ),
        "blend": page_pdf(
            tmp_path / "blend.pdf",
            b"0.5 0 0 0 k 0 0 60 60 re f /M gs 0 0.5 0 0 k 20 20 60 60 re f",
            resources={
                "/ExtGState": pikepdf.Dictionary(M=pikepdf.Dictionary(BM=pikepdf.Name.Multiply))
            },
        ),
    }
    for name, path in cases.items():
        tally = agrees(path)
        assert tally.rendered == 1 and tally.reasons, (name, tally)


# ------------------------------------------------------------------ the real cards


def sample_pdfs(out: Path) -> list[Path]:
    return sorted(out.glob("*.pdf"))


def agree_on(pdfs: list[Path]) -> pf.InkTally:
    """The preflight's ink of every page of ``pdfs`` (cards, decks, sheets), each page
    decided without its own render checked against its render read whole."""
    tally = pf.InkTally()
    reports = pf.check_files(
        pdfs, size=None, ink_limit=LIMIT, min_ppi=1, ink=True, dpi=DPI, tally=tally
    )
    inked = {(r.path, p.page) for r in reports for p in r.problems if p.code == "ink"}
    every = [
        Render(i, path, r.pages, tuple(range(1, r.pages + 1)), proxy=True)
        for i, (path, r) in enumerate(zip(pdfs, reports, strict=True))
    ]
    scan = InkScan(every, DPI, LIMIT)
    scan.wait()
    over = [key for key, peak in scan.peaks.items() if peak > THRESHOLD]
    assert tally.bound + tally.proxy + tally.rendered == sum(r.pages for r in reports)
    if not tally.rendered:  # every page decided without its render: none is over there
        assert not over and not inked, over
    # A page over the limit on its render is one the preflight rendered itself.
    assert tally.rendered >= len(over)
    return tally


@pytest.fixture(scope="module")
def sample_cards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample in every language, default theme, with its decks and print-and-play
    sheets (no preflight: it is run here)."""
    out = tmp_path_factory.mktemp("bound-sample") / "out"
    code, text = run(
        "build",
        str(SAMPLE),
        "--lang",
        "all",
        "--out",
        str(out),
        "--deck",
        "--sheets",
        "a4",
        "--no-preflight",
    )
    assert code == 0, text
    return out


@pytest.mark.slow
def test_the_sample_cards_are_decided_as_their_renders_say(sample_cards: Path) -> None:
    cards = [p for p in sample_pdfs(sample_cards) if p.name.count(".") == 2]
    assert len(cards) == 72
    tally = agree_on(cards)
    # Each card's black text overprints beside its artwork, never on it: the bound
    # decides every card without Ghostscript.
    assert tally.bound == 72 and tally.runs == 0, tally
    print(f"default theme: {tally}")


@pytest.mark.slow
def test_the_sample_decks_and_sheets_are_decided_as_their_renders_say(
    sample_cards: Path,
) -> None:
    others = [p for p in sample_pdfs(sample_cards) if p.name.count(".") > 2]
    assert any(".deck." in p.name for p in others) and any(".sheets-" in p.name for p in others)
    tally = agree_on(others)
    print(f"decks and sheets: {tally}")


@pytest.mark.slow
def test_the_official_look_is_decided_as_its_renders_say(
    tmp_path: Path, arcmage_theme: Path
) -> None:
    theme = arcmage_theme
    out = tmp_path / "out"
    code, text = run(
        "build",
        str(SAMPLE),
        "--lang",
        "all",
        "--out",
        str(out),
        "--theme",
        str(theme),
        "--no-preflight",
    )
    assert code == 0, text
    pdfs = sample_pdfs(out)
    tally = agree_on(pdfs)
    print(f"official look: {tally}")


# ------------------------------------------------------------------ the same bytes


@pytest.mark.slow
def test_two_forced_builds_in_two_folders_are_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With SOURCE_DATE_EPOCH (fixed dates and XMP ids), the card PDFs are the same
    bytes, trailer /ID included, in another output folder (the images are named after
    their bytes, not after the cached file's path)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    library = copy_sample(tmp_path)
    built = []
    for name in ("one", "two"):
        out = tmp_path / name
        code, text = run(
            "build",
            str(library),
            "--out",
            str(out),
            "--force",
            "--card",
            "courier",
            "--card",
            "harbor-lord",
            "--no-preflight",
            "--jobs",
            "1",
        )
        assert code == 0, text
        built.append({p.name: p.read_bytes() for p in sorted(out.glob("*.pdf"))})
    assert built[0] == built[1] and len(built[0]) == 2


def test_the_trailer_id_is_made_from_the_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reproducible build's trailer /ID comes from the content: the same document
    saved twice (under two names) has one /ID, and is the same bytes.  (Only then: a
    build without SOURCE_DATE_EPOCH has other dates anyway, and qpdf's deterministic
    /ID aborts the process on a full disk.)"""
    from translator.pdf.pages import write_atomic

    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    ids = []
    for name in ("a.pdf", "b.pdf"):
        pdf = pikepdf.new()
        pdf.add_blank_page()
        write_atomic(tmp_path / name, pdf)
        with pikepdf.open(tmp_path / name) as saved:
            ids.append(bytes(saved.trailer.ID[0]))
    assert ids[0] == ids[1]
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


#: A reproducible build of one card whose PDF meets a full disk (its temporary file's
#: descriptor is /dev/full's), in a process of its own: qpdf's content-made /ID
#: aborted the whole process there, which no test run would survive.
FULL_DISK = f"""
import io, sys
from pathlib import Path
sys.path.insert(0, {str(ROOT)!r})
from tests.diskkit import full_disk_open
from translator.cli import main
Path.open = full_disk_open(".courier.fr.pdf.")
options = ["--card", "courier", "--lang", "fr", "--out", "out", "--no-preflight", "--jobs", "1"]
sys.exit(main(["build", sys.argv[1], *options], io.StringIO()))
"""


@pytest.mark.slow
def test_a_reproducible_build_on_a_full_disk_names_the_file(tmp_path: Path) -> None:
    library = copy_sample(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(library)],
        cwd=tmp_path,
        env={**os.environ, "SOURCE_DATE_EPOCH": EPOCH},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr == (
        "translator: cannot write out/courier.fr.pdf: No space left on device "
        "(free some space or choose another --out)\n"
    )
    assert not (tmp_path / "out" / "courier.fr.pdf").exists()


# ------------------------------------------------------------------ the record


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the files the preflight checks, as it checks them."""
    checked: list[str] = []
    original = report.check_files

    def counting(paths: list, **options: object) -> list[pf.FileReport]:
        checked.extend(Path(p).name for p in paths)
        return original(paths, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(report, "check_files", counting)
    yield checked


def record_build(library: Path, out: Path, *extra: str) -> str:
    code, text = run(
        "build",
        str(library),
        "--out",
        str(out),
        "--card",
        "courier",
        "--card",
        "harbor-lord",
        "--deck",
        "--jobs",
        "1",
        *extra,
    )
    assert code == 0, text
    return text


@pytest.mark.slow
def test_an_unchanged_rebuild_checks_nothing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: list[str]
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    user = tmp_path / "user-cache"
    monkeypatch.setenv("TRANSLATOR_CACHE", str(user))
    library, out = copy_sample(tmp_path), tmp_path / "out"
    record_build(library, out)
    # The records are the build's, with its converted artwork: none in the user's folder.
    assert {pf.record.RECORD_NAME, bound.STATS_FILE} <= {p.name for p in (out / ".cache").iterdir()}
    assert not list(user.glob("preflight-*"))
    first = sorted(counted)
    assert ".back.arcmage.pdf" in first
    assert "courier.en.pdf" in first and "sample.en.deck.pdf" in first
    counted.clear()
    record_build(library, out, "--force")  # every file written again: the same bytes
    assert counted == []
    # A changed byte: that file is checked again (the build reuses the card).
    card = out / "courier.en.pdf"
    data = bytearray(card.read_bytes())
    data[data.index(b"Courier (en)")] = ord("c")
    card.write_bytes(bytes(data))
    record_build(library, out)
    assert "courier.en.pdf" in counted and "harbor-lord.en.pdf" not in counted
    # A damaged record is ignored: everything is checked again, and passes.
    counted.clear()
    manifest = out / ".translator-build.json"
    document = json.loads(manifest.read_text("utf-8"))
    for entry in document["outputs"].values():
        if "checked" in entry:
            entry["checked"] = {"key": 5, "problems": "damaged"}
    manifest.write_text(json.dumps(document), "utf-8")
    proofs = pf.ProofRecord(out / ".cache").path
    assert proofs is not None and proofs.is_file()
    proofs.write_text("{ not json", "utf-8")
    record_build(library, out)
    assert sorted(counted) == first


def test_changed_settings_or_code_make_another_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "file.pdf"
    path.write_bytes(b"%PDF-1.4 some bytes")
    key = pf.proof_key(path, "ink 300 dpi 150")
    assert pf.proof_key(path, "ink 300 dpi 150") == key
    assert pf.proof_key(path, "ink 280 dpi 150") != key
    path.write_bytes(b"%PDF-1.4 some bytez")
    assert pf.proof_key(path, "ink 300 dpi 150") != key
    path.write_bytes(b"%PDF-1.4 some bytes")
    monkeypatch.setattr(pf.record, "code_version", lambda: "another preflight")
    assert pf.proof_key(path, "ink 300 dpi 150") != key


def test_a_record_holds_only_readable_entries(tmp_path: Path) -> None:
    proofs = pf.ProofRecord(tmp_path)
    proofs.remember("k1", [])
    proofs.save()
    assert pf.ProofRecord(tmp_path).findings("k1") == []
    assert pf.ProofRecord(tmp_path).findings("k2") is None
    for damaged in ('{"format": 1, "proofs": {"k1": 3}}', "[]", "\x00\xff", '{"format": 9}'):
        (tmp_path / pf.record.RECORD_NAME).write_text(damaged, "utf-8")
        assert pf.ProofRecord(tmp_path).findings("k1") is None


def test_translator_preflight_of_a_file_always_checks(tmp_path: Path) -> None:
    """A file given by hand is checked whatever was recorded of its bytes: an
    over-inked file recorded as clean is found."""
    path = page_pdf(tmp_path / "over.pdf", b"1 1 1 1 k 0 0 100 100 re f")
    proofs = pf.ProofRecord(tmp_path / ".cache")
    proofs.remember(pf.proof_key(path, "anything"), [])
    proofs.save()
    code, text = run("preflight", str(path))
    assert code == 1 and "ink: total ink 400 %" in text, text


def test_the_image_maxima_are_kept_across_runs(tmp_path: Path) -> None:
    """Measured once, then read from the cache folder (a damaged file: measured anew)."""
    pdf = pikepdf.new()
    image = cmyk_image(pdf, (215, 215, 200, 60), jpeg=True)
    first = bound.ImageStats(tmp_path)
    maxima = first.maxima(image, bound.CMYK_SPACE)
    assert (maxima.total, maxima.cmy) == (pytest.approx(690, abs=3), pytest.approx(630, abs=3))
    first.save()
    again = bound.ImageStats(tmp_path)
    again._load()
    assert again._known  # read back
    path = tmp_path / bound.STATS_FILE
    path.write_text("damaged", "utf-8")
    damaged = bound.ImageStats(tmp_path)
    assert damaged.maxima(image, bound.CMYK_SPACE) == maxima
    nowhere = bound.ImageStats()  # no folder: measured, kept in this process only
    nowhere.maxima(image, bound.CMYK_SPACE)
    nowhere.save()
    assert sorted(p.name for p in tmp_path.iterdir()) == [bound.STATS_FILE]


def test_an_image_measured_for_one_folder_is_not_measured_for_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build into a new folder finds the maxima its images had in another build, in
    the user's cache folder, and keeps them in its own folder too; a shared record
    another hand wrote is not believed."""
    monkeypatch.setenv("TRANSLATOR_CACHE", str(tmp_path / "user-cache"))
    pdf = pikepdf.new()
    image = cmyk_image(pdf, (215, 215, 200, 60), jpeg=True)
    first = bound.ImageStats(shared=bound.ImageStats())
    first.keep_in(tmp_path / "out-1" / ".cache")
    maxima = first.maxima(image, bound.CMYK_SPACE)
    first.save()
    shared = tmp_path / "user-cache" / bound.SHARED_FOLDER / bound.STATS_FILE
    assert shared.is_file() and (tmp_path / "out-1" / ".cache" / bound.STATS_FILE).is_file()
    measured: list[object] = []
    real_measure = bound._measure_image
    monkeypatch.setattr(bound, "_measure_image", lambda i: measured.append(1) or real_measure(i))
    second = bound.ImageStats(shared=bound.ImageStats())  # another process
    second.keep_in(tmp_path / "out-2" / ".cache")
    assert second.maxima(image, bound.CMYK_SPACE) == maxima
    assert measured == []
    second.save()
    assert (tmp_path / "out-2" / ".cache" / bound.STATS_FILE).is_file()
    # a shared record written by another hand (no seal of this user's) is a record missing
    document = json.loads(shared.read_text("utf-8"))
    document.pop("seal")
    shared.write_text(json.dumps(document), "utf-8")
    third = bound.ImageStats(shared=bound.ImageStats())
    third.keep_in(tmp_path / "out-3" / ".cache")
    assert third.maxima(image, bound.CMYK_SPACE) == maxima
    assert measured == [1]
    # without a cache folder nothing is shared
    monkeypatch.setenv("TRANSLATOR_CACHE", "")
    fourth = bound.ImageStats(shared=bound.ImageStats())
    fourth.keep_in(tmp_path / "out-4" / ".cache")
    fourth.maxima(image, bound.CMYK_SPACE)
    assert measured == [1, 1]


def test_an_image_another_worker_measured_is_read_not_measured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build's two workers share the cache folder: an image one of them measured
    and kept after the other read the record is read again from it, not decoded."""
    pdf = pikepdf.new()
    first_image = cmyk_image(pdf, (215, 215, 200, 60), jpeg=True)
    other_image = cmyk_image(pdf, (10, 20, 30, 40), jpeg=True)
    one, two = bound.ImageStats(tmp_path), bound.ImageStats(tmp_path)
    two.maxima(first_image, bound.CMYK_SPACE)  # two reads the record (none yet)
    maxima = one.maxima(other_image, bound.CMYK_SPACE)
    one.save()
    measured: list[object] = []
    monkeypatch.setattr(bound, "_measure_image", measured.append)
    assert two.maxima(other_image, bound.CMYK_SPACE) == maxima
    assert measured == []
    # Unchanged since read: an image unknown is measured, the record not read again.
    reads: list[int] = []
    monkeypatch.setattr(two, "_load", lambda: reads.append(1))
    two.maxima(cmyk_image(pdf, (1, 2, 3, 4), jpeg=True), bound.CMYK_SPACE)
    assert len(measured) == 1 and reads == []


def test_files_checked_together_are_read_each_on_its_own(tmp_path: Path) -> None:
    """Two files whose graphics states are the same objects by number, one without
    overprint and one with it: what is read of one is never taken for the other's."""
    content = b"0.9 0.8 0.8 0 k 10 10 80 80 re f /G gs 0 0 0 1 k 20 20 60 60 re f"

    def states(overprint: bool) -> object:
        def make(pdf: pikepdf.Pdf) -> dict:
            state = pdf.make_indirect(pikepdf.Dictionary(OP=overprint, op=overprint, OPM=1))
            return {"/ExtGState": pikepdf.Dictionary(G=state)}

        return make

    clean = page_pdf(tmp_path / "clean.pdf", content, build=states(False))
    over = page_pdf(tmp_path / "over.pdf", content, build=states(True))
    tally = pf.InkTally()
    reports = pf.check_files(
        [clean, over], size=None, ink_limit=LIMIT, min_ppi=1, ink=True, dpi=DPI, tally=tally
    )
    assert [any(p.code == "ink" for p in r.problems) for r in reports] == [False, True]
    assert (tally.bound, tally.rendered) == (1, 1)
