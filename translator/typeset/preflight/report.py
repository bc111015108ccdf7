"""The checks put together: a :class:`Problem` for each fault, a :class:`FileReport`
for each file (``translator preflight`` prints them: :mod:`translator.cli.build`).

:func:`check_files` starts Ghostscript on every file at once (:class:`.ink.InkScan`)
and meanwhile reads each file's structure with pikepdf: the output intent, then page
by page the boxes, the content (:class:`.content.ContentChecker`) and the text
against its ground (:class:`.pdfx.TextCheck`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pikepdf

from ...limits import MAX_PDF_BYTES
from ..pdfx import TextCheck, intent_profile
from ..sizes import CardSize
from .boxes import box_faults, sheet_faults
from .colour import intent_fault
from .content import ContentChecker, drawing_key
from .ink import DEFAULT_DPI, InkScan, ink_available
from .names import SHEET_LABEL, card_names

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
    path: Path, size: CardSize | None, min_ppi: float, content: bool = True
) -> tuple[list[Problem], list[str]]:
    """Every problem pikepdf finds (all but ink; only boxes and the output intent
    without ``content``), and the page's card names."""
    shown = str(path)
    problems: list[Problem] = []
    checker = ContentChecker(min_ppi)
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
                if texts is not None and not sheet:
                    # Card pages only: a sheet draws the same cards, warned about once.
                    # A page drawing the very objects of one read (a card repeated in a
                    # deck) gets its findings.  Knockouts and reversed text: warnings.
                    key = drawing_key(page.obj)
                    found = knocked.get(key) if key is not None else None
                    if found is None:
                        found = texts.page(page)
                        if key is not None:
                            knocked[key] = found
                    problems += [
                        Problem(shown, number, card, code, "warning", message)
                        for code, message in found
                    ]
            except (
                pikepdf.PdfError,
                KeyError,
                ValueError,
                TypeError,
                AttributeError,
                IndexError,
            ) as error:
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
    return problems, cards


def check_files(
    paths: Sequence[str | Path],
    *,
    size: CardSize | None,
    ink_limit: float,
    min_ppi: float,
    ink: bool,
    dpi: float,
    content: bool = True,
) -> list[FileReport]:
    """Preflight ``paths``: Ghostscript renders all of them in the background (a few
    processes for the lot, not one per file) while pikepdf checks each in turn."""
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
    scan = None
    if ink and opened and ink_available():
        scan = InkScan([(o.path, o.pages) for o in opened], dpi, ink_limit)
    cards: dict[int, list[str]] = {}
    try:
        for item in opened:
            reports[item.index].pages = item.pages
            try:
                found, cards[item.index] = _structure(item.path, size, min_ppi, content)
            except (
                pikepdf.PdfError,
                KeyError,
                ValueError,
                TypeError,
                AttributeError,
                IndexError,
            ) as error:
                found = [
                    Problem(
                        str(paths[item.index]),
                        0,
                        "",
                        "unreadable",
                        "error",
                        f"the PDF cannot be read: {error}",
                    )
                ]
                cards[item.index] = [item.path.stem] * item.pages
            reports[item.index].problems += found
    finally:
        if scan is not None:
            scan.wait()
    for item in opened:
        report = reports[item.index]
        if scan is not None:
            report.problems += [
                Problem(
                    report.path,
                    page,
                    cards[item.index][page - 1] if page else "",
                    "ink",
                    severity,
                    message,
                )
                for page, severity, message in scan.findings(item.index)
            ]
        elif ink:
            report.problems.append(
                Problem(
                    report.path,
                    0,
                    "",
                    "ink",
                    "warning",
                    "Ghostscript not found, ink coverage not checked (apt-get install ghostscript)",
                )
            )
        report.problems.sort(key=lambda p: (p.page, CODES.index(p.code)))
    return reports


def preflight(
    path: str | Path,
    *,
    size: CardSize | None = None,
    ink_limit: float = 300.0,
    min_ppi: float = 300.0,
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
    min_ppi: float = 300.0,
    ink: bool = True,
    content: bool = True,
    dpi: float = DEFAULT_DPI,
) -> list[list[Problem]]:
    """:func:`preflight` of many files at once, the problems of each in the order of
    ``paths``: Ghostscript is started a few times for the lot instead of once per
    file (most of the cost of checking one card PDF).  ``content`` False checks only
    the boxes and the output intent (and ``ink`` must be False too): for a file made
    of pages copied unchanged from files already checked whole."""
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
