"""Benchmark: preflight a 216-page card deck PDF, ink coverage included.

Target (print part 2): at most 10 s for 200 pages on 2 cores.

    .venv/bin/python bench/preflight.py            # median of 3 runs
    .venv/bin/python bench/preflight.py --copies 20 --dpi 72

The sample is built in French (``translator build cards/sample --lang fr``), and its
24 card PDFs are put together ``--copies`` times into one PDF, each page labelled
``<slug>.fr`` and the output intent copied from a card, as a print shop would get a
deck.  The structure alone (``ink=False``) is timed too: the rest is Ghostscript.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pikepdf  # noqa: E402
from _timing import repeat, summary  # noqa: E402

from translator import api  # noqa: E402
from translator.pdf import preflight as pf  # noqa: E402
from translator.pdf.sizes import PRESETS  # noqa: E402


def build_cards(out: Path) -> list[Path]:
    """The sample's French card PDFs, built with the command line."""
    command = [
        str(ROOT / ".venv" / "bin" / "translator"),
        "build",
        "cards/sample",
        "--lang",
        "fr",
        "--out",
        str(out),
    ]
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return sorted(out.glob("*.pdf"))


def make_deck(cards: list[Path], copies: int, path: Path) -> int:
    """``copies`` times every card in one PDF, labelled by card; its page count."""
    deck = pikepdf.new()
    labels = []
    sources = [pikepdf.open(card) for card in cards]
    try:
        for _ in range(copies):
            for card, source in zip(cards, sources, strict=True):
                deck.pages.append(source.pages[0])
                labels.append(card.name.removesuffix(".pdf"))
        intents = sources[0].make_indirect(sources[0].Root.OutputIntents)
        deck.Root.OutputIntents = deck.copy_foreign(intents)
        nums = pikepdf.Array()
        for index, label in enumerate(labels):
            nums.append(index)
            nums.append(pikepdf.Dictionary(P=pikepdf.String(label)))
        deck.Root.PageLabels = pikepdf.Dictionary(Nums=nums)
        deck.save(path)
    finally:
        for source in sources:
            source.close()
    return len(labels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=9)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dpi", type=float, default=pf.DEFAULT_DPI)
    parser.add_argument("--out", default="/tmp/pf-cards", help="where the cards are built")
    args = parser.parse_args()
    cards = build_cards(Path(args.out))
    size = PRESETS["arcmage"]
    with tempfile.TemporaryDirectory() as directory:
        deck = Path(directory) / "deck.pdf"
        pages = make_deck(cards, args.copies, deck)
        problems: list[pf.Problem] = []

        def check() -> None:
            problems[:] = pf.preflight(deck, size=size, dpi=args.dpi)

        times = repeat(check, args.runs)
        structure = repeat(lambda: pf.preflight(deck, size=size, ink=False), args.runs)
        start = time.perf_counter()
        reports = api.preflight(cards, size=size)
        code = 1 if any(not r.ok for r in reports) else 0
        separate = time.perf_counter() - start
    print(
        f"preflight: {pages} pages ({len(cards)} cards x {args.copies}), "
        f"{args.dpi:g} dpi, {len(problems)} problems"
    )
    print(f"  deck, ink included: {summary(times, '.2f', 's')} (target <= 10)")
    print(f"  per page: {summary([t / pages * 1000 for t in times], '.1f', 'ms')}")
    print(f"  structure only (ink=False): {summary(structure, '.2f', 's')}")
    print(f"  the {len(cards)} card PDFs as separate files (api): {separate:.2f} s, exit {code}")
    for problem in problems[:5]:
        print(f"  {problem}")


if __name__ == "__main__":
    main()
