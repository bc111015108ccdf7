"""Benchmark: the black overprint of card pages, and the preflight's text check.

Both read a page as painted (``painter.Painter``): the overprint on every card page a
build writes (``overprint.overprint_black``, from ``pdfx.finish``), the text check on
every card page the preflight reads (``textcheck.TextCheck``, knockouts and reversed
text).

    .venv/bin/python bench/overprint.py            # median of 5 runs
    .venv/bin/python bench/overprint.py --runs 9 --lang all
    .venv/bin/python bench/overprint.py --theme out/themes/arcmage

The sample's cards are built once, in this process (``typeset.build_cards``, one job),
and each page is kept as ``overprint_black`` is given it (WeasyPrint's page, split and
boxed, no overprint yet); the text check reads the finished card PDFs, first with its
own parse of the content, then with the content parsed beforehand, as the preflight's
content walk shares it.  Every figure is CPU time per page (``time.process_time``
around the call alone: opening the PDFs is not counted), the median of ``--runs``
runs over all the pages.
"""

from __future__ import annotations

import argparse
import io
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pikepdf  # noqa: E402
from _timing import summary  # noqa: E402

from translator import cards  # noqa: E402
from translator.pdf import pdfx  # noqa: E402
from translator.pdf.overprint import overprint_black  # noqa: E402
from translator.pdf.sizes import PRESETS  # noqa: E402
from translator.pdf.textcheck import TextCheck, intent_profile  # noqa: E402
from translator.typeset import build as typeset  # noqa: E402
from translator.typeset.options import BuildOptions  # noqa: E402


def build_pages(directory: Path, lang: str, theme: str | None) -> tuple[list[bytes], list[Path]]:
    """The sample built in ``lang`` into ``directory``: each card page as the build
    hands it to ``overprint_black`` (a one-page PDF's bytes), and the card PDFs."""
    library, problems = cards.load_library([str(ROOT / "cards" / "sample")])
    assert not problems, problems[:3]
    options = BuildOptions(PRESETS["arcmage"], theme, cache_dir=directory / "cache")
    kept: list[bytes] = []
    overprint = pdfx.overprint_black  # what finish() calls

    def keeping(page: pikepdf.Page, ink_limit: float = pdfx.INK_LIMIT) -> int:
        alone = pikepdf.new()
        alone.pages.append(page)
        data = io.BytesIO()
        alone.save(data)
        kept.append(data.getvalue())
        return overprint(page, ink_limit)

    pdfx.overprint_black = keeping  # finish() calls it so
    try:
        languages = ["en", "fr", "eo"] if lang == "all" else [lang]
        for language in languages:
            typeset.build_cards(library, language, directory / "out", options, force=True)
    finally:
        pdfx.overprint_black = overprint
    return kept, sorted((directory / "out").glob("*.pdf"))


def per_page(
    documents: list[bytes],
    timed: Callable[[pikepdf.Pdf, pikepdf.Page, Any], int],
    prepare: Callable[[pikepdf.Page], Any] = lambda page: None,
) -> tuple[float, int]:
    """CPU milliseconds per page of ``timed`` over every page of ``documents``, each
    opened afresh and given what ``prepare`` makes of it (neither counted); and the
    sum of what ``timed`` returned."""
    spent, pages, total = 0.0, 0, 0
    for data in documents:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            for page in pdf.pages:
                prepared = prepare(page)
                start = time.process_time()
                total += timed(pdf, page, prepared)
                spent += time.process_time() - start
                pages += 1
    return spent / pages * 1000, total


def _parsed(page: pikepdf.Page) -> list[tuple[str, list[Any]]]:
    """``page``'s content parsed as the preflight's content walk gives it."""
    return [(str(i.operator), list(i.operands)) for i in pikepdf.parse_content_stream(page)]


def _overprint(pdf: pikepdf.Pdf, page: pikepdf.Page, prepared: None) -> int:
    return overprint_black(page)


def _check(pdf: pikepdf.Pdf, page: pikepdf.Page, parsed: list | None) -> int:
    return len(TextCheck(intent_profile(pdf)).page(page, parsed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lang", default="fr", help="a language of the sample, or all")
    parser.add_argument("--theme", metavar="DIR", help="a theme directory (default: translator's)")
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="bench-overprint-"))
    try:
        pages, built = build_pages(directory, args.lang, args.theme)
        finished = [path.read_bytes() for path in built]
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    overprints = [per_page(pages, _overprint) for _ in range(args.runs)]
    checks = [per_page(finished, _check) for _ in range(args.runs)]
    shared = [per_page(finished, _check, _parsed) for _ in range(args.runs)]
    print(
        f"overprint: {len(pages)} card pages ({args.lang}, theme {args.theme or 'default'}), "
        f"{overprints[0][1]} objects set to overprint, {checks[0][1]} text warnings"
    )
    for name, runs in (
        ("overprint_black", overprints),
        ("TextCheck.page, its own parse", checks),
        ("TextCheck.page, the content parsed", shared),
    ):
        print(f"  {name}: {summary([t for t, _ in runs], '.2f', 'ms CPU per page')}")
    both = statistics.median(t for t, _ in overprints) + statistics.median(t for t, _ in shared)
    print(f"  a card's overprint and text check, as in a build: {both:.2f} ms CPU")


if __name__ == "__main__":
    main()
