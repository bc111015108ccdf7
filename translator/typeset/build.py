"""Building card PDFs: fit the text, check the fonts, convert the art, write CMYK PDFs.

A batch of cards is rendered as one WeasyPrint document (a process renders a deck far
faster than card by card), the text of each card is shrunk in steps of 0.02 down to a
floor until it fits its frame, and the document is split into one PDF per card, each
with the CMYK profile as its output intent.  A card whose text does not fit at the
floor, or that prints a character the card font lacks, fails the build (unless
``allow_overflow``): nothing is printed silently wrong.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import pikepdf
from fontTools.ttLib import TTFont

from .. import languages
from ..atomic import owner_alive, sweep, synced_directory, work_for, write_file
from ..cards.model import Card, Library
from ..errors import UserError
from ..glossary.loader import library_files, load_glossary, shipped_files
from ..glossary.model import Glossary
from ..heap import fewer_collections
from ..paths import OutsideError, check_inside, real
from . import manifest, pdfx
from .artwork import INK_LIMIT, Artwork, ArtworkError, Profile, find_profile, prepare
from .elements import LINE_ELEMENTS, PageMeasure, Spec, ceil_step, floor_step, measure_page
from .elements import room as element_room
from .elements import too_wide as element_too_wide
from .manifest import safe_artwork
from .options import (
    STEP,
    TOLERANCE_MM,
    BuildOptions,
)
from .render import (
    CardPage,
    Renderer,
    art_box,
    card_page,
    overflows,
    with_measured_text,
)
from .sizes import MM_PT, CardSize
from .theme import Theme, ThemeError, load_theme

#: A check of the PDFs a batch wrote: their problems, in the order of the paths.
Check = Callable[[Sequence[Path]], list[list[Any]]]


@dataclass
class CardResult:
    """What happened to one card: its PDF, its text scale, and what is wrong."""

    slug: str
    lang: str
    path: str | None
    scale: float
    #: mm the text is still too tall at the floor (None: it fits).
    overflow: float | None = None
    missing_glyphs: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: Not rendered: its inputs are those of the PDF already there.
    reused: bool = False
    #: Why it was not printed, each naming the card file (what does not fit, a word
    #: its glossary lacks); with ``allow_overflow`` what does not fit is a warning.
    errors: list[str] = field(default_factory=list)
    #: The smallest text size it prints (pt).
    min_size: float | None = None
    #: Each element's box (mm from the page's top-left) and smallest size (for a card
    #: rendered this time: the build record keeps only its smallest size).
    elements: dict[str, dict] = field(default_factory=dict)
    #: The preflight of its PDF made by the worker that wrote it (``build_cards``'
    #: ``check``): the digest of the bytes checked (:func:`.manifest.stamped`), and
    #: what the check found.
    checked: tuple[manifest.Stamped, list[Any]] | None = None
    #: The digest of its PDF as the process that wrote it read it back (rendered this
    #: time): what the build record keeps as the file's own (``output``), so that a
    #: later build reuses the file only while it is still these bytes
    #: (:func:`.manifest.intact`).
    written: manifest.Stamped | None = None
    #: Why it was not printed although it could be: its state (no translation, or
    #: stale or a draft under ``--strict``: :mod:`.readiness`).
    withheld: str | None = None
    #: Printed from the English card, the translation missing (``--fallback en``).
    fallback: bool = False
    #: The card's state in its language (:mod:`translator.cards.state`), when the
    #: build asked it.
    state: str | None = None

    @property
    def failed(self) -> bool:
        """Not printed, for a reason the card must fix."""
        return self.path is None and (
            self.overflow is not None or bool(self.missing_glyphs) or bool(self.errors)
        )


def percent(scale: float) -> str:
    return f"{round(scale * 100)} %"


def fit_words(scale: float) -> str:
    """A printed card's fit: ``fits``, or ``shrunk to 92 %``."""
    return "fits" if scale >= 1.0 else f"shrunk to {percent(scale)}"


def scales(floor: float) -> list[float]:
    count = round((1.0 - floor) / STEP)
    return [round(1.0 - i * STEP, 2) for i in range(count + 1)]


@lru_cache(maxsize=8)
def _cmap(path: Path) -> frozenset[int]:
    return frozenset(TTFont(str(path), lazy=True).getBestCmap())


def covered(theme: Theme) -> frozenset[int]:
    """Code points every font of the theme has (and so prints itself): every face of
    the text font and the fonts of other roles (drop caps, stats, footer), since a card
    prints any of its characters in one of them."""
    found: frozenset[int] | None = None
    for path in theme.font_files:
        try:
            cmap = _cmap(path)
        except Exception as error:  # fontTools raises many kinds for a broken font
            raise ThemeError(
                f"{path}: not a usable font ({type(error).__name__}: "
                f"{str(error)[:200]}): give a TrueType or OpenType file"
            ) from None
        found = cmap if found is None else found & cmap
    return found or frozenset()


def missing_glyphs(page: CardPage, codepoints: frozenset[int]) -> list[str]:
    """Characters the text font lacks, as 'U+XXXX NAME' (the renderer would fall back to
    another font, silently)."""
    import unicodedata  # noqa: PLC0415

    lacking = sorted({c for c in page.printed if c not in "\n\r\t" and ord(c) not in codepoints})
    return [f"U+{ord(c):04X} {unicodedata.name(c, 'unnamed')} ({c!r})" for c in lacking]


def fit(
    renderer: Renderer,
    pages: list[CardPage],
    floor: float,
    measured: list[tuple[float, float]] | None = None,
    laid_out: dict[int, dict[float, Any]] | None = None,
) -> dict[int, float]:
    """Give each card the largest text scale (1.00 down to ``floor`` in steps of 0.02,
    as the reference tries them) at which its text fits its frame, measuring text
    boxes only; returns, for cards that do not fit even at ``floor``, how many mm their
    text is too tall.  ``measured``: the text and frame heights of the pages at their
    current scale, when a render made them already.  ``laid_out``, when given, gets
    each measuring page, by card and scale (:func:`_lay_out` keeps their text).

    Few scales are measured: each measure bounds the text's height at every other
    scale (:func:`_status`), and the scales left unknown are bisected.  The answer may
    be a scale only bounded, never measured: the render that prints it checks it
    (:func:`run_job`)."""
    steps = scales(floor)
    samples: dict[int, list[tuple[float, float, float]]] = {i: [] for i in range(len(pages))}
    too_tall: dict[int, float] = {}
    pending = list(range(len(pages)))
    while pending:
        if measured is not None:
            measures, measured = measured, None
        else:
            document = renderer.render([pages[i] for i in pending], measure=True)
            measures = overflows(document)
            if laid_out is not None:
                for index, laid in zip(pending, document.pages, strict=True):
                    laid_out.setdefault(index, {})[pages[index].scale] = laid
        following = []
        for index, (content, frame) in zip(pending, measures, strict=True):
            page = pages[index]
            samples[index].append((page.scale, content, frame))
            page.scale, settled = _next_scale(samples[index], steps)
            if not settled:
                following.append(index)
            elif _status(samples[index], page.scale) is False:  # not even at the floor
                too_tall[index] = next(
                    c - f for s, c, f in samples[index] if abs(s - page.scale) < 1e-9
                )
        pending = following
    return too_tall


def _status(samples: Sequence[tuple[float, float, float]], scale: float) -> bool | None:
    """Whether the text fits at ``scale``, from the (scale, text height, frame height)
    measured: None when unknown.

    A text's height is its number of lines times line heights and spacing
    proportional to the scale.  Shrinking the text never adds a line, growing it never
    removes one: below a measured scale s0 the height is at most h0 * t / s0, above it
    at least that."""
    for measured, content, frame in samples:
        if abs(measured - scale) < 1e-9:
            return content - frame <= TOLERANCE_MM
    for measured, content, frame in samples:
        bound = content * scale / measured - frame
        if measured > scale and bound <= TOLERANCE_MM:
            return True
        if measured < scale and bound > TOLERANCE_MM:
            return False
    return None


def _next_scale(
    samples: Sequence[tuple[float, float, float]], steps: list[float]
) -> tuple[float, bool]:
    """The answer (settled) when the largest step not known to be too tall is known
    to fit; else the next scale to measure: the middle of the steps above it that are
    unknown (fitting only gets likelier as the scale goes down)."""
    unknown: list[float] = []
    for scale in steps:  # descending
        status = _status(samples, scale)
        if status is False:
            continue
        if status is True:
            if not unknown:
                return scale, True
            break
        unknown.append(scale)
    if not unknown:  # too tall at every step: settled at the floor once measured there
        floor = steps[-1]
        return floor, any(abs(s - floor) < 1e-9 for s, _, _ in samples)
    if len(samples) == 1 and samples[0][1] > samples[0][2] > 0:
        # The first probe below a text too tall: where it would fit if its height went
        # as the square of the scale (its line height and its number of lines both
        # shrink), the usual case; from there the steps left are bisected.  A probe
        # only orders the measures: the answer is the same largest step that fits.
        measured, content, frame = samples[0]
        guess = measured * math.sqrt(frame / content)
        return min(unknown, key=lambda scale: abs(scale - guess)), False
    return unknown[len(unknown) // 2], False


def write_atomic(path: Path, pdf: pikepdf.Pdf, sync_directory: bool = True) -> None:
    """Save ``pdf`` as ``path`` all at once and synced (:func:`.atomic.write_file`: an
    error names ``path``, never the temporary file; without ``sync_directory``, durable
    once :func:`.atomic.synced_directory` is called)."""

    def save(stream: BinaryIO) -> None:
        # A stream, not the path: given an existing path, pikepdf makes its own
        # temporary file beside it, which an interrupted build would leave behind.
        # 1.4: output intents and the transparency keys WeasyPrint writes (it says 1.3);
        # at most 1.6, as PDF/X-4 wants (WeasyPrint's own documents, the back, say 1.7
        # and use nothing of it).  A reproducible build (SOURCE_DATE_EPOCH) gets a
        # trailer /ID made from the content, not from the time and file name: the same
        # file written again is the same bytes, and its preflight is kept
        # (preflight.record).  Not always: without it the dates differ anyway.  qpdf
        # makes that /ID in a second pass over what it wrote, and a write failing
        # there (a full disk) aborts the process: it writes to memory, and the bytes
        # go to the file here, where a failure raises an error that names it.
        newer = pdf.pdf_version > pdfx.MAX_PDF_VERSION
        deterministic = pdfx.reproducible()
        target: BinaryIO = io.BytesIO() if deterministic else stream
        pdf.save(
            target,
            min_version="1.4",
            force_version=pdfx.MAX_PDF_VERSION if newer else "",  # "": pikepdf's default
            deterministic_id=deterministic,
        )
        if isinstance(target, io.BytesIO):
            stream.write(target.getbuffer())

    write_file(path, save, sync_directory=sync_directory, within=path.parent)


def _page_boxes(page: pikepdf.Page, size: CardSize) -> None:
    """TrimBox: the card as cut; BleedBox: the whole page (trim and bleed)."""
    bleed = size.bleed * MM_PT
    width, height = size.page_width * MM_PT, size.page_height * MM_PT
    page.obj.MediaBox = pikepdf.Array([0, 0, width, height])
    page.obj.BleedBox = pikepdf.Array([0, 0, width, height])
    page.obj.TrimBox = pikepdf.Array([bleed, bleed, width - bleed, height - bleed])
    page.obj.CropBox = pikepdf.Array([0, 0, width, height])
    if "/ArtBox" in page.obj:
        del page.obj.ArtBox


def label_pages(pdf: pikepdf.Pdf, labels: Sequence[str]) -> None:
    """Name each page (PDF page labels, a prefix without numbers): viewers show
    "flame-lash.fr" instead of "17", and the preflight names the card at fault."""
    numbers = pikepdf.Array()
    for index, label in enumerate(labels):
        numbers.append(index)
        numbers.append(pikepdf.Dictionary(P=pikepdf.String(label)))
    pdf.Root.PageLabels = pikepdf.Dictionary(Nums=numbers)


def _no_interpolation(pdf: pikepdf.Pdf) -> None:
    """Drop WeasyPrint's /Interpolate from images: PDF/X forbids it (a RIP smooths
    as it must), and a print shop's preflight may refuse the file for it."""
    for obj in pdf.objects:
        if (
            isinstance(obj, pikepdf.Stream)
            and obj.get("/Subtype") == "/Image"
            and "/Interpolate" in obj
        ):
            del obj.Interpolate


def _drop_unused_colour_spaces(page: pikepdf.Page) -> None:
    """Remove the colour spaces a page lists but never uses (WeasyPrint lists its Lab
    spaces on every page): a print shop's preflight may refuse a Lab space it finds in
    the resources without looking whether anything is painted in it."""
    resources = page.obj.get("/Resources")
    spaces = None if resources is None else resources.get("/ColorSpace")
    if not isinstance(spaces, pikepdf.Dictionary) or not spaces.keys():
        return
    content = page.obj.get("/Contents")
    streams = list(content) if isinstance(content, pikepdf.Array) else [content]
    streams += [
        x for x in page.obj.Resources.get("/XObject", {}).values() if x.get("/Subtype") == "/Form"
    ]
    used = b"\n".join(s.read_bytes() for s in streams if s is not None)
    for name in list(spaces.keys()):
        if name.encode() not in used:  # "/lab-d50" as written in a content stream
            del spaces[name]


def _images_named_by_content(page: pikepdf.Page) -> None:
    """Name the page's images after their bytes, not after the cached file WeasyPrint
    read (the MD5 of its path, which holds the output folder): the same card built
    into another folder is then the same file.  Only ``/name Do`` in the page's own
    content is renamed; a page drawing forms that share its resources is left as it
    is."""
    resources = page.obj.get("/Resources")
    xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
    contents = page.obj.get("/Contents")
    if not isinstance(xobjects, pikepdf.Dictionary) or not isinstance(contents, pikepdf.Stream):
        return
    renames: dict[str, str] = {}
    for name, xobject in xobjects.items():
        if not isinstance(xobject, pikepdf.Stream):
            return
        if xobject.get("/Subtype") == "/Form" and "/Resources" not in xobject:
            return  # it draws the page's images by their names
        if xobject.get("/Subtype") == "/Image":
            new = "/Im" + hashlib.sha256(xobject.read_raw_bytes()).hexdigest()[:32]
            if new not in xobjects and new not in renames.values():
                renames[name] = new
    if not renames:
        return
    data = contents.read_bytes()
    for old, new in renames.items():
        data = re.sub(re.escape(old.encode()) + rb"(?=\s+Do\b)", new.encode(), data)
        xobjects[new] = xobjects[old]
        del xobjects[old]
    contents.write(data)


def write_cards(
    document_pdf: bytes,
    pages: Sequence[CardPage],
    out: Path,
    profile: Profile,
    size: CardSize,
    ink_limit: float = INK_LIMIT,
) -> list[str]:
    """Split a rendered deck into one PDF per card, each with its page boxes, only the
    resources it uses, and its PDF/X labels and output intent, its pure black
    overprinting where the ground leaves the total ink under ``ink_limit``
    (:func:`.pdfx.finish`)."""
    written = []
    with pikepdf.open(io.BytesIO(document_pdf)) as whole:
        # Each page gets its own resources (only what it uses), so that copying a page
        # does not copy every card's images and fonts.
        whole.remove_unreferenced_resources()
        _no_interpolation(whole)
        for number, page in enumerate(pages):
            single = pikepdf.Pdf.new()
            single.pages.append(whole.pages[number])
            _page_boxes(single.pages[0], size)
            _drop_unused_colour_spaces(single.pages[0])
            _images_named_by_content(single.pages[0])
            label_pages(single, [f"{page.slug}.{page.lang}"])
            pdfx.finish(
                single,
                profile,
                f"{page.values['name']} ({page.lang})",
                overprint=True,
                ink_limit=ink_limit,
            )
            path = out / f"{page.slug}.{page.lang}.pdf"
            write_atomic(path, single, sync_directory=False)
            written.append(str(path))
    if written:  # one sync of the folder for the batch's renames
        synced_directory(Path(written[-1]))
    return written


@dataclass
class Job:
    """A batch for one process: the cards, and everything needed to render them."""

    cards: list[tuple[Card, str]]
    options: BuildOptions
    roots: list[Path]
    out: Path
    #: Checks the PDFs written (their problems, in order), or None.
    check: Check | None = None
    #: Run by a worker process of the pool (:func:`in_workers`), not the build's own.
    in_worker: bool = False


@lru_cache(maxsize=8)
def _renderer(theme_dir: str | None, size: CardSize, roots: tuple[Path, ...]) -> Renderer:
    """One renderer per theme, size and readable places, kept for the process's life:
    fonts, templates and stylesheets are loaded once for every batch."""
    return Renderer(load_theme(theme_dir), size, list(roots))


@lru_cache(maxsize=8)
def _glossary(lang: str, roots: tuple[Path, ...]) -> Glossary:
    return load_glossary(lang, [str(r) for r in roots])[0]


def _lay_out(
    renderer: Renderer, pages: list[CardPage], options: BuildOptions
) -> tuple[tuple[Any, list[Any]], list[PageMeasure], dict[int, float]]:
    """Lay the cards out, each with its text and one-line elements shrunk until they
    fit or reach their floors: (the first document and each card's final page), the
    measures of those pages, and how many mm too tall the text of each card is that
    does not fit at the floor.

    One full render first: most cards fit as they are, and their pages are final.  The
    text of the others is fitted on its box alone (:func:`fit`); a one-line element too
    wide gets the scale its measured width asks for (:func:`_shrink`).  A card whose
    text alone shrank takes its text box from a measuring layout at its scale
    (:func:`_with_measured_text`); the other cards changed are rendered again.  Every
    page changed is measured again, which checks both (the text's scale may be only
    bounded, a width not exactly proportional): a card still too large goes a step
    down, until it fits or is at its floor."""
    floor = options.text_floor
    narrows = "narrow" in renderer.theme.extra_fonts  # a narrow face for the footer
    first = renderer.render(pages)
    final = list(first.pages)
    measured = [measure_page(page) for page in first.pages]
    text = [measure.text for measure in measured]
    large = [i for i, (content, frame) in enumerate(text) if content - frame > TOLERANCE_MM]
    measuring: dict[int, dict[float, Any]] = {}
    too_tall = {
        large[i]: amount
        for i, amount in fit(
            renderer, [pages[i] for i in large], floor, [text[i] for i in large], measuring
        ).items()
    }
    pending = []
    for index, page in enumerate(pages):
        shrunk = _shrink(page, measured[index], options, narrows)
        if shrunk or page.scale < 1.0:
            pending.append(index)
    shrunk_text = {i for i in pending if not pages[i].fit and not pages[i].narrow}
    measuring = {large[i]: laid for i, laid in measuring.items()}
    whole = _with_measured_text(renderer, pages, shrunk_text, measuring, final)
    ready = sorted(shrunk_text.difference(whole))  # final pages already, to be checked
    pending = [i for i in pending if i not in shrunk_text or i in whole]
    while pending or ready:
        again = renderer.render([pages[i] for i in pending]).pages if pending else []
        following = []
        laid = [*zip(pending, again, strict=True), *((i, final[i]) for i in ready)]
        ready = []
        for index, laid_out in laid:
            final[index] = laid_out
            measured[index] = measure_page(laid_out)
            text[index] = heights = measured[index].text
            page = pages[index]
            redo = _shrink(page, measured[index], options, narrows)
            if (
                heights[0] - heights[1] > TOLERANCE_MM
                and index not in too_tall
                and page.scale > floor + 1e-9
            ):
                page.scale = round(page.scale - STEP, 2)
                redo = True
            if redo:
                following.append(index)
        pending = following
    for index, (content, frame) in enumerate(text):
        if content - frame > TOLERANCE_MM and index not in too_tall:
            too_tall[index] = content - frame  # at the floor, found by the last render
    return (first, final), measured, too_tall


def _with_measured_text(
    renderer: Renderer,
    pages: list[CardPage],
    indexes: set[int],
    measuring: dict[int, dict[float, Any]],
    final: list[Any],
) -> list[int]:
    """Give each card of ``indexes`` (its text shrunk, nothing else changed) its final
    page without laying it out whole again: its first page with the text frame of a
    measuring page at its scale (:func:`.render.with_measured_text`), the one fitting
    laid out, else one laid out now (a text box alone: a fraction of a card).  The
    cards this cannot be done for are returned, to be laid out whole; the others'
    pages are measured as any (:func:`_lay_out`), which checks the scale."""
    missing = [i for i in sorted(indexes) if pages[i].scale not in measuring.get(i, {})]
    if missing:
        document = renderer.render([pages[i] for i in missing], measure=True)
        for index, laid in zip(missing, document.pages, strict=True):
            measuring.setdefault(index, {})[pages[index].scale] = laid
    whole = []
    for index in sorted(indexes):
        page = with_measured_text(final[index], measuring[index][pages[index].scale])
        if page is None:
            whole.append(index)
        else:
            final[index] = page
    return whole


def _shrink(
    page: CardPage, measure: PageMeasure, options: BuildOptions, narrows: bool = False
) -> bool:
    """Give each one-line element of ``page`` too wide for its box the scale its width
    asks for, a step lower if that was tried, never under its floor (``shrink_floor``,
    raised so that it prints at ``min_size`` or more), or first the theme's narrow face
    when ``narrows`` (it has one) and the element may take it; True if one changed."""
    changed = False
    for spec in LINE_ELEMENTS:
        if not element_too_wide(measure, spec):
            continue
        if spec.narrows and narrows and spec.name not in page.narrow:
            page.narrow.add(spec.name)  # the narrow face first, then (if it may) smaller
            changed = True
            continue
        if not spec.shrinks:
            continue
        current = page.fit.get(spec.name, 1.0)
        element = measure.elements[spec.name]
        lowest = _element_floor(spec, (element.size_pt or 0.0) / current, options)
        if current <= lowest + 1e-9:
            continue
        target = floor_step(current * element_room(measure, spec) / element.width)
        if target >= current:
            target = round(current - STEP, 2)
        page.fit[spec.name] = max(target, lowest)
        changed = True
    return changed


def _element_floor(spec: Spec, size_pt: float, options: BuildOptions) -> float:
    """The smallest scale of an element printed at ``size_pt`` at scale 1."""
    if not spec.shrinks or size_pt <= 0:
        return 1.0
    return max(options.shrink_floor, ceil_step(options.min_size / size_pt))


def _judge(
    results: list[CardResult],
    pages: list[CardPage],
    measured: list[PageMeasure],
    too_tall: dict[int, float],
    options: BuildOptions,
) -> None:
    """Record on each card its scale, sizes and boxes, and what does not fit: an error
    (the card is not printed), or with ``allow_overflow`` a warning (printed cut)."""
    for index, (result, page, measure) in enumerate(zip(results, pages, measured, strict=True)):
        result.scale = page.scale
        result.min_size = measure.min_size_pt
        result.elements = {name: m.to_dict() for name, m in measure.elements.items()}
        problems = []
        if index in too_tall:
            result.overflow = too_tall[index]
            problems.append(
                f"{page.where}: the text is {too_tall[index]:.1f} mm too tall "
                f"for its box at {percent(page.scale)}: shorten it"
            )
        for spec in LINE_ELEMENTS:
            excess = element_too_wide(measure, spec)
            if excess:
                at = f" at {percent(page.fit.get(spec.name, 1.0))}" if spec.shrinks else ""
                problems.append(
                    f"{page.where}: {spec.what} is {excess:.1f} mm too wide "
                    f"for its box{at}: {spec.advice}"
                )
        if options.allow_overflow:
            result.warnings.extend(
                f"{problem} (printed cut: --allow-overflow)" for problem in problems
            )
        else:
            result.errors.extend(problems)
        if measure.smallest is not None and measure.smallest[0] < options.min_size - 0.01:
            size, where = measure.smallest
            result.errors.append(
                f"{page.where}: prints {size:.1f} pt text ({where}), under the "
                f"{options.min_size:g} pt minimum (--min-size): the theme sets that size"
            )


def _print_frame(
    page: CardPage,
    theme: Theme,
    profile: Profile,
    cache: Path,
    options: BuildOptions,
    frames: dict[Path, Artwork],
) -> None:
    """Give ``page`` its theme's background (the official look's frame) converted to
    CMYK through ``profile`` under the ink limit, as artwork is: once per image and
    profile (the artwork cache; ``frames`` spares even the cache's hashing within a
    batch, the official frames being 5 MB PNGs)."""
    path = theme.background(
        str(page.card.get("faction") or "None"), str(page.card.get("type") or "")
    )
    if path is None:
        return
    art = frames.get(path)
    if art is None:
        size = options.size
        try:
            art = prepare(
                path,
                profile,
                cache,
                box_mm=(size.page_width, size.page_height),
                card=f"the frame {path.name} of theme {theme.name}",
                ink_limit=options.ink_limit,
            )
        except ArtworkError as error:
            raise ThemeError(str(error)) from None
        if art.path is None:
            raise ThemeError(f"{path}: {'; '.join(art.warnings)}")
        frames[path] = art
    page.warnings.extend(art.warnings)
    page.values["background"] = art.path.as_uri() if art.path is not None else None


def place_artwork(
    page: CardPage, card: Card, profile: Profile, cache: Path, options: BuildOptions
) -> None:
    """The card's artwork converted to CMYK for its page (a placeholder and a warning
    when it cannot be): what a build and a preview both print."""
    try:
        art = prepare(
            safe_artwork(card),  # never a file outside the library
            profile,
            cache,
            box_mm=art_box(options.size, str(card.get("type"))),
            card=page.label,
            ink_limit=options.ink_limit,
        )
    except ArtworkError as error:
        page.warnings.append(str(error))
        return
    page.warnings.extend(art.warnings)
    if art.path is not None:
        page.values["artwork"] = art.path.as_uri()


def run_job(job: Job) -> list[CardResult]:
    """Render, fit and write a batch of cards (in a worker process, or this one), the
    garbage collector held to young objects meanwhile (:mod:`translator.heap`)."""
    with fewer_collections(worker=job.in_worker):
        return _batch(job)


def cache_folder(options: BuildOptions, out: Path) -> Path:
    """Where a build into ``out`` (a resolved path) keeps its converted artwork, the
    preflight's proofs and images' maxima: ``options.cache_dir``, else ``out/.cache``.
    A cache folder named inside the output folder (the default) must lie inside it
    once links are followed (:func:`translator.paths.check_inside`): an output folder
    is shared and downloaded, and a ``.cache`` there that is a link out of it would
    carry the build's writes (and reads) elsewhere; it is refused, with the link's
    name and what to do (a :class:`~translator.errors.UserError`, exit 2).  A cache
    folder given elsewhere is the user's choice, wherever it leads."""
    given = Path(options.cache_dir) if options.cache_dir is not None else out / ".cache"
    absolute = Path(os.path.abspath(given))
    if real(absolute.parent).is_relative_to(out):
        try:
            check_inside(absolute, out)
        except OutsideError as error:
            raise UserError(str(error)) from None
    return given.resolve()


def _batch(job: Job) -> list[CardResult]:
    profile = find_profile(job.options.icc)
    cache = cache_folder(job.options, job.out)
    renderer = _renderer(job.options.theme_dir, job.options.size, (*job.roots, cache))
    theme = renderer.theme
    codepoints = covered(theme)
    frames: dict[Path, Artwork] = {}
    pages = []
    for card, lang in job.cards:
        page = card_page(card, lang, theme, _glossary(lang, tuple(job.roots)))
        _print_frame(page, theme, profile, cache, job.options, frames)
        place_artwork(page, card, profile, cache, job.options)
        pages.append(page)
    results = [
        CardResult(p.slug, p.lang, None, 1.0, warnings=p.warnings, errors=list(p.errors))
        for p in pages
    ]
    for result, page in zip(results, pages, strict=True):
        result.missing_glyphs = missing_glyphs(page, codepoints)
    final, measured, too_tall = _lay_out(renderer, pages, job.options)
    _judge(results, pages, measured, too_tall, job.options)
    printable = [i for i, r in enumerate(results) if not r.missing_glyphs and not r.errors]
    if printable:
        whole = final[0].copy([final[1][i] for i in printable]).write_pdf()
        paths = write_cards(
            whole,
            [pages[i] for i in printable],
            job.out,
            profile,
            job.options.size,
            job.options.ink_limit,
        )
        for i, path in zip(printable, paths, strict=True):
            results[i].path = path
            results[i].written = manifest.stamped(Path(path))
        if job.check is not None:
            _check_written(job.check, [results[i] for i in printable])
    for refused in renderer.fetcher.refused:
        for result in results:
            result.warnings.append(f"the renderer refused to read {refused}")
    return results


def _check_written(check: Check, results: Sequence[CardResult]) -> None:
    """Preflight the PDFs of ``results`` here, in the worker that wrote them, while its
    caches (fonts measured, images' maxima) are warm and the other worker still renders:
    no separate pass over the files after the build.  Each result keeps the digest of
    the bytes checked (those written: :attr:`CardResult.written`), so that the build
    trusts the findings only for those bytes."""
    paths = [Path(str(result.path)) for result in results]
    stamps = [
        result.written or manifest.stamped(path)
        for result, path in zip(results, paths, strict=True)
    ]
    for result, stamp, problems in zip(results, stamps, check(paths), strict=True):
        result.checked = (stamp, problems)


def chosen_cards(library: Library, slugs: Sequence[str] = ()) -> list[Card]:
    """The cards a build of ``slugs`` prints (all when empty), in library order: those
    with their English card."""
    return [
        card
        for _, card in sorted(library.cards.items())
        if card.source is not None and (not slugs or card.slug in slugs)
    ]


def build_cards(
    library: Library,
    lang: str,
    out: str | Path,
    options: BuildOptions,
    roots: Sequence[str | Path] = (),
    slugs: Sequence[str] = (),
    force: bool = False,
    progress: Callable[[int], None] | None = None,
    check: Check | None = None,
) -> list[CardResult]:
    """Build one PDF per card of ``library`` in ``lang`` into ``out``.

    Cards whose inputs did not change since the last build into ``out``, and whose PDF
    is still the one built (its bytes' digest is the record's: :func:`.manifest.intact`)
    are not rendered again, unless ``force``; ``progress`` is called with the number
    of cards done as batches finish.  ``check`` (picklable: it runs in the workers) is
    called on the PDFs each batch wrote: its findings come back as
    :attr:`CardResult.checked` (the preflight of :func:`.batch.produce`).  A ``.cache``
    of ``out`` that leads out of it is refused first (:func:`cache_folder`).
    """
    out = Path(out).resolve()
    sweep(out)
    # Refused here, before any work, if it leads out; what killed builds left in it
    # (a converted image or its seal half-written) removed.
    sweep(cache_folder(options, out))
    cards = chosen_cards(library, slugs)
    library_roots = [Path(d.directory).resolve() for d in library.decks.values()]
    library_roots += [Path(r).resolve() for r in roots]
    theme = load_theme(options.theme_dir)
    profile = find_profile(options.icc)
    # The language's own data (typography, hyphenation) prints too: a change to it
    # makes new PDFs, like a glossary change.
    glossary_files = [
        *shipped_files(lang),
        *library_files(lang, [str(r) for r in library_roots]),
        *languages.get(lang).data_files(),
    ]
    shared = manifest.shared_digest(
        [*theme.directories, pdfx.registry_path()],
        theme.font_files,
        glossary_files,
        profile.sha256,
        manifest.settings_key(options),
    )
    recorded = {} if force else manifest.read(out)
    digests = {card.slug: manifest.card_digest(card, lang, shared) for card in cards}
    results: dict[str, CardResult] = {}
    todo = []
    for card in cards:
        name = f"{card.slug}.{lang}.pdf"
        entry = recorded.get(name)
        if entry is not None and manifest.intact(out, name, entry, digests[card.slug]):
            results[card.slug] = _reused(card.slug, lang, out / name, entry)
        else:
            todo.append((card, lang))
    if progress is not None and results:
        progress(len(results))
    if todo:
        # Forget what is about to be replaced before replacing it: were the build
        # interrupted after a PDF is written, the record must not vouch for it.
        stale = {f"{card.slug}.{lang}.pdf" for card, _ in todo}
        recorded = {name: entry for name, entry in recorded.items() if name not in stale}
        manifest.write(out, recorded)
    for result in _run(todo, options, library_roots, out, progress, check):
        results[result.slug] = result
    outputs = dict(recorded)
    for slug, result in results.items():
        name = f"{slug}.{lang}.pdf"
        if result.reused:
            continue  # its entry stays as it is (with its preflight record)
        entry = _entry(result, digests[slug])
        if entry is not None:
            outputs[name] = entry
        else:
            outputs.pop(name, None)
    manifest.write(out, outputs)
    # A card not printed leaves no PDF behind: the one there holds its old text, and
    # a print shop given the folder would print it.  Its record entry is gone already.
    for slug, result in results.items():
        if not result.path:
            (out / f"{slug}.{lang}.pdf").unlink(missing_ok=True)
    return [results[card.slug] for card in cards]


def _reused(slug: str, lang: str, path: Path, entry: dict) -> CardResult:
    """A card whose PDF is still the one built (:func:`.manifest.intact`), as its
    build record's entry says it printed (the entry's shape was checked as the record
    was read: :func:`.manifest.read`)."""
    return CardResult(
        slug,
        lang,
        str(path),
        float(entry.get("scale", 1.0)),
        overflow=entry.get("overflow"),
        warnings=list(entry.get("warnings", [])),
        reused=True,
        min_size=entry.get("min_size"),
    )


def _entry(result: CardResult, inputs: str) -> dict | None:
    """The build record's entry of a card rendered this time: the digest of its
    ``inputs``, that of its PDF as written (:attr:`CardResult.written`) and how it
    printed; None when it has no PDF (not printed, or gone already)."""
    if not result.path or result.written is None or result.written.digest == manifest.MISSING:
        return None
    return {
        "digest": inputs,
        "output": result.written.digest,
        "scale": result.scale,
        "overflow": result.overflow,
        "warnings": result.warnings,
        "min_size": result.min_size,
    }


def _run(
    cards: list[tuple[Card, str]],
    options: BuildOptions,
    roots: list[Path],
    out: Path,
    progress: Callable[[int], None] | None,
    check: Check | None = None,
) -> list[CardResult]:
    """Render cards in batches: in this process for a few, else over the worker pool."""
    if not cards:
        return []
    if options.jobs <= 1 or len(cards) < 8:
        found = run_job(Job(cards, options, roots, out, check))
        if progress is not None:
            progress(len(found))
        return found
    # A few batches per worker: one fixed cost of a render (~15 ms) per batch, and a
    # progress bar that moves.
    size = max(8, math.ceil(len(cards) / (options.jobs * 3)))

    def stopped() -> None:
        # Workers ignore Ctrl-C (they would print their own tracebacks): killed, the
        # temporary files they were writing are removed.
        sweep(out)
        sweep(cache_folder(options, out))

    parts = in_workers(
        options.jobs,
        [
            partial(run_job, Job(cards[i : i + size], options, roots, out, check, in_worker=True))
            for i in range(0, len(cards), size)
        ],
        done=None if progress is None else (lambda part: progress(len(part))),
        stopped=stopped,
    )
    found = [result for part in parts for result in part]
    for result in found:  # the workers read what they wrote: this process need not
        if result.written is not None:
            manifest.vouch(result.written)
    return found


#: What a call run by :func:`in_workers` returns.
T = TypeVar("T")
_POOLS: dict[int, ProcessPoolExecutor] = {}
#: How often a worker looks whether its build is still running (where the system does
#: not tell it, see :func:`_worker_start`), in seconds.
WATCH_INTERVAL = 0.2


def _pool(jobs: int) -> ProcessPoolExecutor:
    """Worker processes kept for the life of this one: importing WeasyPrint and loading
    fonts costs about half a second a process, paid once however many builds follow."""
    if jobs not in _POOLS:
        _POOLS[jobs] = ProcessPoolExecutor(
            max_workers=jobs,
            initializer=_worker_start,
            initargs=(os.getpid(), threading.main_thread().ident),
        )
    return _POOLS[jobs]


def in_workers(
    jobs: int,
    calls: Sequence[Callable[[], T]],
    done: Callable[[T], object] | None = None,
    stopped: Callable[[], object] | None = None,
) -> list[T]:
    """The results of ``calls`` (picklable: module functions and their arguments), in
    their order, run over the build's worker pool of ``jobs`` processes: the cards'
    batches, and the work the main process would do alone after them (the preflight
    of their PDFs).  ``done`` is given each result as it comes (a progress bar).
    Ctrl-C or a failed call stops the build now, not after the calls queued or
    running: the workers are killed (then ``stopped`` cleans up after them)."""
    futures = []
    try:
        # Workers are forked at the first call: a Ctrl-C waits until they ignore it.
        with _sigint_blocked():
            pool = _pool(jobs)
            futures = [pool.submit(call) for call in calls]
        if done is not None:
            for future in as_completed(futures):
                done(future.result())
        return [future.result() for future in futures]
    except BaseException:
        with _sigint_ignored():
            for future in futures:
                future.cancel()
            if _stop(jobs) and stopped is not None:
                stopped()
        raise


def _stop(jobs: int) -> bool:
    """Kill the workers of the pool of ``jobs`` (if there is one) and wait until they are
    gone; the next build makes a new pool.  True if there was one."""
    pool = _POOLS.pop(jobs, None)
    if pool is None:
        return False
    # ProcessPoolExecutor has no public way to stop its workers before Python 3.14
    # (kill_workers): its processes, by pid.
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with suppress(OSError, ValueError):  # gone already, or closed
            process.kill()
    # The pool's own thread sees its workers die, reaps them (so that :func:`sweep`
    # knows they are gone) and ends; shutdown waits for it.
    pool.shutdown(wait=True, cancel_futures=True)
    return True


def stop_workers() -> None:
    """Stop every pool's worker processes (the next build forks new ones): what a
    long-running client (the watch server) does before it ends."""
    for jobs in list(_POOLS):
        _stop(jobs)


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Ctrl-C (SIGINT) held back in this thread's signal mask until the block ends (then
    raised): processes forked meanwhile start with it blocked (see :func:`_worker_start`),
    threads started meanwhile keep it blocked."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        yield
        return
    previous = mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, previous)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ctrl-C ignored while the block runs (the workers being stopped: a second Ctrl-C
    must not leave them half stopped); Python handles it in the main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


#: prctl(2) option: the signal a process gets when the thread that forked it ends.
PR_SET_PDEATHSIG = 1


def _worker_start(build: int, main_thread: int | None) -> None:
    """Tie a worker process to the build that started it (its initializer).

    Ctrl-C is for the build, which stops the workers itself: they ignore it.  A worker
    dies with the build: on Linux the kernel kills it when the build's main thread ends
    (``PR_SET_PDEATHSIG``: the signal is sent when the *thread* that forked the worker
    ends, and ProcessPoolExecutor forks its workers in the thread that submits the
    first batch, so only workers forked by the main thread use it), and a thread looks
    every :data:`WATCH_INTERVAL` whether the build is still there (everywhere else).
    A worker never renames a file into place once the build is gone (:func:`work_for`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    unblock = getattr(signal, "pthread_sigmask", None)
    if unblock is not None:  # blocked by :func:`_run` while it forked this process
        unblock(signal.SIG_UNBLOCK, {signal.SIGINT})
    work_for(build)
    if (
        sys.platform.startswith("linux")
        and os.getppid() == build
        and threading.get_ident() == main_thread
    ):
        _die_with_parent()
    if not owner_alive():  # gone before the kernel was told
        os._exit(1)
    threading.Thread(target=_watch, name="translator-watch-build", daemon=True).start()


def _die_with_parent() -> None:
    import ctypes  # noqa: PLC0415

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: the watching thread is enough
        pass


def _watch() -> None:
    while owner_alive():
        time.sleep(WATCH_INTERVAL)
    os._exit(1)
