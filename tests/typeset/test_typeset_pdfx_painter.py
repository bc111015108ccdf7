"""How the overprint's and the text check's painter reads content
(translator/pdf/pdfx.py ``_Painter``): its shortcuts give what pikepdf's objects
and a point-by-point reading give, on small PDFs made here."""

from __future__ import annotations

import contextlib
import math
from decimal import Decimal

import pikepdf
import pytest

from translator.pdf.geometry import apply
from translator.pdf.painter import (
    _NOWHERE,
    _UNCLIPPED,
    Paint,
    Painter,
    _GraphicsState,
    _kept_metrics,
    _Metrics,
    _operations,
    _Region,
    _State,
    _text_points,
    _widths_key,
    _written_items,
    shown_items,
    text_metrics,
)


def stream(content: bytes) -> tuple[pikepdf.Pdf, pikepdf.Stream]:
    pdf = pikepdf.new()
    return pdf, pdf.make_stream(content)


def test_numbers_are_read_as_pikepdf_reads_them() -> None:
    _, content = stream(
        b"q 1 0 0 -1 0 266.456693 cm -.5 +3 m 4. 0.0000001 l 123456789012345 -0 l -0.0 0 l "
        b"/P0 scn 0.2 /P1 scn 0 0 0 1 k (a b) Tj [(x) -20 <0041>] TJ 1 true m 1 null m Q"
    )
    instructions = pikepdf.parse_content_stream(content)
    read = list(_operations(instructions))
    assert [op for _, op, _ in read] == [str(i.operator) for i in instructions]
    numbers = 0
    for (index, op, operands), instruction in zip(read, instructions, strict=True):
        assert instructions[index] is instruction
        objects = list(instruction.operands)
        if all(type(o) in (int, Decimal) for o in objects) and op not in ("Tj", "TJ"):
            numbers += 1
            assert [repr(float(v)) for v in operands] == [repr(float(o)) for o in objects]
        else:  # a name, a string, true, null: pikepdf's objects
            assert list(operands) == objects
    assert numbers == 8  # q cm m l l l k Q


def test_an_inline_image_leaves_every_operand_to_pikepdf() -> None:
    _, content = stream(b"1 2 m BI /W 2 /H 1 /CS /G /BPC 8 ID \n\n EI 3 4 l")
    instructions = pikepdf.parse_content_stream(content)
    read = list(_operations(instructions))
    assert [op for _, op, _ in read] == ["m", "INLINE IMAGE", "l"]
    assert [list(operands) for _, _, operands in read] == [list(i.operands) for i in instructions]


def test_parsed_pairs_are_read_as_they_are() -> None:
    pairs = [("q", []), ("d", [[], 0]), ("m", [1, 2])]
    assert list(_operations(pairs)) == [(0, "q", []), (2, "m", [1, 2])]


@pytest.mark.parametrize(
    "array",
    [
        b"[<0044> 0 <00550046> 15 () -0.5 <> .25]",
        b"[(a b) 3]",  # a literal string: read from the objects
        b"[/Name 3 true]",
        b"[<< /A 1 >> 2]",
        b"[[1] 2]",
    ],
)
def test_a_tj_array_reads_as_its_objects(array: bytes) -> None:
    _, content = stream(array + b" TJ")
    [instruction] = pikepdf.parse_content_stream(content)
    objects: list[bytes | float] = []
    for item in instruction.operands[0]:
        if isinstance(item, pikepdf.String):
            objects.append(bytes(item))
        else:
            with contextlib.suppress(TypeError, ValueError):
                objects.append(float(item))
    assert shown_items(list(instruction.operands)) == objects
    written = _written_items(instruction.operands[0].unparse())
    assert written is None or array.startswith(b"[<0044>")
    assert written == (objects if written is not None else None)


def region(points: list[tuple[float, float]]) -> _Region:
    found = _Region.of([points], False)
    assert found is not None
    return found


RING = [
    (10 + 8 * math.cos(t / 10 * math.tau), 10 + 8 * math.sin(t / 10 * math.tau)) for t in range(10)
]


def test_clips_judge_a_point_as_each_of_them_would() -> None:
    square, ring = region([(0, 0), (15, 0), (15, 15), (0, 15)]), region(RING)
    clips = _UNCLIPPED.plus(square).plus(ring)
    assert clips.shapes == (ring,)
    points = [(x / 2, y / 2) for x in range(-2, 42) for y in range(-2, 42)]
    inside = [p for p in points if square.contains(*p) and ring.contains(*p)]
    assert clips.inside(points) == inside
    assert [p for p in points if clips.contains(*p)] == inside
    assert 0 < len(inside) < len(points)


def test_a_clip_of_nan_contains_nothing() -> None:
    nan = region([(math.nan, 0), (1, 0), (1, 1)])
    clips = _UNCLIPPED.plus(nan)
    assert clips.box == _NOWHERE
    assert clips.inside([(0.5, 0.5)]) == [] and not nan.contains(0.5, 0.5)


def test_the_paints_under_points_are_the_last_that_cover_each() -> None:
    painter = Painter()
    ring, square = region(RING), region([(0, 0), (15, 0), (15, 15), (0, 15)])
    small = region([(4, 4), (6, 4), (6, 6), (4, 6)])
    for shape, clips in [(square, ()), (ring, (square,)), (small, ()), (ring, (small,))]:
        clipped = _UNCLIPPED
        for clip in clips:
            clipped = clipped.plus(clip)
        painter.paints.append(Paint(shape, clipped, (0.1 * len(painter.paints),) * 4))
    points = [(x / 3, y / 3) for x in range(-3, 70) for y in range(-3, 70)]

    def by_hand(x: float, y: float, before: int) -> Paint | None:
        for paint in reversed(painter.paints[:before]):
            inside = paint.region.contains(x, y)
            if inside and all(clip.contains(x, y) for clip in paint.clips.regions):
                return paint
        return None

    for before in range(len(painter.paints) + 1):
        assert list(painter.under(points, before)) == [by_hand(x, y, before) for x, y in points]
        assert list(painter.under(points[5:9], before)) == [
            by_hand(x, y, before) for x, y in points[5:9]
        ]


def test_text_points_are_the_matrix_applied() -> None:
    placed = (0.75, 0.1, -0.2, -0.75, 17.3, 266.456693)
    found = _text_points(placed, 123.4, 5, (1.5, 4.25))
    assert found == [
        apply(placed, 123.4 * (0.02 + 0.96 * i / 4), y) for i in range(5) for y in (1.5, 4.25)
    ]


@pytest.mark.parametrize(
    ("entries", "before", "after"),
    [
        ({"ca": 0.5, "LW": 2}, {}, {"fill_alpha": 0.5, "line_width": 2.0}),
        ({"ca": pikepdf.Name.X, "CA": 0.5}, {}, {}),  # the first not a number ends it
        ({"SMask": pikepdf.Name("/None")}, {"blended": True}, {"blended": False}),
        ({"BM": pikepdf.Array([pikepdf.Name.Multiply])}, {}, {"blended": True}),
        ({"BM": pikepdf.Name.Normal}, {"blended": True}, {"blended": True}),
        ({"OP": True}, {}, {"overprint": (True, True, 0)}),
        ({"OP": True, "op": False, "OPM": 1}, {}, {"overprint": (True, False, 1)}),
        ({"op": True}, {"overprint": (False, False, 1)}, {"overprint": (False, True, 1)}),
    ],
)
def test_an_extgstate_sets_what_it_says(entries: dict, before: dict, after: dict) -> None:
    resources = pikepdf.Dictionary(
        ExtGState=pikepdf.Dictionary(G0=pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, **entries))
    )
    found = _GraphicsState.named(resources, "/G0")
    assert found is not None and _GraphicsState.named(resources, "/G1") is None
    state = _State(**before)
    found.apply(state)
    assert state == _State(**{**before, **after})


def composite(pdf: pikepdf.Pdf, widths: pikepdf.Array) -> pikepdf.Object:
    cid = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, W=widths, DW=900))
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type0,
            DescendantFonts=pikepdf.Array([cid]),
        )
    )


def test_a_composite_font_s_widths_are_read_once_for_its_copies() -> None:
    one, other = pikepdf.new(), pikepdf.new()
    widths = [3, [250, 333], 10, 12, 500]
    first = _kept_metrics(composite(one, pikepdf.Array(widths)))
    assert _kept_metrics(composite(other, pikepdf.Array(widths))) is first
    assert first == text_metrics(composite(one, pikepdf.Array(widths)))
    assert first.widths == {3: 250.0, 4: 333.0, 10: 500.0, 11: 500.0, 12: 500.0}
    assert first.default == 900.0
    changed = _kept_metrics(composite(other, pikepdf.Array([3, [251]])))
    assert changed.widths == {3: 251.0}
    # A width in another object: not kept by what the array says (its reference).
    referred = pikepdf.Array([3, other.make_indirect(pikepdf.Array([300]))])
    assert _widths_key(composite(other, referred)) is None


def test_an_advance_sums_as_glyph_by_glyph() -> None:
    metrics = _Metrics(True, {65: 600.0, 66: 333.0}, 1000.0)
    state = _State(font_size=9.5, char_spacing=0.1, horizontal=0.9)
    items: list[bytes | float] = [b"\x00A\x00B", -20.0, b"\x00C", 3.5]
    expected = 0.0
    for item in items:
        if isinstance(item, bytes):
            total = 0.0
            for i in range(0, len(item) - 1, 2):
                width = metrics.widths.get(int.from_bytes(item[i : i + 2], "big"), 1000.0)
                total += (width * 0.001 * 9.5 + 0.1) * 0.9
            expected += total
        else:
            expected -= item / 1000 * 9.5 * 0.9
    assert metrics.advance(items, state) == expected
