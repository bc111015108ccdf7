"""``translator build`` and ``translator preflight``, and one card's preview (the
editor's and ``build --watch``'s): the settings checked, the typesetter called."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..paths import Paths, path_list
from .library import load_library

if TYPE_CHECKING:
    from ..cards import Library
    from ..pdf.preflight import FileReport
    from ..pdf.sizes import CardSize
    from ..typeset.batch import Report as BuildReport
    from ..typeset.batch import Request
    from ..typeset.card_preview import CardPreview

__all__ = ["PREVIEW_DIR", "BuildPlan", "build", "plan_build", "preflight", "preview_card"]

#: Told how many card PDFs are done since the last call (a progress bar's step).
Advance = Callable[[int], None]
#: Told what a build is doing ("cards (fr)", "preflight", ...).
Stage = Callable[[str], None]


def size_of(size: str | CardSize) -> CardSize:
    """A card size by name (``arcmage``, ``poker``) or ``WxH+B`` in mm (anything else
    is an :class:`~translator.errors.InvalidOption`)."""
    from ..pdf.sizes import card_size  # noqa: PLC0415

    return card_size(size) if isinstance(size, str) else size


def _check_fit(floor: float, min_size: float) -> None:
    """How far a build (or a preview) may shrink a card: within what print allows."""
    if not 0.2 <= floor <= 1.0:
        raise UsageError("--floor is a scale between 0.2 and 1.0 (the reference's 0.52)")
    if not 4.0 <= min_size <= 9.0:
        raise UsageError("--min-size is a text size between 4 and 9 points (default 6)")


def job_count(jobs: int | None) -> int:
    """Render processes: one per core unless told."""
    return max(1, os.cpu_count() or 1) if jobs is None else max(1, jobs)


@dataclass
class BuildPlan:
    """A build checked and ready to run: the library and what to make of it.
    :attr:`total` is how many card PDFs :meth:`run` will make or keep."""

    library: Library
    request: Request

    @property
    def total(self) -> int:
        from ..typeset.batch import total_cards  # noqa: PLC0415

        return total_cards(self.library, self.request)

    def run(self, progress: Advance | None = None, stage: Stage | None = None) -> BuildReport:
        """Build: cards, decks, sheets, previews, then the preflight of every file."""
        from ..typeset.batch import produce  # noqa: PLC0415

        return produce(self.library, self.request, progress, stage)


def plan_build(
    paths: Paths | None = None,
    *,
    languages: Sequence[str] = ("en",),
    out: str | os.PathLike[str] = "out",
    cards: Sequence[str] = (),
    size: str | CardSize = "arcmage",
    theme: str | None = None,
    icc: str | None = None,
    floor: float = 0.52,
    min_size: float = 6.0,
    allow_overflow: bool = False,
    jobs: int | None = None,
    force: bool = False,
    deck: bool = False,
    backs: str = "duplex",
    sheets: str | None = None,
    gutter: float = 0.0,
    margin: float = 5.0,
    sheet_backs: bool = False,
    previews: Sequence[str] = (),
    dpi: float = 300.0,
    ink_limit: float = 300.0,
    check: bool = True,
    fallback: str | None = None,
    strict: bool | None = None,
) -> BuildPlan:
    """Check a build's settings and read its library, without making anything yet
    (the command line shows a progress bar of :attr:`BuildPlan.total` while it
    runs).  The settings are those of ``translator build``: ``languages`` (codes,
    or ``all``), ``cards`` (slugs; default all), ``deck``, ``sheets`` (``a4``,
    ``letter``), ``previews`` (``png``, ``webp``), ``check=False`` for no
    preflight...; each out of its range raises an error saying what it may be.
    ``fallback="en"`` prints the English card where a translation is missing (else it
    is not printed, nor the deck and sheet files holding it), ``strict=True`` refuses
    stale translations and drafts (else printed with a warning); None for both takes
    ``translator.toml``'s ``[build]`` (:mod:`translator.typeset.readiness`).

    >>> plan = plan_build("cards/sample", languages=["all"], deck=True, jobs=1)
    >>> plan.request.languages, plan.total
    (['en', 'eo', 'fr'], 72)
    """
    from ..typeset import batch  # noqa: PLC0415 - WeasyPrint loads slowly
    from ..typeset.options import BuildOptions  # noqa: PLC0415

    card_size = size_of(size)
    _check_fit(floor, min_size)
    if not 24 <= dpi <= 1200:
        raise UsageError("--dpi is between 24 and 1200 (300 to review, 96 for thumbnails)")
    if not 0 <= gutter <= 20:
        raise UsageError("--gutter is between 0 and 20 mm")
    if sheet_backs and not sheets:
        raise UsageError("--sheet-backs goes with --sheets a4|letter")
    if not 0 <= margin <= 30:
        raise UsageError("--margin is between 0 and 30 mm (5: what most printers leave)")
    if sheets:
        from ..typeset import assemble  # noqa: PLC0415

        fault = assemble.layout_fault(card_size, sheets, gutter, margin)
        if fault is not None:
            raise UsageError(f"--sheets {sheets}: {fault}")
    chosen = path_list(paths)
    library = load_library(chosen)
    langs = batch.languages(languages, library)
    present = set(batch.languages(["all"], library))
    unknown = [lang for lang in langs if lang not in present]
    if unknown:
        raise UsageError(
            f"--lang {unknown[0]}: no card is in that language here; "
            f"one of {', '.join(sorted(present))} or all"
        )
    if not 100 <= ink_limit <= 400:
        raise UsageError("--ink-limit is a total ink coverage between 100 and 400 (%)")
    _check_slugs(library, cards, chosen)
    from ..config import build_defaults  # noqa: PLC0415

    defaults = build_defaults()
    fallback = defaults.get("fallback") if fallback is None else fallback
    if fallback not in (None, "en"):
        raise UsageError(f"--fallback {fallback}: the language printed in its place is en")
    strict = bool(defaults.get("strict", False)) if strict is None else strict
    options = BuildOptions(
        card_size,
        theme,
        icc,
        floor,
        allow_overflow,
        job_count(jobs),
        ink_limit=ink_limit,
        min_size=min_size,
    )
    request = batch.Request(
        langs,
        Path(out),
        options,
        slugs=list(cards),
        force=force,
        deck=deck,
        backs=backs,
        sheets=sheets,
        gutter=gutter,
        margin=margin,
        sheet_backs=sheet_backs,
        previews=list(previews),
        dpi=dpi,
        check=check,
        fallback=fallback,
        strict=strict,
    )
    return BuildPlan(library, request)


def _check_slugs(library: Library, slugs: Sequence[str], paths: Sequence[str]) -> None:
    """Every slug asked for is a card of the library (with the closest one when not)."""
    import difflib  # noqa: PLC0415

    known = {card.slug for card in library.cards.values() if card.source is not None}
    for slug in slugs:
        if slug not in known:
            close = difflib.get_close_matches(slug, sorted(known), n=1)
            raise UsageError(
                f"--card {slug}: no such card in {', '.join(paths)}"
                + (f" (did you mean {close[0]}?)" if close else "")
            )


def build(
    paths: Paths | None = None,
    *,
    progress: Advance | None = None,
    stage: Stage | None = None,
    **settings: Any,
) -> BuildReport:
    """Print-ready PDFs of the cards under ``paths``: one per card and language, and
    (as asked) deck files, print-and-play sheets and previews, each file checked by
    the preflight: ``translator build``.  ``settings`` are those of
    :func:`plan_build`; ``progress`` and ``stage`` follow the build.

    The report (:data:`BuildReport`) lists every card (``failed``: those that could
    not be printed, and why), file, preview, deck or sheet file not written, and
    preflight problem; ``ok`` is what the command line exits 0 for.

    >>> report = build("cards/sample", languages=["fr"], cards=["veil-stalker"], jobs=1)
    >>> report.ok, [Path(f).name for f in report.files]
    (True, ['veil-stalker.fr.pdf'])
    """
    return plan_build(paths, **settings).run(progress, stage)


#: Where :func:`preview_card` writes when not told (under the current directory).
PREVIEW_DIR = "out/preview"


def preview_card(
    path: str,
    *,
    text: str | None = None,
    out: str | os.PathLike[str] | None = None,
    dpi: int = 150,
    library: Paths | None = None,
    theme: str | None = None,
    size: str | CardSize = "arcmage",
    icc: str | None = None,
    floor: float = 0.52,
    min_size: float = 6.0,
    proof: bool = True,
    keep_pdf: bool = False,
    cache: str | os.PathLike[str] | None = None,
) -> CardPreview:
    """The card file ``path`` (any language) laid out exactly as ``translator build``
    lays it out, pictured as a PNG in ``out`` (default ``out/preview``): an editor's
    preview of the text it holds (``text``, unsaved; None: the file's).  ``library``:
    where the card is (default: its deck); ``theme``, ``size``, ``icc``, ``floor``,
    ``min_size``: the build's settings; ``proof``: a soft proof through the press's
    profile (the build's previews' colours; False: PDFium's faster, indicative
    render); ``cache``: where converted artwork is kept (default ``<out>/.cache``).

    A card the build would refuse is pictured too, its faults outlined in red
    (``printable`` False, ``errors`` say why).  Bad input (not a card file, outside
    a library, YAML that does not parse) raises a :class:`UserError` naming the file
    and line.  Warm (the second call in a process) it takes about half a second.

    >>> shown = preview_card("cards/sample/veil-stalker.fr.md")
    >>> shown.summary, shown.png
    ('fits', 'out/preview/veil-stalker.fr.png')
    """
    import time  # noqa: PLC0415

    from ..typeset import card_preview  # noqa: PLC0415 - WeasyPrint loads slowly
    from ..typeset.options import BuildOptions  # noqa: PLC0415

    start = time.perf_counter()
    if not 24 <= dpi <= 1200:
        raise UsageError("dpi is between 24 and 1200 (150: an editor's preview)")
    _check_fit(floor, min_size)
    target = Path(PREVIEW_DIR if out is None else out)
    found = card_preview.card_version(os.fspath(path), text, path_list(library) if library else [])
    options = BuildOptions(
        size_of(size),
        theme,
        icc,
        floor,
        jobs=1,
        min_size=min_size,
        cache_dir=Path(cache) if cache is not None else target / ".cache",
    )
    slug = found.card.slug
    made = card_preview.picture(
        found.card,
        found.lang,
        found.roots,
        options,
        target / f"{slug}.{found.lang}.png",
        dpi,
        proof=proof,
        keep_pdf=keep_pdf,
    )
    result = made.result
    return card_preview.CardPreview(
        slug,
        found.lang,
        os.fspath(path),
        str(made.png),
        None if made.pdf is None else str(made.pdf),
        card_preview.summary(made),
        made.printable,
        result.scale,
        result.overflow,
        list(result.warnings),
        [*result.errors, *(f"the card font lacks {g}" for g in result.missing_glyphs)],
        time.perf_counter() - start,
    )


def preflight(
    paths: Paths, *, size: str | CardSize | None = None, ink_limit: float = 300.0
) -> list[FileReport]:
    """Prove PDFs print-ready: one report per file, in the order given, with every
    problem found (page, card, object, what to fix); ``report.ok`` when it has no
    error: ``translator preflight``.  ``size``: the card size every card page must
    have (default: only consistent boxes); ``ink_limit``: the total ink allowed (%).

    A file that is not a PDF at all raises an error before anything is checked.

    >>> [report] = preflight("out/veil-stalker.fr.pdf", size="arcmage")
    >>> report.ok, report.pages
    (True, 1)
    """
    from ..pdf import preflight as checks  # noqa: PLC0415
    from ..textio import InputError  # noqa: PLC0415

    card_size = size_of(size) if size else None
    if not 100 <= ink_limit <= 400:
        raise UsageError("--ink-limit is a total ink coverage between 100 and 400 (%)")
    files = [os.fspath(p) for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths)]
    for name in files:  # nothing to check at all: an input error, before any check
        fault = checks.input_fault(name)
        if fault is not None:
            raise InputError(name, fault)
    return checks.check_files(
        files,
        size=card_size,
        ink_limit=ink_limit,
        min_ppi=300.0,
        ink=True,
        dpi=checks.DEFAULT_DPI,
    )
