"""The ``ink`` check: total area coverage (C+M+Y+K) on Ghostscript's CMYK render,
what the press lays down, overprint and images included.

Ghostscript renders the pages the ink bound (:mod:`.bound`) could not decide, split over
up to :data:`GS_PROCESSES` processes: the pages themselves, or their proxies (images
replaced by a flat stand-in), whose fullest pixel is all that is read; each page is
measured as it arrives (:func:`pam_pages`, also read by the soft proofs).
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from PIL import Image, ImageFilter, ImageMath

from ..profiles import band_extrema, band_sum

DEFAULT_DPI = 150.0
"""The ink check's render resolution.  Cards are printed with a screen of about 150
lpi: the press lays ink in cells of 1/150 inch (0.17 mm), so a finer render measures
detail no plate carries, and a coarser one samples too sparsely to find a 0.5 mm
over-inked area (:data:`INK_AREA_MM` is 3 pixels here).  The render is not smoothed
(no interpolation, no anti-aliasing): each pixel samples the colours as drawn.  Its
cost is decoding the artwork, not the pixels: 72 dpi is hardly faster, 300 dpi
quadruples the measuring (about 1.5 ms a card at 150 dpi)."""

GS_PROCESSES = 4
"""At most this many Ghostscript processes (and no more than the cores)."""

FILES_PER_RUN = 200
"""Files given to one Ghostscript run (a command line has a length limit)."""

MIN_PAGES_PER_PROCESS = 8
"""A file is split over processes only in ranges this long: each process reads the
whole file and starts Ghostscript (about 0.1 s), which a short range does not repay."""

INK_AREA_MM = 0.5
"""An over-inked area is reported when it holds a square of this side (3 x 3 pixels at
150 dpi): ink load is a problem of areas (drying, set-off, a sticky sheet), and the
smaller specks are JPEG noise in artwork separated at the limit, a few pixels at
301-304 % in the sample's art."""
INK_ROUNDING = 2
"""Levels (of 255) allowed over the limit: the render rounds each of the four
channels to 8 bits, so a colour exactly at the limit may come out up to 2 levels
(0.8 %) over it."""


def ink_available() -> bool:
    """True when Ghostscript (``gs``) can render the ink check."""
    return shutil.which("gs") is not None


@dataclass(frozen=True)
class _InkPage:
    """An over-inked page: the fullest pixel of its over-inked areas (C+M+Y+K in
    levels, 0-1020), where it is (pixels from the top left), and the share of the
    page over the limit."""

    peak: int
    x: int
    y: int
    over: float


def threshold(limit: float) -> int:
    """The fullest pixel (C+M+Y+K in levels, 0-1020) a page may have under ``limit``
    percent: the limit in levels and the render's rounding (:data:`INK_ROUNDING`)."""
    return math.floor(limit * 255 / 100) + INK_ROUNDING


def _grain(dpi: float) -> int:
    """The side, in pixels (odd, for a centred filter), of :data:`INK_AREA_MM`."""
    pixels = round(INK_AREA_MM * dpi / 25.4)
    return max(1, pixels if pixels % 2 else pixels - 1)


def _peak(image: Image.Image) -> int:
    """The fullest pixel of a CMYK page (C+M+Y+K in levels)."""
    total = band_sum(*image.split())
    return int(band_extrema(total)[1])


def _measure(image: Image.Image, threshold: int, grain: int) -> _InkPage | None:
    """The page's over-inked areas, or None when it has none.

    The four separations are summed per pixel as 32-bit integers by ImageMath (in C):
    about 1.5 ms for a 150 dpi card, the whole cost of a clean page.  Only a page
    whose fullest pixel is over the limit pays for the rest: the pixels over it are
    eroded by a ``grain`` square (a minimum filter), so that isolated specks (JPEG
    ringing around dark detail) vanish and areas of at least that size remain.
    """
    total = band_sum(*image.split())
    if band_extrema(total)[1] <= threshold:
        return None
    over = ImageMath.lambda_eval(lambda e: e["t"] > threshold, t=total).convert("L")
    solid = over.filter(ImageFilter.MinFilter(grain)) if grain > 1 else over
    if solid.getbbox() is None:
        return None
    inside = ImageMath.lambda_eval(lambda e: e["t"] * e["s"], t=total, s=solid)
    peak = int(inside.getextrema()[1])
    at_peak = ImageMath.lambda_eval(lambda e: e["t"] == peak, t=inside)
    box = at_peak.getbbox()
    assert box is not None  # the peak is somewhere
    row = at_peak.crop((0, box[1], image.width, box[1] + 1)).getbbox()
    x = row[0] if row else box[0]
    return _InkPage(peak, x, box[1], over.histogram()[1] / (image.width * image.height))


def pam_pages(stream: IO[bytes]) -> Iterator[Image.Image]:
    """The CMYK pages of a stream of PAM images (``pamcmyk32``), one after another."""
    while True:
        magic = stream.readline()
        if not magic:
            return
        if magic.strip() != b"P7":
            raise ValueError(f"not a PAM image: {magic[:20]!r}")
        header: dict[bytes, bytes] = {}
        for line in iter(stream.readline, b""):
            if line.startswith(b"ENDHDR"):
                break
            key, _, value = line.strip().partition(b" ")
            header[key] = value
        width, height = int(header[b"WIDTH"]), int(header[b"HEIGHT"])
        data = stream.read(width * height * 4)
        if len(data) < width * height * 4:
            raise ValueError("the render was cut short")
        yield Image.frombytes("CMYK", (width, height), data)


@dataclass(frozen=True)
class Render:
    """Pages of one file to render: ``index`` is the file's among those checked,
    ``wanted`` the page numbers (from 1; all of them: the whole file), ``proxy``
    whether the file is a proxy (:func:`.bound.proxy_pdf`: only its fullest pixels
    are read)."""

    index: int
    path: Path
    pages: int
    wanted: tuple[int, ...]
    proxy: bool = False


@dataclass
class _Segment:
    """Pages ``first``-``last`` of one file, rendered by one Ghostscript process."""

    index: int
    path: Path
    first: int
    last: int
    whole: bool
    proxy: bool = False
    #: The pages measured (the others are rendered with them, and not read).
    wanted: frozenset[int] | None = None

    @property
    def length(self) -> int:
        return self.last - self.first + 1


def _ranges(wanted: Sequence[int]) -> list[tuple[int, int]]:
    """Runs of page numbers, as (first, last): pages fewer than
    :data:`MIN_PAGES_PER_PROCESS` apart in one run (rendering the few between costs
    less than starting Ghostscript again)."""
    found: list[tuple[int, int]] = []
    for page in sorted(set(wanted)):
        if found and page <= found[-1][1] + MIN_PAGES_PER_PROCESS:
            found[-1] = (found[-1][0], page)
        else:
            found.append((page, page))
    return found


def _segments(render: Render, processes: int) -> list[_Segment]:
    """A file's wanted pages as segments: a short file whole (its pages not wanted are
    rendered, not read: cheaper than a run of its own), else runs of pages, a long run
    split over the processes."""
    if render.pages < 2 * MIN_PAGES_PER_PROCESS:
        wanted = frozenset(render.wanted)
        return [_Segment(render.index, render.path, 1, render.pages, True, render.proxy, wanted)]
    found = []
    wanted = frozenset(render.wanted)
    for first, last in _ranges(render.wanted):
        length = last - first + 1
        count = max(1, min(processes, length // MIN_PAGES_PER_PROCESS))
        bounds = [first - 1 + round(length * i / count) for i in range(count + 1)]
        found += [
            _Segment(
                render.index, render.path, bounds[i] + 1, bounds[i + 1], False, render.proxy, wanted
            )
            for i in range(count)
            if bounds[i + 1] > bounds[i]
        ]
    return found


def _plan(renders: Sequence[Render], processes: int) -> list[list[_Segment]]:
    """Split the work over processes: a long run of pages over several, several whole
    files to one (Ghostscript renders several files in one run, sparing its
    start-up), the largest first, each to the least loaded process."""
    segments = [s for render in renders for s in _segments(render, processes)]
    jobs: list[list[_Segment]] = [[] for _ in range(max(1, min(processes, len(segments))))]
    loads = [0] * len(jobs)
    for segment in sorted(segments, key=lambda s: -s.length):
        lightest = loads.index(min(loads))
        jobs[lightest].append(segment)
        loads[lightest] += segment.length
    return [job for job in jobs if job]


class InkScan:
    """Ghostscript renders in the background while the structure is checked; one
    thread per process reads its pages as they come and measures them."""

    def __init__(
        self, renders: Sequence[Render], dpi: float, limit: float, processes: int | None = None
    ) -> None:
        self.dpi = dpi
        self.limit = limit
        self.threshold = threshold(limit)
        self.grain = _grain(dpi)
        self.pages: dict[tuple[int, int], _InkPage] = {}
        #: The fullest pixel of each proxy page rendered, by (file, page).
        self.peaks: dict[tuple[int, int], int] = {}
        self.failures: dict[int, str] = {}
        #: Files whose proxy Ghostscript could not render.
        self.proxy_failures: set[int] = set()
        #: How many Ghostscript processes were started (the tests count them).
        self.runs = 0
        self._lock = threading.Lock()
        processes = processes or max(1, min(GS_PROCESSES, os.cpu_count() or 1))
        self._threads = [
            threading.Thread(target=self._run_job, args=(job,), daemon=True)
            for job in _plan(renders, processes)
        ]
        for thread in self._threads:
            thread.start()

    def wait(self) -> None:
        for thread in self._threads:
            thread.join()

    def _run_job(self, job: list[_Segment]) -> None:
        """One process's share: whole files in runs of at most :data:`FILES_PER_RUN`,
        each run of pages alone (Ghostscript's page range is the same for every file
        of a run)."""
        whole = [s for s in job if s.whole]
        for start in range(0, len(whole), FILES_PER_RUN):
            self._run(whole[start : start + FILES_PER_RUN])
        for segment in job:
            if not segment.whole:
                self._run([segment])

    def _run(self, files: list[_Segment]) -> None:
        """Render and measure ``files``; when Ghostscript fails on several, each is
        rendered again alone to learn which one it cannot read."""
        try:
            error = self._render(files)
        except Exception as unexpected:  # a thread's exception would vanish: report it
            error = f"{type(unexpected).__name__}: {unexpected}"
        if error is None:
            return
        if len(files) > 1:
            for segment in files:
                self._run([segment])
            return
        with self._lock:
            if files[0].proxy:
                self.proxy_failures.add(files[0].index)
            else:
                self.failures[files[0].index] = error

    def _command(self, files: list[_Segment]) -> list[str]:
        """Ghostscript writing 8-bit CMYK PAM pages to its standard output.

        No interpolation, so each pixel samples the colours as drawn; its messages go
        to standard error, never into the images; files by absolute path, so that no
        name is read as an option."""
        command = [
            "gs",
            "-q",
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            "-dNOINTERPOLATE",
            "-sDEVICE=pamcmyk32",
            f"-r{self.dpi:g}",
            "-sstdout=%stderr",
            "-sOutputFile=-",
        ]
        if not files[0].whole:
            command += [f"-dFirstPage={files[0].first}", f"-dLastPage={files[0].last}"]
        return command + [str(segment.path.resolve()) for segment in files]

    def _render(self, files: list[_Segment]) -> str | None:
        """Render ``files``' pages and measure them; the error, if any, as one line."""
        expected = [
            (s.index, page, s.proxy, s.wanted is None or page in s.wanted)
            for s in files
            for page in range(s.first, s.last + 1)
        ]
        received = 0
        with tempfile.TemporaryFile() as errors:
            with self._lock:
                self.runs += 1
            process = subprocess.Popen(
                self._command(files),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=errors,
            )
            assert process.stdout is not None
            try:
                for image in pam_pages(process.stdout):
                    if received < len(expected):
                        self._measured(image, *expected[received])
                    received += 1
            except BaseException:
                process.kill()
                raise
            finally:
                process.stdout.close()
                code = process.wait()
            errors.seek(0)
            said = errors.read().decode("utf-8", "replace").strip().splitlines()
        if code != 0 or received != len(expected):
            last = said[-1].strip() if said else f"exit status {code}"
            return f"{received} of {len(expected)} pages rendered: {last}"
        return None

    def _measured(
        self, image: Image.Image, index: int, page: int, proxy: bool, wanted: bool
    ) -> None:
        """A page rendered: a proxy's fullest pixel, or the page's over-inked areas."""
        if not wanted:
            return
        if proxy:
            peak = _peak(image)
            with self._lock:
                self.peaks[(index, page)] = peak
            return
        measured = _measure(image, self.threshold, self.grain)
        if measured is not None:
            with self._lock:
                self.pages[(index, page)] = measured

    def findings(self, index: int) -> list[tuple[int, str, str]]:
        """(page, severity, message) of file ``index``'s ink faults, once :meth:`wait`
        returned: page 0 (the whole file) when Ghostscript could not render it."""
        if index in self.failures:
            return [
                (
                    0,
                    "warning",
                    "Ghostscript could not render "
                    f"the file, ink not checked: {self.failures[index]}",
                )
            ]
        found = []
        for (file, page), ink in sorted(self.pages.items()):
            if file != index:
                continue
            x, y = ((v + 0.5) * 25.4 / self.dpi for v in (ink.x, ink.y))
            message = (
                f"total ink {ink.peak / 2.55:.0f} % at {x:.1f}, {y:.1f} mm from the "
                f"top left, over {self.limit:g} % on {ink.over * 100:.1f} % of the page"
            )
            found.append((page, "error", message))
        return found
