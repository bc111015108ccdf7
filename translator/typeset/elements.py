"""Every printed element measured in its box: names, type line, cost, stats, footer.

The rule text is fitted by :func:`translator.typeset.build.fit`; the one-line elements
are measured here, on the same WeasyPrint layout (its box tree, read through
:mod:`translator.typeset.weasy`), without another render.  A one-line element holds
its text on one line (``white-space: nowrap``), so the text is too long exactly when
it is wider than the box's content: its width, proportional to its font size, tells
the scale that fits.  The type line holds the type and the faction side by side: the
type is shrunk to leave room for the faction.  Every text size printed is read from
the layout, so that a theme printing something under the minimum size is caught
whatever its CSS says.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from . import weasy

#: WeasyPrint's CSS pixel, in mm and in points.
PX_MM = 25.4 / 96
PX_PT = 0.75
#: Scales are tried in steps of this, as the rule text's.
STEP = 0.02
#: Horizontal overflow below this (mm) is rounding.
TOLERANCE_MM = 0.05
#: The room kept between the type and the faction on the type line (mm).
TYPE_GAP_MM = 1.2
#: A text whose box ends this close to its page's bottom may have lost lines there.
TRUNCATED_MM = 0.5


@dataclass(frozen=True)
class Spec:
    """A measured element: the class of the box it must fit, the class of its text,
    how it is named in messages and what to do when it does not fit."""

    name: str
    box: str
    text: str
    what: str
    advice: str
    #: Another text on the same line (the faction beside the type).
    beside: str | None = None
    #: Whether it may shrink at all (the faction label is as small as it may be).
    shrinks: bool = True
    #: Whether, too wide, it may be set in the theme's narrow face (``fonts.narrow``)
    #: instead of being refused: the footer, printed at the smallest size already.
    narrows: bool = False


SPECS = (
    Spec("name", "name", "name1", "name", "shorten it or use two name lines"),
    Spec("name2", "name", "name2", "second name line", "shorten it"),
    Spec("type", "typeline", "type", "type line", "shorten the subtype", beside="faction"),
    Spec(
        "faction",
        "typeline",
        "faction",
        "faction name",
        "shorten it in the glossary",
        shrinks=False,
    ),
    Spec("cost", "cost", "cost", "cost", "it holds one or two digits"),
    Spec("attack", "attack", "attack", "attack", "it holds one or two digits"),
    Spec("defense", "defense", "defense", "defense", "it holds one or two digits"),
    Spec(
        "info",
        "info",
        "info",
        "footer",
        "shorten it (it is printed on one line)",
        shrinks=False,
        narrows=True,
    ),
    Spec("loyalty", "loyalty", "loyalty", "loyalty marks", ""),
    Spec("art", "art", "placeholder", "artwork", ""),
    Spec("text", "text-frame", "text-content", "text", "shorten it"),
)
#: Elements whose fit is measured here (the rule text is fitted on its own).
LINE_ELEMENTS = tuple(spec for spec in SPECS if spec.name not in ("text", "loyalty", "art"))


@dataclass
class Measure:
    """One element on a laid-out page (mm from the page's top-left corner)."""

    name: str
    #: The box the element must stay in (x0, y0, x1, y1).
    box: tuple[float, float, float, float]
    #: The box's content (where its text goes).
    content: tuple[float, float, float, float]
    #: The horizontal extent of its text (mm) and the smallest size it prints (pt).
    left: float = math.inf
    right: float = -math.inf
    size_pt: float | None = None

    @property
    def width(self) -> float:
        """The width of its text (mm; 0 for an element without text)."""
        return max(0.0, self.right - self.left)

    def to_dict(self) -> dict[str, Any]:
        return {
            "box": [round(v, 2) for v in self.box],
            "size_pt": None if self.size_pt is None else round(self.size_pt, 2),
        }


@dataclass
class PageMeasure:
    """What a laid-out card page holds: its elements and the smallest text size."""

    elements: dict[str, Measure] = field(default_factory=dict)
    #: The smallest text size printed, and the class of the element printing it.
    smallest: tuple[float, str] | None = None
    #: The height of the rule text and of its frame (mm; 0, 0 without a text box).
    text: tuple[float, float] = (0.0, 0.0)

    @property
    def min_size_pt(self) -> float | None:
        return self.smallest[0] if self.smallest is not None else None


def _classes(box: Any) -> tuple[str, ...]:
    return weasy.classes(box)


def _rect(box: Any, content: bool = False) -> tuple[float, float, float, float]:
    left, top, right, bottom = weasy.content_rect(box) if content else weasy.border_rect(box)
    return (left * PX_MM, top * PX_MM, right * PX_MM, bottom * PX_MM)


def _walk(box: Any, owners: tuple[str, ...]) -> Iterator[tuple[Any, tuple[str, ...]]]:
    """Every box under ``box`` with the measured classes of it and its ancestors
    (into absolutely positioned boxes, which WeasyPrint keeps behind placeholders)."""
    box = weasy.laid_out(box)
    classes = _classes(box)
    if classes:
        owners = (*owners, *classes)
    yield box, owners
    for child in weasy.children(box):
        yield from _walk(child, owners)


#: The classes of the boxes measured: the elements' and the rule text's content.
_BOX_CLASSES = {spec.box for spec in SPECS} | {"text-content"}
_TEXT_CLASSES = {spec.text: spec for spec in SPECS}


def measure_page(page: Any) -> PageMeasure:
    """The elements of one laid-out page (a ``weasyprint.Page``), and the height of its
    rule text (see :func:`text_heights`), in one walk of its boxes."""
    found = PageMeasure()
    boxes: dict[str, Any] = {}
    for box, owners in _walk(weasy.page_box(page), ()):
        classes = _classes(box)
        for name in classes:
            if name in _BOX_CLASSES and name not in boxes and weasy.has_geometry(box):
                boxes[name] = box
        if not weasy.is_text(box) or not weasy.text(box).strip():
            continue
        size = weasy.style(box, "font_size") * PX_PT
        owner = next((c for c in reversed(owners) if c in _TEXT_CLASSES), None)
        where = owner or next((c for c in reversed(owners)), "page")
        if found.smallest is None or size < found.smallest[0]:
            found.smallest = (size, where)
        if owner is None:
            continue
        spec = _TEXT_CLASSES[owner]
        container = boxes.get(spec.box)
        if container is None:
            continue
        measure = found.elements.get(spec.name)
        if measure is None:
            measure = found.elements[spec.name] = Measure(
                spec.name, _rect(container), _rect(container, content=True)
            )
        left, width = weasy.position(box)[0], weasy.size(box)[0]
        measure.left = min(measure.left, left * PX_MM)
        measure.right = max(measure.right, (left + width) * PX_MM)
        measure.size_pt = size if measure.size_pt is None else min(measure.size_pt, size)
    for name in ("loyalty", "art"):
        container = boxes.get(name)
        if container is not None and name not in found.elements:
            found.elements[name] = Measure(name, _rect(container), _rect(container, True))
    frame = boxes.get("text-frame")
    if frame is not None and "text" not in found.elements:
        found.elements["text"] = Measure("text", _rect(frame), _rect(frame, True))
    found.text = text_heights(page, frame, boxes.get("text-content"))
    return found


def text_heights(page: Any, frame: Any, content: Any) -> tuple[float, float]:
    """The height of the rule text and of its frame, in mm.

    The frame has a fixed height and hides what overflows it; its content, a block
    formatting context, is as tall as its text and floats.  WeasyPrint drops the lines
    below the page's bottom: a text reaching it is infinitely tall here (measure it on
    a taller page: ``Renderer.render(measure=True)``)."""
    if frame is None or content is None:
        return (0.0, 0.0)
    height = weasy.margin_height(content) * PX_MM
    bottom = weasy.position(content)[1] + weasy.margin_height(content)
    if bottom * PX_MM > page.height * PX_MM - TRUNCATED_MM:
        height = math.inf  # cut at the page's bottom: taller than can be seen here
    return (height, weasy.size(frame)[1] * PX_MM)


def too_wide(measures: PageMeasure, spec: Spec) -> float:
    """How many mm the element's text is too wide for its box (0 when it fits)."""
    measure = measures.elements.get(spec.name)
    if measure is None:
        return 0.0
    excess = measure.width - room(measures, spec)
    return excess if excess > TOLERANCE_MM else 0.0


def room(measures: PageMeasure, spec: Spec) -> float:
    """The width the element's text may take (mm)."""
    measure = measures.elements[spec.name]
    width = measure.content[2] - measure.content[0]
    if spec.beside is not None and spec.beside in measures.elements:
        width -= measures.elements[spec.beside].width + TYPE_GAP_MM
    return width


def floor_step(value: float) -> float:
    """The largest step of :data:`STEP` at or below ``value``."""
    return round(math.floor(round(value / STEP, 6)) * STEP, 2)


def ceil_step(value: float) -> float:
    """The smallest step of :data:`STEP` at or above ``value``."""
    return round(math.ceil(round(value / STEP, 6)) * STEP, 2)
