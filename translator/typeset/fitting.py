"""Fitting a card: the largest text scale that fits its box, the one-line elements
shrunk to their boxes, the fonts' glyphs checked, the frame printed.

What the build asks of every card (:func:`lay_out`, in its workers) and what the
editor's preview asks of one (:mod:`.card_preview`): one piece of code for both, so
that the preview shows what will be printed.  The renderer and the glossary of a
worker are kept per theme, size and library (:func:`cached_renderer`,
:func:`cached_glossary`).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from fontTools.ttLib import TTFont

from ..glossary.loader import load_glossary
from ..glossary.model import Glossary
from ..pdf.profiles import Profile, ProfileError
from ..pdf.sizes import CardSize
from .artwork import Artwork, prepare
from .elements import LINE_ELEMENTS, PageMeasure, Spec, ceil_step, floor_step, measure_page
from .elements import room as element_room
from .elements import too_wide as element_too_wide
from .fits import Fitted
from .options import (
    STEP,
    TOLERANCE_MM,
    BuildOptions,
)
from .render import (
    BODY_PT,
    FOOTERS,
    CardPage,
    Renderer,
    overflows,
    with_measured_text,
)
from .results import CardResult
from .theme import Theme, ThemeError, load_theme


def percent(scale: float) -> str:
    return f"{round(scale * 100)} %"


def fit_words(scale: float) -> str:
    """A printed card's fit: ``fits``, or ``shrunk to 92 %``."""
    return "fits" if scale >= 1.0 else f"shrunk to {percent(scale)}"


def scales(floor: float) -> list[float]:
    count = round((1.0 - floor) / STEP)
    return [round(1.0 - i * STEP, 2) for i in range(count + 1)]


@lru_cache(maxsize=8)
def font_codepoints(path: Path) -> frozenset[int]:
    return frozenset(TTFont(str(path), lazy=True).getBestCmap())


def covered(theme: Theme) -> frozenset[int]:
    """Code points every font of the theme has (and so prints itself): every face of
    the text font and the fonts of other roles (drop caps, stats, footer), since a card
    prints any of its characters in one of them."""
    found: frozenset[int] | None = None
    for path in theme.font_files:
        try:
            codepoints = font_codepoints(path)
        except Exception as error:  # fontTools raises many kinds for a broken font
            raise ThemeError(
                f"{path}: not a usable font ({type(error).__name__}: "
                f"{str(error)[:200]}): give a TrueType or OpenType file"
            ) from None
        found = codepoints if found is None else found & codepoints
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
    each measuring page, by card and scale (:func:`lay_out` keeps their text).

    Few scales are measured: each measure bounds the text's height at every other
    scale (:func:`_status`), and the next measured is where the measures so far say the
    text meets its frame (:func:`_next_scale`).  The answer may be a scale only
    bounded, never measured: the render that prints it checks it (:func:`run_job`).  A
    card is refused on measures alone (:func:`_refused_on_measures`)."""
    steps = scales(floor)
    samples: dict[int, list[tuple[float, float, float]]] = {i: [] for i in range(len(pages))}
    too_tall: dict[int, float] = {}
    refused: list[int] = []
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
                refused.append(index)
        pending = following
    for index in _refused_on_measures(renderer, pages, refused, samples, steps, laid_out):
        too_tall[index] = next(
            c - f for s, c, f in samples[index] if abs(s - pages[index].scale) < 1e-9
        )
    return too_tall


#: A line of rule text, in em of its size, with room for a symbol or a drop cap taller
#: than the text's line height (1.25 in the shipped themes).
LINE_EM = 1.5


def _within_a_line(samples: Sequence[tuple[float, float, float]], scale: float) -> bool:
    """Whether the text might fit at ``scale`` if one line fewer than the bounds say:
    the tightest bound from a measure under it is within a line of the frame."""
    frame = samples[0][2]
    bounds = [content * scale / measured for measured, content, _ in samples if measured < scale]
    line_mm = LINE_EM * BODY_PT * scale * 25.4 / 72
    return not bounds or max(bounds) - frame <= line_mm + TOLERANCE_MM


def _refused_on_measures(
    renderer: Renderer,
    pages: list[CardPage],
    refused: list[int],
    samples: dict[int, list[tuple[float, float, float]]],
    steps: list[float],
    laid_out: dict[int, dict[float, Any]] | None,
) -> list[int]:
    """The cards of ``refused`` (too tall at every step, as bounded) still too tall once
    every step not measured yet that might fit is measured; a card that fits at one
    after all gets the largest such step, the reference's answer.  The bounds assume
    that shrinking a text never adds a line, and a hyphenation or a float can add one
    (a card of the stress library fits at 70 % and not at 68 %): every step whose
    bound is within a line of its frame (:func:`_within_a_line`) is measured before a
    card is refused, a cost only refused cards pay, and only those near fitting."""
    wanted = [
        (index, scale)
        for index in refused
        for scale in steps
        if not any(abs(scale - measured) < 1e-9 for measured, _, _ in samples[index])
        and _within_a_line(samples[index], scale)
    ]
    if wanted:
        copies = [replace(pages[index], scale=scale) for index, scale in wanted]
        document = renderer.render(copies, measure=True)
        for (index, scale), laid, (content, frame) in zip(
            wanted, document.pages, overflows(document), strict=True
        ):
            samples[index].append((scale, content, frame))
            if laid_out is not None:
                laid_out.setdefault(index, {})[scale] = laid
    still = []
    for index in refused:
        fitting = [s for s, c, f in samples[index] if c - f <= TOLERANCE_MM]
        if fitting:
            pages[index].scale = max(fitting)
        else:
            pages[index].scale = steps[-1]
            still.append(index)
    return still


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
    to fit; else the next scale to measure: among the steps above it that are unknown,
    the one where the measures so far say the text meets its frame (:func:`_crossing`),
    else the middle one (fitting only gets likelier as the scale goes down)."""
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
    guess = _crossing(samples)
    if guess is not None:
        # Where the text's height would meet its frame (:func:`_crossing`): the largest
        # unknown step at or under it, the usual answer.  A probe only orders the
        # measures: the answer is the same largest step that fits.
        under = [scale for scale in unknown if scale <= guess + 1e-9]
        return (max(under) if under else min(unknown)), False
    return unknown[len(unknown) // 2], False


#: The exponent of the text's height in its scale, until two measures tell it: a
#: text's height goes as the scale when it keeps its lines, as its square when its
#: lines are as full as can be; between, as a card's paragraphs lose lines or not
#: (``bench/fitting.py`` measures the choice on the sample and stress libraries).
HEIGHT_EXPONENT = 1.5


def _crossing(samples: Sequence[tuple[float, float, float]]) -> float | None:
    """The scale at which the text's height would equal its frame's, with the height
    taken as ``a * scale ** k`` through the two measures nearest the frame (one
    measure: ``k`` = :data:`HEIGHT_EXPONENT`); 0 when the text was too tall to be
    measured (it reached the page's bottom: the smallest step is tried), None when
    nothing is known."""
    finite = [sample for sample in samples if math.isfinite(sample[1]) and sample[1] > 0]
    if not finite:
        return 0.0 if any(math.isinf(sample[1]) for sample in samples) else None
    frame = finite[0][2]
    if frame <= 0:
        return None
    nearest = sorted(finite, key=lambda sample: abs(sample[1] - frame))[:2]
    exponent = HEIGHT_EXPONENT
    if len(nearest) == 2:
        (s1, c1, _), (s2, c2, _) = nearest
        if abs(s1 - s2) > 1e-9 and abs(c1 - c2) > 1e-9:
            exponent = min(max(math.log(c1 / c2) / math.log(s1 / s2), 0.8), 3.0)
    scale, content, _ = nearest[0]
    return scale * (frame / content) ** (1 / exponent)


@lru_cache(maxsize=8)
def cached_renderer(theme_dir: str | None, size: CardSize, roots: tuple[Path, ...]) -> Renderer:
    """One renderer per theme, size and readable places, kept for the process's life:
    fonts, templates and stylesheets are loaded once for every batch."""
    return Renderer(load_theme(theme_dir), size, list(roots))


@lru_cache(maxsize=8)
def cached_glossary(lang: str, roots: tuple[Path, ...]) -> Glossary:
    return load_glossary(lang, [str(r) for r in roots])[0]


def lay_out(
    renderer: Renderer,
    pages: list[CardPage],
    options: BuildOptions,
    kept: Collection[int] = (),
) -> tuple[tuple[Any, list[Any]], list[PageMeasure], dict[int, float]]:
    """Lay the cards out, each with its text and one-line elements shrunk until they
    fit or reach their floors: (the first document and each card's final page), the
    measures of those pages, and how many mm too tall the text of each card is that
    does not fit at the floor.

    One full render first: most cards fit as they are, and their pages are final (in a
    theme with a narrow face, the footers too long for the regular one are known
    before it: :func:`_narrow_first`).  The cards of ``kept`` come with the answer an
    earlier build found (:mod:`.fits`): laid out at it, a card whose text fits and
    whose one-line elements fit is done; one that does not is laid out again as it is
    and fitted like the others.  The text of the others is fitted on its box alone
    (:func:`fit`); a one-line element too wide gets the scale its measured width asks
    for (:func:`_shrink`).  A card whose text alone
    shrank takes its text box from a measuring layout at its scale
    (:func:`_with_measured_text`); the other cards changed are rendered again.  Every
    page changed is measured again, which checks both (the text's scale may be only
    bounded, a width not exactly proportional): a card still too large goes a step
    down, until it fits or is at its floor."""
    kept = set(kept)
    if "narrow" in renderer.theme.extra_fonts:
        _narrow_first(renderer, [page for i, page in enumerate(pages) if i not in kept])
    first = renderer.render(pages)
    final = list(first.pages)
    measured = [measure_page(page) for page in first.pages]
    done = {i for i in kept if fits_as_laid(measured[i])}
    missed = sorted(kept.difference(done))
    if missed:  # a kept answer that no longer fits: fitted from the start
        for index in missed:
            Fitted(1.0).apply(pages[index])
        again = renderer.render([pages[i] for i in missed]).pages
        for index, page in zip(missed, again, strict=True):
            final[index], measured[index] = page, measure_page(page)
    rest = [i for i in range(len(pages)) if i not in done]
    if not rest:
        return (first, final), measured, {}
    sub_final = [final[i] for i in rest]
    sub_measured = [measured[i] for i in rest]
    too_tall = _fit_laid_out(renderer, [pages[i] for i in rest], options, sub_final, sub_measured)
    for position, index in enumerate(rest):
        final[index], measured[index] = sub_final[position], sub_measured[position]
    return (first, final), measured, {rest[i]: amount for i, amount in too_tall.items()}


#: The one-line elements that may take a theme's narrow face.
NARROWING = tuple(spec for spec in LINE_ELEMENTS if spec.narrows)


def _narrow_first(renderer: Renderer, pages: list[CardPage]) -> None:
    """Set in the narrow face the elements of ``pages`` that need it, from a layout of
    those elements alone (:data:`.render.FOOTERS`: a short line each, a fraction of a
    card), so that a card whose footer needs it is not laid out whole twice.  The
    whole card's layout checks the choice as any (:func:`_shrink` narrows an element
    still too wide); a theme whose footer mode shows no footer only leaves it to that."""
    if not pages or not NARROWING:
        return
    for page, laid in zip(pages, renderer.render(pages, measure=FOOTERS).pages, strict=True):
        measure = measure_page(laid)
        for spec in NARROWING:
            if spec.name in measure.elements and element_too_wide(measure, spec):
                page.narrow.add(spec.name)


def fits_as_laid(measure: PageMeasure) -> bool:
    """Whether a card laid out fits: its text in its box, every one-line element in its."""
    content, frame = measure.text
    return content - frame <= TOLERANCE_MM and not any(
        element_too_wide(measure, spec) for spec in LINE_ELEMENTS
    )


def _fit_laid_out(
    renderer: Renderer,
    pages: list[CardPage],
    options: BuildOptions,
    final: list[Any],
    measured: list[PageMeasure],
) -> dict[int, float]:
    """Fit ``pages`` laid out once as they are (``final``, ``measured``: replaced by
    their final pages and measures): :func:`lay_out`'s work past its first render."""
    floor = options.text_floor
    narrows = "narrow" in renderer.theme.extra_fonts  # a narrow face for the footer
    # The one-line elements as laid out in ``final``: a card whose text alone changes
    # from there may take its text box from a measuring layout.
    as_laid = [(dict(page.fit), set(page.narrow)) for page in pages]
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
    shrunk_text = {i for i in pending if (pages[i].fit, pages[i].narrow) == as_laid[i]}
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
    return too_tall


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
    pages are measured as any (:func:`lay_out`), which checks the scale."""
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


def judge(
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


def print_frame(
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
        except ProfileError as error:
            raise ThemeError(str(error)) from None
        if art.path is None:
            raise ThemeError(f"{path}: {'; '.join(art.warnings)}")
        frames[path] = art
    page.warnings.extend(art.warnings)
    page.values["background"] = art.path.as_uri() if art.path is not None else None
