"""The WeasyPrint floor: the least any build of these cards must do, timed.

A build's time per card says little alone on a machine that is 2.5 times slower one
year than the next; its ratio to a bare WeasyPrint job run in the same round says how
much the build adds.  The floor is that bare job: for each of N cards a one-page HTML
card of the build's page size (trim and bleed) with the card's name, six lines of text
in two fonts (the default theme's regular and bold faces, read from their files by
``@font-face``) and a CMYK JPEG (the sample's artwork, converted once by Pillow), laid
out and written by WeasyPrint as one PDF per card, over as many worker processes as
the build uses.

What the time holds, as in the build's own: building each card's HTML, WeasyPrint's
parse, layout and PDF writing, the file written, and handing the cards to the workers
and waiting for the last one (wall time / N).  What it does not hold, as the build
has paid it before its timed runs too (its pool is kept for the life of the process):
starting the workers, importing WeasyPrint in them, and one card rendered by each
worker so that fontconfig, the fonts and the image are loaded once.  No ICC profile,
no PDF/X, no text fitting, no overprint, no preflight: those are what the build adds.

    .venv/bin/python bench/floor.py               # 240 cards, 2 processes, median of 3
    .venv/bin/python bench/floor.py --cards 24 --jobs 1
    .venv/bin/python bench/floor.py --whole --runs 1   # a whole command's floor

``--whole`` renders the cards once with nothing warmed, for a caller that times the
whole process from outside (``command.py``): the floor of a command, its start-up and
its workers' start (WeasyPrint imported, fonts loaded) included.
"""

from __future__ import annotations

import argparse
import html
import itertools
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from _timing import summary  # noqa: E402

from translator.pdf.sizes import PRESETS, CardSize  # noqa: E402
from translator.typeset.theme import load_theme  # noqa: E402

#: The sample's artwork the floor's cards print (any would do: all are 1200 x 992 px).
ARTWORK = ROOT / "cards" / "sample" / "art" / "courier.jpg"
#: The six lines of every card, in the sample's language; set alternately in the
#: regular and the bold face.
LINES = (
    "Quand cette carte entre en jeu,",
    "piochez une carte.",
    "Sacrifiez une créature : gagnez 2 ors.",
    "Une fois par tour, au début",
    "de votre tour, regardez la carte",
    "du dessus de votre pioche.",
)
#: Cards handed to a worker at a time, as the build hands it batches.
CHUNK = 8

_CSS = """
@font-face {{ font-family: "Floor"; font-weight: normal; src: url("{regular}"); }}
@font-face {{ font-family: "Floor"; font-weight: bold; src: url("{bold}"); }}
@page {{ size: {width}mm {height}mm; margin: 0; }}
html {{ color: device-cmyk(0 0 0 1); }}
body {{ margin: 0; font-family: "Floor"; font-size: 9pt; line-height: 1.25; }}
h1 {{ margin: 0; padding: 5mm 5mm 1mm; font-size: 10.5pt; font-weight: bold; }}
img {{ display: block; margin: 0 5mm; width: {art_width}mm; height: 33.5mm;
       object-fit: cover; }}
p {{ margin: 0; padding: 0 5mm; }}
.bold {{ font-weight: bold; }}
"""


def cmyk_artwork(target: Path, source: Path = ARTWORK) -> Path:
    """The floor's image: ``source`` converted to CMYK by Pillow (its naive conversion:
    the floor pays for embedding a CMYK JPEG, not for colour management), once."""
    from PIL import Image  # noqa: PLC0415

    with Image.open(source) as image:
        image.convert("CMYK").save(target, "JPEG", quality=92)
    return target


def stylesheet(size: CardSize, fonts: dict[str, Path]) -> str:
    """The CSS every floor card shares: the page size of the build (trim and bleed)."""
    return _CSS.format(
        regular=fonts["regular"].as_uri(),
        bold=fonts["bold"].as_uri(),
        width=size.page_width,
        height=size.page_height,
        art_width=size.page_width - 10,
    )


def card_html(name: str, image: Path, css: str) -> str:
    """One card: its name, the artwork, six lines in two faces."""
    lines = "\n".join(
        f'<p class="{"bold" if index % 2 else "regular"}">{html.escape(line)}</p>'
        for index, line in enumerate(LINES)
    )
    return (
        f"<!DOCTYPE html><html lang=fr><head><meta charset=utf-8><style>{css}</style>"
        f"</head><body><h1>{html.escape(name)}</h1>"
        f'<img src="{image.as_uri()}" alt="">{lines}</body></html>'
    )


def _render(cards: Sequence[tuple[str, str]], image: Path, css: str) -> int:
    """Write each (name, path) card as its own PDF, in a worker; how many."""
    from weasyprint import HTML  # noqa: PLC0415 - imported by _start before timing

    for name, path in cards:
        HTML(string=card_html(name, image, css), base_url=str(image.parent)).write_pdf(path)
    return len(cards)


def _start(image: Path, css: str, scratch: Path) -> None:
    """A worker's start, untimed: WeasyPrint imported, fonts and image loaded by one
    card written."""
    _render([("Floor", str(scratch / f"warm-{os.getpid()}.pdf"))], image, css)


def _chunks(names: Sequence[str], out: Path) -> list[list[tuple[str, str]]]:
    """The (name, PDF path in ``out``) of each card, :data:`CHUNK` to a worker's call."""
    cards = [(name, str(out / f"{index}.pdf")) for index, name in enumerate(names)]
    return [cards[i : i + CHUNK] for i in range(0, len(cards), CHUNK)]


def _pid() -> int:
    time.sleep(0.05)  # long enough that another worker takes the next one
    return os.getpid()


class Floor:
    """``jobs`` worker processes ready to render floor cards (started, warmed)."""

    def __init__(self, directory: Path, jobs: int, size: CardSize = PRESETS["arcmage"]) -> None:
        self.directory = directory
        self.image = cmyk_artwork(directory / "floor-art.jpg")
        fonts = load_theme(None).fonts
        self.css = stylesheet(size, fonts)
        self.jobs = max(1, jobs)
        self.pool = ProcessPoolExecutor(
            max_workers=self.jobs, initializer=_start, initargs=(self.image, self.css, directory)
        )
        self._wait_for_workers()

    def _wait_for_workers(self) -> None:
        """Return once every worker has started (its initializer done): a task runs only
        after it, and a worker still starting takes none."""
        seen: set[int] = set()
        while len(seen) < self.jobs:
            seen |= {f.result() for f in [self.pool.submit(_pid) for _ in range(self.jobs)]}

    def run(self, names: Sequence[str]) -> float:
        """Wall-clock seconds to write one PDF per name (into a fresh folder)."""
        out = Path(tempfile.mkdtemp(dir=self.directory, prefix="floor-"))
        chunks = _chunks(names, out)
        start = time.perf_counter()
        futures = [self.pool.submit(_render, chunk, self.image, self.css) for chunk in chunks]
        done = sum(future.result() for future in futures)
        seconds = time.perf_counter() - start
        assert done == len(names)
        shutil.rmtree(out)
        return seconds

    def close(self) -> None:
        self.pool.shutdown(wait=True)

    def __enter__(self) -> Floor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def names(count: int) -> list[str]:
    """``count`` card names: the sample's French names, over and over."""
    from translator import cards  # noqa: PLC0415

    library = cards.load_library([str(ROOT / "cards" / "sample")])[0]
    found = sorted(card.name("fr") for card in library.cards.values())
    return [found[index % len(found)] for index in range(count)]


def _whole(chosen: Sequence[str], jobs: int) -> None:
    """The cards rendered once by ``jobs`` new workers, as a command would: no worker
    started or warmed before (the caller times this process)."""
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        image = cmyk_artwork(directory / "floor-art.jpg")
        css = stylesheet(PRESETS["arcmage"], load_theme(None).fonts)
        chunks = _chunks(chosen, directory)
        with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
            done = sum(pool.map(_render, chunks, itertools.repeat(image), itertools.repeat(css)))
        assert done == len(chosen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=240)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--whole", action="store_true", help="render once, nothing warmed")
    args = parser.parse_args()
    chosen = names(args.cards)
    if args.whole:
        _whole(chosen, args.jobs)
        return
    with tempfile.TemporaryDirectory() as temporary, Floor(Path(temporary), args.jobs) as floor:
        times = [floor.run(chosen) for _ in range(args.runs)]
    per_card = [t / args.cards * 1000 for t in times]
    print(f"floor: {args.cards} cards, {args.jobs} processes, one PDF per card")
    print(f"floor: {summary(per_card, '.1f', 'ms')} per card")


if __name__ == "__main__":
    main()
