"""The content walk's shared reading: operands converted once for every reader, the ink
reader's table of operators, a path's box grown point by point, a ``TJ`` array read
from its text, a page's graphics states looked up once, a font's simple glyphs
measured once by their bytes."""

from __future__ import annotations

import io
import re
from decimal import Decimal
from pathlib import Path

import pikepdf
import pytest
from fontTools.subset import Options, Subsetter
from fontTools.ttLib import TTFont
from hypothesis import given, settings
from hypothesis import strategies as st

from translator.pdf.geometry import bounds
from translator.pdf.painter import _numbers
from translator.pdf.preflight import bound, content, extent


def test_numeric_operands_are_floats_and_the_others_pikepdf_objects() -> None:
    name = pikepdf.Name("/P0")
    assert _numbers("c", [1, Decimal("2.5"), 0, 0, 3, Decimal("-0.25")]) == (
        "c",
        [1.0, 2.5, 0.0, 0.0, 3.0, -0.25],
    )
    op, operands = _numbers("scn", [Decimal("0.5"), name])
    assert op == "scn" and operands == [Decimal("0.5"), name]  # a pattern's name: as it is
    assert _numbers("re", []) == ("re", [])


def test_every_operator_the_ink_reader_reads_has_its_reader() -> None:
    assert set(bound._READERS) == bound.OPERATORS


def _path_box(calls: list[tuple[str, list[float]]]) -> bound.Box | None:
    reader = bound.InkReader()
    reader.start()
    for op, operands in calls:
        reader.operator(op, list(operands), None, (2.0, 0.0, 0.0, 3.0, 5.0, 7.0))
    return reader._path_box()


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["m", "l", "c", "v", "y", "re", "h"]),
            st.lists(st.floats(-1e4, 1e4), max_size=7),
        ),
        max_size=12,
    )
)
def test_a_paths_box_is_the_box_of_all_its_points(calls: list[tuple[str, list[float]]]) -> None:
    points = []
    for op, numbers in calls:
        if op == "re" and len(numbers) == 4:
            x, y, w, h = numbers
            points += [(x, y), (x + w, y + h)]
        else:
            points += [(numbers[i], numbers[i + 1]) for i in range(0, len(numbers) - 1, 2)]
    expected = None
    if points:
        x0, y0, x1, y1 = bounds(points)
        expected = bounds([(2 * x0 + 5, 3 * y0 + 7), (2 * x1 + 5, 3 * y1 + 7)])
    assert _path_box(calls) == expected


_ARRAY = re.compile(rb"\[(?:\s*(?:<[0-9A-Fa-f]*>|[-+]?(?:\d+\.?\d*|\.\d+)))*\s*\]")
_STRING = re.compile(rb"<([0-9A-Fa-f]*)>")
_NUMBER = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)")


def _reference_run(text: bytes, unit: int) -> tuple[bytes, float, float] | None:
    """A ``TJ`` array's text read in passes: its strings, then its numbers with the
    strings blanked out (what :func:`.extent._runs` reads in one)."""
    strings = _STRING.findall(text) if _ARRAY.fullmatch(text) else None
    if strings is None or any(len(digits) % unit for digits in strings):
        return None
    numbers = [float(n) for n in _NUMBER.findall(_STRING.sub(b" ", text))]
    data = bytes.fromhex(b"".join(strings).decode())
    return data, sum(n for n in numbers if n > 0), -sum(n for n in numbers if n < 0)


@given(
    st.lists(
        st.one_of(
            st.binary(max_size=6),
            st.integers(-99, 99),  # few digits: the reference's regex backtracks on them
            st.floats(-99, 99).map(lambda v: Decimal(f"{v:.1f}")),
        ),
        max_size=8,
    ),
    st.booleans(),
)
@settings(deadline=None)
def test_a_tj_array_is_read_from_its_text(items: list[object], two_byte: bool) -> None:
    array = pikepdf.Array([pikepdf.String(i) if isinstance(i, bytes) else i for i in items])
    expected = _reference_run(array.unparse(), 4 if two_byte else 2)
    runs = extent._runs([array], two_byte)
    if expected is None:
        assert runs is None
    else:
        assert runs is not None
        [run] = runs
        assert (run.data, run.back, run.forward) == expected


def test_a_tj_array_that_is_not_plain_fails_at_once() -> None:
    many = pikepdf.Array([*(Decimal("1234.5678") for _ in range(40)), pikepdf.String(b"A")])
    assert extent._runs([many], two_byte=False) is None  # not after 2**320 tries


def test_a_tj_array_of_partial_codes_is_read_glyph_by_glyph() -> None:
    one = pikepdf.Array([pikepdf.String(b"\x00\x41\x42"), 5])
    assert extent._runs([one], two_byte=True) is None
    assert extent._runs([one], two_byte=False) is not None
    named = pikepdf.Array([pikepdf.String(b"AB"), pikepdf.Name("/X")])
    assert extent._runs([named], two_byte=False) is None


def test_a_pages_graphics_states_are_looked_up_once() -> None:
    pdf = pikepdf.new()
    group = pdf.make_stream(b"", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form)
    resources = pikepdf.Dictionary(
        ExtGState=pikepdf.Dictionary(
            a=pikepdf.Dictionary(ca=1),
            m=pikepdf.Dictionary(SMask=pikepdf.Dictionary(G=group)),
        )
    )
    checker = content.ContentChecker(300.0)
    first = checker._named_state(resources, pikepdf.Name("/a"))
    assert checker._named_state(resources, pikepdf.Name("/a"))[0] is first[0]
    assert first[1] is None
    _, found = checker._named_state(resources, pikepdf.Name("/m"))
    assert isinstance(found, pikepdf.Stream) and found.objgen == group.objgen
    assert checker._named_state(resources, pikepdf.Name("/none")) == (None, None)


DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def _subset(text: str) -> bytes:
    """DejaVu Sans Bold cut to the glyphs of ``text``, their ids kept (as WeasyPrint's
    subsets are: every other glyph emptied)."""
    font = TTFont(DEJAVU)
    subsetter = Subsetter(Options(retain_gids=True, notdef_outline=True))
    subsetter.populate(text=text)
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _reference_boxes(data: bytes) -> dict[int, bound.Box]:
    """Each glyph's box as fontTools reads the whole glyf table."""
    font = TTFont(io.BytesIO(data), lazy=True)
    table = font["glyf"]
    boxes: dict[int, bound.Box] = {}
    for gid, name in enumerate(font.getGlyphOrder()):
        glyph = table[name]
        if glyph.numberOfContours == 0:
            boxes[gid] = extent._EMPTY
            continue
        glyph.recalcBounds(table)
        boxes[gid] = (glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax)
    return boxes


@pytest.mark.skipif(not DEJAVU.is_file(), reason="apt-get install fonts-dejavu-core")
def test_simple_glyphs_are_measured_from_their_bytes_once() -> None:
    data = _subset("AHxg")
    font = TTFont(io.BytesIO(data), lazy=True)
    extent._SIMPLE.clear()
    found = extent._simple_glyph_boxes(font, font.getGlyphOrder())
    assert found == _reference_boxes(data)
    assert found is not None and len(extent._SIMPLE) == len(
        [b for b in found.values() if b != extent._EMPTY]
    )
    again = _subset("xA")  # another subset: its glyphs are known by their bytes
    known = len(extent._SIMPLE)
    font = TTFont(io.BytesIO(again), lazy=True)
    assert extent._simple_glyph_boxes(font, font.getGlyphOrder()) == _reference_boxes(again)
    assert len(extent._SIMPLE) == known


@pytest.mark.skipif(not DEJAVU.is_file(), reason="apt-get install fonts-dejavu-core")
def test_composite_glyphs_are_measured_through_their_components() -> None:
    data = _subset("Aée")  # é: a composite of e and the acute
    font = TTFont(io.BytesIO(data), lazy=True)
    table = font["glyf"]
    assert any(table[name].isComposite() for name in font.getGlyphOrder())
    font = TTFont(io.BytesIO(data), lazy=True)
    assert extent._simple_glyph_boxes(font, font.getGlyphOrder()) == _reference_boxes(data)


def test_a_glyf_table_shorter_than_its_index_is_left_to_fonttools() -> None:
    class Font(dict):
        def getTableData(self, tag: str) -> bytes:
            return b"\x00" * 12

    assert extent._simple_glyph_boxes(Font(loca=[0, 12, 24]), ["a", "b"]) is None
    assert extent._simple_glyph_boxes(Font(loca=[0, 12]), ["a", "a"]) is None
    assert extent._simple_glyph_boxes(Font(loca=[0, 4]), ["a"]) is None  # a short glyph
