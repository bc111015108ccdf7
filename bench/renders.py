"""Render comparison: is every page of a build still drawn as it was?

Speed work on the build must leave every card's layout as it is, and the PDFs cannot
say so by their bytes (two builds of the same code differ in their dates and ids, and a
cheaper writer may order objects differently).  Their pixels can: each page is
rendered by PDFium (pypdfium2, the renderer the previews fall back on) at a fixed
resolution and its RGB pixels hashed.

    .venv/bin/python bench/renders.py save out/ --to /tmp/before.json
    .venv/bin/python bench/renders.py compare out/ --with /tmp/before.json

``save`` writes the hash and the size of every page, and keeps each distinct render
as a PNG in a folder beside the baseline (``before.pixels/``, named by hash: the ten
copies of a card the bench makes share one), so that ``compare`` can say how much a
page that differs differs: the largest difference of one channel (0-255) and the share
of its pixels that differ.  ``compare`` exits 1 when a page differs, is missing or is
new; pages are known by file name and number, so a baseline of one output folder is
compared with another.  A folder stands for the PDFs in it (not its subfolders).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

#: What the baseline's layout is; a baseline of another format is refused.
FORMAT = 1
#: Fine enough that a glyph moved by a tenth of a millimetre shows (1 px = 0.085 mm).
DEFAULT_DPI = 300.0


class _Usage(Exception):
    """A wrong argument or an unreadable baseline: said in one line, exit 2 (1 is for
    pages that differ)."""


@dataclass(frozen=True)
class Page:
    """One page rendered: where it is, its size in points, its pixels' size and hash."""

    file: str
    page: int
    size: tuple[float, float]
    pixels: tuple[int, int]
    sha256: str

    @property
    def key(self) -> tuple[str, int]:
        return (self.file, self.page)

    def __str__(self) -> str:
        return f"{self.file} page {self.page}"


def pdfs(sources: Sequence[str]) -> list[tuple[str, Path]]:
    """(name, path) of every PDF given or in a folder given, sorted: the name is the
    file's name, by which a page is found in the baseline."""
    found: dict[str, Path] = {}
    for source in sources:
        path = Path(source)
        if path.is_dir():
            files = sorted(p for p in path.glob("*.pdf") if p.is_file())
        elif path.is_file():
            files = [path]
        else:
            raise _Usage(f"renders: {source}: no such file or folder")
        for file in files:
            if file.name in found and found[file.name] != file:
                raise _Usage(f"renders: two files named {file.name}: give one folder at a time")
            found[file.name] = file
    if not found:
        raise _Usage(f"renders: no PDF in {', '.join(sources)}")
    return sorted(found.items())


def render(path: Path, dpi: float) -> list[Image.Image]:
    """Every page of ``path`` in RGB at ``dpi``."""
    import pypdfium2  # noqa: PLC0415 - only in the workers that render

    document = pypdfium2.PdfDocument(str(path))
    try:
        return [page.render(scale=dpi / 72).to_pil().convert("RGB") for page in document]
    finally:
        document.close()


def digest(image: Image.Image) -> str:
    """The hash of the pixels (with the picture's size, so that a page grown by a
    row of pixels does not hash as the same bytes)."""
    hasher = hashlib.sha256(f"{image.mode} {image.width}x{image.height}\n".encode())
    hasher.update(image.tobytes())
    return hasher.hexdigest()


def _sizes(path: Path) -> list[tuple[float, float]]:
    import pypdfium2  # noqa: PLC0415

    document = pypdfium2.PdfDocument(str(path))
    try:
        sizes = [page.get_size() for page in document]
        return [(round(width, 3), round(height, 3)) for width, height in sizes]
    finally:
        document.close()


def _render_file(name: str, path: Path, dpi: float, keep: Path | None) -> list[Page]:
    """The pages of one file (in a worker); with ``keep``, each render not kept yet is
    written there as ``<sha256>.png`` (through a temporary file, as two workers may
    write the same picture)."""
    pages = []
    for number, (image, size) in enumerate(
        zip(render(path, dpi), _sizes(path), strict=True), start=1
    ):
        sha = digest(image)
        if keep is not None and not (keep / f"{sha}.png").exists():
            descriptor, temporary = tempfile.mkstemp(dir=keep, suffix=".png")
            os.close(descriptor)
            image.save(temporary, "PNG", compress_level=1)
            os.replace(temporary, keep / f"{sha}.png")
        pages.append(Page(name, number, size, image.size, sha))
    return pages


def render_all(
    files: Sequence[tuple[str, Path]], dpi: float, jobs: int, keep: Path | None
) -> list[Page]:
    """Every page of ``files``, rendered by ``jobs`` processes."""
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = pool.map(
            _render_file,
            [name for name, _ in files],
            [path for _, path in files],
            [dpi] * len(files),
            [keep] * len(files),
            chunksize=8,
        )
        return [page for pages in results for page in pages]


def pixels_folder(baseline: Path) -> Path:
    """Where a baseline keeps its renders: ``before.json`` -> ``before.pixels/``."""
    return baseline.with_suffix(".pixels")


def save(sources: Sequence[str], baseline: Path, dpi: float, jobs: int) -> list[Page]:
    """Render every page of ``sources`` and write the baseline (and its renders)."""
    keep = pixels_folder(baseline)
    keep.mkdir(parents=True, exist_ok=True)
    pages = render_all(pdfs(sources), dpi, jobs, keep)
    head = json.dumps({"format": FORMAT, "dpi": dpi, "renderer": _renderer()})
    # A page a line: a baseline read (and diffed) by a person too.
    lines = ",\n  ".join(json.dumps(asdict(page)) for page in pages)
    baseline.write_text(f'{head[:-1]}, "pages": [\n  {lines}\n]}}\n', encoding="utf-8")
    return pages


def _renderer() -> str:
    """pypdfium2's and PDFium's versions: another PDFium may draw the same page a
    little differently (anti-aliasing), which ``compare`` then says."""
    import pypdfium2  # noqa: PLC0415

    version = pypdfium2.version
    return f"pypdfium2 {version.PYPDFIUM_INFO} / pdfium {version.PDFIUM_INFO}"


def load(baseline: Path) -> tuple[dict, dict[tuple[str, int], Page]]:
    """The baseline's settings and its pages by (file, page)."""
    try:
        document = json.loads(baseline.read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise _Usage(f"renders: {baseline}: cannot read the baseline ({error})") from None
    if document.get("format") != FORMAT:
        raise _Usage(f"renders: {baseline}: not a baseline of this script (format {FORMAT})")
    pages = {}
    for entry in document["pages"]:
        page = Page(
            entry["file"],
            entry["page"],
            tuple(entry["size"]),
            tuple(entry["pixels"]),
            entry["sha256"],
        )
        pages[page.key] = page
    return document, pages


@dataclass(frozen=True)
class Difference:
    """How a page differs from its baseline: the largest difference of a channel and
    the share of pixels with any difference (None when they cannot be had: the page's
    size changed, or no render was kept), and what else."""

    page: Page
    largest: int | None = None
    share: float | None = None
    note: str = ""

    def __str__(self) -> str:
        if self.largest is None or self.share is None:
            return f"{self.page}: pixels differ{self.note}"
        return (
            f"{self.page}: max difference {self.largest}/255, "
            f"{self.share:.3%} of pixels differ{self.note}"
        )


def measure(before: Image.Image, after: Image.Image) -> tuple[int, float]:
    """(largest channel difference, share of pixels that differ in any channel)."""
    from PIL import ImageChops  # noqa: PLC0415

    difference = ImageChops.difference(before, after)
    channels = difference.split()
    largest = max(int(channel.getextrema()[1]) for channel in channels)  # type: ignore[arg-type]
    worst = channels[0]
    for channel in channels[1:]:
        worst = ImageChops.lighter(worst, channel)
    histogram = worst.histogram()
    total = before.width * before.height
    return largest, (total - histogram[0]) / total


def explain(page: Page, was: Page, path: Path, dpi: float, keep: Path) -> Difference:
    """How much ``page`` (of ``path``) differs from ``was``, from the render the
    baseline kept."""
    from PIL import Image  # noqa: PLC0415

    note = ""
    if page.size != was.size or page.pixels != was.pixels:
        note = f"; page size changed: {_size(was)}, now {_size(page)}"
    if page.pixels != was.pixels:
        return Difference(page, note=note)
    kept = keep / f"{was.sha256}.png"
    if not kept.is_file():
        return Difference(page, note=f" (no render kept in {keep} to say how much)")
    with Image.open(kept) as opened:
        before = opened.convert("RGB")
    after = render(path, dpi)[page.page - 1]
    largest, share = measure(before, after)
    return Difference(page, largest, share, note)


def _size(page: Page) -> str:
    return f"{page.size[0]:g} x {page.size[1]:g} pt ({page.pixels[0]} x {page.pixels[1]} px)"


def compare(
    sources: Sequence[str], baseline: Path, jobs: int
) -> tuple[int, list[Difference], list[Page], list[Page]]:
    """(pages compared, those that differ, missing from ``sources``, new in them)."""
    document, before = load(baseline)
    dpi = float(document["dpi"])
    files = pdfs(sources)
    paths = dict(files)
    after = render_all(files, dpi, jobs, None)
    keep = pixels_folder(baseline)
    differences = [
        explain(page, before[page.key], paths[page.file], dpi, keep)
        for page in after
        if page.key in before
        and (page.sha256 != before[page.key].sha256 or page.size != before[page.key].size)
    ]
    now = {page.key for page in after}
    missing = [page for key, page in sorted(before.items()) if key not in now]
    new = [page for page in after if page.key not in before]
    return len(after), differences, missing, new


def _report(
    count: int, differences: list[Difference], missing: list[Page], new: list[Page], baseline: Path
) -> str:
    lines = [str(d) for d in differences]
    lines += [f"{page}: in the baseline, not rendered now" for page in missing]
    lines += [f"{page}: new (not in the baseline)" for page in new]
    verdict = (
        "every page renders as in the baseline"
        if not lines
        else f"{len(differences)} differ, {len(missing)} missing, {len(new)} new"
    )
    return "\n".join([*lines, f"renders: {count} pages compared with {baseline}: {verdict}"])


def _arguments(argv: Iterable[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    saving = commands.add_parser("save", help="render every page and write a baseline")
    saving.add_argument("sources", nargs="+", metavar="DIR_OR_PDF")
    saving.add_argument("--to", required=True, type=Path, metavar="BASELINE.json")
    saving.add_argument("--dpi", type=float, default=DEFAULT_DPI, help="default: 300")
    comparing = commands.add_parser("compare", help="render again and list the pages that differ")
    comparing.add_argument("sources", nargs="+", metavar="DIR_OR_PDF")
    comparing.add_argument(
        "--with", dest="baseline", required=True, type=Path, metavar="BASELINE.json"
    )
    for sub in (saving, comparing):
        sub.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    return parser.parse_args(None if argv is None else list(argv))


def main(argv: Iterable[str] | None = None) -> int:
    args = _arguments(argv)
    try:
        return _run(args)
    except _Usage as error:
        print(error, file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "save":
        pages = save(args.sources, args.to, args.dpi, args.jobs)
        distinct = len({page.sha256 for page in pages})
        print(
            f"renders: {len(pages)} pages of {len({p.file for p in pages})} files at "
            f"{args.dpi:g} dpi ({distinct} distinct) saved to {args.to} "
            f"(renders in {pixels_folder(args.to)})"
        )
        return 0
    count, differences, missing, new = compare(args.sources, args.baseline, args.jobs)
    print(_report(count, differences, missing, new, args.baseline))
    return 1 if differences or missing or new else 0


if __name__ == "__main__":
    sys.exit(main())
