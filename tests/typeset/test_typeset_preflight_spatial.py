"""The spatial ink bound, never weaker than the render: an overprinted paint's ground is
what was painted before it where it paints (boxes of paths, clips, forms, glyphs
measured on the embedded font's outlines).

Every page here is decided by the preflight and checked against Ghostscript's render
of the page read whole (:func:`.test_typeset_preflight_bound.agrees`): a page decided
without its own render is within the limit there, a page the render fails is failed.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from fontTools.ttLib import TTFont
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from translator.pdf import preflight as pf
from translator.pdf.painter import PAINTED_OPERATORS
from translator.pdf.preflight import content, extent

from .test_typeset_preflight_bound import OVERPRINT, agrees, cmyk_image, page_pdf

pytestmark = pytest.mark.skipif(not pf.ink_available(), reason="apt-get install ghostscript")

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
needs_font = pytest.mark.skipif(not DEJAVU.is_file(), reason="apt-get install fonts-dejavu-core")


def truetype(pdf: pikepdf.Pdf) -> pikepdf.Dictionary:
    """DejaVu Sans Bold embedded whole as a simple TrueType font (WinAnsi, the
    printable ASCII codes), with its widths."""
    font = TTFont(DEJAVU)
    cmap, metrics = font.getBestCmap(), font["hmtx"].metrics
    units = font["head"].unitsPerEm
    widths = [round(metrics[cmap[code]][0] * 1000 / units) for code in range(32, 127)]
    descriptor = pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor,
        FontName=pikepdf.Name("/DejaVuSans-Bold"),
        Flags=32,
        FontBBox=[0, 0, 10, 10],  # a lie: the bound reads the outlines themselves
        ItalicAngle=0,
        Ascent=760,
        Descent=-240,
        CapHeight=730,
        StemV=80,
        FontFile2=pdf.make_stream(DEJAVU.read_bytes()),
    )
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.TrueType,
            BaseFont=pikepdf.Name("/DejaVuSans-Bold"),
            FirstChar=32,
            LastChar=126,
            Widths=widths,
            Encoding=pikepdf.Name.WinAnsiEncoding,
            FontDescriptor=descriptor,
        )
    )


def text_page(path: Path, ground: bytes, text: bytes) -> Path:
    """A ground of C 90 M 80 Y 80 (250 %) painted by ``ground``, then black text set to
    overprint (``text``: the text object's placing and string)."""
    content_stream = (
        b"0.9 0.8 0.8 0 k " + ground + b" /OP gs 0 0 0 1 k BT /F 30 Tf " + text + b" ET"
    )

    def resources(pdf: pikepdf.Pdf) -> dict:
        return {"/Font": pikepdf.Dictionary(F=truetype(pdf)), **OVERPRINT}

    return page_pdf(path, content_stream, build=resources)


@needs_font
@pytest.mark.parametrize(
    ("text", "route"),
    [
        (b"1 0 0 1 5 60 Tm (MMW) Tj", "bound"),  # above the ground: never on it
        (b"1 0 0 1 5 10 Tm (MMW) Tj", "rendered"),  # on it: 250 % + 100 %, found
        # The baseline 3 pt above the ground: the descenders reach into it, though the
        # text's line (and a box from its size alone) would not.
        (b"1 0 0 1 5 43 Tm (gjpq) Tj", "rendered"),
        # Beside the ground after a long advance: the pen moved by the widths.
        (b"1 0 0 1 -200 60 Tm (MMMMMMMMMM) Tj", "bound"),
    ],
)
def test_overprinted_black_text_is_placed_by_its_glyphs(
    tmp_path: Path, text: bytes, route: str
) -> None:
    path = text_page(tmp_path / "text.pdf", b"0 0 100 40 re f", text)
    tally = agrees(path)
    assert getattr(tally, route) == 1, tally


@needs_font
def test_text_moved_by_its_spacing_onto_the_ground_is_rendered(tmp_path: Path) -> None:
    """A TJ adjustment and character spacing carry the pen back over the ground."""
    path = text_page(
        tmp_path / "text.pdf",
        b"0 0 40 100 re f",
        b"1 0 0 1 60 50 Tm -10 Tc [(MM) 4000 (W)] TJ",
    )
    tally = agrees(path)
    assert tally.bound == 0, tally


@pytest.mark.parametrize(
    ("clip", "route"),
    [
        (b"5 5 40 40 re W n", "bound"),  # the art cut to x 5-45: the black beside it
        (b"5 5 40 40 re 60 5 30 30 re W n", "rendered"),  # the clip's box reaches it
    ],
)
def test_an_image_is_placed_within_its_clip(tmp_path: Path, clip: bytes, route: str) -> None:
    """Art of 250 % C+M+Y drawn over the whole page, then clipped; black overprinted
    at x 60-90."""
    content_stream = (
        b"q " + clip + b" q 100 0 0 100 0 0 cm /Im Do Q Q /OP gs 0 0 0 1 k 60 5 30 30 re f"
    )

    def resources(pdf: pikepdf.Pdf) -> dict:
        return {
            "/XObject": pikepdf.Dictionary(Im=cmyk_image(pdf, (215, 215, 208, 50))),
            **OVERPRINT,
        }

    tally = agrees(page_pdf(tmp_path / "clip.pdf", content_stream, build=resources))
    assert getattr(tally, route) == 1, tally


@pytest.mark.parametrize(
    ("bbox", "route"), [([0, 0, 45, 100], "bound"), ([0, 0, 100, 100], "rendered")]
)
def test_a_form_is_clipped_by_its_bbox(tmp_path: Path, bbox: list, route: str) -> None:
    def resources(pdf: pikepdf.Pdf) -> dict:
        form = pdf.make_stream(b"0.9 0.8 0.8 0 k 0 0 100 100 re f")
        form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, bbox
        return {"/XObject": pikepdf.Dictionary(Fm=form), **OVERPRINT}

    content_stream = b"/Fm Do /OP gs 0 0 0 1 k 60 5 30 30 re f"
    tally = agrees(page_pdf(tmp_path / "form.pdf", content_stream, build=resources))
    assert getattr(tally, route) == 1, tally


def test_transparent_overprint_on_a_dark_ground_is_rendered(tmp_path: Path) -> None:
    """Black at 60 % opacity overprinted on 250 %: what blends is bounded by the most
    of each channel (the render decides)."""
    states = pikepdf.Dictionary(
        OP=pikepdf.Dictionary(OP=True, op=True, OPM=1, ca=0.6, CA=0.6),
    )
    content_stream = b"0.9 0.8 0.8 0 k 0 0 100 100 re f /OP gs 0 0 0 1 k 20 20 60 60 re f"
    tally = agrees(
        page_pdf(tmp_path / "alpha.pdf", content_stream, resources={"/ExtGState": states})
    )
    assert tally.bound == 0, tally


def test_a_type3_glyph_is_rendered(tmp_path: Path) -> None:
    def resources(pdf: pikepdf.Pdf) -> dict:
        glyph = pdf.make_stream(b"1000 0 0 0 1000 1000 d1 0 0 1000 1000 re f")
        font = pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type3,
            FontBBox=[0, 0, 1000, 1000],
            FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
            CharProcs=pikepdf.Dictionary(box=glyph),
            Encoding=pikepdf.Dictionary(Differences=[65, pikepdf.Name("/box")]),
            FirstChar=65,
            LastChar=65,
            Widths=[1000],
        )
        return {"/Font": pikepdf.Dictionary(T=font)}

    content_stream = b"0.9 0.8 0.8 0.6 k BT /T 50 Tf 10 10 Td (A) Tj ET"
    tally = agrees(page_pdf(tmp_path / "type3.pdf", content_stream, build=resources))
    assert tally.rendered == 1 and "a Type3 font" in tally.reasons, tally


def test_the_text_check_reads_the_content_walk_s_parse() -> None:
    """The content walk with an ink reader parses every operator the text check reads,
    so that the two share one parse of each page."""
    wanted = set(content._WANTED_INK.split()) | {"INLINE IMAGE"}
    assert wanted >= PAINTED_OPERATORS


def test_a_font_that_cannot_be_measured_gives_up(tmp_path: Path) -> None:
    """A Type1 font: its outlines are not read, so the page is rendered."""
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1)
    with pytest.raises(extent.Unmeasured):
        extent.font_shape(font)


# ------------------------------------------------------------------ random pages

_LEVEL = st.sampled_from([0.0, 0.2, 0.5, 0.8, 0.9, 1.0])
_SPAN = st.integers(min_value=0, max_value=90)


@st.composite
def _paints(draw: st.DrawFn) -> bytes:
    """Up to five rectangles of random colours, some overprinted, some clipped, over
    an optional image of 250 % C+M+Y."""
    parts = [b"q 50 0 0 50 0 0 cm /Im Do Q"] if draw(st.booleans()) else []
    for _ in range(draw(st.integers(min_value=1, max_value=5))):
        c, m, y, k = (draw(_LEVEL) for _ in range(4))
        x0, y0 = draw(_SPAN), draw(_SPAN)
        w, h = draw(st.integers(1, 60)), draw(st.integers(1, 60))
        state = b"/OP gs" if draw(st.booleans()) else b"/NO gs"
        clip = b"%d %d 30 30 re W n " % (draw(_SPAN), draw(_SPAN)) if draw(st.booleans()) else b""
        parts.append(
            b"q %s %s%.1f %.1f %.1f %.1f k %d %d %d %d re f Q"
            % (state, clip, c, m, y, k, x0, y0, w, h)
        )
    return b" ".join(parts)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(paints=_paints())
@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_random_pages_are_decided_as_their_renders_say(tmp_path: Path, paints: bytes) -> None:
    def resources(pdf: pikepdf.Pdf) -> dict:
        states = pikepdf.Dictionary(
            OP=pikepdf.Dictionary(OP=True, op=True, OPM=1),
            NO=pikepdf.Dictionary(OP=False, op=False),
        )
        image = cmyk_image(pdf, (215, 215, 208, 50))
        return {"/ExtGState": states, "/XObject": pikepdf.Dictionary(Im=image)}

    agrees(page_pdf(tmp_path / "random.pdf", paints, build=resources))
