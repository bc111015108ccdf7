"""The checks put together: a :class:`Problem` for each fault, a :class:`FileReport`
for each file (``translator preflight`` prints them: :mod:`translator.cli.build`).

:func:`check_files` reads each file's structure with pikepdf: the output intent, then
page by page the boxes, the content (:class:`.content.ContentChecker`, which reads the
page's ink on the same walk: :mod:`.bound`) and the text against its ground
(:class:`.pdfx.TextCheck`).  Then Ghostscript renders, a few processes for all the
files (:class:`.ink.InkScan`), only what the ink bound could not decide: a proxy of a
page whose art is within the limit and whose black overprints, the page itself when
the bound gave up or the proxy came near the limit.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pikepdf

from ...limits import MAX_PDF_BYTES
from ..sizes import CardSize
from ..textcheck import TextCheck, intent_profile
from .bound import STATS, InkReader, PageInk, proxy_pdf
from .boxes import box_faults, sheet_faults
from .colour import intent_fault
from .content import ContentChecker, drawing_key
from .ink import DEFAULT_DPI, InkScan, Render, ink_available, threshold
from .names import SHEET_LABEL, card_names

#: The least resolution of images at print size, by default (ppi).
MIN_PPI = 300.0

#: What reading a damaged PDF raises (pikepdf's error, or what its objects raise when
#: they are not what the specification says): a page, or a file, reported unreadable.
UNREADABLE = (pikepdf.PdfError, KeyError, ValueError, TypeError, AttributeError, IndexError)

#: The checks, in the order a page's problems are listed.
CODES = (
    "unreadable",
    "intent",
    "boxes",
    "colour",
    "font",
    "resolution",
    "ink",
    "knockout",
    "reversed",
)


@dataclass(frozen=True)
class Problem:
    """One reason a PDF is not print-ready, where it is and what to fix."""

    path: str
    page: int
    card: str
    code: str
    severity: str
    message: str

    def __str__(self) -> str:
        """``path:page (card): code: message``, as the reports print it."""
        return _line(self)

    def to_dict(self) -> dict:
        """The problem's fields, for the JSON report."""
        return asdict(self)


@dataclass
class FileReport:
    """One file's verdict: its page count (0 when it could not be opened) and its
    problems, by page."""

    path: str
    pages: int
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Print-ready: no error (warnings are advice, not a refusal)."""
        return not any(p.severity == "error" for p in self.problems)


@dataclass
class _Opened:
    """A file pikepdf could open: its index among the files checked, its page count."""

    index: int
    path: Path
    pages: int


@dataclass
class InkTally:
    """How the ink of the pages checked was decided: by the bound alone, by a proxy's
    render, by the page's own render (or not at all: no Ghostscript); and how many
    Ghostscript processes ran."""

    bound: int = 0
    proxy: int = 0
    rendered: int = 0
    unchecked: int = 0
    runs: int = 0
    #: Why pages were rendered (the bound's first reason to give up), by reason.
    reasons: dict[str, int] = field(default_factory=dict)

    def add(self, other: InkTally) -> None:
        self.bound += other.bound
        self.proxy += other.proxy
        self.rendered += other.rendered
        self.unchecked += other.unchecked
        self.runs += other.runs
        for reason, count in other.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + count


def input_fault(path: str | Path) -> str | None:
    """Why ``path`` is no file to check at all (one line), or None: missing, a
    directory, not a regular file (a FIFO or /dev/zero would never end), too large or
    unreadable.  ``translator preflight`` refuses such an input (exit 2) before checking
    anything; a file that is there but is no PDF is a finding (``unreadable``)."""
    try:
        info = Path(path).stat()
    except FileNotFoundError:
        return "no such file: give the path of a PDF"
    except OSError as error:
        return f"cannot read: {error.strerror or error}"
    fault = _kind_fault(info)
    if fault is not None:
        return fault
    try:
        with Path(path).open("rb"):
            pass
    except OSError as error:
        return f"cannot read: {error.strerror or error}"
    return None


def _kind_fault(info: os.stat_result) -> str | None:
    """Why a file, by its ``stat``, cannot be a card PDF (a directory, a pipe or a
    device, or far too large), before a byte of it is read; None if it may be one."""
    if stat.S_ISDIR(info.st_mode):
        return "a directory, not a PDF: give the PDFs in it (DIR/*.pdf)"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file: give the path of a PDF"
    if info.st_size > MAX_PDF_BYTES:
        return f"larger than {MAX_PDF_BYTES >> 30} GB: not a card PDF"
    return None


def _open(path: Path) -> tuple[int, str | None]:
    """``path``'s page count, and why it is not a PDF pikepdf reads (one line) or None."""
    fault = input_fault(path)
    if fault is not None:
        return 0, fault
    try:
        with pikepdf.open(path) as pdf:
            pages = len(pdf.pages)
    except (OSError, pikepdf.PdfError, ValueError, RuntimeError) as error:
        first = str(error).splitlines()[0] if str(error) else repr(error)
        return 0, f"not a readable PDF: {first}"
    return pages, None if pages else "the PDF has no pages"


def _structure(
    path: Path,
    size: CardSize | None,
    min_ppi: float,
    content: bool = True,
    ink: bool = False,
    dpi: float = DEFAULT_DPI,
) -> tuple[list[Problem], list[str], list[PageInk | None]]:
    """Every problem pikepdf finds (all but ink; only boxes and the output intent
    without ``content``), the page's card names, and (with ``ink``) what was read of
    each page's ink (None: not read, or the page could not be)."""
    shown = str(path)
    problems: list[Problem] = []
    inks: list[PageInk | None] = []
    checker = ContentChecker(min_ppi, InkReader(dpi=dpi) if ink else None)
    knocked: dict[tuple, list[tuple[str, str]]] = {}
    with pikepdf.open(path) as pdf:
        fault = intent_fault(pdf)
        if fault is not None:
            problems.append(Problem(shown, 0, "", "intent", "error", fault))
        cards = card_names(pdf, path)
        # One check for the file's pages: the profile's lightness, the images decoded.
        texts = TextCheck(intent_profile(pdf)) if content and size is not None else None
        for number, page in enumerate(pdf.pages, start=1):
            card = cards[number - 1]
            inks.append(None)
            try:
                sheet = size is not None and SHEET_LABEL.match(card) is not None
                faults = box_faults(page.obj, None if sheet else size)
                if sheet and size is not None:
                    faults += sheet_faults(page, size)
                problems += [
                    Problem(shown, number, card, "boxes", "error", message) for message in faults
                ]
                if content:
                    problems += [
                        Problem(shown, number, card, code, severity, message)
                        for code, severity, message in checker.check_page(page)
                    ]
                    inks[-1] = checker.page_ink
                if texts is not None and not sheet:
                    # Card pages only: a sheet draws the same cards, warned about once.
                    # A page drawing the very objects of one read (a card repeated in a
                    # deck) gets its findings.  Knockouts and reversed text: warnings.
                    key = drawing_key(page.obj)
                    found = knocked.get(key) if key is not None else None
                    if found is None:
                        # The content walk's parse, when it read the ink (every operator
                        # the text check reads is in it): the page parsed once.
                        found = texts.page(page, checker.instructions(page) if ink else None)
                        if key is not None:
                            knocked[key] = found
                    problems += [
                        Problem(shown, number, card, code, "warning", message)
                        for code, message in found
                    ]
            except UNREADABLE as error:
                inks[-1] = None
                problems.append(
                    Problem(
                        shown,
                        number,
                        card,
                        "unreadable",
                        "error",
                        f"the page cannot be read: {error}",
                    )
                )
    return problems, cards, inks


def check_files(
    paths: Sequence[str | Path],
    *,
    size: CardSize | None,
    ink_limit: float,
    min_ppi: float,
    ink: bool,
    dpi: float,
    content: bool = True,
    tally: InkTally | None = None,
    records: Path | None = None,
) -> list[FileReport]:
    """Preflight ``paths``: pikepdf checks each in turn, reading each page's ink bound
    on the way, and Ghostscript renders what the bound left undecided, in batches of
    files while the next are read (a few processes for many files, not one per file).
    ``tally``, when given, is told how each page's ink was decided; ``records`` is
    the folder the images' fullest pixels are kept in for the next checks (a build's
    cache folder; None: they are measured again in another process)."""
    if ink_limit <= 0 or min_ppi <= 0 or dpi <= 0:
        raise ValueError("ink_limit, min_ppi and dpi must be positive")
    reports = [FileReport(str(p), 0) for p in paths]
    opened: list[_Opened] = []
    for index, path in enumerate(Path(p) for p in paths):
        pages, failure = _open(path)
        if failure is None:
            opened.append(_Opened(index, path, pages))
        else:
            reports[index].problems.append(
                Problem(str(paths[index]), 0, "", "unreadable", "error", failure)
            )
    cards: dict[int, list[str]] = {}
    STATS.keep_in(records)
    with tempfile.TemporaryDirectory(prefix="translator-preflight-") as directory:
        work = _InkWork(reports, ink_limit, dpi, Path(directory)) if ink and opened else None
        try:
            for item in opened:
                reports[item.index].pages = item.pages
                inks = _check_structure(item, reports, cards, size, min_ppi, content, ink, dpi)
                if work is not None:
                    work.add(item, inks)
            if work is not None:
                STATS.save()
                work.finish(cards)
                if tally is not None:
                    tally.add(work.tally)
        finally:
            if work is not None:
                work.close()
    for report in reports:
        report.problems.sort(key=lambda p: (p.page, CODES.index(p.code)))
    return reports


def _check_structure(
    item: _Opened,
    reports: list[FileReport],
    cards: dict[int, list[str]],
    size: CardSize | None,
    min_ppi: float,
    content: bool,
    ink: bool,
    dpi: float,
) -> list[PageInk | None]:
    """:func:`_structure` of one file, its problems added to its report, its card names
    to ``cards``; what was read of each page's ink."""
    try:
        found, cards[item.index], inks = _structure(item.path, size, min_ppi, content, ink, dpi)
    except UNREADABLE as error:
        found = [
            Problem(
                reports[item.index].path,
                0,
                "",
                "unreadable",
                "error",
                f"the PDF cannot be read: {error}",
            )
        ]
        cards[item.index] = [item.path.stem] * item.pages
        inks = [None] * item.pages
    reports[item.index].problems += found
    return inks


# ---------------------------------------------------------------------------------------
# The ink: the bound, then Ghostscript for what it left


def _verdicts(
    inks: list[PageInk | None], limit: int, tally: InkTally
) -> tuple[list[int], dict[int, dict[tuple[int, int], tuple[int, ...]]]]:
    """A file's pages the bound could not decide: to render as they are, and to render
    as proxies (page -> each image's stand-in)."""
    real: list[int] = []
    proxies: dict[int, dict[tuple[int, int], tuple[int, ...]]] = {}
    for number, page in enumerate(inks, start=1):
        if page is not None and page.unknown is None and page.bound() <= limit:
            tally.bound += 1
            continue
        reason = "the page could not be read" if page is None else page.no_proxy(limit)
        if page is not None and reason is None:
            proxies[number] = page.proxy_levels(limit) or {}
            continue
        tally.reasons[str(reason)] = tally.reasons.get(str(reason), 0) + 1
        real.append(number)
    return real, proxies


#: Files whose undecided pages are rendered together while the next files' structure is
#: read (one Ghostscript process for each such batch; the last batch gets them all).
FILES_PER_BATCH = 48


class _InkWork:
    """The ink check of files as their structure is read: the pages the bound passes
    need nothing more; the others are rendered in batches of files (:data:`FILES_PER_BATCH`),
    one batch in Ghostscript while the next files are read, proxies where they can
    decide; a page whose proxy is not clearly within the limit is rendered as it is
    once all are done."""

    def __init__(
        self, reports: list[FileReport], ink_limit: float, dpi: float, directory: Path
    ) -> None:
        self.reports = reports
        self.ink_limit = ink_limit
        self.dpi = dpi
        self.directory = directory
        self.limit = threshold(ink_limit)
        self.tally = InkTally()
        self.gs = ink_available()
        self.real: dict[int, list[int]] = {}
        self.proxies: dict[int, dict[int, dict[tuple[int, int], tuple[int, ...]]]] = {}
        self.undecided: list[_Opened] = []
        self.waiting: list[_Opened] = []
        self.scans: list[InkScan] = []

    def add(self, item: _Opened, inks: list[PageInk | None]) -> None:
        """A file read: what its pages need; a full batch is started."""
        self.real[item.index], self.proxies[item.index] = _verdicts(inks, self.limit, self.tally)
        if not (self.real[item.index] or self.proxies[item.index]):
            return
        self.undecided.append(item)
        self.waiting.append(item)
        if self.gs and len(self.waiting) >= FILES_PER_BATCH:
            self._start(processes=1)

    def _start(self, processes: int | None = None) -> None:
        renders: list[Render] = []
        for item in self.waiting:  # first: a proxy that cannot be made adds real pages
            if self.proxies[item.index]:
                renders += _proxy_render(item, self.proxies[item.index], self.directory, self.real)
        renders += [
            Render(o.index, o.path, o.pages, tuple(self.real[o.index]))
            for o in self.waiting
            if self.real[o.index]
        ]
        self.waiting = []
        if renders:
            self.scans.append(InkScan(renders, self.dpi, self.ink_limit, processes))

    def finish(self, cards: dict[int, list[str]]) -> None:
        """Wait for the renders, render what the proxies left, and add the findings to
        the reports."""
        if not self.undecided:
            return
        if not self.gs:
            self._unchecked()
            return
        self._start()
        results = InkScan([], self.dpi, self.ink_limit)
        for scan in self.scans:
            scan.wait()
            self.tally.runs += scan.runs
            results.pages.update(scan.pages)
            results.peaks.update(scan.peaks)
            results.failures.update(scan.failures)
            results.proxy_failures |= scan.proxy_failures
        again = _after_proxies(self.undecided, self.proxies, results, self.limit, self.tally)
        for item in self.undecided:
            self.tally.rendered += len(self.real[item.index])
        if again:
            second = InkScan(
                [
                    Render(o.index, o.path, o.pages, tuple(again[o.index]))
                    for o in self.undecided
                    if o.index in again
                ],
                self.dpi,
                self.ink_limit,
            )
            second.wait()
            self.tally.runs += second.runs
            results.pages.update(second.pages)
            results.failures.update(second.failures)
        for item in self.undecided:
            report = self.reports[item.index]
            report.problems += [
                Problem(
                    report.path,
                    page,
                    cards[item.index][page - 1] if page else "",
                    "ink",
                    severity,
                    message,
                )
                for page, severity, message in results.findings(item.index)
            ]

    def close(self) -> None:
        """Wait for the renders started (an interrupted check leaves no Ghostscript
        reading files about to be removed)."""
        for scan in self.scans:
            scan.wait()

    def _unchecked(self) -> None:
        """Without Ghostscript: a warning for each file with pages the bound left."""
        for item in self.undecided:
            self.tally.unchecked += len(self.real[item.index]) + len(self.proxies[item.index])
            self.reports[item.index].problems.append(
                Problem(
                    self.reports[item.index].path,
                    0,
                    "",
                    "ink",
                    "warning",
                    "Ghostscript not found, ink coverage not checked (apt-get install ghostscript)",
                )
            )


def _proxy_render(
    item: _Opened,
    pages: dict[int, dict[tuple[int, int], tuple[int, ...]]],
    directory: Path,
    real: dict[int, list[int]],
) -> list[Render]:
    """A file's proxy (its images replaced by their stand-ins), to render the pages
    that want one; when it cannot be made, those pages are rendered as they are."""
    stand_ins: dict[tuple[int, int], tuple[int, ...]] = {}
    for page in pages.values():
        stand_ins.update(page)
    path = directory / f"{item.index}.pdf"
    try:
        proxy_pdf(item.path, stand_ins, path)
    except (pikepdf.PdfError, OSError, ValueError, TypeError, KeyError) as error:
        del error  # the page itself is rendered instead
        real[item.index] = sorted({*real[item.index], *pages})
        pages.clear()
        return []
    return [Render(item.index, path, item.pages, tuple(sorted(pages)), proxy=True)]


def _after_proxies(
    undecided: Sequence[_Opened],
    proxies: dict[int, dict[int, dict[tuple[int, int], tuple[int, ...]]]],
    scan: InkScan,
    limit: int,
    tally: InkTally,
) -> dict[int, list[int]]:
    """The proxy pages whose fullest pixel is within the limit are decided; the others
    (and those of a proxy Ghostscript could not render) are to be rendered as they
    are: file -> pages."""
    again: dict[int, list[int]] = {}
    for item in undecided:
        for page in sorted(proxies[item.index]):
            peak = scan.peaks.get((item.index, page))
            if item.index not in scan.proxy_failures and peak is not None and peak <= limit:
                tally.proxy += 1
            else:
                tally.rendered += 1
                tally.reasons["a proxy near the limit"] = (
                    tally.reasons.get("a proxy near the limit", 0) + 1
                )
                again.setdefault(item.index, []).append(page)
    return again


def preflight(
    path: str | Path,
    *,
    size: CardSize | None = None,
    ink_limit: float = 300.0,
    min_ppi: float = MIN_PPI,
    ink: bool = True,
    dpi: float = DEFAULT_DPI,
) -> list[Problem]:
    """Every reason ``path`` is not print-ready (an empty list when it is).

    ``size`` is the card size every card page must have (trim and bleed boxes), and
    every card placed on a print-and-play sheet (a page :data:`SHEET_LABEL` names,
    whose own boxes need only be nested); None: only nested boxes.  ``ink_limit`` is
    the total area coverage allowed, in percent; ``min_ppi`` the resolution images need
    at print size; ``ink`` False skips the render; ``dpi`` is its resolution (see
    :data:`DEFAULT_DPI`).  Problems come by page (0, the whole file, first).
    """
    [report] = check_files(
        [path], size=size, ink_limit=ink_limit, min_ppi=min_ppi, ink=ink, dpi=dpi
    )
    return report.problems


def preflight_files(
    paths: Sequence[str | Path],
    *,
    size: CardSize | None = None,
    ink_limit: float = 300.0,
    min_ppi: float = MIN_PPI,
    ink: bool = True,
    content: bool = True,
    dpi: float = DEFAULT_DPI,
    records: Path | None = None,
) -> list[list[Problem]]:
    """:func:`preflight` of many files at once, the problems of each in the order of
    ``paths``: Ghostscript is started a few times for the lot instead of once per
    file (most of the cost of checking one card PDF).  ``content`` False checks only
    the boxes and the output intent (and ``ink`` must be False too): for a file made
    of pages copied unchanged from files already checked whole.  ``records``: where
    the images' fullest pixels are kept (:func:`check_files`)."""
    if not content and ink:
        raise ValueError("the ink is part of the content: content=False needs ink=False")
    reports = check_files(
        paths,
        size=size,
        ink_limit=ink_limit,
        min_ppi=min_ppi,
        ink=ink,
        dpi=dpi,
        content=content,
        records=records,
    )
    return [report.problems for report in reports]


# ---------------------------------------------------------------------------------------
# A problem as the reports print it


def _line(problem: Problem) -> str:
    """``path:page (card): code: message``, the page left out for a file-wide problem,
    a warning marked as one: what a reader at a terminal or in a CI log scans for."""
    where = (
        problem.path if problem.page == 0 else (f"{problem.path}:{problem.page} ({problem.card})")
    )
    warning = " (warning)" if problem.severity == "warning" else ""
    return f"{where}: {problem.code}: {problem.message}{warning}"
