"""What a page is called in a report: the card it holds (its page label, as
``translator build`` writes them), and whether it is a print-and-play sheet."""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf

#: The page labels ``translator build`` gives print-and-play sheets: such a page is
#: checked as a sheet (paper, with cards placed on it), not as a card.
SHEET_LABEL = re.compile(r"^sheet \d+( back)?$")


def card_names(pdf: pikepdf.Pdf, path: Path) -> list[str]:
    """Each page's label when its /PageLabels range has a prefix (a deck labelled by
    card), else the document's title, else the file's stem."""
    info = pdf.trailer.get("/Info")
    title = info.get("/Title") if isinstance(info, pikepdf.Dictionary) else None
    fallback = str(title).strip() if title is not None and str(title).strip() else path.stem
    names = [fallback] * len(pdf.pages)
    for index, (prefix, numbered) in _prefixed_pages(pdf).items():
        # A range without a numbering style labels its pages with the prefix alone:
        # read it here (pikepdf's Page.label takes a millisecond a page).
        label = (pdf.pages[index].label if numbered else prefix).strip()
        names[index] = label or fallback
    return names


def _prefixed_pages(pdf: pikepdf.Pdf) -> dict[int, tuple[str, bool]]:
    """Index -> (prefix, numbered) of the pages whose label range has a /P prefix (a
    flat /Nums tree); numbered when the range has a numbering style (/S)."""
    labels = pdf.Root.get("/PageLabels")
    nums = labels.get("/Nums") if isinstance(labels, pikepdf.Dictionary) else None
    if not isinstance(nums, pikepdf.Array):
        return {}
    starts = [(int(nums[i]), nums[i + 1]) for i in range(0, len(nums) - 1, 2)]
    prefixed: dict[int, tuple[str, bool]] = {}
    count = len(pdf.pages)
    for n, (start, spec) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else count
        if isinstance(spec, pikepdf.Dictionary) and str(spec.get("/P", "")):
            entry = (str(spec.P), "/S" in spec)
            prefixed.update((index, entry) for index in range(start, min(end, count)))
    return prefixed
